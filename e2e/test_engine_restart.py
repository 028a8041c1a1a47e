"""Issue 23, fault 3: the host's engine worker dies mid-turn and the round goes on. Ana holds
her drawn 6d when the worker closes (as a worker Pyodide gave up on, or one the browser
ended); her discard goes to the dead worker. The host page notices (no reply within
REPLY_MS, ui/page/host/enginewatch.py), starts a new worker and restores the room from its last save;
every screen says the game restarts (`restarting`: Ana's and Bea's "Hana's game is
restarting…"), the guests rejoin their seats, Ana still holds her 6d with her time, plays
it again and the round goes on. Before: the host page said data-engine=ready and every tap
did nothing.

Printed: from the worker's death to the table going on (every banner gone, Ana's card back)."""

import time

from crisp_rooms import join_room, no_errors, open_room
from test_reconnect import QUERY, timer_ms
from test_smoke import wait_engine
from crisp_e2e import T, live, sel, shows

WATCH = """
() => {
  window.__restarting = [];
  new MutationObserver(() => {
    const e = document.querySelector('[data-testid="restarting"]');
    const last = window.__restarting[window.__restarting.length - 1];
    if (e && last !== e.innerText) window.__restarting.push(e.innerText);
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}
"""


def table(new_phone):
    """table_of_three's table (Hana hosts; Ana, Bea; a 60 s draw timer; Ana's turn), the
    guests joining once the host's engine runs (a join while it starts waits for it)."""
    host, link = open_room(new_phone, "Hana", QUERY)
    hp = host.page
    wait_engine(hp)
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    bea = join_room(new_phone, link, "Bea", 2, (hp, ana.page))
    hp.select_option(sel("opt-draw-seconds"), "60")
    live(hp, "start-game")
    for p in (hp, ana.page, bea.page):
        live(p, "ready")
    return host, ana, bea


def engine_worker(page):
    return [w for w in page.workers if "/engine-worker-" in w.url][0]


def test_the_engine_worker_dies_mid_turn_and_the_round_goes_on(new_phone, timings):
    host, ana, bea = table(new_phone)
    hp, ap, bp = host.page, ana.page, bea.page
    live(ap, "deck")
    shows(ap, "held-card", "6d")
    time.sleep(1.5)                           # the draw saved (every change is)
    before = timer_ms(ap)
    for p in (hp, ap, bp):
        p.evaluate(WATCH)

    t0 = time.monotonic()
    engine_worker(hp).evaluate("self.close()")
    live(ap, "discard-held")                  # a tap the dead worker never answers
    # the host restarts its engine; every screen says so, then goes on
    try:
        for p in (hp, ap, bp):
            p.wait_for_function("window.__restarting.length > 0", timeout=T)
    except Exception:
        for name, phone in (("Hana", host), ("Ana", ana)):
            print("%s's console:\n%s" % (name, "\n".join(t for k, t in phone.console[-40:])))
        raise
    for p in (hp, ap, bp):
        p.wait_for_selector(sel("restarting"), state="detached", timeout=T)
        p.wait_for_selector(sel("connection"), state="detached", timeout=T)
    shows(ap, "held-card", "6d")              # restored from the save: still Ana's card
    back = time.monotonic() - t0
    after = timer_ms(ap)
    texts = {n: p.evaluate("window.__restarting") for n, p in (("Ana", ap), ("Bea", bp))}
    print("engine worker dead -> table on: %.1f s; Ana's draw timer %d -> %d ms; banners %r"
          % (back, before, after, texts))
    assert all("Hana" in t[0] and "restarting" in t[0] for t in texts.values()), texts
    assert after >= before - 4_000, (before, after)     # the clock held from the death
    timings.setdefault("engine worker died -> table on", []).append(back * 1000)
    assert hp.evaluate("document.body.dataset.engine") == "ready"

    # the move is made again, and counts; the round goes on with Bea
    live(ap, "discard-held")
    for p in (hp, ap, bp):
        shows(p, "discard", "6d")
    bp.wait_for_selector(sel("deck", ":not([disabled])"), timeout=T)
    no_errors(ana, bea)


# The host page counts its engine's restarts and when each began (page time, ms).
RESTARTS = """() => {
  const engine = window.crisp.engine, restart = engine.restart.bind(engine);
  window.__restartAt = [];
  engine.restart = () => { window.__restartAt.push(performance.now()); restart(); };
}"""


def died_and_came_back(hp, ap, bp, kill, restarts):
    """`kill` the host's engine worker (a JS expression run on the host page, which also
    notes when: window.__faultAt) while nobody moves: -> ms from the fault to the page's
    restart of its engine. The table then goes on: every banner gone, Ana's turn."""
    hp.evaluate("() => { window.__faultAt = performance.now(); %s; }" % kill)
    hp.wait_for_function("window.__restartAt.length >= %d" % restarts, timeout=T)
    found = hp.evaluate("window.__restartAt[%d] - window.__faultAt" % (restarts - 1))
    for p in (hp, ap, bp):
        p.wait_for_selector(sel("restarting"), state="detached", timeout=T)
        p.wait_for_selector(sel("connection"), state="detached", timeout=T)
    ap.wait_for_selector(sel("deck", ":not([disabled])"), timeout=T)
    return found


def test_an_engine_worker_that_closes_or_throws_is_restarted_within_5_s(new_phone, timings):
    """A worker that calls close() (no error event) while nobody moves, and one whose every
    request throws (as Pyodide after its fatal error): a test build's {op: "fault"}. Each is
    found dead within 5 s of its fault and restarted from the room's last save, the table
    told; the round goes on (Ana draws her 6d)."""
    host, ana, bea = table(new_phone)
    hp, ap, bp = host.page, ana.page, bea.page
    hp.evaluate(RESTARTS)
    found = {}
    for n, what in enumerate(("close", "throw"), 1):
        found[what] = died_and_came_back(
            hp, ap, bp, "window.crisp.engine.worker.postMessage({op: 'fault', what: '%s'})"
            % what, n)
    print("engine worker found dead (fault -> restart): %r ms" % found)
    for what, ms in found.items():
        timings.setdefault("engine worker %s -> restart" % what, []).append(ms)
    live(ap, "deck")
    for p in (hp, ap, bp):
        p.wait_for_selector(sel("held-card"), timeout=T)
    shows(ap, "held-card", "6d")
    assert all(ms <= 5000 for ms in found.values()), found
    no_errors(ana, bea)
