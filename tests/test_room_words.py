"""The room's words about its host and its people, on the screens (no browser): the lobby's
Remove asks first, the banners name the host, the host's dot agrees with them, the join
screen's button and invitation (ui/page/screens/room_words.py, lobby_screen.py, join_screen.py,
banner.py, intents.py)."""

from ui.page.i18n import i18n
from ui.page.screens.intents import handle
from ui.page.dom.vdom import find, text_of
from ui.page.screens.viewmodel import Ctx, new_ui

from test_render_model import FakeClient, lobby_model, paused, show, tap, table_model


def test_remove_asks_before_it_removes_a_person_and_a_bot_goes_in_one_tap():
    for lang in ("es", "en"):
        m = lobby_model(3, seat=0)                  # Ana hosts, Bob, seat 2 a bot
        ui = new_ui(lang)
        tree, ctx = show(m, ui, lang)
        assert tap(tree, ctx, "remove-2", ui, m) == [("remove", {"seat": 2})]
        # the first tap on Bob's Remove only asks, on his row
        assert tap(tree, ctx, "remove-1", ui, m) == []
        tree, ctx = show(m, ui, lang)
        row = text_of(find(tree, "player-1"))
        assert i18n.t(lang, "remove_ask", name="Bob") in row, row
        assert find(tree, "remove-1") is None
        # keep: nothing sent, the Remove button is back
        assert tap(tree, ctx, "remove-keep-1", ui, m) == []
        tree, ctx = show(m, ui, lang)
        assert find(tree, "remove-yes-1") is None and find(tree, "remove-1") is not None
        # asked, then confirmed: removed
        tap(tree, ctx, "remove-1", ui, m)
        tree, ctx = show(m, ui, lang)
        assert tap(tree, ctx, "remove-yes-1", ui, m) == [("remove", {"seat": 1})]
        tree, ctx = show(m, ui, lang)
        assert find(tree, "remove-yes-1") is None


def test_a_question_about_one_player_never_stands_on_another_players_row():
    m = lobby_model(4, seat=0)           # Ana, Bob, bot Cleo, Dani
    ui = new_ui()
    tree, ctx = show(m, ui)
    tap(tree, ctx, "remove-1", ui, m)    # asks about Bob
    # Bob leaves: Dani moves down to seat 1 (or the list changes under the question)
    m.lobby = dict(m.lobby)
    m.lobby["players"] = [p for p in m.lobby["players"] if p["seat"] != 1]
    for i, p in enumerate(m.lobby["players"]):
        p["seat"] = i
    m.players = m.lobby["players"]
    tree, ctx = show(m, ui)
    assert find(tree, "remove-yes-1") is None and find(tree, "remove-1") is not None
    # a stale confirmation (an old tree's act) sends nothing
    assert handle(ui, ("local", "remove_yes", {"seat": 1, "name": "Bob"}), None, m) == []


def test_lobby_banners_and_the_host_gone_panel_name_the_host():
    for lang in ("es", "en"):
        m = lobby_model(2, seat=1, status="host_paused")        # Ana hosts
        tree, ctx = show(m, None, lang)
        said = text_of(find(tree, "connection"))
        assert said == i18n.t(lang, "conn_host_paused_lobby_named", name="Ana"), said
        assert "Ana" in said and "Quien organiza" not in said and "The host" not in said
        m = lobby_model(2, seat=1, status="host_gone", host_lost=True)
        tree, ctx = show(m, None, lang)
        said = text_of(find(tree, "host-gone"))
        assert i18n.t(lang, "host_gone_title_named", name="Ana") in said, said
        ui = new_ui(lang)
        ui["keep_waiting"] = True
        tree, ctx = show(m, ui, lang)
        assert text_of(find(tree, "connection")).startswith(
            i18n.t(lang, "conn_host_gone_named", name="Ana"))


def test_the_hosts_dot_is_away_while_the_banner_says_it_does_not_answer():
    m = lobby_model(2, seat=1)
    tree, ctx = show(m)
    assert "on" in find(tree, "player-0")["kids"][0]["attrs"]["class"]
    for quiet in ({"status": "host_paused"}, {"pause": paused(1000, 0)},
                  {"host_lost": True, "status": "host_gone"}):
        m = lobby_model(2, seat=1, **quiet)
        tree, ctx = show(m)
        dot = find(tree, "player-0")["kids"][0]["attrs"]
        assert "off" in dot["class"], quiet
        assert "on" in find(tree, "player-1")["kids"][0]["attrs"]["class"]


def test_a_round_dealt_again_names_the_old_host_or_says_neither_host_nor_organiser():
    m = table_model(3, seat=1, round=2)
    m.redealt = 2
    m.host_seat = 1
    m.old_host = 0
    tree, ctx = show(m, None, "es")
    assert "Ana" in text_of(find(tree, "redealt"))
    # no old host known: the room's plain words, which blame no "quien organiza"
    m.old_host = None
    for lang in ("es", "en"):
        tree, ctx = show(m, None, lang)
        said = text_of(find(tree, "redealt"))
        assert "Quien organiza" not in said and "quien organiza" not in said and \
            "host" not in said, said


def test_the_join_button_without_a_name_asks_for_it_like_the_landings():
    model = FakeClient(screen="join", status="connecting", spectator=True,
                       lobby=lobby_model(2).lobby)
    model.players = model.lobby["players"]
    for lang in ("es", "en"):
        ui = new_ui(lang)
        tree, ctx = show(model, ui, lang)
        assert find(tree, "join-room")["attrs"].get("aria-describedby") == "name-hint"
        assert tap(tree, ctx, "join-room", ui, model) == [("focus", "player-name")]
        tree, ctx = show(model, ui, lang)
        assert find(tree, "name-hint")["attrs"]["data-ask"] == "true"


def test_the_invitation_names_the_host_and_the_players():
    model = FakeClient(screen="join", status="connecting", spectator=True,
                       lobby=lobby_model(3).lobby)
    model.players = model.lobby["players"]
    for lang in ("es", "en"):
        tree, ctx = show(model, new_ui(lang), lang)
        said = text_of(tree)
        assert i18n.t(lang, "invited_by", name="Ana") in said, said
        assert "Bob" in text_of(find(tree, "invited-with"))


def test_a_join_by_code_carries_the_name_typed_on_the_landing():
    ui = new_ui("en")
    handle(ui, ("field", "name"), " Cleo ", None)
    handle(ui, ("field", "code"), "761gx 5wcgd", None)
    intents = handle(ui, ("local", "join_code"), None, None)
    assert intents and intents[0][0] == "join_code" and intents[0][1]["name"] == "Cleo"


def test_the_paused_banner_says_who_takes_over_at_zero():
    from test_render_model import paused_table
    m = paused_table()                    # Cleo's page; Ana hosts, silent; Bob is next
    for lang in ("es", "en"):
        said = text_of(find(show(m, lang=lang, now=10000)[0], "connection"))
        assert said == i18n.t(lang, "conn_host_silent_next", name="Ana", s=15, next="Bob")
    m.seat = 1                            # Bob's own page
    m.view["seat"] = 1
    said = text_of(find(show(m, lang="en", now=10000)[0], "connection"))
    assert said == i18n.t("en", "conn_host_silent_me", name="Ana", s=15)
    m.players = [dict(p, connected=p["seat"] == 0) for p in m.players]    # nobody to host
    said = text_of(find(show(m, lang="en", now=10000)[0], "connection"))
    assert said == i18n.t("en", "conn_host_silent", name="Ana", s=15)
