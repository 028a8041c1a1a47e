"""The relay path (issue 21, item 4): when phones cannot reach each other directly, a TURN relay
carries the game. Debian's coturn runs on loopback for the session (the `relay` fixture,
e2e/turn_relay.py); a test build names it (`--ice`) with `iceTransportPolicy: "relay"`, so
no direct path is even tried. Three players play a round through it, and every data
channel's selected candidate pair, read from RTCPeerConnection.getStats() on each page, is
`relay` on both ends.

Without a reachable relay (a build whose TURN server is a port nobody listens on) the host
is there (it answers through the signaling server) but no channel can open: the guest is
told the network is why (`unreachable`, ui/page/net/link.py), within UNREACHABLE_MS plus one attempt,
never "the host is away"; the host sees that a friend could not connect (`friend-blocked`).
"""

import json
import time

import pytest

from crisp_e2e import served_build, wait_ready
from crisp_rooms import join_room, open_room
from crisp_e2e import T, live, sel
from turn_relay import PC_TAP, SELECTED_PAIRS, free_udp_port
from ui.page.net.link import ATTEMPT_MS, UNREACHABLE_MS

# deal (dealer = host, seat 0): Ana (1): 2c 9d 5h  Bea (2): 3s Td 4c  Hana (0): 7h Ah 8s;
# then Ana draws 6d, Bea 8d, Hana 8c: no special card, so every turn is draw and discard
DECK = ["2c", "3s", "7h", "9d", "Td", "Ah", "5h", "4c", "8s", "6d", "8d", "8c", "7c", "7d"]


def build_with_ice(tmp_path_factory, name, ice):
    folder = tmp_path_factory.mktemp(name)
    path = folder / "ice.json"
    path.write_text(json.dumps(ice))
    return served_build(str(folder), "--test", "--ice", str(path))


@pytest.fixture(scope="module")
def relay_site(relay, tmp_path_factory):
    with build_with_ice(tmp_path_factory, "crisp-relay", relay.ice("relay")) as s:
        yield s


@pytest.fixture(scope="module")
def no_relay_site(relay, tmp_path_factory):
    # the same relay-only build, its TURN server a port where nothing answers
    dead = {"iceServers": [{"urls": "turn:127.0.0.1:%d" % free_udp_port(),
                            "username": relay.user, "credential": relay.secret}],
            "iceTransportPolicy": "relay"}
    with build_with_ice(tmp_path_factory, "crisp-no-relay", dead) as s:
        yield s


def draw_and_discard(page, card):
    live(page, "deck")
    page.wait_for_selector(sel("held-card", '[data-card="%s"]' % card), timeout=T)
    live(page, "discard-held")


def selected_pairs(page):
    return page.evaluate(SELECTED_PAIRS)


def test_three_players_play_a_round_over_the_relay(new_phone, relay_site):
    options = {"site": relay_site, "init": PC_TAP}
    host, link = open_room(new_phone, "Hana", "?deck=" + ",".join(DECK), **options)
    hp = host.page
    config = hp.evaluate("window.crisp.peerOptions.config")
    assert config["iceTransportPolicy"] == "relay", config
    ana = join_room(new_phone, link, "Ana", 1, others=(hp,), init=PC_TAP)
    bea = join_room(new_phone, link, "Bea", 2, others=(hp, ana.page), init=PC_TAP)
    ap, bp = ana.page, bea.page

    live(hp, "start-game")
    for page in (hp, ap, bp):
        live(page, "ready")
    draw_and_discard(ap, "6d")
    live(ap, "crisp", timeout=2500)        # the window is 3 s
    draw_and_discard(bp, "8d")
    draw_and_discard(hp, "8c")
    scores = []
    for page in (hp, ap, bp):
        page.wait_for_selector(sel("round-results"), timeout=T)
        scores.append([page.inner_text(sel("score-%d" % seat)).strip() for seat in range(3)])
        # every hand is public now: Bea's is what was dealt to her
        assert [page.get_attribute(sel("card-2-%s" % pos), "data-card")
                for pos in ("left", "center", "right")] == ["3s", "Td", "4c"]
    assert scores[0] == scores[1] == scores[2] and scores[0][2] == "17", scores

    # every channel of the round went through the relay, on both ends
    host_pairs = selected_pairs(hp)
    assert len(host_pairs) == 2, host_pairs                # one per guest
    for page in (ap, bp):
        pairs = selected_pairs(page)
        assert len(pairs) == 1, pairs
        host_pairs += pairs
    for pair in host_pairs:
        assert pair["local"] == "relay" and pair["remote"] == "relay", host_pairs
    for phone in (host, ana, bea):
        assert phone.errors == [], phone.errors


def test_without_a_reachable_relay_the_guest_is_told_the_network_is_why(new_phone,
                                                                         no_relay_site):
    host, link = open_room(new_phone, "Hana", site=no_relay_site, init=PC_TAP)
    guest = new_phone(reduced_motion="reduce", site=no_relay_site)
    guest.context.add_init_script(PC_TAP)
    banners = []
    page = guest.page
    page.goto(link)
    assert wait_ready(page) == "micropython"
    started = time.monotonic()
    bound_ms = UNREACHABLE_MS + ATTEMPT_MS
    page.wait_for_selector(sel("unreachable"), timeout=bound_ms + 5000)
    took = (time.monotonic() - started) * 1000
    text = page.inner_text(sel("unreachable"))
    assert "this network can\u2019t reach their phone" in text, text
    # never "the host is away", while it keeps trying in the background
    for _ in range(10):
        banners.append(page.evaluate(
            "(() => { const b = document.querySelector('[data-testid=connection]');"
            " return b ? b.textContent : null; })()"))
        page.wait_for_timeout(300)
    assert not [b for b in banners if b and "away" in b], banners
    assert page.locator(sel("unreachable")).count() == 1
    # the host sees that a friend could not connect
    host.page.wait_for_selector(sel("friend-blocked"), timeout=T)
    print("unreachable shown after %.0f ms (bound %d ms)" % (took, bound_ms))
    assert host.errors == [] and guest.errors == []
