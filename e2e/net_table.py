"""A table whose pages each talk through a link of their own (e2e/netem.py), for the e2e
tests of slow links (e2e/test_slow_links.py) and the benchmark (bench/table_bench.py).

    open_table(new_page, net, site, seats, query)  a host and guests, each page opened
                        through its link (its profile), every page with WATCH; -> [Seat]
    play_turn(seat)     the seat whose deck is live plays its turn (draw; discard the card, or
                        play a King and its extra draws); -> the taps it made
    whose_turn(seats)   the seat whose deck is live (waiting for one), or None
    scores(seats)       every page's scores once each shows the round's results
    log_counts(page)    how many lines of each kind (draw, discard, ...) its event log shows
    bad_since(page, t)  the banners (host away, handover, host gone, new host, re-deal,
                        restarting) WATCH saw on the page from Date.now() `t` on
    tap_before(page, testid, key, before_ms)  tap `testid` when the screen shows `before_ms`
                        left of its Crisp window ("crispEnd") or turn timer ("timerEnd"),
                        the page itself timing the tap; -> {t, left} (or None)

Times are Date.now() on the pages, one clock for every page of this machine.
"""

import time

from crisp_e2e import engine_ready, wait_ready
from netem import page_init
from crisp_e2e import T, live, sel

# What the screen says, as the page draws it (a MutationObserver): every banner of the
# ones a table must not see from a short blackout, with its time and text, in
# window.__crispNet.bad; when the screen's Crisp window ends (the crisp button's data-ends:
# the page's own clock time, as it counts from the view's arrival; its drain bar starts
# only when drawn, a render later) and its turn timer (its data-ms, the ms left when it was
# drawn), as Date.now() times.
WATCH = """
(() => {
  const BAD = ["connection", "handover", "host-gone", "new-host", "redealt", "restarting"];
  const w = window.__crispNet = {bad: [], crispEnd: null, timerEnd: null};
  const up = new Set();
  let crispEnds = null, timerMs = null;
  const look = () => {
    const now = Date.now();
    for (const id of BAD) {
      const el = document.querySelector('[data-testid="' + id + '"]');
      if (el && !up.has(id)) { up.add(id); w.bad.push([now, id, (el.textContent || "").slice(0, 160)]); }
      if (!el) up.delete(id);
    }
    const c = document.querySelector('[data-testid="crisp"][data-ends]');
    const ends = c ? c.dataset.ends : null;
    if (ends !== crispEnds) { crispEnds = ends; w.crispEnd = ends === null ? null : Number(ends); }
    const timer = document.querySelector('[data-testid="turn-timer"]');
    const ms = timer ? timer.dataset.ms : null;
    if (ms !== timerMs) { timerMs = ms; w.timerEnd = ms === null ? null : now + Number(ms); }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true,
                                                attributes: true, characterData: true});
  // tap `testid` once the screen shows `before` ms left of w[key] (re-read as views come)
  window.__crispTapBefore = (testid, key, before, giveUpMs) => new Promise((done) => {
    const stop = Date.now() + (giveUpMs || 10000);
    const go = () => {
      const end = w[key];
      const el = document.querySelector('[data-testid="' + testid + '"]:not([disabled])');
      if (Date.now() > stop) { done(null); return; }
      if (end === null || !el) { setTimeout(go, 10); return; }
      const wait = end - before - Date.now();
      if (wait > 12) { setTimeout(go, Math.min(wait - 8, 100)); return; }
      const t = Date.now();
      el.click();
      done({t: t, left: end - t});
    };
    go();
  });
  // tap the control `s`; its visible answer (the first change to it, or its going, then
  // the frame that shows it) in window.__crispAnswer
  window.__crispClickWatch = (s) => {
    const el = document.querySelector(s);
    if (!el) return null;
    const rec = window.__crispAnswer = {t: Date.now(), changed: null, shown: null};
    const mo = new MutationObserver((muts) => {
      if (!muts.some((m) => m.target === el || el.contains(m.target)) && el.isConnected) return;
      mo.disconnect();
      rec.changed = Date.now();
      requestAnimationFrame(() => { rec.shown = Date.now(); });
    });
    mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    el.click();
    return rec.t;
  };
})();
"""


class Seat:
    """One player at the table: `name`, `seat` number, its `link` (netem.Link), its `page`."""

    def __init__(self, name, seat, link, page):
        self.name, self.seat, self.link, self.page = name, seat, link, page


def open_table(new_page, net, site, seats, query="", start=True):
    """A room through the harness: `seats` [(name, profile)], the host first; each page from
    `new_page(init_scripts)` (a fresh browser context's page), opened through a link of its
    own (net.link(name, profile)). With `start`, the game started and every peek done.
    -> [Seat], the host first."""
    out = []
    for i, (name, prof) in enumerate(seats):
        link = net.link(name, prof, seed=i + 1)
        page = new_page([page_init(link), WATCH])
        if i == 0:
            page.goto(link.url(site.url("/" + query)))
            assert wait_ready(page) == "micropython"
            page.fill(sel("player-name"), name)
            live(page, "create-room")
            page.wait_for_selector(sel("room-link"), timeout=T)
            engine_ready(page)
            room = page.inner_text(sel("room-link")).strip()
        else:
            page.goto(link.url(room))
            assert wait_ready(page) == "micropython"
            page.wait_for_selector(sel("connection"), state="detached", timeout=T)
            page.fill(sel("player-name"), name)
            live(page, "join-room")
            for p in (page, out[0].page):
                p.wait_for_selector(sel("player-%d" % i), timeout=T)
        out.append(Seat(name, i, link, page))
    if start:
        live(out[0].page, "start-game")
        for s in out:
            live(s.page, "ready")
    return out


def whose_turn(seats, timeout_s=60):
    """The Seat whose deck is live (its turn to draw), waiting for one; None if none."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for s in seats:
            if s.page.query_selector(sel("deck", ":not([disabled])")):
                return s
        if any(s.page.query_selector(sel("round-results")) for s in seats):
            return None
        time.sleep(0.05)
    return None


def play_turn(s, click=None):
    """`s` (its deck live) plays its turn: draws, then discards the card drawn, or plays a
    King (R4.3: it may not be discarded) and deals with its two extra draws the same way
    (R4.6). `click(page, testid)`: how a tap is made (default: Playwright's click).
    -> the taps made [testid]."""
    click = click or (lambda page, testid: live(page, testid))
    page, owed, taps = s.page, 1, []
    while owed:
        owed -= 1
        page.wait_for_selector(sel("deck", ":not([disabled])"), timeout=T)
        click(page, "deck")
        taps.append("deck")
        choices = [sel("discard-held", ":not([disabled])"), sel("use-special", ":not([disabled])")]
        page.wait_for_selector(", ".join(choices), timeout=T)
        testid = "discard-held" if page.query_selector(choices[0]) else "use-special"
        click(page, testid)
        taps.append(testid)
        owed += 2 if testid == "use-special" else 0
    return taps


def scores(seats):
    """[[score of each seat] on each page] once every page shows the round's results."""
    out = []
    for s in seats:
        s.page.wait_for_selector(sel("round-results"), timeout=T)
        out.append([s.page.inner_text(sel("score-%d" % k)).strip() for k in range(len(seats))])
    return out


def log_counts(page):
    """{kind: lines} of the page's event log (li.ev.<kind>)."""
    return page.evaluate("""() => { const out = {};
      for (const li of document.querySelectorAll('[data-testid="event-log"] li.ev')) {
        const kind = [...li.classList].find((c) => c !== 'ev' && c !== 'fresh');
        out[kind] = (out[kind] || 0) + 1; }
      return out; }""")


def bad_since(page, t):
    """[[time, test id, text]] of the banners WATCH saw on `page` from `t` (Date.now()) on."""
    return [b for b in page.evaluate("window.__crispNet.bad") if b[0] >= t]


def tap_before(page, testid, key, before_ms, give_up_ms=10000):
    """Tap `testid` when the page's screen shows `before_ms` left of its "crispEnd" or
    "timerEnd" (WATCH), timed by the page; -> {"t": Date.now() of the tap, "left": ms the
    screen showed then}, or None (no such control or countdown within `give_up_ms`)."""
    return page.evaluate("([id, key, b, g]) => window.__crispTapBefore(id, key, b, g)",
                         [testid, key, before_ms, give_up_ms])
