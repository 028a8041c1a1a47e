"""A host page that cannot run for a while (issue 14, item 2: a busy or suspended main thread)
costs nobody time: the host notices the gap in its own clock and moves every deadline by it;
meanwhile the guests' screens show the game paused, their countdowns stopped. (The guests'
`?hostgone=` is set past the freeze: after 30 s of silence they would count the host as gone
and hand the room over, issue 10 item 3, e2e/test_handover.py.)

The stacked deck (3 players, dealer = host, seat 0), as in test_reconnect.py:
    Ana (1): 2c 9d 5h   Bea (2): 3s Td 4c   Hana (0): 7h Ah 8s;  then 6d Jc Qs Kd 3h 9c 8d 8c
"""

import time

from crisp_rooms import no_errors
from test_reconnect import table_of_three, timer_ms
from crisp_e2e import T, live, sel, shows

FREEZE_S = 65          # longer than the 60 s draw timer


def test_a_host_frozen_longer_than_the_draw_timer_costs_the_guest_nothing(new_phone, timings):
    host, ana, bea, link = table_of_three(new_phone, draw_seconds=60,
                                          guest_query="&hostgone=%d" % ((FREEZE_S + 60) * 1000))
    hp, ap, bp = host.page, ana.page, bea.page
    live(ap, "deck")
    shows(ap, "held-card", "6d")
    time.sleep(1)
    before = timer_ms(ap)
    assert 50_000 < before <= 60_000, before

    # the host's page stops running (its main thread busy) for FREEZE_S
    hp.evaluate("(ms) => { setTimeout(() => { const t = Date.now(); while (Date.now() - t < ms)"
                " {} }, 0); }", FREEZE_S * 1000)
    t0 = time.monotonic()
    # Ana's screen says the game is paused and her countdown stops
    ap.wait_for_selector(sel("connection"), timeout=15_000)
    paused = timer_ms(ap)
    time.sleep(5)
    assert timer_ms(ap) == paused, "the countdown went on while the host was silent"
    assert paused >= before - 6_000

    # the host runs again: Ana still holds her card, with her time as it was
    while time.monotonic() - t0 < FREEZE_S:
        time.sleep(1)
    for p in (hp, ap, bp):
        p.wait_for_selector(sel("connection"), state="detached", timeout=T)
    shows(ap, "held-card", "6d", timeout=5_000)
    after = timer_ms(ap)
    print("draw timer: %d ms before, %d ms after a %d s freeze" % (before, after, FREEZE_S))
    assert after >= before - 8_000, (before, after)
    for p in (hp, ap, bp):
        assert "ran out of time" not in p.inner_text(sel("event-log")), p.url
    timings["host freeze: Ana's draw time lost over a %d s freeze" % FREEZE_S] = [before - after]
    live(ap, "discard-held")                 # and she plays on
    for p in (hp, ap, bp):
        shows(p, "discard", "6d")
    no_errors(host, ana, bea)
