"""A guest who reloads its page gets its seat back (its token is kept per room in
localStorage), and a second page opening the same seat takes it over (docs/protocol.md)."""

from crisp_e2e import wait_ready
from crisp_rooms import open_room
from crisp_e2e import T, live, sel, shows

DECK = ["2c", "3s", "9d", "Td", "5h", "4c"]   # 2 players: Ana 2c 9d 5h, Hana 3s Td 4c


def test_a_reloaded_guest_gets_its_seat_back_and_a_second_page_takes_it_over(new_phone):
    host, link = open_room(new_phone, "Hana", "?deck=" + ",".join(DECK))
    hp = host.page

    ana = new_phone(reduced_motion="reduce")
    ap = ana.page
    ap.goto(link)
    assert wait_ready(ap) == "micropython"
    ap.fill(sel("player-name"), "Ana")
    live(ap, "join-room")
    hp.wait_for_selector(sel("player-1"), timeout=T)
    live(hp, "start-game")
    shows(ap, "card-1-left", "2c")

    # reload: no click needed, the same seat and its peek again (it is not ready yet)
    ap.reload()
    assert wait_ready(ap) == "micropython"
    shows(ap, "card-1-left", "2c")
    shows(ap, "card-1-right", "5h")
    assert ap.get_attribute(sel("card-1-center"), "data-card") is None
    live(ap, "ready")
    live(hp, "ready")
    live(ap, "deck")                         # seat 1 plays first (dealer 0)
    shows(ap, "held-card", "Ac")             # the first card after the stacked ones

    # the same seat opened on a second page (the token copied over): it takes the seat
    token_key = "crisp.token." + link.split("?room=")[1]
    token = ap.evaluate("(k) => localStorage.getItem(k)", token_key)
    assert token and len(token) == 32
    other = new_phone(reduced_motion="reduce")
    other.context.add_init_script(
        "localStorage.setItem(%r, %r); localStorage.setItem('crisp.name', 'Ana');"
        % (token_key, token))
    op = other.page
    op.goto(link)
    assert wait_ready(op) == "micropython"
    op.wait_for_selector(sel("held-card", "[data-card]"), timeout=T)   # the turn goes on here
    live(op, "discard-held")
    ap.wait_for_selector(sel("gone"), timeout=T)                       # kicked: taken_over
    for phone in (host, ana, other):
        assert phone.errors == [], (phone.page.url, phone.errors, phone.console[-15:])
