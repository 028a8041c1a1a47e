"""Issue 23, fault 2: storage that throws never stops the page. With localStorage blocked (a
SecurityError on touching it, as in some private modes and embedded views) and with the
origin's quota full (another project on a shared origin filled it), the host and a guest
play a whole round; their screens say a reload would lose the seat (`storage-note`). A full
quota first drops Crisp's own oldest records (store.js, docs/design.md "Persistence"): the
host's room is then kept, and another site's keys are never touched.

Printed: from the landing's tap on Create room to the lobby, and the guest's join, with
storage refused (they did nothing before: the write threw)."""

import json
import time

from crisp_rooms import join_room, no_errors, open_room
from test_handover import finish_round
from crisp_e2e import T, live, sel

BLOCK = """
(() => {
  const refuse = { configurable: true,
    get() { throw new DOMException("The operation is insecure.", "SecurityError"); } };
  Object.defineProperty(window, "localStorage", refuse);
  Object.defineProperty(window, "sessionStorage", refuse);
})();
"""

# Fills the origin's quota (once per browser context) after leaving `old` behind ({key: chars}):
# Crisp's records from earlier visits.
FILL = """
((old) => {
  if (!location.protocol.startsWith("http") || localStorage.getItem("other.filled")) return;
  for (const [k, n] of Object.entries(old)) localStorage.setItem(k, "o".repeat(n));
  localStorage.setItem("other.filled", "1");
  let chunk = "x".repeat(1 << 20), i = 0;
  while (chunk.length) {
    try { localStorage.setItem("other.fill." + i++, chunk); }
    catch (e) { chunk = chunk.slice(0, chunk.length >> 1); }
  }
})(%s);
"""

HOST_OLD = {"crisp.room.crisp-OLDROOM001": 60000, "crisp.live.crisp-OLDROOM001": 80,
            "crisp.token.crisp-OLDROOM002": 32, "crisp.follow.crisp-OLDROOM002": 300}


def round_with(new_phone, host_init, guest_init, timings, label):
    t0 = time.monotonic()
    host, link = open_room(new_phone, "Hana", init=host_init)
    created = time.monotonic() - t0
    hp = host.page
    t0 = time.monotonic()
    ana = join_room(new_phone, link, "Ana", 1, (hp,), init=guest_init)
    joined = time.monotonic() - t0
    ap = ana.page
    live(hp, "add-bot")
    for p in (hp, ap):
        p.wait_for_selector(sel("player-2"), timeout=T)
    live(hp, "start-game")
    for p in (hp, ap):
        live(p, "ready")
    finish_round([(hp, 0), (ap, 1)])
    hp.wait_for_selector(sel("next-round"), timeout=T)
    print("%s: landing to lobby %.1f s, join %.1f s" % (label, created, joined))
    timings.setdefault("storage %s: landing to lobby" % label, []).append(created * 1000)
    timings.setdefault("storage %s: guest join" % label, []).append(joined * 1000)
    return host, ana


def test_storage_blocked_for_host_and_guest_a_whole_round_plays(new_phone, timings):
    host, ana = round_with(new_phone, BLOCK, BLOCK, timings, "blocked")
    for p in (host.page, ana.page):
        assert p.get_attribute("body", "data-storage") == "blocked"
        note = p.inner_text(sel("storage-note"))
        assert "reload" in note, note
    no_errors(host, ana)


def test_storage_full_drops_crisps_oldest_records_and_a_whole_round_plays(new_phone, timings):
    host, ana = round_with(new_phone, FILL % json.dumps(HOST_OLD), FILL % "{}", timings, "full")
    hp, ap = host.page, ana.page
    # the host: its old rooms made way, its room is kept, the other site's keys untouched
    keys = hp.evaluate("Object.keys(localStorage)")
    room = hp.evaluate("new URLSearchParams(location.search).get('host')")
    assert "crisp.room." + room in keys
    # the oldest room (no age recorded: by name) went whole; that was room enough
    dropped = hp.evaluate("crisp.store.dropped")
    assert sorted(dropped) == ["crisp.live.crisp-OLDROOM001", "crisp.room.crisp-OLDROOM001"], \
        dropped
    assert not [k for k in keys if "OLDROOM001" in k], keys
    assert hp.get_attribute("body", "data-storage") is None
    assert hp.locator(sel("storage-note")).count() == 0
    assert hp.evaluate("Object.keys(localStorage).filter(k => k.startsWith('other.fill.'))"
                       ".length") > 0
    # the guest: nothing of Crisp's to drop, so its seat token lives in memory; it says so
    assert ap.get_attribute("body", "data-storage") == "full"
    assert "reload" in ap.inner_text(sel("storage-note"))
    assert ap.evaluate("Object.keys(localStorage).filter(k => k.startsWith('crisp.token.'))") \
        == []
    no_errors(host, ana)
