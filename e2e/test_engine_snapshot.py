"""The engine worker starts Pyodide from the build's memory snapshot (issue 22 item 1;
docs/protocol.md "Engine worker"): the worker says so (body[data-engine-from]), the service
worker keeps the snapshot for the next start, and the engine it started plays. A snapshot
the worker refuses (here: bytes that are not the build's) leaves a console note and the
ordinary start, which plays just the same."""

from crisp_e2e import wait_ready
from crisp_rooms import no_errors, phone
from test_round import T, live, sel

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


def test_the_engine_starts_from_the_snapshot_which_the_service_worker_keeps(new_phone):
    me = phone(new_phone, tap=False)
    page = me.page
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "snapshot"
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


def test_a_refused_snapshot_leaves_a_note_and_the_ordinary_start(new_phone):
    me = phone(new_phone, tap=False)
    me.context.route(SNAPSHOT, lambda route: route.fulfill(
        status=200, content_type="application/gzip", body=b"\x1f\x8b\x08\x00 not the build's"))
    page = me.page
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    assert engine_ready(page) == "start"
    notes = [t for kind, t in me.console if "memory snapshot refused" in t]
    assert notes and "starting Python without it" in notes[0], me.console
    solo_table(page, "Ana")
    no_errors(me)
