"""The results sheet over the table, in a real browser, from hand-made models
(screens_harness.py): a card still in flight when the round ends (a bot's last discard, the
move that came with the round's end) passes under the rising sheet, never over its title
(a first-time player's try of a solo game: the face-up discard was drawn over "Round 1").
"""

import screen_models as M
from test_screens import console_errors  # noqa: F401
from test_screens import screens_pages  # noqa: F401 (a fixture)
from test_table_fit import show, small_phone

# A card in flight as ui/page/screens/flights.py makes one (the same classes and style, fixed over
# the page), set over the middle of the element `sel`: what an eye meets there (the flight is
# made hit-testable for the check: a real one lets taps through).
OVER = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const f = document.createElement('div');
  f.className = 'card md face flight';
  f.dataset.testid = 'flight';
  for (const [k, v] of [['left', (r.left + r.width / 2 - 20) + 'px'],
                        ['top', (r.top + r.height / 2 - 28) + 'px'], ['width', '40px'],
                        ['height', '56px'], ['--dx', '0px'], ['--dy', '0px'], ['--sx', '1'],
                        ['--sy', '1'], ['animation-duration', '100000ms'],
                        ['pointer-events', 'auto']])
    f.style.setProperty(k, v);
  document.body.appendChild(f);
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  f.remove();
  return !hit ? null : hit === f ? 'flight'
    : hit.closest('[data-testid=end-sheet]') ? 'sheet' : (hit.dataset.testid || hit.className);
}"""

# How many lines the results sheet's title words take (its own text, not the summary beside)
TITLE_LINES = """() => {
  const t = document.querySelector('#app .sheet-title').firstChild;
  const r = document.createRange();
  r.selectNodeContents(t);
  return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size;
}"""


def test_a_card_in_flight_passes_over_the_table_and_under_the_results_sheet(
        new_phone, screens_pages):
    """At 360 x 640, in both languages: during play a flight is seen over the status bar, an
    opponent's seat and the player's own hand; once a round or the game is over, under the
    results sheet's title (a tester's solo game: the last discard flew over "Round 1"), whose
    words take one line; they open at the page's top."""
    phone = small_phone(new_phone, screens_pages)
    page = phone.page
    screens = dict(M.screens(3, 0, M.LONG))
    problems = []
    for lang in ("es", "en"):
        show(page, screens["my-turn"], lang)
        for sel in ("#app .statusbar", "#app .seat.opp", "#app .seat.me"):
            seen = page.evaluate(OVER, sel)
            if seen != "flight":
                problems.append((lang, "my-turn", sel, seen))
        for name in ("round-over", "game-over"):
            # the round ends with the page scrolled down to the hand: the results open at
            # the page's top (a tester's solo results opened 193 px down)
            show(page, screens["my-turn"], lang)
            page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
            assert page.evaluate("window.scrollY") > 100
            show(page, screens[name], lang, top=False)
            scrolled = page.evaluate("window.scrollY")
            if scrolled != 0:
                problems.append((lang, name, "opened scrolled", scrolled))
            page.wait_for_selector("#app .sheet-title")
            seen = page.evaluate(OVER, "#app .sheet-title")
            if seen != "sheet":
                problems.append((lang, name, "sheet title", seen))
            # the title's words on one line (es wrapped "Resultados de la ronda / 1")
            lines = page.evaluate(TITLE_LINES)
            if lines != 1:
                problems.append((lang, name, "title lines", lines))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []
