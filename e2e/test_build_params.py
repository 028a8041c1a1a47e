"""The test-only link parameters `?deck=` and `?seed=` on real builds (tools/build.py without
`--test`, and `--hosted`): ignored. The attack: a guest gets the host to open
`/?seed=424242` (or a stacked `?deck=`) and knows every hand and the deck order. On a real
build the deal is neither stacked nor the one `crisp_core` computes for that seed, and two
rooms opened with the same link deal differently. The test build (the `site` fixture) still
honours both: the positive control.

Solo play deals at once and needs no network, so the hosted build (PeerJS cloud signaling,
out of reach here) is checked too, served from this machine.
"""

import pytest

from crisp_core.shuffle import seeded_deck as shuffled_deck
from crisp_e2e import engine_ready, served_build, wait_ready
from crisp_e2e import T, sel

# Stacked: seat 1 (the bot) is dealt first, then seat 0 (the player): 2c left, 6c right.
STACK = ["Ah", "2c", "3d", "4h", "5s", "6c"]
SEED = 424242
CRAFTED = "/?deck=%s&seed=%d&botpace=0.1" % (",".join(STACK), SEED)


def seeded_peek():
    """The player's left and right cards `crisp_core` deals for SEED (round 1, 2 seats)."""
    deck = shuffled_deck(SEED, 1)
    return (deck[1], deck[5])


def peek(new_phone, url):
    """Open `url`, play solo against one bot, return the player's peeked (left, right)."""
    phone = new_phone(reduced_motion="reduce")
    page = phone.page
    page.goto(url)
    assert wait_ready(page) == "micropython"
    page.fill(sel("player-name"), "Hana")
    page.select_option(sel("solo-bots"), "1")
    page.click(sel("play-solo"))
    engine_ready(page)      # the table waits for the engine, however slow
    cards = []
    for pos in ("left", "right"):
        page.wait_for_selector(sel("card-0-" + pos, "[data-card]"), timeout=T)
        cards.append(page.get_attribute(sel("card-0-" + pos), "data-card"))
    assert phone.errors == []
    phone.context.close()
    return tuple(cards)


@pytest.fixture(scope="module", params=["default", "hosted"])
def real_site(request, tmp_path_factory):
    args = ["--hosted"] if request.param == "hosted" else []
    with served_build(str(tmp_path_factory.mktemp("crisp-" + request.param)), *args) as s:
        yield s


def test_the_test_build_honours_deck_and_seed(new_phone, site):
    assert peek(new_phone, site.url("/?deck=%s&botpace=0.1" % ",".join(STACK))) == ("2c", "6c")
    assert peek(new_phone, site.url("/?seed=%d&botpace=0.1" % SEED)) == seeded_peek()


def test_a_real_build_ignores_deck_and_seed(new_phone, real_site):
    first = peek(new_phone, real_site.url(CRAFTED))
    second = peek(new_phone, real_site.url(CRAFTED))
    assert first != ("2c", "6c") and second != ("2c", "6c")      # not stacked
    assert seeded_peek() not in (first, second)                   # not the seed's deal
    assert first != second                                        # two rooms, two deals
