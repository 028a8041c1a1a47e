"""A saved room is untrusted input (the host's localStorage, which every page of the origin
can write): `Game.from_dict` and `Room.from_dict` refuse a truncated or tampered save with a
ValueError, and what they accept is a state the engine and the room can go on from.

Attacks first (each loaded without a word before, and broke the game later or at once), then
properties over random games (Hypothesis): a valid save at every step always loads; every
truncation or mutation of one is refused or loads into a consistent state.
"""

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crisp_core import CANONICAL, Game, view_for
from ui.worker.room import LOCAL, Room, bot_maker

DECK = ["2c", "3s", "7h", "9d", "Td", "Ah", "5h", "4c", "8s", "6d", "Jc", "Qs", "Kd"]


def playing_room():
    """A room of the host and two bots, dealt, the peek over: seat 1's turn."""
    room = Room("crisp-" + "ab" * 16, "Hana", seed=5, deck=DECK, make_bot=bot_maker(5, 0.1))
    room.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Hana"}), 0)
    for _ in range(2):
        room.receive(LOCAL, json.dumps({"type": "add_bot", "v": 1, "level": "easy"}), 0)
    room.receive(LOCAL, json.dumps({"type": "start", "v": 1}), 0)
    room.receive(LOCAL, json.dumps({"type": "action", "v": 1, "action": {"do": "ready"}}), 10)
    for at in range(100, 20000, 100):
        room.tick(at)
        if room.game.phase == "play":
            break
    assert room.game.phase == "play"
    return room


def saved():
    return json.loads(json.dumps(playing_room().to_dict()))


def refused(save, words):
    with pytest.raises(ValueError) as e:
        Room.from_dict(save, make_bot=bot_maker(5))
    assert words in str(e.value), str(e.value)


# ---- attacks -------------------------------------------------------------------------------

def test_a_valid_save_loads():
    room = Room.from_dict(saved(), make_bot=bot_maker(5))
    assert room.game is not None and room.game.phase == "play"


def test_a_card_dealt_twice_is_refused():
    save = saved()
    hands = save["game"]["hands"]
    hands[0][0] = hands[1][0]                   # two of one card, one card gone
    refused(save, "52 cards")


def test_a_stacked_deck_is_refused():
    save = saved()
    game = save["game"]
    game["deck"] = game["deck"][:5]               # cards gone
    refused(save, "52 cards")
    save = saved()
    save["game"]["deck"].append("Zz")
    refused(save, "not a card")


def test_a_turn_for_no_seat_is_refused():
    save = saved()
    save["game"]["turn"] = 7
    refused(save, "turn")


def test_scores_that_do_not_fit_the_seats_or_the_phase_are_refused():
    save = saved()
    save["game"]["scores"] = [0, 0]
    refused(save, "scores")
    save = saved()
    save["game"]["scores"] = [0, 200, 0]       # past the target, yet the game goes on
    refused(save, "target")


def test_a_game_of_other_seats_than_the_room_is_refused():
    save = saved()
    save["seats"].pop()
    refused(save, "saved room")             # (its log names a third seat)
    save["log"] = []
    save["peeks"].pop("2", None)
    refused(save, "seats")


def test_a_phase_that_does_not_exist_is_refused():
    save = saved()
    save["game"]["phase"] = "party"
    refused(save, "phase")


def test_seats_are_checked():
    save = saved()
    save["seats"][0]["bot"] = "easy"            # the host a bot
    refused(save, "seat 0")
    save = saved()
    save["seats"][1]["level"] = "easy"          # a field no seat has
    refused(save, "seat 1")
    save = saved()
    save["seats"].append(dict(save["seats"][0]))  # the host's token twice
    save["game"] = None
    refused(save, "token")


def test_a_bot_plan_without_a_time_is_refused():
    # it used to load, then next_wakeup compared "soon" with numbers: the room stopped
    save = saved()
    save["seats"][1]["plan"] = {"at": "soon", "action": {"do": "draw"}}
    refused(save, "plan")


def test_a_room_id_that_is_no_peer_id_is_refused():
    save = saved()
    save["room_id"] = "../../x"
    refused(save, "room id")


def test_options_out_of_range_are_refused():
    save = saved()
    save["options"]["target"] = 7
    refused(save, "options")


def test_the_whole_room_missing_or_not_an_object_is_refused():
    for junk in (None, [], "x", 5, {}):
        with pytest.raises(ValueError):
            Room.from_dict(junk)


def test_a_bot_state_of_another_seat_gives_a_fresh_bot():
    save = saved()
    save["seats"][1]["agent"], save["seats"][2]["agent"] = \
        save["seats"][2]["agent"], save["seats"][1]["agent"]
    room = Room.from_dict(save, make_bot=bot_maker(5))
    assert room.seats[1].agent.seat == 1 and room.seats[2].agent.seat == 2


# ---- properties over random games ------------------------------------------------------------

def play(seed, steps, bots):
    """A random game: the host and `bots` bots; the host's seat picks random legal actions.
    Returns a JSON save (text) after every step."""
    rng = random.Random(seed)
    room = Room("crisp-" + "cd" * 16, "Hana", seed=seed, make_bot=bot_maker(seed, 0.05))
    room.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Hana"}), 0)
    for _ in range(bots):
        room.receive(LOCAL, json.dumps({"type": "add_bot", "v": 1,
                                        "level": rng.choice(["easy", "hard"])}), 0)
    room.receive(LOCAL, json.dumps({"type": "options", "v": 1, "target": 50,
                                    "draw_seconds": rng.choice([None, 30])}), 0)
    saves = [json.dumps(room.to_dict())]
    room.receive(LOCAL, json.dumps({"type": "start", "v": 1}), 0)
    now = 0
    for _ in range(steps):
        now += rng.choice([50, 400, 2500, 31000])
        room.tick(now)
        if room.game.phase == "game_over":
            saves.append(json.dumps(room.to_dict()))
            break
        legal = room.game.legal_actions(0, now)
        if legal and rng.random() < 0.7:
            action = rng.choice(legal)
            room.receive(LOCAL, json.dumps({"type": "action", "v": 1, "action": action}), now)
        saves.append(json.dumps(room.to_dict()))
    return saves


def consistent(room):
    """What a loaded room must allow: the engine's invariants and every entry point."""
    game = room.game
    if game is not None:
        cards = [c for hand in game.hands for c in hand] + game.deck + game.discard
        if game.held is not None:
            cards.append(game.held)
        assert sorted(cards) == sorted(CANONICAL)                     # R1.2
        assert game.players == len(room.seats)
        for seat in range(game.players):
            view_for(game, seat, room.now)
            game.legal_actions(seat, room.now)
        game.next_deadline()
    now = room.now + 1000
    room.resumed(now)
    out = room.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Hana"}), now)
    assert all('"internal"' not in text for _, text in out), out
    room.next_wakeup()
    for later in (now + 5000, now + 40000, now + 100000):
        room.tick(later)
        room.next_wakeup()
    text = json.dumps(room.to_dict())
    again = Room.from_dict(json.loads(text), make_bot=bot_maker(1))
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(json.loads(text),
                                                                     sort_keys=True)


JUNK = [None, True, -1, 0, 1, 3, 8, 10 ** 9, 2.5, "", "x", "Ah", "play", [], {}, ["Ah"],
        {"type": "reveal"}]


def paths(obj, here=()):
    """Every path to a value inside a JSON object."""
    out = [here]
    if isinstance(obj, dict):
        for key in obj:
            out += paths(obj[key], here + (key,))
    elif isinstance(obj, list):
        for i, item in enumerate(obj):
            out += paths(item, here + (i,))
    return out


def mutate(save, rng):
    """One truncation or mutation of a save, somewhere at random."""
    save = copy.deepcopy(save)
    path = rng.choice(paths(save)[1:])
    parent = save
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    how = rng.random()
    value = parent[key]
    if how < 0.2:
        del parent[key]                                     # a field or an item gone
    elif how < 0.35 and isinstance(value, list) and value:
        parent[key] = value[:rng.randrange(len(value))]     # a list cut short
    elif how < 0.45 and isinstance(value, list) and value:
        parent[key] = value + [rng.choice(value)]           # an item twice
    elif how < 0.55 and isinstance(value, list) and len(value) > 1:
        i, j = rng.sample(range(len(value)), 2)             # two items swapped
        value[i], value[j] = value[j], value[i]
    elif how < 0.6 and isinstance(parent, dict):
        parent["extra"] = 1                                 # a field no save has
    else:
        parent[key] = copy.deepcopy(rng.choice(JUNK))
    return save


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(1, 60), bots=st.integers(1, 3))
def test_a_valid_save_at_every_step_of_a_random_game_loads(seed, steps, bots):
    for text in play(seed, steps, bots):
        room = Room.from_dict(json.loads(text), make_bot=bot_maker(seed))
        assert json.dumps(room.to_dict(), sort_keys=True) == json.dumps(json.loads(text),
                                                                        sort_keys=True)
        consistent(room)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), steps=st.integers(0, 40), bots=st.integers(1, 3),
       pick=st.integers(0, 10 ** 6), times=st.integers(1, 3))
def test_a_truncated_or_tampered_save_is_refused_or_loads_consistent(seed, steps, bots, pick,
                                                                     times):
    saves = play(seed, steps, bots)
    text = saves[pick % len(saves)]
    rng = random.Random(pick)
    # the text cut anywhere: never a save (the page's JSON.parse refuses it)
    with pytest.raises(ValueError):
        json.loads(text[:rng.randrange(len(text))])
    for _ in range(12):
        save = json.loads(text)
        for _ in range(times):
            try:
                save = mutate(save, rng)
            except (IndexError, KeyError, TypeError):
                break
        try:
            room = Room.from_dict(save, make_bot=bot_maker(seed))
        except ValueError:
            continue                                # refused, with a reason
        consistent(room)


def test_game_from_dict_refuses_what_room_from_dict_does_not_see():
    game = Game.new({"players": 3}, seed=1)
    data = game.to_dict()
    assert Game.from_dict(json.loads(json.dumps(data))) == game
    for field, value in (("held", "Ah"), ("ready", [True, True, True]), ("round", 0),
                         ("clock", -5), ("winners", [0]), ("round_points", [1, 2, 3]),
                         ("window", [0, 100]), ("caller", 1), ("dealer", 3),
                         ("pending_draws", 2), ("drew", True), ("stack", ["Ah", "Ah"])):
        bad = dict(data, **{field: value})
        with pytest.raises(ValueError):
            Game.from_dict(bad)
