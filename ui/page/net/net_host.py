"""The host's side of the peer-to-peer transport (ui/page/net/net.py): a Peer with the room id
accepting every guest's data connection (browser only; Pyodide)."""

import js

from ui.page.browser import Timer
from ui.page.net.link import UNREACHABLE_MS, backoff
from ui.page.net.net import (CONNECT_OPTIONS, REGISTER_MS, _Handlers, _now, _Registration,
                         _shape, _text, incapable, revive)
from ui.page.net.netcheck import FriendNote
from ui.page.net.webrtc import webrtc_ok
from ui.shared.gate import acceptable


class HostNet(_Registration):
    """The host's side: a Peer with the room id, accepting every guest's data connection.

    Callbacks: on_open() (the room id is registered: guests can connect), on_conn(cid, peer)
    (a data connection arrived from PeerJS id `peer`; it may not be open yet),
    on_text(cid, text) (text is None for a non-text payload),
    on_close(cid), on_error(kind) (PeerJS error types, and "disconnected" when the signaling
    server is lost). `cid` is a short string naming the connection.

    After an error the page calls `ensure()` (with backoff): a new Peer with the room id when
    PeerJS destroyed ours (`unavailable-id`: the server still holds the id of a reloaded or
    crashed page for a while), a reconnect when it only lost the server (open data
    connections go on meanwhile).

    A connection not opened the way Crisp's pages open one (ui/shared/gate.py `acceptable`: "raw"
    serialization, reliable, no metadata) is closed at once and never reported; so is any
    media call. `token`: this room's PeerJS token, kept across reloads so that the signaling
    server gives the room id back to this host first (tools/serve.mjs keeps it reserved).
    """

    def __init__(self, room_id, on_open, on_conn, on_text, on_close, on_error, token=None):
        self.room_id = room_id
        self.token = token
        self.on_open, self.on_conn, self.on_text = on_open, on_conn, on_text
        self.on_close, self.on_error = on_close, on_error
        self.conns = {}
        self.count = 0
        self.open = False
        self.handlers = _Handlers()
        self.peer = None
        self.tries = 0            # registrations tried since the Peer was last open
        self.asked_at = 0
        self.closed = False
        self.incapable = False    # no WebRTC here: no Peer, no retry (`incapable`)
        self.friends = FriendNote()   # a guest whose connection never opened
        self.watch = Timer(self._check)
        self._new_peer()

    UP = "open"

    def _new_peer(self):
        self.open = False
        if not webrtc_ok():
            incapable(self)
            return
        peer = js.crisp.newPeer(self.room_id, self.token)
        self.peer = peer
        self.asked_at = _now()
        self._watch(REGISTER_MS)
        self.handlers.on(peer, "open", lambda *a: self._opened(peer))
        self.handlers.on(peer, "connection", lambda conn: self._connection(peer, conn))
        self.handlers.on(peer, "call", lambda call: self._refuse(call))
        self.handlers.on(peer, "disconnected", lambda *a: self._disconnected(peer))
        self.handlers.on(peer, "error", lambda err: self._error(peer, err))

    def ensure(self):
        """Get registered again if we are not (see the class doc). Safe to call any time."""
        self.closed = False
        revive(self)

    def _opened(self, peer):
        if peer is self.peer:
            self._up_now()
            self.on_open()

    def _disconnected(self, peer):
        # the page also calls ensure() to register the room id again, so that new (and
        # reloaded) guests can still reach this room
        self._lost_server(peer)

    def _error(self, peer, err):
        kind = self._peer_error(peer, err)
        if kind is not None:
            self.on_error(kind)

    def _refuse(self, conn):
        try:
            conn.close()
        except Exception:
            pass

    def _connection(self, peer, conn):
        serialization, reliable, metadata = _shape(conn)
        if not acceptable(serialization, reliable, metadata):
            # Not one of our pages: PeerJS's "binary" serialization, for one, buffers the
            # chunks of a message that never ends. Close before any byte arrives.
            self._refuse(conn)
            return
        self.count += 1
        cid = "c" + str(self.count)
        self.conns[cid] = conn
        remote = conn.peer
        remote = remote if isinstance(remote, str) else None
        self.on_conn(cid, remote)
        ever = []                         # [True] once it opened
        self.handlers.on(conn, "open", lambda *a: self._conn_opened(ever, remote))
        self.handlers.on(conn, "data", lambda data: self._data(cid, data))
        self.handlers.on(conn, "close", lambda *a: self._unopened(ever, remote, cid))
        self.handlers.on(conn, "error", lambda *a: self._unopened(ever, remote, cid))
        # A friend's connection that arrived but does not open: their network cannot reach
        # this phone (the friend's page says why; this one says that a friend tried).
        slow = Timer(lambda: self._unopened(ever, remote, None, conn))
        slow.at(UNREACHABLE_MS)
        self.handlers.proxies.append(slow)

    def _conn_opened(self, ever, remote):
        ever.append(True)
        self.friends.opened(remote)

    def _unopened(self, ever, remote, cid, conn=None):
        """A connection closed (`cid`), or is still not open UNREACHABLE_MS after it
        arrived (`cid` None, `conn`): one that never opened is a friend who could not
        connect."""
        try:
            if conn is not None and conn.open is True:
                ever.append(True)
        except Exception:
            pass
        if not ever and not self.closed:
            ever.append(False)            # said once per connection
            self.friends.failed(_now(), remote)
        if cid is not None:
            self._closed(cid)

    def _data(self, cid, data):
        if cid in self.conns:
            self.on_text(cid, _text(data))

    def _closed(self, cid):
        if self.conns.pop(cid, None) is not None:
            self.on_close(cid)

    def send(self, cid, text):
        conn = self.conns.get(cid)
        if conn is None:
            return False
        try:
            if not conn.open:
                return False
            conn.send(text)
            return True
        except Exception:
            return False

    def tell(self, peer_id, text, keep_ms=10000):
        """Open a data connection to PeerJS id `peer_id` (a spectator of the room before a
        handover), send `text` once it opens, and close it after `keep_ms` at most (the
        spectator closes it first once it has read it). Nothing it sends back is read.
        False when the room id is not registered yet or PeerJS refuses."""
        if not self.open or self.closed:
            return False
        try:
            conn = self.peer.connect(peer_id, js.JSON.parse(CONNECT_OPTIONS))
        except Exception:
            return False
        if conn is None:
            return False

        def opened(*args):
            try:
                conn.send(text)
            except Exception:
                pass
        self.handlers.on(conn, "open", opened)
        closer = Timer(lambda: self._refuse(conn))
        closer.at(keep_ms)
        self.handlers.proxies.append(closer)
        return True

    def close(self, cid):
        conn = self.conns.pop(cid, None)
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass

    def shutdown(self):
        """The page is going away: close every connection and free the room id on the
        server now, so that guests hear it at once and a reloaded page gets the id back."""
        self.conns = {}
        self._stop()
