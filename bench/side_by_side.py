"""Two builds side by side in one run (bench/page_bench.py --against; issue 22 item 6):

    .venv/bin/python bench/page_bench.py --against main [--runs 3] [--cpu 1,4]
        [--only engine,solo,join,reload,taps3,taps8,trace3,trace8]
    .venv/bin/python bench/page_bench.py --dist AFTER --against BEFORE ...

`--against REF`, a git ref: that ref (a detached git worktree, removed after) and this
working tree are built (tools/build.py --test: a test build, whose pages take ?prof=1 for the
trace's Python spans) into a temporary folder; `--against DIR`: two builds made already
(--dist AFTER, the working tree's dist/ by default). Each is served by its own
tools/serve.mjs (gzip on) and measured in turn, run after run, in one headless Debian
Chromium, so that a machine that other work loads meanwhile weighs on both alike. `--cpu`:
the CPU rates, each a table of its own (1,4 by default): at N every page runs on a CPU N
times slower (Chrome's CPU throttling through a CDP session, Emulation.setCPUThrottlingRate;
4 is a mid-range phone). Medians of `--runs` runs, ms:

  engine ready cold    navigation start to body[data-engine=ready] on a host page, nothing
                       cached (a fresh browser context)
  engine ready warm    the same once the service worker has kept the files (a reload; and
                       the engine its inflated snapshot, where the build does)
  engine own start     the engine worker's own start (its `ready` message's ms), cold
  landing usable       navigation start to body[data-ready] on the same pages, cold and warm
                       (what an earlier engine start must not slow down)
  solo tap to table    Play solo tapped the moment it is live on a cold landing (the name
                       kept from an earlier visit), to the table (the first card of seat 1 on
                       the page)
  solo engine ready    the same tap to the engine ready (the solo table waits for it), and
                       that engine's own start (issue 22's target: the table within 1.5x it)
  join: tap to seated  a guest's Join tapped while the host's engine starts (the host created
                       its room as soon as its landing showed; its Pyodide wasm held back
                       until JOIN_HOLD_S after the tap), to the guest's seat on its page
  join: seated after ready  the guest seated, less the later of its tap and the host's engine
                       ready (same clock): how long a seat waits once it can be given
  host reload          a host of a table of three reloaded, to every screen back as before
                       (its seats, cards, piles and away marks, and no banner)
  tap to every screen  (3 and 8 players) a player's tap (draw, discard) to the line it makes in
                       every other player's event log; p50 and p95 over the taps, and their
                       count: HOST_TAPS of the host's own at least (ALL_TAPS in all), each
                       TAP_GAP_S after the last one's lines showed
  trace 3, trace 8     the host's taps hop by hop: tap to the request posted to the engine
                       worker, the worker's wait and handling, its reply back on the page,
                       the page to its first data channel send, that send to the last
                       guest's receive, a receive to its log line; and the last guest's
                       page from its Python spans: busy (a render running) when the view
                       came, reading it, waiting for its render, the render (its card
                       flights apart), the render's end to the log line seen; medians over
                       HOST_TAPS of the host's taps ("samples": how many); what each
                       page's renderer spends per move (CpuUse: its process's CPU time, its
                       main thread's script, style and layout); and how often the median
                       guest renders, and for how long, for the 250 ms tick and for the
                       room's messages (bench/span_tally.py)

Every time is taken on the pages themselves (Date.now() when a MutationObserver sees it, one
clock for every page of this machine), never by a Playwright wait: those poll every 500 ms
after their first tries, and at 4x CPU each poll is a task of the page's, so a wait returned
up to ~1 s after the fact, by an amount that depends on where the 500 ms fell (it made one
build's "seated after ready" look twice the other's). Prints numbers; asserts nothing.
"""

import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from crisp_e2e import LAUNCH_ARGS, PHONE, READY_PROBE  # noqa: E402
from pyodide_bench import local_site  # noqa: E402
from span_tally import SpanTally  # noqa: E402

WAIT = 300_000
ENGINE_DONE = "['ready', 'failed'].includes(document.body.dataset.engine)"


def sel(testid, extra=""):
    return '[data-testid="%s"]%s' % (testid, extra)


# When each of the test ids `want` is first in the page: window.__crispSeen[id] = Date.now(),
# noted by a MutationObserver as the page draws it.
SEEN = """
(() => {
  const want = %s;
  const seen = window.__crispSeen = {};
  const look = () => {
    for (const id of want)
      if (!(id in seen) && document.querySelector('[data-testid="' + id + '"]')) seen[id] = Date.now();
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true});
})();
"""


def seen_script(*testids):
    """An init script noting when each of `testids` is first in the page (`seen_at`)."""
    return SEEN % json.dumps(list(testids))


def seen_at(page, testid):
    """Date.now() on `page` when `testid` was first in it (seen_script), waiting for it."""
    page.wait_for_function("(id) => window.__crispSeen && id in window.__crispSeen",
                           arg=testid, timeout=WAIT)
    return page.evaluate("(id) => window.__crispSeen[id]", testid)


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


KEPT_WAIT = 10_000


def measure_engine(phones, base):
    page = phones.new()
    landing(page, base)
    out = {"engine ready cold": engine_at(page),
           "engine own start": page.evaluate("window.crisp.times.engineOwn || null"),
           "landing usable cold": page.evaluate("window.__crispReadyAt")}
    page.wait_for_function("document.body.dataset.offline === 'engine'", timeout=WAIT)
    # a build whose engine keeps its inflated snapshot (engine-worker.js, some seconds after
    # ready) is given the time to: a player's next visit comes later than this one's end
    with contextlib.suppress(Exception):
        page.wait_for_function("document.body.dataset.engineKept !== undefined",
                               timeout=KEPT_WAIT)
    page.close()
    page = page.context.new_page()
    phones.throttle(page)
    landing(page, base)
    out["engine ready warm"] = engine_at(page)
    out["landing usable warm"] = page.evaluate("window.__crispReadyAt")
    return out


# Play solo tapped by the page itself the moment it is live on a usable landing (the name
# kept from an earlier visit: no typing first), noted in window.__crispSoloTap (Date.now()).
SOLO_TAP = """
(() => {
  try { localStorage.setItem("crisp.name", "Sol"); } catch (e) {}
  window.__crispSoloTap = null;
  const look = () => {
    if (window.__crispSoloTap !== null || window.__crispReadyAt === undefined) return;
    const b = document.querySelector('[data-testid="play-solo"]:not([disabled])');
    if (b) { window.__crispSoloTap = Date.now(); b.click(); }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true,
                                                attributes: true});
})();
"""


def measure_solo(phones, base):
    page = phones.new([SOLO_TAP, seen_script("card-1-left")])
    landing(page, base + "?botpace=0.1")
    table = seen_at(page, "card-1-left")
    t0 = page.evaluate("window.__crispSoloTap")
    out = {"solo tap to table": table - t0}
    if engine_at(page) is not None:
        out["solo engine ready"] = epoch(page, "window.crisp.times.engine") - t0
        out["solo engine own start"] = page.evaluate("window.crisp.times.engineOwn || null")
    return out


def epoch(page, expr):
    """A page's performance.now()-based time `expr` as ms since the epoch (one clock for all
    the pages of this machine)."""
    return page.evaluate("performance.timeOrigin + (%s)" % expr)


JOIN_HOLD_S = 3       # how long after the guest's Join the host's engine is held back


def measure_join(phones, base):
    """The host's Pyodide wasm is held back until the guest tapped Join and JOIN_HOLD_S
    more: the guest joins while the engine starts, whatever the build's start time."""
    host = phones.new()
    held = []
    host.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    landing(host, base)
    host.fill(sel("player-name"), "Hana")
    tap(host, "create-room")
    host.wait_for_selector(sel("room-link"), timeout=WAIT)
    link = host.inner_text(sel("room-link")).strip()
    guest = phones.new([seen_script("player-1")])
    guest.goto(link)
    guest.wait_for_function("window.__crispReadyAt !== undefined", timeout=WAIT)
    guest.wait_for_selector(sel("player-name"), timeout=WAIT)
    guest.fill(sel("player-name"), "Ana")
    guest.wait_for_selector(sel("join-room", ":not([disabled])"), timeout=WAIT)
    t0 = guest.evaluate(CLICK, sel("join-room", ":not([disabled])"))
    time.sleep(JOIN_HOLD_S)
    for route in held:
        route.continue_()
    host.context.unroute("**/pyodide.asm.wasm")
    seated = seen_at(guest, "player-1")
    if engine_at(host) is None:
        return {}
    ready = epoch(host, "window.crisp.times.engine")
    return {"join: tap to seated": seated - t0,
            "join: seated after ready": seated - max(ready, t0)}


# Every change of a page's event log, [Date.now(), its text], in window.__crispLog (its text
# read as textContent: no layout forced).
LOG_WATCH = """
(() => {
  window.__crispLog = [];
  let last = null;
  const look = () => {
    const log = document.querySelector('[data-testid="event-log"]');
    const text = log ? log.textContent : null;
    if (text !== last) { last = text; window.__crispLog.push([Date.now(), text]); }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true,
                                                characterData: true});
})();
"""

# Click a live control, returning Date.now() just before (the tap's time).
CLICK = """(s) => { const el = document.querySelector(s); if (!el) return null;
                    const t = Date.now(); el.click(); return t; }"""


def table_of(phones, base, players, query="?botpace=0.1", init=(), guest_query=""):
    """A host and players-1 guests at a dealt table, every peek over (every page with the
    init scripts `init` too; every guest's room link with `guest_query` after it, e.g.
    "&prof=1"). -> [pages], host first."""
    host = phones.new([LOG_WATCH] + list(init))
    landing(host, base + query)
    host.fill(sel("player-name"), "Hana")
    tap(host, "create-room")
    host.wait_for_selector(sel("room-link"), timeout=WAIT)
    link = host.inner_text(sel("room-link")).strip()
    pages = [host]
    for i in range(1, players):
        guest = phones.new([LOG_WATCH] + list(init))
        guest.goto(link + guest_query)
        guest.wait_for_function("window.__crispReadyAt !== undefined", timeout=WAIT)
        guest.wait_for_selector(sel("connection"), state="detached", timeout=WAIT)
        guest.fill(sel("player-name"), "Guest %d" % i)
        tap(guest, "join-room")
        guest.wait_for_selector(sel("player-%d" % i), timeout=WAIT)
        pages.append(guest)
    host.wait_for_selector(sel("player-%d" % (players - 1)), timeout=WAIT)
    tap(host, "start-game")
    for page in pages:
        tap(page, "ready")
    return pages


def whose_turn(pages, timeout_s=60):
    """The page whose deck is live (its turn to draw), waiting for one."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for page in pages:
            if page.query_selector(sel("deck", ":not([disabled])")):
                return page
        time.sleep(0.02)
    return None


def tap_to_logs(page, others, testid, timeout_s=30):
    """Tap `testid` on `page`; -> ms from the tap to the last of `others` showing a new event
    log line (None if one never did)."""
    marks = [o.evaluate("window.__crispLog.length") for o in others]
    t0 = page.evaluate(CLICK, sel(testid, ":not([disabled])"))
    if t0 is None:
        return None
    latest = 0
    for other, mark in zip(others, marks):
        try:
            other.wait_for_function("(m) => window.__crispLog.length > m", arg=mark,
                                    timeout=timeout_s * 1000)
        except Exception:
            return None
        latest = max(latest, other.evaluate("(m) => window.__crispLog[m][0]", mark))
    return latest - t0


HOST_TAPS = 24          # taps of the host's own per tap measure: a steady p50 and p95
ALL_TAPS = 48           # ... and of every player's, at least
TAP_GAP_S = 0.4         # between a tap's last log line and the next tap: a player's taps are
                        # never back to back, and a tap's measure is its own, not the last's
                        # (page_bench.py --gap S: e.g. 1.5, once the last move's flights and
                        # the pages' work for it are over, as at a real table's pace)
TAPS_S = 420            # a tap measure's time, at most


# A turn's taps: draw from the deck, then the card drawn discarded, or a King (which may not
# be discarded, R4.3) played: its two extra draws are more turns of the same page's.
TURN = (("deck",), ("discard-held", "use-special"))


def live(page, testids, timeout_ms=8000):
    """The first of `testids` (in that order) live on `page`, waiting for one; or None."""
    try:
        page.wait_for_selector(", ".join(sel(t, ":not([disabled])") for t in testids),
                               timeout=timeout_ms)
    except Exception:
        return None
    return next((t for t in testids if page.query_selector(sel(t, ":not([disabled])"))), None)


def measure_taps(phones, base, players, host_taps=HOST_TAPS, taps=ALL_TAPS):
    """Draw-and-discard turns at a table of `players`: each tap (the host's and the guests')
    to every other screen's event log line, until the host made `host_taps` and everyone
    `taps` (or TAPS_S passed). -> p50/p95 and the count of taps (host taps, all taps)."""
    pages = table_of(phones, base, players)
    host_ms, all_ms = [], []
    deadline = time.monotonic() + TAPS_S
    while (len(host_ms) < host_taps or len(all_ms) < taps) and time.monotonic() < deadline:
        page = whose_turn(pages)
        if page is None:
            break
        others = [p for p in pages if p is not page]
        for step in TURN:
            testid = live(page, step)
            if testid is None:  # (a tap the room refused, the table having moved on)
                break
            time.sleep(TAP_GAP_S)
            ms = tap_to_logs(page, others, testid, timeout_s=8)
            if ms is not None:
                all_ms.append(ms)
                if page is pages[0]:
                    host_ms.append(ms)
    key = "tap, %d players" % players
    return {key + ", host p50": pct(host_ms, 50), key + ", host p95": pct(host_ms, 95),
            key + ", host taps": len(host_ms),
            key + ", all p50": pct(all_ms, 50), key + ", all p95": pct(all_ms, 95),
            key + ", all taps": len(all_ms)}


def pct(values, p):
    values = sorted(values)
    if not values:
        return None
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


# Where a tap's time goes (--only trace3 / trace8): every page notes Date.now() when the
# engine worker is sent a request (and whether it is the host's own move: a receive from
# "local" of an action, not a guest's ping) and when a reply comes back (host page), and when
# a data channel message is sent or arrives (every page); the engine worker notes each
# request's handling (WORKER_SPANS below), and whether it was a move.
HOPS = """
(() => {
  const t = window.__crispHops = {post: [], reply: [], send: [], recv: []};
  const MOVE = (m) => typeof m === "string" && /"conn": *"local"/.test(m) && /action/.test(m);
  const W = window.Worker;
  window.Worker = function (...args) {
    const w = new W(...args);
    const post = w.postMessage.bind(w);
    w.postMessage = (m) => { t.post.push([Date.now(), MOVE(m)]); return post(m); };
    w.addEventListener("message", (e) => { if (typeof e.data === "string") t.reply.push(Date.now()); });
    return w;
  };
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (m) { t.send.push(Date.now()); return send.call(this, m); };
  const desc = Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onmessage");
  Object.defineProperty(RTCDataChannel.prototype, "onmessage", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(fn) { desc.set.call(this, fn && ((e) => { t.recv.push(Date.now()); return fn(e); })); },
  });
})();
"""

WORKER_SPANS = """() => {
  self.__crispSpans = [];
  const h = self.onmessage;
  const move = (m) => typeof m === "string" && /"conn": *"local"/.test(m) && /action/.test(m);
  self.onmessage = (e) => { const a = Date.now(); h(e);
                            self.__crispSpans.push([a, Date.now(), move(e.data)]); };
}"""


def first_after(times, t0):
    later = [t for t in times if t >= t0]
    return min(later) if later else None


def measure_trace(phones, base, players, taps=HOST_TAPS):
    """The host's taps (draw, discard) hop by hop, medians over `taps` of them (the count is
    printed, "samples"): tap to the request posted to the worker; the worker's handling
    (queued, then run); its reply back on the page; the page to its first data channel
    send; that send to the last guest's receive; a guest's receive to its event log line."""
    pages = table_of(phones, base, players, "?botpace=0.1&prof=1", [HOPS], "&prof=1")
    host = pages[0]
    worker = next(w for w in host.workers if "engine-worker" in w.url)
    worker.evaluate(WORKER_SPANS)
    hops = {}
    cpu = CpuUse(pages)
    tally = SpanTally(pages)
    deadline = time.monotonic() + TAPS_S
    while len(hops.get("tap to log (last guest)", [])) < taps and time.monotonic() < deadline:
        page = whose_turn(pages)
        if page is None:
            break
        if page is not host:        # a guest's turn: it plays, unmeasured
            for step in TURN:
                testid = live(page, step)
                if testid is not None and page.evaluate(CLICK, sel(testid, ":not([disabled])")):
                    cpu.moves += 1
            continue
        for step in TURN:
            testid = live(host, step)
            if testid is None:
                break
            time.sleep(TAP_GAP_S)
            marks = [g.evaluate("window.__crispLog.length") for g in pages[1:]]
            for i in range(len(pages)):
                tally.take(i)
            t0 = host.evaluate(CLICK, sel(testid, ":not([disabled])"))
            cpu.moves += t0 is not None
            logs = []
            try:
                for g, m in zip(pages[1:], marks):
                    g.wait_for_function("(m) => window.__crispLog.length > m", arg=m,
                                        timeout=8000)
                    logs.append(g.evaluate("(m) => window.__crispLog[m][0]", m))
            except Exception:
                break
            h = host.evaluate("window.__crispHops")
            spans = worker.evaluate("self.__crispSpans")
            post = first_after([p[0] for p in h["post"] if p[1]], t0)     # the move's
            span = next((sp for sp in spans if sp[2] and sp[1] >= post), None) if post else None
            reply = first_after(h["reply"], span[1]) if span else None
            sent = first_after(h["send"], reply) if reply else None
            if None in (post, span, reply, sent):
                continue
            sends = sorted(t for t in h["send"] if t >= sent)[:len(pages) - 1]
            recv = [first_after(g.evaluate("window.__crispHops.recv"), sent) for g in pages[1:]]
            if None in recv:
                continue
            last = max(range(len(logs)), key=lambda k: logs[k])     # the last guest's page
            for key, value in host_parts(tally.take(0), reply).items():
                hops.setdefault(key, []).append(value)
            for key, value in guest_parts(tally.take(1 + last), recv[last], logs[last]).items():
                hops.setdefault(key, []).append(value)
            for key, value in (("tap to posted", post - t0), ("worker: waits", span[0] - post),
                               ("worker: handles", span[1] - span[0]),
                               ("reply to page", reply - span[1]),
                               ("page to first send", sent - reply),
                               ("first to last send", sends[-1] - sent),
                               ("send to last receive", max(recv) - sent),
                               ("receive to log (max)", max(l - r for l, r in zip(logs, recv))),
                               ("tap to log (last guest)", max(logs) - t0)):
                hops.setdefault(key, []).append(value)
    for i in range(len(pages)):
        tally.take(i)
    out = {"trace %d: %s" % (players, k): statistics.median(v) for k, v in hops.items()}
    out["trace %d: samples" % players] = len(hops.get("tap to log (last guest)", []))
    out.update({"trace %d: %s" % (players, k): v for k, v in cpu.per_move().items()})
    out.update(tally.per_second("trace %d: " % players))
    return out


class CpuUse:
    """What each page's renderer spends per move (Chrome's Performance.getMetrics, through a
    CDP session per page): its process's CPU time (every thread: script, style, layout,
    paint, compositing; the host's engine worker too), its main thread's, and that
    thread's script, style and layout, from now to
    `per_move()`, divided by `moves` (every tap made meanwhile, measured or not). On a
    machine with fewer cores than pages, a move reaches the last screen no sooner than the
    pages' CPU time for it allows."""

    KEYS = ("ProcessTime", "ThreadTime", "ScriptDuration", "RecalcStyleDuration",
            "LayoutDuration")

    def __init__(self, pages):
        self.sessions = []
        for page in pages:
            session = page.context.new_cdp_session(page)
            session.send("Performance.enable", {"timeDomain": "threadTicks"})
            self.sessions.append(session)
        self.moves = 0
        self.start = [self._read(s) for s in self.sessions]

    def _read(self, session):
        metrics = session.send("Performance.getMetrics")["metrics"]
        return {m["name"]: m["value"] for m in metrics if m["name"] in self.KEYS}

    def per_move(self):
        """{"cpu per move, host: <metric>" and "..., a guest (median)": ms, "cpu per move,
        every page": ms of all the pages' process time} (empty when no move was made)."""
        if not self.moves:
            return {}
        used = [{k: (end.get(k, 0) - begin.get(k, 0)) * 1000 / self.moves for k in self.KEYS}
                for begin, end in zip(self.start, [self._read(s) for s in self.sessions])]
        out = {"cpu per move, every page": sum(u["ProcessTime"] for u in used)}
        for k in self.KEYS:
            out["cpu per move, host: " + k] = used[0][k]
            out["cpu per move, a guest (median): " + k] = statistics.median(
                u[k] for u in used[1:])
        return out


def host_parts(spans, reply):
    """The host page's side of the engine's reply, from its Python spans (SpanTally.take of a
    test build's ?prof=1): from the reply's arrival to its handler running, the handler
    reading it (JSON) up to the room's outputs, the sends to the guests, the rest of
    room_out (its own view, the save)."""
    got = next((sp for sp in spans if sp[0] == "EngineLink._message" and sp[2] >= reply - 1),
               None)
    out = next((sp for sp in spans if sp[0] == "HostPage.room_out" and got
                and sp[1] >= got[1]), None)
    send = next((sp for sp in spans if sp[0] == "HostTransport.send_remote" and out
                 and sp[1] >= out[1]), None)
    if not (got and out and send):
        return {}
    return {"host: reply to handler": got[1] - reply, "host: reads reply": out[1] - got[1],
            "host: room_out to sends": send[1] - out[1], "host: sends": send[2] - send[1],
            "host: after sends": out[2] - send[2]}


def guest_parts(spans, recv, logged):
    """The last guest's side of a tap, from its Python spans (SpanTally.take of a test build's
    ?prof=1; none on another build): the message read (net_text), the wait for the render,
    the render, the card flights and what came after it before the log line was seen."""
    read = next((sp for sp in spans if sp[0] == "GuestPage.net_text" and sp[1] >= recv - 1),
                None)
    if read is None:
        return {}
    # the render of the view: inside the message's task (redraw.draws_at_once), or after it
    draw = next((sp for sp in spans if sp[0] == "Page.render" and sp[1] >= read[1]), None)
    if draw is None:
        return {}
    nested = draw[1] < read[2]
    fly = next((sp for sp in spans if sp[0] == "Screen._fly" and draw[1] <= sp[1] <= draw[2]),
               None)
    busy = sum(sp[2] - sp[1] for sp in spans if sp[0] == "Page.render"
               and sp[1] < read[1] and sp[2] > recv)
    parts = {}
    for sp in spans:        # the render's parts (spans of other labels nest in these)
        if sp[0] in DRAW_PARTS and draw[1] <= sp[1] and sp[2] <= draw[2]:
            key = "guest:   " + DRAW_PARTS[sp[0]]
            parts[key] = parts.get(key, 0) + sp[2] - sp[1]
    return dict(parts, **{"guest: busy at arrival": busy,
            "guest: reads": (draw[1] if nested else read[2]) - read[1],
            "guest: waits to draw": 0 if nested else draw[1] - read[2],
            "guest: draws (all)": draw[2] - draw[1],
            "guest: card flights": (fly[2] - fly[1]) if fly else 0,
            "guest: drawn to log seen": logged - draw[2]})


DRAW_PARTS = {"page.render.build": "builds the tree", "page.screens.table_tree": "  the table",
              "page.eventlog.log_node": "  the log", "Screen._take_events": "cues",
              "Patcher.patch": "patches the DOM", "Flights.fly": "flies (forced layout)"}


# What a screen shows of the table (its seats, cards, piles, away marks) and whether a banner
# is up (a link's, the setting-up one, the engine's, the host gone, a handover).
SIGNATURE = """() => JSON.stringify([[...document.querySelectorAll('[data-testid]')]
  .filter((e) => /^(seat-|card-|deck|discard|player-)/.test(e.dataset.testid))
  .map((e) => [e.dataset.testid, e.getAttribute('data-card'), e.classList.contains('away')]),
  !!document.querySelector(['connection', 'setting-up', 'engine-progress', 'host-gone',
                            'handover'].map((id) => '[data-testid="' + id + '"]').join(','))])"""

# Every change of what the screen shows (SIGNATURE), as [Date.now(), signature], in
# window.__crispScreens: noted as the page draws it.
SCREENS = """
(() => {
  const shows = %s;
  const seen = window.__crispScreens = [];
  let last = null;
  const look = () => {
    const now = shows();
    if (now !== last) { last = now; seen.push([Date.now(), now]); }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true,
                                                attributes: true, characterData: true});
})();
""" % SIGNATURE


def back_at(page, sig):
    """Date.now() on `page` when its screen last became `sig` (window.__crispScreens), or
    None while it shows something else."""
    screens = page.evaluate("window.__crispScreens")
    return screens[-1][0] if screens and screens[-1][1] == sig else None


def measure_reload(phones, base):
    """A table of three; the host page reloads: to every screen as it was (their seats,
    cards, piles and away marks as before the reload, no banner), each as its page drew it."""
    pages = table_of(phones, base, 3, "?botpace=0.1", [SCREENS])
    time.sleep(4)                     # the one-time reveals are over
    before = [p.evaluate(SIGNATURE) for p in pages]
    t0 = time.time() * 1000
    pages[0].reload()
    pages[0].wait_for_function("window.__crispReadyAt !== undefined", timeout=WAIT)
    deadline = time.monotonic() + 120
    backs = [None] * len(pages)
    while time.monotonic() < deadline and None in backs:
        backs = [back_at(p, sig) for p, sig in zip(pages, before)]
        time.sleep(0.1)
    if None in backs:
        return {}
    return {"host reload to every screen": max(backs) - t0}


MEASURES = {"engine": measure_engine, "solo": measure_solo, "join": measure_join,
            "reload": measure_reload,
            "taps3": lambda phones, base: measure_taps(phones, base, 3),
            "taps8": lambda phones, base: measure_taps(phones, base, 8),
            "trace3": lambda phones, base: measure_trace(phones, base, 3),
            "trace8": lambda phones, base: measure_trace(phones, base, 8)}


def mpy_cross():
    """This checkout's mpy-cross (tools/pyzip.py find_mpy_cross), or None."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from pyzip import find_mpy_cross
    return find_mpy_cross()


def build_tree(src, out, mpy=None, extra=()):
    """tools/build.py --test of the tree at `src` into `out` (a test build: its pages take
    ?prof=1, the Python spans of the trace), with build.py's `extra` arguments (e.g.
    ("--ice", path)). `mpy`: the mpy-cross to compile the page with ($MPY_CROSS): a git
    ref's worktree has no .venv of its own, and built without one its page ships sources,
    slower to start than this tree's bytecode (an unfair race)."""
    env = dict(os.environ, MPY_CROSS=mpy) if mpy else None
    subprocess.run([sys.executable, os.path.join(src, "tools", "build.py"), "--test", *extra,
                    "--out", out], cwd=src, check=True, stdout=subprocess.DEVNULL, env=env)


@contextlib.contextmanager
def built(ref, extra=()):
    """A build of git ref `ref` (a detached worktree of it, with this checkout's
    node_modules) and of the working tree, in a temporary folder, each with build.py's
    `extra` arguments: -> (tree's, ref's)."""
    tmp = tempfile.mkdtemp(prefix="crisp-bench-")
    src = os.path.join(tmp, "src")
    try:
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", src, ref],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.symlink(os.path.join(ROOT, "node_modules"), os.path.join(src, "node_modules"))
        mine, theirs = os.path.join(tmp, "this-tree"), os.path.join(tmp, ref.replace("/", "-"))
        build_tree(ROOT, mine, extra=extra)
        build_tree(src, theirs, mpy_cross(), extra)
        yield mine, theirs
    finally:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", src],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(tmp, ignore_errors=True)


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
                    try:
                        with Phones(browser, cpu) as phones:
                            got = MEASURES[name](phones, base)
                    except Exception as e:      # (one run that never got there: say so, go on)
                        print("  (%s, %s: failed: %s)" % (dists[i], name,
                              str(e).splitlines()[0][:120]), file=sys.stderr, flush=True)
                        continue
                    print("  (%s, %s: %s)" % (os.path.basename(os.path.normpath(dists[i])), name,
                          ", ".join("%s %.0f" % kv for kv in got.items() if kv[1] is not None)),
                          file=sys.stderr, flush=True)
                    for key, value in got.items():
                        results[i].setdefault(key, []).append(value)
        browser.close()
    labels = [os.path.basename(os.path.normpath(d)) or d for d in dists]
    print("side by side, %d runs, CPU slowed x%g, %g s between taps (medians, ms):"
          % (runs, cpu, TAP_GAP_S))
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
