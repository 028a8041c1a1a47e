"""A visible deal (issue 20, "Beyond the fixes"): at a round's start the cards fly face down
from the dealer's seat to each place one by one, clockwise from the dealer's left, three times
round the table (R2.2; ui/page/screens/cues.py deal_flights), all within 2 s for 8 seats; nothing flies
when the player asked for reduced motion. The deal is decoration: Ready can be tapped at once.

Printed: how long the deal of 8 seats takes on the page (the last card's landing)."""

from crisp_e2e import engine_ready, wait_ready
from crisp_e2e import T, sel
from test_table_feel import FLIGHTS

def solo(new_phone, bots, **context):
    phone = new_phone(**context)
    page = phone.page
    page.add_init_script(FLIGHTS)
    page.goto(phone.site.url("/?seed=3&botpace=0.1"))
    assert wait_ready(page) == "micropython"
    page.fill(sel("player-name"), "Sol")
    page.select_option(sel("solo-bots"), str(bots))
    page.click(sel("play-solo"))
    engine_ready(page)
    page.wait_for_selector(sel("card-%d-right" % bots), state="attached", timeout=T)
    return phone, page


def test_eight_seats_are_dealt_one_card_at_a_time_from_the_dealer_within_two_seconds(new_phone):
    phone, page = solo(new_phone, 7)
    page.wait_for_function("window.__crispFlights.length >= 24", timeout=T)
    # the deal is decoration: the player looks and taps Ready while the cards still fly
    page.click(sel("ready", ":not([disabled])"), timeout=T)
    dealt = [f for f in page.evaluate("window.__crispFlights") if f["from"].startswith("seat-")]
    assert len(dealt) == 24, dealt
    order = ["card-%d-%s" % ((1 + k) % 8, pos) for pos in ("left", "center", "right")
             for k in range(8)]                      # seat 0 deals round 1 (R2.1), from seat 1
    assert [f["to"] for f in dealt] == order
    assert {f["from"] for f in dealt} == {"seat-0"} and all(f["card"] is None for f in dealt)
    delays = [f["delay"] for f in dealt]
    assert delays == sorted(delays) and len(set(delays)) == 24          # one at a time
    end = max(f["delay"] + f["ms"] for f in dealt)
    assert end < 2000, end
    for f in dealt:
        sx, sy, sw, sh = f["src"]
        x, y, w, h = f["start"]
        assert sx - 1 <= x and x + w <= sx + sw + 1 and sy - 1 <= y and y + h <= sy + sh + 1, f
        dx, dy = f["dst"][0], f["dst"][1]
        assert abs(x + f["dx"] - dx) < 2 and abs(y + f["dy"] - dy) < 2, f   # ends on its place
        assert f["hidden"], f                 # the place shows its card once it lands
    # every place shows its card again once the deal is over, and nothing is left flying
    page.wait_for_function("""() => [...document.querySelectorAll('#app [data-testid^="card-"]')]
        .every((e) => getComputedStyle(e).visibility !== 'hidden')
        && !document.querySelector('[data-testid="flight"]')""", timeout=T)
    print("deal of 8 seats on the page: last card lands after %d ms" % end)
    assert phone.errors == []


def test_nothing_is_dealt_in_flight_with_reduced_motion(new_phone):
    phone, page = solo(new_phone, 3, reduced_motion="reduce")
    page.wait_for_selector(sel("ready", ":not([disabled])"), timeout=T)
    page.click(sel("ready"))
    page.wait_for_selector(sel("ready"), state="detached", timeout=T)
    assert page.evaluate("window.__crispFlights") == []
    assert page.evaluate("""() => [...document.querySelectorAll('#app [data-testid^="card-"]')]
        .every((e) => getComputedStyle(e).visibility !== 'hidden')""")
    assert phone.errors == []
