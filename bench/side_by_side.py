"""Two builds side by side in one run (bench/page_bench.py --against; issue 22 item 6):

    .venv/bin/python bench/page_bench.py --dist AFTER --against BEFORE [--runs 3] [--cpu 4]
        [--only engine,solo,join,reload,taps3,taps8]

AFTER and BEFORE are two builds (tools/build.py --out DIR; a build of main is BEFORE). Each
is served by its own tools/serve.mjs (gzip on) and measured in turn, run after run, in one
headless Debian Chromium, so that a machine that other work loads meanwhile weighs on both
alike. `--cpu N`: every page runs on a CPU N times slower (Chrome's CPU throttling, as a
mid-range phone at 4). Medians of `--runs` runs, ms:

  engine ready cold    navigation start to body[data-engine=ready] on a host page, nothing
                       cached (a fresh browser context)
  engine ready warm    the same once the service worker has kept the files (a reload)
  engine own start     the engine worker's own start (its `ready` message's ms), cold
  solo tap to table    Play solo tapped on a landing that just became usable (cold), to the
                       table (the first card of seat 1 shown)
  join: tap to seated  a guest's Join tapped while the host's engine starts (the host created
                       its room as soon as its landing showed), to the guest's seat shown
  join: seated - ready the guest seated, less the host's engine ready (same clock)
  host reload          a host of a table of three reloaded, to every screen back as before
  tap to every screen  (3 and 8 players) a player's tap (draw, discard) to the line it makes in
                       every other player's event log; p50 and p95 over the taps

Prints numbers; asserts nothing.
"""

import contextlib
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from crisp_e2e import LAUNCH_ARGS, PHONE, READY_PROBE  # noqa: E402
from pyodide_bench import local_site  # noqa: E402

WAIT = 300_000
ENGINE_DONE = "['ready', 'failed'].includes(document.body.dataset.engine)"


def sel(testid, extra=""):
    return '[data-testid="%s"]%s' % (testid, extra)


class Phones:
    """Browser contexts (phones) for one measurement, throttled `cpu` times; closed at exit."""

    def __init__(self, browser, cpu):
        self.browser, self.cpu, self.contexts = browser, cpu, []

    def new(self, init=()):
        context = self.browser.new_context(**PHONE)
        context.add_init_script(READY_PROBE)
        for script in init:
            context.add_init_script(script)
        self.contexts.append(context)
        page = context.new_page()
        self.throttle(page)
        return page

    def throttle(self, page):
        if self.cpu > 1:
            page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                    {"rate": self.cpu})

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for c in self.contexts:
            with contextlib.suppress(Exception):
                c.close()


def landing(page, url):
    page.goto(url)
    page.wait_for_function("window.__crispReadyAt !== undefined", timeout=WAIT)


def engine_at(page):
    """The host page's engine ready time, ms since its navigation start; None if it failed."""
    page.wait_for_function(ENGINE_DONE, timeout=WAIT)
    if page.evaluate("document.body.dataset.engine") != "ready":
        return None
    return page.evaluate("window.crisp.times.engine")


def tap(page, testid):
    page.wait_for_selector(sel(testid, ":not([disabled])"), timeout=WAIT)
    page.click(sel(testid, ":not([disabled])"))


def measure_engine(phones, base):
    page = phones.new()
    landing(page, base)
    out = {"engine ready cold": engine_at(page),
           "engine own start": page.evaluate("window.crisp.times.engineOwn || null")}
    page.wait_for_function("document.body.dataset.offline === 'engine'", timeout=WAIT)
    page.close()
    page = page.context.new_page()
    phones.throttle(page)
    landing(page, base)
    out["engine ready warm"] = engine_at(page)
    return out


def measure_solo(phones, base):
    page = phones.new()
    landing(page, base + "?botpace=0.1")
    page.fill(sel("player-name"), "Sol")
    t0 = time.monotonic()
    tap(page, "play-solo")
    page.wait_for_selector(sel("card-1-left"), timeout=WAIT)
    return {"solo tap to table": (time.monotonic() - t0) * 1000}


def epoch(page, expr):
    """A page's performance.now()-based time `expr` as ms since the epoch (one clock for all
    the pages of this machine)."""
    return page.evaluate("performance.timeOrigin + (%s)" % expr)


def measure_join(phones, base):
    host = phones.new()
    landing(host, base)
    host.fill(sel("player-name"), "Hana")
    tap(host, "create-room")
    host.wait_for_selector(sel("room-link"), timeout=WAIT)
    link = host.inner_text(sel("room-link")).strip()
    guest = phones.new()
    guest.goto(link)
    guest.wait_for_function("window.__crispReadyAt !== undefined", timeout=WAIT)
    guest.wait_for_selector(sel("player-name"), timeout=WAIT)
    guest.fill(sel("player-name"), "Ana")
    t0 = time.time() * 1000
    tap(guest, "join-room")
    guest.wait_for_selector(sel("player-1"), timeout=WAIT)
    seated = time.time() * 1000
    if engine_at(host) is None:
        return {}
    ready = epoch(host, "window.crisp.times.engine")
    return {"join: tap to seated": seated - t0, "join: seated - ready": seated - ready}


MEASURES = {"engine": measure_engine, "solo": measure_solo, "join": measure_join}


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def compare(dists, runs, cpu=1, only=None):
    """Run the MEASURES (`only`: some of them) on every build of `dists`, in turn, `runs`
    times; print their medians side by side."""
    from playwright.sync_api import sync_playwright

    names = [n for n in MEASURES if not only or n in only]
    results = [{} for _ in dists]
    with contextlib.ExitStack() as stack, sync_playwright() as pw:
        bases = [stack.enter_context(local_site(d)) for d in dists]
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        for _ in range(runs):
            for i, base in enumerate(bases):
                for name in names:
                    with Phones(browser, cpu) as phones:
                        for key, value in MEASURES[name](phones, base).items():
                            results[i].setdefault(key, []).append(value)
        browser.close()
    labels = [os.path.basename(os.path.normpath(d)) or d for d in dists]
    print("side by side, %d runs, CPU slowed x%g (medians, ms):" % (runs, cpu))
    print("  %-26s" % "" + "".join("%16s" % label[:15] for label in labels) + "%10s" % "ratio")
    keys = []
    for r in results:
        keys += [k for k in r if k not in keys]
    for key in keys:
        values = [med(r.get(key, [])) for r in results]
        ratio = values[0] / values[1] if len(values) > 1 and values[1] else float("nan")
        print("  %-26s" % key + "".join("%16.0f" % v for v in values) + "%10.2f" % ratio)
    for d, label in zip(dists, labels):
        print("  %s: %s" % (label, d))
