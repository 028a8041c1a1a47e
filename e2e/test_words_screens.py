"""The words on the real page (issue 20 items 14, 10, 6, 8), on the screens page without a room
(screens_harness.py, MicroPython): in a sentence a player's name sits on its words' baseline
in their size ("Turno de Ana."), the last move is never cut with an ellipsis, the rules read
whole in both languages, and the spectator's and the full room's lines show; a tap that needs
the name brings the player to its field, and the table names the host where it knows it."""

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


# At the table: each seat's name that is cut ("Maximiliano Quinte…") with the room it left
# unused in its head (px between the name's box and what follows it): [(seat, text, px)].
SEAT_NAMES = """() => {
  const out = [];
  for (const p of document.querySelectorAll('#app .seat-head .pname')) {
    const b = p.querySelector('bdi');
    if (!b || b.scrollWidth <= b.clientWidth + 0.5) continue;
    const next = p.nextElementSibling, right = b.getBoundingClientRect().right;
    const end = next ? next.getBoundingClientRect().left : p.parentElement.getBoundingClientRect().right;
    if (end - right > 8) out.push([p.closest('.seat').dataset.testid, b.textContent,
                                   Math.round(end - right)]);
  }
  return out;
}"""


def test_a_guests_lobby_says_whom_it_waits_for_inside_its_box_and_every_name_whole(
        new_phone, screens_pages):
    """A tester's guest lobby (es, 360 px): "Esperando a que Ana empiece la partida…" ran 9 px
    past its box, "Ana" off its words' baseline, and "Maximiliano Quintero" (20 letters, the
    longest a name may be) was cut to "Maximiliano Quinte…" with the row's room unused; at
    the table too."""
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
        # and at the table (a second tester's 2-phone room): the name was cut at 12em with
        # 55 px of its seat's head unused, the lobby having shown it whole
        for seat in (0, 1):
            H.show(page, dict(M.table(2, seat, ["Hana", "Maximiliano Quintero"]),
                              _ui={"lang": lang}))
            assert page.evaluate(SEAT_NAMES) == [], (lang, seat)
    assert console_errors(phone) == [] and phone.errors == []


def test_the_rules_and_the_watchers_read_on_the_page(new_phone, screens_pages):
    phone = open_screens(new_phone, screens_pages, viewport={"width": 360, "height": 640},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    for lang, facts in (("en", ("3 seconds", "Your center card stays unseen",
                                "you see it once", "a tie included")),
                        ("es", ("3 segundos", "Tu carta del centro no la ves",
                                "la ves una vez", "tambi\u00e9n con empate"))):
        H.show(page, dict(M.landing(), _ui={"lang": lang}))
        if not page.evaluate("document.querySelector('details.rules').open"):
            page.click("details.rules summary")           # open it as a player would
        text = page.inner_text("details.rules")
        for fact in facts:
            assert fact in text, (lang, fact)
        assert page.locator("details.rules h3").count() == 9      # the picture's, then 8
    name_asked_where_they_look(page)
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


# Where the page's focus is, and whether the name field and its hint are in the viewport.
FOCUS = """() => {
  const seen = (e) => { if (!e) return false; const r = e.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight; };
  const hint = document.querySelector('#app [data-testid=name-hint]');
  return {focus: document.activeElement && document.activeElement.dataset.testid,
          field: seen(document.querySelector('#app [data-testid=player-name]')),
          hint: seen(hint), ask: hint && hint.dataset.ask,
          role: hint && hint.getAttribute('role'),
          scroll: Math.round(scrollY)};
}"""


def name_asked_where_they_look(page):
    """Issue 20: on a 360x640 landing with no name, Play solo and Create a room were greyed
    and did nothing, the hint ~600 px above them. A tap from the bottom of the page brings
    the name field to the screen, focused, its hint an alert beside it; nothing starts."""
    for lang in ("es", "en"):
        H.show(page, dict(M.landing(), _ui={"lang": lang, "name": "", "name_ask": False}))
        for tid in ("play-solo", "create-room"):
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            before = page.evaluate(FOCUS)
            assert not before["field"] and before["ask"] is None, (lang, tid, before)
            page.click("[data-testid=%s]" % tid)
            page.wait_for_function("document.activeElement && "
                                   "document.activeElement.dataset.testid === 'player-name'")
            after = page.evaluate(FOCUS)
            assert after["field"] and after["hint"] and after["ask"] == "true", after
            assert after["role"] == "alert", after
            print("name asked", lang, tid, "scroll", before["scroll"], "->", after["scroll"])
            H.show(page, dict(M.landing(), _ui={"lang": lang, "name_ask": False}))
    intents = page.evaluate("[...window.crispIntents]")
    assert not [i for i in intents if '"play_solo"' in i or '"create_room"' in i], intents


# The lines a box takes on the screen: the distinct tops of its text's boxes.
LINES = """(sel) => {
  const e = document.querySelector(sel);
  if (!e) return null;
  const range = document.createRange();
  range.selectNodeContents(e);
  const tops = [...range.getClientRects()].map(r => r.top).sort((a, b) => a - b);
  let lines = 0, last = -1e9;
  for (const t of tops) { if (t - last > 4) { lines += 1; last = t; } }
  return {text: e.innerText, lines: lines};
}"""


def host_named_on_the_table(page):
    """Issue 20: the re-deal note after a host handover took 5 bold lines ("El móvil de quien
    organiza ha dejado de responder…"): it names the phone that went quiet in at most 2
    lines at 360 px; the results wait for the new host by name (Max)."""
    for lang in ("es", "en"):
        for name in ("Hana", "Maximiliana"):
            model = M.table(2, 1, [name, "Bea"], turn=1)
            model.update(redealt=2, old_host=0, host_seat=1, is_host=True,
                         _ui={"lang": lang})
            H.show(page, model)
            note = page.evaluate(LINES, "#app [data-testid=redealt]")
            assert note and name in note["text"] and note["lines"] <= 2, (lang, note)
            print("redealt", lang, name, note["lines"], "lines:", note["text"])
        model = M.table(3, 2, ["Ana", "Max", "Cleo"], phase="round_over", turn=None, caller=1,
                        hands=[["5h", "Ah", "8s"], ["2c", "6d", "3h"], ["3s", "Td", "4c"]],
                        draw_left=None, round_points=[14, 6, 17], allowed=[])
        model.update(host_seat=1, _ui={"lang": lang, "sheet_open": True})
        H.show(page, model)
        said = page.inner_text("#app [data-testid=wait-next-round]")
        assert said == {"es": "Esperando a que Max reparta la siguiente ronda\u2026",
                        "en": "Waiting for Max to deal the next round\u2026"}[lang], said


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
    host_named_on_the_table(page)
    assert console_errors(phone) == [] and phone.errors == []
