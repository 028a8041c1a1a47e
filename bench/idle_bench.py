"""What a table costs while nobody taps: CPU per second of a solo table waiting on the player.

    python3 tools/build.py && .venv/bin/python bench/idle_bench.py [--dist DIR] [--seconds 8]
        [--runs 3] [--against DIR]

Opens a solo game in headless Debian Chromium at a phone's size (the e2e suite's PHONE),
taps Ready and waits until it is the player's turn (the deck live, glowing: it waits for a
tap). Then, for ``--seconds``, it reads two clocks: the page's main-thread task time (Chrome's
Performance.getMetrics TaskDuration) and the CPU time (user + system, from /proc) of every
process of this browser (the page's renderer, the GPU and compositor process, the browser
itself), both per second of wall time. A phone pays that CPU in battery while its player
thinks; the 2-core test machine pays it in every other page's speed.

Then the same table's player draws and discards, and the same two clocks are read for
CRISP_S while its Crisp button glows (R10.1: the 3 s its player may call; the bots wait 2 s
before their turn): every player's phone spends that after every turn of theirs, and a
looping effect that repaints is paid 60 times a second there. With ``--against``, a second
build is measured in the same run, the two in turn. Prints numbers; asserts nothing.
"""

import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from crisp_e2e import LAUNCH_ARGS, PHONE  # noqa: E402
from pyodide_bench import local_site  # noqa: E402  (same folder)

WAIT = 120_000          # ms: the engine's start on a loaded machine, then the bots' turns
TICK = os.sysconf("SC_CLK_TCK")
CRISP_S = 1.5           # s: within the 2 s before the next seat (a bot) may begin (R10.1)


def _children():
    """{pid: parent pid} of every process on the machine (from /proc)."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                out[int(name)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                pass
    return out


def descendants(pid):
    """The pids of every process below `pid` (children, theirs, ...)."""
    parents = _children()
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def cpu_seconds(pids):
    """The CPU time (user + system, s) the processes `pids` used so far (gone ones count 0)."""
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / TICK


def _sel(testid, extra=""):
    return '[data-testid="%s"]%s' % (testid, extra)


def idle_once(browser, base, seconds):
    """One solo table waiting on its player, then its Crisp window: [(main-thread task ms
    per s, all processes' CPU ms per s, whether it stayed so throughout)] for each, the
    window's None when the player drew a card that may not be discarded (a King, R4.3)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base + "?botpace=0.1")
    page.fill(_sel("player-name"), "Sol", timeout=WAIT)
    page.click(_sel("play-solo"), timeout=WAIT)
    page.click(_sel("ready", ":not([disabled])"), timeout=WAIT)
    page.wait_for_selector(_sel("deck", ":not([disabled])"), timeout=WAIT)
    page.wait_for_timeout(1500)             # the deal's and the turn's animations over
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    waiting = _clocks(cdp, page, seconds, _sel("deck", ":not([disabled])"))
    page.click(_sel("deck", ":not([disabled])"), timeout=WAIT)
    page.wait_for_selector(_sel("held-card"), timeout=WAIT)
    window = None
    if page.locator(_sel("discard-held", ":not([disabled])")).count():
        page.click(_sel("discard-held"), timeout=WAIT)
        page.wait_for_selector(_sel("crisp", ".hot"), timeout=WAIT)
        page.wait_for_timeout(300)          # the discard's flight over
        window = _clocks(cdp, page, CRISP_S, _sel("crisp", ".hot"))
    context.close()
    return [waiting, window]


def _clocks(cdp, page, seconds, still):
    """(main-thread task ms per s, all this browser's processes' CPU ms per s) over `seconds`
    from now, and whether the selector `still` matched at the end."""
    def task_s():
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    pids = descendants(os.getpid())
    t0, cpu0, main0 = time.monotonic(), cpu_seconds(pids), task_s()
    page.wait_for_timeout(seconds * 1000)
    t1, cpu1, main1 = time.monotonic(), cpu_seconds(pids), task_s()
    held = page.locator(still).count() == 1
    wall = t1 - t0
    return (main1 - main0) * 1000 / wall, (cpu1 - cpu0) * 1000 / wall, held


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 3
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 8
    dists = [os.path.abspath(argv[argv.index("--dist") + 1]) if "--dist" in argv
             else os.path.join(ROOT, "dist")]
    if "--against" in argv:
        dists.append(os.path.abspath(argv[argv.index("--against") + 1]))
    from playwright.sync_api import sync_playwright
    results = {d: [] for d in dists}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        sites = [local_site(d) for d in dists]
        bases = [s.__enter__() for s in sites]
        try:
            for _ in range(runs):
                for dist, base in zip(dists, bases):    # the builds in turn, run by run
                    results[dist].append(idle_once(browser, base, seconds))
        finally:
            for s in sites:
                s.__exit__(None, None, None)
            browser.close()
    print("a solo table, %d runs (medians; load %.1f):" % (runs, os.getloadavg()[0]))
    for k, what in enumerate(("waiting on its player's tap, %g s" % seconds,
                              "its Crisp window open, %g s" % CRISP_S)):
        print("  %s:" % what)
        print("    %-42s %14s %16s %s" % ("build", "main ms/s", "all CPU ms/s", "still so"))
        for dist in dists:
            rows = [r[k] for r in results[dist] if r[k] is not None]
            if not rows:
                print("    %-42s %14s" % (os.path.relpath(dist, ROOT)[-42:], "(none)"))
                continue
            print("    %-42s %14.1f %16.1f %d/%d" % (
                os.path.relpath(dist, ROOT)[-42:], statistics.median(r[0] for r in rows),
                statistics.median(r[1] for r in rows), sum(r[2] for r in rows), len(rows)))


if __name__ == "__main__":
    main()
