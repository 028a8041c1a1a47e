"""A host page whose engine cannot start (issue 14, item 4): Pyodide's wasm request aborted,
or stalled for ever (Pyodide only warns and its promise never settles). Within 20 s without
progress the page says so plainly (es/en) and offers Retry; joining a friend's room by its
code still works (a guest page needs no Pyodide)."""

import time

import pytest

from crisp_e2e import wait_ready
from crisp_rooms import no_errors, open_room, phone, report
from test_round import T, live, sel


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


@pytest.mark.parametrize("how", ["abort", "stall"])
def test_an_engine_that_cannot_start_says_so_with_retry_and_joining_still_works(
        new_phone, how, timings):
    friend, link = open_room(new_phone, "Hana")          # a friend's room, elsewhere
    fp = friend.page
    me, page = blocked_landing(new_phone, how, "Ana")
    t0 = time.monotonic()
    live(page, "play-solo")                              # needs the engine
    page.wait_for_selector(sel("engine-retry"), timeout=40_000)
    waited = (time.monotonic() - t0) * 1000
    report(timings, "engine cannot start (%s): plain message with Retry" % how, [waited])
    assert waited < 30_000
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
