"""How fast each page is usable, what it downloads, and what one action costs at 8 players.

    python3 tools/build.py && .venv/bin/python bench/page_bench.py [--runs 3] [--actions 60]
        [--dist DIR] [--tasks [--against DIR]] [--cpu N]
        [--profile]
    .venv/bin/python bench/page_bench.py --against REF [--runs 3] [--cpu 1,4] [--gap S]
        [--only engine,solo,join,reload,taps3,taps8,trace3,trace8]
                                        git ref REF and this working tree, each built
                                        (tools/build.py --test), side by side
                                        (bench/side_by_side.py), at each CPU rate;
                                        --gap: seconds between a tap's last log line
                                        and the next tap (0.4 by default)
    .venv/bin/python bench/page_bench.py --dist DIR --against DIR ...   two builds made already
    --dist: another build; --tasks: the long tasks alone (--against: and those of another
    build, the two builds' runs in turn); --cpu: the long tasks' pages run on a CPU N times
    slower (Chrome's CPU throttling, as a mid-range phone; 1 by default); --profile (with
    --tasks, on a test build: tools/build.py --test --out DIR): also which Python functions
    ran inside each long task over 100 ms (ui/page/prof.py's spans, `?prof=1`) and which scripts
    (long animation frames' attribution) ran them

Starts ``tools/serve.mjs`` (gzip on, as for LAN play) on a free port and opens pages in
headless Debian Chromium, side by side in one run:

  host landing   navigation start to body[data-ready] on a host page (the landing usable)
  host engine    navigation start to the engine worker's Pyodide running the room
  guest join     navigation start to body[data-ready] on a guest page (?room=...)

each cold (a fresh browser context: nothing cached, no service worker) and warm (the same
context reloaded once the service worker has kept the files), ``--runs`` times (medians).
Bytes are the bytes received over the wire, headers included (Resource Timing's
transferSize of the page's and the engine worker's responses; a response from the service
worker or the browser's cache counts 0), total and before the landing was usable; requests
are all responses, and those that went over the network.

Then the main thread's long tasks (PerformanceObserver "longtask": every task over 50 ms), per
page, from its navigation (or the tap that leads to it) to the screen it waits for, ``--runs``
times (medians of each run's longest task and count of tasks over 50 ms):

  host landing   a host page, navigation to its landing usable (+1 s: the engine worker's
                 start begins meanwhile)
  lobby          the landing's Create room tapped, to the lobby with its QR code
  guest join     a guest page by the room link, navigation to its join screen (+1 s)
  guest table    the guest's Join tapped, to the table once the host starts the game
  host table     the host's Start tapped, to its table
  spectator      the room link opened while the game is played, navigation to the table
  solo table     a host page, navigation to the table of a solo game started on the landing
                 as soon as it is usable (the engine still starting)

Then one action at 8 players (the host and 7 guests), ``--actions`` times: the host's room
applying it and building the 8 views (in the engine worker's Pyodide), and one guest's page
parsing its view and rendering it (ui/page/client/client.py + ui/page/screens/render.py on MicroPython). Median and
p95, ms. Prints numbers; asserts nothing.
"""

import json
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))

from crisp_e2e import LAUNCH_ARGS, PHONE, READY_PROBE  # noqa: E402
from pyodide_bench import local_site  # noqa: E402  (same folder)

GUEST = "?room=crisp-" + "0" * 32

LONGTASKS = """
(() => {
  window.__crispLong = [];
  window.__crispLongAt = [];      // [start, duration] of each, for --profile
  window.__crispFrames = [];      // long animation frames' scripts: [start, duration, invoker]
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__crispLong.push(Math.round(e.duration));
        window.__crispLongAt.push([e.startTime, e.duration]);
      }
    }).observe({type: "longtask", buffered: true});
  } catch (e) {}
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        for (const s of e.scripts || [])
          window.__crispFrames.push([s.startTime, s.duration,
                                     s.invoker + (s.sourceFunctionName ? " " + s.sourceFunctionName : "")]);
    }).observe({type: "long-animation-frame", buffered: true});
  } catch (e) {}
})();
"""

# --profile: the Python spans (ui/page/prof.py) inside each of the page's long tasks, and the long
# animation frames' scripts that ran them, taken (and emptied) like the long tasks.
PROFILE = """() => {
  const tasks = window.__crispLongAt.splice(0);
  const spans = window.__crispSpans ? window.__crispSpans.splice(0) : [];
  const frames = window.__crispFrames.splice(0);
  return tasks.map(([start, dur]) => {
    const end = start + dur, by = {};
    for (let i = 0; i + 2 < spans.length; i += 3) {
      const [label, a, b] = [spans[i], spans[i + 1], spans[i + 2]];
      if (a >= start - 1 && b <= end + 1) {
        by[label] = by[label] || [0, 0];
        by[label][0] += b - a; by[label][1] += 1;
      }
    }
    const scripts = frames.filter(([a, d]) => a >= start - 1 && a + d <= end + 1)
                          .map(([a, d, who]) => [Math.round(d), who]);
    return {start: Math.round(start), duration: Math.round(dur), spans: by, scripts: scripts};
  });
}"""

# This global scope's responses: [url, transferSize, responseEnd, from the network].
RESOURCES = """() => performance.getEntriesByType('navigation')
  .concat(performance.getEntriesByType('resource'))
  .map((e) => [e.name, e.transferSize, e.responseEnd, e.transferSize > 0])"""

# One action at 8 players in the room, in the engine worker's Pyodide: the room receives
# it (applies it, builds every seat's view). Returns the times and seat 1's view texts.
HOST_ACTIONS = r"""
import json, time
from ui.worker.room import Room, bot_maker
room = Room("crisp-bench", "Host", seed=11)
room.make_bot = bot_maker(11, 1.0)
conns = ["local"] + ["c%d" % i for i in range(1, 8)]
latest = {}
def feed(out):
    for conn, text in out:
        msg = json.loads(text)
        if msg.get("type") == "view":
            latest[conn] = msg
feed(room.receive("local", json.dumps({"type": "join", "v": 1, "name": "Host"}), 0))
for i, conn in enumerate(conns[1:]):
    room.open(conn, 1)
    feed(room.receive(conn, json.dumps({"type": "join", "v": 1, "name": "Guest %d" % (i + 1)}), 1))
feed(room.receive("local", json.dumps({"type": "start", "v": 1}), 2))
now, times, texts, refused = 10, [], [], 0
PREFER = ("ready", "discard", "draw")
while len(times) < ACTIONS and now < 10 ** 7:
    now += 2500
    feed(room.tick(now))
    todo = None
    for conn in conns:
        msg = latest.get(conn)
        if msg is None:
            continue
        allowed = [a.get("do") for a in msg["view"].get("allowed") or []]
        for do in PREFER:
            if do in allowed:
                action = {"do": do}
                if do == "draw":
                    action["from"] = "deck"
                todo = (conn, {"type": "action", "v": 1, "action": action, "n": msg["n"]})
                break
        if todo:
            break
    if todo is None:
        if room.game is not None and room.game.phase in ("round_over",):
            feed(room.receive("local", json.dumps({"type": "next_round", "v": 1}), now))
        continue
    text = json.dumps(todo[1])
    t0 = time.perf_counter()
    out = room.receive(todo[0], text, now)
    spent = (time.perf_counter() - t0) * 1000
    feed(out)
    if sum(1 for c, t in out if json.loads(t).get("type") == "view") < 8:
        refused += 1           # (refused: too early, say) not an action at 8 players
        continue
    times.append(spent)
    texts += [t for c, t in out if c == "c1"]
json.dumps({"times": times, "texts": texts, "refused": refused})
"""

# A guest's page: parse a view (Client.receive) and render it (Screen.update), on MicroPython.
GUEST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="./%(pyscript)s/core.css"><link rel="stylesheet" href="./ui/style.css">
</head>
<body><div id="app"></div>
<script type="module">
// The page's Python as boot.js gives it (pagefiles.js): the archive written into
// MicroPython's file system when the interpreter is ready, before the script below runs.
import { unpack, writeFiles } from "./%(pagefiles)s";
import { pageZip } from "./%(configjs)s";
const files = await fetch(pageZip).then((r) => r.arrayBuffer())
  .then((b) => unpack(new Uint8Array(b)));
const script = document.createElement("script");
script.type = "mpy";
script.setAttribute("config", "./%(config)s");
script.textContent = document.getElementById("bench-py").textContent;
document.body.append(script);
const { hooks } = await import("./%(pyscript)s/core.js");
hooks.main.onReady.add((wrap) => writeFiles(wrap.interpreter.FS, files));
</script>
<script type="text/plain" id="bench-py">
import json
import js
from pyscript.ffi import create_proxy
from ui.page.screens import render
from ui.page.client.client import Client

client = Client(lambda text: None)
client.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "t", "room": "r"}), 0)
screen = render.Screen(js.document.getElementById("app"), lambda name, payload: None)

def run(texts_json):
    out = []
    for text in json.loads(texts_json):
        t0 = js.performance.now()
        client.receive(text, int(js.Date.now()))
        t1 = js.performance.now()
        screen.update(client)
        t2 = js.performance.now()
        out.append([t1 - t0, t2 - t1])
    return json.dumps(out)

js.window.crispBench = create_proxy(run)
js.document.body.dataset.ready = "micropython"
</script></body></html>
"""


def p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]


def med(values):
    return statistics.median(values) if values else float("nan")


def engine_worker(page):
    for worker in page.workers:
        if "engine-worker" in worker.url:
            return worker
    return None


def load(context, url, engine):
    """Open `url` in a new page of `context`; returns (page, numbers)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.__crispReadyAt !== undefined", timeout=180_000)
    ready = page.evaluate("window.__crispReadyAt")
    numbers = {"ready": ready}
    if engine:
        # (a build from before the engine worker runs Pyodide on the page: ready is engine)
        page.wait_for_function("['ready', 'failed'].includes(document.body.dataset.engine)"
                               " || document.body.dataset.ready === 'pyodide'", timeout=300_000)
        numbers["engine"] = page.evaluate("(window.crisp.times.engine || window.__crispReadyAt)")
    else:
        page.wait_for_timeout(1000)         # anything a guest page fetches late counts too
    mine = page.evaluate(RESOURCES)
    entries = list(mine)
    worker = engine_worker(page) if engine else None
    if worker is not None:
        entries += worker.evaluate(RESOURCES)
    numbers["bytes"] = sum(e[1] for e in entries)
    numbers["bytes_before_ready"] = sum(e[1] for e in mine if e[2] <= ready)
    numbers["requests"] = len(entries)
    numbers["network"] = sum(1 for e in entries if e[3])
    return page, numbers


def cold_and_warm(browser, url, engine):
    """One cold load, then a warm one (a reload in the same context once the service worker
    kept the files)."""
    context = browser.new_context(**PHONE)
    context.add_init_script(READY_PROBE)
    page, cold = load(context, url, engine)
    wanted = "engine" if engine else "page"
    if page.evaluate("'serviceWorker' in navigator && !!document.querySelector('link[rel=manifest]')"):
        try:
            page.wait_for_function("document.body.dataset.offline === %r" % wanted,
                                   timeout=60_000)
        except Exception:
            print("  (the service worker did not report the files kept)")
    page.close()
    page, warm = load(context, url, engine)
    context.close()
    return cold, warm


PAGES = ("host landing", "lobby", "guest join", "guest table", "host table", "spectator",
         "solo table")
SETTLE_MS = 1000        # after a page shows: the tasks its start left behind count too
WAIT = 300_000


CPU_RATE = [1]          # --cpu: Chrome's CPU throttling rate for the long tasks' pages


def _phone(browser):
    context = browser.new_context(**PHONE)
    context.add_init_script(READY_PROBE)
    context.add_init_script(LONGTASKS)
    page = context.new_page()
    if CPU_RATE[0] > 1:
        # the page's main thread (where long tasks are counted) slowed as on a phone's CPU
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                           {"rate": CPU_RATE[0]})
    return context, page


def _sel(testid, extra=""):
    return '[data-testid="%s"]%s' % (testid, extra)


def _tap(page, testid):
    page.wait_for_selector(_sel(testid, ":not([disabled])"), timeout=WAIT)
    page.click(_sel(testid, ":not([disabled])"))


PROFILES = []           # --profile: [(page, its long tasks with their spans)], every run


def _take(page, name=None):
    """The long tasks (ms) this page saw since the last _take; with --profile, their Python
    spans too (into PROFILES, under `name`)."""
    if PROF[0]:
        PROFILES.append((name, page.evaluate(PROFILE)))
    return page.evaluate("window.__crispLong.splice(0)")


PROF = [""]             # --profile: the page parameter that turns ui/page/prof.py on ("&prof=1")


def page_tasks(browser, url):
    """One run of every page of PAGES: {page: [its long tasks, ms]}."""
    out = {}
    host_context, host = _phone(browser)
    host.goto(url + "?botpace=0.1" + PROF[0])
    host.wait_for_function("window.__crispReadyAt !== undefined", timeout=WAIT)
    host.wait_for_timeout(SETTLE_MS)
    out["host landing"] = _take(host, "host landing")
    host.fill(_sel("player-name"), "Hana")
    _tap(host, "create-room")
    host.wait_for_selector(_sel("room-qr"), timeout=WAIT)
    link = host.inner_text(_sel("room-link")).strip()
    host.wait_for_timeout(SETTLE_MS)
    out["lobby"] = _take(host, "lobby")

    guest_context, guest = _phone(browser)
    guest.goto(link + PROF[0])
    guest.wait_for_function("window.__crispReadyAt !== undefined", timeout=WAIT)
    guest.wait_for_selector(_sel("player-name"), timeout=WAIT)
    guest.wait_for_timeout(SETTLE_MS)
    out["guest join"] = _take(guest, "guest join")
    guest.fill(_sel("player-name"), "Ana")
    _tap(guest, "join-room")
    guest.wait_for_selector(_sel("player-1"), timeout=WAIT)
    host.wait_for_selector(_sel("player-1"), timeout=WAIT)
    _take(host)
    _tap(host, "start-game")
    host.wait_for_selector(_sel("card-0-left"), timeout=WAIT)
    guest.wait_for_selector(_sel("card-1-left"), timeout=WAIT)
    host.wait_for_timeout(SETTLE_MS)
    out["host table"] = _take(host, "host table")
    out["guest table"] = _take(guest, "guest table")

    watch_context, watch = _phone(browser)
    watch.goto(link + PROF[0])
    watch.wait_for_selector(_sel("spectator"), timeout=WAIT)
    watch.wait_for_selector(_sel("card-1-left"), timeout=WAIT)
    watch.wait_for_timeout(SETTLE_MS)
    out["spectator"] = _take(watch, "spectator")
    for context in (watch_context, guest_context, host_context):
        context.close()

    solo_context, solo = _phone(browser)
    solo.goto(url + "?botpace=0.1" + PROF[0])
    solo.wait_for_function("window.__crispReadyAt !== undefined", timeout=WAIT)
    solo.fill(_sel("player-name"), "Sol")
    solo.click(_sel("play-solo"))
    solo.wait_for_selector(_sel("card-1-left"), timeout=WAIT)
    solo.wait_for_timeout(500)
    out["solo table"] = _take(solo, "solo table")
    solo_context.close()
    return out


def task_summary(runs):
    """{page: (median longest task ms, median count of tasks over 50 ms, max longest)} over
    `runs` (page_tasks results); a page with no long task has a longest task of 0."""
    out = {}
    for name in PAGES:
        longest = [max(r[name]) if r.get(name) else 0 for r in runs if name in r]
        over = [len(r[name]) for r in runs if name in r]
        if longest:
            out[name] = (med(longest), med(over), max(longest))
    return out


def print_tasks(runs):
    print("main-thread long tasks, per page (%d runs; tasks over 50 ms; CPU slowed x%g):"
          % (len(runs), CPU_RATE[0]))
    print("  %-14s %14s %14s %12s" % ("page", "longest (med)", "over 50 (med)", "longest max"))
    for name, (longest, over, worst) in task_summary(runs).items():
        print("  %-14s %11.0f ms %14.0f %9.0f ms" % (name, longest, over, worst))


def print_profiles(top=10):
    """--profile: each page's long tasks over 100 ms, with the Python spans inside them
    (inclusive ms and calls, largest first; nested spans overlap) and the scripts that ran."""
    print("long tasks over 100 ms and the Python inside them (ui/page/prof.py spans, inclusive):")
    for name, tasks in PROFILES:
        for task in tasks:
            if task["duration"] < 100:
                continue
            print("  %-12s task %4d ms at %6d ms  scripts: %s" % (
                name, task["duration"], task["start"],
                "; ".join("%s %d ms" % (who, d) for d, who in task["scripts"]) or "-"))
            spans = sorted(task["spans"].items(), key=lambda kv: -kv[1][0])[:top]
            for label, (ms, calls) in spans:
                print("      %-28s %7.1f ms  x%d" % (label, ms, calls))


def action_costs(browser, base, dist, actions):
    context = browser.new_context(**PHONE)
    context.add_init_script(READY_PROBE)
    page = context.new_page()
    page.goto(base)
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=300_000)
    worker = engine_worker(page)
    code = HOST_ACTIONS.replace("ACTIONS", str(actions))
    host = json.loads(worker.evaluate("(code) => self.crispPyodide.runPython(code)", code))
    with open(os.path.join(dist, "build.json"), encoding="utf-8") as f:
        built = json.load(f)
    names = built.get("names", {})
    config = names.get("mpy.toml", "mpy.toml")    # mpy-<build id>.toml
    with open(os.path.join(dist, "bench-guest.html"), "w", encoding="utf-8") as f:
        f.write(GUEST_PAGE % {"pyscript": built["vendor"]["pyscript"], "config": config,
                              "pagefiles": names.get("pagefiles.js", "pagefiles.js"),
                              "configjs": names.get("config.js", "config.js")})
    guest = context.new_page()
    guest.goto(base + "bench-guest.html")
    guest.wait_for_function("document.body.dataset.ready === 'micropython'", timeout=120_000)
    per_view = json.loads(guest.evaluate("(t) => window.crispBench(t)", json.dumps(host["texts"])))
    context.close()
    os.remove(os.path.join(dist, "bench-guest.html"))
    view_bytes = [len(t.encode("utf-8")) for t in host["texts"]]
    print("  (%d actions refused on the way, not counted)" % host["refused"])
    return host["times"], [v[0] for v in per_view], [v[1] for v in per_view], view_bytes


def compare_tasks(dists, runs):
    """The long tasks of two builds, their runs taken in turn (a machine that other work
    loads meanwhile weighs on both alike)."""
    import contextlib
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack, sync_playwright() as pw:
        bases = [stack.enter_context(local_site(d)) for d in dists]
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        results = [[] for _ in dists]
        for _ in range(runs):
            for i, base in enumerate(bases):
                results[i].append(page_tasks(browser, base))
        browser.close()
    for d, r in zip(dists, results):
        print(d)
        print_tasks(r)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        return
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 3
    if "--cpu" in argv and ("--against" not in argv or "--tasks" in argv):
        CPU_RATE[0] = float(argv[argv.index("--cpu") + 1])
    if "--profile" in argv:
        PROF[0] = "&prof=1"     # a test build's ui/page/prof.py (tools/build.py --test)
    actions = int(argv[argv.index("--actions") + 1]) if "--actions" in argv else 60
    dist = os.path.abspath(argv[argv.index("--dist") + 1]) if "--dist" in argv \
        else os.path.join(ROOT, "dist")
    from playwright.sync_api import sync_playwright

    if "--tasks" in argv and "--against" in argv:
        compare_tasks([dist, os.path.abspath(argv[argv.index("--against") + 1])], runs)
        return
    if "--against" in argv:             # two builds side by side: bench/side_by_side.py
        import side_by_side
        from side_by_side import built, compare
        if "--gap" in argv:
            side_by_side.TAP_GAP_S = float(argv[argv.index("--gap") + 1])
        only = argv[argv.index("--only") + 1].split(",") if "--only" in argv else None
        against = argv[argv.index("--against") + 1]
        rates = [float(r) for r in (argv[argv.index("--cpu") + 1] if "--cpu" in argv
                                    else "1,4").split(",")]
        if os.path.isdir(against):      # two builds made already
            for rate in rates:
                compare([dist, os.path.abspath(against)], runs, rate, only)
            return
        with built(against) as (mine, theirs):      # a git ref: it and this tree, built
            for rate in rates:
                compare([mine, theirs], runs, rate, only)
        return
    with local_site(dist) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        if "--tasks" in argv:
            print_tasks([page_tasks(browser, base) for _ in range(runs)])
            if PROF[0]:
                print_profiles()
            browser.close()
            return
        rows = {}
        for _ in range(runs):
            for name, url, engine in (("host", base, True), ("guest", base + GUEST, False)):
                cold, warm = cold_and_warm(browser, url, engine)
                rows.setdefault(name + " cold", []).append(cold)
                rows.setdefault(name + " warm", []).append(warm)

        def m(row, key):
            return med([s[key] for s in rows[row] if key in s])

        print("%-12s %10s %10s %12s %12s %9s %8s" % (
            "page", "usable ms", "engine ms", "bytes", "before usable", "requests", "network"))
        for row in ("host cold", "guest cold", "host warm", "guest warm"):
            engine = m(row, "engine") if row.startswith("host") else float("nan")
            print("%-12s %10.0f %10.0f %12.0f %12.0f %9.0f %8.0f" % (
                row, m(row, "ready"), engine, m(row, "bytes"), m(row, "bytes_before_ready"),
                m(row, "requests"), m(row, "network")))
        print("host landing cold / guest join cold: %.2f" % (m("host cold", "ready")
                                                            / m("guest cold", "ready")))

        print_tasks([page_tasks(browser, base) for _ in range(runs)])

        if not any(n.startswith("engine-worker") for n in os.listdir(dist)):
            print("one action at 8 players: needs the engine worker (not in this build)")
            browser.close()
            return
        host, parse, render, sizes = action_costs(browser, base, dist, actions)
        print("one action at 8 players (%d actions):" % len(host))
        print("  %-40s median %6.2f ms  p95 %6.2f ms" % (
            "host: apply + 8 views (Pyodide, worker)", med(host), p95(host)))
        print("  %-40s median %6.2f ms  p95 %6.2f ms" % (
            "guest: parse its view (MicroPython)", med(parse), p95(parse)))
        print("  %-40s median %6.2f ms  p95 %6.2f ms" % (
            "guest: render it (MicroPython)", med(render), p95(render)))
        print("  one view: median %.0f bytes" % med(sizes))
        browser.close()


if __name__ == "__main__":
    main()
