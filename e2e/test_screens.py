"""The screens in a real browser, without a room: ui/page/screens/render.py's Screen fed hand-made models on
the screens page (screens_harness.py), on MicroPython (the guests' interpreter) and Pyodide.

- The DOM patcher under many quick updates and taps stays equal to a fresh drawing, and an
  event fired by the patch itself never re-enters it (the guest page's `replaceChild` bug).
- Touch targets are at least 44 px and nothing overflows sideways, on a 360 px phone with 8
  players, on a 390 px phone and on a desktop (docs/design.md "The table on a phone").
"""

import json
import os
import random

import pytest

import screen_models as M
import screens_harness as H
from crisp_e2e import wait_ready

T = 30_000

# Records every DOM method call that throws (a patch from a stale tree shows up here first).
DOM_TAP = """
(() => {
  window.__domThrows = [];
  for (const k of ['replaceChild', 'removeChild', 'appendChild', 'insertBefore']) {
    const f = Node.prototype[k];
    Node.prototype[k] = function (...a) {
      try { return f.apply(this, a); }
      catch (e) { window.__domThrows.push(k + ': ' + e.message); throw e; }
    };
  }
})();
"""


@pytest.fixture(scope="session")
def screens_pages(site):
    # every page renders on MicroPython (the host's Pyodide runs the engine in a worker)
    return {"micropython": H.install(site.dist, "micropython")}


def open_screens(new_phone, screens_pages, interpreter="micropython", **context):
    phone = new_phone(**context)
    phone.context.add_init_script(DOM_TAP)
    phone.goto(screens_pages[interpreter])
    assert wait_ready(phone.page) == interpreter
    return phone


def same_as_fresh(page, model):
    return H.canon(page) == H.fresh_canon(page, model)


def console_errors(phone):
    return [t for kind, t in phone.console
            if kind in ("error", "warning") and "crisp" in t.lower()]


def test_the_name_field_keeps_focus_and_the_page_stays_whole_as_the_banner_goes(
        new_phone, screens_pages):
    # The guest's join page says "Connecting..." above the name field. The player types; the
    # connection opens and the banner goes. That used to redraw the panel below it: Chromium
    # fired the focused field's `change` from inside the removal, the event re-entered the
    # render, and the inner patch failed ("replaceChild: not a child of this node"); the
    # field (and a phone's keyboard) was lost mid-word. Now the panel stays as it is.
    phone = open_screens(new_phone, screens_pages)
    page = phone.page
    H.show(page, M.join(status="connecting"))
    page.fill('[data-testid="player-name"]', "Ana")
    page.evaluate("document.activeElement.__typedHere = true")
    ok = M.join(status="ok")
    del ok["_ui"]
    H.show(page, ok)
    assert page.evaluate("window.__domThrows") == []
    assert same_as_fresh(page, ok)
    assert page.evaluate("document.activeElement.__typedHere === true")   # the same field
    assert page.input_value('[data-testid="player-name"]') == "Ana"
    assert page.is_enabled('[data-testid="join-room"]')
    # and a field removed while focused and edited (a new screen) does not re-enter a render
    page.keyboard.type("Bea")
    H.show(page, M.landing())
    assert page.evaluate("window.__domThrows") == [] and same_as_fresh(page, M.landing())
    assert console_errors(phone) == [] and phone.errors == []


@pytest.mark.parametrize("interpreter,steps", [("micropython", 400)])
def test_many_quick_updates_and_taps_leave_the_page_as_a_fresh_drawing(
        new_phone, screens_pages, interpreter, steps):
    phone = open_screens(new_phone, screens_pages, interpreter, reduced_motion="reduce")
    page = phone.page
    rnd = random.Random(7)
    model = None
    for step in range(steps):
        r = rnd.random()
        if model is not None and r < .25:
            # a tap on a live control: the Screen renders from inside the click
            page.evaluate("""(k) => {
              const els = [...document.querySelectorAll('#app [data-act]:not([disabled])')]
                .filter(e => e.tagName !== 'SELECT');
              if (els.length) els[k % els.length].click(); }""", rnd.randrange(1000))
        elif model is not None and r < .35 and page.locator('#app [data-testid="player-name"]').count():
            page.focus('#app [data-testid="player-name"]')
            page.keyboard.type(rnd.choice(["Zoë", "Bo"]))
        else:
            n = rnd.randint(2, 8)
            name, model = rnd.choice(M.screens(n, rnd.randrange(n)))
            model = dict(model, _clock=1000000 + step * 300)
            if rnd.random() < .5:
                model.pop("_ui", None)
            H.show(page, model)
        assert page.evaluate("window.__domThrows") == [], step
        assert same_as_fresh(page, model), (step, name)
    assert console_errors(phone) == [] and phone.errors == []


# Every control's box (a checkbox counts with its label), anything sticking out sideways, and
# where the table's action buttons end.
MEASURE = """() => {
  const vw = document.documentElement.clientWidth;
  const shown = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const name = (e) => e.dataset.testid || e.getAttribute('aria-label') || e.className || e.tagName;
  const small = [], wide = [];
  for (const e of document.querySelectorAll(
      '#app button, #app a[href], #app select, #app input, #app summary, #app [data-act]')) {
    if (!shown(e)) continue;
    const box = (e.type === 'checkbox' && e.closest('label')) || e;
    const r = box.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5)
      small.push(name(e) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  for (const e of document.querySelectorAll('#app *')) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.right > vw + 0.5 || r.left < -0.5)
      wide.push(name(e) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
  const actions = document.querySelector('.actions');
  return {small: small, wide: wide.slice(0, 5),
          scroll_x: document.documentElement.scrollWidth - vw,
          actions_bottom: actions ? actions.getBoundingClientRect().bottom : null};
}"""

# The states a player spends the round in: on a 360 x 740 phone their hand and the buttons
# are on the screen without scrolling, up to 8 players.
FITS = ("peek", "my-turn", "held", "queen-held", "queen-target", "other-holds", "crisp-window")


@pytest.mark.parametrize("width,height,counts", [
    (360, 740, (5, 6, 7, 8)),     # the smallest phone, a crowded table
    (390, 844, (2, 3, 4)),        # a common phone
    (1280, 800, (3, 8)),          # a desktop
])
def test_touch_targets_are_44px_and_nothing_overflows(new_phone, screens_pages, width, height,
                                                       counts):
    phone = open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                         is_mobile=width < 800, has_touch=width < 800, reduced_motion="reduce")
    page = phone.page
    problems = []
    for n in counts:
        for lang in ("en", "es"):
            for name, model in M.screens(n, n // 2, M.LONG):
                model = dict(model, _ui=dict(model.get("_ui") or {}, lang=lang))
                H.show(page, model)
                r = page.evaluate(MEASURE)
                where = "%dx%d n=%d %s %s" % (width, height, n, lang, name)
                if r["small"]:
                    problems.append((where, "small targets", r["small"]))
                if r["wide"] or r["scroll_x"] > 0:
                    problems.append((where, "overflows sideways", r["wide"], r["scroll_x"]))
                if width < 600 and name in FITS and r["actions_bottom"] > height:
                    problems.append((where, "buttons below the fold", r["actions_bottom"]))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_stops_every_animation(new_phone, screens_pages, motion):
    phone = open_screens(new_phone, screens_pages, reduced_motion=motion)
    page = phone.page
    H.show(page, dict(M.screens(4, 1))["crisp-window"])
    # every element's animations and its ::before's and ::after's, as [test id, part, name]
    names = page.evaluate("""() => [...document.querySelectorAll('#app *')].flatMap(e =>
        [null, '::before', '::after'].map(part => [e.dataset.testid || e.className, part,
                                                   getComputedStyle(e, part).animationName]))
        .filter(([, , n]) => n && n !== 'none')""")
    if motion == "reduce":
        assert names == []
    else:
        assert ["crisp", "::after", "glow"] in names      # the live crisp button pulses
    # keyboard focus shows on a control
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"


# For each seat's name: its width on screen and the width its first 8 characters need.
NAME_WIDTHS = """() => [...document.querySelectorAll('#app .seat .pname')].map((e) => {
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;font:'
    + getComputedStyle(e).font;
  probe.textContent = e.textContent.slice(0, 8);
  document.body.appendChild(probe);
  const need = probe.getBoundingClientRect().width;
  probe.remove();
  return {name: e.textContent, shown: e.getBoundingClientRect().width, need: need,
          title: e.getAttribute('title')};
})"""


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844), (1280, 800)])
def test_eight_characters_of_every_name_show_with_its_badges(new_phone, screens_pages, width,
                                                            height):
    """Issue 11.5: with the dealer, bot and crisp badges (icons now), at least 8 characters of
    every name are on screen, for 2 to 8 players; the whole name is the seat's title."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                         reduced_motion="reduce")
    page = phone.page
    problems = []
    for n in (2, 5, 8):
        for seat in (0, n - 1):
            bots = tuple(range(1, n))
            model = M.table(n, seat, M.LONG, bots=bots, dealer=1, caller=n - 1,
                            phase="last_turns", last_turns_left=1)
            H.show(page, model)
            rows = page.evaluate(NAME_WIDTHS)
            assert len(rows) == n
            for r in rows:
                assert r["title"] == r["name"]
                if r["shown"] + 0.5 < r["need"]:
                    problems.append((width, n, seat, r))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


AXE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "node_modules", "axe-core", "axe.min.js")

# axe-core's serious and critical violations on the page: [(rule, target, html)]. axe-core is
# injected here only (npm devDependency): never shipped in dist/.
AXE_RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  const out = [];
  for (const v of r.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    for (const n of v.nodes) out.push([v.id, n.target.join(' '), n.html.slice(0, 120)]);
  }
  return out;
}"""


def axe_violations(page):
    if page.evaluate("typeof window.axe") == "undefined":
        # Not a <script> tag: the real pages' CSP allows no inline script (it does allow
        # eval, which PyScript needs), so axe's source is evaluated in the page's global scope.
        with open(AXE, encoding="utf-8") as f:
            page.evaluate("(source) => { (0, eval)(source); }", f.read())
    return page.evaluate(AXE_RUN)


@pytest.mark.parametrize("width,height,n", [(360, 740, 8), (390, 844, 3), (1280, 800, 4),
                                            (320, 568, 8)])
def test_axe_finds_no_serious_or_critical_violation_on_any_screen(new_phone, screens_pages,
                                                                  width, height, n):
    """Issue 11.10: the landing, lobby, the table in each phase, results and game over,
    checked by axe-core, in both languages, with the menu open too."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                         reduced_motion="reduce")
    page = phone.page
    problems = []
    for lang in ("en", "es"):
        for name, model in M.screens(n, n // 2, M.LONG):
            for menu in ((False, True) if name in ("landing", "peek", "lobby-guest") else (False,)):
                ui = dict(model.get("_ui") or {}, lang=lang, menu_open=menu)
                H.show(page, dict(model, _ui=ui))
                for v in axe_violations(page):
                    problems.append((width, lang, name, menu) + tuple(v))
    kinds = {}
    for p in problems:
        kinds.setdefault(p[4], []).append(p)
    assert problems == [], {k: (len(v), v[:3]) for k, v in kinds.items()}
    assert console_errors(phone) == [] and phone.errors == []


# The widest names a room accepts (20 characters): Latin W and fullwidth W.
WIDE = ["W" * 20, "\uff37" * 20, "Maximiliana", "W" * 20, "Evangelina", "\uff37" * 20,
        "Gustavo A.", "W" * 20]

# What reads badly on a narrow phone: a cut title line, a name broken over lines, a name cut
# without its whole text in a title, and anything sticking out sideways.
NARROW = """() => {
  const vw = document.documentElement.clientWidth;
  const cut = (e) => e.scrollWidth > e.clientWidth + 0.5;
  const out = {title_cut: [], broken: [], hidden: [], wide: []};
  for (const e of document.querySelectorAll('#app .brand .title-main, #app .brand .title-sub'))
    if (cut(e)) out.title_cut.push(e.textContent);
  for (const e of document.querySelectorAll('#app .results .who, #app .seat .pname, #app .player .pname, #app .podium .who')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    const line = parseFloat(getComputedStyle(e).lineHeight) || 20;
    if (r.height > line * 1.6) out.broken.push(e.textContent + ' ' + Math.round(r.height));
    const whole = e.closest('[title]');
    if ((cut(e) || [...e.querySelectorAll('bdi')].some(cut))
        && !(whole && whole.getAttribute('title') === e.textContent))
      out.hidden.push(e.textContent);
  }
  for (const e of document.querySelectorAll('#app *')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && (r.right > vw + 0.5 || r.left < -0.5))
      out.wide.push((e.dataset.testid || e.className || e.tagName) + ' ' + Math.round(r.left)
                    + '..' + Math.round(r.right));
  }
  out.wide = out.wide.slice(0, 5);
  out.scroll_x = document.documentElement.scrollWidth - vw;
  return out;
}"""


def test_wide_names_and_the_round_title_read_well_on_a_360px_phone(new_phone, screens_pages):
    """At 360 x 640 with 8 seats of 20 wide characters: the top bar's "Round 2" and "Game to
    100" are whole (two lines, not one cut one), a name in the results is one line (cut with
    an ellipsis, its whole text its title), and nothing sticks out sideways: lobby, table,
    results and game over, in both languages."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": 360, "height": 640},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    problems = []
    for lang in ("en", "es"):
        for name, model in M.screens(8, 0, WIDE):
            if name not in ("lobby-host", "lobby-guest", "my-turn", "last-turns", "round-over",
                            "game-over", "stand-in"):
                continue
            H.show(page, dict(model, _ui=dict(model.get("_ui") or {}, lang=lang)))
            r = page.evaluate(NARROW)
            for k in ("title_cut", "broken", "hidden", "wide"):
                if r[k]:
                    problems.append((lang, name, k, r[k]))
            if r["scroll_x"] > 0:
                problems.append((lang, name, "scroll_x", r["scroll_x"]))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


# A name inside a sentence (the status line, the last move, the log) and the text after it:
# the name is not clipped in a box of its own (an ellipsis box is as wide as its max-width,
# so a cut name left a gap before the next word: "Turno de WWWW…   ."), and what follows it
# starts right after its last letter. [(where, name text, problem)]
SENTENCE_NAMES = """() => {
  const out = [];
  for (const b of document.querySelectorAll(
      '#app .statusbar bdi, #app .events bdi, #app .announce-slot bdi')) {
    const where = (b.closest('[data-testid]') || b.parentElement).dataset.testid
      || b.parentElement.className;
    if (b.scrollWidth > b.clientWidth + 0.5 && getComputedStyle(b).display !== 'inline')
      out.push([where, b.textContent, 'clipped']);
    const next = b.nextSibling;
    if (!next || next.nodeType !== 3 || !next.textContent.length) continue;
    const r1 = document.createRange(); r1.selectNodeContents(b);
    const names = [...r1.getClientRects()];
    const r2 = document.createRange(); r2.setStart(next, 0); r2.setEnd(next, 1);
    const after = r2.getClientRects()[0];
    const last = names[names.length - 1];
    if (!after || !last) continue;
    // a one-line sentence cut at its end (the last move) does not draw what is past its end
    if (after.right > b.parentElement.getBoundingClientRect().right + 0.5) continue;
    const box = b.getBoundingClientRect();
    const onLast = names.filter((r) => Math.abs(r.top - last.top) < 2);
    const end = Math.min(Math.max(...onLast.map((r) => r.right)), box.right);
    if (Math.abs(after.top - last.top) < 2 && after.left - end > 2.5)
      out.push([where, b.textContent, 'gap ' + Math.round(after.left - end)]);
  }
  return out;
}"""


@pytest.mark.parametrize("width,height", [(360, 640), (320, 568)])
def test_a_long_name_in_the_status_line_reads_without_a_gap(new_phone, screens_pages, width,
                                                            height):
    """A tester's report: in Spanish the status line read "Turno de WWWW…   ." with a gap
    before the full stop. With names of 20 wide letters or 20 emoji (the most a room takes),
    at 360 and 320 px, in both languages: no name in a sentence is cut inside a box of its
    own, the text after it follows it, and the page does not scroll sideways."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    problems = []
    emoji = ["\U0001F600" * 20, "\U0001F469\u200D\U0001F469\u200D\U0001F466" * 6 + "\U0001F3B2" * 2]
    for names in (WIDE, emoji * 4):
        for n in (3, 8):
            for lang in ("en", "es"):
                models = [("other-turn", M.table(n, 0, names, turn=1)),
                          ("other-extra", M.table(n, 0, names, turn=1, pending_draws=2)),
                          ("other-holds", M.table(n, 0, names, turn=1,
                                                  held={"seat": 1, "from": "deck",
                                                        "card": None}))]
                for name, model in models:
                    H.show(page, dict(model, _ui={"lang": lang}))
                    r = page.evaluate(SENTENCE_NAMES)
                    if r:
                        problems.append((lang, n, name, r[:3]))
                    # (a name clipped inside its pile's label sticks out only where it
                    # is not drawn: the page's own scroll width says what does)
                    m = page.evaluate(NARROW)
                    if m["scroll_x"] > 0:
                        problems.append((lang, n, name, "scroll_x", m["scroll_x"]))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


# Every control of the screen, scrolled into view as a browser does for a focused field or a
# tap (the nearest edge), then hit-tested at its centre: [(control, what covers it)] for each
# one another element covers (the lobby's sticky Start bar, the results sheet).
COVERED = """(block) => {
  const out = [];
  const name = (e) => e.dataset.testid || e.getAttribute('aria-label') || e.className
    || e.tagName;
  for (const e of document.querySelectorAll(
      '#app button, #app a[href], #app select, #app input, #app summary, #app [data-act]')) {
    const box = (e.type === 'checkbox' && e.closest('label')) || e;
    if (box.getBoundingClientRect().width === 0) continue;
    if (box.closest('.sheet') === null && document.querySelector('#app .sheet')) continue;
    box.scrollIntoView({block: block, inline: 'nearest'});
    const r = box.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(box.contains(hit) || hit.contains(box) && hit === box))
      out.push([name(e), hit ? name(hit) : 'nothing', Math.round(y)]);
  }
  window.scrollTo(0, 0);
  return out;
}"""


@pytest.mark.parametrize("width,height", [(360, 640), (320, 568)])
def test_no_control_is_covered_once_scrolled_into_view(new_phone, screens_pages, width, height):
    """A tester's report: on a 360 px phone the lobby's sticky Start bar covered part of the
    bot picker. Every control of the host's (1 to 8 seats) and a guest's lobby and of the
    table screens, scrolled into view at its nearest edge (as a focused field or a tap
    scrolls it) or at the start, is the element found at its centre, in both languages."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    problems = []
    for lang in ("en", "es"):
        for n in (1, 2, 3, 5, 8):
            # (alone, the host's bar also says a second player is needed: a taller bar)
            shots = [("lobby-host-%d" % n, M.lobby(n, 0, M.LONG, bots=tuple(range(1, n))))]
            if n > 1:
                shots.append(("lobby-guest-%d" % n, M.lobby(n, 1, M.LONG)))
            if n in (3, 8):
                shots += [(name, model) for name, model in M.screens(n, n // 2, M.LONG)
                          if model.get("screen") == "table"]
            for name, model in shots:
                H.show(page, dict(model, _ui=dict(model.get("_ui") or {}, lang=lang)))
                for block in ("nearest", "end", "start"):
                    r = page.evaluate(COVERED, block)
                    if r:
                        problems.append((lang, name, block, r[:4]))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


# The live controls of this player's own turn (the deck and the discard pile, the held card's
# buttons, crisp, ready, their own cards as swap targets) at the page's first view: those
# outside the viewport or under another element. [(control, top, bottom, what is hit)]
OWN_ACTIONS = """() => {
  const vh = window.innerHeight, vw = document.documentElement.clientWidth, out = [];
  const live = document.querySelectorAll(
    '#app .actions [data-act], #app .centre [data-act], #app .seat.me [data-act]');
  for (const e of live) {
    if (e.disabled) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.top < -0.5 || r.bottom > vh + 0.5 || r.left < -0.5 || r.right > vw + 0.5
        || !hit || !e.contains(hit))
      out.push([e.dataset.testid || e.className, Math.round(r.top), Math.round(r.bottom),
                hit ? (hit.dataset.testid || hit.className) : null]);
  }
  return {out: out, n: live.length};
}"""


@pytest.mark.parametrize("width,height", [(360, 640), (320, 568)])
def test_own_actions_show_without_scrolling_at_a_crowded_table_on_a_small_phone(
        new_phone, screens_pages, width, height):
    """A tester's report: with 8 seats on a 360 x 640 phone the player's own buttons fell
    below the fold. In every state of this player's turn (and the peek, the crisp window),
    with 5 to 8 seats, in both languages, each live control of their own (deck, discard
    pile, held card, use-special, discard-held, crisp, ready, their cards) is inside the
    viewport without scrolling and is what a tap at its centre hits."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                         is_mobile=True, has_touch=True, reduced_motion="reduce")
    page = phone.page
    problems = []
    for n in (5, 6, 8):
        for lang in ("en", "es"):
            for name, model in M.screens(n, n // 2, M.LONG):
                if name not in FITS:
                    continue
                H.show(page, dict(model, _ui=dict(model.get("_ui") or {}, lang=lang)))
                page.evaluate("window.scrollTo(0, 0)")
                r = page.evaluate(OWN_ACTIONS)
                assert r["n"] > 0 or name == "other-holds", name
                if r["out"]:
                    problems.append((n, lang, name, r["out"]))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []
