"""A whole round with friends, through the real page: a host (Pyodide) and two guests
(MicroPython) in separate browser contexts, joined by the room link, playing by taps.

The stacked deck (the host page's test-only `?deck=`) makes every draw known:
    deal (dealer = host, seat 0):  Ana (1): 2c 9d 5h   Bea (2): 3s Td 4c   Hana (0): 7h Ah 8s
    Ana draws 6d, swaps it into her center (9d to the discard)            R3.2
    Bea draws Jc and uses it: she sees her center Td                      R4.4
    Hana draws Qs: her left (7h) with Ana's right (5h)                    R4.5
    Ana draws Kd and uses it (R4.6): 3h swapped into her right, 9c discarded; she calls crisp
    last turns (R6.2): Bea draws 8d and discards it, Hana draws 8c and discards it
    hands: Hana 5h Ah 8s = 14, Ana 2c 6d 3h = 11 - 5 (lowest caller, R7.2) = 6, Bea 3s Td 4c = 17

Every text each guest's data channel delivered is recorded by an init script (below) and
checked: no card of another seat, nor of the deck, that no rule showed that guest (R9).
"""

import json

from crisp_e2e import (CARD, DECK, WIRE_TAP, T, engine_ready, face_down, join, live,  # noqa: F401
                       phone_of, sel, shows, wait_ready)

ALL_CARDS = {r + s for s in "cdhs" for r in "A23456789TJQK"}
NEVER_DRAWN = ALL_CARDS - set(DECK)

# Cards each guest may not see before the hands are shown at the end of the round.
HIDDEN = {
    "Ana": {"Ah", "8s", "3s", "Td", "4c"},              # Hana's center and right, Bea's hand
    "Bea": {"Ah", "8s", "2c", "6d", "5h", "3h"},        # Hana's, Ana's unseen cards
}


def test_a_round_with_friends_by_link(new_phone):
    # -- the host creates the room
    host = phone_of(new_phone)
    hp = host.page
    hp.goto(host.site.url("/?deck=" + ",".join(DECK)))
    assert wait_ready(hp) == "micropython"
    hp.fill(sel("player-name"), "Hana")
    live(hp, "create-room")
    hp.wait_for_selector(sel("room-link"), timeout=T)
    link = hp.inner_text(sel("room-link")).strip()
    assert "?room=crisp-" in link
    engine_ready(hp)          # guests' seats and bots wait for the engine

    # -- two friends open the link, each in its own browser context, and join in order
    ana = join(new_phone, link, "Ana")
    ap = ana.page
    ap.wait_for_selector(sel("player-1"), timeout=T)
    bea = join(new_phone, link, "Bea")
    bp = bea.page
    for page in (hp, ap, bp):
        page.wait_for_selector(sel("player-2"), timeout=T)
        names = page.inner_text(sel("player-list"))
        assert names.index("Hana") < names.index("Ana") < names.index("Bea")

    # -- the host sets the options; the guests see them
    hp.select_option(sel("opt-target"), "150")
    # the box shows the room's options: checked once the room (the engine worker) answers
    hp.click(sel("opt-draw-from-discard"))
    hp.wait_for_selector(sel("opt-draw-from-discard", ":checked"), timeout=T)
    for page in (ap, bp):
        page.wait_for_function(
            "document.querySelector('[data-testid=\"opt-target\"]').value === '150'", timeout=T)
        page.wait_for_selector(sel("opt-draw-from-discard", ":checked"), timeout=T)
        assert page.is_disabled(sel("opt-target"))     # only the host sets options
    assert hp.input_value(sel("opt-draw-seconds")) == "none"

    # -- start: the peek (R2.4): each sees its own left and right, never its center
    live(hp, "start-game")
    shows(ap, "card-1-left", "2c")
    shows(ap, "card-1-right", "5h")
    shows(bp, "card-2-left", "3s")
    shows(bp, "card-2-right", "4c")
    shows(hp, "card-0-left", "7h")
    shows(hp, "card-0-right", "8s")
    assert face_down(ap, "card-1-center") and face_down(ap, "card-2-left")
    assert face_down(bp, "card-1-left") and face_down(hp, "card-1-left")
    for page in (hp, ap, bp):
        live(page, "ready")
    ap.wait_for_selector(sel("card-1-left", ":not([data-card])"), timeout=T)  # R9.2

    # -- Ana: draws 6d, swaps it into her center
    live(ap, "deck")
    shows(ap, "held-card", "6d")
    assert face_down(bp, "held-card")
    live(ap, "card-1-center")
    for page in (hp, ap, bp):
        shows(page, "discard", "9d")

    # -- Bea: draws the Jack and looks at her center (R4.4)
    live(bp, "deck")
    shows(bp, "held-card", "Jc")
    live(bp, "use-special")
    shows(bp, "card-2-center", "Td")
    assert face_down(ap, "card-2-center")

    # -- Hana: the Queen, her left with Ana's right (R4.5)
    live(hp, "deck")
    shows(hp, "held-card", "Qs")
    live(hp, "use-special")
    live(hp, "card-0-left")
    live(hp, "card-1-right")
    shows(hp, "card-0-left", "5h")      # each sees the card it received in left/right once
    shows(ap, "card-1-right", "7h")
    assert face_down(bp, "card-1-right") and face_down(bp, "card-0-left")

    # -- Ana: the King and its two extra draws (R4.6), then the call (R6, R10.1)
    live(ap, "deck")
    shows(ap, "held-card", "Kd")
    live(ap, "use-special")
    live(ap, "deck")
    shows(ap, "held-card", "3h")
    live(ap, "card-1-right")
    live(ap, "deck")
    shows(ap, "held-card", "9c")
    live(ap, "discard-held")
    live(ap, "crisp", timeout=2500)     # the window is 3 s
    for page in (hp, bp):
        page.wait_for_selector(sel("event-log", ":has-text('Ana called crisp')"), timeout=T)

    # -- the last turns
    live(bp, "deck")
    shows(bp, "held-card", "8d")
    live(bp, "discard-held")
    live(hp, "deck")
    shows(hp, "held-card", "8c")
    live(hp, "discard-held")

    # -- the round is over: all hands public, points and running scores (R7) everywhere
    points = {0: 14, 1: 6, 2: 17}
    hands = {0: ("5h", "Ah", "8s"), 1: ("2c", "6d", "3h"), 2: ("3s", "Td", "4c")}
    for page in (hp, ap, bp):
        page.wait_for_selector(sel("round-results"), timeout=T)
        for seat, total in points.items():
            assert page.inner_text(sel("score-%d" % seat)).strip() == str(total)
            row = page.locator(sel("result-%d" % seat))
            assert row.locator("td").nth(2).inner_text().strip() == str(total)
            for pos, card in zip(("left", "center", "right"), hands[seat]):
                assert page.get_attribute(sel("card-%d-%s" % (seat, pos)), "data-card") == card
    assert hp.is_enabled(sel("next-round"))
    assert ap.locator(sel("next-round")).count() == 0

    # -- what each guest's data channel carried: only cards it may know (R9)
    for name, page in (("Ana", ap), ("Bea", bp)):
        wire = page.evaluate("window.__crispWire")
        assert len(wire) > 20, wire
        over = False
        for text in wire:
            assert text != "<binary>"
            msg = json.loads(text)                       # every message is JSON text
            assert len(text.encode("utf-8")) < 16 * 1024
            assert msg["v"] == 1
            cards = set(CARD.findall(text))
            assert not cards & NEVER_DRAWN, (name, text)
            over = over or '"round_over"' in text
            if not over:
                assert not cards & HIDDEN[name], (name, sorted(cards & HIDDEN[name]), text)
        assert over

    for phone in (host, ana, bea):
        assert phone.errors == [], phone.errors
