"""Check a round against its committed shuffle, by replaying it with the engine.

    python3 -m crisp_core.verify record.json     exit 0: the round holds; 1: the first
                                                 difference is printed

A record (docs/protocol.md, "Verifiable shuffle") holds what the host committed to before
the deal (``commitment``), the guests' ``contributions``, the ``secret`` it revealed at the
end, the round's start (``round``, ``dealer``, ``options``, ``scores``, ``start``), the inputs
of the round in order with their times (``actions``, the engine's ``Game.journal``), and what
one seat's page saw (``seat``, ``sent``: its own contribution, ``observed``: the events it
received, in segments: a new segment starts each time the page (re)joined the room).

:func:`check` recomputes the deck from the secret and the contributions
(``crisp_core.shuffle``), replays the inputs with the engine from that deck, and compares
every event the page saw (its peeks, Jack and Queen reveals, the cards it drew, every
discard, the deck turned over, the final hands) with the replay's. Pure standard library;
runs on CPython and MicroPython (the guests' pages run it at the end of every round).
"""

import json
import sys

from . import shuffle
from .actions import is_int
from .checks import is_hex
from .game import Game, IllegalAction
from .views import events_for

RECORD_VERSION = 1
MAX_ACTIONS = 5000         # a round's inputs (a real round has a few hundred at most)
MAX_FIRED = 200            # deadlines fired between two inputs (the host ticks at each one)
MAX_FIRED_TOTAL = 5000     # ... and in the whole round: a hostile record stays cheap to check
END_PHASES = ("round_over", "game_over")

#: What a mismatch may name (``what``), in the order a check meets them.
KINDS = ("record", "uncommitted", "again", "commitment", "contribution", "log", "deal", "peek",
         "draw", "jack", "queen", "discard", "recycle", "hands", "event")


class Mismatch(Exception):
    """The round does not hold: ``what`` (one of :data:`KINDS`), an English ``detail``, and
    the cards the page ``saw`` and those the committed deck gives (``expected``)."""

    def __init__(self, what, detail, saw=None, expected=None):
        super().__init__(detail)
        self.what = what
        self.detail = detail
        self.saw = saw or []
        self.expected = expected or []

    def result(self):
        """The mismatch as a JSON-safe dict: ``{what, detail, saw, expected}``."""
        return {"what": self.what, "detail": self.detail, "saw": list(self.saw),
                "expected": list(self.expected)}


def _seats(value, what):
    """A record's list of seats (``skipped``, ``bots``): absent is empty; else ints."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(is_int(s) for s in value):
        raise Mismatch("record", "the record's %s are not seats" % what)
    return value


def _committed(record):
    """The round had one commitment, and only one (docs/decisions.md "One commitment a round, every seat's number used"): a record
    whose ``commitment`` is null is a round dealt with none (``uncommitted``: not checked);
    ``commitments``, when there, lists every commitment the page got for the round in that
    room, and more than one is a host that dealt the round again until it liked the deal."""
    if record.get("commitment") is None:
        if record.get("test_deck") is True:
            raise Mismatch("uncommitted", "a test deck: the round was stacked, not shuffled")
        raise Mismatch("uncommitted", "the host's shuffle was not committed: this round is "
                       "not checked")
    commitments = record.get("commitments")
    if commitments is None:
        return
    if not isinstance(commitments, list) or not all(is_hex(c, 64) for c in commitments):
        raise Mismatch("record", "the commitments are not a list of 64 hex digits")
    distinct = []
    for c in commitments:
        if c not in distinct:
            distinct.append(c)
    if len(distinct) > 1:
        raise Mismatch("again", "the host committed to round %s %d times: it dealt the round "
                       "again" % (record.get("round"), len(distinct)),
                       [c[:8] for c in distinct[1:]], [distinct[0][:8]])


def _shape(record):
    """Refuse a record that is not one (a hostile or broken file never crashes the check)."""
    if not isinstance(record, dict) or record.get("crisp_record") != RECORD_VERSION:
        raise Mismatch("record", "not a Crisp round record (version 1)")
    _committed(record)
    for key in ("round", "dealer", "start"):
        if not is_int(record.get(key)):
            raise Mismatch("record", "the record's %s is not an integer" % key)
    if not isinstance(record.get("options"), dict):
        raise Mismatch("record", "the record has no options")
    scores = record.get("scores")
    if not isinstance(scores, list) or not all(is_int(s) for s in scores):
        raise Mismatch("record", "the record's scores are not integers")
    if not is_hex(record.get("commitment"), 64):
        raise Mismatch("record", "the commitment is not 64 hex digits")
    if not is_hex(record.get("secret"), 2 * shuffle.SECRET_BYTES):
        raise Mismatch("record", "the secret is not 64 hex digits")
    contributions = record.get("contributions")
    if not isinstance(contributions, list):
        raise Mismatch("record", "the contributions are not a list")
    last = -1
    for item in contributions:
        if (not isinstance(item, list) or len(item) != 2 or not is_int(item[0])
                or not is_hex(item[1], 2 * shuffle.CONTRIBUTION_BYTES)):
            raise Mismatch("record", "a contribution is not [seat, 32 hex digits]")
        if item[0] <= last:
            raise Mismatch("record", "the contributions are not in increasing seat order")
        last = item[0]
    actions = record.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise Mismatch("record", "the actions are not a list (of at most %d)" % MAX_ACTIONS)
    observed = record.get("observed", [])
    if not isinstance(observed, list) or not all(isinstance(s, list) for s in observed):
        raise Mismatch("record", "observed is not a list of segments")
    seat = record.get("seat")
    if seat is not None and not is_int(seat):
        raise Mismatch("record", "seat is not a seat")
    _seats(record.get("skipped"), "skipped")
    _seats(record.get("bots"), "bots")
    host = record.get("host")
    if host is not None and not is_int(host):
        raise Mismatch("record", "the host is not a seat")


def _contributions(record):
    """Whose numbers the shuffle used (docs/decisions.md "One commitment a round, every seat's number used"). A page that sent a contribution
    finds it used, or its own seat named as skipped (then its player is told); nobody is
    both. No contribution comes from the host's seat or a bot's (``host``, ``bots``: what the
    page knew when the commitment came): a host that adds a number of its own after seeing
    the others' picks the deal."""
    seat = record.get("seat")
    sent = record.get("sent")
    used = dict((item[0], item[1]) for item in record["contributions"])
    skipped = _seats(record.get("skipped"), "skipped")
    for s in skipped:
        if s in used:
            raise Mismatch("record", "seat %s is both used and skipped" % s)
    if sent is not None:
        if seat in used and used[seat] != sent:
            raise Mismatch("contribution", "seat %s sent %s but the shuffle used %s"
                           % (seat, sent, used[seat]), [sent], [used[seat]])
        if seat not in used and seat not in skipped:
            raise Mismatch("contribution", "seat %s sent %s but the shuffle did not use it, "
                           "nor name the seat as skipped" % (seat, sent), [sent], [])
    bots = _seats(record.get("bots"), "bots")
    for s in sorted(used):
        if s in bots or s == record.get("host"):
            raise Mismatch("contribution", "the shuffle used a number from seat %s, the host's "
                           "or a bot's: only the players' pages contribute" % s, [used[s]], [])


def deck_of(record):
    """The deck (52 cards, top first) the record's secret and contributions give."""
    values = [item[1] for item in record["contributions"]]
    return shuffle.deck_from_seed(shuffle.derive_seed(record["secret"], values))


def replay(record, events=None):
    """Deal the record's round from its committed deck and apply its inputs in order.

    Returns ``(game, events)``: the engine after the round, and every event of the round
    (the deal's first). Raises :class:`Mismatch` (``log``) when an input is malformed or
    illegal, or when the inputs do not finish the round; ``events`` (a list, optional) then
    holds the events replayed until that input.
    """
    if events is None:
        events = []
    try:
        game = Game.new(record["options"], order=deck_of(record), dealer=record["dealer"],
                        scores=record["scores"], now=record["start"],
                        round_number=record["round"])
    except ValueError as exc:
        raise Mismatch("record", "the round's start is not valid: %s" % exc)
    events += game.deal_events()
    budget = MAX_FIRED_TOTAL
    for index, entry in enumerate(record["actions"]):
        if game.phase in END_PHASES:
            raise Mismatch("log", "input %d comes after the end of the round" % index)
        if not isinstance(entry, list) or len(entry) < 2 or not is_int(entry[0]):
            raise Mismatch("log", "input %d is not [time, kind, ...]" % index)
        at, kind = entry[0], entry[1]
        try:
            # Fire the deadlines up to `at` one by one (as the engine would, each at its own
            # time), so that a hostile time far ahead cannot keep a guest's page busy.
            for _ in range(MAX_FIRED + 1):
                due = game.next_deadline()
                if due is None or due > at or due <= game.clock:
                    break
                budget -= 1
                if budget < 0:
                    raise Mismatch("log", "the inputs fire too many deadlines")
                events += game.advance(due)
            else:
                raise Mismatch("log", "input %d comes after too many deadlines" % index)
            if kind == "act" and len(entry) == 4:
                events += game.apply(entry[2], entry[3], at)
            elif kind == "advance" and len(entry) == 2:
                events += game.advance(at)
            elif kind == "forfeit" and len(entry) == 3:
                events += game.forfeit(entry[2], at)
            else:
                raise Mismatch("log", "input %d is of no known kind" % index)
        except IllegalAction as exc:
            raise Mismatch("log", "input %d is not legal: %s" % (index, exc))
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise Mismatch("log", "input %d is malformed (%s)" % (index, type(exc).__name__))
    if game.phase not in END_PHASES:
        raise Mismatch("log", "the inputs do not finish the round")
    return game, events


def kind_of(event):
    """What an event shows, as a mismatch names it (:data:`KINDS`)."""
    kind = event.get("type") if isinstance(event, dict) else None
    if kind == "reveal":
        reason = event.get("reason")
        return reason if reason in ("peek", "draw", "jack", "queen") else "event"
    if kind == "draw":
        return "draw"                      # a card taken from the discard pile
    if kind in ("swap", "discard", "jack", "queen", "king", "timeout"):
        return "discard"
    if kind == "recycle":
        return "recycle"
    if kind in ("round_over", "game_over"):
        return "hands"
    if kind == "deal":
        return "deal"
    return "event"


def cards_of(event):
    """The cards an event shows (card codes, in order), for a mismatch's report."""
    if not isinstance(event, dict):
        return []
    out = []
    if event.get("type") == "reveal":
        for item in event.get("cards") or []:
            if isinstance(item, dict) and isinstance(item.get("card"), str):
                out.append(item["card"])
        return out
    if event.get("type") == "round_over":
        for hand in event.get("hands") or []:
            if isinstance(hand, list):
                out += [card for card in hand if isinstance(card, str)]
        return out
    for key in ("card", "taken"):
        if isinstance(event.get(key), str):
            out.append(event[key])
    return out


def _places(event):
    return [(item.get("seat"), item.get("pos")) for item in event.get("cards") or []
            if isinstance(item, dict)]


def _public_gap(segment, public):
    """Where the public events of one segment first leave the replay's public events.

    A segment is contiguous in the replay (a page joined or rejoined at some point and then
    received every event). Returns None when it fits, else ``(index, expected)``: the index
    in ``segment`` of the first event that does not fit the best alignment, and the replay's
    event there (or None)."""
    if not segment:
        return None
    best, at = -1, 0
    for start in range(max(1, len(public))):
        length = 0
        while (length < len(segment) and start + length < len(public)
               and segment[length] == public[start + length]):
            length += 1
        if length == len(segment):
            return None
        if length > best:
            best, at = length, start
    index = at + best
    return best, public[index] if index < len(public) else None


# What a page reports when a card it saw is not the committed deck's, by the kind of sighting.
_DETAILS = {
    "peek": "seat %s's peek showed %s; the committed deck deals %s",
    "draw": "seat %s drew %s; the committed deck gives %s",
    "jack": "seat %s's Jack showed %s; the committed deck gives %s",
    "queen": "seat %s's Queen showed %s; the committed deck gives %s",
    "discard": "seat %s saw %s discarded; the committed deck gives %s",
    "recycle": "seat %s saw the deck turned over (%s); the replay does it otherwise (%s)",
    "hands": "seat %s saw the final hands %s; the committed deck gives %s",
}
_OTHER = "seat %s saw an event (%s) the replay does not have (%s)"


def _mismatch_for(event, expected, seat):
    what = kind_of(event)
    saw, exp = cards_of(event), cards_of(expected)
    detail = _DETAILS.get(what, _OTHER)
    if what == "recycle":
        saw = [str(event.get("count"))]
        exp = [str(expected.get("count"))] if isinstance(expected, dict) and "count" in expected \
            else []
    return Mismatch(what, detail % (seat, " ".join(saw) or "-", " ".join(exp) or "-"), saw, exp)


def check(record):
    """Check one round's record; returns None when it holds, else the first difference as
    ``{what, detail, saw, expected}`` (:class:`Mismatch`). Never raises for bad input.

    In order: the round had a commitment, one only (``commitments``: all those the page got
    for it); the secret matches the commitment; the page's own contribution (``sent``) is
    the one used, or its seat is named as skipped; no contribution is the host's or a bot's;
    the inputs replay legally to the end of the round from the deck the seed
    gives; every event the page saw (``observed``) is the replay's: its public events in
    the replay's order, its private reveals among those the replay sends to its seat.
    """
    try:
        _check(record)
    except Mismatch as exc:
        return exc.result()
    return None


def _check(record):
    _shape(record)
    if shuffle.commitment(record["secret"]) != record["commitment"]:
        raise Mismatch("commitment", "the revealed secret does not match the commitment")
    _contributions(record)
    seat = record.get("seat")
    events = []
    failure = None
    try:
        replay(record, events)
    except Mismatch as exc:
        if exc.what != "log" or seat is None:
            raise
        failure = exc           # first, what the page saw before the log went wrong
    if seat is None:
        return
    if not 0 <= seat < record["options"].get("players", 0):
        raise Mismatch("record", "seat is not at the table")
    mine = events_for(events, seat)
    public = [e for e in mine if "to" not in e]
    private = [e for e in mine if "to" in e]
    for segment in record.get("observed") or []:
        events_in = [e for e in segment if isinstance(e, dict)]
        seg_public = [e for e in events_in if "to" not in e]
        gap = _public_gap(seg_public, public)
        index = 0
        for event in events_in:
            if "to" in event:
                if event in private:
                    continue
                key = (event.get("reason"), _places(event))
                like = [r for r in private if (r.get("reason"), _places(r)) == key]
                if failure is not None and not like:
                    raise failure
                raise _mismatch_for(event, like[0] if like else None, seat)
            if gap is not None and index == gap[0]:
                if failure is not None and gap[1] is None:
                    raise failure
                raise _mismatch_for(event, gap[1], seat)
            index += 1
    if failure is not None:
        raise failure


def summary(record):
    """One line about a record that holds: round, contributors, inputs replayed."""
    seats = [str(item[0]) for item in record["contributions"]]
    return ("round %d: the secret matches the commitment %s...; contributions from seat%s %s; "
            "%d inputs replayed; %d observed events checked for seat %s"
            % (record["round"], record["commitment"][:16], "s" if len(seats) != 1 else "",
               ", ".join(seats) or "(none)", len(record["actions"]),
               sum(len(s) for s in record.get("observed") or []), record.get("seat")))


def main(argv=None):
    """The command line: ``python3 -m crisp_core.verify record.json``; returns the exit code
    (0: ``round-verified``; 1: ``round-mismatch`` and the first difference)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python3 -m crisp_core.verify record.json")
        return 1
    try:
        with open(args[0]) as f:
            record = json.load(f)
    except (OSError, ValueError) as exc:
        print("round-mismatch: cannot read %s: %s" % (args[0], exc))
        return 1
    result = check(record)
    if result is not None:
        print("round-mismatch: %s: %s" % (result["what"], result["detail"]))
        return 1
    print("round-verified: " + summary(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
