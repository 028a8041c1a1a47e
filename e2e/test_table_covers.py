"""The table on a small phone, in a real browser, from hand-made models (screens_harness.py):
issue 20 items 3, 4, 9 and 11 (what covers what; the seats are in test_table_fit.py).

- An announcement ("Your turn!", "Ana called CRISP!", "Round over") never covers the
  instruction line, the player's own hand, a button or the results' rows (bounding boxes
  while it shows), and the player's own controls stay on the first screen meanwhile.
- The results keep the next action in reach; the lobby's Start bar covers no row.
"""

import pytest

import screen_models as M
from test_screens import OWN_ACTIONS, console_errors, open_screens  # noqa: F401
from test_screens import screens_pages  # noqa: F401 (a fixture)
from test_table_fit import REVIEW, TABLE_STATES, WIDE, show, small_phone

# What an announcement covers: [(what, its test id or class)] for the instruction line, the
# second status line, the player's own cards, the results' rows, and every button or other
# control on screen (not the announcement's own), where their boxes and the announcement's
# overlap by more than a pixel.
COVERS = """() => {
  const a = document.querySelector('#app [data-testid="announce"]');
  if (!a) return null;
  const slot = a.closest('.announce-slot');
  if (slot && getComputedStyle(slot).clipPath !== 'none') return [['hidden', slot.className]];
  const A = a.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  const name = (e) => e.dataset.testid || e.getAttribute('aria-label') || e.className
    || e.tagName;
  const out = [];
  const check = (what, e) => {
    if (a.contains(e) || e.contains(a)) return;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    const w = Math.min(r.right, A.right) - Math.max(r.left, A.left);
    const h = Math.min(r.bottom, A.bottom) - Math.max(r.top, A.top);
    if (w > 1 && h > 1) out.push([what, name(e)]);
  };
  for (const e of document.querySelectorAll('#app .status, #app .statusbar .sub'))
    check('instruction', e);
  for (const e of document.querySelectorAll('#app .seat.me .card')) check('hand', e);
  for (const e of document.querySelectorAll('#app .results tr')) check('results', e);
  for (const e of document.querySelectorAll(
      '#app button, #app a[href], #app select, #app input, #app summary, #app [data-act]'))
    check('control', e);
  // and the announcement itself: inside the screen, its words not cut (a long name may be,
  // with an ellipsis, when the announcement's title has it whole; statusbar.cut_name may
  // have cut it first, ending in "\u2026")
  const whole = a.getAttribute('title') || '';
  const cut = [...a.querySelectorAll('strong, small, bdi')].filter(
    (e) => e.scrollWidth > e.clientWidth + 0.5 && getComputedStyle(e).display !== 'inline'
      && !(e.tagName === 'BDI' && getComputedStyle(e).textOverflow === 'ellipsis'
           && whole.includes(e.textContent.replace(/\u2026$/, ''))));
  const words = a.querySelector('strong');
  const W = words ? words.getBoundingClientRect() : A;
  if (A.left < -0.5 || A.right > vw + 0.5 || W.left < A.left - 0.5 || W.right > A.right + 0.5
      || cut.length)
    out.push(['outside', Math.round(A.left) + '..' + Math.round(A.right) + ' words '
              + Math.round(W.left) + '..' + Math.round(W.right) + ' cut ' + cut.length]);
  return out;
}"""

# (the screen, the announcement shown on it)
ANNOUNCED = [
    ("my-turn", {"kind": "your_turn"}),
    ("queen-target", {"kind": "last_turn", "n": 3}),
    ("held", {"kind": "crisp", "seat": 1, "n": 7, "mine": True}),
    ("crisp-window", {"kind": "crisp", "seat": 2, "n": 7}),
    ("other-holds", {"kind": "crisp", "seat": 1, "n": 7}),
    ("last-turns", {"kind": "crisp", "seat": None, "n": 7}),        # this seat called
    ("round-over", {"kind": "round_over"}),
    ("game-over", {"kind": "game_over"}),
]


@pytest.mark.parametrize("width,height,n", [(360, 640, 8), (390, 844, 3), (1280, 800, 4)])
def test_an_announcement_covers_no_instruction_hand_or_button(new_phone, screens_pages, width,
                                                             height, n):
    """Issue 20.3: while "Your turn!", "Ana called CRISP! / Your last turn!" or "Round over"
    shows, it overlaps neither the instruction line, the player's own cards, the results'
    rows nor any control, it is inside the screen with its words whole (a 20-letter name,
    item 4), and the player's own live controls are still on the first screen, in both
    languages."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                         is_mobile=width < 800, has_touch=width < 800, reduced_motion="reduce")
    page = phone.page
    problems = []
    found = 0
    for names in (REVIEW, WIDE):
        for lang in ("en", "es"):
            models = dict(M.screens(n, 0, names))
            for name, ann in ANNOUNCED:
                ann = dict(ann, at=1000000)
                if ann.get("seat") is None and ann["kind"] == "crisp":
                    ann["seat"] = 0
                model = models[name]
                show(page, dict(model, _clock=1000000,
                                _ui=dict(model.get("_ui") or {}, announce=ann)), lang)
                r = page.evaluate(COVERS)
                assert r is not None, (name, ann)
                if r and r[0][0] == "hidden" and ann["kind"] in ("round_over", "game_over"):
                    # the results sheet rising over the table shows it; its live region
                    # still says it (off screen)
                    assert page.is_visible('[data-testid="end-sheet"] .sheet-title')
                    r = []
                found += len(r)
                if r:
                    problems.append((lang, names[1][:4], name, ann["kind"], r[:4]))
                if name in ("my-turn", "held", "queen-target", "crisp-window"):
                    own = page.evaluate(OWN_ACTIONS)
                    if own["out"]:
                        problems.append((lang, name, ann["kind"], "own controls", own["out"]))
    print("announcement overlaps at %dx%d: %d boxes on %d of %d screens"
          % (width, height, found, len([p for p in problems if p[3] != "own controls"]),
             2 * 2 * len(ANNOUNCED)))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


# The results sheet at its first view: the next action's box and what a tap at its centre
# hits, the deal check's height, and the sheet's "you" marks.
RESULTS = """(next) => {
  const vh = window.innerHeight;
  const b = document.querySelector('#app [data-testid="' + next + '"]');
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const fair = document.querySelector('#app [data-testid="round-verified"]');
  return {next: r.top >= 0 && r.bottom <= vh + 0.5 && !!hit && b.contains(hit),
          fair_h: fair ? Math.round(fair.getBoundingClientRect().height) : null,
          you: [...document.querySelectorAll('#app .sheet [data-testid^="you-"]')]
            .map((e) => e.closest('[data-testid^="result-"], [data-testid^="podium-"]')
                         .dataset.testid)};
}"""


@pytest.mark.parametrize("width,height,n", [(360, 640, 8), (390, 844, 3)])
def test_the_results_keep_the_next_action_in_reach_and_mark_your_row(
        new_phone, screens_pages, width, height, n):
    """Issue 20.9: at the end of a round the host's Next round (and at game over New game) is
    on the first screen and is what a tap hits, however long the sheet; the deal's check is
    one line that opens to its details on a tap; the player's own row (and podium step) says
    "you"."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    for lang in ("en", "es"):
        models = dict(M.screens(n, 0, REVIEW))
        for name, nxt, marks in (("round-over", "next-round", ["result-0"]),
                                 ("game-over", "new-game", ["podium-0", "result-0"])):
            model = dict(models[name], verdict={"round": 2, "ok": True, "skipped": [n - 1]},
                         games=1)
            if name == "game-over":
                model["view"] = dict(model["view"], allowed=[{"do": "new_game"}])
            show(page, model, lang)
            if not page.locator('[data-testid="%s"]' % nxt).count():
                continue                       # (a game over without New game: none to reach)
            r = page.evaluate(RESULTS, nxt)
            assert r["next"], (lang, name)
            assert r["fair_h"] is not None and r["fair_h"] <= 48, (lang, name, r)
            assert sorted(r["you"]) == sorted(marks), (lang, name, r)
            assert not page.is_visible('[data-testid="save-record"]')
            page.locator('[data-testid="fair-details"]').scroll_into_view_if_needed()
            page.tap('[data-testid="fair-details"]')
            assert page.is_visible('[data-testid="save-record"]')
            # (who was not in time, in the details)
            assert REVIEW[n - 1] in page.inner_text('[data-testid="round-verified"]')
    assert console_errors(phone) == [] and phone.errors == []


# The host's lobby: each player's row and each option, scrolled to the bottom edge of the
# screen (as the page scrolls to its end) and to its top: [(what, what covers it)].
LOBBY_COVERED = """(block) => {
  const out = [];
  for (const e of document.querySelectorAll('#app .player, #app .options .field')) {
    e.scrollIntoView({block: block});
    const r = e.getBoundingClientRect();
    for (const y of [r.top + 3, r.top + r.height / 2, r.bottom - 3]) {
      const hit = document.elementFromPoint(r.left + 12, y);
      if (!hit || !e.contains(hit))
        out.push([e.dataset.testid || e.textContent.slice(0, 20),
                  hit ? (hit.dataset.testid || hit.className) : null]);
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""


@pytest.mark.parametrize("width,height", [(360, 640), (320, 568)])
def test_the_lobby_start_bar_covers_no_row_and_offline_shows_no_invitation(
        new_phone, screens_pages, width, height):
    """Issue 20.11: the host alone (Start disabled) and with 8 seats: the Start bar covers
    neither a player's row nor an option, scrolled anywhere; a host offline is shown no link,
    code or QR code (nobody new can join), and they come back with the connection; the name
    field says how long a name may be (item 4)."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    problems = []
    for lang in ("en", "es"):
        for n in (1, 2, 8):
            show(page, M.lobby(n, 0, REVIEW, bots=tuple(range(1, n))), lang)
            for block in ("end", "start", "center"):
                r = page.evaluate(LOBBY_COVERED, block)
                if r and n == 1:                 # (the bar of a Start that can be tapped
                    problems.append((lang, n, block, r[:3]))   # may stick over a row)
        lob = M.lobby(3, 0, REVIEW)
        for status in ("reconnecting", "connecting"):
            show(page, dict(lob, status=status), lang)
            assert page.locator('[data-testid="invite-offline"]').is_visible()
            for tid in ("room-link", "room-qr", "lobby-code", "copy-link"):
                assert page.locator('[data-testid="%s"]' % tid).count() == 0, (status, tid)
        show(page, lob, lang)
        assert page.locator('[data-testid="room-link"]').is_visible()
        show(page, M.landing(), lang)
        assert "20" in page.inner_text('[data-testid="name-max"]')
        assert page.get_attribute('[data-testid="player-name"]', "maxlength") == "20"
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


# The quick reactions' button and its picker: [(what, what it overlaps)] by more than half a
# pixel: the button against every other control and the player's own cards; the picker (when
# open) against the player's own cards and the table's action buttons.
REACT_OVER = """() => {
  const out = [];
  const name = (e) => e.dataset.testid || e.getAttribute('aria-label') || e.className
    || e.tagName;
  const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const btn = document.querySelector('#app [data-testid="react-open"]');
  if (!btn) return null;
  const B = btn.getBoundingClientRect();
  const box = btn.closest('.react-box');
  const controls = [...document.querySelectorAll(
      '#app button, #app a[href], #app select, #app input, #app summary, #app [data-act]')]
    .filter((e) => !box.contains(e) && e.getBoundingClientRect().width > 0);
  const cards = [...document.querySelectorAll('#app .seat.me .card')];
  for (const e of controls.concat(cards))
    if (over(B, e.getBoundingClientRect())) out.push(['button', name(e)]);
  const picker = document.querySelector('#app [data-testid="react-picker"]');
  if (picker) {
    const P = picker.getBoundingClientRect();
    for (const e of cards.concat([...document.querySelectorAll('#app .actions [data-act]')]))
      if (over(P, e.getBoundingClientRect())) out.push(['picker', name(e)]);
  }
  return out;
}"""


@pytest.mark.parametrize("width,height", [(360, 640), (390, 844)])
def test_the_reactions_button_and_picker_cover_no_control_or_own_card(
        new_phone, screens_pages, width, height):
    """The quick reactions' button overlaps no other control (the Crisp button under it) and
    none of the player's own cards, at every table size (2 to 8 seats) and in every state of a
    round; its picker, open, covers neither the player's own cards nor the table's buttons
    while the Crisp window is open. Both languages."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    problems = []
    for lang in ("en", "es"):
        for n in range(2, 9):
            models = dict(M.screens(n, n // 2, REVIEW))
            for name in TABLE_STATES:
                for opened in ((False, True) if name == "crisp-window" else (False,)):
                    model = models[name]
                    ui = dict(model.get("_ui") or {}, react_open=opened)
                    show(page, dict(model, _ui=ui), lang)
                    r = page.evaluate(REACT_OVER)
                    assert r is not None, (n, name)
                    if r:
                        problems.append((lang, n, name, opened, r))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


# The Crisp button's words at this moment: [(which, WCAG contrast ratio)] of each of its words
# (the word, its seconds' chip) over every colour under part of it: the bar's fill (the time
# left, which drains to the left) and the button's own background it uncovers; a chip's own
# translucent background composited over what is under it. And the button's background
# image (a gradient would hide its colours from this reading).
CRISP_CONTRAST = """() => {
  const rgba = (s) => { const v = s.match(/[\\d.]+/g).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  const over = (t, u) => [0, 1, 2].map((i) => t[i] * t[3] + u[i] * (1 - t[3])).concat([1]);
  const lum = (c) => { const f = (x) => { x /= 255;
      return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const btn = document.querySelector('#app [data-testid="crisp"]');
  const fill = btn.querySelector('.crisp-fill');
  const F = fill.getBoundingClientRect();
  const bg = rgba(getComputedStyle(btn).backgroundColor);
  const fc = rgba(getComputedStyle(fill).backgroundColor);
  const out = [];
  for (const sel of ['.crisp-word', '.crisp-left']) {
    const e = btn.querySelector(sel), R = e.getBoundingClientRect(), st = getComputedStyle(e);
    const fg = rgba(st.color), own = rgba(st.backgroundColor);
    const under = [];
    if (F.width > 0.5 && R.left < F.right - 0.5) under.push(['fill', fc]);
    if (R.right > F.right + 0.5) under.push(['button', bg]);
    for (const [what, u] of under)
      out.push([sel + ' on ' + what,
                Math.round(100 * ratio(fg, own[3] > 0 ? over(own, u) : u)) / 100]);
  }
  return {ratios: out, image: getComputedStyle(btn).backgroundImage};
}"""


@pytest.mark.parametrize("width,height,n", [(360, 640, 8), (390, 844, 3)])
def test_the_crisp_buttons_words_read_at_4_5_to_1_through_its_whole_window(
        new_phone, screens_pages, width, height, n):
    """The Crisp button's word and its seconds, white over the bar that drains (the time
    left) and over the button it uncovers, read at 4.5:1 or more (WCAG AA for text under
    18.66 px bold: 17 px at 8 seats) at every moment of the 3 s window, sampled from the
    first frame to the last (the bar stands where the view puts it with reduced motion)."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    model = dict(M.screens(n, 1, REVIEW))["crisp-window"]
    low = []
    for left in (3000, 2700, 2250, 1800, 1500, 1200, 900, 600, 300, 60, 1):
        v = dict(model["view"], crisp_window={"seat": 1, "left": left, "sent": left})
        show(page, dict(model, view=v), "es")
        r = page.evaluate(CRISP_CONTRAST)
        assert r["image"] == "none", r
        assert r["ratios"], left
        low += [(left, what, x) for what, x in r["ratios"] if x < 4.5]
    assert low == []
    assert console_errors(phone) == [] and phone.errors == []
