"""The host's room (ui/worker/room.py) over an in-memory network: lobby, seats, tokens, validation,
a whole round, and what each seat receives (docs/rules.md R9, docs/protocol.md)."""

import json
import secrets

import pytest

from roomnet import CARD, Net, engine_bots, play_out, room_of_three
from ui.page.client.client import Client
from ui.worker.room import GONE_MS, LOCAL, MAX_TEXT, RATE_BURST, SILENT_MS, Room, new_room_id

# A 3-player round (dealer 0; deal order seat 1, 2, 0; left, center, right):
#   seat 1: 2c 9d 5h    seat 2: 3s Td 4c    seat 0: 7h Ah 8s
# then the draws: 6d (seat 1 swaps it into center), Jc (seat 2: Jack), Qs (seat 0: Queen,
# its left with seat 1's right), Kd (seat 1: King) with extra draws 3h (swapped into right)
# and 9c (discarded), then seat 1 calls crisp; last turns: 8d (seat 2 discards),
# 8c (seat 0 discards). Hands: 0: 5h Ah 8s = 14, 1: 2c 6d 3h = 11, 2: 3s Td 4c = 17.
DECK = ["2c", "3s", "7h", "9d", "Td", "Ah", "5h", "4c", "8s",
        "6d", "Jc", "Qs", "Kd", "3h", "9c", "8d", "8c"]


lobby_of_three = room_of_three


def started(**kwargs):
    net = lobby_of_three(**kwargs)
    net.host.host({"type": "start"})
    return net


def error_only(out, conn):
    """The room answered with exactly one error, to `conn`."""
    assert len(out) == 1, out
    to, text = out[0]
    assert to == conn
    msg = json.loads(text)
    assert msg["type"] == "error" and msg["v"] == 1
    assert isinstance(msg["code"], str) and isinstance(msg["text"], str)
    return msg["code"]


# ---- lobby --------------------------------------------------------------------------------

def test_host_is_seat_zero_and_guests_sit_in_join_order():
    net = lobby_of_three()
    assert net.host.seat == 0 and net.host.screen == "lobby"
    assert net.clients["a"].seat == 1 and net.clients["b"].seat == 2
    lobby = net.last("b", "lobby")
    assert [p["name"] for p in lobby["players"]] == ["Host", "Ana", "Bea"]
    assert [p["seat"] for p in lobby["players"]] == [0, 1, 2]
    assert all(p["connected"] and p["bot"] is None for p in lobby["players"])
    assert lobby["host"] == 0 and lobby["started"] is False
    assert lobby["options"] == {"target": 100, "draw_seconds": None, "draw_from_discard": False}
    # every seat got the same lobby
    assert net.last("a", "lobby") == lobby == net.last(LOCAL, "lobby")


def test_names_are_trimmed_collapsed_and_cut_to_20_characters():
    net = Net()
    net.host.join("Host")
    net.guest("a", "   Ana   ")
    net.guest("b", "B" * 50)
    net.guest("c", "Tab\tand\nnewline<b>")
    names = [p["name"] for p in net.last("a", "lobby")["players"]]
    assert names == ["Host", "Ana", "B" * 20, "Tab and newline<b>"]


def test_empty_name_is_refused():
    net = Net()
    net.host.join("Host")
    net.guest("a", "   ")
    assert net.clients["a"].error["code"] == "bad_name"
    assert len(net.room.seats) == 1


def test_welcome_carries_a_128_bit_token_and_the_room_id():
    net = lobby_of_three()
    welcome = net.last("a", "welcome")
    assert welcome["seat"] == 1 and welcome["room"] == "room-test"
    assert len(welcome["token"]) == 32 and int(welcome["token"], 16) >= 0
    tokens = {s.token for s in net.room.seats}
    assert len(tokens) == 3


def test_room_ids_are_random_codes_of_50_bits_that_can_be_read_out():
    """Issue 11.7: the id is "crisp-" + a code of 10 characters without look-alikes
    (Crockford's base32: no I, L, O, U), 50 random bits; typed back in any case, with spaces
    or dashes, it gives the same room."""
    from ui.shared import roomcode
    ids = {new_room_id() for _ in range(200)}
    assert len(ids) == 200
    assert roomcode.BITS >= 40 and len(roomcode.ALPHABET) == 32
    assert not set("ILOU") & set(roomcode.ALPHABET)
    for room in ids:
        code = roomcode.code_of(room)
        assert code is not None and len(code) == 10 and room == "crisp-" + code
        spoken = roomcode.show(code).lower().replace("-", " - ")
        assert roomcode.parse(spoken) == code
    # every character turns up (the bits are all used)
    assert set("".join(roomcode.code_of(r) for r in ids)) == set(roomcode.ALPHABET)


def test_ninth_player_is_told_the_room_is_full():
    net = Net()
    net.host.join("Host")
    for i in range(1, 8):
        net.guest("g%d" % i, "P%d" % i)
    assert len(net.room.seats) == 8
    net.guest("late", "Late")
    assert net.last("late", "kicked")["code"] == "room_full"
    assert net.clients["late"].screen == "gone"
    assert len(net.room.seats) == 8 and "late" not in net.room.conns


def test_join_after_start_without_a_valid_token_is_refused():
    net = started()
    net.guest("late", "Late")
    assert net.last("late", "kicked")["code"] == "started"
    # a token no seat has: the room cannot prove that seat, and says so (an error, which a
    # rejoining guest cannot tell from an impostor's: it keeps its token and its screen)
    late = net.guest("late2", "Late", token="00" * 16)
    assert net.last("late2", "error")["code"] == "no_seat"
    assert late.suspect and late.screen == "join" and late.token == "00" * 16
    assert len(net.room.seats) == 3 and "late2" not in net.room.conns


def test_a_guest_rejoining_with_its_token_gets_its_seat_back():
    net = lobby_of_three()
    token = net.clients["a"].token
    net.close("a")
    assert net.last("b", "lobby")["players"][1]["connected"] is False
    back = net.guest("a2", "Ana again", token=token)
    assert back.seat == 1 and back.token == token
    assert net.last("b", "lobby")["players"][1] == {
        "seat": 1, "name": "Ana again", "connected": True, "bot": None,
        "wins": 0}
    assert len(net.room.seats) == 3


def test_a_second_connection_with_the_same_token_takes_the_seat_over():
    net = started()
    token = net.clients["a"].token
    new = net.guest("a2", "Ana", token=token)
    assert net.last("a", "kicked")["code"] == "taken_over"
    assert net.clients["a"].screen == "gone"
    assert new.seat == 1 and new.screen == "table"
    assert net.room.conns == {LOCAL: 0, "b": 2, "a2": 1}
    # the old connection is no one now
    code = error_only(net.raw("a", json.dumps({"type": "action", "v": 1,
                                                "action": {"do": "ready"}})), "a")
    assert code == "not_joined"


def test_a_guest_cannot_take_the_host_seat_with_its_token():
    net = lobby_of_three()
    net.guest("evil", "Evil", token=net.room.seats[0].token)
    assert net.last("evil", "error")["code"] == "no_seat"
    assert net.clients["evil"].seat is None and "evil" not in net.room.conns
    assert net.room.conns[LOCAL] == 0 and len(net.room.seats) == 3


def test_options_are_set_by_the_host_and_validated():
    net = lobby_of_three()
    net.host.host({"type": "options", "target": 50, "draw_seconds": 30,
                   "draw_from_discard": True})
    assert net.last("a", "lobby")["options"] == {
        "target": 50, "draw_seconds": 30, "draw_from_discard": True}
    net.host.host({"type": "options", "draw_seconds": None})
    assert net.last("b", "lobby")["options"]["draw_seconds"] is None
    before = net.snapshot()
    for bad in ({"target": 75}, {"target": "100"}, {"target": True}, {"draw_seconds": 10},
                {"draw_seconds": 30.0}, {"draw_from_discard": 1}, {"players": 3},
                {"target": 100, "colour": "red"}):
        msg = dict(bad, type="options", v=1)
        code = error_only(net.raw(LOCAL, json.dumps(msg)), LOCAL)
        assert code in ("bad_option", "bad_message"), bad
    assert net.snapshot() == before


def test_start_needs_two_players_and_deals_with_the_options():
    net = Net()
    net.host.join("Host")
    out = net.raw(LOCAL, json.dumps({"type": "start", "v": 1}))
    assert error_only(out, LOCAL) == "not_enough_players"
    net.guest("a", "Ana")
    net.host.host({"type": "options", "target": 150, "draw_seconds": 45})
    net.host.host({"type": "start"})
    for conn in (LOCAL, "a"):
        client = net.clients[conn]
        assert client.screen == "table"
        assert client.view["phase"] == "peek"
        assert client.view["options"] == {"players": 2, "target": 150, "draw_seconds": 45,
                                          "draw_from_discard": False}
        assert client.view["allowed"] == [{"do": "ready"}]
    # after the start, options and start are refused
    assert error_only(net.raw(LOCAL, json.dumps({"type": "start", "v": 1})), LOCAL) == "started"
    assert error_only(net.raw(LOCAL, json.dumps({"type": "options", "v": 1, "target": 50})),
                      LOCAL) == "started"


def test_each_seat_is_shown_its_own_peek_at_the_start():
    net = started(deck=DECK)
    assert net.clients["a"].reveals == {(1, "left"): "2c", (1, "right"): "5h"}
    assert net.clients["b"].reveals == {(2, "left"): "3s", (2, "right"): "4c"}
    assert net.host.reveals == {(0, "left"): "7h", (0, "right"): "8s"}
    assert net.clients["a"].reveal_until[(1, "left")] is None   # until ready (R2.4)
    assert not net.leaks


def test_host_can_remove_a_guest_in_the_lobby():
    net = lobby_of_three()
    net.host.host({"type": "remove", "seat": 1})
    assert net.last("a", "kicked")["code"] == "removed"
    assert net.clients["b"].seat == 1
    assert [p["name"] for p in net.last("b", "lobby")["players"]] == ["Host", "Bea"]
    assert error_only(net.raw(LOCAL, json.dumps({"type": "remove", "v": 1, "seat": 0})),
                      LOCAL) == "bad_message"


# ---- a whole round ------------------------------------------------------------------------

def play_round(net):
    """The round of DECK, played by clicks' worth of messages. Returns the call time."""
    a, b, h = "a", "b", LOCAL
    for conn in (h, a, b):
        net.act(conn, {"do": "ready"})
    assert net.host.view["phase"] == "play" and net.host.view["turn"] == 1
    # seat 1 draws 6d and swaps it into its center (R3.2)
    net.act(a, {"do": "draw", "from": "deck"})
    assert net.clients[a].view["held"] == {"seat": 1, "from": "deck", "card": "6d"}
    assert net.clients[b].view["held"] == {"seat": 1, "from": "deck", "card": None}
    net.act(a, {"do": "swap", "pos": "center"})
    assert net.clients[b].view["discard"] == ["9d"]
    # seat 2 may draw 2 s after seat 1's turn ended (R10.1)
    net.later(2000)
    net.act(b, {"do": "draw"})
    net.act(b, {"do": "jack"})
    assert net.clients[b].reveals.get((2, "center")) == "Td"      # R4.4
    assert (2, "center") not in net.clients[a].reveals
    net.later(2000)
    # seat 0 draws Qs: its left (7h) with seat 1's right (5h) (R4.5)
    net.act(h, {"do": "draw"})
    net.act(h, {"do": "queen", "pos": "left", "target": 1, "target_pos": "right"})
    assert net.host.reveals.get((0, "left")) == "5h"
    assert net.clients[a].reveals.get((1, "right")) == "7h"
    assert (0, "left") not in net.clients[b].reveals and (1, "right") not in net.clients[b].reveals
    net.later(2000)
    # seat 1: King, then two extra draws (R4.6)
    net.act(a, {"do": "draw"})
    net.act(a, {"do": "king"})
    assert net.clients[b].view["pending_draws"] == 2
    net.act(a, {"do": "draw"})
    net.act(a, {"do": "swap", "pos": "right"})
    net.act(a, {"do": "draw"})
    net.act(a, {"do": "discard"})
    # seat 1 calls crisp inside its window (R6, R10.1)
    net.later(500)
    assert net.clients[a].allowed("crisp") is not None
    net.act(a, {"do": "crisp"})
    assert net.clients[b].view["phase"] == "last_turns"
    # last turns: the next player may start at once after a call
    net.act(b, {"do": "draw"})
    net.act(b, {"do": "discard"})
    net.act(h, {"do": "draw"})
    net.act(h, {"do": "discard"})


def test_a_whole_round_through_the_room():
    net = started(deck=DECK)
    play_round(net)
    for conn in (LOCAL, "a", "b"):
        view = net.clients[conn].view
        assert view["phase"] == "round_over"
        assert view["hands"] == [["5h", "Ah", "8s"], ["2c", "6d", "3h"], ["3s", "Td", "4c"]]
        assert view["round_points"] == [14, 6, 17]       # R7.2: 11 - 5 for the caller
        assert view["scores"] == [14, 6, 17]
        assert net.clients[conn].reveals == {}
    # the event log of a guest holds the public story of the round
    kinds = [e["type"] for e in net.clients["b"].log]
    for kind in ("deal", "ready", "play", "draw", "swap", "jack", "queen", "king", "crisp",
                 "discard", "turn", "round_over"):
        assert kind in kinds
    assert not any("to" in e for e in net.clients["b"].log)
    assert not net.leaks, net.leaks[:3]
    # only the host may start the next round
    assert net.clients["a"].allowed("next_round") is None
    assert net.host.allowed("next_round") is not None
    out = net.raw("a", json.dumps({"type": "action", "v": 1, "action": {"do": "next_round"}}))
    assert error_only(out, "a") == "not_host"
    net.host.host({"type": "next_round"})
    for conn in (LOCAL, "a", "b"):
        assert net.clients[conn].view["phase"] == "peek"
        assert net.clients[conn].view["round"] == 2
        assert net.clients[conn].view["dealer"] == 1
        assert net.clients[conn].log[0]["type"] == "deal"
    assert not net.leaks


def test_every_text_a_seat_receives_holds_only_cards_it_may_know():
    net = started(deck=DECK)
    play_round(net)
    # independently of the knowledge model: no text of round 1 to anyone named a card that
    # was still in the deck when round 1 ended, and before the hands were shown no guest
    # saw a card of another hand that no rule showed it
    unseen = set(net.room.game.deck)
    for conn in ("a", "b", LOCAL):
        for text in net.inbox[conn]:
            assert not unseen & set(CARD.findall(text)), text
    for conn, others in (("a", ("Ah", "8s", "3s", "Td", "4c")),
                         ("b", ("Ah", "8s", "2c", "6d", "5h", "3h"))):
        views = [t for t in net.inbox[conn] if '"round_over"' not in t]
        for text in views:
            assert not set(others) & set(CARD.findall(text)), text
    net.host.host({"type": "next_round"})
    checked = sum(len(net.inbox[c]) for c in ("a", "b", LOCAL))
    assert checked > 30
    assert not net.leaks, net.leaks[:3]


def test_views_count_and_carry_only_new_events():
    net = started(deck=DECK)
    views = net.received("a", "view")
    assert [v["n"] for v in views] == list(range(1, len(views) + 1))
    net.act("a", {"do": "ready"})
    last = net.last("b", "view")
    assert last["events"] == [{"type": "ready", "seat": 1, "auto": False}]
    assert [p["name"] for p in last["players"]] == ["Host", "Ana", "Bea"]


def test_draw_timer_fires_on_tick_and_next_wakeup_tells_when():
    net = lobby_of_three(deck=DECK)
    net.host.host({"type": "options", "draw_seconds": 30})
    net.host.host({"type": "start"})
    start = net.clock
    assert net.room.game.next_deadline() == start + 30000  # the peek timer (R2.4)
    net.at(start + 30000)
    assert net.clients["a"].view["phase"] == "play"
    assert net.clients["a"].view["turn"] == 1
    assert net.room.game.next_deadline() == start + 60000  # seat 1's draw timer (R10.2)
    net.at(start + 60000)
    timeout = [e for e in net.clients["b"].log if e["type"] == "timeout"]
    assert timeout == [{"type": "timeout", "seat": 1, "card": "6d", "forced": True, "lost": 0}]
    assert net.clients["b"].view["turn"] == 2
    assert not net.leaks


def test_next_wakeup_is_the_earliest_of_deadlines_and_silence_checks():
    net = lobby_of_three(deck=DECK)
    net.host.host({"type": "options", "draw_seconds": 30})
    net.host.host({"type": "start"})
    assert net.room.next_wakeup() == net.clock + SILENT_MS
    net.later(14000)                       # the guests pinged meanwhile, the last one now
    assert net.room.next_wakeup() == net.clock + SILENT_MS < net.room.game.next_deadline()
    net.later(14000)
    assert net.room.next_wakeup() == net.clock + 2000 == net.room.game.next_deadline()


def test_tick_without_deadline_sends_nothing():
    net = started(deck=DECK)
    assert net.room.next_wakeup() == net.clock + SILENT_MS  # only the guests' silence check
    assert net.room.tick(net.clock + 5000) == []
    net.later(60000)                                      # guests ping: nothing happens
    assert net.clients["a"].view["phase"] == "peek"


def test_the_start_delay_deadline_resends_views_so_the_draw_becomes_allowed():
    net = started(deck=DECK)
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    net.act("a", {"do": "draw"})
    net.act("a", {"do": "discard"})
    assert net.clients["b"].allowed("draw") is None         # R10.1: wait 2 s
    assert net.room.next_wakeup() == net.clock + 2000
    net.later(2000)
    assert net.clients["b"].allowed("draw") == {"do": "draw", "from": ["deck"]}


def test_a_rejoining_guest_gets_the_rounds_log_and_its_peek_until_ready():
    net = started(deck=DECK)
    net.act(LOCAL, {"do": "ready"})
    token = net.clients["a"].token
    net.close("a")
    assert net.last("b", "view")["players"][1]["connected"] is False
    back = net.guest("a2", "Ana", token=token)
    assert back.screen == "table" and back.seat == 1
    assert back.reveals == {(1, "left"): "2c", (1, "right"): "5h"}
    assert [e["type"] for e in back.log] == ["deal", "ready"]
    net.act("a2", {"do": "ready"})
    net.act("b", {"do": "ready"})
    # once ready, a rejoin shows the peek no more (R9.2)
    net.close("a2")
    again = net.guest("a3", "Ana", token=token)
    assert again.reveals == {}
    assert not net.leaks


def test_ping_gets_a_pong_even_before_join():
    net = Net()
    out = net.raw("x", json.dumps({"type": "ping", "v": 1, "t": 1234}))
    assert out == [("x", json.dumps({"type": "pong", "v": 1, "t": 1234}, separators=(",", ":")))]


def test_every_message_stays_under_16_kb_with_long_names_and_logs():
    net = Net(host="H" * 20)
    net.host.join("H" * 20)
    for i in range(1, 8):
        net.guest("g%d" % i, "\u00e9" * 20)
    net.host.host({"type": "options", "draw_seconds": 30})
    net.host.host({"type": "start"})
    # nobody plays: every turn times out for a long while
    net.at(net.clock + 30000 * 200)
    sizes = [len(t.encode("utf-8")) for texts in net.inbox.values() for t in texts]
    assert max(sizes) < MAX_TEXT
    assert not net.leaks


# ---- hostile and mistaken messages -------------------------------------------------------

HOSTILE = [
    ("a", "{", "bad_message"),
    ("a", "null", "bad_message"),
    ("a", "[1, 2]", "bad_message"),
    ("a", '"text"', "bad_message"),
    ("a", "", "bad_message"),
    ("a", b'{"type": "ping", "v": 1, "t": 1}', "bad_message"),
    ("a", None, "bad_message"),
    ("a", '{"v": 1}', "bad_message"),
    ("a", '{"type": 5, "v": 1}', "bad_message"),
    ("a", '{"type": "ping"}', "bad_version"),
    ("a", '{"type": "ping", "v": "1", "t": 1}', "bad_version"),
    ("a", '{"type": "ping", "v": 2, "t": 1}', "bad_version"),
    ("a", '{"type": "ping", "v": true, "t": 1}', "bad_version"),
    ("a", '{"type": "ping", "v": 1, "t": "soon"}', "bad_message"),
    ("a", '{"type": "ping", "v": 1, "t": NaN}', "bad_message"),
    ("a", '{"type": "teleport", "v": 1}', "unknown_type"),
    ("a", '{"type": "join", "v": 1, "name": 5}', "bad_name"),
    ("a", '{"type": "join", "v": 1, "name": "A", "token": 7}', "bad_message"),
    ("a", '{"type": "join", "v": 1}', "bad_message"),
    ("a", '{"type": "action", "v": 1}', "bad_message"),
    ("a", '{"type": "action", "v": 1, "action": "draw"}', "bad_message"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "fly"}}', "bad_message"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "swap", "pos": 3}}', "bad_message"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "swap"}}', "bad_message"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "draw", "from": "sky"}}', "bad_message"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "queen", "pos": "left", '
          '"target": true, "target_pos": "left"}}', "bad_message"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "queen", "pos": "left", '
          '"target": 9, "target_pos": "left"}}', "bad_message"),
    # an action for another seat: there is no seat field to forge
    ("a", '{"type": "action", "v": 1, "seat": 2, "action": {"do": "ready"}}', "bad_message"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "ready", "seat": 2}}', "bad_message"),
    # out of turn: seat 2's turn-actions while it is seat 1's turn
    ("b", '{"type": "action", "v": 1, "action": {"do": "draw", "from": "deck"}}',
     "not_your_turn"),
    ("b", '{"type": "action", "v": 1, "action": {"do": "discard"}}', "not_your_turn"),
    ("b", '{"type": "action", "v": 1, "action": {"do": "crisp"}}', "illegal"),
    ("b", '{"type": "action", "v": 1, "action": {"do": "ready"}}', "illegal"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "swap", "pos": "left"}}', "illegal"),
    ("a", '{"type": "action", "v": 1, "action": {"do": "next_round"}}', "not_host"),
    # host-only messages from a guest
    ("a", '{"type": "start", "v": 1}', "not_host"),
    ("a", '{"type": "options", "v": 1, "target": 50}', "not_host"),
    ("a", '{"type": "next_round", "v": 1}', "not_host"),
    ("a", '{"type": "add_bot", "v": 1, "level": "easy"}', "not_host"),
    ("a", '{"type": "remove", "v": 1, "seat": 2}', "not_host"),
    # before join
    ("stranger", '{"type": "action", "v": 1, "action": {"do": "ready"}}', "not_joined"),
    ("stranger", '{"type": "start", "v": 1}', "not_host"),
    # a joined guest joining again as someone new
    ("a", '{"type": "join", "v": 1, "name": "Other"}', "already_joined"),
]


@pytest.mark.parametrize("conn,text,code", HOSTILE)
def test_a_bad_message_gets_one_error_to_its_sender_and_changes_nothing(conn, text, code):
    net = started(deck=DECK)
    for c in (LOCAL, "a", "b"):
        net.act(c, {"do": "ready"})
    before = net.snapshot()
    counts = {c: len(t) for c, t in net.inbox.items()}
    out = net.room.receive(conn, text, net.clock)
    assert error_only(out, conn) == code
    assert net.snapshot() == before
    assert {c: len(t) for c, t in net.inbox.items()} == counts


def test_a_one_megabyte_message_is_refused_without_parsing():
    net = started(deck=DECK)
    before = net.snapshot()
    big = '{"type": "ping", "v": 1, "t": 1, "pad": "' + "x" * (1 << 20) + '"}'
    assert error_only(net.room.receive("a", big, net.clock), "a") == "too_big"
    just_over = '{"type":"ping","v":1,"t":1,"p":"' + "\u00e9" * 8200 + '"}'  # > 16 KB in UTF-8
    assert error_only(net.room.receive("a", just_over, net.clock), "a") == "too_big"
    assert net.snapshot() == before


def test_hostile_messages_in_the_lobby_change_nothing():
    net = lobby_of_three()
    before = net.snapshot()
    for conn, text, code in (
            ("a", '{"type": "action", "v": 1, "action": {"do": "ready"}}', "not_started"),
            (LOCAL, '{"type": "next_round", "v": 1}', "not_started"),
            (LOCAL, '{"type": "add_bot", "v": 1, "level": "easy"}', "no_bots"),
            (LOCAL, '{"type": "add_bot", "v": 1, "level": "god"}', "bad_message"),
            (LOCAL, '{"type": "remove", "v": 1, "seat": 7}', "bad_message"),
            (LOCAL, '{"type": "start", "v": 1, "now": true}', "bad_message"),
            ("a", "[" * 8000 + "]" * 8000, "bad_message")):  # deep nesting, under 16 KB
        assert error_only(net.room.receive(conn, text, net.clock), conn) == code
    assert net.snapshot() == before


def test_an_engine_bug_becomes_an_error_not_an_exception(monkeypatch):
    net = started(deck=DECK)

    def boom(*args, **kwargs):
        raise RuntimeError("bug")
    monkeypatch.setattr(net.room.game, "apply", boom)
    out = net.room.receive("a", '{"type": "action", "v": 1, "action": {"do": "ready"}}',
                           net.clock)
    assert error_only(out, "a") == "internal"


# ---- saving -------------------------------------------------------------------------------

def test_the_room_round_trips_through_to_dict():
    net = started(deck=DECK)
    net.act("a", {"do": "ready"})
    saved = json.loads(json.dumps(net.room.to_dict()))
    room = Room.from_dict(saved)
    assert json.dumps(room.to_dict(), sort_keys=True) == json.dumps(saved, sort_keys=True)
    assert room.game == net.room.game
    # seats come back disconnected; the same token proves the same seat
    assert room.conns == {}
    got = []
    ana = Client(lambda text: got.extend(room.receive("a-again", text, net.clock)),
                 nonce=lambda: secrets.token_hex(16))
    room.open("a-again", net.clock, peer="p")
    ana.connected()
    ana.join("Ana", net.clients["a"].token, room="room-test", peer="p")
    for _ in range(2):                       # challenge -> proof -> welcome
        texts = [t for c, t in got if c == "a-again"]
        del got[:]
        for text in texts:
            ana.receive(text, net.clock)
    assert ana.trusted and ana.seat == 1 and room.conns == {"a-again": 1}


# ---- the bot hook -------------------------------------------------------------------------

class FirstLegalBot:
    """Not a bot AI: takes the first allowed action 1 s after each view (tests the hook)."""

    def __init__(self, level, seat):
        self.seat = seat

    def plan(self, view, events, now):
        for entry in view["allowed"]:
            do = entry["do"]
            if do in ("ready", "discard", "king", "jack"):
                return {"at": now + 1000, "action": {"do": do}}
            if do == "draw":
                return {"at": now + 1000, "action": {"do": "draw", "from": "deck"}}
            if do == "swap":
                return {"at": now + 1000, "action": {"do": "swap", "pos": "left"}}
        return None


def test_a_bot_seat_plays_through_the_hook():
    net = Net(deck=DECK, make_bot=FirstLegalBot)
    net.host.join("Host")
    net.host.host({"type": "add_bot", "level": "easy"})
    lobby = net.last(LOCAL, "lobby")
    assert lobby["players"][1] == {"seat": 1, "name": "\U0001F98A Emma", "connected": True,
                                   "bot": "easy",
                                  "wins": 0}
    net.host.host({"type": "start"})
    assert net.room.next_wakeup() == net.clock + 1000
    net.later(1000)
    assert net.host.view["ready"] == [False, True]
    net.act(LOCAL, {"do": "ready"})
    assert net.host.view["turn"] == 1
    net.later(1000)        # the bot draws (6d... here the deal of 2 seats differs) and holds
    assert net.host.view["held"]["seat"] == 1
    net.later(1000)        # and resolves it
    assert net.host.view["turn"] == 0 and net.host.view["held"] is None


def test_a_stacked_deck_is_checked_when_the_room_is_made():
    for bad in (["Ah", "Ah"], ["Zz"], ["ah"]):
        with pytest.raises(ValueError):
            Room("r", "Host", deck=bad)
    assert Room("r", "Host", deck=["Ah", "5c"]).deck == ["Ah", "5c"]


def test_the_engines_bots_play_a_whole_game_through_the_hook():
    net = Net(make_bot=engine_bots())
    net.host.join("Host")
    net.host.host({"type": "add_bot", "level": "hard"})
    net.host.host({"type": "add_bot", "level": "easy"})
    net.host.host({"type": "options", "target": 50})
    net.host.host({"type": "start"})
    host = net.host
    play_out(net, (LOCAL,), lambda: host.view["phase"] == "game_over", moves=5000)
    assert max(host.view["scores"]) >= 50
    assert not net.leaks


# ---- away players -------------------------------------------------------------------------

def test_presence_numbers():
    # a closed tab or a dead phone shows within 10 s (guests ping every 3 s); 20 s of grace
    assert SILENT_MS <= 10000 - 1000 and SILENT_MS >= 3 * 3000
    assert GONE_MS == 20000


def test_a_silent_guest_shows_as_away_until_it_is_heard_again():
    net = started(deck=DECK)
    net.asleep.add("a")                      # its phone went to sleep: no ping, no close
    net.later(SILENT_MS - 1000)
    assert net.last("b", "view")["players"][1]["connected"] is True
    net.later(1000)
    assert net.last("b", "view")["players"][1]["connected"] is False
    assert net.last("b", "view")["players"][2]["connected"] is True
    assert net.host.players[1]["connected"] is False
    net.asleep.discard("a")
    net.clients["a"].ping(net.clock)         # it wakes up on the same connection
    assert net.last("b", "view")["players"][1]["connected"] is True


def test_the_room_confirms_the_peek_of_a_guest_away_for_the_grace():
    net = started(deck=DECK)
    net.act(LOCAL, {"do": "ready"})
    net.act("b", {"do": "ready"})
    net.close("a")
    assert net.last("b", "view")["players"][1]["connected"] is False
    net.later(GONE_MS - 1000)
    assert net.host.view["phase"] == "peek"
    net.later(1000)
    assert net.host.view["phase"] == "play"                     # R2.4, Game.forfeit
    assert {"type": "ready", "seat": 1, "auto": True} in net.host.log
    assert not net.leaks


def test_the_room_times_out_the_turns_of_a_guest_that_is_gone():
    net = started(deck=DECK)
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    net.close("a")                           # seat 1's turn, no draw timer
    net.later(GONE_MS - 1000)
    assert net.host.view["turn"] == 1
    net.later(1000)
    timeouts = [e for e in net.host.log if e["type"] == "timeout"]
    assert timeouts == [{"type": "timeout", "seat": 1, "card": "6d", "forced": True, "lost": 0,
                         "away": True}]  # R10.2
    assert net.host.view["turn"] == 2
    # its next turn is played for it at once (it is still gone)
    net.act("b", {"do": "draw"})
    net.act("b", {"do": "discard"})
    net.later(2000)
    net.act(LOCAL, {"do": "draw"})
    net.act(LOCAL, {"do": "discard"})
    net.later(2000)
    assert [e["seat"] for e in net.host.log if e["type"] == "timeout"] == [1, 1]
    assert net.host.view["turn"] == 2
    assert not net.leaks


def test_an_away_seat_the_game_waits_for_says_when_the_room_plays_its_part():
    # issue 20: an away guest's turn without a turn timer showed "Pepe's turn" for 20 s with
    # no hint; each view's players say, for an away seat the game waits for, in how many ms
    # the room plays its part (`skip_in`), so every screen can say why it waits and for how long
    net = started(deck=DECK)
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    assert all("skip_in" not in p for p in net.last("b", "view")["players"])
    net.close("a")                           # seat 1's turn, no draw timer
    players = net.last("b", "view")["players"]
    assert players[1]["connected"] is False and players[1]["skip_in"] == GONE_MS
    assert "skip_in" not in players[0] and "skip_in" not in players[2]
    assert net.last(LOCAL, "view")["players"][1]["skip_in"] == GONE_MS
    net.later(GONE_MS)
    assert net.host.view["turn"] == 2
    # still away, but the game does not wait for seat 1 now: nothing to count down
    assert "skip_in" not in net.last("b", "view")["players"][1]
    assert not net.leaks


def test_a_dead_phone_holding_a_card_is_noticed_then_its_draw_times_out_after_the_grace():
    net = started(deck=DECK)
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    net.act("a", {"do": "draw"})             # seat 1 holds 6d ...
    seen = net.clock
    net.asleep.add("a")                      # ... and its phone dies: no close, no ping
    net.at(seen + SILENT_MS)
    assert net.last("b", "view")["players"][1]["connected"] is False
    assert net.last(LOCAL, "view")["players"][1]["connected"] is False
    net.at(seen + SILENT_MS + GONE_MS - 1)
    assert net.host.view["held"] == {"seat": 1, "from": "deck", "card": None}
    net.at(seen + SILENT_MS + GONE_MS)
    assert [e for e in net.host.log if e["type"] == "timeout"] == [
        {"type": "timeout", "seat": 1, "card": "6d", "forced": False, "lost": 0, "away": True}]  # R10.2
    assert net.host.view["turn"] == 2 and net.host.view["discard"] == ["6d"]
    assert not net.leaks


def test_a_guest_back_in_time_keeps_its_turn():
    net = started(deck=DECK)
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    token = net.clients["a"].token
    net.close("a")
    net.later(GONE_MS - 1000)
    net.guest("a2", "Ana", token=token)
    net.later(60000)
    assert net.host.view["turn"] == 1
    assert not [e for e in net.host.log if e["type"] == "timeout"]
    net.act("a2", {"do": "draw"})


# ---- a new game ---------------------------------------------------------------------------

def play_to_game_over(net, people):
    """Play the game out: the people in `people` (conns) draw and swap or discard."""
    play_out(net, people, lambda: net.host.view["phase"] == "game_over")


def host_ana_and_a_bot(**options):
    """A lobby of the host, Ana ("a") and an easy engine bot, with those options; returns
    (net, make_bot)."""
    make_bot = engine_bots()
    net = Net(make_bot=make_bot)
    net.host.join("Host")
    net.guest("a", "Ana")
    net.host.host({"type": "add_bot", "level": "easy"})
    net.host.host({"type": "options", **options})
    return net, make_bot


def test_new_game_after_game_over_returns_everyone_to_the_lobby():
    net, _ = host_ana_and_a_bot(target=50, draw_from_discard=True)
    new_game = json.dumps({"type": "new_game", "v": 1})
    assert error_only(net.room.receive(LOCAL, new_game, net.clock), LOCAL) == "not_over"
    net.host.host({"type": "start"})
    assert error_only(net.room.receive(LOCAL, new_game, net.clock), LOCAL) == "not_over"
    play_to_game_over(net, (LOCAL, "a"))
    before = net.snapshot()
    assert error_only(net.raw("a", new_game), "a") == "not_host"
    assert net.snapshot() == before
    seed = net.room.seed
    net.host.host({"type": "new_game"})
    assert net.host.error is None
    assert net.room.game is None and net.room.seed != seed
    for conn in (LOCAL, "a"):
        client = net.clients[conn]
        assert client.screen == "lobby" and client.view is None
        lobby = net.last(conn, "lobby")
        assert lobby["started"] is False
        assert [(p["name"], p["bot"]) for p in lobby["players"]] == \
            [("Host", None), ("Ana", None), ("\U0001F43C Oliver", "easy")]
        assert lobby["options"] == {"target": 50, "draw_seconds": None,
                                    "draw_from_discard": True}
    assert net.clients["a"].seat == 1
    net.host.host({"type": "start"})
    assert net.host.error is None
    view = net.host.view
    assert view["phase"] == "peek" and view["round"] == 1 and view["scores"] == [0, 0, 0]
    assert net.clients["a"].screen == "table"
    play_to_game_over(net, (LOCAL, "a"))
    assert not net.leaks


def test_the_room_keeps_each_rounds_points_and_the_games_won_across_new_game():
    """Issue 11.4: every view carries the game's finished rounds (a rejoining guest gets
    them too) and the players carry the games they won in this room, which New game keeps
    and a reloaded host page brings back."""
    net, make_bot = host_ana_and_a_bot(target=50)
    net.host.host({"type": "start"})
    play_to_game_over(net, (LOCAL, "a"))
    game = net.room.game
    history = net.last("a", "view")["history"]
    assert len(history) == game.round and all(len(r) == 3 for r in history)
    assert [sum(r[s] for r in history) for s in range(3)] == game.scores     # R7.4
    assert net.clients["a"].history == history and net.clients["a"].games == 1
    wins = [p["wins"] for p in net.last("a", "view")["players"]]
    assert wins == [1 if s in game.winners else 0 for s in range(3)]
    saved = Room.from_dict(json.loads(json.dumps(net.room.to_dict())), make_bot=make_bot)
    assert saved.history == history and saved.games == 1
    assert [s.wins for s in saved.seats] == wins
    net.host.host({"type": "new_game"})
    lobby = net.last("a", "lobby")
    assert [p["wins"] for p in lobby["players"]] == wins and lobby["games"] == 1
    assert net.clients["a"].history == []
    net.host.host({"type": "start"})
    assert net.last("a", "view")["history"] == [] and net.last("a", "view")["games"] == 1
    # a hostile saved blob cannot plant a bad history or tally
    d = net.room.to_dict()
    d["history"] = [["x"]]
    d["games"] = -4
    d["seats"][1]["wins"] = "lots"
    bad = Room.from_dict(d, make_bot=make_bot)
    assert bad.history == [] and bad.games == 0 and bad.seats[1].wins == 0


def test_a_late_share_exchange_message_to_a_running_room_changes_nothing():
    """The share exchange is the successor's takeover's (ui/worker/takeover.py); once its room
    runs, a holder's late offer or share gets no answer and changes nothing (no error: the
    holder's page would show one)."""
    room = Room("crisp-room", "Ana", seed=1)
    room.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Ana"}), 0)
    room.open("h", 20, peer="peer-h")
    before = json.dumps(room.to_dict(), sort_keys=True)
    for text in (json.dumps({"type": "share_offer", "v": 1, "seat": 2, "n": 1, "nonce": "a" * 32}),
                 json.dumps({"type": "share", "v": 1, "n": 1, "share": "1:ab"})):
        assert room.receive("h", text, 20) == []
    assert json.dumps(room.to_dict(), sort_keys=True) == before
