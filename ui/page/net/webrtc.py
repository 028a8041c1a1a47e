"""The browser's WebRTC, as the pages need to know it (browser only, through `js`): whether
this browser has data channels at all (boot.js `crisp.webrtc`), how a connection attempt
stands (boot.js `crisp.channelState`), and what the screens say about it (`describe`,
`report`, `incapable`; the decisions are ui/page/net/netcheck.py's and ui/page/net/link.py's).
"""

import js

from ui.page.net.netcheck import INCOMPATIBLE, capable_browser

def webrtc_ok():
    """True when this browser has WebRTC data channels (boot.js `crisp.webrtc`, checked
    before any Peer is made): without them a page never makes a Peer."""
    try:
        return js.crisp.webrtc is True
    except Exception:
        return False


def no_relay():
    """True when this page asked its signaling server for TURN credentials and got none
    (boot.js `crisp.turn` "failed"): it plays on with direct paths only."""
    try:
        return js.crisp.turn == "failed"
    except Exception:
        return False


def channel_state(conn):
    """boot.js `crisp.channelState(conn)`: "failed" | "answered" | "asked" | ""."""
    if conn is None:
        return ""
    try:
        state = js.crisp.channelState(conn)
    except Exception:
        return ""
    return state if isinstance(state, str) else ""


def describe(model, net=None, now=None):
    """Write onto a page's model what its screens say about the network (ui/screens.py):
    `webrtc` (False: this browser cannot play with friends), `browser` (the i18n key of
    one that can, ui/page/net/netcheck.py), and on a host page (`net` its HostNet, `now` ms)
    `friend_blocked` (a friend's connection arrived and never opened, lately); `no_relay`
    (no TURN credentials from the signaling server, `no_relay`)."""
    model.webrtc = webrtc_ok()
    model.no_relay = no_relay()
    if not model.webrtc:
        try:
            agent = js.navigator.userAgent
        except Exception:
            agent = None
        model.browser = capable_browser(agent if isinstance(agent, str) else None)
    friends = getattr(net, "friends", None)
    model.friend_blocked = friends is not None and now is not None and friends.showing(now)
    return model


def incapable(kind, model):
    """A host page's net error `kind`: True (and its `model` says "no_webrtc", once, for
    good) when it is PeerJS's browser-incompatible; else False and nothing changes."""
    if kind != INCOMPATIBLE:
        return False
    describe(model)
    model.set_status("no_webrtc")
    return True


def report(net, link, now, model=None):
    """Tell a guest's Link (ui/page/net/link.py) how its GuestNet stands: it cannot work at all
    (no WebRTC: `no_webrtc`, and `model` learns which browser can), or the current attempt's
    host answered (it is there), or that attempt's ICE failed (the network's fault); `model`
    learns whether this page has no TURN relay (`no_relay`)."""
    if model is not None:
        model.no_relay = no_relay()
    if net.incapable:
        if not link.incapable:
            link.no_webrtc()
            if model is not None:
                describe(model)
        return
    state = net.attempt()
    if state in ("answered", "failed"):
        link.answered(now)
    if state == "failed":
        link.blocked(now)
