"""A browser without WebRTC (issue 21, item 1): Debian's WebKitGTK, some in-app web views and
locked-down browsers have no RTCPeerConnection. An init script removes it (and
RTCDataChannel) before the page's scripts run. Then no page makes a PeerJS Peer (no
websocket to the signaling server), nothing retries, the console says it once at most, and
the player reads why, which browser can play with friends, and that solo works:
- a guest link: the banner `no-webrtc` with `play-solo-instead`, no join form;
- the landing: `no-webrtc` instead of Create room and the room code; solo plays.
"""

from crisp_e2e import wait_ready
from crisp_e2e import T, sel

NO_WEBRTC = """
delete window.RTCPeerConnection;
delete window.webkitRTCPeerConnection;
delete window.RTCDataChannel;
"""


def no_webrtc_phone(new_phone, path):
    phone = new_phone(reduced_motion="reduce")
    phone.context.add_init_script(NO_WEBRTC)
    phone.goto(path)
    assert wait_ready(phone.page) == "micropython"
    assert phone.page.evaluate("window.crisp.webrtc") is False
    return phone


def no_peer_and_no_spam(phone):
    """No signaling websocket was ever opened, and the console said it once at most."""
    signaling = [u for u in phone.requests if "/peerjs/" in u and "/vendor/" not in u]
    assert signaling == [], signaling
    said = [text for _, text in phone.console if "browser-incompatible" in text]
    assert len(said) <= 1, said
    assert phone.errors == []


def test_a_guest_link_says_this_browser_cannot_play_with_friends(new_phone):
    phone = no_webrtc_phone(new_phone, "/?room=crisp-" + "7" * 32)
    page = phone.page
    note = page.wait_for_selector(sel("no-webrtc"), timeout=T)
    text = note.inner_text()
    assert "can\u2019t play with friends" in text and "Firefox or Chrome" in text, text
    assert page.locator(sel("join-room")).count() == 0     # no form that could never work
    # it says it once and plainly: the same text a while later, nothing retried meanwhile
    page.wait_for_timeout(3000)   # (a window for retries to show: there must be none)
    assert page.inner_text(sel("no-webrtc")) == text
    no_peer_and_no_spam(phone)
    # solo works: the way there is the landing, which offers it
    page.click(sel("play-solo-instead"))
    page.wait_for_selector(sel("play-solo"), timeout=T)
    assert "room=" not in page.url


def test_the_landing_offers_solo_instead_of_create_room_and_solo_plays(new_phone):
    phone = no_webrtc_phone(new_phone, "/?botpace=0.1")
    page = phone.page
    note = page.wait_for_selector(sel("no-webrtc"), timeout=T)
    assert "Firefox or Chrome" in note.inner_text()
    assert page.locator(sel("create-room")).count() == 0
    assert page.locator(sel("room-code")).count() == 0
    page.fill(sel("player-name"), "Sol")
    page.select_option(sel("solo-bots"), "1")
    page.click(sel("play-solo"))
    page.click(sel("ready", ":not([disabled])"), timeout=T)
    page.wait_for_selector(sel("deck"), timeout=T)
    no_peer_and_no_spam(phone)
