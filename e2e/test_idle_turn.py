"""A friend here who holds the table (docs/protocol.md "Room messages", `bot_turn`): Hana hosts,
Ana and Bea sit; it is Ana's turn and her page does nothing. Once her turn has waited the
room's time (40 s; the host page's test-only `?botpace=0.2` makes it 8 s, as it makes its bots
think 5x faster), every screen says so at her place and Hana's page offers "Let a bot play
this turn"; Hana taps it, a bot plays that one turn for Ana, every screen shows its move,
and the next turn of Ana's is hers again (nothing plays it for her)."""

from crisp_e2e import T, live, sel
from crisp_rooms import no_errors
from test_handover import play_turn, three_at_the_table


def test_the_host_lets_a_bot_play_the_turn_of_a_friend_who_does_nothing(new_phone):
    host, ana, bea, _ = three_at_the_table(new_phone, query="?botpace=0.2")
    hp, ap, bp = host.page, ana.page, bea.page
    # Ana's turn waits: every screen says so at her place; only the host gets the button
    for p in (hp, ap, bp):
        p.wait_for_selector(sel("waited-1"), timeout=T)
    assert "Ana has been thinking for" in hp.inner_text(sel("waited-1"))
    assert "waited" in ap.inner_text(sel("waited-1"))          # her own place: "for you"
    assert bp.locator(sel("bot-turn-1")).count() == 0
    assert ap.locator(sel("bot-turn-1")).count() == 0
    live(hp, "bot-turn-1")
    # the bot plays Ana's turn, and every screen shows it (the turn moves on to Bea)
    try:
        hp.wait_for_selector(sel("waited-1", ":has-text('A bot is playing')"), timeout=T)
        for p, who in ((hp, "Ana"), (ap, "You"), (bp, "Ana")):    # (her own page: "You")
            p.wait_for_selector(sel("event-log", ":has-text('%s drew')" % who), timeout=T)
            p.wait_for_selector(sel("seat-2", ".turn"), timeout=T)
            p.wait_for_selector(sel("waited-1"), state="detached", timeout=T)
    except Exception:
        for name, phone in (("host", host), ("Ana", ana)):
            page = phone.page
            print(name, "log:", page.inner_text(sel("event-log")))
            print(name, "seat-1:", page.inner_text(sel("seat-1")))
            print(name, "console:", "\n".join(t for k, t in phone.console[-30:]))
            print(name, "wire:", page.evaluate("(window.__crispWire || []).slice(-8)"))
        raise
    assert ap.locator(sel("deck", ":not([disabled])")).count() == 0
    # Bea and Hana play; Ana's next turn is hers: nobody plays it for her meanwhile
    play_turn(bp, 2)
    hp.wait_for_selector(sel("seat-0", ".turn"), timeout=T)
    play_turn(hp, 0)
    ap.wait_for_selector(sel("deck", ":not([disabled])"), timeout=T)
    play_turn(ap, 1)
    hp.wait_for_selector(sel("seat-2", ".turn"), timeout=T)
    drew = hp.inner_text(sel("event-log")).count("Ana drew")
    assert drew == 2, hp.inner_text(sel("event-log"))
    no_errors(host, ana, bea)
