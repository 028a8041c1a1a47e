"""A game saved and restored: :func:`to_dict`, and :func:`from_dict` with its check of a
saved state that may have been tampered with (a hostile save never becomes a Game).

``Game.to_dict`` and ``Game.from_dict`` (crisp_core.game) are the public doors; this module
does the work. The check asks, field by field, whether the state is one the engine can reach
(R1.2 for the cards, R2-R8 for seats, phases, timers and scores) and refuses any other with a
``ValueError`` that names what is wrong. Plain functions: guests run it on MicroPython.
"""

from . import cards
from .actions import PHASES, is_int
from .legal import normalize_options

#: The state a saved game carries, besides ``version`` and ``journal``.
FIELDS = ("options", "seed", "stack", "phase", "round", "dealer", "turn", "caller", "hands",
          "held", "held_from", "pending_draws", "drew", "deck", "discard", "ready",
          "peek_deadline", "start_at", "draw_deadline", "window", "round_points", "scores",
          "winners", "clock")


def to_dict(game):
    """The whole state of ``game`` as a JSON-safe dict (lists and dicts copied)."""
    out = {"version": 1}
    for name in FIELDS:
        value = getattr(game, name)
        if isinstance(value, list):
            value = [list(item) if isinstance(item, list) else item for item in value]
        elif isinstance(value, dict):
            value = dict(value)
        out[name] = value
    out["journal"] = [list(entry) for entry in game.journal]
    return out


def from_dict(cls, data):
    """Rebuild a ``cls`` (the Game class) from :func:`to_dict` output, or raise
    ``ValueError`` with a short English reason: see ``Game.from_dict``."""
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ValueError("not a saved Crisp game")
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise ValueError("saved game lacks %s" % missing[0])
    extra = set(data) - set(FIELDS) - {"version", "journal"}
    if extra:
        raise ValueError("saved game has an unknown field: %s" % sorted(extra)[0])
    game = cls()
    for name in FIELDS:
        setattr(game, name, data[name])
    try:
        game.options = normalize_options(game.options)
    except ValueError as exc:
        raise ValueError("saved game options: %s" % exc)
    check_state(game)
    game.hands = [list(hand) for hand in game.hands]
    game.deck, game.discard = list(game.deck), list(game.discard)
    game.ready = list(game.ready)
    game.scores = list(game.scores)
    game.stack = _copy(game.stack)
    game.round_points = _copy(game.round_points)
    game.winners = _copy(game.winners)
    game.window = _copy(game.window)
    journal = data.get("journal") or []
    if not isinstance(journal, list) or not all(is_journal_entry(e, game.players)
                                                for e in journal):
        raise ValueError("saved game is inconsistent: journal")
    game.journal = [list(entry) for entry in journal]
    game._events = []
    return game


def _copy(items):
    return list(items) if items is not None else None


def _bad(what):
    raise ValueError("saved game is inconsistent: " + what)


def check_state(game):
    """Raise ``ValueError`` unless ``game`` (fields set from a saved dict, options already
    normalized) is a state the engine can reach: see ``Game.from_dict``."""
    n = game.players
    if not isinstance(game.phase, str) or game.phase not in PHASES:
        _bad("unknown phase")
    _check_setup(game, n)
    _check_cards(game, n)
    _check_turn(game, n)
    _check_timers(game, n)
    _check_scores(game, n)


def _is_seat(value, n):
    return is_int(value) and 0 <= value < n


def _is_time(value):
    return is_int(value) and value >= 0


def _int_list(value, n):
    return isinstance(value, list) and len(value) == n and all(is_int(item) for item in value)


def _check_setup(game, n):
    """The seed or stacked deck, the round, the dealer (R2.1) and the clock."""
    if game.seed is not None and not isinstance(game.seed, str) and not is_int(game.seed):
        _bad("seed")
    if game.stack is not None:
        if not isinstance(game.stack, list):
            _bad("stacked deck")
        try:
            cards.stacked_deck(game.stack)
        except (TypeError, ValueError):
            _bad("stacked deck")
    if not is_int(game.round) or game.round < 1:
        _bad("round")
    if not _is_seat(game.dealer, n):
        _bad("dealer")
    if not _is_time(game.clock):
        _bad("clock")


def _check_cards(game, n):
    """R1.2: the 52 cards, each once, across hands, deck, discard pile and the held card."""
    hands = game.hands
    if (not isinstance(hands, list) or len(hands) != n
            or not all(isinstance(hand, list) and len(hand) == 3 for hand in hands)):
        _bad("hands must be three cards for each of the %d seats" % n)
    if not isinstance(game.deck, list) or not isinstance(game.discard, list):
        _bad("deck and discard pile must be lists")
    held = [] if game.held is None else [game.held]
    every = [card for hand in hands for card in hand] + game.deck + game.discard + held
    if not all(cards.is_card(card) for card in every):
        _bad("something that is not a card")
    if len(every) != 52 or len(set(every)) != 52:
        _bad("the 52 cards must each be there exactly once")


def _check_turn(game, n):
    """The turn, the card in hand and its draws (R3, R4.6), the caller (R6)."""
    phase = game.phase
    playing = phase in ("play", "last_turns")
    if game.held is None:
        if game.held_from is not None:
            _bad("held_from without a held card")
    elif not playing or game.held_from not in ("deck", "discard") or game.drew is not True:
        _bad("a held card outside a turn")
    if not isinstance(game.drew, bool) or (game.drew and not playing):
        _bad("drew")
    if not is_int(game.pending_draws) or not 0 <= game.pending_draws <= 8 \
            or (game.pending_draws and not playing):
        _bad("pending draws")
    if playing:
        if not _is_seat(game.turn, n):
            _bad("turn")
        if not _is_time(game.start_at):
            _bad("start time")
    elif game.turn is not None or (game.start_at is not None
                                   and (phase != "peek" or not _is_time(game.start_at))):
        _bad("a turn outside play")
    if (game.caller is not None or phase in ("last_turns", "round_over", "game_over")) \
            and not _is_seat(game.caller, n):
        _bad("caller")
    if phase in ("peek", "play") and game.caller is not None:
        _bad("a caller before the call")
    if phase == "last_turns" and game.turn == game.caller:
        _bad("the caller has no last turn")


def _check_timers(game, n):
    """The peek timer (R2.4), the draw timer (R10.2) and the crisp window (R10.1)."""
    phase = game.phase
    playing = phase in ("play", "last_turns")
    if game.peek_deadline is not None and (phase != "peek" or not _is_time(game.peek_deadline)):
        _bad("peek timer")
    if game.draw_deadline is not None and (not playing or not _is_time(game.draw_deadline)):
        _bad("draw timer")
    if (game.options["draw_seconds"] is None) != (game.draw_deadline is None) and playing:
        _bad("draw timer and options disagree")
    window = game.window
    if window is not None and (not isinstance(window, list) or len(window) != 2
                               or not _is_seat(window[0], n) or not _is_time(window[1])
                               or phase != "play"):
        _bad("call window")


def _check_scores(game, n):
    """The peek's ready flags (R2.4), scores and round points (R7), the end (R8)."""
    phase = game.phase
    ready = game.ready
    if not isinstance(ready, list) or len(ready) != n \
            or not all(isinstance(flag, bool) for flag in ready):
        _bad("ready flags")
    if phase != "peek" and not all(ready):
        _bad("a seat not ready after the peek")
    if phase == "peek" and all(ready):
        _bad("the peek is over but play has not started")
    if not _int_list(game.scores, n):
        _bad("scores must be one integer per seat")
    ended = phase in ("round_over", "game_over")
    if ended != (game.round_points is not None) or (ended and not _int_list(game.round_points, n)):
        _bad("round points")
    target = game.options["target"]
    if phase == "game_over":
        if max(game.scores) < target:
            _bad("game over below the target")
        best = min(game.scores)
        if game.winners != [seat for seat in range(n) if game.scores[seat] == best]:
            _bad("winners")
    else:
        if max(game.scores) >= target:
            _bad("a score at the target but the game goes on")
        if game.winners is not None:
            _bad("winners before the end")


def is_journal_entry(entry, players):
    """Whether ``entry`` is one input of a round's journal (``Game.journal``):
    ``[at, "act", seat, action]``, ``[at, "advance"]`` or ``[at, "forfeit", seat]``, with
    ``at`` a time (ms) and ``seat`` one of ``players``."""
    if not isinstance(entry, list) or len(entry) < 2 or not is_int(entry[0]) or entry[0] < 0:
        return False
    kind = entry[1]
    if kind == "advance":
        return len(entry) == 2
    if kind == "forfeit":
        return len(entry) == 3 and is_int(entry[2]) and 0 <= entry[2] < players
    return (kind == "act" and len(entry) == 4 and is_int(entry[2]) and 0 <= entry[2] < players
            and isinstance(entry[3], dict) and isinstance(entry[3].get("do"), str))
