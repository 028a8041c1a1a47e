"""Fast on return, and offline: the service worker (sw.js) keeps the build's files, so a warm
start is served without the network, and solo play works offline after the first visit.
The web app manifest makes the page installable (a name and icons)."""

import time

from crisp_e2e import engine_ready, wait_ready
from crisp_e2e import T, sel
from test_smoke import wait_engine
from test_solo import STATE, play_my_part

# Every response of this page, and whether the service worker gave it (no network).
RESPONSES = """() => performance.getEntriesByType('resource').concat(
  performance.getEntriesByType('navigation')).map((e) => [e.name, e.workerStart > 0,
  e.transferSize, e.deliveryType || ''])"""


def first_visit(new_phone):
    phone = new_phone(reduced_motion="reduce")
    page = phone.page
    page.goto(phone.site.url("/?seed=3&botpace=0.1"))
    assert wait_ready(page) == "micropython"
    wait_engine(page)
    # the page's files and then the engine's are kept by the service worker
    page.wait_for_function("document.body.dataset.offline === 'engine'", timeout=120_000)
    return phone


def test_the_manifest_makes_the_page_installable(new_phone):
    phone = new_phone("/")
    page = phone.page
    assert wait_ready(page) == "micropython"
    href = page.get_attribute("link[rel=manifest]", "href")
    manifest = page.evaluate("(u) => fetch(u).then((r) => r.json())", href)
    assert manifest["name"] == "Crisp" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        got = page.evaluate("(u) => fetch(u).then(async (r) => [r.status, "
                            "r.headers.get('content-type'), (await r.arrayBuffer()).byteLength])",
                            icon["src"])
        assert got[0] == 200 and got[1] == "image/png" and got[2] > 100


def test_a_warm_start_is_served_by_the_service_worker(new_phone):
    phone = first_visit(new_phone)
    page = phone.page
    page.reload()
    assert wait_ready(page) == "micropython"
    wait_engine(page)
    build_files = [r for r in page.evaluate(RESPONSES)
                   if "/peerjs/" not in r[0] or "/vendor/peerjs-" in r[0]]
    not_from_sw = [r[0] for r in build_files if not r[1]]
    assert build_files and not_from_sw == [], not_from_sw
    assert phone.errors == []


def test_solo_play_works_offline_after_the_first_visit(new_phone):
    phone = first_visit(new_phone)
    page = phone.page
    page.goto(phone.site.url("/?seed=3&botpace=0.1"))      # the landing again, no room
    phone.context.set_offline(True)
    try:
        page.reload()
        assert wait_ready(page) == "micropython"
        assert page.evaluate("navigator.onLine") is False
        page.fill(sel("player-name"), "Sol")
        page.select_option(sel("solo-bots"), "1")
        page.select_option(sel("solo-target"), "50")
        page.click(sel("play-solo"))
        engine_ready(page)      # the table waits for the engine, however slow
        page.wait_for_selector(sel("card-1-left"), timeout=T)
        assert page.evaluate("document.body.dataset.engine") == "ready"
        # a whole round, offline
        turns = {"offers": 0, "call": 2}
        deadline = time.monotonic() + 300
        while not page.evaluate(STATE)["results"]:
            assert time.monotonic() < deadline, "the round did not end offline"
            if not play_my_part(page, page.evaluate(STATE), 0, turns):
                page.wait_for_timeout(100)
        page.wait_for_selector(sel("round-results"), timeout=T)
        assert phone.errors == [], phone.errors
    finally:
        phone.context.set_offline(False)
