"""Quick reactions through the real pages (docs/protocol.md "Quick reactions"): a guest's
reaction shows on the host's and another guest's screen on the guest's seat, then goes; a
player who turns reactions off in the menu gets no picker, and the page remembers it."""

import time

from crisp_rooms import join_room, no_errors, open_room
from crisp_e2e import DECK, T, live, sel


def test_a_guests_reaction_shows_on_every_screen_on_her_seat_and_goes(new_phone):
    host, link = open_room(new_phone, "Hana", "?deck=" + ",".join(DECK))
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    ap = ana.page
    bea = join_room(new_phone, link, "Bea", 2, (hp, ap))
    bp = bea.page
    live(hp, "start-game")
    for page in (hp, ap, bp):
        page.wait_for_selector(sel("ready"), timeout=T)

    # -- Ana opens her reactions and sends "Nice!"
    live(ap, "react-open")
    ap.wait_for_selector(sel("react-picker"), timeout=T)
    live(ap, "react-4")
    ap.wait_for_selector(sel("react-picker"), state="detached", timeout=T)
    shown = {}
    for page, lang_text in ((hp, "Nice!"), (bp, "Nice!"), (ap, "Nice!")):
        bubble = page.wait_for_selector(sel("seat-1") + " " + sel("reaction-1"), timeout=T)
        shown[page] = time.monotonic()
        assert bubble.inner_text().strip() == lang_text
        assert bubble.get_attribute("data-r") == "4"
        assert page.locator("[data-testid^='reaction-']").count() == 1   # on her seat only
    # ... and it goes by itself
    for page in (hp, bp, ap):
        page.wait_for_selector(sel("reaction-1"), state="detached", timeout=T)
        print("reaction shown for %.1f s" % (time.monotonic() - shown[page]))

    # -- the host answers with a face: it shows on seat 0 on the guests' screens
    live(hp, "react-open")
    live(hp, "react-1")
    for page in (ap, bp):
        face = page.wait_for_selector(sel("seat-0") + " " + sel("reaction-0"), timeout=T)
        assert face.get_attribute("aria-label") == "Laughing"
        assert face.query_selector("svg") is not None

    # -- the game went on meanwhile: Ana's Ready works at once
    live(ap, "ready")
    ap.wait_for_selector(sel("ready", "[disabled]"), timeout=T)

    # -- Bea turns reactions off in the menu: no picker any more, and the page remembers it
    live(bp, "menu")
    live(bp, "reactions-toggle")
    bp.wait_for_selector(sel("reactions-toggle", '[aria-pressed="false"]'), timeout=T)
    assert bp.evaluate("localStorage.getItem('crisp.reactions')") == "off"
    live(bp, "menu-close")
    bp.wait_for_selector(sel("react-open"), state="detached", timeout=T)
    no_errors(host, ana, bea)
