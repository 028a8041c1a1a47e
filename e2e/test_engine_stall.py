"""A host page whose engine cannot start, or is slow to (issue 14 item 4, issue 22 item 2).
Pyodide's wasm request refused (aborted): the worker says so at once (engine-worker.js
`fail`), and the page says plainly (es/en) that the game could not start, with Retry; joining
a friend's room by its code still works (a guest page needs no Pyodide). Held with no bytes
(a slow network, or one that never answers: Pyodide only warns and its promise never settles):
within 20 s the page says that it takes longer than usual and offers Retry, while it still
waits, and when the bytes come the game goes on (never `failed` while a request is pending)."""

import time

import pytest

from crisp_e2e import wait_ready
from crisp_rooms import no_errors, open_room, phone, report
from crisp_e2e import T, live, sel


def blocked(new_phone, how):
    """A phone whose requests for Pyodide's wasm are aborted, or never answered."""
    p = phone(new_phone, tap=False)
    held = []
    if how == "abort":
        p.context.route("**/pyodide.asm.wasm", lambda route: route.abort())
    else:
        p.context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    p.held = held
    return p


def blocked_landing(new_phone, how, name):
    """A `blocked` phone on the landing, with `name` typed in. -> (phone, page)."""
    me = blocked(new_phone, how)
    page = me.page
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    page.fill(sel("player-name"), name)
    return me, page


def test_an_engine_whose_download_is_refused_says_so_with_retry_and_joining_still_works(
        new_phone, timings):
    friend, link = open_room(new_phone, "Hana")          # a friend's room, elsewhere
    fp = friend.page
    me, page = blocked_landing(new_phone, "abort", "Ana")
    t0 = time.monotonic()
    live(page, "play-solo")                              # needs the engine
    page.wait_for_selector(sel("engine-retry"), timeout=40_000)
    waited = (time.monotonic() - t0) * 1000
    report(timings, "engine cannot start (download refused): plain message with Retry",
           [waited])
    text = page.inner_text(sel("engine-progress"))
    assert "could not start" in text and "link or code" in text
    for raw in ("Error", "wasm", "pyodide", "Pyodide", "undefined"):
        assert raw not in text
    assert page.get_attribute("body", "data-engine") == "failed"

    # the way to a friend's room still works: by its code, from the landing
    page.goto(me.site.url("/"))
    assert wait_ready(page) == "micropython"
    code = link.split("?room=")[1].split("-", 1)[1]
    page.fill(sel("room-code"), code)
    live(page, "join-code")
    page.wait_for_url("**/?room=*", timeout=T)
    assert wait_ready(page) == "micropython"
    page.wait_for_selector(sel("connection"), state="detached", timeout=T)
    page.fill(sel("player-name"), "Ana")
    live(page, "join-room")
    fp.wait_for_selector(sel("player-1"), timeout=T)
    no_errors(friend)


def test_a_stalled_download_offers_retry_while_it_waits_and_the_game_goes_on_when_it_comes(
        new_phone, timings):
    me, page = blocked_landing(new_phone, "stall", "Ana")
    t0 = time.monotonic()
    live(page, "play-solo")                              # needs the engine
    page.wait_for_selector(sel("engine-retry"), timeout=40_000)
    waited = (time.monotonic() - t0) * 1000
    report(timings, "engine download stalled: 'taking longer than usual' with Retry", [waited])
    banner = page.locator(sel("engine-progress"))
    assert banner.get_attribute("data-slow") == "true"
    text = banner.inner_text()
    assert "taking longer than usual" in text and "keep waiting" in text, text
    assert "could not start" not in text
    for raw in ("Error", "wasm", "pyodide", "Pyodide", "undefined", "engine"):
        assert raw not in text
    assert page.get_attribute("body", "data-engine") == "loading"     # not failed
    assert page.is_disabled(sel("play-solo"))           # the tap still waits for it
    assert me.held
    for route in me.held:
        route.continue_()                                # the bytes come after all
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=120_000)
    page.wait_for_selector(sel("card-0-left"), timeout=T)     # the solo table
    assert page.locator(sel("engine-progress")).count() == 0
    no_errors(me)


def test_retry_starts_the_engine_once_it_can_load(new_phone):
    me, page = blocked_landing(new_phone, "abort", "Ana")
    live(page, "play-solo")
    page.wait_for_selector(sel("engine-retry"), timeout=40_000)
    page.context.unroute("**/pyodide.asm.wasm")         # the network is back
    live(page, "engine-retry")
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=120_000)


def test_add_a_bot_before_the_engine_is_ready_shows_its_progress_then_the_bot(new_phone):
    """A tester tapped Add a bot on a phone whose engine was still loading: nothing showed for
    15 s, so he tapped again. The lobby says the engine is on its way at the first tap, and
    the bot comes once it is ready (a tap is never lost)."""
    me, page = blocked_landing(new_phone, "stall", "Hana")
    live(page, "create-room")
    page.wait_for_selector(sel("room-link"), timeout=T)
    assert page.locator(sel("engine-progress")).count() == 0     # the lobby needs no engine
    live(page, "add-bot")
    page.wait_for_selector(sel("engine-progress"), timeout=T)
    assert page.locator(sel("player-1")).count() == 0
    assert me.held
    for route in me.held:
        route.continue_()                                         # the network answers
    page.wait_for_selector(sel("player-1"), timeout=120_000)
    page.wait_for_selector(sel("engine-progress"), state="detached", timeout=T)
    assert page.locator(sel("player-2")).count() == 0            # one tap, one bot
    no_errors(me)


def lobby_of(me, page):
    """Create room on a blocked phone's landing: its lobby, with the link, needs no engine."""
    live(page, "create-room")
    page.wait_for_selector(sel("room-link"), timeout=T)
    return page


def test_a_host_in_its_lobby_who_taps_nothing_is_told_the_engine_could_not_start(new_phone):
    """The host never taps Start: its lobby says all the same that the game could not start,
    with Retry, in the engine's banner (issue 22: only a tap that waited for it said so)."""
    me, page = blocked_landing(new_phone, "abort", "Hana")
    lobby_of(me, page)
    page.wait_for_selector(sel("engine-retry"), timeout=40_000)
    text = page.inner_text(sel("engine-progress"))
    assert "could not start" in text, text
    assert page.get_attribute("body", "data-engine") == "failed"
    assert page.locator(sel("room-link")).count() == 1          # still its lobby
    assert page.locator(sel("player-0")).count() == 1


def test_a_host_in_its_lobby_is_told_a_slow_start_and_the_banner_goes_when_it_runs(
        new_phone, timings):
    """The host sits in its lobby, nothing tapped, while the engine's download stalls: no
    banner while it starts (the lobby needs no engine), 'taking longer than usual' with Retry
    once it is slow (hostlife.engine_verdict), and none once the bytes come and it runs."""
    me, page = blocked_landing(new_phone, "stall", "Hana")
    lobby_of(me, page)
    t0 = time.monotonic()
    assert page.locator(sel("engine-progress")).count() == 0
    page.wait_for_selector(sel("engine-progress") + '[data-slow="true"]', timeout=40_000)
    report(timings, "lobby, nothing tapped, download stalled: 'taking longer' shown",
           [(time.monotonic() - t0) * 1000])
    text = page.inner_text(sel("engine-progress"))
    assert "taking longer than usual" in text and "keep waiting" in text, text
    assert page.locator(sel("engine-retry")).count() == 1
    assert page.get_attribute("body", "data-engine") == "loading"     # not failed
    assert page.locator(sel("room-link")).count() == 1
    assert me.held
    for route in me.held:
        route.continue_()                                # the bytes come after all
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=120_000)
    page.wait_for_selector(sel("engine-progress"), state="detached", timeout=T)
    live(page, "add-bot")                                # the room runs: a bot at once
    page.wait_for_selector(sel("player-1"), timeout=T)
    no_errors(me)
