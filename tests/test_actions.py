"""One home for each fact (crisp_core/actions.py, Game.awaiting, IllegalAction.code): the
engine, the room and the scenario runner agree because they ask the same code."""

import json

import pytest

from crisp_core import Game, IllegalAction
from crisp_core.actions import ACTIONS, POSITIONS, ActionError, check_shape
from crisp_core.scenario import InvalidScenario, load_scenario
from ui.worker.room import BadMessage, check_action

DECK = ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jh", "5h", "Ah", "9d", "Qs", "Kd"]

GOOD = [{"do": "ready"}, {"do": "draw"}, {"do": "draw", "from": "discard"},
        {"do": "swap", "pos": "center"}, {"do": "discard"}, {"do": "jack"},
        {"do": "queen", "pos": "left", "target": 2, "target_pos": "right"}, {"do": "king"},
        {"do": "crisp"}, {"do": "next_round"}]
BAD = ["draw", None, [], {}, {"do": 3}, {"do": "peek"}, {"do": "draw", "from": "hand"},
       {"do": "swap"}, {"do": "swap", "pos": "middle"}, {"do": "swap", "pos": "left", "x": 1},
       {"do": "ready", "seat": 1}, {"do": "queen", "pos": "left", "target": "2",
                                    "target_pos": "right"},
       {"do": "queen", "pos": "left", "target": True, "target_pos": "right"},
       {"do": "queen", "pos": "left", "target": 1}]


def test_every_kind_has_a_good_example():
    assert sorted(a["do"] for a in GOOD if a.get("from") != "discard") == sorted(ACTIONS)
    assert POSITIONS == ("left", "center", "right")


@pytest.mark.parametrize("action", GOOD, ids=lambda a: json.dumps(a))
def test_good_shapes_pass_everywhere(action):
    out = check_shape(action, players=3)
    assert out["do"] == action["do"]
    if action["do"] == "draw":
        assert out["from"] == action.get("from", "deck")          # the default, filled in
    assert check_action(action, 3) == action                     # the room: same verdict
    step = dict(action, seat=0)
    if action["do"] == "next_round":
        step = dict(action)
    load_scenario({"name": "x", "options": {"players": 3}, "steps": [step]})  # the runner


@pytest.mark.parametrize("action", BAD, ids=lambda a: json.dumps(a))
def test_bad_shapes_fail_everywhere(action):
    with pytest.raises(ActionError):
        check_shape(action, players=3)
    with pytest.raises(BadMessage) as room:
        check_action(action, 3)
    assert room.value.code == "bad_message"
    game = Game.new({"players": 3}, deck=DECK)
    with pytest.raises(IllegalAction) as engine:
        game.apply(0, action, 0)
    assert engine.value.code == "bad_message"
    if isinstance(action, dict) and isinstance(action.get("do"), str) and "seat" not in action:
        with pytest.raises(InvalidScenario):
            load_scenario({"name": "x", "options": {"players": 3},
                           "steps": [dict(action, seat=0)]})


def test_a_target_out_of_the_table_is_the_rooms_shape_but_the_engines_refusal():
    queen = {"do": "queen", "pos": "left", "target": 5, "target_pos": "right"}
    assert check_shape(queen) == queen                         # no table given: any integer
    with pytest.raises(ActionError):
        check_shape(queen, players=3)
    with pytest.raises(BadMessage):
        check_action(queen, 3)


def started(options=None):
    game = Game.new(dict({"players": 3}, **(options or {})), deck=DECK, now=1000)
    return game


def test_refusal_codes_r3():
    game = started()
    with pytest.raises(IllegalAction) as exc:
        game.apply(1, {"do": "draw"}, 1000)                    # peek phase: no turn yet
    assert exc.value.code == "not_your_turn"
    for seat in range(3):
        game.apply(seat, {"do": "ready"}, 1000)
    with pytest.raises(IllegalAction) as exc:
        game.apply(2, {"do": "discard"}, 1000)                 # seat 1's turn
    assert exc.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as exc:
        game.apply(1, {"do": "swap", "pos": "left"}, 1000)     # nothing drawn yet
    assert exc.value.code == "illegal"
    with pytest.raises(IllegalAction) as exc:
        game.apply(2, {"do": "crisp"}, 1000)                   # not just after its turn
    assert exc.value.code == "illegal"


def test_awaiting_peek_then_turns_r2_4_r10_1():
    game = started()
    assert game.awaiting(1000) == {0: 1000, 1: 1000, 2: 1000}   # since the deal
    game.apply(0, {"do": "ready"}, 1500)
    assert game.awaiting(1500) == {1: 1000, 2: 1000}
    game.apply(1, {"do": "ready"}, 1600)
    game.apply(2, {"do": "ready"}, 1700)
    assert game.awaiting(1700) == {1: 1700}                    # R2.5: dealer's left
    game.apply(1, {"do": "draw"}, 1800)
    assert game.awaiting(1800) == {1: 1700}                    # still its turn
    game.apply(1, {"do": "discard"}, 1900)
    # R10.1: seat 2 may start 2 s after the turn ended; seat 1 may call but is not awaited
    assert game.awaiting(1900) == {2: 3900}


def test_awaiting_nobody_once_the_round_is_over():
    game = Game.new({"players": 2}, deck=DECK, now=0)
    game.apply(0, {"do": "ready"}, 0)
    game.apply(1, {"do": "ready"}, 0)
    game.apply(1, {"do": "draw"}, 0)
    game.apply(1, {"do": "discard"}, 0)
    game.apply(1, {"do": "crisp"}, 100)
    game.apply(0, {"do": "draw"}, 100)
    game.apply(0, {"do": "discard"}, 100)
    assert game.phase == "round_over" and game.awaiting(100) == {}


def test_forfeit_acts_only_for_an_awaited_seat_whose_time_has_come_r10_2():
    game = started()
    for seat in range(3):
        game.apply(seat, {"do": "ready"}, 1000)
    game.apply(1, {"do": "draw"}, 1000)
    game.apply(1, {"do": "discard"}, 1000)
    for seat, now in ((0, 1500), (2, 2999), (True, 4000), ("2", 4000)):
        with pytest.raises(IllegalAction):
            game.forfeit(seat, now)                # not awaited, or before it may start
    events = game.forfeit(2, 3000)
    assert [e["type"] for e in events][:1] == ["timeout"] and events[0]["away"] is True


def test_awaiting_agrees_with_what_each_seat_may_do_over_whole_bot_games():
    """Game.awaiting is the one answer to "who must act now": over whole games between bots
    (draw timers firing, calls, King chains), a seat is awaited and its time has come exactly
    when the engine lets it take a turn action or confirm its peek (R2.4, R3, R10.1)."""
    from crisp_core.tournament import play_game

    turn_kinds = {"ready", "draw", "swap", "discard", "jack", "queen", "king"}
    checked = [0]

    def check(game, seat, view, bot, plan, now):
        awaited = game.awaiting(now)
        for s in range(game.players):
            may = any(a["do"] in turn_kinds for a in game.legal_actions(s, now))
            due = s in awaited and awaited[s] <= now
            assert may == due, (s, now, game.phase, awaited)
            checked[0] += 1

    for index, options in enumerate(({}, {"draw_seconds": 30, "draw_from_discard": True})):
        play_game(["hard", "easy", "random"], options=options, seed=index, check=check,
                  stall=lambda seat, plan, now: 31000 if (now // 7919) % 9 == 0 else 0,
                  max_rounds=3)
    assert checked[0] > 1000
