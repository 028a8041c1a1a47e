"""The real table, measured (two builds side by side in one run): phones with a phone's CPU
on cellular links, through the network-conditions harness (e2e/netem.py: Debian's coturn, a
relay-only test build, a UDP proxy per page adding its profile's delay, jitter, loss and
blackouts, the page and its signaling through a TCP proxy with the same delay).

    .venv/bin/python bench/table_bench.py --against REF [--rounds 3] [--only four,eight]

REF (a git ref: a detached worktree of it, removed after) and this working tree are each
built (tools/build.py --test --ice: relay only) and measured in turn, in one headless Debian
Chromium, so that a machine loaded by other work weighs on both alike. Tables:

  four    the host on 4g, Ana on 3g, Bea on 4g with her CPU at 4x, Cleo on lan; then the
          same table again with Cleo on stall (a 2 s blackout every 30 s, the first 5 s in)
  eight   eight players, three of them at 4x (the host among them)

Every round is played by taps; the first player whose crisp window is open after a turn
taps crisp in the last 300 ms its screen shows, and so on until one call is taken. What is
printed, per build (p50/p95 in ms, and counts):

  (a) tap to the tapped control's visible answer on its own page (the first change to the
      control, or its going, then the frame that shows it), pages at 1x and at 4x apart
  (b) tap to every other screen (the event log's new line), and the same less the links'
      one-way times it crosses (sender to host, host to receiver; the profiles' mean)
  (c) rounds played, stuck screens (a round that did not reach its results on every page),
      moves lost or doubled on a page (its log against the moves made), rounds whose scores
      differed between pages, banners (host away, handover, host gone, re-deal) seen
  (d) taps in the last 300 ms the screen showed (the crisp window; the draw timer on Ana's
      turns of the first --draw-rounds rounds of `four`): the share the host accepted, on
      3g and on the other links
  (e) main-thread task time (CDP Performance.getMetrics TaskDuration, per page) per move:
      a guest's (1x and 4x pages), the host page's, and the host's engine worker (its
      handler's wall time, from inside the worker). CPU throttling is CDP's
      Emulation.setCPUThrottlingRate on each 4x page; on the worker's own target where CDP
      allows it (the table says whether it did)

Times are taken on the pages (Date.now(): one clock for every page of this machine). Prints
numbers; asserts nothing.
"""

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from crisp_e2e import LAUNCH_ARGS, PHONE, READY_PROBE, serve  # noqa: E402
from net_profiles import PROFILES  # noqa: E402
from net_table import (bad_since, log_counts, open_table, scores, tap_before,  # noqa: E402
                       whose_turn)
from netem import Net, round_trips  # noqa: E402
from side_by_side import LOG_WATCH, WORKER_SPANS, built, pct  # noqa: E402
from crisp_e2e import sel  # noqa: E402
from turn_relay import coturn, ensure_coturn  # noqa: E402

FOUR = [("Hana", "4g", 1), ("Ana", "3g", 1), ("Bea", "4g", 4), ("Cleo", "lan", 1)]
EIGHT = [("Hana", "4g", 4), ("Ana", "3g", 1), ("Bea", "4g", 4), ("Cleo", "lan", 1),
         ("Guest 4", "4g", 4), ("Guest 5", "3g", 1), ("Guest 6", "lan", 1), ("Guest 7", "4g", 1)]
LAST_MS = 300          # (d): a tap in the last this many ms the screen showed
ANSWER_S = 10          # a tap's lines on the other screens, at most this long after it


# (c)'s complete count of the lines each page's event log showed: the log on the page keeps
# only its newest 40 lines, so the bench follows it as it changes (a MutationObserver: one
# render adds one to three lines) and counts each line that came on top of the lines it
# last saw (by their words and kinds). A log drawn again whole (a replay after a resync,
# the same events) adds nothing; a move shown twice is two lines, a lost one none.
LOG_COUNT = """
(() => {
  let last = [];
  window.__crispCounts = {};
  window.__crispCountsReset = () => { window.__crispCounts = {}; last = []; };
  const look = () => {
    const ol = document.querySelector('[data-testid="event-log"]');
    if (!ol) return;
    const cur = [...ol.querySelectorAll('li.ev')].map((li) =>
      [...li.classList].find((c) => c !== 'ev' && c !== 'fresh') + '|' + li.textContent);
    let k = 0;
    const same = (k) => { const m = Math.min(last.length, cur.length - k);
      if (m <= 0) return false;
      for (let i = 0; i < m; i++) if (cur[k + i] !== last[i]) return false;
      return true; };
    while (k < cur.length && !same(k)) k++;
    for (let i = 0; i < k; i++) {
      const kind = cur[i].split('|')[0];
      window.__crispCounts[kind] = (window.__crispCounts[kind] || 0) + 1; }
    last = cur;
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true,
                                                characterData: true});
})();
"""


def counted(page):
    """{kind: lines} the page's event log showed since the round began (LOG_COUNT)."""
    return page.evaluate("window.__crispCounts")


def one_way(name):
    return PROFILES[name].one_way_ms


class Run:
    """One build's tables: the samples of (a)-(e) as they come."""

    def __init__(self):
        self.s = {}
        self.rng = random.Random(40)
        self.tag = ""
        self.moves = 0

    def add(self, key, value):
        self.s.setdefault(self.tag + key, []).append(value)

    def count(self, key, n=1):
        key = self.tag + key
        self.s[key] = [self.s.get(key, [0])[0] + n]


def measured_click(run, seats, me):
    """A click that measures (a) on its own page and (b) on every other one."""
    others = [s for s in seats if s is not me]
    host = seats[0]

    def click(page, testid):
        marks = [o.page.evaluate("window.__crispLog.length") for o in others]
        t0 = page.evaluate("(s) => window.__crispClickWatch(s)", sel(testid, ":not([disabled])"))
        deadline = time.monotonic() + ANSWER_S
        for o, mark in zip(others, marks):
            try:
                o.page.wait_for_function("(m) => window.__crispLog.length > m", arg=mark,
                                         timeout=max(100, (deadline - time.monotonic()) * 1000))
            except Exception:
                run.count("(b) lines never seen")
                continue
            ms = o.page.evaluate("(m) => window.__crispLog[m][0]", mark) - t0
            run.add("(b) tap to other screens", ms)
            links = one_way(me.link.base) + one_way(o.link.base)
            if me is not host and o is not host:
                links += 2 * one_way(host.link.base)       # via the host's link, both ways
            run.add("(b) less the links' one-way", ms - links)
        answer = page.evaluate("window.__crispAnswer")
        if answer and answer.get("shown"):
            run.add("(a) tap to own answer, %dx" % me.cpu, answer["shown"] - answer["t"])
        run.moves += 1
    return click


def crisp_try(run, seats, s, host_crisps):
    """`s` taps crisp in the last LAST_MS its screen shows of its window; -> True when the
    host took the call. A (d) sample when the tap was made."""
    before = run.rng.uniform(30, LAST_MS - 10)
    got = tap_before(s.page, "crisp", "crispEnd", before, 4000)
    if not got or not 0 < got["left"] <= LAST_MS:
        return False
    host = seats[0].page
    try:
        host.wait_for_function("(n) => document.querySelectorAll("
                               "'[data-testid=\"event-log\"] li.ev.crisp').length > n",
                               arg=host_crisps, timeout=3000)
        taken = True
    except Exception:
        taken = False
    kind = "3g" if s.link.base == "3g" else "other links"
    run.add("(d) crisp window, %s: accepted" % kind, 100.0 * taken)
    return taken


def draw_try(run, s):
    """`s` (its turn) taps the deck in the last LAST_MS its screen shows of the draw timer;
    a (d) sample: True when accepted (its drawn card shows), False when the timer took the
    turn, None when no tap was made in time."""
    got = tap_before(s.page, "deck", "timerEnd", run.rng.uniform(30, LAST_MS - 10), 70000)
    if not got or not 0 < got["left"] <= LAST_MS:
        return None
    try:
        s.page.wait_for_selector(sel("discard-held", ":not([disabled])"), timeout=4000)
        taken = True
    except Exception:
        taken = False
    run.add("(d) draw timer, %s: accepted" % s.link.base, 100.0 * taken)
    return taken


def play_round(run, seats, draw_timer=False, callers=None):
    """One round played out (see the module doc): `callers` (names; None: everyone) try
    crisp calls; with `draw_timer`, Ana's first draw is a draw-timer (d) sample. (c)'s
    counts."""
    t0 = time.time() * 1000
    called, draws, discards, host, tries = False, 0, 0, seats[0], 0
    for s in seats:
        s.page.evaluate("window.__crispCountsReset()")
    while True:
        s = whose_turn(seats, 60)
        if s is None:
            break
        click = measured_click(run, seats, s)
        owed, first = 1, True
        while owed:
            owed -= 1
            took = draw_try(run, s) if first and draw_timer and s.name == "Ana" else None
            first = False
            if took is False or (took is None and not s.page.query_selector(
                    sel("deck", ":not([disabled])"))):
                break                       # the timer took the turn
            if took is None:
                s.page.wait_for_selector(sel("deck", ":not([disabled])"), timeout=30000)
                click(s.page, "deck")
            draws += 1
            choices = [sel("discard-held", ":not([disabled])"), sel("use-special",
                                                                    ":not([disabled])")]
            try:
                s.page.wait_for_selector(", ".join(choices), timeout=30000)
            except Exception:
                break                       # (the draw timer took the turn)
            testid = "discard-held" if s.page.query_selector(choices[0]) else "use-special"
            click(s.page, testid)
            discards += testid == "discard-held"
            owed += 2 if testid == "use-special" else 0
        if not called and (callers is None or s.name in callers or tries):
            crisps = log_counts(host.page).get("crisp", 0)
            if tries >= 6:              # (no sample: a round must end)
                called = s.page.evaluate("(s) => { const b = document.querySelector(s);"
                                         " if (b) b.click(); return !!b; }",
                                         sel("crisp", ":not([disabled])"))
            else:
                called = crisp_try(run, seats, s, crisps)
                tries += 1      # refused: from now on every mover tries
    run.count("(c) rounds")
    print("  (%sround over in %.0f s: %d draws)" % (run.tag, time.time() - t0 / 1000, draws),
          file=sys.stderr, flush=True)
    try:
        got = scores(seats)
    except Exception:
        run.count("(c) stuck screens")
        return
    run.count("(c) rounds with differing scores", int(any(r != got[0] for r in got)))
    for s in seats:
        counts = counted(s.page)
        lost = abs(counts.get("draw", 0) - draws)
        if not counts.get("timeout"):
            lost += abs(counts.get("discard", 0) - discards)
        run.count("(c) moves lost or doubled", lost)
        run.count("(c) banners seen", len(bad_since(s.page, t0)))


class Cpu:
    """Main-thread task time per page (Performance.getMetrics TaskDuration) and the host's
    engine worker's handler time, from start to take()."""

    def __init__(self, seats):
        self.sessions = []
        for s in seats:
            session = s.page.context.new_cdp_session(s.page)
            session.send("Performance.enable", {"timeDomain": "threadTicks"})
            self.sessions.append(session)
        self.worker = next(w for w in seats[0].page.workers if "engine-worker" in w.url)
        self.worker.evaluate(WORKER_SPANS)
        self.start = [self._task(s) for s in self.sessions]

    @staticmethod
    def _task(session):
        metrics = session.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration") * 1000

    def take(self, run, seats, label):
        if not run.moves:
            return
        used = [self._task(s) - a for s, a in zip(self.sessions, self.start)]
        run.add("(e) %s: host page per move, %dx" % (label, seats[0].cpu),
                used[0] / run.moves)
        for s, u in zip(seats[1:], used[1:]):
            run.add("(e) %s: a guest per move, %dx" % (label, s.cpu), u / run.moves)
        spans = self.worker.evaluate("self.__crispSpans")
        run.add("(e) %s: host worker per move, %s" % (label, seats[0].worker_cpu),
                sum(b - a for a, b, _ in spans) / run.moves)


def throttle_worker(page, rate):
    """CPU throttling on the host's engine worker's own target (CDP: attached from the
    page's session, Emulation.setCPUThrottlingRate sent to it); -> "Nx" when CDP took it,
    else "1x (why)"."""
    session = page.context.new_cdp_session(page)
    answers, attached = [], []
    session.on("Target.attachedToTarget", lambda e: attached.append(e))
    session.on("Target.receivedMessageFromTarget", lambda e: answers.append(e["message"]))
    try:
        session.send("Target.setAutoAttach", {"autoAttach": True, "flatten": False,
                                              "waitForDebuggerOnStart": False})
        deadline = time.monotonic() + 5
        while not attached and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        workers = [e for e in attached if e["targetInfo"]["type"] == "worker"]
        if not workers:
            return "1x (no worker target)"
        session.send("Target.sendMessageToTarget", {
            "sessionId": workers[0]["sessionId"],
            "message": json.dumps({"id": 1, "method": "Emulation.setCPUThrottlingRate",
                                   "params": {"rate": rate}})})
        deadline = time.monotonic() + 5
        while not answers and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        reply = json.loads(answers[0]) if answers else {}
        if "error" in reply or not answers:
            return "1x (CDP: %s)" % (reply.get("error", {}).get("message", "no answer"))
        return "%dx" % rate
    except Exception as e:
        return "1x (CDP: %s)" % str(e).splitlines()[0][:60]


def table(browser, net, site, plan, contexts):
    """The seats of `plan` [(name, profile, cpu)] at a started table, 4x pages throttled."""
    rates = [cpu for _, _, cpu in plan]

    def new_page(init):
        context = browser.new_context(**PHONE, permissions=["microphone"],
                                      reduced_motion="reduce")
        contexts.append(context)
        for script in [READY_PROBE, LOG_WATCH, LOG_COUNT] + list(init):
            context.add_init_script(script)
        page = context.new_page()
        rate = rates[len(contexts) - 1]
        if rate > 1:
            page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                    {"rate": rate})
        return page

    seats = open_table(new_page, net, site, [(n, p) for n, p, _ in plan], "?botpace=0.1",
                       start=False)
    for s, (_, prof, cpu) in zip(seats, plan):
        s.cpu, s.link.base = cpu, prof
    seats[0].worker_cpu = throttle_worker(seats[0].page, seats[0].cpu) \
        if seats[0].cpu > 1 else "1x"
    return seats


def start(seats, draw_seconds=None):
    host = seats[0].page
    if draw_seconds:
        try:
            host.select_option(sel("opt-draw-seconds"), str(draw_seconds))
        except Exception as e:
            print("  (no draw timer: %s)" % str(e).splitlines()[0][:100], file=sys.stderr)
    host.wait_for_selector(sel("start-game", ":not([disabled])"), timeout=60000)
    host.click(sel("start-game"))
    ready(seats)


def ready(seats):
    for s in seats:
        s.page.wait_for_selector(sel("ready", ":not([disabled])"), timeout=60000)
        s.page.click(sel("ready", ":not([disabled])"))


def next_round(run, seats):
    """The next round: the host's next-round, or at the game's end its new game, started
    again (the same seats: --rounds may outlast a game to 150 points)."""
    host = seats[0].page
    either = sel("next-round", ":not([disabled])") + ", " + sel("new-game", ":not([disabled])")
    host.wait_for_selector(either, timeout=60000)
    if host.query_selector(sel("new-game", ":not([disabled])")):
        run.count("(c) games ended (a new game started)")
        host.click(sel("new-game", ":not([disabled])"))
        host.wait_for_selector(sel("start-game", ":not([disabled])"), timeout=60000)
        host.click(sel("start-game"))
    else:
        host.click(sel("next-round", ":not([disabled])"))
    for s in seats:
        s.page.wait_for_selector(sel("round-results"), state="detached", timeout=60000)
    ready(seats)


def measure_four(run, browser, net, site, rounds, draw_rounds):
    contexts = []
    try:
        seats = table(browser, net, site, FOUR, contexts)
        start(seats, 30 if draw_rounds else None)
        cpu = Cpu(seats)
        run.moves, run.tag = 0, "four: "
        for r in range(rounds):
            if r:
                next_round(run, seats)
            play_round(run, seats, draw_timer=r < draw_rounds, callers=("Ana",))
        cpu.take(run, seats, "1x host")
        rtts = [p["rtt"] for p in round_trips(seats[0].page)]
        run.add("round trips at the host (getStats)", sorted(round(x or 0) for x in rtts))
        net.set("Cleo", "stall", first_ms=5000)
        seats[3].link.base = "lan"
        run.tag = "four, Cleo stall: "
        for r in range(rounds):
            next_round(run, seats)
            play_round(run, seats, callers=("Ana",))
        st = net.stats("Cleo")
        run.count("(c) Cleo's stall: packets blacked out", st["up"]["blacked"]
                  + st["down"]["blacked"])
    finally:
        for c in contexts:
            with contextlib.suppress(Exception):
                c.close()


def measure_eight(run, browser, net, site, rounds):
    contexts = []
    try:
        seats = table(browser, net, site, EIGHT, contexts)
        start(seats)
        cpu = Cpu(seats)
        run.moves, run.tag = 0, "eight: "
        for r in range(rounds):
            if r:
                next_round(run, seats)
            play_round(run, seats)
        cpu.take(run, seats, "8 views")
    finally:
        for c in contexts:
            with contextlib.suppress(Exception):
                c.close()


@contextlib.contextmanager
def builds(ref, relay):
    """(this tree's dist, ref's dist), relay-only test builds naming `relay`."""
    with tempfile.TemporaryDirectory(prefix="crisp-table-") as tmp:
        ice = os.path.join(tmp, "ice.json")
        with open(ice, "w") as f:
            json.dump(relay.ice("relay"), f)
        with built(ref, ("--ice", ice)) as dists:
            yield dists


def summary(values):
    if not values:
        return "-"
    if isinstance(values[0], list):
        return str(values[0])
    if len(values) == 1:
        return "%.0f" % values[0]
    return "%.0f/%.0f (%d)" % (pct(values, 50), pct(values, 95), len(values))


def show(keys, runs, labels):
    print("side by side (p50/p95 (samples) in ms; counts; (d) the share accepted, %):")
    print("  %-52s" % "" + "".join("%24s" % label for label in labels))
    for key in keys:
        cells = []
        for r in runs:
            v = r.s.get(key, [])
            if "accepted" in key and v:
                cells.append("%.0f %% of %d" % (statistics.mean(v), len(v)))
            else:
                cells.append(summary(v))
        print("  %-52s" % key + "".join("%24s" % c for c in cells))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", default="main", help="the git ref to compare with")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--draw-rounds", type=int, default=1)
    ap.add_argument("--only", default="four,eight")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))     # (its servers stopped, by PID)

    turnserver, why = ensure_coturn()
    if turnserver is None:
        sys.exit(why)
    folder = tempfile.mkdtemp(prefix="crisp-coturn-")
    runs = [Run(), Run()]
    try:
        measure(args, turnserver, folder, runs)
    except SystemExit:
        print("  (stopped: the figures so far)", file=sys.stderr, flush=True)
    shutil.rmtree(folder, ignore_errors=True)
    keys = []
    for r in runs:
        keys += [k for k in r.s if k not in keys]
    show(sorted(keys), runs, ["this tree", args.against])


def measure(args, turnserver, folder, runs):
    """Both builds' tables, into `runs` (this tree's, then the ref's); SIGTERM stops it."""
    from playwright.sync_api import sync_playwright
    with coturn(folder, turnserver) as relay, builds(args.against, relay) as dists, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        for dist, run in zip(dists, runs):
            with serve(dist) as site:
                net = Net(relay.port, site.port)
                try:
                    for name in args.only.split(","):
                        t = time.monotonic()
                        try:
                            if name == "four":
                                measure_four(run, browser, net, site, args.rounds,
                                             args.draw_rounds)
                            elif name == "eight":
                                measure_eight(run, browser, net, site, max(1, args.rounds - 1))
                        except Exception as e:
                            where = traceback.extract_tb(e.__traceback__)
                            print("  (%s: failed: %s at %s)" % (
                                name, str(e).splitlines()[0][:160],
                                ", ".join("%s:%d" % (os.path.basename(f.filename), f.lineno)
                                          for f in where[-4:])), file=sys.stderr, flush=True)
                            run.count("(c) %s: tables that failed (a wait timed out)" % name)
                        print("  (%s, %s: %.0f s)" % (dist, name, time.monotonic() - t),
                              file=sys.stderr, flush=True)
                finally:
                    net.close()
        browser.close()


if __name__ == "__main__":
    main()
