"""The room against floods, stale and replayed actions, and a host page that reloads
(ui/worker/room.py over the in-memory network of roomnet.py; docs/protocol.md "Room")."""

import json

from roomnet import Net, RecordingRoom
from test_room import DECK, error_only, lobby_of_three, play_round, started
from ui.page.client.client import Client
from ui.worker.room import GONE_MS, LOCAL, RATE_BURST, RATE_PER_S, SILENT_MS

PING = '{"type": "ping", "v": 1, "t": 1}'


def ready_all(net):
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})


# ---- flood control ------------------------------------------------------------------------

def test_a_flood_is_cut_to_the_bucket_with_one_error_a_second():
    net = started(deck=DECK)
    ready_all(net)
    before = net.snapshot()
    counts = {c: len(t) for c, t in net.inbox.items()}
    replies = []
    for _ in range(1000):
        replies += net.room.receive("x", PING, net.clock)     # a new connection: a full bucket
    kinds = [json.loads(text)["type"] for conn, text in replies]
    assert all(conn == "x" for conn, text in replies)
    assert kinds == ["pong"] * RATE_BURST + ["error"]
    assert json.loads(replies[-1][1])["code"] == "rate_limited"
    assert net.snapshot() == before
    assert {c: len(t) for c, t in net.inbox.items()} == counts
    # the bucket fills again at RATE_PER_S a second; the error comes again a second later
    out = []
    for _ in range(50):
        out += net.room.receive("x", PING, net.clock + 1000)
    kinds = [json.loads(text)["type"] for conn, text in out]
    assert kinds == ["pong"] * RATE_PER_S + ["error"]


def test_a_flooded_seat_still_plays_and_the_others_are_not_slowed():
    net = started(deck=DECK)
    ready_all(net)
    for _ in range(500):
        net.room.receive("b", PING, net.clock)            # seat 2 floods
    net.act("a", {"do": "draw"})                          # seat 1 plays as usual
    net.act("a", {"do": "discard"})
    assert net.clients["b"].view["discard"] == ["6d"]
    net.later(3000)
    net.act("b", {"do": "draw"})                          # and the flooder, once calm again
    assert net.clients["b"].view["held"]["seat"] == 2


def test_a_whole_round_at_a_persons_pace_is_never_rate_limited():
    net = started(deck=DECK)
    play_round(net)                # every tap of a King turn at the same ms, pings every 3 s
    net.later(30000)
    for conn in ("a", "b"):
        assert not [m for m in net.received(conn, "error")], conn


def test_the_host_screen_is_never_rate_limited():
    net = started(deck=DECK)
    for _ in range(RATE_BURST * 3):
        out = net.room.receive(LOCAL, PING, net.clock)
        assert json.loads(out[0][1])["type"] == "pong"


def test_a_closed_connection_forgets_its_bucket():
    net = started(deck=DECK)
    for _ in range(RATE_BURST + 5):
        net.room.receive("a", PING, net.clock)
    net.close("a")
    assert "a" not in net.room.buckets


# ---- stale and replayed actions -----------------------------------------------------------

def action_text(action, n):
    return json.dumps({"type": "action", "v": 1, "action": action, "n": n})


def test_a_replayed_action_is_refused_as_stale():
    net = started(deck=DECK)
    ready_all(net)
    n = net.clients["a"].n
    draw = action_text({"do": "draw", "from": "deck"}, n)
    net.raw("a", draw)
    net.act("a", {"do": "discard"})
    before = net.snapshot()
    assert error_only(net.room.receive("a", draw, net.clock), "a") == "stale"
    # even once it is seat 1's turn again, the old message stays stale
    net.later(2000)
    net.act("b", {"do": "draw"})
    net.act("b", {"do": "jack"})
    net.later(2000)
    net.act(LOCAL, {"do": "draw"})
    net.act(LOCAL, {"do": "discard"})
    net.later(2000)
    assert net.clients["a"].allowed("draw") is not None
    before = net.snapshot()
    assert error_only(net.room.receive("a", draw, net.clock), "a") == "stale"
    assert net.snapshot() == before


def test_a_tap_on_an_older_view_is_stale_but_a_view_that_changed_nothing_does_not_matter():
    net = started(deck=DECK)
    ready_all(net)
    client = net.clients["a"]
    n = client.n
    net.close("b")                       # presence only: seat 1 gets a new view, same choices
    assert client.n == n + 1
    net.raw("a", action_text({"do": "draw"}, n))
    assert client.view["held"]["card"] == "6d"
    # a discard answering the view before the draw (no discard was offered there)
    assert error_only(net.room.receive("a", action_text({"do": "discard"}, n), net.clock),
                      "a") == "stale"
    net.raw("a", action_text({"do": "discard"}, client.n))
    assert client.view["discard"] == ["6d"]


def test_the_view_number_must_be_one_that_was_sent():
    net = started(deck=DECK)
    ready_all(net)
    n = net.clients["a"].n
    before = net.snapshot()
    for bad in (n + 1, -1, "3", 2.0, None, True):
        text = json.dumps({"type": "action", "v": 1, "action": {"do": "draw"}, "n": bad})
        assert error_only(net.room.receive("a", text, net.clock), "a") == "bad_message", bad
    assert net.snapshot() == before


def test_an_action_without_n_is_judged_by_the_engine_alone():
    net = started(deck=DECK)
    ready_all(net)
    out = net.raw("a", '{"type": "action", "v": 1, "action": {"do": "draw"}}')
    assert json.loads(out[0][1])["type"] == "view"


# ---- tokens ------------------------------------------------------------------------------

def test_a_guessed_token_gets_no_seat_and_changes_nothing():
    net = started(deck=DECK)
    before = net.snapshot()
    token = net.clients["a"].token
    near = token[:-1] + ("1" if token[-1] == "0" else "0")       # one digit off
    guesses = ["0" * 32, near, "", "x" * 128, token + "0", token[:-1]]
    if token.upper() != token:
        guesses.append(token.upper())
    for i, guess in enumerate(guesses):
        thief = net.guest("thief%d" % i, "Thief", token=guess)
        # a guess names no seat (its public id matches none): the room says so, and seats
        # nobody; the thief's own page is left unconvinced
        assert net.last("thief%d" % i, "error")["code"] == "no_seat", guess
        assert thief.suspect and "thief%d" % i not in net.room.conns
        # the old way of asking (the token itself in `join`) is refused outright
        out = net.room.receive("thief", json.dumps(
            {"type": "join", "v": 1, "name": "Thief", "token": guess}), net.clock)
        assert [json.loads(t)["code"] for _, t in out] == ["bad_message"], guess
    assert "thief" not in net.room.conns
    assert net.snapshot() == before


def test_a_stolen_token_takes_the_seat_and_the_owner_is_told():
    net = started(deck=DECK)
    net.guest("thief", "Thief", token=net.clients["a"].token)
    assert net.last("a", "kicked")["code"] == "taken_over"
    assert net.room.conns["thief"] == 1


# ---- the host page reloads ------------------------------------------------------------------

def reload_host(net, gap=0):
    """The host tab reloads: the room comes back from its saved JSON `gap` ms later (on the
    host's clock: the page passes its saved clock, so the gap is 0 for the engine), every
    connection is gone, and the host's screen joins again."""
    saved = json.loads(json.dumps(net.room.to_dict()))
    net.clock += gap
    room = RecordingRoom.from_dict(saved)
    room.resumed(net.clock)
    net.room = room
    net.clients = {}
    net.inbox = {}
    net.host = net._client(LOCAL, is_host=True)
    net.host.join(saved["seats"][0]["name"])
    return saved


def test_a_reloaded_host_and_its_guests_see_exactly_what_they_saw_before():
    net = lobby_of_three(deck=DECK)
    net.host.host({"type": "options", "draw_seconds": 30})
    net.host.host({"type": "start"})
    ready_all(net)
    net.act("a", {"do": "draw"})                 # seat 1 holds 6d
    tokens = {c: net.clients[c].token for c in ("a", "b")}
    before = {c: (net.clients[c].view, net.clients[c].players) for c in (LOCAL, "a", "b")}
    reload_host(net)
    assert net.host.screen == "table" and net.host.view == before[LOCAL][0]
    assert [p["connected"] for p in net.host.players] == [True, False, False]
    for conn in ("a", "b"):
        net.guest(conn + "2", "x", token=tokens[conn])
    for conn in (LOCAL, "a", "b"):
        client = net.clients[conn if conn == LOCAL else conn + "2"]
        view, players = before[conn]
        assert client.view == view, conn               # draw_left included: the clock paused
        # names are frozen once the game has started: "x" renames nobody
        assert [p["name"] for p in client.players] == ["Host", "Ana", "Bea"]
        assert all(p["connected"] for p in client.players)
    assert net.clients["a2"].view["held"] == {"seat": 1, "from": "deck", "card": "6d"}
    net.act("a2", {"do": "discard"})
    assert net.clients["b2"].view["discard"] == ["6d"]
    assert not net.leaks


def test_the_engine_clock_pauses_while_the_host_is_away():
    net = lobby_of_three(deck=DECK)
    net.host.host({"type": "options", "draw_seconds": 30})
    net.host.host({"type": "start"})
    ready_all(net)
    left = net.clients["a"].view["draw_left"]
    saved = reload_host(net)
    assert net.room.now == saved["now"]
    assert net.host.view["draw_left"] == left
    assert net.host.view["turn"] == 1


def test_guests_that_do_not_come_back_get_their_grace_from_the_resume():
    net = lobby_of_three(deck=DECK)
    net.host.host({"type": "start"})
    ready_all(net)
    net.later(15000)                  # the last change was 15 s before the reload
    reload_host(net)
    resumed = net.clock
    net.at(resumed + GONE_MS - 1)
    assert net.host.view["turn"] == 1 and not [e for e in net.host.log if e["type"] == "timeout"]
    net.at(resumed + GONE_MS)
    # seat 1's turn times out, then seat 2's (it is not back either): the host plays on
    assert [e["seat"] for e in net.host.log if e["type"] == "timeout"] == [1, 2]
    assert net.host.view["turn"] == 0


def test_connections_from_before_the_reload_are_no_one():
    net = started(deck=DECK)
    ready_all(net)
    reload_host(net)
    text = action_text({"do": "draw"}, 5)
    assert error_only(net.room.receive("a", text, net.clock), "a") == "not_joined"


def test_a_reloaded_lobby_takes_its_guests_back():
    net = lobby_of_three()
    tokens = [net.clients[c].token for c in ("a", "b")]
    reload_host(net)
    assert net.host.screen == "lobby"
    back = net.guest("a2", "Ana", token=tokens[0])
    assert back.seat == 1 and back.screen == "lobby"
    assert [p["connected"] for p in back.players] == [True, True, False]
    net.guest("c", "Cid")                     # a newcomer still gets a new seat
    assert net.clients["c"].seat == 3


def test_a_silent_guest_after_the_resume_is_noticed_like_any_other():
    net = started(deck=DECK)
    ready_all(net)
    token = net.clients["a"].token
    reload_host(net)
    net.guest("a2", "Ana", token=token)
    net.asleep.add("a2")
    net.later(SILENT_MS)
    assert net.host.players[1]["connected"] is False


def test_a_client_ignores_the_rooms_messages_it_cannot_read():
    sent = []
    client = Client(sent.append)
    for text in ("{", "[]", '{"type": "view"}', '{"v": 1, "type": "view", "view": null}'):
        client.receive(text, 0)
    assert client.screen in ("join", "table")
