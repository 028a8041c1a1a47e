"""A phone that changes networks (issue 14, item 1): its signaling socket dies without the
server hearing of it and its data channels go quiet; it must find its way back by itself.

The phone opens the page through a TCP proxy on loopback (e2e/tcp_proxy.py); the test resets
the proxy's client-side sockets while the server-side ones stay open (the signaling server
still thinks the phone is there) and silences the phone's data channels that exist at that
moment (WebRTC on loopback does not go through the proxy). Sockets opened in the next STALL_S
seconds hang for ever (the phone between networks: no answer, no error); later sockets and new
channels work (the phone is on its new network).

The stacked deck (3 players, dealer = host, seat 0), as in test_reconnect.py:
    Ana (1): 2c 9d 5h   Bea (2): 3s Td 4c   Hana (0): 7h Ah 8s;  then 6d Jc Qs Kd 3h 9c 8d 8c
"""

import re
import time

from crisp_rooms import join_room, no_errors, open_room, report, wait_away
from tcp_proxy import TcpProxy
from test_reconnect import DECK, QUERY
from crisp_e2e import T, live, sel, shows

STALL_S = 10

# Silences the data channels that exist when window.__crispSilence() is called: nothing goes
# out on them and nothing that arrives on them is delivered; no channel closes. Channels made
# later work (the phone's new network).
SILENCE = """
(() => {
  const channels = new Set();
  window.__crispSilence = () => { for (const c of channels) c.__crispSilent = true; };
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function () {
    channels.add(this);
    if (this.__crispSilent) return;
    return send.apply(this, arguments);
  };
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, listener, options) {
    channels.add(this);
    if (type === "message") {
      const inner = listener, channel = this;
      listener = function () { if (!channel.__crispSilent) return inner.apply(this, arguments); };
    }
    return add.call(this, type, listener, options);
  };
})();
"""


def through(proxy, site, link):
    """The room link, opened through the proxy's port (same host name, another port)."""
    return link.replace("127.0.0.1:%d/" % site.port, "127.0.0.1:%d/" % proxy.port)


def test_a_guest_whose_network_changed_is_back_at_its_seat_by_itself(new_phone, site, timings):
    proxy = TcpProxy(site.port)
    try:
        host_phone, link = open_room(new_phone, "Hana", QUERY, site=site)
        hp = host_phone.page

        # Ana joins through the proxy (her phone's Wi-Fi); Bea directly
        ana = join_room(new_phone, through(proxy, site, link), "Ana", 1, (hp,), init=SILENCE)
        ap = ana.page
        bea = join_room(new_phone, link, "Bea", 2, (hp, ap))
        bp = bea.page
        live(hp, "start-game")
        for p in (hp, ap, bp):
            live(p, "ready")
        live(ap, "deck")
        shows(ap, "held-card", "6d")

        # the network changes: sockets reset, the server none the wiser, channels quiet
        ap.evaluate("window.__crispSilence()")
        proxy.abort(STALL_S)
        t0 = time.monotonic()
        wait_away(hp, 1, timeout=15_000)                 # the host saw her go quiet
        # no tap: her seat, her drawn card, the others see her connected
        wait_away(hp, 1, flag=False, timeout=15_000)
        back = (time.monotonic() - t0) * 1000
        ap.wait_for_selector(sel("connection"), state="detached", timeout=5_000)
        shows(ap, "held-card", "6d", timeout=5_000)
        report(timings, "network change: guest back at its seat (abort to connected)", [back])
        assert back < 15_000, back

        # and plays on: the table hears her
        live(ap, "discard-held")
        for p in (hp, ap, bp):
            shows(p, "discard", "6d")
        no_errors(host_phone, ana, bea)
    finally:
        proxy.close()


class SignalingCut:
    """The host page's signaling websockets through Playwright's websocket routes (its page
    stays on the site: Pyodide through the TCP proxy is slow to load on a busy machine).
    `cut(stall_s)`: the page's sockets close as a dead network's do while the server's stay
    open; sockets opened in the next `stall_s` seconds are answered by nobody (open, then not
    a word: PeerJS waits for ever)."""

    def __init__(self, context):
        self.routes = []
        self.stall_until = 0.0
        context.route_web_socket(re.compile(r".*/peerjs/peerjs\?.*"), self._route)

    def _route(self, ws):
        if time.monotonic() < self.stall_until:
            return                            # nobody answers
        ws.on_close(lambda *a: None)          # the page's side closing leaves the server's open
        ws.connect_to_server()
        self.routes.append(ws)

    def cut(self, stall_s):
        self.stall_until = time.monotonic() + stall_s
        routes, self.routes = self.routes, []
        for ws in routes:
            ws.close(code=4000, reason="network gone")


def test_a_host_whose_network_changed_takes_new_players_again(new_phone, site, timings):
    cuts = []
    host, link = open_room(new_phone, "Hana", QUERY, site=site, init=SILENCE,
                           prepare=lambda p: cuts.append(SignalingCut(p.context)))
    signaling = cuts[0]
    hp = host.page
    hp.wait_for_selector(sel("connection"), state="detached", timeout=T)
    ana = join_room(new_phone, link, "Ana", 1, (hp,))
    ap = ana.page

    hp.evaluate("window.__crispSilence()")
    signaling.cut(STALL_S)
    t0 = time.monotonic()
    # the host says new players cannot join while it lost the signaling server...
    hp.wait_for_selector(sel("connection"), timeout=10_000)
    # ...and stops saying it once it has the room id again
    hp.wait_for_selector(sel("connection"), state="detached", timeout=STALL_S * 1000 + 15_000)
    note = (time.monotonic() - t0) * 1000
    report(timings, "network change: host's note gone (cut to registered)", [note])
    assert note < STALL_S * 1000 + 15_000
    # Ana is back (a new channel), and a new player can join
    wait_away(hp, 1, flag=False, timeout=20_000)
    join_room(new_phone, link, "Bea", 2, (hp, ap))
    no_errors(host, ana)
