"""Issue 23, fault 4: the host's phone sleeps past the gone time (its page frozen 40 s, and
65 s) while Ana holds a drawn 6d with a 60 s draw timer, with no test-only `?hostgone=`: after
30 s of silence the guests hand the room over and Ana's page hosts it from the sealed box,
with Ana's card and her timer; the old host, awake, comes back as a player.

Bea's page does not run for 7 s just before the host counts as gone (a phone in a pocket, a
background tab): it is then `behind` (docs/protocol.md "Back from away") and looks for the
room instead of handing it over. Before the fix such a holder never offered its share: Ana's
page waited SHARE_WAIT_MS for a second share, then dealt round 1 again ("Memorize your left
and right cards…"), while Bea stayed with the old host once it woke (two rooms). Now the
look carries the holder's share offer (handover.holder_plan, Looker).

The host's page and its engine worker stop within 100 ms of the draw (a phone locked right
after a move: the host's page freezes as its own screen shows Ana's held card). Before, the
room was sealed at most once a second, so the box the holders kept could be from before the
draw: Ana's page resumed the room without her card, the peek over by time ("You are ready
(time's up)"), the play begun again. Now the seal goes with every move (its views' reply).

Printed: from the freeze to Ana's turn going on under her own page, and her draw timer."""

import time

import pytest

from crisp_rooms import no_errors
from test_engine_restart import engine_worker
from test_reconnect import table_of_three, timer_ms
from crisp_e2e import T, live, sel, shows

# Bea's page heard a welcome from the room at its next id (`-h1-`), and a view after it
SEATED_THERE = """() => { const w = window.__crispWire || [];
  const i = w.findIndex((t) => t.includes('"welcome"') && t.includes('-h1-'));
  return i >= 0 && w.slice(i + 1).some((t) => t.includes('"view"')); }"""
BUSY = "(ms) => { setTimeout(() => { const t = Date.now(); while (Date.now() - t < ms) {} }, 0); }"
# the host's page stops running (`ms`) as soon as its own screen shows a held card: within a
# frame of the draw it applied and sent
BUSY_AT_DRAW = """(ms) => { const o = new MutationObserver(() => {
  if (!document.querySelector('[data-testid="held-card"]:not(.empty)')) return;
  o.disconnect();
  setTimeout(() => { const t = Date.now(); while (Date.now() - t < ms) {} }, 0); });
  o.observe(document.body, {subtree: true, childList: true, attributes: true}); }"""


@pytest.mark.parametrize("freeze_s", [40, 65])
def test_a_host_asleep_past_the_gone_time_keeps_the_round_and_anas_card(
        new_phone, timings, freeze_s):
    host, ana, bea, link = table_of_three(new_phone, draw_seconds=60)
    hp, ap, bp = host.page, ana.page, bea.page
    hp.evaluate(BUSY_AT_DRAW, freeze_s * 1000)
    live(ap, "deck")
    shows(ap, "held-card", "6d")
    t0 = time.monotonic()                     # the host's page stopped with the draw
    engine_worker(hp).evaluate(BUSY, freeze_s * 1000)     # and its engine worker
    before = timer_ms(ap)
    while time.monotonic() - t0 < 22:
        time.sleep(0.5)
    bp.evaluate(BUSY, 7000)                   # and Bea's page misses 7 s just before 30 s
    # Ana's page hosts the room at its next id, from the sealed box: her card, her turn
    ap.wait_for_function("location.search.includes('host=')", timeout=60_000)
    for p in (ap, bp):
        p.wait_for_selector(sel("handover"), state="detached", timeout=T)
    # Bea is seated in the new room and has its table (a welcome at the new id, a view after)
    bp.wait_for_function(SEATED_THERE, timeout=T)
    shows(ap, "held-card", "6d", timeout=5_000)
    on = time.monotonic() - t0
    for p in (ap, bp):
        assert p.locator(sel("redealt")).count() == 0, p.url       # not dealt again
    for p in (ap, bp):
        p.wait_for_selector(sel("turn-timer", ":not([data-paused])"), timeout=T)
        assert "Memorize" not in p.inner_text(sel("status")), p.url
    after = timer_ms(ap)
    print("host frozen %d s: Ana's turn on under her page after %.1f s; draw timer %d ms"
          " before, %d ms after" % (freeze_s, on, before, after))
    timings.setdefault("host asleep %d s: freeze -> Ana's turn on" % freeze_s,
                       []).append(on * 1000)
    assert after >= before - 8_000, (before, after)
    # the old host wakes and comes back as a player at the new id
    hp.wait_for_function("location.search.includes('room=') && location.search.includes('-h1-')",
                         timeout=freeze_s * 1000 + 60_000)
    # and the round goes on: Ana discards her 6d, everyone sees it
    live(ap, "discard-held")
    for p in (hp, ap, bp):
        shows(p, "discard", "6d")
    no_errors(ana, bea)
