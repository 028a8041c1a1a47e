"""A guest's side of the peer-to-peer transport (ui/page/net/net.py): a Peer with a server-given
id and one data connection to the room (browser only; MicroPython)."""

import js

from ui.page.browser import Timer
from ui.page.net.net import (CONNECT_OPTIONS, REGISTER_MS, _close, _error_text, _error_type,
                         _Handlers, _now, _Registration, _shape, _text, incapable, revive)
from ui.page.net.netcheck import unavailable_concerns
from ui.page.net.webrtc import channel_state, webrtc_ok
from ui.shared.gate import acceptable


class GuestNet(_Registration):
    """A guest's side: a Peer with a server-given id and one data connection to the room.

    Callbacks: on_open() (the connection to the host is open), on_text(text),
    on_lost(missing) (it closed or could not be opened; missing: the signaling server knows
    no peer with the room id, "peer-unavailable"), on_error(kind) (PeerJS error types, and
    "disconnected" when the signaling server is lost: the page may doubt its connection).
    The Peer registers again by itself (`revive`), also when an attempt hangs.
    The page decides when (ui/page/net/link.py): `connect()` opens a new connection (making the Peer
    again first if PeerJS destroyed it, or reconnecting it to the server), `drop()` closes
    the current one without a callback. `registered`: the Peer reaches the signaling server.
    """

    def __init__(self, room_id, on_open, on_text, on_lost, on_error, on_call=None):
        self.room_id = room_id
        self.on_open, self.on_text, self.on_lost, self.on_error = (
            on_open, on_text, on_lost, on_error)
        self.on_call = on_call        # a connection someone opened to us: (text, answer, close)
        self.conn = None
        self.open = False
        self.handlers = _Handlers()
        self.peer = None
        self.registered = False
        self.wanted = False
        self.tries = 0
        self.asked_at = 0
        self.closed = False
        self.incapable = False    # no WebRTC here: no Peer, no retry (`incapable`)
        self.lost_to_ice = False  # the last connection lost was one whose ICE failed
        self.watch = Timer(self._check)
        self._new_peer()

    UP = "registered"

    def attempt(self):
        """Where the current attempt's negotiation stands (boot.js channelState): "answered"
        (the host's page answered through the signaling server: it is there), "failed" (ICE
        failed), "asked", or "" when there is no attempt or it is open. For ui/page/net/link.py
        (`answered`, `blocked`): the network's fault, not the host's."""
        if self.conn is None or self.open:
            return ""
        return channel_state(self.conn)

    def peer_id(self):
        """This page's PeerJS id (bound into the seat proof), or "" before it has one."""
        try:
            pid = self.peer.id
        except Exception:
            return ""
        return pid if isinstance(pid, str) else ""

    def _new_peer(self):
        self.registered = False
        if not webrtc_ok():
            incapable(self)
            return
        peer = js.crisp.newPeer(None, None, self.room_id)
        self.peer = peer
        self.asked_at = _now()
        self._watch(REGISTER_MS)
        self.handlers.on(peer, "open", lambda *a: self._registered(peer))
        self.handlers.on(peer, "disconnected", lambda *a: self._unregistered(peer))
        self.handlers.on(peer, "error", lambda err: self._error(peer, err))
        self.handlers.on(peer, "connection", lambda conn: self._incoming(peer, conn))
        self.handlers.on(peer, "call", lambda call: _close(call))

    def _incoming(self, peer, conn):
        """A data connection someone opened to this page: closed at once unless the page
        listens (`on_call`) and it is opened as Crisp's pages open theirs; then each text on
        it goes to `on_call(text, answer, close)` (answer(text) sends on it, close() ends it).
        Guests take one message this way: a new host's `moved` (docs/protocol.md)."""
        serialization, reliable, metadata = _shape(conn)
        if peer is not self.peer or self.on_call is None \
                or not acceptable(serialization, reliable, metadata):
            _close(conn)
            return

        def answer(text):
            try:
                if conn.open:
                    conn.send(text)
            except Exception:
                pass

        self.handlers.on(conn, "data", lambda data: self.on_call(
            _text(data), answer, lambda: _close(conn)))
        closer = Timer(lambda: _close(conn))     # one message, soon, or nothing
        closer.at(10000)
        self.handlers.proxies.append(closer)

    def _ensure(self):
        self.closed = False
        revive(self)

    def _registered(self, peer):
        if peer is not self.peer:
            return
        self._up_now()
        if self.wanted:
            self.connect()

    def _unregistered(self, peer):
        # the open data connection, if any, goes on, ready for a new one once registered
        self._lost_server(peer)

    def _error(self, peer, err):
        kind = self._peer_error(peer, err)
        if kind is None:
            return
        if kind == "peer-unavailable" and unavailable_concerns(
                _error_text(err), self.room_id, self.open):
            self._lost(self.conn, True)       # (not one about an earlier attempt: netcheck.py)
        self.on_error(kind)

    def connect(self):
        """Open a new data connection to the room (once the Peer is registered)."""
        self.drop()
        self.wanted = True
        if not self.registered:
            self._ensure()
            return
        self.wanted = False
        try:
            conn = self.peer.connect(self.room_id, js.JSON.parse(CONNECT_OPTIONS))
        except Exception:
            conn = None
        if conn is None:
            return
        self.conn = conn
        self.handlers.on(conn, "open", lambda *a: self._opened(conn))
        self.handlers.on(conn, "data", lambda data: self._data(conn, data))
        self.handlers.on(conn, "close", lambda *a: self._lost(conn, False))
        self.handlers.on(conn, "error", lambda *a: self._conn_error(conn, a[0] if a else None))

    def _conn_error(self, conn, err):
        # PeerJS: "negotiation-failed" when the connection's ICE failed (then it closes it)
        ice = _error_type(err) == "negotiation-failed" or channel_state(conn) == "failed"
        if conn is self.conn:
            self.lost_to_ice = ice and not self.open
        self._lost(conn, False)

    def drop(self):
        """Close the current data connection, if any, without calling on_lost."""
        old = self.conn
        self.conn = None
        self.open = False
        self.wanted = False
        if old is not None:
            try:
                old.close()
            except Exception:
                pass

    def shutdown(self):
        """The page is going away: close the connection (the host hears it at once)."""
        self.drop()
        self._stop()

    def _opened(self, conn):
        if conn is self.conn:
            self.lost_to_ice = False
            self.open = True
            self.on_open()

    def _data(self, conn, data):
        if conn is self.conn:
            self.on_text(_text(data))

    def _lost(self, conn, missing):
        if conn is not None and conn is self.conn:
            if not self.open and channel_state(conn) == "failed":
                self.lost_to_ice = True
            self.drop()
            self.on_lost(missing)
            self.lost_to_ice = False

    def send(self, text):
        if self.conn is None or not self.open:
            return False
        try:
            self.conn.send(text)
            return True
        except Exception:
            return False
