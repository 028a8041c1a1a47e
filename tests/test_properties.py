"""Property tests over random games (Hypothesis): conservation, secrecy, refusals, saving.

Each example plays a random game under random options, mixing the engine's own legal actions
with illegal and malformed ones and with clock jumps across every deadline, and checks after
every step:
- R1.2: the 52 cards are exactly in hands + deck + discard + held;
- R9: no view or event for seat s names a card s may not know at that moment, and a
  spectator's view and events name only public cards;
- an illegal action changes nothing (beyond the deadlines that fired before it);
- the whole state survives ``to_dict`` -> JSON -> ``from_dict``.
"""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crisp_core import (CANONICAL, Game, IllegalAction, events_for, public_events,
                        spectator_view, view_for)
from crisp_core.actions import POSITIONS

OPTIONS = st.fixed_dictionaries({
    "players": st.integers(2, 8),
    "target": st.sampled_from([50, 100, 150]),
    "draw_seconds": st.sampled_from([None, 30, 45, 60]),
    "draw_from_discard": st.booleans(),
})

JUNK_ACTIONS = [
    None, 7, "draw", [], {}, {"do": "fly"}, {"do": "draw", "from": "sky"},
    {"do": "swap"}, {"do": "swap", "pos": "top"}, {"do": "swap", "pos": 1},
    {"do": "queen", "pos": "left", "target": "1", "target_pos": "left"},
    {"do": "queen", "pos": "left", "target": True, "target_pos": "left"},
    {"do": "queen", "pos": "left", "target": 99, "target_pos": "left"},
    {"do": "ready", "extra": 1}, {"do": "discard"}, {"do": "jack"}, {"do": "king"},
    {"do": "crisp"}, {"do": "ready"}, {"do": "draw", "from": "discard"},
    {"do": "next_round"},
]


def all_cards(game):
    cards = [card for hand in game.hands for card in hand] + game.deck + game.discard
    if game.held is not None:
        cards.append(game.held)
    return cards


def named_cards(obj):
    """Every card code named anywhere inside a JSON-like object."""
    found = []
    if isinstance(obj, str):
        if obj in CANONICAL:
            found.append(obj)
    elif isinstance(obj, dict):
        for value in obj.values():
            found.extend(named_cards(value))
    elif isinstance(obj, list):
        for value in obj:
            found.extend(named_cards(value))
    return found


def check_secrecy(before, game, events, now):
    """R9: what each seat receives names only cards that seat may know."""
    over = game.phase in ("round_over", "game_over")
    public = set(before.discard) | set(game.discard)
    if before.held is not None and before.held_from == "discard":
        public.add(before.held)
    if game.held is not None and game.held_from == "discard":
        public.add(game.held)
    if over:
        public |= set(all_cards(game))
    for seat in range(game.players):
        mine = set(public)
        if game.held is not None and game.turn == seat:
            mine.add(game.held)
        for event in events_for(events, seat):
            if event["type"] == "reveal":
                assert event["to"] == seat
                for item in event["cards"]:
                    check_reveal(game, event["reason"], seat, item)
                continue
            if event["type"] == "round_over":
                continue  # R6.2: every hand is shown at the end of the round
            leaked = set(named_cards(event)) - public
            assert not leaked, (seat, event, leaked)
        view = view_for(game, seat, now)
        leaked = set(named_cards(view)) - mine
        assert not leaked, (seat, leaked)
        if not over:
            assert view["hands"] == [[None] * 3] * game.players
    # A spectator (a late friend watching, docs/protocol.md "Spectators") gets public
    # information only: no private event, and a view naming only public cards.
    for event in public_events(events):
        assert "to" not in event
        if event["type"] != "round_over":
            leaked = set(named_cards(event)) - public
            assert not leaked, ("spectator", event, leaked)
    watched = spectator_view(game, now)
    leaked = set(named_cards(watched)) - public
    assert not leaked, ("spectator", leaked)
    assert watched["seat"] is None and watched["allowed"] == []
    if not over:
        assert watched["hands"] == [[None] * 3] * game.players


def check_reveal(game, reason, seat, item):
    """A reveal shows a seat only its own card at a position the rule allows (R9.1)."""
    assert item["seat"] == seat
    pos = item["pos"]
    if reason == "draw":
        assert pos == "held"
        return
    allowed = {"peek": ("left", "right"), "jack": ("center",), "queen": ("left", "right")}
    assert pos in allowed[reason], (reason, pos)
    if game.phase not in ("round_over", "game_over") or reason != "peek":
        assert game.hands[seat][POSITIONS.index(pos)] == item["card"]


def play_random(options, seed, choices):
    """Play a game driven by ``choices`` (ints); yields nothing, asserts as it goes."""
    rng = random.Random(seed)
    game = Game.new(options, seed=seed)
    now = 0
    n = options["players"]
    for choice in choices:
        before = Game.from_dict(game.to_dict())
        kind = choice % 10
        if kind == 0:
            now += rng.choice([1, 999, 1000, 2000, 2999, 3000, 30000, 45000, 60001])
            events = game.advance(now)
        elif kind <= 2:
            seat = rng.randrange(n)
            action = rng.choice(JUNK_ACTIONS)
            try:
                events = game.apply(seat, action, now)
            except IllegalAction as exc:
                events = exc.events
                expected = Game.from_dict(before.to_dict())
                expected.advance(now)
                assert game == expected, "a refused action changed the state"
        else:
            now += rng.choice([0, 0, 10, 500, 2000, 3000])
            events = game.advance(now)
            legal = [(seat, action) for seat in range(n)
                     for action in game.legal_actions(seat, now)]
            if not legal:
                continue
            # Calls are rare enough that rounds last a while.
            calls = [item for item in legal if item[1]["do"] == "crisp"]
            others = [item for item in legal if item[1]["do"] != "crisp"]
            if calls and (not others or rng.random() < 0.15):
                seat, action = rng.choice(calls)
            else:
                seat, action = rng.choice(others)
            events = events + game.apply(seat, action, now)
        assert sorted(all_cards(game)) == sorted(CANONICAL)
        check_secrecy(before, game, events, now)
        saved = json.loads(json.dumps(game.to_dict()))
        assert Game.from_dict(saved) == game
    return game


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPTIONS, st.integers(0, 2**32), st.lists(st.integers(0, 1000), min_size=1, max_size=300))
def test_random_play_keeps_every_invariant(options, seed, choices):
    play_random(options, seed, choices)


@settings(max_examples=40, deadline=None)
@given(OPTIONS, st.integers(0, 2**32))
def test_every_game_reaches_its_end(options, seed):
    """R8.1: a game where calls happen ends; every round ends after a call (R6.2)."""
    rng = random.Random(seed)
    game = Game.new(options, seed=seed)
    now = 0
    for _ in range(20000):
        if game.phase == "game_over":
            break
        now += rng.choice([0, 2000, 3000])
        game.advance(now)
        legal = [(seat, action) for seat in range(options["players"])
                 for action in game.legal_actions(seat, now)]
        if not legal:
            continue
        calls = [item for item in legal if item[1]["do"] == "crisp"]
        seat, action = rng.choice(calls if calls and rng.random() < 0.3 else legal)
        game.apply(seat, action, now)
    assert game.phase == "game_over"
    assert game.winners == [s for s, score in enumerate(game.scores) if score == min(game.scores)]
    assert max(game.scores) >= options["target"]
