"""The engine worker starts Pyodide from the build's memory snapshot (issue 22 item 1;
docs/protocol.md "Engine worker"): the worker says so (body[data-engine-from]), the service
worker keeps the snapshot for the next start, and the engine it started plays. A snapshot
the worker refuses (here: bytes that are not the build's) leaves a console note and the
ordinary start, which plays just the same. On a plain-http LAN address (no secure context, no
crypto.subtle) the worker checks the snapshot's hash with the vendored @noble/hashes: the
snapshot is taken there too, and other bytes are still refused."""

from crisp_e2e import wait_ready
from crisp_rooms import no_errors, phone, report
from crisp_e2e import T, live, sel

ENGINE_WAIT = 120_000
SNAPSHOT = "**/py/snapshot-*.gz"

# Whether the service worker's cache holds a URL that ends with `tail`.
KEPT = """async (tail) => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const req of await cache.keys()) if (req.url.endsWith(tail)) return true;
  }
  return false;
}"""


def engine_ready(page):
    page.wait_for_function("['ready', 'failed'].includes(document.body.dataset.engine)",
                           timeout=ENGINE_WAIT)
    assert page.get_attribute("body", "data-engine") == "ready"
    return page.get_attribute("body", "data-engine-from")


def solo_table(page, name):
    """Play solo from the landing, to the table (the engine deals)."""
    page.fill(sel("player-name"), name)
    live(page, "play-solo")
    page.wait_for_selector(sel("card-1-left"), timeout=ENGINE_WAIT)


def test_the_engine_starts_from_the_snapshot_which_the_service_worker_keeps(
        new_phone, timings):
    me = phone(new_phone, tap=False)
    page = me.page
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "snapshot"
    report(timings, "engine ready at localhost, cold (worker's own start)",
           [page.evaluate("window.crisp.times.engineOwn")])
    # (one URL; the service worker's own fetch of it counts as a request too)
    snapshot = sorted(set(u for u in me.requests if "/py/snapshot-" in u))
    assert len(snapshot) == 1 and snapshot[0].endswith(".gz")
    page.wait_for_function("document.body.dataset.offline === 'engine'", timeout=ENGINE_WAIT)
    assert page.evaluate(KEPT, "/py/" + snapshot[0].rsplit("/", 1)[-1])
    # warm: the next start is from the kept snapshot too, and the engine plays
    page.reload()
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "snapshot"
    solo_table(page, "Ana")
    assert not [t for kind, t in me.console if "snapshot refused" in t]
    no_errors(me)


def test_a_refused_snapshot_leaves_a_note_and_the_ordinary_start(new_phone, timings):
    me = phone(new_phone, tap=False)
    me.context.route(SNAPSHOT, lambda route: route.fulfill(
        status=200, content_type="application/gzip", body=b"\x1f\x8b\x08\x00 not the build's"))
    page = me.page
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "start"
    report(timings, "engine ready without the snapshot (refused), cold (worker's own start)",
           [page.evaluate("window.crisp.times.engineOwn")])
    notes = [t for kind, t in me.console if "memory snapshot refused" in t]
    assert notes and "starting Python without it" in notes[0], me.console
    solo_table(page, "Ana")
    no_errors(me)


def lan_landing(new_phone, route=None):
    """A phone on the landing at the site's LAN address (crisp_e2e.LAN_HOST: not a secure
    context, so no crypto.subtle, as at http://192.168.1.20:8000/), `route(context)` first."""
    me = phone(new_phone, tap=False)
    if route is not None:
        route(me.context)
    page = me.page
    page.goto(me.site.lan_url("/"))
    assert wait_ready(page) == "micropython"
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("!(window.crypto && window.crypto.subtle)")
    return me, page


def test_on_a_plain_http_lan_address_the_engine_still_starts_from_the_snapshot(
        new_phone, timings):
    """Without crypto.subtle the worker checks the snapshot's hash with the vendored
    @noble/hashes (engine-worker.js `sha256`): the snapshot is taken, not refused."""
    me, page = lan_landing(new_phone)
    assert engine_ready(page) == "snapshot"
    assert any("/vendor/noble-" in u and u.endswith("/sha2.js") for u in me.requests)
    report(timings, "engine ready on a plain-http LAN page, cold (worker's own start)",
           [page.evaluate("window.crisp.times.engineOwn")])
    solo_table(page, "Ana")
    assert not [t for kind, t in me.console if "snapshot refused" in t], me.console
    no_errors(me)


def test_on_a_plain_http_lan_address_a_snapshot_of_other_bytes_is_still_refused(new_phone):
    me, page = lan_landing(new_phone, lambda context: context.route(
        SNAPSHOT, lambda route: route.fulfill(
            status=200, content_type="application/gzip", body=b"\x1f\x8b\x08\x00 not ours")))
    assert engine_ready(page) == "start"
    notes = [t for kind, t in me.console if "memory snapshot refused" in t]
    assert notes and "not the build's" in notes[0], me.console
    no_errors(me)


# The engine worker's inflated copy of the snapshot (engine-worker.js KEPT_CACHE).
KEPT_CACHE = "engine-snapshot-inflated"
KEPT_ENTRIES = """async (name) => {
  const cache = await caches.open(name);
  const out = [];
  for (const req of await cache.keys()) {
    out.push([req.url, (await (await cache.match(req)).arrayBuffer()).byteLength]);
  }
  return out;
}"""
# Replaces the kept copy's bytes with `fill` (a broken heap: right size, wrong content).
SPOIL_KEPT = """async ([name, fill]) => {
  const cache = await caches.open(name);
  const [req] = await cache.keys();
  const size = (await (await cache.match(req)).arrayBuffer()).byteLength;
  await cache.put(req, new Response(new Uint8Array(size).fill(fill)));
}"""


def kept_after_start(page):
    """Wait for the worker to keep its inflated snapshot; -> the cache's [[url, bytes]]."""
    page.wait_for_function("document.body.dataset.engineKept !== undefined",
                           timeout=ENGINE_WAIT)
    assert page.get_attribute("body", "data-engine-kept") == "yes"
    return page.evaluate(KEPT_ENTRIES, KEPT_CACHE)


def test_the_next_start_takes_the_inflated_snapshot_the_worker_kept(new_phone, timings):
    me = phone(new_phone, tap=False)
    page = me.page
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "snapshot"
    kept = kept_after_start(page)
    # one entry: the build's snapshot URL, its inflated bytes (~31 MB)
    assert len(kept) == 1 and "/py/snapshot-" in kept[0][0] and kept[0][1] > 20_000_000
    page.wait_for_function("document.body.dataset.offline === 'engine'", timeout=ENGINE_WAIT)
    before = len([u for u in me.requests if "/py/snapshot-" in u])
    page.reload()
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "kept"
    report(timings, "engine ready from the kept snapshot, warm (worker's own start)",
           [page.evaluate("window.crisp.times.engineOwn")])
    # nothing of the gzip was asked for again, and nothing more is kept after a kept start
    assert len([u for u in me.requests if "/py/snapshot-" in u]) == before
    page.wait_for_timeout(4000)
    assert page.get_attribute("body", "data-engine-kept") is None
    solo_table(page, "Ana")
    assert not [t for kind, t in me.console if "refused" in t], me.console
    no_errors(me)


def test_a_spoiled_kept_snapshot_is_dropped_for_the_builds(new_phone):
    """Bytes in the kept copy's place that are not a heap Pyodide takes (a storage fault, or
    anything else that wrote there): the worker says so, forgets them, starts from the build's
    snapshot (hash-checked) and keeps a good copy again; the engine plays."""
    me = phone(new_phone, tap=False)
    page = me.page
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "snapshot"
    size = kept_after_start(page)[0][1]
    page.evaluate(SPOIL_KEPT, [KEPT_CACHE, 0x5A])
    page.reload()
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "snapshot"
    notes = [t for kind, t in me.console if "kept snapshot refused" in t]
    assert notes and "taking the build's" in notes[0], me.console
    kept = kept_after_start(page)
    assert len(kept) == 1 and kept[0][1] == size
    assert page.evaluate("""async ([name, fill]) => {
      const cache = await caches.open(name);
      const bytes = new Uint8Array(await (await cache.match((await cache.keys())[0])).arrayBuffer());
      return bytes.slice(0, 64).some((b) => b !== fill);
    }""", [KEPT_CACHE, 0x5A])
    solo_table(page, "Ana")
    no_errors(me)
