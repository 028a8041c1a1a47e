"""A guest that missed messages asks for the room again (issue 14, item 3): a gap in its views'
`n`, or a heartbeat (`pong`) naming a newer view than its last, makes it send `sync`; the room
answers with its view as it is now and the round's replay (docs/protocol.md "sync").

The deck of tests/test_room.py: seat 1 draws 6d first and swaps it into its center."""

import json

from crisp_core import view_for
from roomnet import Net
from test_room import DECK, error_only
from ui.page.client.client import SYNC_RETRY_MS
from ui.worker.room import LOCAL, SYNC_MS


class LossyNet(Net):
    """Net whose channels to the guests in `deaf` lose every message (a channel dropping
    messages, a phone between networks); everything sent still counts as sent."""

    def __init__(self, **kwargs):
        self.deaf = set()
        Net.__init__(self, **kwargs)

    def deliver(self, out):
        Net.deliver(self, [(conn, text) for conn, text in out if conn not in self.deaf])


def table(**kwargs):
    net = LossyNet(deck=DECK, **kwargs)
    net.host.join("Host")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    net.host.host({"type": "start"})
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    return net


def same_table(net, conn, seat):
    """The client shows what the room would show that seat now (but the countdowns)."""
    got = dict(net.clients[conn].view)
    want = view_for(net.room.game, seat, net.clock)
    want["allowed"] = [a for a in want["allowed"] if a.get("do") != "next_round"]
    for key in ("start_in", "draw_left", "peek_left", "crisp_window"):
        got.pop(key, None)
        want.pop(key, None)
    return got == want


def test_a_guest_that_missed_views_asks_on_the_next_heartbeat_and_gets_the_table():
    net = table()
    bea = net.clients["b"]
    net.deaf.add("b")                              # Bea's channel drops everything for 7 s
    net.act("a", {"do": "draw", "from": "deck"})
    net.act("a", {"do": "swap", "pos": "center"})  # Bea's turn now (after R10.1's 2 s)
    net.later(2500)
    assert bea.view["turn"] == 1 and bea.allowed("draw") is None        # the stale screen
    net.later(4500)
    net.deaf.discard("b")
    assert not same_table(net, "b", 2)
    net.later(3000)                                # a ping, its pong names a newer view
    assert same_table(net, "b", 2)
    assert bea.view["turn"] == 2 and bea.allowed("draw") is not None
    assert bea.n == net.room.seats[2].n
    # the log missed nothing: Ana's draw and swap are in it, once each
    kinds = [(e["type"], e.get("seat")) for e in bea.log]
    assert kinds.count(("draw", 1)) == 1 and kinds.count(("swap", 1)) == 1
    net.act("b", {"do": "draw", "from": "deck"})   # and the game goes on
    assert bea.view["held"] == {"seat": 2, "from": "deck", "card": "Jc"}
    assert net.leaks == []


def test_a_gap_in_the_views_numbers_asks_at_once():
    net = table()
    bea = net.clients["b"]
    net.deaf.add("b")
    net.act("a", {"do": "draw", "from": "deck"})   # one view lost
    net.deaf.discard("b")
    before = len(net.inbox["b"])
    net.act("a", {"do": "swap", "pos": "center"})  # the next arrives: n jumped by 2
    sent = [json.loads(t) for t in net.inbox["b"][before:]]
    assert [m["type"] for m in sent] == ["view", "view"]    # the view, then the sync's
    assert sent[1].get("replay") is True and sent[1]["n"] == sent[0]["n"] + 1
    kinds = [(e["type"], e.get("seat")) for e in bea.log]
    assert kinds.count(("draw", 1)) == 1 and kinds.count(("swap", 1)) == 1
    assert same_table(net, "b", 2)


def test_a_guest_asks_at_most_every_two_seconds():
    net = table()
    sent = []
    bea = net.clients["b"]
    send = bea.send
    bea.send = lambda text: (sent.append(json.loads(text)["type"]), send(text))
    now = net.clock
    for k in range(5):
        bea.receive(json.dumps({"type": "pong", "v": 1, "t": 0, "n": bea.n + 5}), now + k * 100)
    assert sent.count("sync") == 1
    bea.receive(json.dumps({"type": "pong", "v": 1, "t": 0, "n": bea.n + 5}),
                now + SYNC_RETRY_MS)
    assert sent.count("sync") == 2


def test_the_hosts_own_screen_never_asks():
    net = table()
    sent = []
    net.host.send = lambda text: sent.append(text)
    net.host.receive(json.dumps({"type": "pong", "v": 1, "t": 0, "n": 999}), net.clock)
    assert sent == []


def test_a_pong_names_the_seats_last_view_only_once_seated_in_a_game():
    net = table()
    out = net.raw("a", json.dumps({"type": "ping", "v": 1, "t": 5}))
    assert json.loads(out[0][1]) == {"type": "pong", "v": 1, "t": 5, "n": net.room.seats[1].n}
    net.room.open("x", net.clock, peer="peer-x")
    out = net.room.receive("x", json.dumps({"type": "ping", "v": 1, "t": 5}), net.clock)
    assert json.loads(out[0][1]) == {"type": "pong", "v": 1, "t": 5}


def test_sync_is_checked_and_rate_limited_like_every_message():
    net = table()
    room = net.room
    room.open("x", net.clock, peer="peer-x")
    error_only(room.receive("x", '{"type":"sync","v":1}', net.clock), "x")       # not joined
    assert json.loads(room.receive("x", '{"type":"sync","v":1}', net.clock)[0][1])["code"] \
        == "not_joined"
    out = room.receive("a", '{"type":"sync","v":1,"seat":2}', net.clock)
    assert json.loads(out[0][1])["code"] == "bad_message"
    n_others = [room.seats[i].n for i in (0, 2)]
    out = room.receive("a", '{"type":"sync","v":1}', net.clock)
    assert [conn for conn, _ in out] == ["a"] and json.loads(out[0][1])["replay"] is True
    assert [room.seats[i].n for i in (0, 2)] == n_others      # nobody else gets anything
    out = room.receive("a", '{"type":"sync","v":1}', net.clock + SYNC_MS - 1)
    error_only(out, "a")
    assert json.loads(out[0][1])["code"] == "rate_limited"
    out = room.receive("a", '{"type":"sync","v":1}', net.clock + SYNC_MS)
    assert json.loads(out[0][1])["type"] == "view"
    game = room.game.to_dict()
    room.receive("a", '{"type":"sync","v":1}', net.clock + 5 * SYNC_MS)
    assert room.game.to_dict() == game                        # it changes nothing


def test_sync_in_the_lobby_sends_the_lobby():
    net = LossyNet()
    net.host.join("Host")
    net.guest("a", "Ana")
    out = net.room.receive("a", '{"type":"sync","v":1}', net.clock)
    assert [json.loads(t)["type"] for _, t in out] == ["lobby"]


def silent(since):
    """A link's signal while the host is silent since `since` (ms)."""
    return {"status": "host_paused", "paused_since": since, "gone_at": since + 30000,
            "lost": False, "behind": False}


def test_a_guest_that_heard_nothing_for_a_while_asks_for_fresh_countdowns():
    # issue 14 item 2: the page's link says the host is silent (paused_since); the
    # countdowns stop there; the first word from the host after that brings a fresh view
    net = table()
    bea = net.clients["b"]
    sent = []
    send = bea.send
    bea.send = lambda text: (sent.append(json.loads(text)["type"]), send(text))
    bea.set_link(silent(net.clock))
    bea.receive(json.dumps({"type": "pong", "v": 1, "t": 0, "n": bea.n}), net.clock + 6000)
    assert sent == ["sync"] and bea.pause.since is None
    bea.set_link(silent(net.clock))
    bea.receive(json.dumps({"type": "pong", "v": 1, "t": 0, "n": bea.n}), net.clock + 9000)
    assert sent == ["sync", "sync"]
