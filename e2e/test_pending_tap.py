"""A guest's own tap shows taken on her own screen at once, whatever the link (ui/page/client/taps.py;
docs/protocol.md "Slow links"): her page holds each move it sends for HOLD_MS before it goes
out (a slow link's way to the host), and still the control she tapped is drawn taken (Ready
pressed, the deck lifted: data-pending) in the task of her tap, before the move has even left;
the room's answer settles it, and nothing stays pending. Then her link turns slow (her pongs
come late): "your connection is slow" on her screen, "slow connection" at her seat on the
host's, until it is fast again."""

from crisp_rooms import join_room, no_errors, open_room
from crisp_e2e import T, live, sel

HOLD_MS = 1500
SLOW_MS = 400             # a pong this late: the link counts as slow (linkspeed.SLOW_ON_MS)

# Holds every `action` this page sends for HOLD_MS (in order); window.__held counts those not
# gone yet.
HOLD = r"""
(() => {
  window.__held = 0;
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    if (typeof data === "string" && /"type":\s*"action"/.test(data)) {
      window.__held += 1;
      setTimeout(() => { window.__held -= 1; send.call(this, data); }, %d);
      return;
    }
    return send.apply(this, arguments);
  };
  // while window.__slowPongs is set, each pong comes SLOW_MS late (a slow link's round trip)
  window.__slowPongs = false;
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, listener, options) {
    if (type === "message") {
      const inner = listener;
      listener = function (event) {
        const data = event.data;
        if (window.__slowPongs && typeof data === "string" && /"type":\s*"pong"/.test(data)) {
          setTimeout(() => inner.call(this, event), %d);
          return;
        }
        return inner.apply(this, arguments);
      };
    }
    return add.call(this, type, listener, options);
  };
})();
""" % (HOLD_MS, SLOW_MS)

# right after a tap: whether the control shows it taken, and how many moves are still held
TAKEN = """
(testid) => {
  const el = document.querySelector('[data-testid="' + testid + '"]');
  return [el ? el.getAttribute("data-pending") : null, el ? el.getAttribute("aria-busy") : null,
          window.__held];
}
"""


def tapped_shows_taken(page, testid):
    """Tap `testid` and check it is drawn taken while its move is still held back."""
    live(page, testid)
    pending, busy, held = page.evaluate(TAKEN, testid)
    assert held >= 1, "the move went out already: the test proves nothing"
    assert pending == "true" and busy == "true", (testid, pending, busy)


def test_a_guests_tap_shows_taken_before_her_move_reaches_the_host(new_phone):
    host, link = open_room(new_phone, "Hana")
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,), init=HOLD)
    ap = ana.page
    assert ap.evaluate("window.__held") == 0
    live(hp, "start-game")
    for page in (hp, ap):
        page.wait_for_selector(sel("ready"), timeout=T)
    live(hp, "ready")
    tapped_shows_taken(ap, "ready")
    ap.wait_for_selector(sel("ready"), state="detached", timeout=T)   # answered: the table
    # Ana plays first (the dealer is the host's seat): her deck, lifted until the room answers
    tapped_shows_taken(ap, "deck")
    ap.wait_for_selector(sel("held-card", "[data-card]"), timeout=T)
    assert ap.locator("[data-pending]").count() == 0           # settled: nothing pending
    assert ap.evaluate("window.__held") == 0

    # -- Ana's link turns slow (her pongs 400 ms late): her own screen says so, and the
    # host's at her seat; back to fast, both notes go (two fast pongs: the median)
    ap.evaluate("window.__slowPongs = true")
    ap.wait_for_selector(sel("slow-note"), timeout=T)
    hp.wait_for_selector(sel("slow-1"), timeout=T)
    assert hp.locator(sel("slow-note")).count() == 0
    ap.evaluate("window.__slowPongs = false")
    ap.wait_for_selector(sel("slow-note"), state="detached", timeout=T)
    hp.wait_for_selector(sel("slow-1"), state="detached", timeout=T)
    no_errors(host, ana)
