"""A connected seat that holds its turn (ui/worker/idle.py, docs/protocol.md "Room messages",
`bot_turn`): the table sees how long the turn has waited on the host's clock, and past
IDLE_TURN_MS the host may let a bot play that one turn for the seat. Attacks first: a guest,
a host too early, a seat not on turn, a turn already played, junk fields, a race with the
person's own move: each refused, the game unchanged, nothing played twice."""

import json

import pytest

from roomnet import Net, RecordingRoom
from test_room import DECK, error_only
from ui.worker.idle import IDLE_TURN_MS
from ui.worker.room import LOCAL, bot_maker

SEED = 11


def table(**options):
    """Host, Ana (seat 1, who plays first with the DECK) and Bea (seat 2), peeks confirmed:
    Ana's turn may start (R10.1) at the returned clock."""
    net = Net(deck=DECK, seed=SEED, make_bot=bot_maker(SEED))
    net.host.join("Host")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    if options:
        net.host.host(dict(options, type="options"))
    net.host.host({"type": "start"})
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    net.later(2000)
    assert net.host.view["turn"] == 1 and net.clients["a"].allowed("draw")
    return net


def bot_turn(net, seat=1, level="easy", conn=LOCAL, **extra):
    msg = dict({"type": "bot_turn", "v": 1, "seat": seat, "level": level}, **extra)
    return net.room.receive(conn, json.dumps(msg), net.clock)


def seat_moves(net, seat):
    return [e["type"] for e in net.room.log
            if e.get("seat") == seat and e["type"] in ("draw", "swap", "discard", "timeout")]


def waited(net, conn, seat=1):
    return net.last(conn, "view")["players"][seat].get("waited")


def test_every_screen_sees_the_turn_waiting_once_it_passes_the_threshold():
    net = table()
    net.later(IDLE_TURN_MS - 3000)
    assert all(waited(net, conn) is None for conn in (LOCAL, "a", "b"))
    before = len(net.received("b", "view"))
    net.later(3000)                 # nothing moved: the room sends a view for the threshold
    assert len(net.received("b", "view")) > before
    for conn in (LOCAL, "a", "b"):
        assert waited(net, conn) >= IDLE_TURN_MS
    assert net.room.next_wakeup() is not None


def test_a_guest_asking_for_a_bot_turn_is_refused_and_nothing_changes():
    net = table()
    net.later(IDLE_TURN_MS + 1000)
    before = net.snapshot()
    assert error_only(bot_turn(net, conn="b"), "b") == "not_host"
    assert error_only(bot_turn(net, seat=2, conn="a"), "a") == "not_host"
    assert net.snapshot() == before


def test_the_host_before_the_threshold_is_refused():
    net = table()
    net.later(IDLE_TURN_MS - 3000)
    before = net.snapshot()
    assert error_only(bot_turn(net), LOCAL) == "not_idle"
    assert net.snapshot() == before and net.room.seats[1].agent is None


@pytest.mark.parametrize("extra", [
    {"seat": 2}, {"seat": 0}, {"seat": 3}, {"seat": -1}, {"seat": "1"}, {"seat": True},
    {"seat": None}, {"level": "godlike"}, {"level": None}, {"seat": 1, "turn": 3},
])
def test_a_seat_not_on_turn_or_junk_fields_are_refused(extra):
    net = table()
    net.later(IDLE_TURN_MS + 1000)
    before = net.snapshot()
    msg = {"type": "bot_turn", "v": 1, "seat": 1, "level": "easy"}
    msg.update(extra)
    code = error_only(net.room.receive(LOCAL, json.dumps(msg), net.clock), LOCAL)
    assert code == ("not_idle" if extra == {"seat": 2} else "bad_message")
    assert net.snapshot() == before
    missing = {"type": "bot_turn", "v": 1, "seat": 1}
    assert error_only(net.room.receive(LOCAL, json.dumps(missing), net.clock),
                      LOCAL) == "bad_message"
    assert net.snapshot() == before


def test_the_host_lets_a_bot_play_one_turn_then_the_seat_is_its_persons_again():
    net = table()
    net.later(IDLE_TURN_MS + 1000)
    ana = net.clients["a"]
    net.deliver(bot_turn(net, level="hard"))
    seat = net.room.seats[1]
    assert seat.agent is not None and seat.agent.level == "hard"
    # every screen says a bot plays this turn; Ana's own page may not move meanwhile
    for conn in (LOCAL, "a", "b"):
        entry = net.last(conn, "view")["players"][1]
        assert entry["turn_bot"] == "hard" and entry["connected"] is True
        assert "waited" not in entry
    assert ana.view["allowed"] == []
    # a second command for the same turn changes nothing
    before = net.snapshot()
    assert error_only(bot_turn(net), LOCAL) == "not_idle"
    assert net.snapshot() == before
    net.later(15000)
    assert net.host.view["turn"] == 2
    moves = seat_moves(net, 1)
    assert moves[0] == "draw" and moves[1] in ("swap", "discard") and len(moves) == 2
    # Ana's seat is hers again: no bot, no mark, and her next turn waits for her
    assert seat.agent is None and seat.plan is None and seat.bot is None
    assert "turn_bot" not in net.last("a", "view")["players"][1]
    net.act("b", {"do": "draw", "from": "deck"})
    net.act("b", {"do": "discard"})
    net.later(2500)
    net.act(LOCAL, {"do": "draw", "from": "deck"})
    net.act(LOCAL, {"do": "discard"})
    net.later(2500)
    assert net.host.view["turn"] == 1 and ana.allowed("draw")
    net.later(IDLE_TURN_MS - 5000)
    assert seat_moves(net, 1) == moves                      # nobody plays for her now
    net.act("a", {"do": "draw", "from": "deck"})
    assert seat_moves(net, 1) == moves + ["draw"]
    # Ana saw what was played for her: the bot's moves came in her own views' events
    seen = [e["type"] for m in net.received("a", "view") for e in m["events"]
            if e.get("seat") == 1 and e["type"] in ("draw", "swap", "discard")]
    assert seen[:2] == moves


def test_the_persons_move_first_wins_and_the_late_command_is_refused():
    net = table()
    net.later(IDLE_TURN_MS + 1000)
    net.act("a", {"do": "draw", "from": "deck"})             # Ana moves: she is here
    before = net.snapshot()
    assert error_only(bot_turn(net), LOCAL) == "not_idle"
    assert net.snapshot() == before and net.room.seats[1].agent is None
    net.act("a", {"do": "discard"})
    assert seat_moves(net, 1) == ["draw", "discard"]
    before = net.snapshot()                                  # the turn is over: stale command
    assert error_only(bot_turn(net), LOCAL) == "not_idle"
    assert net.snapshot() == before


def test_the_command_first_wins_and_the_persons_late_move_is_refused():
    net = table()
    net.later(IDLE_TURN_MS + 1000)
    n = net.last("a", "view")["n"]
    net.deliver(bot_turn(net))
    late = {"type": "action", "v": 1, "action": {"do": "draw", "from": "deck"}, "n": n}
    before = net.snapshot()
    assert error_only(net.room.receive("a", json.dumps(late), net.clock), "a") == "stale"
    del late["n"]                                            # without n: refused all the same
    assert error_only(net.room.receive("a", json.dumps(late), net.clock), "a") == "bot_playing"
    assert net.snapshot() == before
    net.later(15000)
    assert seat_moves(net, 1)[:1] == ["draw"] and seat_moves(net, 1).count("draw") == 1


def test_a_timed_turn_or_an_away_seat_is_not_offered():
    net = table(draw_seconds=60)
    net.later(IDLE_TURN_MS + 1000)            # the draw timer ends such a turn itself (R10.2)
    assert waited(net, "b") is None
    before = net.snapshot()
    assert error_only(bot_turn(net), LOCAL) == "not_idle"
    assert net.snapshot() == before
    net = table()
    net.close("a")                            # away: the stand-in and the room's own clock
    net.later(IDLE_TURN_MS + 1000)
    assert waited(net, "b") is None
    before = net.snapshot()
    assert error_only(bot_turn(net), LOCAL) == "not_idle"
    assert net.snapshot() == before


def test_a_bot_playing_a_turn_is_not_saved_the_reloaded_room_gives_the_seat_back():
    net = table()
    net.later(IDLE_TURN_MS + 1000)
    net.deliver(bot_turn(net))
    saved = json.loads(json.dumps(net.room.to_dict()))
    assert saved["seats"][1]["stand_in"] is None and saved["seats"][1]["bot"] is None
    restored = RecordingRoom.from_dict(saved, make_bot=bot_maker(SEED))
    assert restored.seats[1].agent is None and restored.seats[1].plan is None


def test_a_test_pages_bot_pace_shortens_the_wait_alike():
    from ui.worker.idle import threshold
    assert threshold(1.0) == IDLE_TURN_MS and threshold(0.2) == IDLE_TURN_MS // 5
    for junk in (0, -1, 2, True, "0.1", None, float("nan")):
        assert threshold(junk) == IDLE_TURN_MS
    assert threshold(0.001) == 1000
