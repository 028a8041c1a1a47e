"""What the screens say about the network between phones: a browser without
WebRTC (`no_webrtc_note`, the landing's `friends_box`), a network that cannot reach the
host's phone, and, on the host, a friend who could not connect (`network_banner`). Pure
(ui/page/dom/vdom.py trees), like ui/page/screens/screens.py, which places them.
"""

from ui.page.dom.vdom import h
from ui.page.screens.viewmodel import read
from ui.page.screens.widgets import button, needs_name

BROWSERS = ("browser_safari", "browser_chrome", "browser_any")


def no_webrtc_note(model, ctx, solo=True):
    """This browser cannot play with friends (no WebRTC: ui/page/net/netcheck.py): said once,
    with a browser that can (the model's `browser`, one of BROWSERS, else the general one)
    and, when `solo` (a page other than the landing), the way to solo."""
    browser = read(model, "browser", "browser_any")
    if browser not in BROWSERS:
        browser = "browser_any"
    return h("div", {"class": "banner host_gone", "data-testid": "no-webrtc", "role": "alert"},
             h("strong", None, ctx.t("no_webrtc_title")), " ",
             ctx.t("no_webrtc", browser=ctx.t(browser)),
             " " if solo else None,
             h("a", {"class": "btn", "href": "./", "data-testid": "play-solo-instead"},
               ctx.t("no_webrtc_solo")) if solo else None)


def friends_box(model, ctx, ok):
    """The landing's Play with friends: Create a room (widgets.needs_name: `ok`, a name is
    typed; without one a tap asks for it); in
    a browser without WebRTC (the model's `webrtc` False), why it cannot, before any Peer
    is made (the solo box below works)."""
    if read(model, "webrtc", True) is False:
        return h("section", {"class": "card-box"},
                 h("h2", None, ctx.t("with_friends")), no_webrtc_note(model, ctx, solo=False))
    return h("section", {"class": "card-box"},
             h("h2", None, ctx.t("with_friends")),
             h("p", {"class": "hint"}, ctx.t("with_friends_hint")),
             needs_name(ctx, ok, "create-room", ctx.t("create_room"), "create_room",
                        "btn primary big"))


def network_banner(model, ctx, leave):
    """The banner for a model whose status is "unreachable" (the host answers, no channel
    opens: this network is why; still trying; a seated player gets `leave`, a node) or, on
    the host, whose `friend_blocked` is set; None otherwise."""
    if read(model, "is_host", False):
        if not read(model, "friend_blocked", False):
            return None
        return h("div", {"class": "banner host-note", "data-testid": "friend-blocked",
                         "role": "status"}, ctx.t("conn_friend_blocked"))
    if read(model, "status") != "unreachable":
        return None
    return h("div", {"class": "banner host_gone", "data-testid": "unreachable",
                     "role": "status"}, ctx.t("conn_unreachable"),
             " ", leave if read(model, "seat") is not None else None)


def no_relay_note(model, ctx):
    """This page got no TURN credentials from its signaling server (the model's `no_relay`,
    boot.js `crisp.turn` "failed"): it plays on with direct paths only, and says so
    discreetly (a friend on a network that blocks them cannot get in); None otherwise."""
    if not read(model, "no_relay", False):
        return None
    return h("div", {"class": "banner host-note", "data-testid": "no-relay", "role": "status"},
             ctx.t("conn_no_relay"))
