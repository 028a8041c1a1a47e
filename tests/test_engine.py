"""Engine tests by rule, for what the scenario files cannot see: views, deadlines, saving.

The rules' outcomes themselves are checked by tests/scenarios (hand-worked expectations).
"""

import json

import pytest

from crisp_core import Game, IllegalAction, events_for, view_for
from crisp_core.cards import CANONICAL, stacked_deck, value
from crisp_core.shuffle import seeded_deck as shuffled_deck

# Dealer 0, 3 players: seat 1 gets deck[0], deck[3], deck[6]; seat 2 deck[1], [4], [7];
# seat 0 deck[2], [5], [8]. Then the deck: Jh 5h Ah 9d Qs Kd ...
DECK = ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jh", "5h", "Ah", "9d", "Qs", "Kd"]


def started(options=None, deck=DECK, now=0):
    game = Game.new(dict({"players": 3}, **(options or {})), deck=deck, now=now)
    for seat in range(game.players):
        game.apply(seat, {"do": "ready"}, now)
    return game


def test_values_r1_3():
    assert [value(c) for c in ("Ah", "2c", "9d", "Ts", "Jh", "Qc", "Kd")] == [1, 2, 9, 10, 10, 10, 10]
    with pytest.raises(ValueError):
        value("1h")


def test_stacked_and_shuffled_decks_r2_2():
    deck = stacked_deck(["Kd", "Ah"])
    assert deck[:3] == ["Kd", "Ah", "Ac"] and sorted(deck) == sorted(CANONICAL)
    with pytest.raises(ValueError):
        stacked_deck(["Ah", "Ah"])
    assert shuffled_deck(7, 1) == shuffled_deck(7, 1)
    assert shuffled_deck(7, 1) != shuffled_deck(7, 2)


def test_deal_order_and_peek_reveals_r2_2_r2_4():
    game = Game.new({"players": 3}, deck=DECK)
    assert game.hands == [["4c", "7c", "Tc"], ["2c", "5c", "8c"], ["3c", "6c", "9c"]]
    assert game.phase == "peek" and game.deck[0] == "Jh"


def test_options_are_validated_r10():
    for bad in ({"players": 1}, {"players": 9}, {"players": 3, "target": 75},
                {"players": 3, "draw_seconds": 10}, {"players": 3, "draw_from_discard": 1},
                {"players": True}, {"players": 3, "colour": "red"}):
        with pytest.raises(ValueError):
            Game.new(bad)


def test_drawn_card_is_seen_by_its_holder_only_r3_1_r9_1():
    game = started()
    events = game.apply(1, {"do": "draw"}, 0)
    assert events_for(events, 1)[-1] == {"type": "reveal", "to": 1, "reason": "draw",
                                         "cards": [{"seat": 1, "pos": "held", "card": "Jh"}]}
    assert all(e["type"] != "reveal" for e in events_for(events, 0))
    assert view_for(game, 1, 0)["held"] == {"seat": 1, "from": "deck", "card": "Jh"}
    assert view_for(game, 0, 0)["held"] == {"seat": 1, "from": "deck", "card": None}
    assert "Jh" not in json.dumps(view_for(game, 2, 0))


def test_allowed_lists_only_legal_choices_r4_1_r4_2():
    game = started()
    game.apply(1, {"do": "draw"}, 0)  # a Jack from the deck
    kinds = [entry["do"] for entry in view_for(game, 1, 0)["allowed"]]
    assert kinds == ["discard", "jack"]  # never swapped in (R4.1)
    assert view_for(game, 0, 0)["allowed"] == []


def test_king_cannot_be_discarded_and_chains_r4_3_r4_6():
    game = started(deck=DECK[:9] + ["Kd", "Ks", "5h"])
    game.apply(1, {"do": "draw"}, 0)
    with pytest.raises(IllegalAction):
        game.apply(1, {"do": "discard"}, 0)
    game.apply(1, {"do": "king"}, 0)
    assert game.pending_draws == 2 and game.discard == ["Kd"]
    game.apply(1, {"do": "draw"}, 0)
    game.apply(1, {"do": "king"}, 0)
    assert game.pending_draws == 3  # R4.6: one left + two more


def test_crisp_window_and_start_delay_r10_1():
    game = started()
    game.apply(1, {"do": "draw"}, 1000)
    game.apply(1, {"do": "discard"}, 1000)
    assert game.next_deadline() == 3000  # the next player may start
    view = view_for(game, 1, 1500)
    assert view["crisp_window"] == {"seat": 1, "left": 2500}
    assert {"do": "crisp"} in view["allowed"]
    assert view_for(game, 2, 1500)["start_in"] == 1500
    with pytest.raises(IllegalAction):
        game.apply(2, {"do": "draw"}, 2999)
    game.apply(2, {"do": "draw"}, 3000)
    game.advance(4000)  # the window closes at 1000 + 3000
    assert game.window is None
    with pytest.raises(IllegalAction):
        game.apply(1, {"do": "crisp"}, 4000)


def test_early_call_lets_next_player_start_and_restarts_timer_r10_1_r10_2():
    game = started({"draw_seconds": 30})
    game.apply(1, {"do": "draw"}, 0)
    game.apply(1, {"do": "discard"}, 0)
    assert game.draw_deadline == 2000 + 30000
    game.apply(1, {"do": "crisp"}, 500)
    assert game.phase == "last_turns" and game.start_at == 500
    assert game.draw_deadline == 500 + 30000
    assert view_for(game, 2, 500)["last_turns_left"] == 2


def test_refused_action_keeps_deadline_events_r10_2():
    game = started({"draw_seconds": 30})
    with pytest.raises(IllegalAction) as info:
        game.apply(1, {"do": "draw"}, 30000)  # seat 1 timed out at 30000 first
    assert [e["type"] for e in info.value.events] == ["timeout", "turn"]
    assert game.discard == ["Jh"] and game.turn == 2
    game.apply(2, {"do": "draw"}, 30000)  # no call can follow a timeout: start at once


def test_round_over_shows_every_hand_r6_2_r7():
    game = started()
    game.apply(1, {"do": "draw"}, 0)
    game.apply(1, {"do": "discard"}, 0)
    game.apply(1, {"do": "crisp"}, 100)
    for seat, at in ((2, 200), (0, 400)):
        game.apply(seat, {"do": "draw"}, at)
        game.apply(seat, {"do": "discard"}, at)
    assert game.phase == "round_over"
    # Seat 1 holds 2c 5c 8c = 15, the lowest: 15 - 5.
    assert game.round_points == [21, 10, 18]
    assert view_for(game, 0, 500)["hands"] == game.hands
    assert view_for(game, 0, 500)["allowed"] == [{"do": "next_round"}]


def test_save_and_resume_mid_turn():
    game = started({"draw_seconds": 45, "draw_from_discard": True})
    game.apply(1, {"do": "draw"}, 10)
    text = json.dumps(game.to_dict())
    resumed = Game.from_dict(json.loads(text))
    assert resumed == game
    assert resumed.apply(1, {"do": "jack"}, 20) == game.apply(1, {"do": "jack"}, 20)
    with pytest.raises(ValueError):
        Game.from_dict({"version": 2})


def test_views_hold_no_hidden_card_for_any_seat_r9():
    game = started()
    for seat in range(3):
        text = json.dumps(view_for(game, seat, 0))
        for hand in game.hands:
            for card in hand:
                assert card not in text


def test_forfeit_confirms_peek_then_times_out_turns_r2_4_r10_2():
    game = Game.new({"players": 3}, deck=DECK)
    game.apply(0, {"do": "ready"}, 0)
    game.apply(2, {"do": "ready"}, 0)
    events = game.forfeit(1, 100)  # seat 1 is gone: its peek is confirmed
    assert events[0] == {"type": "ready", "seat": 1, "auto": True}
    assert game.phase == "play" and game.turn == 1
    events = game.forfeit(1, 100)  # its turn: a forced draw, discarded, no call window
    assert events[0] == {"type": "timeout", "seat": 1, "card": "Jh", "forced": True, "lost": 0,
                         "away": True}
    assert game.turn == 2 and game.window is None and game.start_at == 100
    with pytest.raises(IllegalAction):
        game.forfeit(0, 100)  # not seat 0's turn
