"""The scenario runner: stack a deck, play timed steps, print what came out (docs/scenarios.md).

    python -m crisp_core.scenario [--check] FILE.json [FILE.json ...]

Prints one JSON line per valid file. Exit status: 0, or 1 when ``--check`` found a difference
from a file's ``expect``, or 2 when any file was not a valid scenario (one line on stderr for
it; the other files are still run). Also usable as a library: :func:`load_scenario`,
:func:`run_scenario`, :func:`compare`.
"""

import json
import sys

from .actions import PLAY_PHASES, ActionError, check_shape, is_int
from .cards import stacked_deck
from .game import Game, IllegalAction, normalize_options
from .views import shown_by

DEFAULT_STEP_MS = 2000

_TOP_FIELDS = {"name", "rules", "why", "options", "dealer", "scores", "deck", "steps", "expect"}


class InvalidScenario(ValueError):
    """A file that is not a valid scenario; the message says why, in one line."""


def _check_deck(deck, where):
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise InvalidScenario("%s must be a list of card codes" % where)
    try:
        stacked_deck(deck)
    except ValueError as exc:
        raise InvalidScenario("%s: %s" % (where, exc))


def load_scenario(data):
    """Validate a parsed scenario (a dict) and return it with defaults and step times filled.

    Raises :class:`InvalidScenario` for every invalid case of docs/scenarios.md "Invalid files".
    The result has ``dealer``, ``scores``, ``deck`` and each step's ``at`` (ms) set.
    """
    if not isinstance(data, dict):
        raise InvalidScenario("a scenario must be a JSON object")
    unknown = set(data) - _TOP_FIELDS
    if unknown:
        raise InvalidScenario("unknown field %r" % sorted(unknown)[0])
    for field in ("name", "options", "steps"):
        if field not in data:
            raise InvalidScenario("missing required field %r" % field)
    if not isinstance(data["name"], str):
        raise InvalidScenario("name must be a string")
    if "why" in data and not isinstance(data["why"], str):
        raise InvalidScenario("why must be a string")
    rules = data.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(rule, str) for rule in rules):
        raise InvalidScenario("rules must be a list of strings")
    options = data["options"]
    if not isinstance(options, dict):
        raise InvalidScenario("options must be an object")
    if "players" not in options:
        raise InvalidScenario("missing required field 'options.players'")
    try:
        options = normalize_options(options)
    except ValueError as exc:
        raise InvalidScenario("options: %s" % exc)
    n = options["players"]
    dealer = data.get("dealer", 0)
    if not is_int(dealer) or not 0 <= dealer < n:
        raise InvalidScenario("dealer must be a seat number from 0 to %d" % (n - 1))
    scores = data.get("scores", [0] * n)
    if not isinstance(scores, list) or not all(is_int(score) for score in scores):
        raise InvalidScenario("scores must be a list of integers")
    if len(scores) != n:
        raise InvalidScenario("scores must have one entry per player (%d)" % n)
    deck = data.get("deck", [])
    _check_deck(deck, "deck")
    steps = data["steps"]
    if not isinstance(steps, list):
        raise InvalidScenario("steps must be a list")
    timed = []
    at = None
    for index, step in enumerate(steps):
        step = _check_step(step, index)
        if "at" in step:
            if at is not None and step["at"] < at:
                raise InvalidScenario("step %d: at %d goes back in time" % (index, step["at"]))
            at = step["at"]
        else:
            at = 0 if at is None else at + DEFAULT_STEP_MS
        step = dict(step)
        step["at"] = at
        timed.append(step)
    expect = data.get("expect", {})
    if not isinstance(expect, dict) or set(expect) - {"start", "steps", "state"}:
        raise InvalidScenario("expect must be an object with start, steps and state only")
    for key in ("start", "steps", "state"):
        if key in expect and not isinstance(expect[key], dict):
            raise InvalidScenario("expect.%s must be an object" % key)
    for key, value in expect.get("steps", {}).items():
        if not isinstance(value, dict):
            raise InvalidScenario("expect.steps.%s must be an object" % key)
    return {"name": data["name"], "options": options, "dealer": dealer, "scores": scores,
            "deck": deck, "steps": timed, "expect": expect}


def _check_step(step, index):
    where = "step %d" % index
    if not isinstance(step, dict):
        raise InvalidScenario("%s must be an object" % where)
    if "at" in step and (not is_int(step["at"]) or step["at"] < 0):
        raise InvalidScenario("%s: at must be a non-negative integer (ms)" % where)
    if "do" not in step:
        if set(step) - {"at"}:
            raise InvalidScenario("%s: missing do" % where)
        if "at" not in step:
            raise InvalidScenario("%s: a step needs do or at" % where)
        return step
    kind = step["do"]
    if kind == "next_round":
        extra = set(step) - {"at", "do", "deck"}
        if extra:
            raise InvalidScenario("%s: field %r does not belong to next_round"
                                  % (where, sorted(extra)[0]))
        if "deck" in step:
            _check_deck(step["deck"], where + " deck")
        return step
    # A seat's step is an engine action (crisp_core.actions) plus its seat and time.
    try:
        check_shape({key: value for key, value in step.items() if key not in ("at", "seat")})
    except ActionError as exc:
        raise InvalidScenario("%s: %s" % (where, exc))
    if "seat" not in step:
        raise InvalidScenario("%s: %s needs 'seat'" % (where, kind))
    if not is_int(step["seat"]):
        raise InvalidScenario("%s: seat must be an integer" % where)
    return step


def _state(game):
    playing = game.phase in PLAY_PHASES
    return {
        "phase": game.phase,
        "round": game.round,
        "dealer": game.dealer,
        "turn": game.turn if playing else None,
        "caller": game.caller,
        "hands": [list(hand) for hand in game.hands],
        "held": game.held,
        "pending_draws": game.pending_draws,
        "deck": list(game.deck),
        "discard": list(game.discard),
        "round_points": list(game.round_points) if game.round_points is not None else None,
        "scores": list(game.scores),
        "winners": list(game.winners) if game.winners is not None else None,
    }


def _shown(events):
    return {str(seat): cards for seat, cards in sorted(shown_by(events).items())}


def run_scenario(scenario):
    """Play a scenario from :func:`load_scenario`; return the output object (docs/scenarios.md)."""
    game = Game.new(scenario["options"], deck=scenario["deck"], dealer=scenario["dealer"],
                    scores=scenario["scores"], now=0)
    start = {"shown": _shown(game.deal_events())}
    results = []
    for step in scenario["steps"]:
        at = step["at"]
        kind = step.get("do")
        try:
            if kind is None:
                game.advance(at)
                events = []
            elif kind == "next_round":
                events = game.next_round(at, deck=step.get("deck", []))
            else:
                action = {key: value for key, value in step.items()
                          if key not in ("at", "seat")}
                events = game.apply(step["seat"], action, at)
        except IllegalAction as exc:
            results.append({"ok": False, "error": exc.reason})
            continue
        results.append({"ok": True, "shown": _shown(events)})
    return {"name": scenario["name"], "start": start, "steps": results, "state": _state(game)}


def _same(a, b):
    """JSON equality that keeps true apart from 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return set(a) == set(b) and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def compare(expect, output):
    """Differences between ``expect`` and a run's ``output``, as a list of one-line texts.

    Only the keys given in ``expect`` are compared; an error text is never compared.
    """
    diffs = []
    for key, want in expect.get("start", {}).items():
        got = output["start"].get(key)
        if not _same(want, got):
            diffs.append("start.%s: expected %s, got %s" % (key, _j(want), _j(got)))
    for index, want_step in sorted(expect.get("steps", {}).items(), key=lambda kv: kv[0]):
        try:
            got_step = output["steps"][int(index)]
        except (ValueError, IndexError):
            diffs.append("steps.%s: no such step" % index)
            continue
        for key, want in want_step.items():
            if key == "error":
                continue
            got = got_step.get(key)
            if not _same(want, got):
                diffs.append("steps.%s.%s: expected %s, got %s" % (index, key, _j(want), _j(got)))
    for key, want in expect.get("state", {}).items():
        got = output["state"].get(key, "<missing>")
        if not _same(want, got):
            diffs.append("state.%s: expected %s, got %s" % (key, _j(want), _j(got)))
    return diffs


def _j(value):
    return json.dumps(value, separators=(",", ":"))


def main(argv=None, stdout=None, stderr=None):
    """Command-line entry; returns the exit status (0, 1 or 2)."""
    argv = sys.argv[1:] if argv is None else argv
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    check = False
    files = []
    for arg in argv:
        if arg == "--check":
            check = True
        elif arg in ("-h", "--help"):
            stdout.write(__doc__)
            return 0
        else:
            files.append(arg)
    if not files:
        stderr.write("usage: python -m crisp_core.scenario [--check] FILE.json [FILE.json ...]\n")
        return 2
    status = 0
    for path in files:
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            scenario = load_scenario(data)
        except (OSError, UnicodeDecodeError) as exc:
            stderr.write("%s: cannot read: %s\n" % (path, exc))
            status = 2
            continue
        except ValueError as exc:  # json.JSONDecodeError and InvalidScenario
            kind = "not valid JSON" if isinstance(exc, json.JSONDecodeError) else "invalid scenario"
            stderr.write("%s: %s: %s\n" % (path, kind, str(exc).replace("\n", " ")))
            status = 2
            continue
        try:
            output = run_scenario(scenario)
        except Exception as exc:  # an engine defect must not become a traceback
            stderr.write("%s: engine error: %s: %s\n" % (path, type(exc).__name__, exc))
            status = 2
            continue
        stdout.write(json.dumps(output) + "\n")
        if check:
            diffs = compare(scenario["expect"], output)
            for diff in diffs:
                stderr.write("%s: %s\n" % (path, diff))
            if diffs and status == 0:
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
