"""A guest who joins while the host's engine starts (issue 22 item 2): with Pyodide's wasm held
20 s, past the guest's 8 s wait for a welcome (link.ATTEMPT_MS) and the host page's 20 s
without progress, the guest was once locked out (the room seated its first join on a
connection that had closed, the later ones got `name_taken`).
Now the host's page answers at once (ui/page/host/early.py), the guest is told "Hana is setting
up the table…" and waits on its connection, and is seated once the engine runs: one
person, one seat, never `name_taken`."""

import time

from crisp_e2e import engine_ready, wait_ready
from crisp_rooms import no_errors, open_room, phone, report
from crisp_e2e import T, live, sel

from ui.page.net.link import ATTEMPT_MS

# How long the engine stays held after the guest's Join (issue 22 item 2: 20 s): past the
# guest's own wait for a welcome (ATTEMPT_MS), and past the host page's 20 s without progress
# (hostlife.ENGINE_SLOW_MS, counted from the last bytes): a download still pending is slow,
# never `failed`, and the room goes on once its bytes come.
HOLD_S = 20
assert HOLD_S > ATTEMPT_MS / 1000

# Each page notes (wall ms, one clock for both on this machine) the moment its own signal
# shows: the host's body[data-engine] turning "ready", the guest's own seat in its lobby.
MARK = """([what, selector]) => {
  const seen = () => {
    if (!window[what] && document.querySelector(selector)) window[what] = Date.now();
  };
  new MutationObserver(seen).observe(document.documentElement,
                                     {subtree: true, childList: true, attributes: true});
  seen();
}"""


def test_a_guest_who_joins_while_the_engine_starts_is_seated_once_it_runs(new_phone, timings):
    held = []

    def hold(p):
        p.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))

    host, link = open_room(new_phone, "Hana", engine=False, prepare=hold)
    hp = host.page
    guest = phone(new_phone)
    gp = guest.page
    gp.goto(link)
    assert wait_ready(gp) == "micropython"
    gp.wait_for_selector(sel("connection"), state="detached", timeout=T)
    gp.fill(sel("player-name"), "Gina")
    live(gp, "join-room")
    gp.wait_for_selector(sel("setting-up"), timeout=T)
    assert "Hana is setting up the table" in gp.inner_text(sel("setting-up"))
    t0 = time.monotonic()
    # the host's lobby shows her arriving meanwhile
    hp.wait_for_selector(sel("arriving"), timeout=T)
    assert hp.inner_text(sel("arriving")) == "Gina is arriving\u2026"
    while time.monotonic() - t0 < HOLD_S:            # the engine held, the guest waits
        assert gp.locator(sel("player-1")).count() == 0
        assert "taken" not in gp.inner_text("body")
        assert hp.locator(sel("arriving")).count() == 1
        gp.wait_for_timeout(500)
    assert hp.get_attribute("body", "data-engine") == "loading"
    assert held
    hp.evaluate(MARK, ["crispReadyAt", 'body[data-engine="ready"]'])
    gp.evaluate(MARK, ["crispSeatAt", '[data-testid="player-1"] .badge.you'])
    for route in held:
        route.continue_()                            # the engine starts
    engine_ready(hp)
    for p in (gp, hp):
        p.wait_for_selector(sel("player-1"), timeout=T)
    gp.wait_for_function("!!window.crispSeatAt", timeout=T)
    seated = gp.evaluate("window.crispSeatAt") - hp.evaluate("window.crispReadyAt")
    report(timings, "join while the engine starts: engine ready -> the guest's seat shown",
           [seated])
    assert hp.locator(sel("arriving")).count() == 0
    assert "Gina" in hp.inner_text(sel("player-1"))
    assert hp.locator(sel("player-1", ".away")).count() == 0     # her live connection
    assert hp.locator(sel("player-2")).count() == 0              # one person, one seat
    assert "taken" not in gp.inner_text("body")
    gp.wait_for_selector(sel("setting-up"), state="detached", timeout=T)
    no_errors(host, guest)
