"""A full room and a late friend's seat (issue 20 items 6 and 8; docs/protocol.md
"Spectators"): a friend who opens the link of a full lobby (even of bots) watches, waits for
a seat and takes the first one the host frees ("make room"); every screen is told who
watches; a seat given mid-game is said to the table and to its taker. The room's side
(ui/worker/spectators.py, lobby.py) through the real Client (ui/page/client/client.py), and the
screens' words (ui/page/screens/watch_screens.py) on the models the Client keeps."""

import json

from roomnet import Net
from test_render_model import show
from test_room_watch import started, watcher
from ui.page.i18n import i18n
from ui.page.dom.vdom import find, text_of
from ui.page.screens.watch_screens import invite_hint, make_room
from ui.page.client.watchers import read_watchers
from ui.worker.room import bot_maker


def full_lobby(people=("Ana",)):
    """Hana hosts; `people` join; bots fill the lobby to 8."""
    net = Net(host="Hana", make_bot=bot_maker(3, 0.01))
    net.host.join("Hana")
    for i, name in enumerate(people):
        net.guest("g%d" % i, name)
    while len(net.room.seats) < 8:
        net.host.host({"type": "add_bot", "level": "easy"})
    return net


def test_a_friend_finds_a_full_lobby_before_typing_a_name_and_is_offered_to_wait():
    net = full_lobby()
    zoe = watcher(net, "z")
    assert zoe.spectator and zoe.screen == "join" and len(zoe.lobby["players"]) == 8
    tree, ctx = show(zoe)
    assert text_of(find(tree, "room-full")) == "This room is full (8 players)"
    assert "watch the game" in text_of(tree) and "next game" in text_of(tree)
    assert find(tree, "join-room") is None                # no join that can only fail
    assert find(tree, "wait-seat") is not None and find(tree, "player-name") is not None
    tree, ctx = show(zoe, lang="es")
    assert text_of(find(tree, "room-full")) == "Esta sala est\u00e1 llena (8 jugadores)"
    # the host's lobby says someone is watching before any name
    assert net.host.watchers == [{"name": None, "next": False}]
    tree, ctx = show(net.host)
    assert text_of(find(tree, "watchers")) == "Someone has opened the invitation"
    assert text_of(find(show(net.host, lang="es")[0], "watchers")) == \
        "Alguien ha abierto la invitaci\u00f3n"
    assert find(tree, "make-room") is None                # nobody asked yet


def test_a_friend_waiting_in_a_full_lobby_takes_the_seat_the_host_makes():
    net = full_lobby()
    zoe = watcher(net, "z")
    zoe.sit("Zoe")
    assert zoe.ask == {"seat": None, "name": "Zoe"} and zoe.seat is None
    tree, ctx = show(zoe)
    assert "waiting for a seat" in text_of(find(tree, "seat-asked"))
    # the host is told, with "make room": it removes the last bot
    assert net.host.watchers == [{"name": "Zoe", "next": True}]
    tree, ctx = show(net.host)
    assert "Zoe is waiting for a seat, and the room is full" in text_of(
        find(tree, "friends-waiting"))
    make = find(tree, "make-room")
    assert ctx.acts[make["attrs"]["data-act"]] == ("intent", "remove", {"seat": 7})
    tree, ctx = show(net.host, lang="es")
    assert "Zoe espera un sitio y la sala est\u00e1 llena" in text_of(tree)
    assert text_of(find(tree, "make-room")) == "Hacer hueco"
    net.host.host({"type": "remove", "seat": 7})
    assert zoe.seat == 7 and zoe.token and zoe.screen == "lobby" and not zoe.spectator
    assert [s.name for s in net.room.seats][-1] == "Zoe" and "z" not in net.room.spectators
    assert net.host.watchers == []
    assert find(show(net.host)[0], "friends-waiting") is None
    # seated for real: its token rejoins it
    assert net.room.seats[7].token == zoe.token


def test_what_the_host_is_told_of_a_friend_waiting_is_true_to_the_room():
    # it said "the room is full" whatever the room held: the decision, on every state
    def lobby(bots, people=None, host=0):
        people = 8 - bots if people is None else people
        players = [{"seat": i, "name": "P%d" % i} for i in range(people)]
        players += [{"seat": people + i, "name": "B%d" % i, "bot": "easy"} for i in range(bots)]
        return {"players": players, "host": host}
    assert make_room(lobby(bots=2)) == ("w_waiting_full", 7)         # the last bot leaves
    assert make_room(lobby(bots=0)) == ("w_waiting_people", None)    # full of people
    assert make_room(lobby(bots=1, people=5)) == ("w_waiting_lobby", None)   # 6 of 8: not full
    assert make_room(lobby(bots=0, people=1)) == ("w_waiting_lobby", None)
    # the host's own seat is never the one to free, and a hostile lobby says no more
    assert make_room({"players": [{"seat": 0, "bot": "easy"}] + lobby(0, 7)["players"][1:]
                      + [{"seat": 7, "name": "X"}], "host": 0}) == ("w_waiting_people", None)
    for bad in (None, [], "full", {"players": "x"}, {"players": [None] * 8},
                {"players": [{"seat": True, "bot": "easy"}] * 8}):
        assert make_room(bad)[1] is None, bad


def test_a_room_full_of_people_promises_no_bot_and_a_free_seat_is_no_full_room():
    net = full_lobby(people=("Ana", "Bea", "Cleo", "Dani", "Eva", "Fede", "Gus"))
    zoe = watcher(net, "z")
    zoe.sit("Zoe")
    assert zoe.ask == {"seat": None, "name": "Zoe"}
    for lang, says, never in (("en", "as soon as someone leaves", "bot"),
                              ("es", "en cuanto alguien se vaya", "bot")):
        tree, ctx = show(net.host, lang=lang)
        text = text_of(find(tree, "friends-waiting"))
        assert says in text and never not in text, (lang, text)
        assert find(tree, "make-room") is None
    # the model of a lobby with a free seat (the room seats the friend in it at once)
    net.host.lobby = dict(net.host.lobby, players=net.host.lobby["players"][:6])
    for lang, never in (("en", "full"), ("es", "llena")):
        text = text_of(find(show(net.host, lang=lang)[0], "friends-waiting"))
        assert "Zoe" in text and never not in text, (lang, text)
    # a guest of that room leaves: Zoe takes the freed seat
    net.clients["g6"].leave()
    assert zoe.seat is not None and not zoe.spectator
    assert find(show(net.host)[0], "friends-waiting") is None


def test_the_invitation_of_a_full_room_says_that_a_friend_can_only_watch_and_wait():
    net = full_lobby()
    for c in (net.host, net.clients["g0"]):
        text = text_of(show(c)[0])
        assert "The room is full: a friend who opens this link can watch" in text, text
        assert "they join from their own phone" not in text
        assert "La sala est\u00e1 llena: quien abra este enlace puede mirar" in text_of(
            show(c, lang="es")[0])
    net.host.host({"type": "remove", "seat": 7})          # a seat is free: invite again
    text = text_of(show(net.host)[0])
    assert "they join from their own phone" in text and "The room is full" not in text
    for bad in (None, {"lobby": "x"}, {"lobby": {"players": 8}}):
        assert invite_hint(bad) == "invite_hint"


def test_the_first_to_ask_takes_the_freed_seat_and_a_taken_name_is_refused():
    net = full_lobby()
    zoe, yan = watcher(net, "z"), watcher(net, "y")
    zoe.sit("Zoe")
    yan.sit("Yan")
    net.host.host({"type": "remove", "seat": 6})
    assert zoe.seat is not None and yan.seat is None and yan.ask["name"] == "Yan"
    assert net.host.watchers == [{"name": "Yan", "next": True}]
    # a name already seated is refused before it waits (a join's checks)
    ana2 = watcher(net, "a2")
    ana2.sit("ANA")
    assert ana2.error["code"] == "name_taken" and ana2.ask is None
    ana2.sit("   ")
    assert ana2.error["code"] == "bad_name"


def test_a_free_lobby_seat_is_taken_at_once_and_an_away_seat_asked_in_the_lobby_is_refused():
    net = Net(host="Hana")
    net.host.join("Hana")
    cleo = watcher(net, "c")
    # her page opened the link (a spectator until she gives her name): in a lobby nobody
    # "is watching", there is no game yet
    assert text_of(find(show(net.host)[0], "watchers")) == "Someone has opened the invitation"
    cleo.sit("Cleo")                   # a seat is free: taken as a join would take it
    assert cleo.seat == 1 and cleo.token and cleo.screen == "lobby"
    dan = watcher(net, "d")
    out = net.raw("d", json.dumps({"type": "sit", "v": 1, "name": "Dan", "seat": 1}))
    assert json.loads(out[0][1])["code"] == "not_started" and dan.seat is None
    assert net.room.seats[1].name == "Cleo"


def test_hostile_sits_change_nothing():
    net = full_lobby()
    watcher(net, "z")
    before = [s.name for s in net.room.seats]
    for text in ('{"type": "sit", "v": 1}', '{"type": "sit", "v": 1, "name": 7}',
                 '{"type": "sit", "v": 1, "name": "Zoe", "seat": "1"}',
                 '{"type": "sit", "v": 1, "name": "Zoe", "seat": -1}',
                 '{"type": "sit", "v": 1, "name": "Zoe", "extra": 1}',
                 '{"type": "sit", "v": 1, "name": "Bot 3"}'):
        out = net.raw("z", text)
        assert [json.loads(t)["type"] for c, t in out if c == "z"][:1] in (["error"], [])
        assert [s.name for s in net.room.seats] == before
    # the same request again answers its sender only (no lobby to everyone each time)
    net.raw("z", '{"type": "sit", "v": 1, "name": "Zed"}')
    out = net.raw("z", '{"type": "sit", "v": 1, "name": "Zed"}')
    assert [c for c, t in out] == ["z"]
    # a long name waits cut to 20 characters, as a join's would be
    net.raw("z", '{"type": "sit", "v": 1, "name": "' + "Z" * 300 + '"}')
    assert net.room.spectators["z"]["ask"]["name"] == "Z" * 20
    # a seated person cannot sit (it is no spectator), and neither can a stranger's conn
    out = net.raw("g0", '{"type": "sit", "v": 1, "name": "Ana"}')
    assert json.loads(out[0][1])["code"] == "not_watching"
    out = net.raw("nobody", '{"type": "sit", "v": 1, "name": "Eve"}')
    assert json.loads(out[0][1])["code"] in ("not_watching", "not_joined")
    assert [s.name for s in net.room.seats] == before


def test_a_hostile_watchers_field_is_read_safely():
    assert read_watchers(None) == [] and read_watchers("x") == []
    assert read_watchers([1, None, {"name": 7, "next": "yes"}, {"name": "A" * 500}]) == [
        {"name": None, "next": False}, {"name": "A" * 20, "next": False}]
    assert len(read_watchers([{"name": "x", "next": True}] * 500)) == 8


def test_a_full_table_s_friend_watches_and_plays_in_the_next_game():
    net = started(guests=("Ana", "Bea", "Cleo", "Dani", "Eva", "Fede", "Gus"))
    zoe = watcher(net, "z")
    zoe.sit("Zoe")
    assert zoe.screen == "table" and zoe.ask == {"seat": None, "name": "Zoe"}
    for conn in ("g0", LOCAL_CONN):
        c = net.clients[conn]
        assert c.watchers == [{"name": "Zoe", "next": True}]
        assert text_of(find(show(c)[0], "watchers")) == "Zoe will play in the next game"
    assert text_of(find(show(net.host, lang="es")[0], "watchers")) == \
        "Zoe jugar\u00e1 en la pr\u00f3xima partida"


LOCAL_CONN = "local"


def test_a_late_friend_given_a_seat_is_told_and_so_is_the_table():
    net = started()
    net.close("g1")                                     # Bea's phone died
    cleo = watcher(net, "w")
    ana = net.clients["g0"]
    assert text_of(find(show(ana)[0], "watchers")) == "Someone is watching"
    cleo.sit("Cleo", 2)
    assert text_of(find(show(ana)[0], "watchers")) == "Cleo is watching"
    assert text_of(find(show(ana, lang="es")[0], "watchers")) == "Cleo est\u00e1 mirando"
    net.host.host({"type": "approve", "seat": 2})
    assert cleo.seat == 2
    # her screen: whose seat, and that she never saw these cards
    tree, ctx = show(cleo)
    assert text_of(find(tree, "took-seat")).startswith(
        "You took Bea\u2019s seat: these cards are unknown to you")
    tree, ctx = show(cleo, lang="es")
    assert text_of(find(tree, "took-seat")).startswith(
        "Has ocupado el sitio de Bea: no conoces estas cartas")
    # the table: the log says it, the watchers line is gone
    for c in (ana, net.host):
        tree, ctx = show(c)
        lines = [text_of(li) for li in find(tree, "event-log")["kids"]]
        assert "Cleo took Bea\u2019s seat." in lines, lines
        assert find(tree, "watchers") is None and find(tree, "took-seat") is None
        tree, ctx = show(c, lang="es")
        assert "Cleo ha ocupado el sitio de Bea." in [
            text_of(li) for li in find(tree, "event-log")["kids"]]
    # the note lasts the round she sat down in
    cleo.view = dict(cleo.view, round=cleo.view["round"] + 1)
    assert find(show(cleo)[0], "took-seat") is None
    assert i18n.t("en", "ev_took_seat_you", was="Bea") == "You took Bea\u2019s seat."


def test_a_friend_seated_by_the_next_game_gets_no_took_seat_note():
    net = started()
    zoe = watcher(net, "z")
    zoe.sit("Zoe")
    net.room.game.phase = "game_over"               # the game ends (as the engine would)
    net.host.host({"type": "new_game"})
    assert zoe.seat == 3 and zoe.took is None and zoe.screen == "lobby"
    assert "Zoe" in [p["name"] for p in net.host.players]
