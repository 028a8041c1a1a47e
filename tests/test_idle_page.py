"""A turn its person holds, on the pages (ui/page/screens/idle_turn.py): every place says how
long the turn has waited once the room told it (the view's `waited`), the host's page offers
"Let a bot play this turn" on another person's waiting turn, and while a bot plays it every
place says so; es and en. docs/protocol.md "Room messages" (`bot_turn`)."""

from test_render_model import NAMES, find, players, show, table_model, tap, text_of
from ui.page.i18n import i18n
from ui.page.room_commands import host_message
from ui.page.screens.idle_turn import idle_line, idle_row
from ui.page.screens.viewmodel import Ctx, new_ui


def test_idle_row_counts_the_wait_on_from_the_view_and_offers_the_host_a_bot():
    p = {"seat": 2, "name": "Bea", "connected": True, "bot": None, "waited": 40200}
    row = idle_row(p, 2, 0, 0, True, False, "play", 1900, "hard")
    assert row == {"waited_s": 42, "turn_bot": None,
                   "bot_turn": ("intent", "bot_turn", {"seat": 2, "level": "hard"})}
    # a guest sees the wait, not the offer; the host's own seat and a paused table neither
    assert idle_row(p, 2, 1, 0, False, False, "play", 0, "easy")["bot_turn"] is None
    assert idle_row(p, 2, 2, 0, True, False, "play", 0, "easy")["bot_turn"] is None
    assert idle_row(p, 2, 1, 0, True, True, "play", 0, "easy")["waited_s"] is None
    assert idle_row(p, 2, 1, 0, True, False, "round_over", 0, "easy")["waited_s"] is None
    # junk from the wire shows nothing
    for junk in (-1, "40000", True, None, 4.5e4):
        bad = dict(p, waited=junk)
        assert idle_row(bad, 2, 1, 0, True, False, "play", 0, "easy")["waited_s"] is None
    assert idle_row(dict(p, waited=40000), 2, 1, 0, True, False, "play", 0,
                    "godlike")["bot_turn"][2]["level"] == "easy"
    # the host's stand-in level, whichever the room takes, expert too
    assert idle_row(p, 2, 0, 0, True, False, "play", 0, "expert")["bot_turn"][2]["level"] \
        == "expert"
    assert idle_row(dict(p, turn_bot="expert"), 2, 1, 0, True, False, "play", 0,
                    "easy")["turn_bot"] == "expert"
    playing = dict(p, turn_bot="easy")
    assert idle_row(playing, 2, 1, 0, True, False, "play", 0, "easy") == {
        "waited_s": None, "turn_bot": "easy", "bot_turn": None}
    assert idle_row(dict(p, turn_bot="<b>"), 2, 1, 0, True, False, "play", 0,
                    "easy")["turn_bot"] is None


def test_idle_line_in_player_words_es_and_en():
    for lang, seat, mine, bot, you in (
            ("en", "Bea has been thinking for 41 s", "The table has waited 41 s for you",
             "A bot is playing this turn for Bea", "let a bot play this turn for you"),
            ("es", "Bea lleva 41 s pensando", "La mesa lleva 41 s esper\u00e1ndote",
             "Un bot juega este turno por Bea", "Un bot juega este turno por ti")):
        ctx = Ctx(lang)
        assert idle_line({"name": "Bea", "waited_s": 41}, ctx) == seat
        assert idle_line({"name": "Bea", "waited_s": 41, "me": True}, ctx) == mine
        assert idle_line({"name": "Bea", "turn_bot": "easy"}, ctx) == bot
        assert you in idle_line({"name": "Bea", "turn_bot": "easy", "me": True}, ctx)
        assert idle_line({"name": "Bea", "waited_s": None, "turn_bot": None}, ctx) is None
        assert i18n.t(lang, "bot_turn") != "bot_turn"


def test_the_host_taps_let_a_bot_play_this_turn_and_sends_bot_turn():
    m = table_model(4, seat=0, turn=2)
    m.players = players(NAMES[:4])
    m.players[2]["waited"] = 40000
    ui = new_ui()
    ui["bot_level"] = "hard"
    tree, ctx = show(m, ui, elapsed=5300)
    assert text_of(find(tree, "waited-2")) == "Cleo has been thinking for 45 s"
    assert ctx.wake == 700                      # drawn again at 46 s
    assert tap(tree, ctx, "bot-turn-2", ui, m) == [("bot_turn", {"seat": 2, "level": "hard"})]
    assert host_message("bot_turn", {"seat": 2, "level": "hard", "x": 1}) == {
        "type": "bot_turn", "seat": 2, "level": "hard"}
    # a guest sees the wait at that place, no button; the waiting person sees it at theirs
    g = table_model(4, seat=1, turn=2)
    g.players = m.players
    tree, ctx = show(g)
    assert find(tree, "bot-turn-2") is None and find(tree, "waited-2") is not None
    me = table_model(4, seat=2, turn=2)
    me.players = m.players
    tree, ctx = show(me, lang="es")
    assert text_of(find(tree, "waited-2")) == "La mesa lleva 40 s esper\u00e1ndote"
    # a bot plays it: every place says so, no offer
    m.players[2] = dict(m.players[2], turn_bot="easy")
    del m.players[2]["waited"]
    tree, ctx = show(m, ui)
    assert find(tree, "bot-turn-2") is None
    assert text_of(find(tree, "waited-2")) == "A bot is playing this turn for Cleo"
