"""A host that reloads mid-game (issue 22 item 2): while its page's engine starts again (here
Pyodide's wasm held on the reload, to make that window plain to see) every guest is told
"Hana is back, setting up…" (ui/page/host/early.py's `setup`, back: true), never a frozen table nor
the host-gone panel, and once the engine runs the table comes back for everyone as it was.
Prints reload -> every screen back, and engine ready -> every screen back (crisp timings)."""

import time

from crisp_e2e import engine_ready, wait_ready
from crisp_rooms import (SIGNATURE, join_room, no_errors, open_room, report, signature,
                         wait_signature)
from crisp_e2e import T, live, sel

# The wasm is held this long once both guests say the host is back and setting up: long
# enough to see that they keep saying so (and show nothing else) while the engine starts.
HOLD_S = 8

BACK = "Hana is back, setting up\u2026"

# The first turn (Ana's) shown, and the announcement of it gone.
TURN_SHOWN = """() => {
  const status = document.querySelector('[data-testid="status"]');
  return !!status && /Your turn|Ana's turn/.test(status.innerText)
    && !document.querySelector('[data-testid="announce"]');
}"""

# Each page notes (wall ms, one clock for every page on this machine) when what it shows
# first equals `expected` again (crisp_rooms.SIGNATURE) with no setting-up banner, and the
# host when its engine runs.
MARK_BACK = """(expected) => {
  const now = %s;
  const seen = () => {
    if (!window.crispReadyAt && document.body.dataset.engine === "ready")
      window.crispReadyAt = Date.now();
    if (!window.crispBackAt && now() === expected
        && !document.querySelector('[data-testid="setting-up"]')) window.crispBackAt = Date.now();
  };
  new MutationObserver(seen).observe(document.documentElement,
                                     {subtree: true, childList: true, attributes: true});
  seen();
}""" % SIGNATURE.strip()


def test_guests_of_a_reloaded_host_see_it_setting_up_then_the_table_comes_back(
        new_phone, timings):
    # no service worker on the host's phone: its reload fetches the wasm again (a kept one
    # would come from the service worker's cache, which no route sees)
    host, link = open_room(new_phone, "Hana", context={"service_workers": "block"})
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    bea = join_room(new_phone, link, "Bea", 2, (hp, ana.page))
    ap, bp = ana.page, bea.page
    live(hp, "start-game")
    for p in (hp, ap, bp):
        live(p, "ready")
    for p in (hp, ap, bp):
        # Ana's turn on every screen, and its announcement gone (it comes and goes)
        p.wait_for_function(TURN_SHOWN, timeout=T)
    hp.wait_for_url("**host=crisp-*", timeout=T)     # the URL names the room: a reload resumes it
    pages = (("Hana", hp), ("Ana", ap), ("Bea", bp))
    before = {name: signature(p) for name, p in pages}

    held = []
    host.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    t0 = time.monotonic()
    hp.reload()
    assert wait_ready(hp) == "micropython"
    for p in (ap, bp):
        p.wait_for_selector(sel("setting-up"), timeout=T)
        assert p.inner_text(sel("setting-up")) == BACK
    assert hp.get_attribute("body", "data-engine") == "loading"
    # the engine held: the guests keep saying the host is back and setting up, with the
    # table under it, and nothing else (no host-gone panel, no other banner)
    t1 = time.monotonic()
    while time.monotonic() - t1 < HOLD_S:
        for p in (ap, bp):
            assert p.inner_text(sel("setting-up")) == BACK
            assert p.locator(sel("host-gone")).count() == 0
            assert p.locator(sel("connection")).count() == 0
            assert p.locator(sel("card-0-left")).count() == 1
        ap.wait_for_timeout(500)
    assert hp.get_attribute("body", "data-engine") == "loading"
    assert held
    for name, p in pages:
        p.evaluate(MARK_BACK, before[name])
    for route in held:
        route.continue_()                         # the engine starts
    engine_ready(hp)
    for name, p in pages:                         # every screen as before
        wait_signature(p, before[name])
    for p in (ap, bp):
        p.wait_for_selector(sel("setting-up"), state="detached", timeout=T)
    for _, p in pages:
        p.wait_for_function("!!window.crispBackAt", timeout=T)
    back = max(p.evaluate("window.crispBackAt") for _, p in pages)
    report(timings, "host reload, wasm held %d s: reload -> every screen back" % HOLD_S,
           [(time.monotonic() - t0) * 1000])
    report(timings, "host reload: engine ready -> every screen back",
           [back - hp.evaluate("window.crispReadyAt")])
    # and the game goes on: Ana, whose turn it is, draws
    live(ap, "deck")
    ap.wait_for_selector(sel("held-card"), timeout=T)
    no_errors(ana, bea)
    assert host.errors == []
