"""A seat's check of the committed shuffle (docs/protocol.md "Verifiable shuffle"): what the
Client does with `commit`, `fair` and `proof`, and with each view's events, to replay the
round with the engine at its end (crisp_core.verify) and say whether it holds.

Plain functions on the Client (`c`); MicroPython-compatible. State kept on the Client:
  c.fair       {round: entry}: this round's and the last's (below)
  c.committed  {room id: the highest round this page answered a commitment for there}
  c.pending    (room id, round): a commitment it answered whose deal has not come yet
  c.verdict, c.record: the round's check and its record (docs/protocol.md)
The room id is the one this page dialed (`c.dialed`, from `Client.join`), never what the host
says, so that a host cannot name a new room to commit a round again.

What a host running changed code cannot do here (issue 18; tests/test_attacks.py):
- drop this page's number and still show `round-verified`: the page that sent one must find
  it used or its own seat named as skipped (crisp_core.verify, `contribution`);
- deal a round again until it likes the deal: a page answers one commitment per (room, round)
  and a second one, or a new round's while the last answered one was never dealt, or a new
  game while one was waiting, is a mismatch at once (`again`), kept in the record;
- deal with no commitment: a seated guest expects one before a round's first view, else it
  says at once that the round is not checked (`uncommitted`; a test build's stacked deck:
  `test_deck`).
"""

from ui.shared.wire import is_hex, is_int

OBSERVED_MAX = 4000   # events of a round kept for its check (a real round has a few hundred)
PROOF_PARTS_MAX = 200

_DETAILS = {
    "again": "the host committed to this round again: it dealt the round again",
    "uncommitted": "the host's shuffle was not committed: this round is not checked",
    "test_deck": "a test deck: the round was stacked, not shuffled, and is not checked",
}


def where(c):
    """The room this page is in, by its own account: the id it joined, else the welcome's."""
    return c.dialed if c.dialed is not None else c.room


def checks(c):
    """True when this page checks rounds against a commitment of its own: a seated guest
    (not the host's own screen, not a spectator)."""
    return not c.is_host and not c.spectator and is_int(c.seat)


def entry_for(c, number):
    """What this page keeps about round `number`'s commitment (this round and the last)."""
    entry = c.fair.get(number)
    if entry is None:
        entry = _fresh(None)
        c.fair[number] = entry
        for old in list(c.fair):
            if old < number - 1:
                del c.fair[old]
    return entry


def _fresh(room):
    return {"commit": None, "commits": [], "room": room, "sent": None, "info": None,
            "segments": [], "proof": {}, "done": False, "bots": None, "host": None,
            "alarm": None}


def reset(c):
    """Back in the lobby (a new game): the old game's checks go, but not a commitment this
    page answered whose deal never came: a new game started over it is a round dealt again."""
    pending = c.pending
    keep = None
    if pending is not None and pending[0] == where(c) and pending[1] in c.fair:
        keep = (pending[1], c.fair[pending[1]])
    c.fair = {}
    c.verdict = None
    c.record = None
    if keep is None:
        c.committed.pop(where(c), None)
        c.pending = None
    else:
        c.fair[keep[0]] = keep[1]


def observe(c, number, events):
    """Keep every event this page receives, by round, for the check at the round's end:
    one segment per (re)join (after a rejoin the room replays only the last events). A
    seated guest's first view of a round with no commitment for it here says so at once."""
    if not is_int(number):
        return
    entry = entry_for(c, number)
    if checks(c) and entry["alarm"] is None and (entry["commit"] is None
                                                  or entry["room"] != where(c)):
        entry["alarm"] = "test_deck" if c.test_build else "uncommitted"
        _alarm(c, number, entry, entry["alarm"])
    if c._segment or not entry["segments"]:
        entry["segments"].append([])
        c._segment = False
    kept = sum([len(seg) for seg in entry["segments"]])
    for event in events:
        if isinstance(event, dict) and kept < OBSERVED_MAX:
            entry["segments"][-1].append(event)
            kept += 1
        if isinstance(event, dict) and event.get("type") == "round_over" \
                and c.pending is not None and c.pending[1] <= number:
            c.pending = None                 # that round was played out: nothing waits


def receive(c, kind, msg):
    """`commit`, `fair` or `proof` (a dict) from the room. Returns True when the model
    changed (a verdict)."""
    number = msg.get("round")
    if not is_int(number):
        return False
    if kind == "commit":
        return _commit(c, number, msg.get("commitment"))
    entry = entry_for(c, number)
    if kind == "fair":
        _fair(c, number, entry, msg)
        return False
    return _proof(c, number, entry, msg)


def _commit(c, number, commitment):
    """Before the deal: answer at once with this page's contribution, once for each (room,
    round). Another commitment for a round this page answered, for an earlier round, or for
    a new round while the last one answered was never dealt: the host deals again."""
    if not is_hex(commitment, 64):
        return False
    here = where(c)
    entry = entry_for(c, number)
    if entry["room"] != here:
        if entry["commit"] is not None or entry["room"] is not None:
            entry.update(_fresh(here))       # a handover's new room deals this round anew
        entry["room"] = here
    if entry["commit"] == commitment:
        return False                         # the same one again: nothing new
    top = c.committed.get(here)
    pending = c.pending
    left = (pending is not None and pending[0] == here and pending[1] != number
            and (c.fair.get(pending[1]) or {}).get("alarm") is None)
    again = entry["commit"] is not None or (top is not None and number <= top) or left
    if again:
        if pending is not None and pending[0] == here and pending[1] in c.fair:
            for old in c.fair[pending[1]]["commits"]:
                if old not in entry["commits"]:
                    entry["commits"].insert(0, old)
        if commitment not in entry["commits"]:
            entry["commits"].append(commitment)
        if entry["commit"] is None:
            entry["commit"] = entry["commits"][0]
        entry["alarm"] = "again"
        _alarm(c, number, entry, "again")
        return True
    entry["commit"] = commitment
    entry["commits"] = [commitment]
    entry["bots"] = [p.get("seat") for p in c.players
                     if isinstance(p, dict) and p.get("bot") and is_int(p.get("seat"))]
    entry["host"] = c.host_seat
    c.committed[here] = number
    if c.entropy is not None and not c.is_host:
        entry["sent"] = c.entropy()
        c.pending = (here, number)
        c._send({"type": "contribute", "round": number, "value": entry["sent"]})
    return False


def _fair(c, number, entry, msg):
    """The round's start, just before its deal (or a rejoin's first view)."""
    here = where(c)
    commitment = msg.get("commitment")
    if entry["room"] != here:
        # the round moved with the room (a sealed handover: the same commitment goes on)
        if entry["commit"] is not None and commitment != entry["commit"]:
            entry.update(_fresh(here))
        entry["room"] = here
    entry["info"] = msg
    if entry["commit"] is None and is_hex(commitment, 64):
        entry["commit"] = commitment         # joined after the commitment
        entry["commits"] = [commitment]
    elif entry["commit"] is not None and commitment != entry["commit"]:
        # dealt from another commitment than the one this page answered: dealt again
        if is_hex(commitment, 64) and commitment not in entry["commits"]:
            entry["commits"].append(commitment)
        if entry["alarm"] is None:
            entry["alarm"] = "again"
            _alarm(c, number, entry, "again")
        return
    if entry["bots"] is None:
        entry["bots"] = [p.get("seat") for p in c.players
                         if isinstance(p, dict) and p.get("bot") and is_int(p.get("seat"))]
        entry["host"] = c.host_seat
    if c.pending == (here, number):
        c.pending = None                     # dealt: the commitment this page answered


def _proof(c, number, entry, msg):
    parts = msg.get("parts")
    part = msg.get("part")
    if (entry["done"] or not is_int(parts) or not is_int(part)
            or not 0 <= part < parts <= PROOF_PARTS_MAX):
        return False
    entry["proof"][part] = msg
    if len(entry["proof"]) < parts or entry["info"] is None:
        return False
    entry["done"] = True
    try:
        _verify(c, number, entry, parts)
    except Exception as e:        # a bug or a host's garbage: a loud mismatch, no crash
        c.verdict = {"round": number, "ok": False, "skipped": [], "what": "record",
                     "detail": "the check failed: " + type(e).__name__,
                     "saw": [], "expected": []}
    return True


def record_of(c, number, entry, parts=0):
    """The round's record (docs/protocol.md "The record"), JSON-safe, from what this page
    has: with no proof yet (an alarm at once) the secret and the inputs are missing."""
    info = entry["info"] or {}
    actions = []
    first = {}
    for part in range(parts):
        got = entry["proof"][part].get("actions")
        actions += got if isinstance(got, list) else [None]
        if part == 0:
            first = entry["proof"][0]
    record = {"crisp_record": 1, "round": number,
              "dealer": info.get("dealer"), "options": info.get("options"),
              "scores": info.get("scores"), "start": info.get("start"),
              "players": info.get("players"),
              "commitment": entry["commit"], "commitments": list(entry["commits"]),
              "contributions": info.get("contributions"), "skipped": info.get("skipped"),
              "secret": first.get("secret"), "actions": actions, "seat": c.seat,
              "sent": entry["sent"], "bots": entry["bots"], "host": entry["host"],
              "observed": entry["segments"]}
    if entry["alarm"] in ("uncommitted", "test_deck"):
        record["commitment"] = None
        record["commitments"] = []
        record["test_deck"] = entry["alarm"] == "test_deck"
    return record


def _alarm(c, number, entry, what):
    """Say at once that this round is not checked, or was dealt again."""
    c.verdict = {"round": number, "ok": False, "skipped": [], "what": what,
                 "detail": _DETAILS[what], "saw": [], "expected": []}
    c.record = record_of(c, number, entry)


def _verify(c, number, entry, parts):
    """All of the proof is here: build the round's record and check it with the engine."""
    import crisp_core.verify as verify    # the engine: guests have it in their zip too
    info = entry["info"]
    record = record_of(c, number, entry, parts)
    result = verify.check(record)
    if result is None and entry["commit"] != info.get("commitment"):
        result = {"what": "commitment", "detail": "the deal's commitment is not the one "
                  "sent before the contributions", "saw": [], "expected": []}
    verdict = {"round": number, "ok": result is None,
               "skipped": info.get("skipped") or []}
    if result is not None:
        verdict.update(result)
    c.verdict = verdict
    c.record = record
