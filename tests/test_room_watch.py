"""Late friends, leaving and removing (issue 10, items 4 and 5): a connection that watches
without a seat (public information only), asks for a seat the host approves or waits for the
next game; a guest who leaves the lobby (its seat frees up) or the table (a bot takes it);
the host removing a person. docs/protocol.md "Spectators", "Leaving"."""

import json

from roomnet import Net
from ui.worker.room import MAX_SPECTATORS, SPECTATOR_SILENT_MS, bot_maker


def started(make_bot=None, guests=("Ana", "Bea")):
    net = Net(make_bot=make_bot)
    net.host.join("Host")
    for i, name in enumerate(guests):
        net.guest("g%d" % i, name)
    net.host.host({"type": "start"})
    return net


def watcher(net, conn):
    """A page on a new connection that watches (the guest page does so before any name)."""
    client = net._client(conn)
    net.deliver(net.room.open(conn, net.clock, peer="peer-" + conn))
    client.connected()
    client.watch()
    return client


def test_a_spectator_gets_the_table_at_once_and_public_information_only():
    net = started()
    client = watcher(net, "w")
    assert client.spectator and client.screen == "table" and client.seat is None
    assert client.view["seat"] is None and client.view["allowed"] == []
    # play a while: every message the spectator receives names only public cards
    for _ in range(40):
        net.later(700)
        for conn, c in list(net.clients.items()):
            if conn == "w" or c.view is None:
                continue
            allowed = c.view.get("allowed") or []
            if allowed:
                entry = allowed[0]
                action = {"do": entry["do"]}
                if entry["do"] == "draw":
                    action["from"] = "deck"
                elif entry["do"] == "swap":
                    action["pos"] = entry["pos"][0]
                elif entry["do"] == "queen":
                    action.update(pos=entry["pos"][0], target=entry["targets"][0],
                                  target_pos=entry["target_pos"][0])
                c.act(action)
                break
    game = net.room.game
    assert game.round >= 1
    for text in net.inbox["w"]:
        msg = json.loads(text)
        assert msg["type"] in ("watching", "view", "pong")
        if msg["type"] != "view":
            continue
        for event in msg["events"]:
            assert "to" not in event, event
        view = msg["view"]
        if view["phase"] not in ("round_over", "game_over"):
            assert view["hands"] == [[None] * 3] * len(net.room.seats)
            held = view["held"]
            if held is not None and held["from"] == "deck":
                assert held["card"] is None
    # and a seat's own private messages never went to the spectator
    assert not any('"to":' in t for t in net.inbox["w"])


def test_a_spectator_is_not_closed_for_having_no_seat_but_a_silent_one_is():
    net = started()
    watcher(net, "w")
    net.asleep.add("w")
    net.later(11000)
    assert "w" in net.room.spectators and net.room.take_dropped() == []
    net.later(SPECTATOR_SILENT_MS)
    assert "w" not in net.room.spectators and "w" in net.room.take_dropped()


def test_spectators_are_capped():
    net = started()
    for i in range(MAX_SPECTATORS):
        watcher(net, "w%d" % i)
    watcher(net, "extra")
    assert "extra" not in net.room.spectators
    assert net.last("extra", "error")["code"] == "too_many_watchers"
    assert "extra" in net.room.take_dropped()


def test_a_spectator_takes_an_away_seat_after_the_hosts_approval():
    net = started()
    ana = net.clients["g0"]
    old_token = ana.token
    net.close("g0")                                    # Ana's phone died
    client = watcher(net, "w")
    client.sit("Cleo", 1)
    assert client.ask == {"seat": 1, "name": "Cleo"}
    assert net.host.players[1].get("asks") == "Cleo"
    # nobody else may approve; a stranger's sit for a seat someone plays is refused
    out = net.raw("g1", json.dumps({"type": "approve", "v": 1, "seat": 1}))
    assert json.loads(out[0][1])["code"] == "not_host"
    net.host.host({"type": "approve", "seat": 1})
    assert client.seat == 1 and not client.spectator and client.token not in (None, old_token)
    assert net.room.seats[1].name == "Cleo" and net.room.conns["w"] == 1
    assert client.screen == "table" and client.view["seat"] == 1
    # Ana's old token opens nothing any more
    back = net.guest("g0b", "Ana", token=old_token)
    assert back.seat is None and net.room.conns.get("g0b") is None
    assert net.leaks == []


def test_a_spectator_may_not_ask_for_a_seat_someone_plays_nor_the_hosts():
    net = started()
    client = watcher(net, "w")
    for seat in (0, 1, 7, "1", None):
        if seat is None:
            continue
        client.sit("Cleo", seat)
        assert client.error is not None, seat
    out = net.raw("w", json.dumps({"type": "approve", "v": 1, "seat": 1}))
    assert json.loads(out[0][1])["code"] == "not_host"
    net.host.host({"type": "approve", "seat": 2})
    assert net.host.error["code"] == "no_request"


def test_a_spectator_takes_a_bot_seat_and_the_bot_stops():
    net = Net(make_bot=bot_maker(5, 0.01))
    net.host.join("Host")
    net.guest("g0", "Ana")
    net.host.host({"type": "add_bot", "level": "easy"})
    net.host.host({"type": "start"})
    client = watcher(net, "w")
    client.sit("Cleo", 2)
    net.host.host({"type": "approve", "seat": 2})
    seat = net.room.seats[2]
    assert client.seat == 2 and seat.bot is None and seat.agent is None and seat.plan is None
    assert net.host.players[2]["bot"] is None


def test_a_spectator_waiting_for_the_next_game_is_seated_then():
    net = started()
    client = watcher(net, "w")
    client.sit("Cleo")
    assert client.ask == {"seat": None, "name": "Cleo"}
    net.room.game.phase = "game_over"               # the game ends (as the engine would)
    net.host.host({"type": "new_game"})
    assert client.seat == 3 and client.screen == "lobby" and client.token
    assert [s.name for s in net.room.seats] == ["Host", "Ana", "Bea", "Cleo"]


def test_a_watching_page_joins_the_lobby_with_a_name():
    net = Net()
    net.host.join("Host")
    client = watcher(net, "w")
    assert client.spectator and client.screen == "join"      # watching a lobby: join it
    client.join("Cleo")
    assert client.seat == 1 and client.screen == "lobby" and "w" not in net.room.spectators


def test_leaving_the_lobby_frees_the_seat():
    net = Net()
    net.host.join("Host")
    ana = net.guest("a", "Ana")
    net.guest("b", "Bea")
    ana.leave()
    assert ana.kicked["code"] == "left"
    assert [s.name for s in net.room.seats] == ["Host", "Bea"]
    assert net.clients["b"].seat == 1                   # told its new seat
    assert [p["name"] for p in net.host.lobby["players"]] == ["Host", "Bea"]


def test_leaving_the_table_hands_the_seat_to_a_bot_for_good():
    net = started(make_bot=bot_maker(5, 0.01))
    ana = net.clients["g0"]
    token = ana.token
    ana.leave()
    seat = net.room.seats[1]
    assert ana.kicked["code"] == "left"
    assert seat.bot == "easy" and seat.token is None and seat.agent is not None
    assert net.host.players[1]["bot"] == "easy" and net.host.players[1]["connected"]
    back = net.guest("again", "Ana", token=token)       # its token opens nothing now
    assert back.seat is None
    # the bot plays the seat: the game goes on without anyone waiting for Ana
    net.later(20000)
    assert net.room.game.ready[1]


def test_the_host_cannot_leave_through_the_room_and_a_stranger_cannot_leave_anyone():
    lobby = Net()
    lobby.host.join("Host")
    out = lobby.raw("local", json.dumps({"type": "leave", "v": 1}))
    assert json.loads(out[0][1])["code"] == "not_allowed"
    net = started()
    # mid-game the host's leaving is told to every page: they hand the room over at once
    out = net.raw("local", json.dumps({"type": "leave", "v": 1}))
    # (with the room sealed as it stands just before: `sealed`, then `host_leaving`)
    told = [(c, json.loads(t)["type"]) for c, t in out]
    assert sorted(c for c, kind in told if kind == "host_leaving") == ["g0", "g1"]
    assert set(kind for _, kind in told) == {"sealed", "host_leaving"}
    assert net.clients["g0"].host_leaving and len(net.room.seats) == 3
    net.deliver(net.room.open("x", net.clock, peer="peer-x"))
    out = net.raw("x", json.dumps({"type": "leave", "v": 1}))
    assert json.loads(out[0][1])["code"] == "not_joined"
    assert len(net.room.seats) == 3


def test_the_host_removes_a_person_from_the_lobby():
    net = Net()
    net.host.join("Host")
    ana = net.guest("a", "Ana")
    net.host.host({"type": "remove", "seat": 1})
    assert ana.kicked["code"] == "removed" and ana.token is None
    assert [s.name for s in net.room.seats] == ["Host"]


def test_a_seat_given_away_or_left_is_forgotten_by_its_page():
    net = started()
    ana = net.clients["g0"]
    assert ana.token
    ana.leave()
    assert ana.token is None and ana.screen == "gone"
