"""Issue 10, items 4 and 5 through the real pages: a late friend opens the room link during a
game and watches at once with no name and no hidden card reaching it, then takes an away seat
once the host approves; leaving (the lobby frees the seat, the table hands it to a bot) and
the host removing a person from the lobby."""

import json

from crisp_e2e import wait_ready
from crisp_rooms import join_room, no_errors, open_room, phone, wait_away
from crisp_e2e import T, live, sel


def wire(page):
    return [json.loads(t) for t in page.evaluate("window.__crispWire") if t.startswith("{")]


def assert_public_only(messages):
    """What a spectator received: no private event, no face-down card, no held card drawn
    from the deck, before the round's end (when every hand is public, R6.2)."""
    views = 0
    for msg in messages:
        assert msg["type"] in ("watching", "view", "pong", "lobby"), msg["type"]
        if msg["type"] != "view":
            continue
        views += 1
        view = msg["view"]
        assert view["seat"] is None and view["allowed"] == []
        for event in msg["events"]:
            assert "to" not in event and event["type"] != "reveal", event
        if view["phase"] not in ("round_over", "game_over"):
            assert all(card is None for hand in view["hands"] for card in hand), view["hands"]
            held = view["held"]
            if held is not None and held["from"] == "deck":
                assert held["card"] is None, held
    return views


def menu_leave(page):
    """Leave through the menu on every screen: `menu`, `menu-leave`, `menu-leave-confirm`."""
    live(page, "menu")
    live(page, "menu-leave")
    live(page, "menu-leave-confirm")


def test_a_late_friend_watches_then_takes_an_away_seat_after_approval(new_phone):
    host, link = open_room(new_phone, "Hana", "?botpace=0.1")
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    bea = join_room(new_phone, link, "Bea", 2, (hp,))
    ap, bp = ana.page, bea.page
    live(hp, "start-game")
    for p in (hp, ap, bp):
        live(p, "ready")
    live(ap, "deck")                                  # Ana holds a card drawn from the deck
    ap.wait_for_selector(sel("held-card", "[data-card]"), timeout=T)

    # Cleo opens the link late: the table at once, as a spectator, no name asked
    cleo = phone(new_phone)
    cp = cleo.page
    cp.goto(link)
    assert wait_ready(cp) == "micropython"
    cp.wait_for_selector(sel("spectator"), timeout=T)
    cp.wait_for_selector(sel("seat-1"), timeout=T)
    assert cp.locator(sel("join-room")).count() == 0
    assert cp.locator("[data-card]").count() == 0 or all(
        c in cp.evaluate("[...document.querySelectorAll('[data-testid=discard]')]"
                         ".map(e => e.dataset.card)")
        for c in cp.evaluate("[...document.querySelectorAll('[data-card]')]"
                             ".map(e => e.dataset.card)"))
    # the table knows someone watches (issue 20.6), before any name
    for p in (hp, bp):
        p.wait_for_selector(sel("watchers") + ":has-text('Someone is watching')", timeout=T)
    # Ana's tab closes: her seat is away on Cleo's screen too, and Cleo may ask for it
    ap.close()
    wait_away(cp, 1)
    assert cp.locator(sel("take-seat-1")).count() == 0          # a name first
    cp.fill(sel("player-name"), "Cleo")
    live(cp, "take-seat-1")
    cp.wait_for_selector(sel("seat-asked"), timeout=T)
    hp.wait_for_selector(sel("watchers") + ":has-text('Cleo is watching')", timeout=T)
    assert cp.locator(sel("take-seat-2")).count() == 0          # Bea is here: not offered
    assert bp.locator(sel("approve-1")).count() == 0            # only the host approves
    before = wire(cp)
    assert assert_public_only(before) >= 2
    live(hp, "approve-1")
    # Cleo plays seat 1 now: it is hers (her turn goes on: the held card was Ana's)
    cp.wait_for_selector(sel("spectator"), state="detached", timeout=T)
    cp.wait_for_selector(sel("seat-1", ".me"), timeout=T)
    for p in (hp, bp):
        p.wait_for_function(
            "document.querySelector('[data-testid=\"seat-1\"]').innerText.includes('Cleo')",
            timeout=T)
        wait_away(p, 1, False)
        # the table is told whose seat Cleo took; nobody watches any more
        p.wait_for_selector(sel("event-log") + " li:has-text('Cleo took Ana\u2019s seat.')",
                            timeout=T)
        assert p.locator(sel("watchers")).count() == 0
    # and Cleo that she never saw these cards (issue 20.6)
    note = cp.wait_for_selector(sel("took-seat"), timeout=T).text_content()
    assert note.startswith("You took Ana\u2019s seat: these cards are unknown to you"), note
    token = cp.evaluate("Object.keys(localStorage).filter(k => k.startsWith('crisp.token.'))")
    assert len(token) == 1
    no_errors(host, bea, cleo)


def test_leave_and_remove_in_the_lobby_and_leave_at_the_table(new_phone):
    host, link = open_room(new_phone, "Hana", "?botpace=0.1")
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    bea = join_room(new_phone, link, "Bea", 2, (hp,))
    cid = join_room(new_phone, link, "Cid", 3, (hp,))
    ap, bp, cp = ana.page, bea.page, cid.page
    # the host removes a person: one tap asks, on that row; the second removes
    live(hp, "remove-3")
    assert "Cid" in hp.inner_text(sel("remove-ask-3"))
    live(hp, "remove-yes-3")
    cp.wait_for_selector(sel("gone"), timeout=T)
    # Bea leaves the lobby (the menu's leave, asked twice): her seat frees up on every
    # screen, her page is at the landing
    menu_leave(bp)
    bp.wait_for_function("!location.search.includes('room=')", timeout=T)
    for p in (hp, ap):
        p.wait_for_function(
            "document.querySelectorAll('[data-testid=\"player-list\"] li').length === 2",
            timeout=T)
    assert "Bea" not in hp.inner_text(sel("player-list"))
    # at the table, Ana leaves: a bot takes her seat for good and the game goes on
    live(hp, "start-game")
    live(ap, "ready")
    menu_leave(ap)
    ap.wait_for_function("!location.search.includes('room=')", timeout=T)
    hp.wait_for_selector(sel("seat-1", ":not(.away) .badge.bot"), timeout=T)
    live(hp, "ready")
    # the bot plays Ana's turn (dealer 0: seat 1 first): the turn comes to Hana
    live(hp, "deck", timeout=60_000)
    no_errors(host)


def test_a_full_room_offers_to_watch_and_wait_and_the_host_makes_room(new_phone):
    # issue 20.8: a lobby of Hana and 7 bots; Zoe opens the link
    host, link = open_room(new_phone, "Hana")
    hp = host.page
    for seat in range(1, 8):
        live(hp, "add-bot")
        hp.wait_for_selector(sel("player-%d" % seat), timeout=T)
    zoe = phone(new_phone)
    zp = zoe.page
    zp.goto(link)
    assert wait_ready(zp) == "micropython"
    # said before any name is typed; no join that could only fail
    title = zp.wait_for_selector(sel("room-full"), timeout=T).text_content()
    assert title == "This room is full (8 players)"
    assert "watch the game" in zp.text_content("main")
    assert zp.locator(sel("join-room")).count() == 0
    hp.wait_for_selector(sel("watchers") + ":has-text('Someone has opened the invitation')",
                         timeout=T)
    zp.fill(sel("player-name"), "Zoe")
    live(zp, "wait-seat")
    asked = zp.wait_for_selector(sel("seat-asked"), timeout=T).text_content()
    assert "waiting for a seat" in asked, asked
    # the host is told, and makes room: the last bot goes, Zoe takes its seat
    told = hp.wait_for_selector(sel("friends-waiting"), timeout=T).text_content()
    assert "Zoe is waiting for a seat, and the room is full" in told, told
    live(hp, "make-room")
    zp.wait_for_selector(sel("lobby-waiting"), timeout=T)        # Zoe's lobby: seated
    hp.wait_for_function(
        "document.querySelector('[data-testid=\"player-7\"]').innerText.includes('Zoe')",
        timeout=T)
    hp.wait_for_selector(sel("friends-waiting"), state="detached", timeout=T)
    assert hp.locator(sel("watchers")).count() == 0
    token = zp.evaluate("Object.keys(localStorage).filter(k => k.startsWith('crisp.token.'))")
    assert len(token) == 1
    no_errors(host, zoe)
