"""Play solo answers its tap on the button itself (issue 22 item 3, issue 20 item 5): from the
frame after the tap the button says "Shuffling the deck…" (with the engine's percent and a
filling bar while it starts), in player words, and the table follows as soon as the engine
runs; the guided first round's button does the same. Prints the tap -> table time (crisp
timings)."""

from crisp_e2e import engine_ready, wait_ready
from crisp_rooms import no_errors, phone, report
from crisp_e2e import T, sel

# In the page: at the tap (a capturing listener, before the page's own), the wall clock, and
# in the next animation frame (before it is painted) what the button says; then when the
# table's own seat first shows.
WATCH = """(testid) => {
  const button = () => document.querySelector(`[data-testid="${testid}"]`);
  document.addEventListener('click', (e) => {
    if (!e.target.closest(`[data-testid="${testid}"]`) || window.crispTapAt) return;
    window.crispTapAt = Date.now();
    requestAnimationFrame(() => {
      const b = button();
      window.crispFirstFrame = b ? {busy: b.dataset.busy || null, text: b.innerText} : null;
    });
  }, true);
  new MutationObserver(() => {
    if (!window.crispReadyAt && document.body.dataset.engine === 'ready') {
      window.crispReadyAt = Date.now();
    }
    if (window.crispTapAt && !window.crispTableAt
        && document.querySelector('[data-testid="card-0-left"]')) window.crispTableAt = Date.now();
  }).observe(document.documentElement, {subtree: true, childList: true, attributes: true});
}"""

TECHNICAL = ("Python", "MicroPython", "MB", "engine", "wasm", "Pyodide")


def landing(new_phone, hold=False, testid="play-solo"):
    """A first visit's landing (Pyodide's wasm held when `hold`), watching the button
    `testid`'s tap (WATCH), "Sol" typed in. -> (phone, page, held routes)."""
    me = phone(new_phone, tap=False)
    held = []
    if hold:
        me.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page = me.page
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    page.evaluate(WATCH, testid)
    page.fill(sel("player-name"), "Sol")
    return me, page, held


def shows_progress_while_held(page, testid, held):
    """The tapped button `testid` says from the next frame on, in player words, how far the
    game has come while the engine is held; then the engine is let go and the table shows."""
    page.wait_for_function("window.crispFirstFrame !== undefined", timeout=T)
    first = page.evaluate("window.crispFirstFrame")
    assert first["busy"] == "true" and first["text"].startswith("Shuffling the deck")
    # the engine held: the button keeps saying how far the game has come, in percent
    page.wait_for_function(
        "(testid) => /Shuffling the deck\u2026 [0-9]+%/.test(document.querySelector("
        "`[data-testid=\"${testid}\"]`).innerText)", arg=testid, timeout=T)
    text = page.inner_text(sel(testid))
    assert not any(word in text for word in TECHNICAL), text
    assert page.is_disabled(sel(testid))          # no second game from a second tap
    assert page.get_attribute("body", "data-engine") == "loading"
    for route in held:
        route.continue_()
    engine_ready(page)
    page.wait_for_selector(sel("card-0-left"), timeout=T)


def test_the_tapped_button_shows_progress_in_player_words_then_the_table(new_phone):
    me, page, held = landing(new_phone, hold=True)
    page.click(sel("play-solo"))
    shows_progress_while_held(page, "play-solo", held)
    no_errors(me)


def test_the_guided_rounds_button_shows_progress_in_player_words_then_the_table(new_phone):
    """The landing's guided first round (a first visit) answers its tap the same way
    (ui/page/screens/guided_screens.py through solo_button.progress_button)."""
    me, page, held = landing(new_phone, hold=True, testid="guided-play")
    page.click(sel("guided-play"))
    assert page.locator(sel("guided-no")).count() == 0
    shows_progress_while_held(page, "guided-play", held)
    page.wait_for_selector(sel("guide"), timeout=T)         # the round's first tip
    no_errors(me)


def test_play_solo_tapped_as_the_landing_shows_reaches_the_table(new_phone, timings):
    """A cold page: the tap as soon as the landing is ready, the engine still starting."""
    me, page, _ = landing(new_phone)
    page.click(sel("play-solo"))
    page.wait_for_function("window.crispFirstFrame !== undefined", timeout=T)
    first = page.evaluate("window.crispFirstFrame")
    if first["busy"] is None:
        # the engine was quicker than one frame and the table already replaced the landing
        assert page.locator(sel("card-0-left")).count() == 1
    else:
        assert first["text"].startswith("Shuffling the deck")
    engine_ready(page)
    page.wait_for_selector(sel("card-0-left"), timeout=T)
    page.wait_for_function("!!window.crispTableAt", timeout=T)
    tap_to_table = page.evaluate("window.crispTableAt - window.crispTapAt")
    report(timings, "Play solo: tap (landing just shown, engine cold) -> the table", [tap_to_table])
    ready = page.evaluate("window.crispReadyAt && window.crispReadyAt >= window.crispTapAt"
                          " ? window.crispTableAt - window.crispReadyAt : null")
    if ready is not None:     # (the engine ready after the tap)
        report(timings, "Play solo: engine ready -> the table", [ready])
    no_errors(me)
