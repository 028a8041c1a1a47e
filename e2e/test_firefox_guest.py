"""A round between browsers of two makers: a Chromium host and a Firefox guest (Debian's
firefox-esr, driven by puppeteer-core over WebDriver BiDi), joined by the room link, playing by
taps over a real WebRTC data channel between the two engines' WebRTC stacks.

Firefox here offers no loopback ICE candidate, so the test runs in a network namespace of its
own (e2e/firefox_phone.py): the server, Chromium and Firefox all inside it, nothing routed out.

The stacked deck (the host page's test-only `?deck=`) makes every draw known:
    deal (dealer = host, seat 0):  Ana (1): 2c 9d 5h   Hana (0): 7h Ah 8s
    Ana draws 6d, swaps it into her center (9d to the discard)        R3.2
    Hana draws Jc and uses it: she sees her center Ah                 R4.4
    Ana draws 9c, discards it and calls crisp                         R6, R10.1
    the last turn (R6.2): Hana draws 8d and discards it
    hands: Hana 7h Ah 8s = 16, Ana 2c 6d 5h = 13 - 5 (lowest caller, R7.2) = 8
"""

import pytest

from crisp_e2e import CHROMIUM, LAUNCH_ARGS, PHONE, wait_ready
from firefox_phone import FirefoxPhone, can_run, chromium_in, private_net, serve_in
from crisp_e2e import face_down, live, sel, shows
from test_smoke import wait_engine

DECK = ["2c", "7h", "9d", "Ah", "5h", "8s", "6d", "Jc", "9c", "8d"]
T = 60_000   # ms: Firefox and Chromium side by side on a loaded 2-core machine


@pytest.fixture(scope="module")
def two_browsers(site, playwright_instance, tmp_path_factory):
    """(NetSite, Chromium browser, Firefox phone), all in a namespace of the test's own."""
    reason = can_run()
    if reason:
        pytest.skip(reason)
    with private_net() as ns:
        with serve_in(ns, site.dist) as net_site:
            launcher = chromium_in(ns, CHROMIUM, str(tmp_path_factory.mktemp("ns")))
            chromium = playwright_instance.chromium.launch(executable_path=launcher,
                                                           args=LAUNCH_ARGS)
            firefox = FirefoxPhone(ns)
            try:
                yield net_site, chromium, firefox
            finally:
                firefox.close()
                chromium.close()


def test_a_firefox_guest_plays_a_round_with_a_chromium_host(two_browsers):
    net_site, chromium, ana = two_browsers
    try:
        play_the_round(net_site, chromium, ana)
    except AssertionError:
        # what the Firefox page showed and said, for the report
        print("Firefox console:", *ana.console[-30:], sep="\n  ")
        print("Firefox page:", ana.evaluate("document.body.innerText.slice(0, 600)"))
        raise


def play_the_round(net_site, chromium, ana):
    assert ana.version.startswith("firefox/"), ana.version
    context = chromium.new_context(**PHONE, reduced_motion="reduce")
    hp = context.new_page()
    host_errors = []
    hp.on("pageerror", lambda e: host_errors.append(str(e)))

    # -- Hana hosts in Chromium
    hp.goto(net_site.url("/?deck=" + ",".join(DECK)))
    assert wait_ready(hp) == "micropython"
    hp.fill(sel("player-name"), "Hana")
    live(hp, "create-room")
    hp.wait_for_selector(sel("room-link"), timeout=T)
    link = hp.inner_text(sel("room-link")).strip()
    assert "?room=crisp-" in link
    wait_engine(hp)   # this test is about Firefox, not about a join while the engine starts

    # -- Ana opens the link in Firefox and joins
    ana.goto(link)
    ana.wait_for_function("!!(document.body && document.body.dataset.ready)", timeout=T)
    assert ana.evaluate("navigator.userAgent").find("Firefox") >= 0
    ana.fill(sel("player-name"), "Ana")
    live(ana, "join-room", timeout=T)
    for page in (hp, ana):
        page.wait_for_selector(sel("player-1"), timeout=T)
    assert "Ana" in hp.inner_text(sel("player-list"))
    assert "Hana" in ana.inner_text(sel("player-list"))

    # -- the peek (R2.4)
    live(hp, "start-game", timeout=T)
    shows(ana, "card-1-left", "2c", timeout=T)
    shows(ana, "card-1-right", "5h")
    shows(hp, "card-0-left", "7h")
    assert face_down(ana, "card-1-center") and face_down(ana, "card-0-left")
    for page in (hp, ana):
        live(page, "ready")
    ana.wait_for_selector(sel("card-1-left", ":not([data-card])"), timeout=T)   # R9.2

    # -- Ana: draws 6d, swaps it into her center
    live(ana, "deck")
    shows(ana, "held-card", "6d")
    live(ana, "card-1-center")
    for page in (hp, ana):
        shows(page, "discard", "9d")

    # -- Hana: the Jack, her own center (R4.4); Ana does not see it
    live(hp, "deck")
    shows(hp, "held-card", "Jc")
    live(hp, "use-special")
    shows(hp, "card-0-center", "Ah")
    assert face_down(ana, "card-0-center")

    # -- Ana: draws 9c, discards it and calls within the 3 s window (R10.1)
    live(ana, "deck")
    shows(ana, "held-card", "9c")
    live(ana, "discard-held")
    live(ana, "crisp", timeout=2500)
    hp.wait_for_selector(sel("event-log", ":has-text('Ana called crisp')"), timeout=T)

    # -- Hana's last turn, then the results on both browsers (R7)
    live(hp, "deck")
    shows(hp, "held-card", "8d")
    live(hp, "discard-held")
    points = {0: 16, 1: 8}
    for page in (hp, ana):
        page.wait_for_selector(sel("round-results"), timeout=T)
        for seat, total in points.items():
            assert page.inner_text(sel("score-%d" % seat)).strip() == str(total)

    # -- the guest's data channel is Firefox's own WebRTC, open to the host
    assert ana.evaluate("typeof RTCPeerConnection") == "function"
    assert host_errors == [] and ana.errors == [], (host_errors, ana.errors)
    context.close()
