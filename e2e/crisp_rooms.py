"""Helpers for e2e tests of rooms that lose players and hosts: opening a room, joining it,
what a screen shows (to compare before and after), cutting a page off the network."""

import statistics
import time

from crisp_e2e import engine_ready, wait_ready
from crisp_e2e import T, WIRE_TAP, live, sel

# Lets a test cut a page's data channels: while window.__crispCut is true nothing goes out
# and nothing comes in, and no channel closes (a phone whose network went away).
CUT = """
(() => {
  window.__crispCut = false;
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function () {
    if (window.__crispCut) return;
    return send.apply(this, arguments);
  };
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, listener, options) {
    if (type === "message") {
      const inner = listener;
      listener = function () { if (!window.__crispCut) return inner.apply(this, arguments); };
    }
    return add.call(this, type, listener, options);
  };
})();
"""

# What a screen shows, to compare before and after: every element with a test id (but the
# ones that tick or come and go: timers, the log, banners, toasts), its card face, whether it
# is live, and whether a seat shows as away; and the status line.
SIGNATURE = """
() => {
  const skip = new Set(["turn-timer", "event-log", "connection", "error", "nudge"]);
  const out = [];
  for (const e of document.querySelectorAll("#app [data-testid]")) {
    const id = e.dataset.testid;
    if (skip.has(id)) continue;
    out.push([id, e.getAttribute("data-card"), !!e.disabled,
              e.classList.contains("away"), id === "status" ? e.innerText : ""]);
  }
  return JSON.stringify(out);
}
"""


def phone(new_phone, tap=True, cut=False, site=None, init=None, motion=False, context=None):
    """A phone (reduced motion unless `motion`) with the wire tap (`tap`), the network cut
    switch (`cut`) and the init script(s) `init` (a string or a list of them); `context`:
    more options for its browser context (Playwright's new_context keywords)."""
    p = new_phone(reduced_motion="no-preference" if motion else "reduce", site=site,
                  **(context or {}))
    if tap:
        p.context.add_init_script(WIRE_TAP)
    if cut:
        p.context.add_init_script(CUT)
    for script in ([init] if isinstance(init, str) else init or ()):
        p.context.add_init_script(script)
    return p


def open_room(new_phone, name, query="", init=None, site=None, motion=False, lan=False,
              prepare=None, engine=True, context=None):
    """A host page that created a room (on `site`, else the session's; at its LAN address
    when `lan`), with the init script(s) `init`, `motion` and `context` as for `phone`; `prepare(phone)`
    runs before the page opens (to route its requests, say); with `engine`, once its engine
    worker runs (a room whose guests join while it starts: engine=False). Returns (phone,
    room link)."""
    host = phone(new_phone, tap=False, site=site, init=init, motion=motion, context=context)
    if prepare is not None:
        prepare(host)
    page = host.page
    page.goto((host.site.lan_url if lan else host.site.url)("/" + query))
    assert wait_ready(page) == "micropython"
    page.fill(sel("player-name"), name)
    live(page, "create-room")
    page.wait_for_selector(sel("room-link"), timeout=T)
    if engine:
        engine_ready(page)        # what guests who join wait for (however slow the machine)
    return host, page.inner_text(sel("room-link")).strip()


def join_room(new_phone, link, name, seat, others=(), cut=False, tap=True, init=None,
              motion=False, prepare=None, context=None):
    """A guest page that joined (a `phone` with those options, `context` included;
    `prepare(phone)` runs before the page opens); waits until it and every page in `others`
    list it."""
    guest = phone(new_phone, tap=tap, cut=cut, init=init, motion=motion, context=context)
    if prepare is not None:
        prepare(guest)
    page = guest.page
    page.goto(link)
    assert wait_ready(page) == "micropython"
    # type once connected (the join button works only then)
    page.wait_for_selector(sel("connection"), state="detached", timeout=T)
    page.fill(sel("player-name"), name)
    live(page, "join-room")
    for p in (page,) + tuple(others):
        p.wait_for_selector(sel("player-%d" % seat), timeout=T)
    return guest


def signature(page):
    return page.evaluate(SIGNATURE)


def wait_signature(page, expected, timeout=60):
    """Wait until the page shows `expected` (a signature); fail with the difference."""
    deadline = time.monotonic() + timeout
    got = None
    while time.monotonic() < deadline:
        got = signature(page)
        if got == expected:
            return
        time.sleep(0.2)
    raise AssertionError("the screen differs:\nexpected %s\ngot      %s" % (expected, got))


def away(page, seat):
    """True when this page shows `seat` as not connected (the table's seat, or the lobby)."""
    return page.evaluate(
        "(s) => { const e = document.querySelector('[data-testid=\"seat-' + s + '\"]')"
        " || document.querySelector('[data-testid=\"player-' + s + '\"]');"
        " return !!e && e.classList.contains('away'); }", seat)


def wait_away(page, seat, flag=True, timeout=T):
    page.wait_for_function(
        "([s, flag]) => { const e = document.querySelector('[data-testid=\"seat-' + s + '\"]')"
        " || document.querySelector('[data-testid=\"player-' + s + '\"]');"
        " return !!e && e.classList.contains('away') === flag; }",
        arg=[seat, flag], timeout=timeout)


def banner(page):
    """The connection banner's text, or None."""
    loc = page.locator(sel("connection"))
    return loc.inner_text() if loc.count() else None


def report(timings, name, values):
    timings[name] = values
    print("%s: median %.0f ms, runs %s" % (name, statistics.median(values),
                                           [round(v) for v in values]))


def no_errors(*phones):
    for p in phones:
        assert p.errors == [], (p.page.url, p.errors)
        bad = [t for kind, t in p.console if kind == "error" and "crisp" in t]
        assert not bad, bad
