"""The host meets its own room (issue 14, item 5): the room's link opened in the browser that
hosts the room is told the room is open in another tab, or, once no tab holds it, offered to
resume hosting it; never a join form, never a second seat with the host's name."""

from crisp_e2e import wait_ready
from crisp_rooms import join_room, no_errors, open_room
from crisp_e2e import T, live, sel


def test_the_hosts_browser_opening_its_room_link_never_takes_a_second_seat(new_phone):
    host, link = open_room(new_phone, "Hana")
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,))

    mine = host.context.new_page()                     # the host's browser, another tab
    mine.on("pageerror", lambda e: host.errors.append(str(e)))
    mine.goto(link)
    wait_ready(mine)
    mine.wait_for_selector(sel("own-room"), timeout=T)
    assert "another tab" in mine.inner_text(sel("own-room"))
    assert mine.locator(sel("join-room")).count() == 0
    assert mine.locator(sel("resume-hosting")).count() == 0
    hp.wait_for_selector(sel("player-1"), timeout=T)
    assert hp.locator(sel("player-2")).count() == 0   # nobody else sat down

    hp.close()                                         # the host's tab closes
    mine.wait_for_selector(sel("resume-hosting"), timeout=15_000)
    assert "resume" in mine.inner_text(sel("own-room")).lower()
    live(mine, "resume-hosting")
    mine.wait_for_url("**/?host=*", timeout=T)
    wait_ready(mine)
    mine.wait_for_selector(sel("room-link"), timeout=T)   # hosting it again, here
    assert mine.inner_text(sel("room-link")).strip() == link
    mine.wait_for_selector(sel("player-1"), timeout=T)
    assert "Hana" in mine.inner_text(sel("player-0"))
    assert mine.locator(sel("player-2")).count() == 0
    no_errors(host, ana)
