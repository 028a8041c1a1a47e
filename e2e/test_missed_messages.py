"""A guest whose channel loses messages for a while (issue 14, item 3) asks for the table again
and plays on: its next heartbeat's pong names a newer view than its last, it sends `sync`, the
host answers with its view now (docs/protocol.md "Missed messages").

The stacked deck (3 players, dealer = host, seat 0), as in test_reconnect.py:
    Ana (1): 2c 9d 5h   Bea (2): 3s Td 4c   Hana (0): 7h Ah 8s;  then 6d Jc Qs Kd 3h 9c 8d 8c
"""

import time

from crisp_e2e import wait_ready
from crisp_rooms import join_room, no_errors, open_room, phone, report
from test_reconnect import QUERY
from crisp_e2e import T, live, sel, shows

# While window.__crispDrop is true, the page's data channels lose every message both ways
# (nothing closes; the channel's sequence goes on afterwards without them).
DROP = """
(() => {
  window.__crispDrop = false;
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function () {
    if (window.__crispDrop) return;
    return send.apply(this, arguments);
  };
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, listener, options) {
    if (type === "message") {
      const inner = listener;
      listener = function () { if (!window.__crispDrop) return inner.apply(this, arguments); };
    }
    return add.call(this, type, listener, options);
  };
})();
"""


def test_a_guest_that_lost_messages_for_7_s_gets_the_table_back_and_plays(new_phone, timings):
    host, link = open_room(new_phone, "Hana", QUERY)
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    ap = ana.page
    bea = phone(new_phone)
    bea.context.add_init_script(DROP)
    bp = bea.page
    bp.goto(link)
    assert wait_ready(bp) == "micropython"
    bp.wait_for_selector(sel("connection"), state="detached", timeout=T)
    bp.fill(sel("player-name"), "Bea")
    live(bp, "join-room")
    for p in (hp, ap, bp):
        p.wait_for_selector(sel("player-2"), timeout=T)
    live(hp, "start-game")
    for p in (hp, ap, bp):
        live(p, "ready")

    bp.wait_for_selector(sel("deck", "[disabled]"), timeout=T)    # Ana's turn, not Bea's
    bp.evaluate("window.__crispDrop = true")        # Bea's channel loses everything
    t0 = time.monotonic()
    live(ap, "deck")
    shows(ap, "held-card", "6d")
    live(ap, "discard-held")                        # Bea's turn (after R10.1's 2 s)
    shows(hp, "discard", "6d")
    time.sleep(max(0.0, 7.0 - (time.monotonic() - t0)))
    assert bp.locator(sel("discard", '[data-card="6d"]')).count() == 0      # stale meanwhile
    bp.evaluate("window.__crispDrop = false")       # the channel works again
    t1 = time.monotonic()
    shows(bp, "discard", "6d", timeout=10_000)      # no tap: the table as it is
    live(bp, "deck", timeout=10_000)                # her turn: she plays
    back = (time.monotonic() - t1) * 1000
    report(timings, "missed messages: guest's table fresh again (channel back to table)",
           [back])
    shows(bp, "held-card", "Jc")
    for p in (hp, ap):
        p.wait_for_selector(sel("held-card"), timeout=T)
    no_errors(host, ana, bea)
