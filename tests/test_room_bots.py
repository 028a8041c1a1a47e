"""Bots in the host's room (ui/worker/room.py): added and removed in the lobby, seeded per room and
seat, saved with the room (their memory too), standing in for an away player until that
player is back, and never shown a card their seat may not know (docs/rules.md R9).
docs/protocol.md ("Room", "Bots")."""

import json
import random

from crisp_core import Bot
from roomnet import Net, RecordingRoom
from test_room import DECK, error_only
from ui.worker.room import LOCAL, bot_maker

SEED = 11
# The bots' English names by seat (crisp_core/bot_names.py): a face and a first name.
EMMA, OLIVER, LILY, NOAH = "\U0001F98A Emma", "\U0001F43C Oliver", "\U0001F438 Lily", \
    "\U0001F419 Noah"


def with_bots(levels, seed=SEED, make_bot=None, **kwargs):
    net = Net(seed=seed, make_bot=make_bot or bot_maker(seed), **kwargs)
    net.host.join("Host")
    for level in levels:
        net.host.host({"type": "add_bot", "level": level})
    return net


def host_move(net):
    """The host's part, a plain policy: ready, draw, swap low cards into its left, else
    discard; next round. Returns False when the host has nothing to do now."""
    host = net.host
    if host.allowed("ready"):
        net.act(LOCAL, {"do": "ready"})
    elif host.allowed("next_round"):
        host.host({"type": "next_round"})
    elif host.allowed("draw"):
        net.act(LOCAL, {"do": "draw", "from": "deck"})
    elif host.allowed("king"):
        net.act(LOCAL, {"do": "king"})
    elif host.allowed("swap") and host.view["held"]["card"][0] in "A23":
        net.act(LOCAL, {"do": "swap", "pos": "left"})
    elif host.allowed("discard"):
        net.act(LOCAL, {"do": "discard"})
    else:
        return False
    return True


def play(net, done, limit=20000):
    """Drive the room (the host's policy, the clock to each wake-up) until `done(view)`."""
    for _ in range(limit):
        view = net.host.view
        if view is not None and done(view):
            return view
        if view is not None and view["phase"] == "game_over":
            break
        if not host_move(net):
            wake = net.room.next_wakeup()
            assert wake is not None, view
            net.at(max(wake, net.clock))
    raise AssertionError("not done: %r" % (net.host.view,))


def taped(net):
    """Keep every engine event the room records from now on in `net.tape`."""
    net.tape = []
    record = net.room._record

    def _record(events):
        net.tape.extend(events)
        record(events)
    net.room._record = _record


def bot_events(net, since=0):
    return [e for e in net.room.log[since:] if e.get("seat") not in (None, 0)]


# ---- added, removed, seeded -----------------------------------------------------------------

def test_the_host_adds_bots_seeded_per_room_and_seat_never_the_global_random():
    state = random.getstate()
    net = with_bots(["hard", "easy"])
    players = net.last(LOCAL, "lobby")["players"]
    assert [(p["name"], p["bot"], p["connected"]) for p in players] == [
        ("Host", None, True), (EMMA, "hard", True), (OLIVER, "easy", True)]
    agents = [seat.agent for seat in net.room.seats]
    assert agents[0] is None
    assert [(a.seat, a.level) for a in agents[1:]] == [(1, "hard"), (2, "easy")]
    # the same room seed and seat: the same bot; another seat or room: another
    again = with_bots(["hard", "easy"])
    assert [s.agent.to_dict() for s in again.room.seats[1:]] == [a.to_dict() for a in agents[1:]]
    assert agents[1].rng.random() != agents[2].rng.random()
    other = with_bots(["hard"], seed=SEED + 1)
    assert other.room.seats[1].agent.to_dict()["rng"] != again.room.seats[1].agent.to_dict()["rng"]
    net.host.host({"type": "start"})
    play(net, lambda view: view["phase"] == "round_over")
    assert random.getstate() == state


def test_the_host_removes_a_bot_in_the_lobby_and_the_seats_after_it_move_down():
    net = with_bots(["hard", "easy", "hard"])
    net.host.host({"type": "remove", "seat": 1})
    players = net.last(LOCAL, "lobby")["players"]
    assert [(p["seat"], p["name"], p["bot"]) for p in players] == [
        (0, "Host", None), (1, OLIVER, "easy"), (2, LILY, "hard")]   # names stay with the bots
    assert [(s.agent.seat, s.agent.level) for s in net.room.seats[1:]] == [(1, "easy"), (2, "hard")]
    net.host.host({"type": "add_bot", "level": "easy"})
    assert [p["name"] for p in net.last(LOCAL, "lobby")["players"]] == [
        "Host", OLIVER, LILY, NOAH]
    net.host.host({"type": "start"})
    out = net.room.receive(LOCAL, '{"type": "remove", "v": 1, "seat": 1}', net.clock)
    assert error_only(out, LOCAL) == "started"
    out = net.room.receive(LOCAL, '{"type": "add_bot", "v": 1, "level": "easy"}', net.clock)
    assert error_only(out, LOCAL) == "started"
    play(net, lambda view: view["phase"] == "round_over")     # the moved bots play their seats


def test_bots_play_at_a_persons_pace():
    net = with_bots(["hard", "easy"])
    net.host.host({"type": "start"})
    start = net.clock
    readies = sorted(seat.plan["at"] - start for seat in net.room.seats[1:])
    assert 1200 <= readies[0] and readies[-1] <= 2600           # think_ms("ready")
    fast = with_bots(["hard", "easy"], make_bot=bot_maker(SEED, pace=0.1))
    fast.host.host({"type": "start"})
    assert sorted(seat.plan["at"] - fast.clock for seat in fast.room.seats[1:]) == [
        int(ms * 0.1) for ms in readies]                         # the same dice, 10x faster


# ---- saved with the room ---------------------------------------------------------------------

def test_bots_saved_and_restored_mid_round_decide_exactly_as_before():
    first = with_bots(["hard", "easy", "random"])
    first.host.host({"type": "options", "target": 50})
    first.host.host({"type": "start"})
    play(first, lambda view: view["phase"] == "play" and len(bot_events(first)) > 12
         and view["turn"] != 0)
    saved = json.loads(json.dumps(first.room.to_dict()))
    for seat, data in zip(first.room.seats[1:], saved["seats"][1:]):
        assert data["agent"] == seat.agent.to_dict() and data["agent"]["events_seen"] > 10
        assert data["plan"] == seat.plan
    assert saved["seats"][0]["agent"] is None

    # the host page reloads: a new room from the saved one, the host's screen joins again
    second = Net(seed=SEED)
    second.room = RecordingRoom.from_dict(saved, make_bot=bot_maker(SEED))
    second.clock = first.clock
    assert json.loads(json.dumps(second.room.to_dict())) == saved
    for net in (first, second):
        taped(net)
        net.host.join("Host")
    marks = []
    for net in (first, second):
        play(net, lambda view: view["phase"] == "game_over")
        marks.append((net.tape, [s.agent.to_dict() for s in net.room.seats[1:]], net.clock))
    assert marks[0] == marks[1]
    assert len([e for e in marks[0][0] if e.get("seat") in (1, 2, 3)]) > 20
    assert not first.leaks and not second.leaks


def test_a_room_saved_without_bot_states_makes_fresh_bots():
    net = with_bots(["easy"])
    saved = net.room.to_dict()
    saved["seats"][1]["agent"] = None
    room = RecordingRoom.from_dict(saved, make_bot=bot_maker(SEED))
    assert room.seats[1].agent.level == "easy" and room.seats[1].agent.events_seen == 0
    broken = net.room.to_dict()
    broken["seats"][1]["agent"] = {"version": 1, "seat": 1}
    room = RecordingRoom.from_dict(broken, make_bot=bot_maker(SEED))
    assert room.seats[1].agent.level == "easy"


# ---- a bot stands in for an away player --------------------------------------------------------

def three_with_a_guest_away():
    """Host, Ana (seat 1, then away) and Bea (seat 2); the DECK of test_room: seat 1 is dealt
    2c 9d 5h and plays first."""
    net = Net(deck=DECK, seed=SEED, make_bot=bot_maker(SEED))
    net.host.join("Host")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    net.host.host({"type": "start"})
    return net


def stand_in(net, seat, level="hard"):
    return net.room.receive(LOCAL, json.dumps({"type": "stand_in", "v": 1, "seat": seat,
                                               "level": level}), net.clock)


def test_a_bot_plays_an_away_seat_until_its_player_is_back():
    net = three_with_a_guest_away()
    token = net.clients["a"].token
    assert error_only(stand_in(net, 1), LOCAL) == "not_away"
    net.close("a")
    for bad, code in ((0, "bad_message"), (3, "bad_message"), ("1", "bad_message")):
        assert error_only(stand_in(net, bad), LOCAL) == code
    assert error_only(stand_in(net, 1, "godlike"), LOCAL) == "bad_message"
    out = net.room.receive("b", json.dumps({"type": "stand_in", "v": 1, "seat": 1,
                                            "level": "easy"}), net.clock)
    assert error_only(out, "b") == "not_host"

    net.deliver(stand_in(net, 1, "hard"))
    seat = net.room.seats[1]
    assert seat.stand_in == "hard" and seat.agent.seat == 1
    assert net.last("b", "view")["players"][1] == {"seat": 1, "name": "Ana", "bot": "hard",
                                                   "connected": False, "wins": 0}
    # it starts from what Ana was shown: her peek (R2.4)
    assert seat.agent.known_cards() == {(1, "left"): "2c", (1, "right"): "5h"}
    assert stand_in(net, 1) == []                               # already played by a bot

    net.act(LOCAL, {"do": "ready"})
    net.act("b", {"do": "ready"})
    net.later(3000)                                             # the bot confirms the peek
    assert {"type": "ready", "seat": 1, "auto": False} in net.host.log
    net.later(5000)                                             # and plays Ana's turn
    assert net.host.view["turn"] == 2
    assert [e["seat"] for e in net.host.log if e["type"] in ("draw", "swap", "discard")][:2] \
        == [1, 1]

    # the saved room keeps the bot standing in, with its memory
    saved = json.loads(json.dumps(net.room.to_dict()))
    assert saved["seats"][1]["stand_in"] == "hard" and saved["seats"][1]["bot"] is None
    restored = RecordingRoom.from_dict(saved, make_bot=bot_maker(SEED))
    assert restored.seats[1].agent.to_dict() == seat.agent.to_dict()
    assert restored.seats[1].away_since is not None

    # Ana is back: her seat, and the bot stops
    ana = net.guest("a2", "Ana", token=token)
    assert net.clients["a2"].seat == 1
    assert seat.stand_in is None and seat.agent is None and seat.plan is None
    assert net.last("b", "view")["players"][1] == {"seat": 1, "name": "Ana", "bot": None,
                                                   "connected": True, "wins": 0}
    net.later(2000)                                             # (R10.1: Bea may start)
    net.act("b", {"do": "draw"})
    net.act("b", {"do": "discard"})
    net.later(2000)
    net.act(LOCAL, {"do": "draw"})
    net.act(LOCAL, {"do": "discard"})
    net.later(60000)                                            # nobody plays for her now
    assert net.host.view["turn"] == 1 and ana.allowed("draw")
    assert not [e for e in net.host.log if e["type"] == "timeout"]
    net.act("a2", {"do": "draw"})
    assert net.host.view["held"]["seat"] == 1
    assert not net.leaks


def test_a_silent_guest_heard_again_takes_its_seat_back_from_the_bot():
    net = three_with_a_guest_away()
    net.asleep.add("a")                     # no ping, no close: away after 15 s
    net.later(15000)
    net.deliver(stand_in(net, 1, "easy"))
    assert net.room.seats[1].stand_in == "easy"
    net.asleep.discard("a")
    net.clients["a"].ping(net.clock)        # the same connection speaks again
    assert net.room.seats[1].agent is None
    assert net.last("b", "view")["players"][1]["bot"] is None


def test_a_stand_in_needs_a_started_game_and_bots():
    net = Net(make_bot=bot_maker(SEED))
    net.host.join("Host")
    net.guest("a", "Ana")
    net.close("a")
    assert error_only(stand_in(net, 1), LOCAL) == "not_started"
    plain = Net()
    plain.host.join("Host")
    plain.guest("a", "Ana")
    plain.host.host({"type": "start"})
    plain.close("a")
    assert error_only(stand_in(plain, 1), LOCAL) == "no_bots"


# ---- what bots are shown ------------------------------------------------------------------------

class Spy:
    """A bot whose every input (view and events) is checked against what its seat may know."""

    def __init__(self, bot, net):
        self.bot = bot
        self.net = net
        self.calls = 0

    def plan(self, view, events, now):
        self.calls += 1
        self.net.check_seat(self.bot.seat, json.dumps([view, events]), "bot")
        return self.bot.plan(view, events, now)

    def to_dict(self):
        return self.bot.to_dict()


def test_bots_in_a_room_never_see_another_seats_hidden_card():
    spies = []
    make = bot_maker(SEED)

    def make_bot(level, seat):
        spies.append(Spy(make(level, seat), net))
        return spies[-1]

    net = Net(seed=SEED, make_bot=make_bot)
    net.host.join("Host")
    net.guest("a", "Ana")
    for level in ("hard", "easy", "hard"):
        net.host.host({"type": "add_bot", "level": level})
    net.host.host({"type": "options", "target": 50, "draw_from_discard": True})
    net.host.host({"type": "start"})
    net.close("a")                                   # Ana goes: a bot plays her seat
    net.deliver(stand_in(net, 1, "hard"))

    view = play(net, lambda view: view["phase"] == "game_over")
    assert max(view["scores"]) >= 50
    assert len(spies) == 4 and all(spy.calls > 50 for spy in spies)
    assert net.leaks == []


# ---- an expert bot thinks in slices (the engine worker) ----------------------------------------

def test_expert_bots_think_in_slices_between_messages_and_still_play_on_time():
    """With the engine worker's slicing (room.sliced_bots) an expert bot never plays more than
    one slice of playouts in one request (crisp_core.bot_expert.SLICE: ~20 ms in Pyodide);
    while it thinks its plan is a `think` due at once, the room's ticks go on with it, and
    it plays rounds to their end, each action from a view it was allowed (R10.1, R10.2)."""
    from crisp_core import bot_expert, bot_search
    steps = []
    step = bot_search.Search.step

    def counted(search, playouts):
        played = step(search, playouts)
        steps.append(played)
        return played

    bot_search.Search.step = counted
    try:
        net = with_bots(["expert", "expert"])
        net.room.sliced_bots = True
        net.host.host({"type": "start"})
        rounds = len(net.room.history)
        play(net, lambda view: len(net.room.history) >= rounds + 2)
    finally:
        bot_search.Search.step = step
    assert steps and max(steps) <= bot_expert.slice_for(3)
    assert sum(1 for s in steps if s == bot_expert.slice_for(3)) > 5   # searches took slices
    assert {e["type"] for e in bot_events(net)} >= {"draw", "crisp"}
    saved = json.loads(json.dumps(net.room.to_dict()))      # a think plan saves and loads
    assert net.room.from_dict(saved, make_bot=bot_maker(SEED)).seats[1].agent.level == "expert"
