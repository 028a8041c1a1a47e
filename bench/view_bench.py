"""A guest's main-thread work per view and the host page's per move, from Chrome's own trace,
two builds side by side in one run (issue 40's (e), without the network harness: the work a
page does for a view does not depend on the link that brought it).

    .venv/bin/python bench/view_bench.py --against REF [--players 4] [--cpu 1,4]
        [--seconds 30]

REF (a git ref: a detached worktree of it, removed after) and this working tree are built
(tools/build.py --test) and served on loopback; for each CPU rate, each build in turn seats a
table of --players pages (a host and its guests) in one headless Debian Chromium, every page
then throttled (CDP Emulation.setCPUThrottlingRate on the page; the host's engine worker runs
in the host page's process and is throttled with it where CDP applies the rate to the worker
thread too: its own line says what it took), and every page plays by itself (a small
interval script taps its live deck, discard, special, ready, next round and, after a few
turns, crisp). For --seconds a CDP trace (devtools.timeline) records every renderer's main
thread; each task is sorted by what ran it:

  view          the task of a `view` message (read, client, build, patch: drawn at once)
  other msgs    the other messages' tasks (the sealed room, beats, pongs, errors, fairness)
  replies       the engine worker's replies on the host page (the room's outputs: the sends,
                its own view drawn, the save)
  ticks         the page's timers (the 250 ms tick, a render in a task of its own)
  flights       animation frames running Python (the card flights measured and started)
  frames        the browser's own frames (style, layout, paint, compositing commits)
  rest          everything else (microtask checkpoints, GC, mojo)

The harness's own interval and Playwright's evaluations are left out. Per guest: each part's
sum over the window / the views that guest received (median over the guests); per host move:
the host page's parts / the moves (views a guest received), and the engine worker's thread.
Two figures a cell: wall ms at the throttled rate (what a phone that slow spends; the
machine's load inflates it) and the thread's CPU ms (tdur; about wall / rate on a quiet
machine). Prints numbers; asserts nothing.
"""

import argparse
import collections
import contextlib
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from crisp_e2e import LAUNCH_ARGS  # noqa: E402
from pyodide_bench import local_site  # noqa: E402
from side_by_side import Phones, built, table_of  # noqa: E402

# Each data channel message's type marked in the trace (performance.mark "msg:<type>") as
# it is handled: the task holding the mark is that message's.
MARKS = """
(() => {
  const desc = Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onmessage");
  Object.defineProperty(RTCDataChannel.prototype, "onmessage", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(fn) { desc.set.call(this, fn && ((e) => {
      const d = typeof e.data === "string" ? e.data.slice(0, 80) : "";
      performance.mark("msg:" + ((/"type": *"(\\w+)"/.exec(d) || [0, "other"])[1]));
      return fn(e); }));
    },
  });
})();
"""

# Every page plays by itself (the first live control of these, in order).
AUTOPLAY = """() => {
  let mine = 0;
  const live = (id) => document.querySelector('[data-testid="' + id + '"]:not([disabled])');
  setInterval(function crispAutoplay() {
    const c = live('crisp');
    if (c && mine > 6 && Math.random() < 0.3) { c.click(); return; }
    for (const id of ['discard-held', 'use-special', 'deck', 'ready', 'next-round']) {
      const b = live(id);
      if (b) { if (id === 'deck') mine++; b.click(); return; }
    }
  }, 300);
}"""

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel",
              "blink.user_timing"]
TASKS = ("RunTask", "ThreadControllerImpl::RunTask")
PARTS = ("view", "other msgs", "replies", "ticks", "flights", "frames", "rest")
FRAME_WORK = ("UpdateLayoutTree", "Layout", "Paint", "PrePaint", "Layerize", "Commit")


def kind_of(kids):
    """What ran a task (PARTS, or "harness"), from the trace events inside it."""
    for k in kids:
        if k["name"].startswith("msg:"):
            return "view" if k["name"] == "msg:view" else "other msgs"
    names = [k["name"] for k in kids]
    for k in kids:
        if k["name"] == "FunctionCall":
            data = k.get("args", {}).get("data", {})
            if data.get("functionName") == "crispAutoplay" or not data.get("url"):
                return "harness"
            if "HandlePostMessage" in names:
                return "replies"
            if "micropython" not in data.get("url", ""):
                continue
            if "FireAnimationFrame" in names:
                return "flights"
            if "TimerFire" in names:
                return "ticks"
    if any(n in FRAME_WORK for n in names):
        return "frames"
    return "rest"


def tasks_by_thread(events):
    """{(pid, tid): [(task event, [events inside it])]} for the renderers' main threads and
    dedicated workers, and {pid: Counter of message marks}."""
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    wanted = {k for k, v in names.items() if v in ("CrRendererMain", "DedicatedWorker thread")}
    marks = collections.defaultdict(collections.Counter)
    per = collections.defaultdict(list)
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if key not in wanted:
            continue
        if e.get("cat", "").startswith("blink.user_timing") and e["name"].startswith("msg:"):
            marks[e["pid"]][e["name"]] += 1
        per[key].append(e)
    out = {}
    for key, es in per.items():
        es.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
        tops, end = [], -1
        for e in es:
            if e.get("ph") == "X" and e["name"] in TASKS and e["ts"] >= end:
                tops.append((e, []))
                end = e["ts"] + e.get("dur", 0)
            elif tops and e["ts"] <= end:
                tops[-1][1].append(e)
        out[key] = (names[key], tops)
    return out, marks


def sums(tops):
    """{part: [wall ms, cpu ms]} over a thread's tasks."""
    out = {p: [0.0, 0.0] for p in PARTS}
    for e, kids in tops:
        kind = kind_of(kids)
        if kind in out:
            out[kind][0] += e.get("dur", 0) / 1000
            out[kind][1] += e.get("tdur", 0) / 1000
    return out


def measure(browser, base, players, cpu, seconds):
    """One table: {"guest <part>": [wall, cpu] per view (median guest), "host <part>": per
    move, "worker": per move, "views": n}."""
    with Phones(browser, 1) as phones:
        pages = table_of(phones, base, players, "?botpace=0.1", [MARKS])
        for page in pages:
            if cpu > 1:
                page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                        {"rate": cpu})
            page.evaluate(AUTOPLAY)
        time.sleep(3)
        browser.start_tracing(page=pages[1], categories=CATEGORIES)
        time.sleep(seconds)
        events = json.loads(browser.stop_tracing())
    events = events["traceEvents"] if isinstance(events, dict) else events
    threads, marks = tasks_by_thread(events)
    host = next((pid for pid, c in marks.items() if c["msg:action"]), None)
    guests, views, out = [], [], {}
    for (pid, tid), (name, tops) in threads.items():
        if name == "CrRendererMain" and pid != host and marks[pid]["msg:view"]:
            guests.append(sums(tops))
            views.append(marks[pid]["msg:view"])
    if not guests or host is None:
        return {}
    moves = statistics.median(views)
    for part in PARTS:
        for i in (0, 1):
            out.setdefault("guest " + part, [0, 0])[i] = statistics.median(
                g[part][i] / n for g, n in zip(guests, views))
    out["guest all"] = [sum(out["guest " + p][i] for p in PARTS) for i in (0, 1)]
    for (pid, tid), (name, tops) in threads.items():
        if pid != host:
            continue
        s = sums(tops)
        if name == "CrRendererMain":
            for part in PARTS:
                out["host " + part] = [v / moves for v in s[part]]
            out["host all"] = [sum(out["host " + p][i] for p in PARTS) for i in (0, 1)]
        elif sum(v[0] for v in s.values()) > 0:
            total = [sum(v[i] for v in s.values()) / moves for i in (0, 1)]
            worker = out.setdefault("host's worker", [0, 0])
            out["host's worker"] = [worker[0] + total[0], worker[1] + total[1]]
    out["views a guest got"] = [moves, moves]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", default="main")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--cpu", default="1,4")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rates = [float(r) for r in args.cpu.split(",")]
    labels = ["this tree", args.against]
    with built(args.against) as dists, contextlib.ExitStack() as stack, \
            sync_playwright() as pw:
        bases = [stack.enter_context(local_site(d)) for d in dists]
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        for cpu in rates:
            got = [collections.defaultdict(list) for _ in bases]
            for _ in range(args.runs):
                for i, base in enumerate(bases):
                    try:
                        for k, v in measure(browser, base, args.players, cpu,
                                            args.seconds).items():
                            got[i][k].append(v)
                    except Exception as e:
                        print("  (%s at %gx: failed: %s)" % (labels[i], cpu,
                              str(e).splitlines()[0][:120]), file=sys.stderr, flush=True)
            show(got, labels, cpu, args.players)
        browser.close()


def show(got, labels, cpu, players):
    print("%d players, every page at %gx: ms per view (guest) / per move (host), "
          "wall at %gx | thread CPU:" % (players, cpu, cpu))
    print("  %-22s" % "" + "".join("%24s" % label for label in labels))
    keys = []
    for g in got:
        keys += [k for k in g if k not in keys]
    for key in keys:
        cells = []
        for g in got:
            v = g.get(key)
            if not v:
                cells.append("%24s" % "-")
                continue
            wall = statistics.median(x[0] for x in v)
            tcpu = statistics.median(x[1] for x in v)
            cells.append("%24s" % ("%.0f" % wall if key.startswith("views")
                                   else "%.1f | %.1f" % (wall, tcpu)))
        print("  %-22s" % key + "".join(cells))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
