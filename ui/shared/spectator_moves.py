"""Spectators follow the room through a host handover (docs/protocol.md "Spectators follow a
handover"): the marks of the room's next ids a spectator is told (`id_mark`), the `moved`
proofs the host computes for each spectator (`moved_entries`, `moved_mac`), the entries a new
host reads (`watchers`, `moved_for`) and the spectator's check of a `moved` (`check_moved`).
Pure and MicroPython-compatible."""

from crisp_core.checks import is_hex, same
from ui.shared import wire
from ui.shared.handover import FOLLOW_EPOCHS, MAX_EPOCH, _mac, _split, epoch_after, room_id_after

FOLLOW_HEX = 32         # a spectator's follow token: 16 random bytes, as hex
MAX_WATCHERS = 8        # spectators a room keeps for its next host to tell (MAX_SPECTATORS)
MOVED_TEXT = 400        # a `moved` message is shorter than this


def is_peer_id(text):
    """True when `text` looks like a PeerJS id (letters, digits, single - or _ between; at
    most 64): a spectator's, or a room's."""
    if not isinstance(text, str) or not 0 < len(text) <= 64:
        return False
    prev = "-"
    for c in text:
        sep = c in "-_"
        if not sep and not (c.isalpha() or c.isdigit()) or ord(c) > 127:
            return False
        if sep and prev in "-_":
            return False
        prev = c
    return prev not in "-_"


def next_ids(room_id, secret, epochs=FOLLOW_EPOCHS):
    """The room's real next ids from `room_id` (`room_id_after` for the next `epochs`
    epochs, the nearest first); [] without a valid secret."""
    first = epoch_after(room_id)
    out = []
    for e in range(first, min(first + epochs, MAX_EPOCH + 1)):
        try:
            out.append(room_id_after(room_id, e, secret))
        except ValueError:
            return []
    return out


def id_mark(new_id):
    """What a spectator is told of a next id (`watching` `next`): a hash of it (32 hex),
    enough to recognise the id in a `moved`, not to find it (its tag is 80 unguessable
    bits), so that it cannot squat it first."""
    return _mac("crisp-next-id", str(new_id))[:32]


def id_marks(items):
    """The well-formed marks of a `watching`'s `next` (FOLLOW_EPOCHS at most), else []."""
    if not isinstance(items, list):
        return []
    return [m for m in items[:FOLLOW_EPOCHS] if is_hex(m, 32)]


def moved_entries(follow, room_id, secret):
    """The `moved` proofs the host computes itself for one spectator, for each of the room's
    real next ids: [[new id, moved_mac]]. These, not the follow token, go into the sealed
    room and the designate's `standby`: a successor can forward only the true next id."""
    return [[new_id, moved_mac(follow, room_id, new_id)]
            for new_id in next_ids(room_id, secret)]


def watchers(items):
    """The well-formed entries of a list of spectators to tell after a handover:
    [{"peer": PeerJS id, "moved": [[next id, 64 hex], ...] (FOLLOW_EPOCHS at most)}], at most
    MAX_WATCHERS, no peer twice; anything else is dropped."""
    out = []
    peers = []
    for w in items if isinstance(items, list) else []:
        if len(out) >= MAX_WATCHERS:
            break
        if not isinstance(w, dict) or set(w) != {"peer", "moved"} \
                or not isinstance(w["moved"], list):
            continue
        moved = [[m[0], m[1]] for m in w["moved"][:FOLLOW_EPOCHS]
                 if isinstance(m, list) and len(m) == 2 and is_peer_id(m[0])
                 and is_hex(m[1], 64)]
        if is_peer_id(w["peer"]) and moved and w["peer"] not in peers:
            peers.append(w["peer"])
            out.append({"peer": w["peer"], "moved": moved})
    return out


def moved_mac(follow, old_id, new_id):
    """The proof (64 hex) that the room a spectator watched at `old_id` moved to `new_id`:
    keyed by that spectator's follow token (`watching`), which only the room knows."""
    return _mac(follow, "crisp-moved", old_id, new_id)


def moved_text(new_id, mac):
    """The `moved` message (JSON text) for `new_id` with its proof `mac`."""
    return wire.encode(wire.message("moved", room=new_id, mac=mac))


def moved_message(follow, old_id, new_id):
    """The `moved` message the room's host computes for a spectator of the room at
    `old_id` (a test's, or `moved_entries`')."""
    return moved_text(new_id, moved_mac(follow, old_id, new_id))


def moved_for(watcher, new_id):
    """The `moved` text a new host at `new_id` sends one spectator (an entry of `watchers`),
    or None when the old host computed none for that id."""
    for entry in watcher.get("moved") or []:
        if entry[0] == new_id:
            return moved_text(new_id, entry[1])
    return None


def check_moved(text, follow, old_id, marks):
    """The new room id a `moved` message (JSON text from an incoming connection) proves,
    else None: exactly {type "moved", v 1, room, mac}; `room` a PeerJS id of the same room
    (`<base>-h<k>-<tag>`, k after `old_id`'s epoch), one of the next ids the room told this
    spectator of (`marks`: `watching` `next`, id_mark of each) and `mac` = moved_mac(follow,
    old_id, room). Anything else, a wrong mac, a missing follow token: None (the page closes
    that connection and changes nothing)."""
    if not is_hex(follow, FOLLOW_HEX) or not isinstance(text, str) or len(text) > MOVED_TEXT:
        return None
    msg = wire.read(text)
    if msg is None or msg.get("type") != "moved" or not wire.fits(wire.BETWEEN, msg) \
            or set(msg) != {"type", "v", "room", "mac"}:
        return None
    new_id, mac = msg["room"], msg["mac"]
    if not is_peer_id(new_id) or new_id == old_id:
        return None
    base, epoch = _split(new_id)
    if base != _split(old_id)[0] or epoch < epoch_after(old_id):
        return None
    if id_mark(new_id) not in id_marks(marks):
        return None
    if not same(mac, moved_mac(follow, old_id, new_id)):
        return None
    return new_id


def follow_now(new_id, sign, now, gone_ms, left=False):
    """True when a spectator follows the room to `new_id` (a move `check_moved` proved, or
    None) now, `now` ms: only once its old host has been silent for `gone_ms` (HOST_GONE_MS)
    on this page's own clock (`sign`: the old host's last sign of life here, ms, Link.sign),
    or said itself that it leaves (`left`: its `host_leaving`, on its own connection).
    The proof alone says nothing of whether the host went: the designate gets the host's own
    `moved` proofs in its `standby` (a room with no sealed box has nothing else), and the
    succession secret lets it register the real next id while the host is still there. A
    proven move that comes early waits (the page looks again at every step) and is followed
    once the host has been silent that long; never while it still speaks."""
    if new_id is None:
        return False
    if left is True:
        return True
    if not isinstance(sign, (int, float)) or not isinstance(now, (int, float)):
        return False
    return now - sign >= gone_ms


# ---- a reloaded page follows the room (docs/protocol.md "Back from away") ------------------
