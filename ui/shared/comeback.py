"""The old host comes back (docs/protocol.md "The old host comes back"; docs/decisions.md "A page that says it hosts the room proves it"): is
the room that answers at this room's next id really this room, moved by a handover while the
old host's page was away? Only if it proves it opened one of this room's sealed boxes: the
successor opened it with two shares, and so has the box's `seal.opened_check`; the old host
kept the checks of its last boxes in its save (`seal_checks`). Pure; MicroPython-compatible.
"""

import hashlib
import hmac

from ui.shared import spectator_moves
from crisp_core.checks import is_hex, same

OPENED_KEEP = 16        # the boxes whose opened_check the host keeps (its last seals)


def opened_mac(check, new_id):
    """The successor's proof (64 hex) that it opened this room's sealed box: keyed by the
    box's `seal.opened_check` (which only the key gives: two shares), over the id it hosts
    at. It says so in every `watching` (`opened`: {"n": the box, "mac"}); the old host checks
    it against the checks its save kept (`seal_checks`)."""
    return hmac.new(check.encode("utf-8"), ("crisp-opened-id:" + str(new_id)).encode("utf-8"),
                    hashlib.sha256).hexdigest()


def keep_check(checks, n, check):
    """`checks` ({str(n): opened_check}, the host's save) with box `n`'s added, the oldest
    dropped past OPENED_KEEP. Returns the new dict."""
    out = dict(checks) if isinstance(checks, dict) else {}
    out[str(n)] = check
    nums = sorted([int(k) for k in out if k.isdigit()])
    for old in nums[:-OPENED_KEEP]:
        out.pop(str(old), None)
    return out


def proves_opening(opened, new_id, checks):
    """True when `opened` (a `watching`'s field, from whoever answers at the room's next id
    `new_id`) proves that it opened one of this room's boxes: {"n": int, "mac": 64 hex} with
    mac = opened_mac(checks[str(n)], new_id). `checks`: the old host's saved `seal_checks`.
    A seated guest alone (one share) cannot; two who collude can (they open the box)."""
    if not isinstance(opened, dict) or not isinstance(checks, dict):
        return False
    n, mac = opened.get("n"), opened.get("mac")
    if not _is_seat(n) or not is_hex(mac, 64):
        return False
    check = checks.get(str(n))
    if not is_hex(check, 64):
        return False
    return same(mac, opened_mac(check, new_id))


def moved_host(saved, new_id, msg):
    """The seat hosting the room at `new_id` when that room is this saved room moved (a
    handover while the old host's page was away), else None. `saved`: the old host's save
    (its `host`, `seal_checks`); `msg`: the `watching` (a dict) the peer at `new_id`
    answered with. Only a room that names another seat as host and proves it opened one of
    this room's boxes counts: a seated guest squatting the next id alone cannot, so the old
    host never gives its room up to it (docs/decisions.md "A page that says it hosts the room proves it")."""
    if not isinstance(saved, dict) or not isinstance(msg, dict):
        return None
    host = msg.get("host")
    if not _is_seat(host) or host == saved.get("host", 0):
        return None
    if not proves_opening(msg.get("opened"), new_id, proof_keys(saved)):
        return None
    return host


def proof_keys(saved):
    """The keys a room at the next id may prove with, from the old host's save: its boxes'
    opened checks or, when it sealed no box (with one person besides the host nobody can
    open one, and its designate rebuilds the room from what every page knows), the check
    it gave its designate alone in `standby` (as box 0). A designate with that check but a
    room that sealed boxes must open one: it cannot stand in for the box's two shares."""
    checks = saved.get("seal_checks")
    if isinstance(checks, dict) and checks:
        return checks
    if is_hex(saved.get("standby_check"), 64):
        return {"0": saved["standby_check"]}
    return {}


def _is_seat(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def watching_proofs(room_id, succession, opened):
    """What a room's `watching` says of its succession: `next`, the marks of its real next
    ids (a spectator takes a `moved` for one of those only, docs/decisions.md "Spectator places and follow tokens") and, in a
    room a successor opened from the sealed box (`opened`: {"n", "check"}), its proof."""
    fields = {"next": [spectator_moves.id_mark(i) for i in spectator_moves.next_ids(room_id, succession)]}
    if opened is not None:
        fields["opened"] = {"n": opened["n"], "mac": opened_mac(opened["check"], room_id)}
    return fields


def saved_keep(d, people):
    """What a saved room `d` keeps for its succession, each field checked and left at its
    default when malformed: `seal_n` (its boxes go on numbering after a reload: pages keep
    only a newer box), `seal_checks` (its last boxes' opened checks), `opened` (the box this
    room was opened from, a successor's), `derived` (the seats, among `people`, whose
    handover-derived token has not been replaced yet) and `standby_check` (the proof key
    given to the designate, `proof_keys`). Returns those five as a dict."""
    n = d.get("seal_n", 0)
    out = {"seal_n": n if _is_seat(n) else 0, "seal_checks": {}, "opened": None,
           "derived": set(), "standby_check": None}
    if is_hex(d.get("standby_check"), 64):
        out["standby_check"] = d["standby_check"]
    checks = d.get("seal_checks")
    if isinstance(checks, dict) and len(checks) <= OPENED_KEEP and all(
            isinstance(k, str) and k.isdigit() and is_hex(v, 64) for k, v in checks.items()):
        out["seal_checks"] = dict(checks)
    opened = d.get("opened")
    if isinstance(opened, dict) and set(opened) == {"n", "check"} and _is_seat(opened["n"]) \
            and is_hex(opened["check"], 64):
        out["opened"] = dict(opened)
    derived = d.get("derived")
    if isinstance(derived, list):
        out["derived"] = set(i for i in derived if i in people)
    return out
