"""A link to a room that does not exist (mistyped, or a game long over) says so, instead of
waiting for ever, and offers the way back to the start (issue: a room that does not exist
gets a clear message, not a hang)."""

import json
import time

from crisp_e2e import wait_ready
from crisp_e2e import T, live, sel


# Whether the join form ever showed, and what the page said while it looked for the room.
FORM_SEEN = """
window.__formSeen = false; window.__looking = [];
new MutationObserver(() => {
  if (document.querySelector('[data-testid=player-name]')) window.__formSeen = true;
  const l = document.querySelector('[data-testid=looking-room]');
  if (l && !window.__looking.includes(l.textContent)) window.__looking.push(l.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_a_link_to_no_room_says_so_and_leads_back_to_the_start(new_phone):
    phone = new_phone(reduced_motion="reduce")
    page = phone.page
    page.add_init_script(FORM_SEEN)
    page.goto(phone.site.url("/?room=crisp-" + "0" * 32))
    assert wait_ready(page) == "micropython"
    page.wait_for_function(
        "() => { const b = document.querySelector('[data-testid=connection]');"
        " return b && b.dataset.status === 'no_room'"
        " && b.textContent.includes('No game answers at this link')"
        " && b.textContent.includes('ask the host for a new one')"
        " && b.textContent.includes('host a game of your own'); }", timeout=T)
    # no join form before the room answers (issue 20.7), and none under the error (11.9)
    assert page.evaluate("window.__formSeen") is False
    assert page.evaluate("window.__looking") == ["Looking for the room\u2026"]
    assert page.locator(sel("player-name")).count() == 0
    assert page.locator(sel("join-room")).count() == 0
    live(page, "leave")
    page.wait_for_selector(sel("create-room"), timeout=T)   # the landing, on the host page
    assert "room=" not in page.url
    assert wait_ready(page) == "micropython"


def test_a_link_that_cannot_be_a_rooms_is_said_at_once_and_never_tried(new_phone):
    # `?room=hello`: no host can ever answer it; said at once, in Spanish too, no form
    phone = new_phone(reduced_motion="reduce", locale="es-ES")
    page = phone.page
    page.add_init_script(FORM_SEEN)
    page.goto(phone.site.url("/?room=hello"))
    assert wait_ready(page) == "micropython"
    banner = page.wait_for_selector("[data-testid=connection][data-status=bad_link]",
                                    timeout=T)
    said = banner.text_content()
    for words in ("no lleva a ninguna sala", "enlace entero", "a quien organiza",
                  "crea tu propia sala"):
        assert words in said, said
    assert "No es el enlace de una sala" in page.text_content("main")
    assert page.evaluate("window.__formSeen") is False
    assert not [t for kind, t in phone.console if "peer-unavailable" in t]   # never tried
    live(page, "leave")
    page.wait_for_selector(sel("create-room"), timeout=T)
    assert phone.errors == []


# A seated page's follow record, as it keeps it next to its seat token (ui/shared/handover.py
# follow_record): the room's succession secret, its seat, the host seat, the players.
RECORD = {"v": 1, "secret": "5e" * 16, "seat": 1, "host": 0,
          "players": [{"seat": 0, "bot": False, "connected": True},
                      {"seat": 1, "bot": False, "connected": True},
                      {"seat": 2, "bot": True, "connected": True}]}


# Every text the connection banner showed (window.__banners).
BANNERS = """
window.__banners = [];
new MutationObserver(() => {
  const b = document.querySelector('[data-testid=connection]');
  const t = b && b.textContent;
  if (t && window.__banners[window.__banners.length - 1] !== t) window.__banners.push(t);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def reopened(new_phone, room_id, record):
    """A phone whose tab was discarded: its storage holds a seat token, a name and `record`
    (JSON text) for `room_id`; it opens the room link again (host gone after 3 s)."""
    phone = new_phone(reduced_motion="reduce")
    page = phone.page
    page.goto(phone.site.url("/manifest.webmanifest"))   # the origin, to write its storage
    page.evaluate("([id, rec]) => { localStorage.setItem('crisp.token.' + id, 'ab'.repeat(16));"
                  " localStorage.setItem('crisp.name', 'Bea');"
                  " localStorage.setItem('crisp.follow.' + id, rec); }", [room_id, record])
    page.add_init_script(BANNERS)
    page.goto(phone.site.url("/?room=%s&hostgone=3000" % room_id))
    assert wait_ready(page) == "micropython"
    return phone


def looked(phone):
    return [t for kind, t in phone.console if "looking for the room at" in t]


def test_a_reloaded_seat_whose_room_is_nowhere_looks_once_then_offers_the_way_out(new_phone):
    room_id = "crisp-" + "1" * 32
    phone = reopened(new_phone, room_id, json.dumps(RECORD))
    page = phone.page
    # nothing at the link, nothing at its next three ids (looked at once each): the
    # host-gone panel, and leave
    until = time.monotonic() + 60
    while not any("none of its next ids" in t for kind, t in phone.console):
        assert time.monotonic() < until, phone.console
        page.wait_for_timeout(250)
    page.wait_for_selector(sel("host-gone"), timeout=T)
    assert len(looked(phone)) == 3, phone.console
    assert (room_id + "-h1-") in looked(phone)[0] and (room_id + "-h3-") in looked(phone)[2]
    # meanwhile it said that it looks (ui/page/i18n/i18n_connection.py conn_looking), never "no game here"
    said = page.evaluate("window.__banners")
    assert any("looking for where it went" in t for t in said), said
    assert "room=%s" % room_id in page.url and "host=" not in page.url   # no takeover
    live(page, "leave")
    page.wait_for_selector(sel("create-room"), timeout=T)
    assert page.evaluate("localStorage.getItem('crisp.follow.%s')" % room_id) is None
    assert page.evaluate("localStorage.getItem('crisp.token.%s')" % room_id) is None


def test_a_hostile_follow_record_is_ignored_and_the_page_looks_nowhere(new_phone):
    room_id = "crisp-" + "2" * 32
    hostile = dict(RECORD, players=[{"seat": i, "bot": False, "connected": True}
                                    for i in range(5000)])
    phone = reopened(new_phone, room_id, json.dumps(hostile))
    page = phone.page
    # its old id does not answer: without a record it is a seat whose host is gone
    until = time.monotonic() + 60
    while len([t for kind, t in phone.console if "peer-unavailable" in t]) < 3:
        assert time.monotonic() < until, phone.console
        page.wait_for_timeout(250)
    page.wait_for_selector(sel("host-gone"), timeout=T)
    assert looked(phone) == [], phone.console              # (a record taken: at the first)
    assert phone.errors == []
    live(page, "leave")
    page.wait_for_selector(sel("create-room"), timeout=T)
