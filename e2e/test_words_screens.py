"""The words on the real page (issue 20 items 14, 10, 6, 8), on the screens page without a room
(screens_harness.py, MicroPython): in a sentence a player's name sits on its words' baseline
in their size ("Turno de Ana."), the last move is never cut with an ellipsis, the rules read
whole in both languages, and the spectator's and the full room's lines show."""

import screen_models as M
import screens_harness as H
from test_screens import console_errors, open_screens, screens_pages  # noqa: F401 (fixture)

# For each name (<bdi>) in the status line, the last move and the log: how far its box's
# bottom and its font size are from those of the text just before it on the same line.
BASELINES = """() => {
  const out = [];
  for (const bdi of document.querySelectorAll(
      '#app .statusbar bdi, #app .events bdi, #app [data-testid=last-move] bdi,'
      + ' #app .waiting bdi')) {
    const before = bdi.previousSibling;
    if (!before || before.nodeType !== 3 || !before.textContent.trim()) continue;
    const range = document.createRange();
    range.setStart(before, Math.max(0, before.textContent.length - 2));
    range.setEnd(before, before.textContent.length);
    const words = range.getClientRects(), name = bdi.getClientRects();
    if (!words.length || !name.length) continue;
    const w = words[words.length - 1], n = name[0];
    const size = (e) => parseFloat(getComputedStyle(e).fontSize);
    // a name that starts the next line (the sentence wrapped before it) has no neighbour
    if (Math.abs(w.top - n.top) > 0.8 * size(bdi.parentElement)) continue;
    out.push({text: bdi.parentElement.textContent.slice(0, 60),
              bottom: Math.abs(w.bottom - n.bottom), top: Math.abs(w.top - n.top),
              size: Math.abs(size(bdi) - size(bdi.parentElement))});
  }
  return out;
}"""

# The last move's line: its whole text, and whether the box shows it all.
LAST_MOVE = """() => {
  const e = document.querySelector('[data-testid=last-move]');
  const s = getComputedStyle(e);
  return {text: e.innerText, cut: e.scrollWidth > e.clientWidth + 1
          || e.scrollHeight > e.clientHeight + 1, ellipsis: s.textOverflow,
          lines: Math.round(e.getBoundingClientRect().height / parseFloat(s.lineHeight || 16))};
}"""

QUEEN = {"type": "queen", "seat": 1, "pos": "left", "target": 3, "target_pos": "right"}
NAMES = ["Hana", "Maximiliana Fern\u00e1n", "Bea", "Bartholomew Feathers"]


def test_names_sit_on_their_words_and_the_last_move_is_never_cut(new_phone, screens_pages):
    phone = open_screens(new_phone, screens_pages, viewport={"width": 360, "height": 640},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    seen = []
    for lang in ("es", "en"):
        model = M.table(4, 1, NAMES, turn=2, log=M.LOG + [QUEEN])
        model["_ui"] = {"lang": lang}
        H.show(page, model)
        lines = page.evaluate(BASELINES)
        assert lines, lang
        for line in lines:
            assert line["bottom"] <= 1 and line["top"] <= 1 and line["size"] == 0, line
        seen += [line["text"] for line in lines]
        last = page.evaluate(LAST_MOVE)
        assert not last["cut"] and last["ellipsis"] != "ellipsis", last
        assert "\u2026" not in last["text"], last
        whole = {"en": "You used a Queen: your left card for Bartholomew Feathers's right card.",
                 "es": "Has usado una Reina: tu carta de la izquierda por la carta de la "
                       "derecha de Bartholomew Feathers."}[lang]
        assert last["text"].strip() == whole, last
    assert any("Turno de Bea" in t for t in seen), seen
    assert console_errors(phone) == [] and phone.errors == []


# A guest's lobby: the "waiting for the host" line's words and its dots inside its box (px
# past its right edge), and each player's name cut or whole (its <bdi> narrower than its text).
LOBBY_FIT = """() => {
  const p = document.querySelector('[data-testid=lobby-waiting]');
  const r = document.createRange(); r.selectNodeContents(p);
  const dots = parseFloat(getComputedStyle(p, '::after').width) || 0;
  const box = p.getBoundingClientRect(), text = r.getBoundingClientRect();
  const cut = [...document.querySelectorAll('#app .player .pname bdi')]
    .filter((b) => b.scrollWidth > b.clientWidth + 0.5).map((b) => b.textContent);
  return {past: Math.round(text.right + dots - box.right), cut: cut};
}"""


def test_a_guests_lobby_says_whom_it_waits_for_inside_its_box_and_every_name_whole(
        new_phone, screens_pages):
    """A tester's guest lobby (es, 360 px): "Esperando a que Ana empiece la partida…" ran 9 px
    past its box, "Ana" off its words' baseline, and "Maximiliano Quintero" (20 letters, the
    longest a name may be) was cut to "Maximiliano Quinte…" with the row's room unused."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": 360, "height": 640},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    for lang in ("es", "en"):
        H.show(page, dict(M.lobby(3, 2, ["Ana", "Maximiliano Quintero", "Bea"], bots=()),
                          _ui={"lang": lang}))
        fit = page.evaluate(LOBBY_FIT)
        assert fit["past"] <= 0 and fit["cut"] == [], (lang, fit)
        lines = page.evaluate(BASELINES)
        assert lines, lang
        for line in lines:
            assert line["bottom"] <= 1 and line["top"] <= 1 and line["size"] == 0, (lang, line)
    assert console_errors(phone) == [] and phone.errors == []


def test_the_rules_and_the_watchers_read_on_the_page(new_phone, screens_pages):
    phone = open_screens(new_phone, screens_pages, viewport={"width": 360, "height": 640},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    for lang, facts in (("en", ("3 seconds", "Nobody ever sees their own center card",
                                "you see it once", "a tie included")),
                        ("es", ("3 segundos", "Nadie ve nunca su carta del centro",
                                "la ves una vez", "tambi\u00e9n con empate"))):
        H.show(page, dict(M.landing(), _ui={"lang": lang}))
        if not page.evaluate("document.querySelector('details.rules').open"):
            page.click("details.rules summary")           # open it as a player would
        text = page.inner_text("details.rules")
        for fact in facts:
            assert fact in text, (lang, fact)
        assert page.locator("details.rules h3").count() == 8
    model = M.table(4, 1, turn=2)
    model["watchers"] = [{"name": "Cleo", "next": False}, {"name": None, "next": False}]
    model["_ui"] = {"lang": "en"}
    H.show(page, model)
    assert page.inner_text("[data-testid=watchers]") == \
        "Cleo is watching \u00b7 Someone is watching"
    model = dict(M.join("Zoe"))
    model["lobby"] = M.lobby(8)["lobby"]
    H.show(page, model)
    assert page.inner_text("[data-testid=room-full]") == "This room is full (8 players)"
    assert page.is_enabled("[data-testid=wait-seat]")
    assert console_errors(phone) == [] and phone.errors == []


# The line under the status: its text, and whether it shows whole in the viewport.
SUB_LINE = """() => {
  const e = document.querySelector('#app .statusbar .sub');
  if (!e) return null;
  const r = e.getBoundingClientRect();
  return {text: e.innerText, seen: r.top >= 0 && r.bottom <= innerHeight && r.width > 0,
          cut: e.scrollWidth > e.clientWidth + 1};
}"""


def test_an_away_players_turn_says_on_the_table_why_it_waits(new_phone, screens_pages):
    """Issue 20: an away guest's turn without a turn timer showed "Pepe's turn" for 20 s with
    no hint; the table says that Pepe's phone does not answer and when the turn is skipped,
    on a small phone, in both languages, also with eight seats."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": 360, "height": 640},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    for n in (3, 8):
        for lang, words in (("en", ("phone is not answering", "skipped in 12 s")),
                            ("es", ("no responde", "en 12 s"))):
            model = M.table(n, 0, away=(1,), turn=1)
            model["players"][1]["skip_in"] = 12000
            model["_ui"] = {"lang": lang}
            H.show(page, model)
            sub = page.evaluate(SUB_LINE)
            assert sub is not None and sub["seen"] and not sub["cut"], (n, lang, sub)
            assert all(w in sub["text"] for w in words), (n, lang, sub)
    assert console_errors(phone) == [] and phone.errors == []
