"""A link to a room that does not exist (mistyped, or a game long over) says so, instead of
waiting for ever, and offers the way back to the start (issue: a room that does not exist
gets a clear message, not a hang)."""

from crisp_e2e import wait_ready
from test_round import T, live, sel


def test_a_link_to_no_room_says_so_and_leads_back_to_the_start(new_phone):
    phone = new_phone(reduced_motion="reduce")
    page = phone.page
    page.goto(phone.site.url("/?room=crisp-" + "0" * 32))
    assert wait_ready(page) == "micropython"
    page.wait_for_function(
        "() => { const b = document.querySelector('[data-testid=connection]');"
        " return b && b.textContent.includes('No game is open at this link'); }", timeout=T)
    # no join form under the error (issue 11.9): only the way back
    assert page.locator(sel("player-name")).count() == 0
    assert page.locator(sel("join-room")).count() == 0
    live(page, "leave")
    page.wait_for_selector(sel("create-room"), timeout=T)   # the landing, on the host page
    assert "room=" not in page.url
    assert wait_ready(page) == "micropython"
