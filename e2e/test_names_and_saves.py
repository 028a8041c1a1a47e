"""Names and saved rooms on the real pages (docs/protocol.md "Room messages", "Reconnection").

- A guest who types the host's name (other letters) is told on the join screen that it is
  taken, and joins with another; a name of 20 of the widest glyphs and a tower of combining
  marks stay in their place on every screen (no sideways scrolling), each name in a <bdi>;
  at the table every screen marks the host's seat, and only it.
- A tampered saved room (two of one card) is refused on the host's landing with a clear
  note, and the landing still creates a room; the same with the room's own ?host= link. A
  host's name the room would refuse ("Bot 2") is said on the landing.
"""

import json

from crisp_rooms import no_errors, open_room, phone
from crisp_e2e import wait_ready
from crisp_e2e import T, live, sel
from ui.worker.room import LOCAL, Room

WIDE = "\ufdfd" * 20                      # the widest glyph there is, 20 times
TOWER = "Z" + "\u0334\u0335\u0336\u0337\u0338" * 3 + "oe"    # 18: the field takes 20

# Overflow: the page scrolls sideways, or a name is wider than the element that holds it.
OVERFLOW = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth + 1)
    out.push('page ' + document.documentElement.scrollWidth + ' > ' + innerWidth);
  for (const b of document.querySelectorAll('#app bdi')) {
    const r = b.getBoundingClientRect(), p = b.parentElement.getBoundingClientRect();
    if (r.right > innerWidth + 1 || r.width > p.width + 1 || r.height > 60)
      out.push(b.textContent.slice(0, 8) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  return out;
}"""


def guest(new_phone, link):
    g = phone(new_phone)
    page = g.page
    page.goto(link)
    assert wait_ready(page) == "micropython"
    page.wait_for_selector(sel("connection"), state="detached", timeout=T)
    return g


def join_as(page, name):
    page.fill(sel("player-name"), name)
    live(page, "join-room")


def test_names_taken_wide_and_towering_and_the_host_marked(new_phone):
    host, link = open_room(new_phone, "Hana")
    hp = host.page
    ana = guest(new_phone, link)
    ap = ana.page
    join_as(ap, "HANA")
    ap.wait_for_selector(sel("name-error"), timeout=T)
    assert ap.inner_text(sel("name-error")) == "That name is taken: pick another one."
    assert ap.locator(sel("player-list")).count() == 0          # still on the join screen
    join_as(ap, "Ana")
    ap.wait_for_selector(sel("player-1"), timeout=T)
    assert ap.locator(sel("name-error")).count() == 0
    wide = guest(new_phone, link)
    join_as(wide.page, WIDE)
    tower = guest(new_phone, link)
    join_as(tower.page, TOWER)
    pages = (hp, ap, wide.page, tower.page)
    for p in pages:
        p.wait_for_selector(sel("player-3"), timeout=T)
        assert p.evaluate(OVERFLOW) == [], p.evaluate(OVERFLOW)
        assert p.locator(sel("player-0") + " bdi").inner_text() == "Hana"
    assert tower.page.locator(sel("player-3") + " bdi").inner_text() == "Z\u0334\u0335\u0336oe"

    live(hp, "start-game")
    for p in pages:
        live(p, "ready")
    for p in pages:
        p.wait_for_selector(sel("event-log") + " bdi", timeout=T)
        assert p.locator(sel("seat-0") + " " + sel("host-badge")).count() == 1
        assert p.locator(sel("host-badge")).count() == 1       # the host's seat only
        assert p.evaluate(OVERFLOW) == [], p.evaluate(OVERFLOW)
    no_errors(host, ana, wide, tower)


def tampered_save():
    """A saved room in play whose deck holds a card that is also in a hand."""
    room = Room("crisp-" + "e" * 32, "Hana", seed=3)
    room.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Hana"}), 0)
    room.receive("c1", json.dumps({"type": "join", "v": 1, "name": "Ana"}), 0)
    room.receive(LOCAL, json.dumps({"type": "start", "v": 1}), 0)
    room.tick(60000)            # (the deal waits for the guests' shuffle contributions)
    save = room.to_dict()
    save["game"]["deck"][0] = save["game"]["hands"][0][0]
    return room.room_id, json.dumps(save)


def test_a_tampered_saved_room_is_refused_and_the_landing_still_works(new_phone):
    room_id, text = tampered_save()
    for path in ("/", "/?host=" + room_id):
        p = phone(new_phone, tap=False)
        page = p.page
        page.goto(p.site.url("/"))
        assert wait_ready(page) == "micropython"
        page.evaluate("([id, text]) => { localStorage.setItem('crisp.room.' + id, text);"
                      " localStorage.setItem('crisp.host.room', id); }", [room_id, text])
        page.goto(p.site.url(path))
        assert wait_ready(page) == "micropython"
        page.wait_for_selector(sel("save-refused"), timeout=T)
        assert "could not be loaded" in page.inner_text(sel("save-refused"))
        assert page.locator(sel("resume")).count() == 0
        assert page.evaluate("localStorage.getItem('crisp.room.%s')" % room_id) is None
        if path == "/":
            # a host's name is checked as a guest's: the landing says why and stays
            page.fill(sel("player-name"), "Bot 2")
            live(page, "create-room")
            page.wait_for_selector(sel("error"), timeout=T)
            assert page.inner_text(sel("error")) == "That name is taken: pick another one."
            assert page.locator(sel("room-link")).count() == 0
        page.fill(sel("player-name"), "Hana")
        live(page, "create-room")
        page.wait_for_selector(sel("room-link"), timeout=T)
        assert page.locator(sel("save-refused")).count() == 0
        no_errors(p)
