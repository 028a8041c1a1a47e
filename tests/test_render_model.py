"""The screens' decisions (ui/page/screens/viewmodel.py, table_model.py, status_line.py,
results_model.py, screens.py, table.py, intents.py), tested without a browser.

Two kinds of tests:
- on hand-made models (a FakeClient with the Client's attributes): pure, and also run on
  MicroPython by test_render_micropython.py (so no pytest and no crisp_core at the top);
- on real Clients fed by the real Room and engine (tests/roomnet.py): a whole round played
  only by tapping the elements the screen made live, checking on every screen of every seat
  that a card face (data-card) shows exactly when this seat may see it (R9).
"""

from ui.page.i18n import i18n
from ui.page.screens import cards
from ui.page.dom import vdom
from ui.page.screens import (banner, eventlog, render, results, results_model, screens,
                             status_line, table, table_model, viewmodel, widgets)
from ui.page.client.presence import Pause, elapsed_ms
from ui.page.screens.intents import handle
from ui.page.screens.screens import build
from ui.page.dom.vdom import find, find_all, text_of
from ui.page.screens.table_model import table_info
from ui.page.screens.viewmodel import Ctx, new_ui
from ui.page.screens.widgets import card_name

# every module that draws the screens, and the two that touch the DOM
SCREEN_MODULES = (viewmodel, table_model, status_line, results_model, eventlog, widgets, screens,
                  table, results, banner)
DOM_MODULES = (vdom, render)

POS = ("left", "center", "right")
# Tests that need CPython (the engine, the room, reading the source); the others also run on
# MicroPython (test_render_micropython.py).
CPYTHON_ONLY = ("test_every_catalogue_key_the_screens_use_exists",
                "test_a_whole_round_played_by_taps_shows_only_what_each_seat_may_see")


class FakeClient:
    """The model attributes ui/page/client/client.py gives the screens (docs/protocol.md, "Client")."""

    def __init__(self, **kw):
        self.screen = "join"
        self.seat = None
        self.is_host = False
        self.room = None
        self.lobby = None
        self.view = None
        self.players = []
        self.log = []
        self.reveals = {}
        self.error = None
        self.status = "ok"
        for k in kw:
            setattr(self, k, kw[k])


def paused(since, seat, gone_at=None):
    """The Client's pause as the link's signal leaves it: since `since` (ms), `seat` silent."""
    pause = Pause()
    pause.begin(since, seat)
    pause.gone_at = gone_at
    return pause


def players(names, bots=None, away=()):
    bots = bots or {}
    return [{"seat": i, "name": names[i], "connected": i not in away, "bot": bots.get(i)}
            for i in range(len(names))]


def make_view(n=4, seat=1, **kw):
    v = {"seat": seat, "players": n,
         "options": {"players": n, "target": 100, "draw_seconds": None,
                     "draw_from_discard": False},
         "phase": "play", "round": 1, "dealer": 0, "turn": 1, "caller": None,
         "hands": [[None, None, None] for _ in range(n)], "held": None, "pending_draws": 0,
         "deck_count": 40, "discard": [], "ready": [True] * n, "peek_left": None,
         "start_in": 0, "draw_left": None, "crisp_window": None, "last_turns_left": 0,
         "round_points": None, "scores": [0] * n, "winners": None, "allowed": []}
    for k in kw:
        v[k] = kw[k]
    return v


NAMES = ["Ana", "Bob", "Cleo", "Dani", "Eva", "Fede", "Gus", "Hugo"]
EVIL = "<img src=x onerror=alert(1)>"


def table_model(n=4, seat=1, log=None, reveals=None, names=None, **kw):
    return FakeClient(screen="table", seat=seat, is_host=seat == 0,
                      players=players(names or NAMES[:n]), view=make_view(n, seat, **kw),
                      log=log or [], reveals=reveals or {})


def lobby_model(n=3, seat=0, **kw):
    lobby = {"type": "lobby", "v": 1, "players": players(NAMES[:n], {2: "easy"} if n > 2 else {}),
             "options": {"target": 100, "draw_seconds": None, "draw_from_discard": False},
             "host": 0, "started": False}
    m = FakeClient(screen="lobby", seat=seat, is_host=seat == 0, lobby=lobby, room="r00m",
                   players=lobby["players"])
    for k in kw:
        setattr(m, k, kw[k])
    return m


def show(model, ui=None, lang="en", elapsed=0, now=0):
    ctx = Ctx(lang, now=now, elapsed=elapsed, base="http://x/")
    tree = build(model, ui if ui is not None else new_ui(lang), ctx)
    return tree, ctx


def live(tree, testid, present=True):
    node = find(tree, testid)
    if not present and node is None:
        return False
    assert node is not None, testid
    return bool(node["attrs"].get("data-act")) and not node["attrs"].get("disabled")


def tap(tree, ctx, testid, ui, model, value=None):
    node = find(tree, testid)
    assert node is not None, testid
    assert node["attrs"].get("data-act") and not node["attrs"].get("disabled"), testid
    return handle(ui, ctx.acts[node["attrs"]["data-act"]], value, model, ctx.now)


def faces(tree):
    """{testid: card} of every element that shows a card face."""
    out = {}
    for node in find_all(tree, lambda nd: "data-card" in nd["attrs"]):
        out[node["attrs"].get("data-testid")] = node["attrs"]["data-card"]
    return out


# ---- landing, join ----------------------------------------------------------------------

def test_landing_has_its_test_ids_and_needs_a_name():
    ui = new_ui("en")
    tree, ctx = show(FakeClient(screen="landing"), ui)
    for tid in ("player-name", "create-room", "play-solo", "solo-bots", "solo-level",
                "solo-target"):
        assert find(tree, tid) is not None, tid
    assert text_of(find(tree, "name-hint")) == "Enter your name to play"
    tap(tree, ctx, "player-name", ui, None, "   ")
    tree, ctx = show(FakeClient(screen="landing"), ui)
    assert find(tree, "name-hint") is not None
    # only spaces: a tap asks for the name again, it creates nothing
    assert tap(tree, ctx, "create-room", ui, None) == [("focus", "player-name")]
    assert faces(tree) == {}                  # the decorative fan carries no data-card
    assert [text_of(o) for o in find(tree, "solo-bots")["kids"]] == [str(i) for i in range(1, 8)]
    tap(tree, ctx, "player-name", ui, None, "  Ana ")
    tree, ctx = show(FakeClient(screen="landing"), ui)
    assert live(tree, "create-room") and find(tree, "name-hint") is None
    assert tap(tree, ctx, "create-room", ui, None) == [("create_room", {"name": "Ana"})]
    tap(tree, ctx, "solo-bots", ui, None, "5")
    tap(tree, ctx, "solo-level", ui, None, "hard")
    tree, ctx = show(FakeClient(screen="landing"), ui)
    assert find(tree, "solo-bots")["attrs"]["value"] == "5"
    assert find(tree, "solo-target")["attrs"]["value"] == "100"
    tap(tree, ctx, "solo-target", ui, None, "50")
    assert tap(tree, ctx, "play-solo", ui, None) == [
        ("play_solo", {"name": "Ana", "bots": 5, "level": "hard", "target": 50})]


def test_a_tap_on_play_or_create_without_a_name_brings_the_player_to_the_name_field():
    """Issue 20 (a tester, 360x640): without a name Play solo and Create a room were greyed
    and did nothing, the only hint ~600 px above them, off screen. They stay tappable: a tap
    without a name sends nothing, asks the page to focus the name field and bring it into
    view (render.Screen, intent "focus"), and the hint beside the field says so at once
    (role alert, `data-ask`); the buttons point at that hint. The guided round needs no
    name."""
    for lang in ("es", "en"):
        ui = new_ui(lang)
        ui["guided_offer"] = True
        tree, ctx = show(FakeClient(screen="landing"), ui, lang)
        hint = find(tree, "name-hint")
        assert hint["attrs"].get("role") is None and not hint["attrs"].get("data-ask")
        for tid in ("play-solo", "create-room"):
            assert live(tree, tid), tid
            assert find(tree, tid)["attrs"].get("aria-describedby") == "name-hint", tid
            assert tap(tree, ctx, tid, ui, None) == [("focus", "player-name")], tid
            assert not ui.get("solo")                   # the button shows no progress
            tree, ctx = show(FakeClient(screen="landing"), ui, lang)
            hint = find(tree, "name-hint")
            assert hint["attrs"]["role"] == "alert" and hint["attrs"]["data-ask"] == "true"
            assert text_of(hint) == i18n.t(lang, "name_needed")
            assert find(tree, "player-name")["attrs"]["aria-invalid"] == "true"
        # typing a name ends the ask; the buttons then do their work
        tap(tree, ctx, "player-name", ui, None, "Ana")
        tree, ctx = show(FakeClient(screen="landing"), ui, lang)
        assert find(tree, "name-hint") is None and not ui.get("name_ask")
        assert find(tree, "play-solo")["attrs"].get("aria-describedby") is None
        assert find(tree, "player-name")["attrs"].get("aria-invalid") is None
        assert tap(tree, ctx, "create-room", ui, None) == [("create_room", {"name": "Ana"})]
        # erased again: the plain hint, no alert until the next tap
        tap(tree, ctx, "player-name", ui, None, "")
        tree, ctx = show(FakeClient(screen="landing"), ui, lang)
        assert find(tree, "name-hint")["attrs"].get("role") is None
        # the guided round's offer still plays without a name
        ui = new_ui(lang)
        ui["guided_offer"] = True
        tree, ctx = show(FakeClient(screen="landing"), ui, lang)
        intents = tap(tree, ctx, "guided-play", ui, None)
        assert intents[0][0] == "play_guided" and intents[0][1]["name"] == \
            i18n.t(lang, "guided_name")


def test_the_host_waiting_for_its_engine_sees_its_progress_or_its_failure():
    # Play solo or Start before the engine worker runs: a banner says how far it has come
    tree, _ = show(FakeClient(screen="landing", engine_wait=40), lang="en")
    assert text_of(find(tree, "engine-progress")) == "Starting the game\u2026 40%"
    tree, _ = show(lobby_model(engine_wait=0), lang="es")
    assert "0%" in text_of(find(tree, "engine-progress"))
    tree, _ = show(FakeClient(screen="landing", engine_wait=-1), lang="en")
    assert "could not start" in text_of(find(tree, "engine-progress"))
    tree, _ = show(FakeClient(screen="landing"), lang="en")
    assert find(tree, "engine-progress") is None


def test_the_engine_progress_banner_names_the_step_the_engine_is_at():
    # engine-worker.js says which step it is at (ui/page/screens/banner.py ENGINE_STAGES): each has its
    # own words in both languages; no step (an older worker) or an unknown one: the old words
    for lang in ("en", "es"):
        texts = set()
        for stage in ("download", "compile", "python", "engine"):
            tree, _ = show(FakeClient(screen="landing", engine_wait=37, engine_stage=stage),
                           lang=lang)
            banner = find(tree, "engine-progress")
            assert text_of(banner) == i18n.t(lang, "engine_" + stage, pct=37)
            assert banner["attrs"]["data-stage"] == stage
            texts.add(text_of(banner))
        assert len(texts) == 4
        for stage in (None, "<b>", 5):
            tree, _ = show(FakeClient(screen="landing", engine_wait=37, engine_stage=stage),
                           lang=lang)
            assert text_of(find(tree, "engine-progress")) == i18n.t(lang, "engine_loading",
                                                                     pct=37)
    assert i18n.t("en", "engine_download", pct=12).endswith("12%")


def test_a_slow_engine_start_says_it_takes_long_and_offers_retry_while_it_still_waits():
    # no progress for 20 s (hostlife.engine_verdict "slow"): still waited for, not failed
    for lang in ("en", "es"):
        tree, ctx = show(FakeClient(screen="landing", engine_wait=40, engine_stage="download",
                                    engine_slow=True), lang=lang)
        banner = find(tree, "engine-progress")
        assert banner["attrs"]["data-slow"] == "true"
        assert banner["attrs"]["data-stage"] == "download"
        assert i18n.t(lang, "engine_slow", pct=40) in text_of(banner)
        assert "40%" in text_of(banner)
        assert find(banner, "engine-retry") is not None
        for word in ("Python", "engine", "motor", "wasm", "could not", "no pudo",
                     "no ha podido"):
            assert word not in text_of(banner)
    assert "longer than usual" in i18n.t("en", "engine_slow", pct=1)
    tree, _ = show(FakeClient(screen="landing", engine_wait=40, engine_slow=False), lang="en")
    assert find(tree, "engine-retry") is None


def test_join_screen_sends_the_typed_name():
    ui = new_ui("es", "Bea")
    # the room answered (a spectator's lobby): the form shows (before: ui/page/screens/screens.py
    # room_answered, none)
    model = FakeClient(screen="join", status="connecting", spectator=True,
                       lobby=lobby_model(2).lobby)
    tree, ctx = show(model, ui, "es")
    assert find(tree, "create-room") is None
    assert text_of(find(tree, "join-room")) == "Entrar en la sala"
    assert find(tree, "name-hint") is None
    tree, ctx = show(model, new_ui("es"), "es")
    assert text_of(find(tree, "name-hint")) == "Escribe tu nombre para jugar"
    tree, ctx = show(model, ui, "es")
    assert tap(tree, ctx, "join-room", ui, model) == [("join", {"name": "Bea"})]
    tree, ctx = show(model, ui, "es")
    assert text_of(find(tree, "join-room")) == i18n.t("es", "busy_joining")


def test_language_switch_is_an_intent_and_changes_every_text():
    ui = new_ui("en")
    tree, ctx = show(FakeClient(screen="landing"), ui)
    assert "Create a room" in text_of(tree)
    assert tap(tree, ctx, "lang-es", ui, None) == [("lang", "es")]
    tree, ctx = show(FakeClient(screen="landing"), ui, ui["lang"])
    assert "Crear una sala" in text_of(tree) and "Create a room" not in text_of(tree)


def test_pick_language_follows_the_browser():
    assert i18n.pick("es-AR") == "es" and i18n.pick("ES") == "es"
    assert i18n.pick("en-GB") == "en" and i18n.pick("fr-FR") == "en" and i18n.pick(None) == "en"


# ---- lobby ------------------------------------------------------------------------------

def test_lobby_host_sees_link_players_live_options_and_start():
    m = lobby_model(3, seat=0)
    tree, ctx = show(m)
    assert text_of(find(tree, "room-link")) == "http://x/?room=r00m"
    rows = find(tree, "player-list")["kids"]
    assert [r["attrs"]["data-testid"] for r in rows] == ["player-0", "player-1", "player-2"]
    assert "host" in text_of(find(tree, "player-0")) and "bot" in text_of(find(tree, "player-2"))
    for tid in ("opt-target", "opt-draw-seconds", "opt-draw-from-discard", "start-game",
                "copy-link", "add-bot"):
        assert live(tree, tid), tid
    assert find(tree, "share-link") is None   # no navigator.share: no button
    assert find(tree, "opt-target")["attrs"]["value"] == "100"
    assert find(tree, "opt-draw-seconds")["attrs"]["value"] == "none"
    ui = new_ui()
    assert tap(tree, ctx, "opt-draw-seconds", ui, m, "45") == [
        ("options", {"target": 100, "draw_seconds": 45, "draw_from_discard": False})]
    assert tap(tree, ctx, "opt-draw-from-discard", ui, m, True) == [
        ("options", {"target": 100, "draw_seconds": None, "draw_from_discard": True})]
    assert tap(tree, ctx, "opt-target", ui, m, "150")[0][1]["target"] == 150
    assert tap(tree, ctx, "start-game", ui, m) == [("start", {})]
    assert tap(tree, ctx, "add-bot", ui, m) == [("add_bot", {"level": "easy"})]
    assert tap(tree, ctx, "copy-link", ui, m) == [("copy_link", {})]


def test_lobby_model_link_wins_and_share_shows_with_navigator_share():
    m = lobby_model(2, seat=0, link="https://crisp.example/?room=abc")
    ctx = Ctx("en", can_share=True, base="http://x/")
    tree = build(m, new_ui(), ctx)
    assert text_of(find(tree, "room-link")) == "https://crisp.example/?room=abc"
    assert ctx.acts[find(tree, "share-link")["attrs"]["data-act"]] == ("intent", "share_link", {})


def test_lobby_start_needs_two_players():
    tree, ctx = show(lobby_model(1, seat=0))
    assert not live(tree, "start-game")
    m = lobby_model(8, seat=0)
    tree, ctx = show(m)
    assert live(tree, "start-game") and not live(tree, "add-bot")


def test_lobby_host_can_remove_a_bot_or_a_person_but_not_itself():
    m = lobby_model(3, seat=0)                     # seat 2 is an easy bot
    tree, ctx = show(m)
    assert find(tree, "remove-0") is None
    assert tap(tree, ctx, "remove-2", new_ui(), m) == [("remove", {"seat": 2})]
    ui = new_ui()
    assert tap(tree, ctx, "remove-1", ui, m) == []        # a person: asked first
    tree, ctx = show(m, ui)
    assert tap(tree, ctx, "remove-yes-1", ui, m) == [("remove", {"seat": 1})]
    tree, ctx = show(m)
    assert text_of(find(tree, "remove-1")) == i18n.t("en", "remove_player")
    tree, ctx = show(lobby_model(3, seat=1))       # a guest: no remove
    assert find(tree, "remove-2") is None


def test_host_may_let_a_bot_play_an_away_seat_until_it_is_back():
    m = table_model(4, seat=0)
    m.players = players(NAMES[:4], bots={3: "hard"}, away=(1, 3))
    ui = new_ui()
    ui["bot_level"] = "hard"
    tree, ctx = show(m, ui)
    assert tap(tree, ctx, "stand-in-1", ui, m) == [
        ("stand_in", {"seat": 1, "level": "hard"})]
    # here, or already played by a bot (a bot seat, or a bot standing in): no control
    assert find(tree, "stand-in-2") is None and find(tree, "stand-in-3") is None
    m.players = players(NAMES[:4], bots={1: "hard"}, away=(1,))
    tree, ctx = show(m, ui)
    assert find(tree, "stand-in-1") is None
    assert find_all(find(tree, "seat-1"), lambda nd: nd["attrs"].get("aria-label") == "Bot")
    # a guest never sees it
    g = table_model(4, seat=2)
    g.players = players(NAMES[:4], away=(1,))
    tree, ctx = show(g)
    assert find(tree, "stand-in-1") is None


def test_lobby_guest_sees_options_read_only_and_no_start():
    tree, ctx = show(lobby_model(3, seat=1))
    for tid in ("opt-target", "opt-draw-seconds", "opt-draw-from-discard"):
        node = find(tree, tid)
        assert node is not None and node["attrs"].get("disabled") and not live(tree, tid), tid
    assert find(tree, "start-game") is None and find(tree, "add-bot") is None
    assert "Ana" in text_of(find(tree, "lobby-waiting"))
    assert "you" in text_of(find(tree, "player-1"))
    # who chooses the options: the host by name, not "the host"
    assert text_of(find(tree, "options-by")) == "Ana chooses the options."
    tree, ctx = show(lobby_model(3, seat=1), lang="es")
    assert text_of(find(tree, "options-by")) == "Ana elige las opciones."


def test_names_are_text_never_markup():
    m = lobby_model(2, seat=0)
    m.lobby["players"][1]["name"] = EVIL
    m.players = m.lobby["players"]
    tree, ctx = show(m)
    row = find(tree, "player-1")
    texts = find_all(row, lambda nd: False)  # no element nodes are made from a name
    assert texts == []
    assert EVIL in text_of(row)
    assert not find_all(tree, lambda nd: nd["tag"] == "img")
    # the DOM layer never uses innerHTML / insertAdjacentHTML
    for mod in DOM_MODULES:
        src = open(mod.__file__).read() if hasattr(mod, "__file__") else ""
        assert "innerHTML =" not in src and "insertAdjacentHTML" not in src and "outerHTML" not in src


# ---- table -------------------------------------------------------------------------------

def test_every_seat_has_its_three_card_ids_and_me_is_last():
    for n in range(2, 9):
        m = table_model(n, seat=1)
        tree, ctx = show(m)
        for s in range(n):
            for p in POS:
                assert find(tree, "card-%d-%s" % (s, p)) is not None
        for tid in ("deck", "discard", "held-card", "crisp", "status", "event-log"):
            assert find(tree, tid) is not None, tid
        # no card held: no use-special / discard-held buttons at all
        assert find(tree, "use-special") is None and find(tree, "discard-held") is None
        info = table_info(m, new_ui(), Ctx())
        assert [r["seat"] for r in info["seats"]] == list(range(n))


def test_peek_shows_own_left_and_right_until_ready():
    m = table_model(3, seat=1, phase="peek", turn=None, ready=[False, False, True],
                    allowed=[{"do": "ready"}], peek_left=None,
                    reveals={(1, "left"): "2c", (1, "right"): "Kh"})
    tree, ctx = show(m)
    assert faces(tree) == {"card-1-left": "2c", "card-1-right": "Kh"}
    assert live(tree, "ready")
    assert text_of(find(tree, "status")) == i18n.t("en", "st_peek")
    assert tap(tree, ctx, "ready", new_ui(), m) == [("action", {"do": "ready"})]
    # after ready the client drops the peek: nothing stays face up (R9.2)
    m.reveals = {}
    m.view["ready"] = [False, True, True]
    m.view["allowed"] = []
    tree, ctx = show(m)
    assert faces(tree) == {}
    assert not live(tree, "ready")
    assert "2/3" in text_of(find(tree, "status"))


def test_my_turn_draw_from_deck_or_discard():
    m = table_model(4, seat=2, turn=2, discard=["9c", "4d"],
                    allowed=[{"do": "draw", "from": ["deck", "discard"]}])
    tree, ctx = show(m)
    assert live(tree, "deck") and live(tree, "discard")
    assert faces(tree) == {"discard": "4d"}
    assert not live(tree, "crisp") and find(tree, "use-special") is None
    ui = new_ui()
    assert tap(tree, ctx, "deck", ui, m) == [("action", {"do": "draw", "from": "deck"})]
    assert tap(tree, ctx, "discard", ui, m) == [("action", {"do": "draw", "from": "discard"})]
    assert text_of(find(tree, "status")) == i18n.t("en", "st_draw_both")
    assert "turn" in find(tree, "seat-2")["attrs"]["class"]
    # the deck only, when the option is off
    m.view["allowed"] = [{"do": "draw", "from": ["deck"]}]
    tree, ctx = show(m)
    assert live(tree, "deck") and not live(tree, "discard")


def test_held_card_swap_or_discard():
    m = table_model(3, seat=0, turn=0, held={"seat": 0, "from": "deck", "card": "7h"},
                    allowed=[{"do": "swap", "pos": ["left", "center", "right"]},
                             {"do": "discard"}])
    tree, ctx = show(m)
    assert faces(tree) == {"held-card": "7h"}
    assert live(tree, "discard-held") and find(tree, "use-special") is None   # no special
    assert not live(tree, "deck")
    ui = new_ui()
    for p in POS:
        assert tap(tree, ctx, "card-0-" + p, ui, m) == [("action", {"do": "swap", "pos": p})]
    assert not live(tree, "card-1-left")
    assert "7\u2665" in text_of(find(tree, "status"))
    # the others see a face-down held card
    m2 = table_model(3, seat=1, turn=0, held={"seat": 0, "from": "deck", "card": None})
    tree, ctx = show(m2)
    assert faces(tree) == {}
    assert "back" in find(tree, "held-card")["attrs"]["class"]
    assert text_of(find(tree, "status")) == "Ana drew a card\u2026"


def test_card_taken_from_the_discard_is_public():
    m = table_model(3, seat=1, turn=0, held={"seat": 0, "from": "discard", "card": "Qs"})
    tree, ctx = show(m)
    assert faces(tree) == {"held-card": "Qs"}
    assert text_of(find(tree, "status")) == "Ana took Q\u2660 from the discard\u2026"
    m.view["held"] = None
    m.view["pending_draws"] = 2
    tree, ctx = show(m)
    assert text_of(find(tree, "status")) == "Ana's extra draws: 2 left."


def test_jack_and_king_are_one_tap():
    m = table_model(2, seat=0, turn=0, held={"seat": 0, "from": "deck", "card": "Jd"},
                    allowed=[{"do": "discard"}, {"do": "jack"}])
    tree, ctx = show(m)
    assert text_of(find(tree, "use-special")) == i18n.t("en", "use_jack")
    assert tap(tree, ctx, "use-special", new_ui(), m) == [("action", {"do": "jack"})]
    m.view["held"]["card"] = "Kd"
    m.view["allowed"] = [{"do": "king"}]
    tree, ctx = show(m)
    assert not live(tree, "discard-held")
    assert tap(tree, ctx, "use-special", new_ui(), m) == [("action", {"do": "king"})]


def test_queen_flow_own_card_then_target_then_action():
    qa = {"do": "queen", "pos": ["left", "center", "right"], "targets": [0, 2],
          "target_pos": ["left", "center", "right"]}
    m = table_model(3, seat=1, turn=1, held={"seat": 1, "from": "deck", "card": "Qc"},
                    allowed=[{"do": "discard"}, qa])
    ui = new_ui()
    tree, ctx = show(m, ui)
    assert not live(tree, "card-1-left") and not live(tree, "card-0-left")
    assert tap(tree, ctx, "use-special", ui, m) == []
    tree, ctx = show(m, ui)
    assert text_of(find(tree, "status")) == i18n.t("en", "st_queen_own")
    assert live(tree, "cancel-special") and find(tree, "use-special") is None
    assert live(tree, "card-1-center") and not live(tree, "card-0-center")
    assert tap(tree, ctx, "card-1-center", ui, m) == []
    tree, ctx = show(m, ui)
    assert "picked" in find(tree, "card-1-center")["attrs"]["class"]
    assert text_of(find(tree, "status")) == i18n.t("en", "st_queen_target")
    assert live(tree, "card-0-right") and live(tree, "card-2-left")
    assert tap(tree, ctx, "card-2-left", ui, m) == [
        ("action", {"do": "queen", "pos": "center", "target": 2, "target_pos": "left"})]
    # cancel goes back to the choice
    ui["queen"] = {"pos": "left"}
    tree, ctx = show(m, ui)
    assert tap(tree, ctx, "cancel-special", ui, m) == []
    tree, ctx = show(m, ui)
    assert ui["queen"] is None and live(tree, "use-special") and not live(tree, "card-0-left")
    # and the flow ends by itself when no Queen is offered any more
    ui["queen"] = {"pos": "left"}
    m.view["allowed"] = []
    m.view["held"] = None
    tree, ctx = show(m, ui)
    assert ui["queen"] is None and find(tree, "cancel-special") is None


def test_crisp_is_live_exactly_while_allowed_with_a_countdown():
    m = table_model(3, seat=1, turn=2, crisp_window={"seat": 1, "left": 2600},
                    allowed=[{"do": "crisp"}])
    tree, ctx = show(m, elapsed=500)
    assert live(tree, "crisp")
    assert "3 s" in text_of(find(tree, "crisp"))     # 2.1 s left, shown rounded up
    assert tap(tree, ctx, "crisp", new_ui(), m) == [("action", {"do": "crisp"})]
    assert text_of(find(tree, "status")) == i18n.t("en", "st_crisp_offer")
    # another seat's window: not live for me
    m.view["crisp_window"] = {"seat": 0, "left": 2600}
    m.view["allowed"] = []
    tree, ctx = show(m)
    assert not live(tree, "crisp") and find(tree, "crisp")["attrs"].get("disabled")


def test_draw_timer_counts_down_from_the_view():
    m = table_model(3, seat=0, turn=1, draw_left=30000,
                    options={"players": 3, "target": 100, "draw_seconds": 30,
                             "draw_from_discard": False})
    tree, ctx = show(m, elapsed=12400)
    t = find(tree, "turn-timer")
    assert text_of(t) == "0:18" and t["attrs"]["data-ms"] == "17600"
    tree, ctx = show(m, elapsed=40000)
    assert text_of(find(tree, "turn-timer")) == "0:00"
    m.view["draw_left"] = 32000           # the 2 s start delay still to run: shows the limit
    tree, ctx = show(m, elapsed=500)
    t = find(tree, "turn-timer")
    assert text_of(t) == "0:30" and t["attrs"]["data-ms"] == "30000"
    tree, ctx = show(m, elapsed=3500)
    assert text_of(find(tree, "turn-timer")) == "0:29"
    m.view["draw_left"] = None
    tree, ctx = show(m)
    assert find(tree, "turn-timer") is None


def test_last_turns_show_who_called():
    m = table_model(4, seat=0, phase="last_turns", turn=3, caller=1, last_turns_left=2)
    tree, ctx = show(m)
    assert "Bob called crisp! 2 last turns" in text_of(tree)
    assert "called" in find(tree, "seat-1")["attrs"]["class"]


def test_round_over_shows_every_hand_and_the_scores():
    hands = [["5h", "Ah", "8s"], ["2c", "6d", "3h"], ["3s", "Td", "4c"]]
    m = table_model(3, seat=1, phase="round_over", turn=None, caller=1, hands=hands,
                    round_points=[14, 6, 17], scores=[14, 6, 17], allowed=[])
    tree, ctx = show(m)
    f = faces(tree)
    for s in range(3):
        for i in range(3):
            assert f["card-%d-%s" % (s, POS[i])] == hands[s][i]
    assert text_of(find(tree, "score-0")) == "14" and text_of(find(tree, "score-1")) == "6"
    assert find(tree, "round-results") is not None and find(tree, "game-over") is None
    assert "\u22125" in text_of(find(tree, "result-1"))
    assert find(tree, "next-round") is None        # a guest waits for the host
    m.seat = 0
    m.is_host = True
    m.view["seat"] = 0
    tree, ctx = show(m)
    assert tap(tree, ctx, "next-round", new_ui(), m) == [("next_round", {})]


def test_the_round_check_shows_quietly_when_it_holds_and_loudly_when_not():
    hands = [["5h", "Ah", "8s"], ["2c", "6d", "3h"], ["3s", "Td", "4c"]]
    m = table_model(3, seat=1, phase="round_over", turn=None, caller=1, hands=hands,
                    round_points=[14, 6, 17], scores=[14, 6, 17], allowed=[])
    tree, ctx = show(m)                     # a solo game, or no proof yet: nothing
    assert find(tree, "round-verified") is None and find(tree, "round-mismatch") is None
    assert find(tree, "save-record") is None
    rnd = m.view["round"]
    m.verdict = {"round": rnd, "ok": True, "skipped": [2]}
    tree, ctx = show(m)
    assert find(tree, "round-mismatch") is None
    assert "Cleo" in text_of(find(tree, "round-verified"))         # named: not in time
    assert tap(tree, ctx, "save-record", new_ui(), m) == [("save_record", {"round": rnd})]
    m.verdict = {"round": rnd, "ok": False, "skipped": [], "what": "draw", "saw": ["7h"],
                 "expected": ["3c"], "detail": "x"}
    for lang, words in (("en", "drew"), ("es", "robaste")):
        tree, ctx = show(m, lang=lang)
        node = find(tree, "round-mismatch")
        assert find(tree, "round-verified") is None and node["attrs"]["data-what"] == "draw"
        assert node["attrs"]["role"] == "alert"
        assert words in text_of(node) and "7h" in text_of(node) and "3c" in text_of(node)
    m.verdict = dict(m.verdict, what="<script>", saw=[EVIL])       # the host's words: never markup
    tree, ctx = show(m)
    assert find(tree, "round-mismatch")["attrs"]["data-what"] == "event"
    m.verdict = dict(m.verdict, round=rnd - 1)                     # another round's check
    tree, ctx = show(m)
    assert find(tree, "round-mismatch") is None


def test_a_round_dealt_again_or_not_committed_is_said_at_once_and_on_the_results():
    # issue 18, attacks 2-4: the words each page shows (ui/page/client/fairplay.py sets the verdicts)
    m = table_model(3, seat=1, phase="play", turn=2, allowed=[])
    rnd = m.view["round"]
    tree, ctx = show(m)
    assert find(tree, "fair-alarm") is None
    for what, words in (("again", "dealt this round again"), ("uncommitted", "not checked"),
                        ("unproven", "not checked")):
        m.verdict = {"round": rnd, "ok": False, "skipped": [], "what": what, "saw": [],
                     "expected": [], "detail": "x"}
        tree, ctx = show(m)
        node = find(tree, "fair-alarm")
        assert node["attrs"]["data-what"] == what and node["attrs"]["role"] == "alert"
        assert words in text_of(node)
        tree, ctx = show(m, lang="es")
        assert "quien organiza" in text_of(find(tree, "fair-alarm")).lower()
    m.verdict = dict(m.verdict, what="test_deck")        # a test build's stacked deck: quiet
    assert find(show(m)[0], "fair-alarm") is None
    hands = [["5h", "Ah", "8s"], ["2c", "6d", "3h"], ["3s", "Td", "4c"]]
    m = table_model(3, seat=1, phase="round_over", turn=None, caller=1, hands=hands,
                    round_points=[14, 6, 17], scores=[14, 6, 17], allowed=[])
    m.verdict = {"round": rnd, "ok": False, "skipped": [], "what": "uncommitted"}
    tree, ctx = show(m)
    assert find(tree, "fair-alarm") is None and find(tree, "round-verified") is None
    assert "not checked" in text_of(find(tree, "round-unchecked"))
    m.verdict = dict(m.verdict, what="unproven")          # ended with no proof: the same words
    tree, ctx = show(m)
    node = find(tree, "round-unchecked")
    assert node["attrs"]["data-what"] == "unproven" and "not checked" in text_of(node)
    assert "no se comprueba" in text_of(find(show(m, lang="es")[0], "round-unchecked"))
    m.verdict = dict(m.verdict, what="test_deck")
    tree, ctx = show(m)
    assert "test deck" in text_of(find(tree, "round-test-deck")).lower()
    assert find(tree, "round-mismatch") is None and find(tree, "round-unchecked") is None
    m.verdict = dict(m.verdict, what="again")
    assert "again" in text_of(find(show(m)[0], "round-mismatch"))
    # this page's own number named as not in time: it says so plainly
    m.verdict = {"round": rnd, "ok": True, "skipped": [1, 2]}
    tree, ctx = show(m)
    assert "not added to the shuffle" in text_of(find(tree, "fair-skipped-you"))
    m.verdict = {"round": rnd, "ok": True, "skipped": [2]}
    assert find(show(m)[0], "fair-skipped-you") is None


def test_game_over_names_the_winners():
    m = table_model(3, seat=2, phase="game_over", turn=None, winners=[0, 2],
                    hands=[["Ah", "2c", "3d"], ["Kh", "Ks", "Kd"], ["Ac", "2d", "3s"]],
                    round_points=[6, 30, 6], scores=[96, 120, 96], allowed=[])
    tree, ctx = show(m)
    w = find(tree, "winners")
    assert text_of(w) == "Winners: Ana, Cleo" and w["attrs"]["data-seats"] == "0,2"
    assert find(tree, "game-over") is not None and find(tree, "round-results") is not None
    assert text_of(find(tree, "score-1")) == "120"
    assert find(tree, "next-round") is None
    # a guest may leave, and waits for the host to start a new game
    assert find(tree, "new-game") is None
    assert "new game" in text_of(find(tree, "wait-new-game"))
    assert tap(tree, ctx, "leave", new_ui(), m) == [("leave", {})]
    m.seat = 0
    m.is_host = True
    m.view["seat"] = 0
    tree, ctx = show(m)
    assert find(tree, "wait-new-game") is None
    assert tap(tree, ctx, "new-game", new_ui(), m) == [("new_game", {})]
    assert tap(tree, ctx, "leave", new_ui(), m) == [("leave", {})]


def test_results_are_ranked_with_each_rounds_points_and_the_bonus_explained():
    """Issue 11.4: standings lowest first (R8.2), progress toward the target, the caller's
    +-5 with its reason (R7.2, R7.3), every round's points, and at game over a podium and
    the room's tally of games won (kept across New game)."""
    hands = [["5h", "Ah", "3s"], ["2c", "6d", "Ac"], ["3c", "Td", "4c"]]   # 9, 9, 17
    m = table_model(3, seat=1, phase="round_over", turn=None, caller=1, hands=hands,
                    round_points=[9, 14, 17], scores=[40, 14, 57], allowed=[])
    m.history = [[31, 0, 40], [9, 14, 17]]
    tree, ctx = show(m)
    rows = find_all(find(tree, "standings"),
                    lambda nd: nd["attrs"].get("data-testid", "").startswith("result-"))
    assert [r["attrs"]["data-testid"] for r in rows] == ["result-1", "result-0", "result-2"]
    assert [r["attrs"]["data-rank"] for r in rows] == ["1", "2", "3"]
    assert text_of(find(tree, "bonus-why")) == "crisp! +5: tied for the lowest hand"
    assert find(tree, "progress-2")["attrs"]["data-progress"] == "57"
    # the score at which the game ends, told as a distance to that end, not a goal to reach
    assert text_of(find(tree, "progress-2")) == "43 from the end"
    assert "Ends at 100" in text_of(find(tree, "standings"))
    hist = find(tree, "history")
    assert [text_of(c) for c in find(hist, "history-0")["kids"]] == ["Ana", "31", "9", "40"]
    assert "R2" in text_of(hist)
    assert find(tree, "podium") is None and find(tree, "tally") is None
    tree, ctx = show(m, lang="es")
    assert "empate" in text_of(find(tree, "bonus-why"))
    # strictly lowest: -5; higher than someone: +5, not the lowest
    m.view["round_points"] = [9, -1, 17]
    m.view["hands"] = [["5h", "Ah", "3s"], ["2c", "Ac", "Ad"], ["3c", "Td", "4c"]]
    assert text_of(find(show(m)[0], "bonus-why")) == "crisp! \u22125: the lowest hand, strictly"
    m.view["round_points"] = [9, 25, 17]
    m.view["hands"] = [["5h", "Ah", "3s"], ["Kc", "Ac", "9d"], ["3c", "Td", "4c"]]
    assert text_of(find(show(m)[0], "bonus-why")) == "crisp! +5: not the lowest hand"
    # game over: the podium, ties sharing a step, and the room's tally
    m.view.update(phase="game_over", winners=[0, 2], scores=[96, 120, 96])
    m.players[0]["wins"], m.players[1]["wins"], m.players[2]["wins"] = 1, 2, 0
    m.games = 3
    tree, ctx = show(m)
    steps = find(tree, "podium")["kids"]
    assert [(st["attrs"]["data-testid"], st["attrs"]["data-rank"]) for st in steps] == [
        ("podium-0", "1"), ("podium-2", "1"), ("podium-1", "3")]
    assert [text_of(li) for li in find(tree, "tally")["kids"][1]["kids"]] == ["Bob2", "Ana1",
                                                                            "Cleo0"]
    assert "3 games played" in text_of(find(tree, "tally"))
    assert text_of(find(tree, "progress-1")) == "reached 100"


def test_event_log_in_plain_words_newest_first():
    log = [{"type": "deal", "round": 1, "dealer": 0},
           {"type": "play", "turn": 1},
           {"type": "draw", "seat": 1, "from": "deck"},
           {"type": "swap", "seat": 1, "pos": "center", "card": "7h"},
           {"type": "turn", "seat": 2},
           {"type": "draw", "seat": 2, "from": "discard", "card": "7h"},
           {"type": "queen", "seat": 0, "pos": "left", "target": 1, "target_pos": "right"},
           {"type": "king", "seat": 2, "pending": 2},
           {"type": "timeout", "seat": 3, "card": "5d", "lost": 1},
           {"type": "timeout", "seat": 2, "card": "9c", "lost": 0, "away": True},
           {"type": "recycle", "count": 12},
           {"type": "crisp", "seat": 1}]
    m = table_model(4, seat=0, log=log)
    tree, ctx = show(m)
    lines = [text_of(li) for li in find(tree, "event-log")["kids"]]
    assert lines[0] == "Bob called crisp!"
    assert "Bob swapped their center card; 7\u2665 discarded." in lines
    assert "Cleo took 7\u2665 from the discard." in lines
    assert "You used a Queen: your left card for Bob's right card." in lines   # seat 0 is me
    assert "Cleo used a King: 2 extra draws to come." in lines
    assert "Dani ran out of time. 5\u2666 discarded. 1 extra draw lost." in lines
    assert "Cleo is away: turn skipped; 9\u2663 discarded." in lines
    assert lines[-1] == "Round 1: you deal."
    tree, ctx = show(m, lang="es")
    lines = [text_of(li) for li in find(tree, "event-log")["kids"]]
    assert "Bob ha cambiado su carta del centro; ha descartado 7\u2665." in lines
    assert "Cleo no est\u00e1: ha perdido el turno; se ha descartado 9\u2663." in lines
    # the last swap/Queen marks the moved cards once
    m.log = log[:7]
    info = table_info(m, new_ui(), Ctx())
    assert info["seats"][0]["cards"][0]["moved"] and info["seats"][1]["cards"][2]["moved"]
    assert not info["seats"][1]["cards"][1]["moved"]
    m.log = log[:8] + [{"type": "turn", "seat": 3}]
    info = table_info(m, new_ui(), Ctx())
    assert not info["seats"][0]["cards"][0]["moved"]


def test_my_own_moves_are_told_as_you_and_the_last_move_is_above_the_fold():
    """Issue 11.1: Hana reads "You called crisp!", not "Hana called crisp!" (es and en), and
    the newest move is one line next to the status, whatever the log's length."""
    log = [{"type": "deal", "round": 1, "dealer": 2},
           {"type": "play", "turn": 1},
           {"type": "draw", "seat": 1, "from": "deck"},
           {"type": "swap", "seat": 1, "pos": "center", "card": "7h"},
           {"type": "crisp", "seat": 1},
           {"type": "turn", "seat": 2}]
    m = table_model(4, seat=1, log=log, phase="last_turns", caller=1, turn=2,
                    last_turns_left=3)
    tree, ctx = show(m)
    lines = [text_of(li) for li in find(tree, "event-log")["kids"]]
    assert lines[:4] == ["Cleo's turn.", "You called crisp!",
                         "You swapped your center card; 7\u2665 discarded.",
                         "You drew from the deck."]
    assert "Play starts with you." in lines
    assert text_of(find(tree, "last-move")) == "You called crisp!"
    assert "You called crisp!" in text_of(tree)          # the status's second line too
    tree, ctx = show(m, lang="es")
    lines = [text_of(li) for li in find(tree, "event-log")["kids"]]
    assert "\u00a1Has cantado crisp!" in lines and "Has robado del mazo." in lines
    assert "Has cambiado tu carta del centro; has descartado 7\u2665." in lines
    assert text_of(find(tree, "last-move")) == "\u00a1Has cantado crisp!"
    # another seat's page says their name
    m.seat = 0
    m.view["seat"] = 0
    tree, ctx = show(m)
    assert text_of(find(tree, "last-move")) == "Bob called crisp!"
    # the deal is the first move of a round; nothing before it
    tree, ctx = show(table_model(4, seat=1, log=[{"type": "deal", "round": 1, "dealer": 0}]))
    assert text_of(find(tree, "last-move")) == "Round 1: Ana deals."
    assert find(show(table_model(4, seat=1, log=[]))[0], "last-move") is None


def test_the_player_whose_card_a_queen_took_is_told():
    queen = {"type": "queen", "seat": 0, "pos": "left", "target": 1, "target_pos": "right"}
    log = [{"type": "deal", "round": 1, "dealer": 0}, {"type": "play", "turn": 0},
           {"type": "draw", "seat": 0, "from": "deck"}, queen]
    m = table_model(3, seat=1, log=log, phase="play", turn=0)
    tree, ctx = show(m)
    notice = find(tree, "queen-notice")
    assert text_of(notice) == "Ana took your right card with a Queen and gave you their left card."
    assert "Ana used a Queen: their left card for your right card." in text_of(tree)
    tree, ctx = show(m, lang="es")
    assert "Reina" in text_of(find(tree, "queen-notice"))
    # the others are not told (the log says it to them)
    m2 = table_model(3, seat=2, log=log, phase="play", turn=0)
    assert find(show(m2)[0], "queen-notice") is None
    # it stays through the next turn, and goes after it
    m.log = log + [{"type": "turn", "seat": 1}]
    assert find(show(m)[0], "queen-notice") is not None
    m.log = log + [{"type": "turn", "seat": 1}, {"type": "turn", "seat": 2}]
    assert find(show(m)[0], "queen-notice") is None


def test_a_jack_reveal_shows_a_note_with_a_way_to_hide_it_and_crisp_stays_live():
    m = table_model(3, seat=1, phase="play", turn=1,
                    reveals={(1, "center"): "Td"},
                    allowed=[{"do": "crisp"}], crisp_window={"seat": 1, "left": 3000})
    m.reveal_until = {(1, "center"): "turn"}
    tree, ctx = show(m)
    assert "10\u2666" in text_of(find(tree, "reveal-note"))
    assert find(tree, "card-1-center")["attrs"].get("data-card") == "Td"
    assert live(tree, "crisp")
    assert tap(tree, ctx, "reveal-dismiss", new_ui(), m) == [("dismiss_reveal", {})]
    # a peek (until ready) has no such note
    m.reveal_until = {(1, "center"): None}
    assert find(show(m)[0], "reveal-note") is None


def test_a_reveals_hide_sits_beside_crisp_unless_a_held_card_fills_the_actions_row():
    # a first-time player's try: on a crowded phone the note's own row (with its button)
    # pushed crisp below the fold; the button is the actions' row's, beside crisp
    m = table_model(8, seat=1, phase="play", turn=2, reveals={(1, "center"): "Td"},
                    allowed=[{"do": "crisp"}], crisp_window={"seat": 1, "left": 3000})
    m.reveal_until = {(1, "center"): "turn"}
    tree, ctx = show(m)
    actions = [n for n in find_all(tree, lambda n: "actions" in
                                   (n.get("attrs") or {}).get("class", "").split())]
    assert len(actions) == 1 and find(actions[0], "reveal-dismiss") is not None
    assert find(find(tree, "reveal-note"), "reveal-dismiss") is None
    assert find(actions[0], "crisp") is not None
    # holding a card (a King's extra draw after a Jack): the note keeps its button
    m = table_model(8, seat=1, phase="play", turn=1, reveals={(1, "center"): "Td"},
                    held={"seat": 1, "from": "deck", "card": "5d"},
                    allowed=[{"do": "swap", "pos": ["left", "center", "right"]},
                             {"do": "discard"}])
    m.reveal_until = {(1, "center"): "turn"}
    tree, ctx = show(m)
    assert find(find(tree, "reveal-note"), "reveal-dismiss") is not None
    assert len(find_all(tree, lambda n: (n.get("attrs") or {}).get("data-testid")
                        == "reveal-dismiss")) == 1


def test_every_card_movement_is_a_flight_from_its_place_to_its_place():
    from ui.page.screens import cues
    swap = {"type": "swap", "seat": 2, "pos": "left", "card": "9c", "taken": "4h"}
    assert cues.flights([swap]) == [
        {"from": "held-card", "to": "card-2-left", "card": "4h", "delay": 0},
        {"from": "card-2-left", "to": "discard", "card": "9c", "delay": 0}]
    queen = {"type": "queen", "seat": 0, "card": "Qd", "pos": "center", "target": 3,
             "target_pos": "right"}
    got = cues.flights([{"type": "draw", "seat": 0, "from": "deck"}, queen,
                        {"type": "turn", "seat": 1}])
    assert [(f["from"], f["to"], f["card"], f["delay"]) for f in got] == [
        ("deck", "held-card", None, 0),
        ("held-card", "discard", "Qd", cues.FLIGHT_MS),
        ("card-0-center", "card-3-right", None, 2 * cues.FLIGHT_MS),
        ("card-3-right", "card-0-center", None, 2 * cues.FLIGHT_MS)]
    assert cues.flights([{"type": "draw", "seat": 1, "from": "discard", "card": "5s"}]) == [
        {"from": "discard", "to": "held-card", "card": "5s", "delay": 0}]
    forced = {"type": "timeout", "seat": 1, "card": "5d", "forced": True, "lost": 0}
    assert cues.flights([forced])[0]["from"] == "deck"
    # private events never fly; a backlog plays its last steps only
    assert cues.flights([{"type": "reveal", "to": 1, "cards": []}]) == []
    many = [{"type": "discard", "seat": 1, "card": "2c"}] * 10
    assert len(cues.flights(many)) == cues.MAX_STEPS
    assert 300 <= cues.FLIGHT_MS <= 450


def test_a_call_your_turn_and_the_end_are_cues_new_events_only():
    from ui.page.screens import cues
    draw = [{"do": "draw", "from": "deck"}]
    view = {"phase": "last_turns", "turn": 2, "last_turns_left": 2, "caller": 1,
            "allowed": draw}
    assert cues.cue([{"type": "crisp", "seat": 1}], 2, view) == {
        "kind": "crisp", "seat": 1, "n": 2, "mine": True}
    assert cues.cue([{"type": "crisp", "seat": 1}], 0, view)["mine"] is False
    assert cues.cue([{"type": "turn", "seat": 2}], 2, view)["kind"] == "last_turn"
    mine = {"phase": "play", "turn": 2, "allowed": draw}
    assert cues.cue([{"type": "turn", "seat": 2}], 2, mine)["kind"] == "your_turn"
    assert cues.cue([{"type": "play", "turn": 2}], 2, mine)["kind"] == "your_turn"
    assert cues.cue([{"type": "turn", "seat": 1}], 2, mine) is None
    assert cues.cue([{"type": "round_over"}, {"type": "game_over", "winners": [0]}], 2,
                    {"phase": "game_over"})["kind"] == "game_over"
    for kind in ("your_turn", "last_turn", "crisp", "round_over", "game_over"):
        assert cues.TONES[kind] and cues.VIBRATIONS[kind]
    log = [{"type": "deal"}, {"type": "play", "turn": 0}, {"type": "draw", "seat": 0}]
    assert cues.new_events(log, log[1]) == [log[2]]
    assert cues.new_events(log, log[2]) == []
    assert cues.new_events(log, None) == []                   # a first look plays nothing
    assert cues.new_events(log, {"type": "deal"}) == []        # the log started over


def test_the_announcement_shows_for_a_while_in_a_live_region():
    m = table_model(3, seat=2, phase="last_turns", caller=1, turn=2, last_turns_left=2)
    ui = new_ui()
    ui["announce"] = {"kind": "crisp", "seat": 1, "n": 2, "mine": True, "at": 1000}
    tree, ctx = show(m, ui, now=1500)
    ann = find(tree, "announce")
    assert text_of(ann) == "Bob called CRISP!Your last turn!"
    assert ann["attrs"]["data-kind"] == "crisp"
    slot = find_all(tree, lambda nd: "announce-slot" in nd["attrs"].get("class", ""))[0]
    assert slot["attrs"]["aria-live"] == "assertive"
    assert find(show(m, ui, now=1000 + 2400)[0], "announce") is None
    ui["announce"] = {"kind": "your_turn", "seat": 2, "n": 0, "at": 0}
    assert text_of(find(show(m, ui, lang="es")[0], "announce")) == "\u00a1Tu turno!"


def test_a_long_name_in_the_announcement_is_cut_at_a_letter_then_one_space():
    # the page's ellipsis (CSS text-overflow) cut "Maximiliano Quintero" after its space and
    # left the box's spare width too: "Maximiliano \u2026   called CRISP!" (issue 20.14)
    from ui.page.screens.statusbar import ANNOUNCE_NAME, ANNOUNCE_NAME_CROWDED, cut_name
    assert cut_name("Ana", 12) == "Ana"
    assert cut_name("Maximiliano Quintero", 12) == "Maximiliano\u2026"
    assert cut_name("Maximiliano Quintero", 10) == "Maximilia\u2026"
    assert cut_name("\u2068Bea Martinez Lopez\u2069", 13) == "\u2068Bea Martinez\u2026\u2069"
    assert cut_name("Ana  B      ", 5) == "Ana\u2026"
    assert ANNOUNCE_NAME_CROWDED < ANNOUNCE_NAME
    for n, limit in ((3, ANNOUNCE_NAME), (6, ANNOUNCE_NAME_CROWDED)):
        names = ["Ana", "Maximiliano Quintero"] + NAMES[2:n]
        m = table_model(n, seat=2, phase="last_turns", caller=1, turn=2, last_turns_left=2,
                        names=names)
        ui = new_ui()
        ui["announce"] = {"kind": "crisp", "seat": 1, "n": 2, "mine": True, "at": 1000}
        for lang, said in (("en", "%s called CRISP!"), ("es", "\u00a1%s canta CRISP!")):
            ann = find(show(m, ui, now=1500, lang=lang)[0], "announce")
            cut = cut_name("Maximiliano Quintero", limit)
            assert text_of(ann["kids"][0]) == said % cut, text_of(ann)
            assert (said % "Maximiliano Quintero") in ann["attrs"]["title"]


def test_a_name_in_the_announcement_is_cut_between_whole_characters():
    # cut_name counted code points: a cut could leave part of an emoji sequence (a family
    # turned into a couple), half a flag, a letter without its accent (names.cut_whole). It
    # counts width now (tests/test_graphemes.py): a family is one picture, 2 letters wide
    from ui.page.screens.statusbar import cut_name
    zwj = "\u200d"
    family = zwj.join(["\U0001F468", "\U0001F469", "\U0001F467", "\U0001F466"])  # 7 each
    assert cut_name(family * 3, 12) == family * 3                   # 6 letters wide
    assert cut_name(family * 8, 12) == family * 5 + "\u2026"
    assert cut_name("Ana " + family * 5, 10) == "Ana " + family * 2 + "\u2026"
    flag = "\U0001F1EA\U0001F1F8"                                     # two halves: Spain
    assert cut_name("Maximilian" + flag + " Quintero", 12) == "Maximilian\u2026"
    assert cut_name("Maximilia" + flag + " Quintero", 12) == "Maximilia" + flag + "\u2026"
    assert cut_name("Maximiliannx\u0304 Quintero", 12) == "Maximiliann\u2026"
    assert cut_name("Maximilianx\u0304 Quintero", 12) == "Maximilianx\u0304\u2026"  # x, macron
    assert cut_name("\u2068Maximilianx\u0304 Q\u2069", 12) == "\u2068Maximilianx\u0304\u2026\u2069"
    assert cut_name("Maximixy\u0304\U0001F44D\U0001F3FD Quintero", 10) == "Maximixy\u0304\u2026"
    # nothing whole fits before the cut: the name as it is (the page's ellipsis cuts it)
    big = zwj.join(["\U0001F468\U0001F3FB", "\U0001F469\U0001F3FB", "\U0001F467\U0001F3FB",
                    "\U0001F466\U0001F3FB"])                           # 11, skin tones
    assert cut_name(big + " Ana", 10) == big + " Ana"
    assert cut_name(big + " Ana", 2) == big + " Ana"


def test_a_menu_on_every_screen_with_the_rules_sound_language_and_leave():
    for model in (None, lobby_model(3, seat=1), table_model(3, seat=1)):
        ui = new_ui()
        tree, ctx = show(model, ui)
        assert find(tree, "menu-panel") is None
        assert tap(tree, ctx, "menu", ui, model) == []
        tree, ctx = show(model, ui)
        panel = find(tree, "menu-panel")
        rules = text_of(find(tree, "menu-rules"))
        for k in ("rules_goal", "rules_crisp", "rules_queen", "rules_score"):
            assert i18n.t("en", k) in rules
        # sound: on by default; a tap turns it off (the page stores it)
        assert find(tree, "sound-toggle")["attrs"]["aria-pressed"] == "true"
        assert tap(tree, ctx, "sound-toggle", ui, model) == [("sound", False)]
        tree, ctx = show(model, ui)
        assert find(tree, "sound-toggle")["attrs"]["aria-pressed"] == "false"
        assert tap(tree, ctx, "menu-lang", ui, model, "es") == [("lang", "es")]
        tree, ctx = show(model, ui, lang="es")
        assert "Men\u00fa" in text_of(find(tree, "menu"))
        if model is None:
            assert find(tree, "menu-leave") is None        # the landing is no room to leave
        else:
            assert tap(tree, ctx, "menu-leave", ui, model) == []   # asked first
            tree, ctx = show(model, ui)
            assert find(tree, "menu-leave-confirm") is not None
            assert tap(tree, ctx, "menu-leave-confirm", ui, model) == [("leave", {})]
        assert panel is not None
        assert tap(tree, ctx, "menu-close", ui, model) == []
        assert find(show(model, ui)[0], "menu-panel") is None


def test_the_tables_menu_invites_with_the_link_code_and_qr_on_every_seated_page():
    from ui.page.screens import invite
    for seat, lang in ((0, "en"), (1, "es"), (2, "en")):
        model = table_model(3, seat=seat)
        model.room = "crisp-7KQ2M9XRTB"
        ui = new_ui(lang)
        tree, ctx = show(model, ui, lang=lang)
        assert find(tree, "menu-invite") is None           # only in the open menu
        tap(tree, ctx, "menu", ui, model)
        tree, ctx = show(model, ui, lang=lang)
        box = find(tree, "menu-invite")
        assert box is not None and find(box, "lobby-code") is not None
        assert text_of(find(box, "lobby-code")) == "7KQ2M-9XRTB"
        assert text_of(find(box, "room-link")) == "http://x/?room=crisp-7KQ2M9XRTB"
        assert i18n.t(lang, "invite_table_hint") in text_of(box)
        assert tap(tree, ctx, "copy-link", ui, model) == [("copy_link", {})]
        invite.qr_style("http://x/?room=crisp-7KQ2M9XRTB")
        tree, ctx = show(model, ui, lang=lang)
        assert find(find(tree, "menu-invite"), "room-qr") is not None
    # a spectator, and a solo game, invite nobody from the menu
    watcher = table_model(3, seat=1)
    watcher.seat, watcher.spectator, watcher.room = None, True, "crisp-7KQ2M9XRTB"
    solo = table_model(3, seat=0)
    solo.solo, solo.room = True, "crisp-7KQ2M9XRTB"
    for model in (watcher, solo):
        ui = new_ui()
        ui["menu_open"] = True
        assert find(show(model, ui)[0], "menu-invite") is None


def test_a_room_code_is_typed_forgivingly_and_opens_that_rooms_guest_page():
    from ui.shared import roomcode
    code = "7KQ2M9XRTB"
    for typed in ("7KQ2M-9XRTB", "7kq2m 9xrtb", " 7kq2m-9xrtb ", "7KQ2M9XRTB",
                  "7kq2m-9xrtb".replace("0", "o"), "crisp-7KQ2M9XRTB",
                  "http://192.168.1.20:8000/?room=crisp-7KQ2M9XRTB"):
        assert roomcode.parse(typed) == code, typed
    assert roomcode.parse("1O0IL") is None and roomcode.parse("") is None
    assert roomcode.parse("7KQ2M-9XRT!") is None and roomcode.parse("7KQ2M-9XRTBB") is None
    assert roomcode.parse("O1LIU-00000") == "0111V00000"           # look-alikes read as meant
    assert roomcode.show(code) == "7KQ2M-9XRTB"
    assert roomcode.code_of("crisp-" + code) == code
    assert roomcode.code_of("crisp-" + "ab" * 16) is None           # an older, longer id
    # the landing: a code field and a button live only for a code
    ui = new_ui()
    tree, ctx = show(None, ui)
    assert not live(tree, "join-code")
    assert tap(tree, ctx, "room-code", ui, None, "7kq2m 9xrt") == []
    tree, ctx = show(None, ui)
    assert not live(tree, "join-code")
    assert "not a room code" in text_of(tree)
    tap(tree, ctx, "room-code", ui, None, "7kq2m 9xrtb")
    tree, ctx = show(None, ui)
    assert tap(tree, ctx, "join-code", ui, None) == [("join_code", {"room": "crisp-" + code,
                                                                    "name": ""})]
    # a whole room link pasted in fits the field (a hosted build's link is long) and joins
    link = ("https://crisp-cards.example.org/play/crisp/?room=crisp-7KQ2M9XRTB"
            "&hostgone=30000#table")
    assert int(find(tree, "room-code")["attrs"]["maxlength"]) >= len(link) + 100
    ui["code"] = link
    tree, ctx = show(None, ui)
    assert tap(tree, ctx, "join-code", ui, None) == [("join_code", {"room": "crisp-" + code,
                                                                    "name": ""})]


def test_the_lobby_shows_the_code_and_warns_when_the_link_is_this_computers_only():
    from ui.shared import roomcode
    m = lobby_model(3, seat=0)
    m.room = "crisp-7KQ2M9XRTB"
    m.link = "http://127.0.0.1:8000/?room=crisp-7KQ2M9XRTB"
    tree, ctx = show(m)
    assert text_of(find(tree, "lobby-code")) == "7KQ2M-9XRTB"
    assert "http://192.168" in text_of(find(tree, "link-warning"))
    assert "serve.sh" not in text_of(find(tree, "link-warning"))      # player words (issue 20.13)
    for local in ("http://localhost:8000/?room=x", "http://127.0.0.1/?room=x",
                  "http://[::1]:8000/?room=x", "https://app.localhost/?room=x"):
        assert roomcode.is_local_link(local), local
    for lan in ("http://192.168.1.20:8000/?room=x", "https://example.github.io/crisp/?room=x",
                "http://localhost.example.com/?room=x"):
        assert not roomcode.is_local_link(lan), lan
    m.link = "http://192.168.1.20:8000/?room=crisp-7KQ2M9XRTB"
    assert find(show(m)[0], "link-warning") is None
    # a guest sees whom they wait for first, the invitation last
    g = lobby_model(3, seat=1)
    g.room = m.room
    kids = find_all(show(g)[0], lambda nd: nd["tag"] == "main")[0]["kids"]
    assert find(kids[0], "lobby-waiting") is not None and find(kids[-1], "lobby-code")


def test_small_things_an_empty_discard_says_what_it_is_and_no_dead_buttons():
    """Issue 11.9: the empty discard slot has its label; "Use special" only for a special;
    the dealer badge is an icon with its word; one ellipsis while a guest waits; a link to
    no room shows no join form."""
    tree, ctx = show(table_model(3, seat=1, discard=[]))
    assert text_of(find(tree, "discard")) == "Discard"
    m = table_model(3, seat=1, held={"seat": 1, "from": "deck", "card": "5d"},
                    allowed=[{"do": "swap", "pos": list(POS)}, {"do": "discard"}])
    assert find(show(m)[0], "use-special") is None
    dealer = find_all(show(m, lang="es")[0],
                      lambda nd: "dealer" in nd["attrs"].get("class", "").split())
    assert dealer and all(d["attrs"]["aria-label"] == "Reparte" for d in dealer)
    waiting = text_of(find(show(lobby_model(3, seat=1))[0], "lobby-waiting"))
    assert waiting == "Waiting for Ana to start the game"       # the page adds the dots
    gone = FakeClient(screen="join", status="no_room", room="crisp-7KQ2M9XRTB")
    tree, ctx = show(gone)
    assert find(tree, "player-name") is None and find(tree, "join-room") is None
    assert live(tree, "leave")                                  # the banner's way back


def test_evil_name_at_the_table_is_plain_text():
    m = table_model(3, seat=0, turn=1, names=["Ana", EVIL, "Cleo"],
                    log=[{"type": "crisp", "seat": 1}])
    tree, ctx = show(m)
    assert EVIL in text_of(find(tree, "seat-1"))
    assert text_of(find(tree, "event-log")["kids"][0]) == EVIL + " called crisp!"
    assert text_of(find(tree, "status")) == EVIL + "'s turn."


def test_only_allowed_actions_are_live():
    """Every live control maps to an entry of view["allowed"] (or a local step)."""
    m = table_model(4, seat=3, turn=3, allowed=[{"do": "draw", "from": ["deck"]}])
    tree, ctx = show(m)
    lived = sorted([nd["attrs"]["data-testid"] for nd in
                    find_all(tree, lambda nd: nd["attrs"].get("data-act")
                             and nd["attrs"].get("data-testid", "").split("-")[0]
                             not in ("lang", "menu", "react"))])   # (react: a local step)
    assert lived == ["deck"]


def test_errors_and_connection_banner():
    m = table_model(3, seat=0)
    m.error = {"code": "not_your_turn", "text": "not your turn"}
    m.status = "reconnecting"
    tree, ctx = show(m)
    assert text_of(find(tree, "error")) == "It's not your turn."
    # the host is the room: only a discreet note that new players can't join now
    assert text_of(find(tree, "connection")) == i18n.t("en", "conn_host_offline")
    m.error = {"code": "weird", "text": "Something odd"}
    tree, ctx = show(m)
    assert text_of(find(tree, "error")) == "Something odd"


def test_gone_screen_explains_why():
    m = FakeClient(screen="gone", error={"code": "room_full", "text": "full"})
    tree, ctx = show(m, lang="es")
    assert text_of(find(tree, "gone")) == i18n.t("es", "gone_room_full")
    assert find(tree, "error") is None        # said once, not again in a toast
    m = FakeClient(screen="gone", status="host_gone")
    tree, ctx = show(m)
    assert text_of(find(tree, "gone")) == i18n.t("en", "gone_host")


def test_card_faces_are_drawn_from_the_code():
    assert cards.label("Th") == "10\u2665" and cards.color("Th") == "red"
    assert cards.label("As") == "A\u2660" and cards.color("Ks") == "black"
    node = render_card("Qd")
    assert node["attrs"]["data-card"] == "Qd" and "red" in node["attrs"]["class"]
    assert "Q" in text_of(node) and "\u2666" in text_of(node)
    back = render_card(None)
    assert "data-card" not in back["attrs"] and "back" in back["attrs"]["class"]


def render_card(code):
    from ui.page.screens.widgets import card_node
    return card_node(code, {"data-testid": "x"}, "lg")


# ---- the room link's QR code -----------------------------------------------------------

# "Crisp!" at level M with mask 2, as drawn by another encoder (the qrcode package).
QR_CRISP_M2 = [
    "#######...###.#######",
    "#.....#.....#.#.....#",
    "#.###.#.#.###.#.###.#",
    "#.###.#.#.....#.###.#",
    "#.###.#.##.##.#.###.#",
    "#.....#.###.#.#.....#",
    "#######.#.#.#.#######",
    "........#..##........",
    "#.#####..##.#.#####..",
    "#.##.#.#....#..#..###",
    "...#.##.#..#.#..#..#.",
    ".#.##..##......######",
    "....####.#.#.#..#....",
    "........##.#####.....",
    "#######.....#.##.###.",
    "#.....#.#..####..##.#",
    "#.###.#.###.#..#.#.#.",
    "#.###.#.#.#.#..##.#..",
    "#.###.#.####.#.#.#...",
    "#.....#...#....#.##..",
    "#######.#..#.#.#.#.#.",
]


def test_qr_code_matches_a_known_encoding():
    from ui.page.screens import qr
    rows = qr.matrix("Crisp!", "M", mask=2)
    assert ["".join(["#" if v else "." for v in r]) for r in rows] == QR_CRISP_M2


def _reference_penalty(rows):
    """ISO/IEC 18004's mask penalty, module by module (what ui/page/screens/qr.py computes faster)."""
    n = len(rows)

    def line(cells):
        score, run = 0, 1
        for i in range(1, len(cells) + 1):
            if i < len(cells) and cells[i] == cells[i - 1]:
                run += 1
            else:
                if run >= 5:
                    score += run - 2
                run = 1
        text = "".join(["1" if v else "0" for v in cells])
        for pat in ("10111010000", "00001011101"):
            for i in range(len(text) - len(pat) + 1):
                if text[i:i + len(pat)] == pat:
                    score += 40
        return score

    score = sum([line(r) for r in rows]) + sum([line([r[x] for r in rows]) for x in range(n)])
    dark = 0
    for y in range(n):
        for x in range(n):
            dark += 1 if rows[y][x] else 0
            if x < n - 1 and y < n - 1 and \
                    rows[y][x] == rows[y][x + 1] == rows[y + 1][x] == rows[y + 1][x + 1]:
                score += 3
    total = n * n
    return score + 10 * ((abs(dark * 20 - total * 10) + total - 1) // total - 1)


def test_qr_code_takes_the_mask_of_least_penalty():
    from ui.page.screens import qr
    link = "http://192.168.1.20:8000/?room=crisp-7KQ2M9XRTB"
    masked = [qr.matrix(link, "M", mask=m) for m in range(8)]
    penalties = [_reference_penalty(rows) for rows in masked]
    for rows, penalty in zip(masked, penalties):
        assert qr._penalty_rows([qr._bits(r) for r in rows]) == penalty
    assert qr.matrix(link, "M") == masked[penalties.index(min(penalties))]


def test_qr_code_masks_only_data_modules():
    from ui.page.screens import qr
    # the finder pattern's corner and the timing pattern are the same under every mask
    for m in range(8):
        rows = qr.matrix("Crisp!", "L", mask=m)
        assert rows[0][:7] == [True] * 7 and rows[6][8:13] == [True, False, True, False, True]


def test_lobby_shows_a_qr_code_of_the_link():
    from ui.page.screens import qr
    link = "https://someone.github.io/crisp/?room=crisp-5c97a374b24fdd9b081a27d1c9fb54ae"
    rows = qr.matrix(link)
    assert len(rows) == 37                       # version 5 at level M
    m = lobby_model(2, seat=1, link=link)
    # the first render leaves the code for after it (ctx.later, a task of its own): its
    # place is kept meanwhile
    tree, ctx = show(m)
    assert find(tree, "room-qr") is None and ("qr", link) in ctx.later
    assert "with-qr" in find_all(tree, lambda n: "share-body" in n["attrs"].get("class", ""))[0][
        "attrs"]["class"]
    # drawn a step at a time (a task each on the page): the encoding, each of 8 masks, the
    # drawing; shown in a step of its own (with the render that follows it on the page)
    steps = 0
    while not screens.do_later(ctx.later[0]):
        steps += 1
        assert find(show(m)[0], "room-qr") is None
    assert steps == 10
    tree, ctx = show(m)
    assert ctx.later == []
    style = find(tree, "room-qr")["attrs"]["style"]
    assert style.startswith('background-image: url("data:image/svg+xml,%3Csvg')
    assert qr.svg_path(rows) in style and "<" not in style


# ---- the catalogue ---------------------------------------------------------------------

def test_catalogue_has_the_same_keys_and_placeholders_in_both_languages():
    assert sorted(i18n.EN.keys()) == sorted(i18n.ES.keys())
    for k in i18n.EN:
        assert placeholders(i18n.EN[k]) == placeholders(i18n.ES[k]), k


def placeholders(s):
    out = []
    i = s.find("{")
    while i >= 0:
        j = s.find("}", i)
        out.append(s[i + 1:j])
        i = s.find("{", j)
    return sorted(out)


# ---- CPython only: the source, and real Clients fed by the real Room and engine ----------

def test_every_catalogue_key_the_screens_use_exists():
    import re
    src = "".join([open(mod.__file__, encoding="utf-8").read() for mod in SCREEN_MODULES])
    used = set(re.findall(r'ctx\.t\("([a-z0-9_]+)"[,)]', src))
    used |= set([k + "_one" for k in re.findall(r'ctx\.tn\("([a-z0-9_]+)"[,)]', src)])
    # the keys made from a value
    used |= set(["pos_" + p for p in POS] + ["use_" + k for k in ("jack", "queen", "king")]
                + ["conn_" + k for k in ("connecting", "reconnecting", "host_gone")])
    assert len(used) > 60
    missing = sorted(k for k in used if k not in i18n.EN)
    assert not missing, missing


def visible_cards(client):
    """What this seat may see right now, from the model itself (R9): public hands, the held
    card when the view shows it, the discard top, the cards shown once."""
    view = client.view
    out = {}
    for s, hand in enumerate(view["hands"]):
        for i, c in enumerate(hand):
            if c:
                out["card-%d-%s" % (s, POS[i])] = c
    for (s, p), c in client.reveals.items():
        if p != "held":
            out["card-%d-%s" % (s, p)] = c
    if view["held"] and view["held"]["card"]:
        out["held-card"] = view["held"]["card"]
    if view["discard"]:
        out["discard"] = view["discard"][-1]
    return out


def check_screen(client, ui):
    tree, ctx = show(client, ui)
    if client.screen != "table":
        return tree, ctx
    f = faces(tree)
    f.pop(None, None)  # the small cards of the results table (hands are public then)
    assert f == visible_cards(client), (client.seat, f, visible_cards(client))
    allowed = viewmodel.allowed_map(client.view)
    assert live(tree, "crisp", False) == ("crisp" in allowed)
    assert live(tree, "deck") == ("draw" in allowed)
    assert live(tree, "discard-held", False) == ("discard" in allowed)
    assert live(tree, "ready", False) == ("ready" in allowed)
    assert live(tree, "next-round", False) == (client.is_host and "next_round" in allowed)
    phase = client.view["phase"]
    assert (find(tree, "crisp") is not None) == (phase in ("play", "last_turns"))
    assert (find(tree, "ready") is not None) == (phase == "peek")
    for s in range(client.view["players"]):
        for p in POS:
            assert find(tree, "card-%d-%s" % (s, p)) is not None
    check_card_names(tree)
    return tree, ctx


def accessible_name(node):
    """A node's name as a screen reader gets it here: aria-label, else (the text being hidden)
    its title (card faces)."""
    return node["attrs"].get("aria-label") or node["attrs"].get("title")


def check_card_names(tree):
    """Every game card has an accessible name; a card shows its name exactly when it shows
    its face (the name never tells what a face-down card is)."""
    for node in find_all(tree, lambda nd: "card" in str(nd["attrs"].get("class", "")).split()
                         and "aria-hidden" not in nd["attrs"]):
        label = accessible_name(node)
        assert label, node["attrs"]
        code = node["attrs"].get("data-card")
        named = [c for c in ALL_CODES if card_name(EN_CTX, c) in label]
        if code:
            assert card_name(EN_CTX, code) in label, (code, label)
        else:
            assert named == [], label


ALL_CODES = [r + u for r in "A23456789TJQK" for u in "cdhs"]
EN_CTX = Ctx("en")


class Player:
    """One seat driven only through its screen: find the element, tap it, send the intent
    the way ui/page/base_page.py does."""

    def __init__(self, net, conn):
        self.net = net
        self.conn = conn
        self.ui = new_ui("en")

    @property
    def client(self):
        return self.net.clients[self.conn]

    def tap(self, testid, value=None):
        tree, ctx = check_screen(self.client, self.ui)
        for name, payload in tap(tree, ctx, testid, self.ui, self.client, value):
            if name == "action":
                self.client.act(payload)
            elif name == "options":
                msg = {"type": "options"}
                msg.update(payload)
                self.client.host(msg)
            elif name == "dismiss_reveal":
                self.client.dismiss_reveals()
            elif name in ("start", "next_round"):
                self.client.host({"type": name})
            elif name == "add_bot":
                self.client.host({"type": "add_bot", "level": payload["level"]})
            else:
                raise AssertionError(name)
        assert self.client.error is None, self.client.error
        for c in self.net.clients.values():
            check_screen(c, new_ui())

    def status(self):
        return text_of(find(show(self.client, self.ui)[0], "status"))


def test_a_whole_round_played_by_taps_shows_only_what_each_seat_may_see():
    from roomnet import Net
    from test_room import DECK
    net = Net(deck=DECK)
    net.host.join("Host")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    h, a, b = Player(net, "local"), Player(net, "a"), Player(net, "b")
    tree, ctx = check_screen(net.host, h.ui)
    assert text_of(find(tree, "room-link")).endswith("?room=room-test")
    h.tap("opt-draw-from-discard", True)
    assert net.clients["b"].lobby["options"]["draw_from_discard"] is True
    h.tap("opt-draw-from-discard", False)
    h.tap("start-game")
    # peek: left and right face up for their owner only (R2.4)
    tree, _ = check_screen(a.client, a.ui)
    assert faces(tree) == {"card-1-left": "2c", "card-1-right": "5h"}
    for p in (h, a, b):
        p.tap("ready")
    assert faces(check_screen(a.client, a.ui)[0]) == {}
    assert a.status() == "Your turn: tap the deck to draw."
    assert b.status() == "Ana's turn."
    a.tap("deck")
    assert faces(check_screen(a.client, a.ui)[0]) == {"held-card": "6d"}
    a.tap("card-1-center")
    net.later(2000)
    b.tap("deck")
    b.tap("use-special")                      # Jack: own center shown once (R4.4)
    assert faces(check_screen(b.client, b.ui)[0]) == {"card-2-center": "Td", "discard": "Jc"}
    net.later(3000)
    b.client.tick(net.clock)
    # the next turn began with the Jack's message: the card stays up through it (issue 11.2)
    assert faces(check_screen(b.client, b.ui)[0]) == {"card-2-center": "Td", "discard": "Jc"}
    b.tap("reveal-dismiss")
    assert faces(check_screen(b.client, b.ui)[0]) == {"discard": "Jc"}
    h.tap("deck")
    h.tap("use-special")                      # Queen: own left with Ana's right
    h.tap("card-0-left")
    h.tap("card-1-right")
    assert faces(check_screen(h.client, h.ui)[0])["card-0-left"] == "5h"
    assert faces(check_screen(a.client, a.ui)[0])["card-1-right"] == "7h"
    assert "card-0-left" not in faces(check_screen(b.client, b.ui)[0])
    net.later(2000)
    a.tap("deck")
    a.tap("use-special")                      # King
    a.tap("deck")
    a.tap("card-1-right")
    a.tap("deck")
    a.tap("discard-held")
    net.later(500)
    tree, _ = check_screen(a.client, a.ui)
    assert live(tree, "crisp")
    a.tap("crisp")
    assert "Ana called crisp! 2 last turns" in text_of(check_screen(b.client, b.ui)[0])
    b.tap("deck")
    b.tap("discard-held")
    h.tap("deck")
    h.tap("discard-held")
    for p in (h, a, b):
        tree, _ = check_screen(p.client, p.ui)
        assert find(tree, "round-results") is not None
        assert text_of(find(tree, "score-1")) == "6"
    lines = [text_of(li) for li in find(check_screen(b.client, b.ui)[0], "event-log")["kids"]]
    assert "Ana called crisp!" in lines
    assert "Host used a Queen: their left card for Ana's right card." in lines
    assert not net.leaks
    assert find(check_screen(a.client, a.ui)[0], "next-round") is None
    h.tap("next-round")
    assert net.clients["b"].view["round"] == 2
    assert find(check_screen(b.client, b.ui)[0], "ready") is not None


# ---- accessibility ------------------------------------------------------------------------

def test_cards_and_piles_have_accessible_names_that_never_tell_a_hidden_card():
    m = table_model(3, seat=1, reveals={"1:left": "Qh"}, discard=["Tc", "7s"],
                    held={"seat": 1, "from": "deck", "card": "5d"},
                    allowed=[{"do": "swap", "pos": list(POS)}, {"do": "discard"}])
    tree, ctx = show(m)
    label = lambda tid: accessible_name(find(tree, tid))
    assert label("card-1-left") == "your left card, Queen of hearts"
    assert label("card-1-center") == "your center card, face down"
    assert label("card-0-right") == "Ana's right card, face down"
    assert label("discard") == "Discard pile, 7 of spades on top"
    assert label("held-card") == "Your card, 5 of diamonds"
    assert label("deck") == "Deck, 40 cards"
    check_card_names(tree)
    tree, ctx = show(m, lang="es")
    label = lambda tid: accessible_name(find(tree, tid))
    assert label("card-1-center") == "tu carta del centro, boca abajo"
    assert label("card-2-left") == "la carta de la izquierda de Cleo, boca abajo"
    assert label("card-1-left") == "tu carta de la izquierda, Reina de corazones"
    m.view["held"] = {"seat": 2, "from": "deck", "card": None}
    tree, ctx = show(m)
    assert find(tree, "held-card")["attrs"]["aria-label"] == "Cleo's card, face down"
    assert find(tree, "held-card")["attrs"]["role"] == "img"


def test_controls_have_names_and_the_log_is_a_polite_live_region():
    tree, ctx = show(table_model(4, seat=1, draw_left=9000, log=[{"type": "turn", "seat": 1}],
                                 options={"players": 4, "target": 100, "draw_seconds": 30,
                                          "draw_from_discard": False}))
    for node in find_all(tree, lambda nd: nd["tag"] == "button"):
        assert text_of(node).strip() or node["attrs"].get("aria-label"), node["attrs"]
    # the visible "ES" is part of the name (axe: label-content-name-mismatch)
    assert find(tree, "lang-es")["attrs"]["aria-label"] == "ES, Espa\u00f1ol"
    region = find_all(tree, lambda nd: nd["attrs"].get("role") == "log")
    assert len(region) == 1 and region[0]["attrs"]["aria-live"] == "polite"
    log = find(region[0], "event-log")
    assert log["tag"] == "ol" and log["attrs"]["tabindex"] == "0"   # it scrolls: focusable
    assert [k.get("key") for k in log["kids"]] == [0]
    timer = find(tree, "turn-timer")
    assert timer["attrs"]["role"] == "timer" and timer["attrs"]["aria-label"] == "Time left to draw: 0:09"


def test_results_sheet_can_be_put_down_to_see_the_table_and_opens_again_next_round():
    hands = [["5h", "Ah", "8s"], ["2c", "6d", "3h"], ["3s", "Td", "4c"]]
    m = table_model(3, seat=0, phase="round_over", turn=None, caller=1, hands=hands,
                    round_points=[14, 6, 17], scores=[14, 6, 17],
                    allowed=[{"do": "next_round"}])
    ui = new_ui()
    tree, ctx = show(m, ui)
    sheet_body = find_all(tree, lambda nd: nd["attrs"].get("id") == "sheet-body")[0]
    toggle = find(tree, "toggle-results")
    assert not sheet_body["attrs"]["hidden"] and toggle["attrs"]["aria-expanded"] == "true"
    assert tap(tree, ctx, "toggle-results", ui, m) == []
    tree, ctx = show(m, ui)
    sheet_body = find_all(tree, lambda nd: nd["attrs"].get("id") == "sheet-body")[0]
    assert sheet_body["attrs"]["hidden"] is True
    assert find(tree, "toggle-results")["attrs"]["aria-expanded"] == "false"
    assert "down" in find(tree, "end-sheet")["attrs"]["class"]
    assert "sheet-down" in tree["kids"][-1]["attrs"]["class"] or \
        "sheet-down" in find_all(tree, lambda nd: nd["tag"] == "main")[0]["attrs"]["class"]
    # put down, it still holds every test id, tells this seat's total, offers the next round
    for tid in ("round-results", "score-0", "score-2", "next-round"):
        assert find(tree, tid) is not None, tid
    assert "You: 14 pts" in text_of(find(tree, "end-sheet"))
    assert live(tree, "next-round")
    tap(tree, ctx, "toggle-results", ui, m)
    tree, ctx = show(m, ui)
    assert find_all(tree, lambda nd: nd["attrs"].get("id") == "sheet-body")[0]["attrs"]["hidden"] is False
    # put down again; the next end (game over) opens by itself
    tap(tree, ctx, "toggle-results", ui, m)
    m.view.update(phase="game_over", winners=[1])
    tree, ctx = show(m, ui)
    assert find(tree, "toggle-results")["attrs"]["aria-expanded"] == "true"
    assert find(tree, "game-over") is not None and text_of(find(tree, "winners")) == "Winner: Bob"


# ---- persistence and reconnection ---------------------------------------------------------

def test_the_landing_offers_to_resume_or_abandon_a_saved_game():
    ui = new_ui("en")
    tree, ctx = show(FakeClient(screen="landing"), ui)
    assert find(tree, "resume") is None
    saved = {"room": "crisp-1", "names": ["Hana", "<b>Ana</b>"], "started": True, "round": 2}
    tree, ctx = show(FakeClient(screen="landing", resume=saved), ui)
    assert "Hana, <b>Ana</b>" in text_of(find(tree, "resume"))
    # no name needed: both are live at once, and each is one intent
    assert live(tree, "resume-room") and live(tree, "abandon-room")
    assert tap(tree, ctx, "resume-room", ui, None) == [("resume_room", {})]
    assert tap(tree, ctx, "abandon-room", ui, None) == [("abandon_room", {})]
    tree, ctx = show(FakeClient(screen="landing", resume=saved), ui, "es")
    assert text_of(find(tree, "resume-room")) == i18n.t("es", "resume_room")


def test_a_link_to_no_room_says_so_and_offers_the_way_back():
    m = FakeClient(screen="join", status="no_room")
    tree, ctx = show(m)
    banner = find(tree, "connection")
    assert i18n.t("en", "conn_no_room") in text_of(banner)
    assert live(tree, "leave")
    assert tap(tree, ctx, "leave", None, None) == [("leave", {})]
    tree, ctx = show(m, None, "es")
    assert i18n.t("es", "conn_no_room") in text_of(find(tree, "connection"))


def test_a_peer_that_is_not_the_host_is_named_over_the_last_real_table():
    for lang, words in (("en", "not your host"), ("es", "no es tu sala")):
        m = table_model(3, seat=1)
        m.status = "host_unverified"
        tree, ctx = show(m, None, lang)
        node = find(tree, "host-unverified")
        assert text_of(node) == i18n.t(lang, "conn_host_unverified")
        assert words in text_of(node).lower()
        assert node["attrs"]["role"] == "alert"
        assert find(tree, "connection") is None
        assert find(tree, "seat-1") is not None          # the table stays as it was


def test_every_connection_state_shows_in_the_banner():
    for status in ("connecting", "reconnecting", "host_gone", "host_paused"):
        m = table_model(3, seat=1)
        m.status = status
        tree, ctx = show(m)
        assert text_of(find(tree, "connection")) == i18n.t("en", "conn_" + status)
    m.status = "ok"
    tree, ctx = show(m)
    assert find(tree, "connection") is None
    assert "waiting" in i18n.t("en", "conn_host_gone")
    assert "paused" in i18n.t("en", "conn_host_paused")
    assert "pausa" in i18n.t("es", "conn_host_paused")


def test_a_lobby_that_loses_its_host_says_it_waits_for_the_host_not_that_a_game_is_paused():
    # no game is played in a lobby: "Game paused" would say something false there
    for lang, word in (("en", "paused"), ("es", "pausa")):
        m = lobby_model(3, seat=1)
        m.status = "host_paused"
        tree, ctx = show(m, lang=lang)
        said = text_of(find(tree, "connection"))
        assert said == i18n.t(lang, "conn_host_paused_lobby_named", name="Ana"), said
        assert word not in said.lower()
    # the host's page never says "Connecting to the room": it is the room
    for status in ("connecting", "reconnecting"):
        m = table_model(3, seat=0)
        m.status = status
        tree, ctx = show(m)
        node = find(tree, "connection")
        assert text_of(node) == "New players can\u2019t join right now"
        assert "host-note" in node["attrs"]["class"]


def test_a_room_link_in_its_hosts_own_browser_says_so_or_offers_to_resume():
    class Own:
        screen = "own_room"
        status = "ok"
        room = "crisp-" + "a" * 32

        def __init__(self, own):
            self.own = own

    for lang in ("en", "es"):
        tree, ctx = show(Own("elsewhere"), None, lang)
        assert text_of(find(tree, "own-room")) == i18n.t(lang, "own_room_elsewhere")
        assert find(tree, "join-room") is None and find(tree, "resume-hosting") is None
        tree, ctx = show(Own("resume"), None, lang)
        assert text_of(find(tree, "own-room")) == i18n.t(lang, "own_room_resume")
        assert live(tree, "resume-hosting")
        assert tap(tree, ctx, "resume-hosting", None, None) == [("resume_hosting", {})]
        assert find(tree, "join-room") is None


# ---- the host's absence, spectators, leaving (issue 10) ------------------------------------

def test_a_silent_host_shows_away_and_the_timers_paused():
    m = table_model(3, seat=1, turn=0, draw_left=30000,
                    options={"players": 3, "target": 100, "draw_seconds": 30,
                             "draw_from_discard": False})
    m.view_at = 1000
    m.last_heard = 5000                       # heard 4 s after the view came, then silence
    tree, ctx = show(m, elapsed=elapsed_ms(m.view_at, None, 21000))
    assert text_of(find(tree, "turn-timer")) == "0:10"      # the host is here: it runs
    m.pause = paused(m.last_heard, 0)         # the link's signal: paused since its last word
    tree, ctx = show(m, elapsed=elapsed_ms(m.view_at, m.pause.since, 21000))
    timer = find(tree, "turn-timer")
    assert timer["attrs"]["data-paused"] == "true" and timer["attrs"]["data-ms"] == "26000"
    # two bars fit the ring, the word is its label (it overflowed the ring as text)
    assert timer["attrs"]["aria-label"] == i18n.t("en", "paused") and text_of(timer) == ""
    assert "away" in find(tree, "seat-0")["attrs"]["class"]
    assert "away" not in find(tree, "seat-2")["attrs"]["class"]


def test_a_host_counted_as_gone_offers_keep_waiting_or_leave():
    m = table_model(3, seat=1)
    m.status, m.pause, m.host_lost = "host_gone", paused(0, 0), True
    ui = new_ui()
    tree, ctx = show(m, ui, lang="es")
    panel = find(tree, "host-gone")
    assert i18n.t("es", "host_gone_title") in text_of(panel)
    assert tap(tree, ctx, "leave", ui, m) == [("leave", {})]
    assert tap(tree, ctx, "keep-waiting", ui, m) == []
    tree, ctx = show(m, ui)
    assert find(tree, "host-gone") is None and find(tree, "keep-waiting") is None
    assert text_of(find(tree, "connection")).startswith(i18n.t("en", "conn_host_gone"))
    assert live(tree, "leave")                        # never without a way out
    m.host_lost = False                               # not yet gone: the usual banner
    tree, ctx = show(m, new_ui())
    assert find(tree, "host-gone") is None
    m.is_host = True                                  # the host's own page never says it
    m.host_lost = True
    tree, ctx = show(m, new_ui())
    assert find(tree, "host-gone") is None



def test_a_guest_offline_itself_reads_reconnecting_never_that_the_host_is_gone():
    """Its own network down for 30 s, the link counts the host as lost, but this phone cannot
    know that: "Connection lost: reconnecting…", no host-gone panel, nobody shown away."""
    m = table_model(3, seat=1)
    m.status, m.pause, m.host_lost = "reconnecting", paused(0, None), True
    for lang in ("en", "es"):
        tree, ctx = show(m, lang=lang)
        assert text_of(find(tree, "connection")) == i18n.t(lang, "conn_reconnecting")
        assert find(tree, "host-gone") is None
        assert "away" not in find(tree, "seat-0")["attrs"]["class"].split()

def test_the_handover_banner_says_who_takes_over_over_the_table_with_leave():
    m = table_model(3, seat=2)
    m.pause, m.host_lost = paused(0, 0), True
    m.handover = {"name": "Ana", "me": False}
    ui = new_ui()
    tree, ctx = show(m, ui, lang="es")
    banner = find(tree, "handover")
    assert text_of(banner).startswith(i18n.t("es", "handover_other", name="Ana"))
    assert find(tree, "host-gone") is None and find(tree, "seat-1") is not None
    assert tap(tree, ctx, "leave", ui, m) == [("leave", {})]
    m.handover = {"me": True}
    m.is_host = True
    tree, ctx = show(m, new_ui())
    assert text_of(find(tree, "handover")).startswith(i18n.t("en", "handover_me"))
    m.handover = {"me": True, "failed": True}
    tree, ctx = show(m, new_ui())
    assert text_of(find(tree, "handover")).startswith(i18n.t("en", "handover_failed"))
    assert live(tree, "leave")
    m.handover = None
    tree, ctx = show(m, new_ui())
    assert find(tree, "handover") is None


def test_a_spectator_watches_and_asks_for_an_away_or_bot_seat_with_a_name():
    m = FakeClient(screen="table", seat=None, spectator=True,
                   players=players(NAMES[:4], bots={3: "easy"}, away=(2,)),
                   view=make_view(4, None, turn=1))
    ui = new_ui()
    tree, ctx = show(m, ui)
    assert find(tree, "spectator") is not None and find(tree, "ready") is None
    assert find(tree, "take-seat-2") is None                  # no name yet
    ui["name"] = "Gus"
    tree, ctx = show(m, ui)
    assert find(tree, "take-seat-1") is None and find(tree, "take-seat-0") is None
    assert tap(tree, ctx, "take-seat-2", ui, m) == [("sit", {"name": "Gus", "seat": 2})]
    assert tap(tree, ctx, "take-seat-3", ui, m) == [("sit", {"name": "Gus", "seat": 3})]
    assert tap(tree, ctx, "sit-next-game", ui, m) == [("sit", {"name": "Gus", "seat": None})]
    m.ask = {"seat": 2, "name": "Gus"}
    tree, ctx = show(m, ui)
    assert text_of(find(tree, "seat-asked")) == i18n.t("en", "asked_seat")
    assert live(tree, "leave")


def test_the_host_approves_a_spectators_request():
    m = table_model(4, seat=0)
    m.players = players(NAMES[:4], away=(2,))
    m.players[2]["asks"] = EVIL
    tree, ctx = show(m)
    assert tap(tree, ctx, "approve-2", new_ui(), m) == [("approve", {"seat": 2})]
    assert EVIL in text_of(find(tree, "approve-2"))           # as text, never markup
    guest = table_model(4, seat=1)
    guest.players = m.players
    tree, ctx = show(guest)
    assert find(tree, "approve-2") is None


def test_the_wake_lock_is_wanted_while_a_round_is_played():
    from ui.page.screens.viewmodel import awake_wanted
    for phase, want in (("peek", True), ("play", True), ("last_turns", True),
                        ("round_over", False), ("game_over", False)):
        assert awake_wanted(table_model(3, seat=1, phase=phase)) is want, phase
    assert not awake_wanted(lobby_model(3))
    assert not awake_wanted(None)
    gone = table_model(3, seat=1)
    gone.screen = "gone"
    assert not awake_wanted(gone)


def test_a_link_too_long_for_a_qr_code_shows_none_and_is_not_tried_again():
    link = "http://x/?room=" + "y" * 400
    assert screens.do_later(("qr", link)) is True
    assert screens.qr_style(link) is False
    m = lobby_model(2, seat=1, link=link)
    tree, ctx = show(m)
    assert ctx.later == [] and find(tree, "room-qr") is None
    assert find(tree, "room-link") is not None


# ---- icons: SVG, never a glyph an emoji or symbol font must have -------------------------

def every_font_has(ch):
    """Characters every font a phone or desktop falls back to has: Latin, general
    punctuation (dashes, quotes, ellipsis), the minus sign, and the four card suits (WGL4:
    they are the cards' own text). The bidi isolate marks draw nothing."""
    o = ord(ch)
    return (o < 0x250 or 0x2010 <= o <= 0x2027 or 0x2030 <= o <= 0x203a
            or o in (0x2212, 0x20ac, 0x2660, 0x2663, 0x2665, 0x2666, 0x2068, 0x2069))


def test_every_text_a_player_reads_is_in_every_font():
    for lang in ("en", "es"):
        for key in i18n.CATALOG[lang]:
            text = i18n.CATALOG[lang][key]
            for s in (text if isinstance(text, (list, tuple)) else [text]):
                bad = [hex(ord(c)) for c in s if not every_font_has(c)]
                assert bad == [], (lang, key, bad)


def _icon_screens():
    """Every screen with every icon: the top bar, the menu, each seat badge, the podium,
    the round's check and the results sheet's toggle."""
    hands = [["5h", "Ah", "8s"], ["2c", "6d", "3h"], ["3s", "Td", "4c"]]
    peek = table_model(3, seat=0, phase="peek", turn=None, ready=[True, False, True],
                       allowed=[{"do": "ready"}])
    peek.players[2]["bot"] = "easy"
    last = table_model(3, seat=1, phase="last_turns", caller=2, turn=0, last_turns_left=1,
                       log=[{"type": "deal", "round": 1, "dealer": 2},
                            {"type": "play", "turn": 0}, {"type": "crisp", "seat": 2},
                            {"type": "turn", "seat": 0}])
    over = table_model(3, seat=2, phase="game_over", turn=None, winners=[2], hands=hands,
                       round_points=[6, 30, 6], scores=[96, 120, 86], allowed=[])
    over.verdict = {"round": 1, "ok": True, "skipped": []}
    bad = table_model(3, seat=1, phase="round_over", turn=None, caller=1, hands=hands,
                      round_points=[14, 6, 17], scores=[14, 6, 17], allowed=[])
    bad.verdict = {"round": 1, "ok": False, "skipped": [], "what": "draw", "saw": ["7h"],
                   "expected": ["3c"]}
    out = []
    for model in (None, lobby_model(3, seat=0), peek, last, over, bad):
        for menu in (False, True):
            for lang in ("en", "es"):
                ui = new_ui(lang)
                ui["menu_open"] = menu
                out.append(show(model, ui, lang=lang)[0])
    return out


def _texts(node, out):
    """The text nodes a font draws: not a name (<bdi>: the player's own) nor a card's face."""
    if node["tag"] == "#text":
        out.append(node["text"])
    elif node["tag"] != "bdi" and "card" not in node["attrs"].get("class", "").split():
        for k in node["kids"]:
            _texts(k, out)
    return out


def test_icons_are_svg_drawings_with_their_names_and_no_text_needs_a_symbol_font():
    """The sound toggle, the bot badge and the other icons were emoji or symbol characters:
    empty boxes where no font had them (Debian's Chromium). Now each is an <svg> in the SVG
    namespace, hidden from screen readers, inside a control or badge that names it."""
    seen = {}
    for tree in _icon_screens():
        for text in _texts(tree, []):
            assert [hex(ord(c)) for c in text if not every_font_has(c)] == [], text
        for node in find_all(tree, lambda nd: nd["tag"] == "svg"):
            assert node.get("ns") == vdom.SVG_NS and node["attrs"]["aria-hidden"] == "true"
            for part in find_all(node, lambda nd: True):
                assert part.get("ns") == vdom.SVG_NS, part["tag"]
            seen[node["attrs"]["class"].split()[1]] = True
        for badge in find_all(tree, lambda nd: "badge" in nd["attrs"].get("class", "").split()
                              and "icon" in nd["attrs"]["class"].split()):
            label = badge["attrs"]["aria-label"]
            assert label and badge["attrs"]["title"] == label and badge["attrs"]["role"] == "img"
        sound = find(tree, "sound-toggle")
        if sound is not None:
            assert text_of(sound).strip() in ("Sound on", "Sonido activado", "Sound off",
                                              "Sonido desactivado")
        host = find(tree, "host-badge")
        if host is not None:
            assert host["attrs"]["aria-label"] in ("Host", "Organiza")
    for name in ("icon-spade", "icon-menu", "icon-sound-on", "icon-host", "icon-bot",
                 "icon-dealer", "icon-caller", "icon-check", "icon-last-move", "icon-star",
                 "icon-warning", "icon-chevron-down", "medal"):
        assert name in seen, name


def test_after_a_host_handover_the_crown_and_the_host_controls_follow_the_new_host():
    # Ana's page (seat 1) hosts after Hana's (seat 0) went: the crown is on seat 1 on every
    # screen, Hana's away seat may be given a bot by Ana, and a quiet host is seat 1's away.
    def crowned(tree):
        return [s for s in range(4)
                if find_all(find(tree, "seat-%d" % s),
                            lambda nd: nd["attrs"].get("data-testid") == "host-badge")]

    host = table_model(4, seat=1)
    host.is_host, host.host_seat = True, 1
    host.players = players(NAMES[:4], away=(0,))
    tree, ctx = show(host)
    assert crowned(tree) == [1]
    assert find(tree, "stand-in-0") is not None
    guest = table_model(4, seat=2)
    guest.host_seat, guest.pause = 1, paused(0, 1)
    tree, ctx = show(guest)
    assert crowned(tree) == [1]
    assert "away" in find(tree, "seat-1")["attrs"]["class"].split()
    assert "away" not in find(tree, "seat-0")["attrs"]["class"].split()


# ---- the connection banner: a table from (phase, signal); every screen agrees with itself ----

def test_the_connection_banner_is_a_table_from_the_phase_and_the_hosts_signal():
    pick = banner.banner_for
    assert pick("engine", "lost") == "engine"
    assert pick("handing_over", "lost") == pick("handing_over", "ok") == "handover"
    assert pick("hosting", "reconnecting") == "host_offline"
    assert pick("hosting", "lost") == pick("hosting", "ok") == "network"   # or none
    assert pick("table", "unreachable") == "network"
    assert pick("table", "silent") == "host_silent"
    assert pick("room", "silent") == "status"          # the lobby: the status in words
    assert pick("table", "lost") == pick("room", "lost") == "host_gone"
    assert pick("room", "no_room") == "no_room"
    assert pick("table", "host_unverified") == "host_unverified"
    assert pick("table", "reconnecting") == "status"
    assert pick("table", "ok") == "none"
    # a reloaded page taking its seat back says so on its screen, no red "connection lost"
    assert pick("coming_back", "reconnecting") == pick("coming_back", "connecting") == "none"
    assert pick("coming_back", "lost") == "host_gone"
    assert pick("coming_back", "no_room") == "no_room"
    # every banner the table names is drawn
    named = (set(banner.PAIRS.values()) | set(banner.PHASES.values())
             | set(banner.SIGNALS.values()))
    assert named == set(banner.BANNER_TREES)


def paused_table(n=4, seat=2, host=0, now=10000, gone_at=25000):
    """A guest's table while its host is silent (the Client after `set_link`), its turn."""
    m = table_model(n, seat=seat, turn=seat, draw_left=20000,
                    allowed=[{"do": "draw", "from": ["deck", "discard"]}, {"do": "crisp"}],
                    discard=["7h"], crisp_window={"seat": 1, "left": 2000})
    m.host_seat, m.status = host, "host_gone"
    m.pause = paused(now - 6000, host, gone_at)
    return m


def test_a_silent_host_is_named_with_a_countdown_its_seat_away_and_nothing_live():
    m = paused_table()
    for lang in ("en", "es"):
        tree, ctx = show(m, lang=lang, now=10000)
        banner = find(tree, "connection")
        # and what comes at zero: Bob, the next host, takes over
        assert text_of(banner) == i18n.t(lang, "conn_host_silent_next", name="Ana", s=15,
                                         next="Bob")
        assert "away" in find(tree, "seat-0")["attrs"]["class"].split()
        assert [s for s in (0, 1, 3) if "away" in find(tree, "seat-%d" % s)["attrs"]
                ["class"].split()] == [0]
        # a tap would reach nobody: nothing at the table is live
        for testid in ("deck", "discard", "crisp", "card-2-left"):
            assert not live(tree, testid), testid
    m.pause.end()
    m.status = "ok"
    tree, ctx = show(m, now=10000)
    assert find(tree, "connection") is None and live(tree, "deck") and live(tree, "crisp")
    assert "away" not in find(tree, "seat-0")["attrs"]["class"].split()


def live_nodes(tree):
    """The test ids of everything tappable on a screen (an action, not disabled)."""
    return [n["attrs"].get("data-testid") for n in find_all(
        tree, lambda n: n["attrs"].get("data-act") and not n["attrs"].get("disabled"))]


def test_a_paused_table_says_the_game_is_paused_and_nothing_at_the_table_is_live():
    """Issue 20.1: during the pause Ana's prompt said "tap one of your cards..." over her
    disabled cards, and a Jack's prompt changed (its special read from what is allowed)."""
    for card, special in (("8d", None), ("Jd", "jack"), ("Qd", "queen")):
        allowed = [{"do": "discard"}, {"do": "swap", "pos": ["left", "center", "right"]}] + (
            [{"do": special}] if special else [])
        m = table_model(3, seat=1, turn=1, held={"seat": 1, "from": "deck", "card": card},
                        allowed=allowed)
        tree, ctx = show(m)
        assert text_of(find(tree, "status")) != i18n.t("en", "st_paused")
        assert "card-1-left" in live_nodes(tree)
        m.pause = paused(0, 0, 30000)
        m.status = "host_paused"
        for lang in ("en", "es"):
            tree, ctx = show(m, lang=lang)
            assert text_of(find(tree, "status")) == i18n.t(lang, "st_paused")
            local = ("leave", "menu", "lang-es", "lang-en")     # they work with no host
            assert [t for t in live_nodes(tree) if t not in local] == [], card
    # a Queen's first tap (the card to give) is kept through the pause, not live meanwhile
    m = table_model(3, seat=1, turn=1, held={"seat": 1, "from": "deck", "card": "Qd"},
                    allowed=[{"do": "queen"}, {"do": "discard"}])
    ui = new_ui()
    ui["queen"] = {"pos": "left"}
    m.pause = paused(0, 0, 30000)
    tree, ctx = show(m, ui)
    assert ui["queen"] == {"pos": "left"} and text_of(find(tree, "status")) == \
        i18n.t("en", "st_paused")
    m.pause.end()
    tree, ctx = show(m, ui)
    assert text_of(find(tree, "status")) == i18n.t("en", "st_queen_target")
    # the round's end is no prompt to tap anything: it says what it says
    m = table_model(3, seat=1, phase="round_over", round=2)
    m.pause = paused(0, 0, 30000)
    tree, ctx = show(m)
    assert text_of(find(tree, "status")) == i18n.t("en", "st_round_over", round=2)

def test_in_a_handover_the_crown_and_the_banner_name_the_new_host_and_the_old_one_is_away():
    m = paused_table(host=1)                  # the Client after hand_over_to(1, "Bob")
    m.pause.seat = 0
    m.handover = {"name": "Bob", "me": False}
    tree, ctx = show(m, now=10000)
    assert text_of(find(tree, "handover")).startswith(
        i18n.t("en", "handover_other", name="Bob"))
    crowned = [s for s in range(4) if find(find(tree, "seat-%d" % s), "host-badge")]
    assert crowned == [1]
    assert "away" not in find(tree, "seat-1")["attrs"]["class"].split()
    assert "away" in find(tree, "seat-0")["attrs"]["class"].split()
    assert not live(tree, "deck") and live(tree, "leave")


def plain(node):
    """A node's text without the marks that isolate a name (FSI, PDI)."""
    return text_of(node).replace("\u2068", "").replace("\u2069", "")


def test_every_screen_names_the_new_host_for_a_while_after_the_handover():
    """Issue 20.1: "Ana is the new host" in en and a neutral es wording (no gender to know),
    the crowned seat's name, as a note (the game goes on: not a banner that pauses it), on
    the new host's own screen "You are the new host now"; gone at `until`."""
    m = table_model(4, seat=2)
    m.host_seat = 1
    m.new_host = {"seat": 1, "me": False, "until": 16000}
    for lang, words in (("en", "Bob is the new host."), ("es", "Ahora la partida sigue en el m\u00f3vil de Bob.")):
        tree, ctx = show(m, lang=lang, now=10000)
        assert plain(find(tree, "new-host")) == words
        assert find(tree, "handover") is None and find(tree, "connection") is None
    tree, ctx = show(m, now=16000)
    assert find(tree, "new-host") is None
    m.new_host["until"] = 20000
    m.handover = {"name": "Bob", "me": False}   # another handover: its banner, not the note
    tree, ctx = show(m, now=10000)
    assert find(tree, "new-host") is None and find(tree, "handover") is not None
    m = table_model(4, seat=1)
    m.host_seat, m.is_host = 1, True
    m.new_host = {"seat": 1, "me": True, "until": 16000}
    tree, ctx = show(m, lang="es", now=10000)
    assert plain(find(tree, "new-host")) == i18n.t("es", "new_host_me")


def test_the_hosts_lobby_shows_a_friend_arriving_while_its_engine_starts():
    """Issue 22 item 2: a friend whose join waits for the host's engine is in the lobby as
    arriving (not a seat, no remove button), es and en; none once the engine runs."""
    tree, ctx = show(lobby_model(n=1, arriving=("Gina", EVIL)))
    rows = find_all(tree, lambda n: n["attrs"].get("data-testid") == "arriving")
    assert [plain(r) for r in rows] == ["Gina is arriving\u2026", EVIL + " is arriving\u2026"]
    assert find(tree, "player-1") is None and find(tree, "remove-1") is None
    tree, ctx = show(lobby_model(n=1, arriving=("Gina",)), lang="es")
    assert plain(find(tree, "arriving")) == "Gina est\u00e1 llegando\u2026"
    tree, ctx = show(lobby_model(n=1))
    assert find(tree, "arriving") is None


def test_a_guest_waiting_for_the_hosts_table_is_told_who_sets_it_up():
    """Issue 22 item 2: "Hana is setting up the table…" instead of "Connecting…", and after
    a host's reload "Hana is back, setting up…"; the connecting banner once it is seated."""
    for status in ("connecting", "reconnecting"):
        m = FakeClient(status=status, setup={"host": "Hana", "back": False})
        tree, ctx = show(m)
        assert find(tree, "connection") is None
        assert plain(find(tree, "setting-up")) == "Hana is setting up the table\u2026"
    # a seated guest whose own link stays up reads the lost channel as host_paused
    # (netcheck.lost_channel_status); the reloaded host's `setup` still says it is back
    for status in ("reconnecting", "host_paused"):
        m = table_model()
        m.status, m.setup = status, {"host": "Hana", "back": True}
        tree, ctx = show(m)
        assert plain(find(tree, "setting-up")) == "Hana is back, setting up\u2026"
        assert find(tree, "connection") is None
    tree, ctx = show(FakeClient(status="connecting", setup=None))
    assert find(tree, "setting-up") is None and find(tree, "connection") is not None


def test_play_solo_decides_what_its_button_says_from_the_tap_on():
    """Issue 22 item 3 / issue 20 item 5 (ui/page/screens/solo_button.py `solo_state`)."""
    from ui.page.screens.solo_button import solo_state
    assert solo_state(False, None) == ("play_solo", None, False)
    assert solo_state(False, 40) == ("play_solo", None, False)      # (a resumed room waits)
    assert solo_state(True, None) == ("solo_busy", None, True)      # the table on its way
    assert solo_state(True, 0) == ("solo_busy", 0, True)
    assert solo_state(True, 42) == ("solo_busy", 42, True)
    assert solo_state(True, 100) == ("solo_busy", 99, True)
    assert solo_state(True, -1) == ("play_solo", None, False)        # failed: banner, Retry
    assert solo_state(True, 42, {"code": "bad_name"}) == ("play_solo", None, False)


def progress_says(ui, testid, cases):
    """Each (lang, engine_wait, words) in `cases`: the landing's tapped button `testid` says
    the words, in player words, disabled and busy. Returns the buttons drawn."""
    buttons = []
    for lang, wait, said in cases:
        ui["lang"] = lang
        tree, ctx = show(FakeClient(screen="landing", engine_wait=wait), ui, lang=lang)
        button = find(tree, testid)
        assert plain(button) == said
        assert button["attrs"].get("disabled") and button["attrs"].get("data-busy") == "true"
        for word in ("Python", "MicroPython", "MB", "engine", "motor"):
            assert word not in plain(button)
        buttons.append(button)
    return buttons


def test_the_tapped_play_solo_button_shows_its_progress_in_player_words():
    ui = new_ui("en")
    ui["name"] = "Ana"
    tree, ctx = show(FakeClient(screen="landing"), ui)
    assert plain(find(tree, "play-solo")) == "Play solo"
    intents = tap(tree, ctx, "play-solo", ui, FakeClient(screen="landing"))
    assert [name for name, _ in intents] == ["play_solo"] and ui["solo"] is True
    tree, ctx = show(FakeClient(screen="landing"), ui)     # the frame drawn with the tap
    assert plain(find(tree, "play-solo")) == "Shuffling the deck\u2026"
    progress_says(ui, "play-solo", (("en", None, "Shuffling the deck\u2026"),
                                    ("en", 42, "Shuffling the deck\u2026 42%"),
                                    ("es", 7, "Barajando el mazo\u2026 7%")))
    tree, ctx = show(FakeClient(screen="landing", engine_wait=-1), ui)
    assert plain(find(tree, "play-solo")) == "Play solo"


def test_the_tapped_guided_round_button_shows_its_progress_like_play_solo():
    """Issue 22 item 3: the guided first round's Play (the landing's offer) answers its tap
    as Play solo does (ui/page/screens/solo_button.py progress_button): at once, in player words."""
    ui = new_ui("en", "")
    ui["guided_offer"] = True
    tree, ctx = show(FakeClient(screen="landing"), ui)
    assert plain(find(tree, "guided-play")) == i18n.t("en", "guided_play")
    intents = tap(tree, ctx, "guided-play", ui, FakeClient(screen="landing"))
    assert [name for name, _ in intents] == ["play_guided"]
    tree, ctx = show(FakeClient(screen="landing"), ui)     # the frame drawn with the tap
    button = find(tree, "guided-play")
    assert plain(button) == "Shuffling the deck\u2026"
    assert find(tree, "guided-no") is None                   # nothing to skip any more
    for button in progress_says(ui, "guided-play", (("en", 42, "Shuffling the deck\u2026 42%"),
                                                     ("es", 7, "Barajando el mazo\u2026 7%"))):
        assert "busy" in button["attrs"]["class"] and "primary" in button["attrs"]["class"]
    ui["lang"] = "en"
    # failed: the banner says so with Retry, and the button is live again
    tree, ctx = show(FakeClient(screen="landing", engine_wait=-1), ui)
    assert plain(find(tree, "guided-play")) == i18n.t("en", "guided_play")
    assert not find(tree, "guided-play")["attrs"].get("disabled")
    # a saved game offered instead: no guided offer, tapped or not
    tree, ctx = show(FakeClient(screen="landing", resume={"room": "crisp-x", "names": ["A"],
                                                          "started": False, "round": 0}), ui)
    assert find(tree, "guided-offer") is None
