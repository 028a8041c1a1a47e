"""The peer-to-peer transport: PeerJS data connections carrying JSON text (browser only).

This module is what both sides share: a Peer's registration with the signaling server and
its revival (`revive`, `_Registration`), the event handlers, reading a connection's shape
and PeerJS's errors. The host's side is `HostNet` (ui/page/net/net_host.py), a guest's
`GuestNet` (ui/page/net/net_guest.py).

Thin on purpose (docs/design.md "The shape": functions that act are thin and tested end to end). Runs on
Pyodide (host) and MicroPython (guests) through `js` and `pyscript.ffi`. The signaling server
comes from the build's config (boot.js: `window.crisp.newPeer(id)`).

Connections are opened with `reliable: true` (ordered delivery) and `serialization: "raw"`
(strings go through the data channel as they are; docs/protocol.md "Room messages").
"""

import js
from pyscript.ffi import create_proxy

from ui.page.browser import Timer
from ui.page.net.link import backoff
from ui.page.net.netcheck import INCOMPATIBLE

CONNECT_OPTIONS = '{"reliable": true, "serialization": "raw"}'


def _text(data):
    """A received payload as Python text, or None when it is not a string."""
    return data if isinstance(data, str) else None


def _shape(conn):
    """A data connection's (serialization, reliable, metadata): metadata as its JSON text,
    None when there is none (JS undefined or null)."""
    serialization = conn.serialization
    reliable = conn.reliable
    try:
        meta = js.JSON.stringify(conn.metadata)
    except Exception:
        meta = "?"
    if not isinstance(meta, str) or meta == "null":
        meta = None
    return (serialization if isinstance(serialization, str) else None,
            reliable is True, meta)


def _error_type(err):
    try:
        kind = err.type
        if isinstance(kind, str):
            return kind
    except Exception:
        pass
    return str(err)


def _error_text(err):
    """A PeerJS error's message (text), or None."""
    try:
        text = err.message
        return text if isinstance(text, str) else None
    except Exception:
        return None


# A Peer asked to register (new, or reconnecting) that has reported nothing after this long
# is stuck: its websocket hangs on a network that went away (a phone between networks: no
# open, no close, no error for minutes). Start that attempt over.
REGISTER_MS = 5000
# After the signaling server was lost (or an attempt failed): try again after these waits
# (attempts since the Peer was last open), then every RETRY_MS[-1].
RETRY_MS = (1000, 2000, 4000, 8000)


def _now():
    """The wall clock, ms. boot.js's crisp.now() (never a whole number): MicroPython's FFI
    wraps a JS whole number above 2**31, so Date.now() itself would jump every 24.8 days."""
    return float(js.crisp.now())


def _is_open(peer):
    try:
        return peer.open is True and not peer.disconnected and not peer.destroyed
    except Exception:
        return False


def incapable(net):
    """`net` cannot make a Peer (no WebRTC, or PeerJS said browser-incompatible): it stops
    for good, and tells its page once, in a task of its own (never from its constructor)."""
    if net.incapable:
        return
    net.incapable = True
    net.watch.cancel()
    if net.peer is not None:
        _destroy(net.peer)
    tell = Timer(lambda: net.on_error(INCOMPATIBLE))
    tell.at(0)
    net.handlers.proxies.append(tell)


def retry_ms(tries):
    """The wait (ms) before registering again after `tries` attempts since the last open."""
    return backoff(tries + 1, RETRY_MS)


def revive(net):
    """Get `net`'s Peer registered with the signaling server again: a new Peer (`net._new_peer`)
    when PeerJS destroyed ours, a reconnect when only its socket to the server dropped, and,
    when an attempt has reported nothing for REGISTER_MS (neither open, disconnected nor
    destroyed: a socket hanging on a dead network), that attempt dropped and made again (a
    reconnect with the same id, which keeps the open data connections; a new Peer when it
    never got an id). Arms a check (`net._watch`) that calls this again until the Peer is
    open, so a page that never asks again still gets there. Safe to call any time; never
    raises. `net` has: peer, tries (attempts since the last open), asked_at (ms of the last
    attempt), incapable (no WebRTC: nothing to revive, ever), _new_peer(), _watch(ms)."""
    if net.incapable:
        return
    peer = net.peer
    now = _now()
    try:
        if _is_open(peer):
            net.tries = 0
            return
        if peer.destroyed:
            net.tries += 1
            net._new_peer()
            return
        if peer.disconnected:
            peer.reconnect()
        elif now - net.asked_at < REGISTER_MS:
            net._watch(REGISTER_MS - (now - net.asked_at))    # still trying: give it time
            return
        else:
            pid = peer.id
            if not isinstance(pid, str) or not pid:
                _destroy(peer)            # never got an id: nothing on it to keep
                net.tries += 1
                net._new_peer()
                return
            peer.disconnect()             # closes the hanging socket; data connections stay
            peer.reconnect()
    except Exception:
        _destroy(peer)
        net.tries += 1
        net._new_peer()
        return
    net.tries += 1
    net.asked_at = now
    net._watch(REGISTER_MS)


def _destroy(peer):
    try:
        peer.destroy()
    except Exception:
        pass


def _close(conn):
    try:
        conn.close()
    except Exception:
        pass


class _Handlers:
    """Keeps the JS proxies of our callbacks alive (and in one place)."""

    def __init__(self):
        self.proxies = []

    def on(self, target, event, fn):
        proxy = create_proxy(fn)
        self.proxies.append(proxy)
        target.on(event, proxy)


class _Registration:
    """What HostNet and GuestNet share about their Peer's registration with the signaling
    server. `UP` names the attribute that says it is registered now (HostNet's `open`,
    GuestNet's `registered`); each has peer, watch (a Timer), tries, closed, incapable and
    on_error."""

    UP = None

    def _watch(self, ms):
        self.watch.at(ms)

    def _check(self):
        if not self.closed and not getattr(self, self.UP):
            revive(self)

    def _stop(self):
        """For good (the page goes away): no registration again, and the Peer destroyed,
        which frees its id on the server now."""
        setattr(self, self.UP, False)
        self.closed = True
        self.watch.cancel()
        try:
            self.peer.destroy()
        except Exception:
            pass

    def _up_now(self):
        setattr(self, self.UP, True)
        self.tries = 0
        self.watch.cancel()

    def _lost_server(self, peer):
        """Our Peer lost the signaling server only: open data connections go on; it
        registers again soon (a lost server often means a new network)."""
        if peer is self.peer and not self.incapable:
            setattr(self, self.UP, False)
            self._watch(retry_ms(self.tries))
            self.on_error("disconnected")

    def _peer_error(self, peer, err):
        """A PeerJS error `err` from `peer`: its kind (text) for the page, or None when it
        is not our Peer's or is handled here (browser-incompatible: no Peer from now on)."""
        if peer is not self.peer:
            return None
        kind = _error_type(err)
        if kind == INCOMPATIBLE:
            setattr(self, self.UP, False)
            incapable(self)               # says it once; PeerJS would only say it again
            return None
        if peer.destroyed or peer.disconnected:
            setattr(self, self.UP, False)
        return kind
