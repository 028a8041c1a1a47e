"""The peer-to-peer transport: PeerJS data connections carrying JSON text (browser only).

Thin on purpose (STYLE.md: functions that act are thin and tested end to end). Runs on
Pyodide (host) and MicroPython (guests) through `js` and `pyscript.ffi`. The signaling server
comes from the build's config (boot.js: `window.crisp.newPeer(id)`).

Connections are opened with `reliable: true` (ordered delivery) and `serialization: "raw"`
(strings go through the data channel as they are; DESIGN.md "Messages").
"""

import js
from pyscript.ffi import create_proxy

CONNECT_OPTIONS = '{"reliable": true, "serialization": "raw"}'


def _text(data):
    """A received payload as Python text, or None when it is not a string."""
    return data if isinstance(data, str) else None


def _error_type(err):
    try:
        kind = err.type
        if isinstance(kind, str):
            return kind
    except Exception:
        pass
    return str(err)


class _Handlers:
    """Keeps the JS proxies of our callbacks alive (and in one place)."""

    def __init__(self):
        self.proxies = []

    def on(self, target, event, fn):
        proxy = create_proxy(fn)
        self.proxies.append(proxy)
        target.on(event, proxy)


class HostNet:
    """The host's side: a Peer with the room id, accepting every guest's data connection.

    Callbacks: on_open() (the room id is registered: guests can connect), on_conn(cid) (a
    data connection is open), on_text(cid, text) (text is None for a non-text payload),
    on_close(cid), on_error(kind). `cid` is a short string naming the connection.
    """

    def __init__(self, room_id, on_open, on_conn, on_text, on_close, on_error):
        self.room_id = room_id
        self.on_open, self.on_conn, self.on_text = on_open, on_conn, on_text
        self.on_close, self.on_error = on_close, on_error
        self.conns = {}
        self.count = 0
        self.open = False
        self.handlers = _Handlers()
        self.peer = js.crisp.newPeer(room_id)
        self.handlers.on(self.peer, "open", self._opened)
        self.handlers.on(self.peer, "connection", self._connection)
        self.handlers.on(self.peer, "disconnected", self._disconnected)
        self.handlers.on(self.peer, "error", self._error)

    def _opened(self, *args):
        self.open = True
        self.on_open()

    def _disconnected(self, *args):
        # Lost the signaling server only: open data connections go on. Register again so
        # that new guests (and reloaded ones) can still reach this room id.
        self.open = False
        try:
            self.peer.reconnect()
        except Exception:
            pass

    def _error(self, err):
        self.on_error(_error_type(err))

    def _connection(self, conn):
        self.count += 1
        cid = "c" + str(self.count)
        self.conns[cid] = conn
        self.handlers.on(conn, "open", lambda *a: self.on_conn(cid))
        self.handlers.on(conn, "data", lambda data: self.on_text(cid, _text(data)))
        self.handlers.on(conn, "close", lambda *a: self._closed(cid))
        self.handlers.on(conn, "error", lambda *a: self._closed(cid))

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

    def close(self, cid):
        conn = self.conns.pop(cid, None)
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass


class GuestNet:
    """A guest's side: a Peer with a server-given id and one data connection to the room.

    Callbacks: on_open() (the connection to the host is open), on_text(text),
    on_close() (it closed or could not be opened), on_error(kind) ("peer-unavailable": no
    host with that room id right now). `connect()` may be called again to retry.
    """

    def __init__(self, room_id, on_open, on_text, on_close, on_error):
        self.room_id = room_id
        self.on_open, self.on_text, self.on_close, self.on_error = (
            on_open, on_text, on_close, on_error)
        self.conn = None
        self.open = False
        self.handlers = _Handlers()
        self.peer = js.crisp.newPeer(None)
        self.registered = False
        self.wanted = False
        self.handlers.on(self.peer, "open", self._registered)
        self.handlers.on(self.peer, "disconnected", self._disconnected)
        self.handlers.on(self.peer, "error", self._error)

    def _registered(self, *args):
        self.registered = True
        if self.wanted:
            self.connect()

    def _disconnected(self, *args):
        self.registered = False
        try:
            self.peer.reconnect()
        except Exception:
            pass

    def _error(self, err):
        kind = _error_type(err)
        if kind == "peer-unavailable":
            self._lost(self.conn)
        self.on_error(kind)

    def connect(self):
        """Open (or reopen) the data connection to the room."""
        self.wanted = True
        if not self.registered:
            return
        old = self.conn
        self.conn = None
        self.open = False
        if old is not None:
            try:
                old.close()
            except Exception:
                pass
        conn = self.peer.connect(self.room_id, js.JSON.parse(CONNECT_OPTIONS))
        if conn is None:
            return
        self.conn = conn
        self.handlers.on(conn, "open", lambda *a: self._opened(conn))
        self.handlers.on(conn, "data", lambda data: self._data(conn, data))
        self.handlers.on(conn, "close", lambda *a: self._lost(conn))
        self.handlers.on(conn, "error", lambda *a: self._lost(conn))

    def _opened(self, conn):
        if conn is self.conn:
            self.open = True
            self.on_open()

    def _data(self, conn, data):
        if conn is self.conn:
            self.on_text(_text(data))

    def _lost(self, conn):
        if conn is not None and conn is self.conn:
            self.conn = None
            self.open = False
            self.on_close()

    def send(self, text):
        if self.conn is None or not self.open:
            return False
        try:
            self.conn.send(text)
            return True
        except Exception:
            return False
