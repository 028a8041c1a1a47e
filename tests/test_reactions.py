"""Quick reactions (docs/protocol.md "Quick reactions"): the room takes an index into the fixed
list from a seated player, sends it to every screen with the sender's seat, holds each seat to
its own rate, and refuses anything else with a clear error while the game goes on unchanged
(over the in-memory network of roomnet.py, through the page's own Client)."""

import json

import pytest

from test_room import DECK, error_only, lobby_of_three, started
from test_room_watch import watcher
from ui.shared import reactions
from ui.shared.reactions import BURST, REACTIONS, SHOW_MS
from ui.worker.room import LOCAL


def react(r, **extra):
    return json.dumps(dict({"type": "react", "v": 1, "r": r}, **extra))


def reactions_of(net, conn):
    return [(m["seat"], m["r"]) for m in net.received(conn, "reaction")]


def test_a_reaction_goes_to_every_screen_with_its_senders_seat():
    net = started(deck=DECK)
    w = watcher(net, "w")
    net.clients["a"].react(6)                          # Ana: "Crisp?!"
    for conn in (LOCAL, "a", "b", "w"):
        assert reactions_of(net, conn) == [(1, 6)], conn
    net.host.react(0)                                  # the host reacts too
    assert reactions_of(net, "b") == [(1, 6), (0, 0)]
    assert w.reactions[0]["r"] == 0 and net.clients["a"].reactions[1]["r"] == 6


def test_the_fixed_list_holds_faces_and_set_phrases_only():
    assert len(REACTIONS) == 8 and len(set(REACTIONS)) == 8
    assert [reactions.is_icon(i) for i in range(8)] == [True] * 4 + [False] * 4
    assert [reactions.words_key(i) for i in range(4, 8)] == [
        "react_nice", "react_hurry", "react_crisp", "react_gg"]
    assert [r for r in range(-2, 10) if reactions.is_reaction(r)] == list(range(8))
    assert not any(reactions.is_reaction(x) for x in (True, False, 1.0, "1", None, [1]))


@pytest.mark.parametrize("text", [
    react(8), react(-1), react(True), react(1.0), react("1"), react(None), react([1]),
    react({"r": 1}), react(1, text="you lose"), react(1, seat=2),
    '{"type": "react", "v": 1}', '{"type": "react", "v": 1, "r": 99999999999999999999}',
])
def test_a_malformed_reaction_is_refused_and_changes_nothing(text):
    net = started(deck=DECK)
    before = net.snapshot()
    counts = {c: len(t) for c, t in net.inbox.items()}
    out = net.room.receive("a", text, net.clock)
    assert error_only(out, "a") == "bad_message"
    assert net.snapshot() == before
    assert {c: len(t) for c, t in net.inbox.items()} == counts      # nobody else heard


def test_a_spectator_a_stranger_and_the_lobby_cannot_react():
    net = lobby_of_three(deck=DECK)
    assert error_only(net.room.receive("a", react(1), net.clock), "a") == "not_started"
    net.host.host({"type": "start"})
    watcher(net, "w")
    net.room.open("x", net.clock, peer="peer-x")
    before = net.snapshot()
    for conn in ("w", "x"):
        assert error_only(net.room.receive(conn, react(1), net.clock), conn) == "not_joined"
    assert net.snapshot() == before
    assert all(reactions_of(net, c) == [] for c in (LOCAL, "a", "b", "w"))


def test_each_seat_has_a_burst_of_three_then_one_a_second():
    net = started(deck=DECK)
    before = net.snapshot()
    codes = []
    for i in range(10):                                 # Bea taps ten times at once
        out = net.room.receive("b", react(i % 8), net.clock)
        codes.append(json.loads(out[0][1]).get("code") if len(out) == 1 else "sent")
        net.deliver(out)
    assert codes == ["sent"] * BURST + ["too_many_reactions"] * 7
    assert reactions_of(net, "a") == [(2, 0), (2, 1), (2, 2)]
    assert net.clients["b"].error["code"] == "too_many_reactions"
    assert net.snapshot() == before                    # the game and the save: unchanged
    net.clients["a"].react(4)                          # another seat's rate is its own
    assert reactions_of(net, LOCAL)[-1] == (1, 4)
    net.clock += 999
    assert error_only(net.room.receive("b", react(3), net.clock), "b") == "too_many_reactions"
    net.clock += 1
    net.clients["b"].react(3)                          # a second on: one more
    assert reactions_of(net, "a")[-1] == (2, 3)


def test_a_reconnect_does_not_refill_the_seats_bucket():
    net = started(deck=DECK)
    token = net.clients["b"].token
    for _ in range(BURST):
        net.clients["b"].react(5)
    net.close("b")
    net.guest("b2", "Bea", token=token)                # Bea's phone rejoins on a new connection
    assert net.room.conns.get("b2") == 2
    assert error_only(net.room.receive("b2", react(5), net.clock), "b2") == "too_many_reactions"


def test_a_reaction_flood_is_held_and_the_table_plays_on():
    net = started(deck=DECK)
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    for t in range(0, 60000, 50):                      # Bea: 20 a second for a minute
        net.deliver(net.room.receive("b", react(7), net.clock + t))
    net.clock += 60000
    heard = len(net.received("a", "reaction"))
    assert BURST + 58 <= heard <= BURST + 60           # 3 at once, then one a second
    net.act("a", {"do": "draw"})
    net.act("a", {"do": "discard"})
    assert net.clients["b"].view["discard"] == ["6d"]


def test_the_page_shows_a_reaction_for_two_seconds_on_its_seat():
    net = started(deck=DECK)
    net.clients["a"].react(4)
    host = net.host
    at = net.clock
    assert reactions.showing(host.reactions, at) == {1: 4}
    assert reactions.showing(host.reactions, at + SHOW_MS - 1) == {1: 4}
    assert reactions.showing(host.reactions, at + SHOW_MS) == {}
    # a reaction naming no seat of the table, or no reaction of the list, is dropped
    for bad in ({"seat": 9, "r": 1}, {"seat": 1, "r": 8}, {"seat": "1", "r": 1},
                {"seat": True, "r": 1}):
        assert host.receive(json.dumps(dict(bad, type="reaction", v=1)), at) is False
    assert reactions.showing(host.reactions, at) == {1: 4}


# ---- the screens (ui/page/screens/reaction_view.py through the table, as tests/test_render_model.py) --

def test_every_screen_shows_a_reaction_on_its_senders_seat_until_two_seconds_are_up():
    from test_render_model import show, table_model
    from ui.page.dom.vdom import find, find_all, text_of
    for seat, me in ((2, 1), (1, 1)):                   # another's seat, and my own
        m = table_model(4, seat=me)
        m.reactions = {seat: {"r": 5, "at": 1000, "n": 3}}
        tree, _ = show(m, now=1000 + SHOW_MS - 1)
        bubble = find(find(tree, "seat-%d" % seat), "reaction-%d" % seat)
        assert text_of(bubble) == "Hurry up!" and bubble["attrs"]["data-r"] == "5"
        assert len(find_all(tree, lambda nd: nd["attrs"].get("data-testid", "")
                            .startswith("reaction-"))) == 1
        tree, _ = show(m, now=1000 + SHOW_MS)
        assert find(tree, "reaction-%d" % seat) is None
    m = table_model(4, seat=1)
    m.reactions = {0: {"r": 0, "at": 0, "n": 1}}
    tree, _ = show(m, lang="es")
    face = find(tree, "reaction-0")
    assert face["attrs"]["aria-label"] == "Pulgar arriba" and face["attrs"]["role"] == "img"
    assert find_all(face, lambda nd: nd["tag"] == "svg")


def test_the_picker_sends_an_index_and_the_menu_switch_turns_reactions_off():
    from test_render_model import show, table_model
    from ui.page.screens.intents import handle
    from ui.page.dom.vdom import find
    from ui.page.screens.viewmodel import new_ui
    m = table_model(4, seat=1)
    m.reactions = {2: {"r": 6, "at": 0, "n": 1}}
    ui = new_ui("en")
    tree, ctx = show(m, ui)
    assert find(tree, "react-picker") is None
    assert handle(ui, ctx.acts["react-open"], None, m) == []
    tree, ctx = show(m, ui)
    assert [find(tree, "react-%d" % i) is not None for i in range(8)] == [True] * 8
    assert handle(ui, ctx.acts["react-6"], None, m) == [("react", {"r": 6})]
    assert find(show(m, ui)[0], "react-picker") is None           # sent: the picker closes
    ui["menu_open"] = True
    tree, ctx = show(m, ui)
    assert find(tree, "reactions-toggle")["attrs"]["aria-pressed"] == "true"
    assert handle(ui, ctx.acts["reactions-toggle"], None, m) == [("reactions", False)]
    tree, _ = show(m, ui)
    assert find(tree, "reactions-toggle")["attrs"]["aria-pressed"] == "false"
    assert find(tree, "reaction-2") is None and find(tree, "react-open") is None


def test_a_spectator_sees_reactions_and_has_no_picker():
    from test_render_model import show, table_model
    from ui.page.dom.vdom import find
    m = table_model(3, seat=None)
    m.spectator = True
    m.reactions = {1: {"r": 4, "at": 0, "n": 1}}
    tree, _ = show(m)
    assert find(find(tree, "seat-1"), "reaction-1") is not None
    assert find(tree, "react-open") is None


def test_the_picker_is_not_live_while_the_game_is_paused():
    """Issue 20.1: nothing a player can tap that does nothing. While the game is paused (the
    host silent, a handover under way) a reaction would reach nobody: the button shows,
    disabled, and an open picker closes."""
    from ui.page.screens import reaction_view
    from ui.page.dom.vdom import find
    from ui.page.screens.viewmodel import Ctx
    ui = {"reactions": True, "react_open": True}
    live = reaction_view.picker(ui, Ctx("en", 0, 0, False, ""))
    assert "data-act" in find(live, "react-open")["attrs"] and find(live, "react-picker")
    paused = reaction_view.picker(ui, Ctx("en", 0, 0, False, ""), False)
    assert find(paused, "react-open")["attrs"].get("disabled") is True
    assert "data-act" not in find(paused, "react-open")["attrs"]
    assert find(paused, "react-picker") is None
