"""What each page's Python does over a whole measure, by cause (bench/side_by_side.py's trace
3 / trace 8, a test build's ?prof=1 spans, ui/page/prof.py): how often a guest's page
renders and how long that takes, and how much of it the 250 ms tick and the room's messages
ask for. A render that changes nothing on screen still costs its build; this says how much
of a guest's time goes on those. Prints nothing itself; asserts nothing.
"""

import statistics
import time

# (label of ui/page/prof.py's spans, what it is called in the figures)
CAUSES = (("Page.render", "renders"), ("Page.ui_tick", "ticks (a render in those that draw)"),
          ("GuestPage.net_text", "messages (a view's render in it)"))


# A test build's page with ?prof=1 (ui/page/prof.py): its Python spans so far, as
# [label, start, end] in ms on the clock of Date.now() (the hops' and the log's, which
# performance.timeOrigin + performance.now() may drift from), emptied.
TAKE_SPANS = """() => { const s = window.__crispSpans ? window.__crispSpans.splice(0) : [];
  const out = [], off = Date.now() - performance.now();
  for (let i = 0; i + 2 < s.length; i += 3) out.push([s[i], off + s[i + 1], off + s[i + 2]]);
  return out; }"""


class SpanTally:
    """Every page's spans by label, from now, for `pages` (Playwright pages, host first):
    `take(i)` empties page i's spans, counts them and hands them on."""

    def __init__(self, pages):
        self.pages = pages
        self.per = [{} for _ in pages]
        self.t0 = time.monotonic()

    def take(self, i):
        """Page i's spans since the last take (TAKE_SPANS: [[label, start ms, end ms]],
        counted here); the host's is 0."""
        spans = self.pages[i].evaluate(TAKE_SPANS)
        for label, start, end in spans:
            calls = self.per[i].setdefault(label, [0, 0.0])
            calls[0] += 1
            calls[1] += end - start
        return spans

    def per_second(self, prefix):
        """{prefix + "a guest's <cause>: calls a s" and "...: ms a s"}: the median guest's,
        per second of wall time since the tally began (empty without guests or spans)."""
        wall = time.monotonic() - self.t0
        guests = self.per[1:]
        if not guests or wall <= 0 or not any(guests):
            return {}
        out = {}
        for label, name in CAUSES:
            got = [g.get(label, [0, 0.0]) for g in guests]
            out[prefix + "a guest's %s: calls a s" % name] = statistics.median(
                c[0] / wall for c in got)
            out[prefix + "a guest's %s: ms a s" % name] = statistics.median(
                c[1] / wall for c in got)
        return out
