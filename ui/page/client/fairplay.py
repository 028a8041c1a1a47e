"""A seat's check of the committed shuffle (docs/protocol.md "Verifiable shuffle"): what the
Client does with `commit`, `fair` and `proof`, and with each view's events, to replay the
round with the engine at its end (crisp_core.verify) and say whether it holds.

Plain functions on the Client (`c`); MicroPython-compatible. State kept on the Client:
  c.fair       {round: entry}: this game's rounds, this one and the last (below)
  c.committed  {room id: the highest deal number this page answered or saw dealt there}: kept
               for the whole room, new games included (the room never numbers two deals
               alike)
  c.pending    (room id, deal, round, commitment, welcomes): the last commitment this page
               answered (and how many welcomes it had then), until its round ends (a
               `round_over` seen); also kept over a new game's lobby
  c.verdict, c.record: the round's check and its record (docs/protocol.md)
The room id is the one this page dialed (`c.dialed`, from `Client.join`), never what the host
says, so that a host cannot name a new room to commit a round again.

What a host running changed code cannot do here (tests/test_attacks.py):
- drop this page's number and still show `round-verified`: the page that sent one must find
  it used or its own seat named as skipped (crisp_core.verify, `contribution`);
- deal a round again until it likes the deal: a page answers each deal number once in a
  room, and a second commitment (for a number it answered, or while the round of the one it
  answered never ended: a `fair` and a new game's lobby do not end it) is a mismatch at once
  (`again`), kept in the record;
- deal with no commitment: a seated guest expects one before a round's first view, else it
  says at once that the round is not checked (`uncommitted`; a test build's stacked deck:
  `test_deck`);
- keep the proof: a round seen without its start (`fair`), or ended without its proof, is not
  checked, said as such (`unproven`);
- deal from its own secret alone (every seat named skipped): not checked, said at the deal
  and on the results (`alone`), never green.
"""

from ui.shared.wire import is_hex, is_int

OBSERVED_MAX = 4000   # events of a round kept for its check (a real round has a few hundred)
PROOF_PARTS_MAX = 200

_DETAILS = {
    "again": "the host committed to this round again: it dealt the round again",
    "uncommitted": "the host's shuffle was not committed: this round is not checked",
    "test_deck": "a test deck: the round was stacked, not shuffled, and is not checked",
    "unproven": "the host did not show its shuffle: this round is not checked",
    "alone": "no guest's number was used: the deal is the host's own, not checked",
}
ENDS = ("round_over", "game_over")


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
            "alarm": None, "deal": None, "ended": False}


def reset(c):
    """Back in the lobby (a new game): the old game's checks go; what this page answered in
    this room stays (`committed`, `pending`): a new game started over a commitment whose
    round never ended is a round dealt again."""
    c.fair = {}
    c.verdict = None
    c.record = None


def _open(c, here):
    """The commitment this page answered in room `here` whose round has not ended, or None."""
    pending = c.pending
    return pending if pending is not None and pending[0] == here else None


def observe(c, number, events, phase=None):
    """Keep every event this page receives, by round, for the check at the round's end:
    one segment per (re)join (after a rejoin the room replays only the last events). A
    seated guest's first view of a round with no commitment for it here, or with no start
    (`fair`), says so at once. `phase`: the view's; the round's end (`ENDS`, or a
    `round_over` event) checks the round, or says it is not checked with no proof here."""
    if not is_int(number):
        return
    entry = entry_for(c, number)
    if checks(c) and entry["alarm"] is None:
        if entry["commit"] is None or entry["room"] != where(c):
            entry["alarm"] = "test_deck" if c.test_build else "uncommitted"
            _alarm(c, number, entry, entry["alarm"])
        elif entry["info"] is None:
            entry["alarm"] = "unproven"
            _alarm(c, number, entry, "unproven")
    if c._segment or not entry["segments"]:
        entry["segments"].append([])
        c._segment = False
    kept = sum([len(seg) for seg in entry["segments"]])
    ended = phase in ENDS
    for event in events:
        if isinstance(event, dict) and kept < OBSERVED_MAX:
            entry["segments"][-1].append(event)
            kept += 1
        if isinstance(event, dict) and event.get("type") == "round_over":
            ended = True
    if ended:
        _ended(c, number, entry)


def _ended(c, number, entry):
    """The round's end seen here: the commitment this page answered for it (or before it)
    no longer waits; the round is checked if its proof is here, else said not checked."""
    entry["ended"] = True
    pending = _open(c, where(c))
    if pending is not None and is_int(entry["deal"]) and pending[1] <= entry["deal"]:
        c.pending = None                     # that round was played out: nothing waits
    if entry["done"]:
        return
    if _proven(entry):
        _check(c, number, entry)
    elif checks(c) and entry["alarm"] is None:
        entry["alarm"] = "unproven"
        _alarm(c, number, entry, "unproven")


def receive(c, kind, msg):
    """`commit`, `fair` or `proof` (a dict) from the room. Returns True when the model
    changed (a verdict)."""
    number = msg.get("round")
    if not is_int(number):
        return False
    if kind == "commit":
        return _commit(c, number, msg.get("deal"), msg.get("commitment"))
    entry = entry_for(c, number)
    if kind == "fair":
        _fair(c, number, entry, msg)
        return False
    return _proof(c, number, entry, msg)


def _commit(c, number, deal, commitment):
    """Before the deal: answer at once with this page's contribution, once for each deal
    number in a room (`deal`: the room's count of commitments, new games included). A
    commitment for a deal number this page answered or saw dealt, another one for this game's
    round, or one while the round of the last one it answered never ended: the host deals
    again. A commitment with no deal number is not answered (its round: `uncommitted`)."""
    if not is_hex(commitment, 64) or not is_int(deal) or deal < 1:
        return False
    here = where(c)
    entry = entry_for(c, number)
    if entry["room"] != here:
        if entry["commit"] is not None or entry["room"] is not None:
            entry.update(_fresh(here))       # a handover's new room deals this round anew
        entry["room"] = here
    if entry["commit"] == commitment and entry["deal"] == deal:
        return False                         # the same one again: nothing new
    top = c.committed.get(here)
    pending = _open(c, here)
    left = pending is not None and pending[1] != deal
    if entry["commit"] is not None or (top is not None and deal <= top) or left:
        _again(c, number, entry, commitment, pending)
        return True
    entry["commit"] = commitment
    entry["commits"] = [commitment]
    entry["deal"] = deal
    entry["bots"] = [p.get("seat") for p in c.players
                     if isinstance(p, dict) and p.get("bot") and is_int(p.get("seat"))]
    entry["host"] = c.host_seat
    c.committed[here] = deal
    if c.entropy is not None and not c.is_host:
        entry["sent"] = c.entropy()
        c.pending = (here, deal, number, commitment, c.welcomes)
        c._send({"type": "contribute", "round": number, "value": entry["sent"]})
    return False


def _again(c, number, entry, commitment, pending):
    """The host committed again (`commitment`) over one this page answered (`pending`, or
    this round's): `again` at once, and every commitment in the record."""
    if pending is not None and pending[3] not in entry["commits"]:
        entry["commits"].insert(0, pending[3])
    if is_hex(commitment, 64) and commitment not in entry["commits"]:
        entry["commits"].append(commitment)
    if entry["commit"] is None and entry["commits"]:
        entry["commit"] = entry["commits"][0]
    if entry["alarm"] != "again":
        entry["alarm"] = "again"
        _alarm(c, number, entry, "again")


def _fair(c, number, entry, msg):
    """The round's start, just before its deal (or a rejoin's first view). A start with no
    deal number is none (the round is then `unproven`)."""
    here = where(c)
    commitment = msg.get("commitment")
    deal = msg.get("deal")
    if not is_int(deal) or deal < 1:
        return
    if entry["room"] != here:
        # the round moved with the room (a sealed handover: the same commitment goes on)
        if entry["commit"] is not None and commitment != entry["commit"]:
            entry.update(_fresh(here))
        entry["room"] = here
    if _dealt_again(c, here, deal, commitment):
        _again(c, number, entry, commitment, _open(c, here))
        return
    entry["info"] = msg
    c.committed[here] = max(c.committed.get(here) or 0, deal)
    if entry["commit"] is None and is_hex(commitment, 64):
        entry["commit"] = commitment         # joined after the commitment
        entry["commits"] = [commitment]
        entry["deal"] = deal
    elif entry["commit"] is not None and commitment != entry["commit"]:
        # dealt from another commitment than the one this page answered: dealt again
        _again(c, number, entry, commitment, None)
        return
    if checks(c) and entry["alarm"] is None and not _used(msg):
        entry["alarm"] = "alone"             # the host's secret alone: nothing to check
        _alarm(c, number, entry, "alone")
    if entry["bots"] is None:
        # joined after the commitment: who hosted when it came is not known here (after a
        # handover it is not today's host, who then contributed as a guest), so this page
        # does not check the host's-seat rule; the pages that saw the commitment do
        entry["bots"] = [p.get("seat") for p in c.players
                         if isinstance(p, dict) and p.get("bot") and is_int(p.get("seat"))]
        entry["host"] = None


def _used(info):
    """True when the round's start names at least one contribution used (a guest's number
    went into the deal)."""
    used = info.get("contributions")
    return isinstance(used, list) and len(used) > 0


def _dealt_again(c, here, deal, commitment):
    """True when a round's start (`deal`, `commitment`) is a deal this page must refuse: not
    the commitment it answered for that number, a number below the highest it knows, or a
    later deal while the round of the one it answered never ended (unless this page was
    welcomed again since it answered: it was away, and may have missed that round's end)."""
    pending = _open(c, here)
    top = c.committed.get(here)
    if pending is not None and deal == pending[1]:
        return commitment != pending[3]
    if top is not None and deal < top:
        return True
    if pending is not None and deal > pending[1]:
        if c.welcomes <= pending[4]:
            return True
        c.pending = None                     # away over its end: nothing waits now
    return False


def _proof(c, number, entry, msg):
    parts = msg.get("parts")
    part = msg.get("part")
    if (entry["done"] or not is_int(parts) or not is_int(part)
            or not 0 <= part < parts <= PROOF_PARTS_MAX):
        return False
    entry["proof"][part] = msg
    if not _proven(entry) or not entry["ended"]:
        return False                         # checked at the round's end (`_ended`)
    _check(c, number, entry)
    return True


def _proven(entry):
    """True when all of the round's proof and its start are here."""
    parts = entry["proof"].get(0, {}).get("parts") if 0 in entry["proof"] else None
    return (is_int(parts) and entry["info"] is not None
            and all(k in entry["proof"] for k in range(parts)))


def _check(c, number, entry):
    """Check the round (its proof and its end are here), once."""
    entry["done"] = True
    parts = entry["proof"][0]["parts"]
    try:
        _verify(c, number, entry, parts)
    except Exception as e:        # a bug or a host's garbage: a loud mismatch, no crash
        c.verdict = {"round": number, "ok": False, "skipped": [], "what": "record",
                     "detail": "the check failed: " + type(e).__name__,
                     "saw": [], "expected": []}


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
    if result is None and not _used(info):
        result = {"what": "alone", "detail": _DETAILS["alone"], "saw": [], "expected": []}
    verdict = {"round": number, "ok": result is None,
               "skipped": info.get("skipped") or []}
    if result is not None:
        verdict.update(result)
    c.verdict = verdict
    c.record = record
