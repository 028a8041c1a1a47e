"""The peer-to-peer transport: PeerJS data connections carrying JSON text (browser only).

Thin on purpose (docs/design.md "The shape": functions that act are thin and tested end to end). Runs on
Pyodide (host) and MicroPython (guests) through `js` and `pyscript.ffi`. The signaling server
comes from the build's config (boot.js: `window.crisp.newPeer(id)`).

Connections are opened with `reliable: true` (ordered delivery) and `serialization: "raw"`
(strings go through the data channel as they are; docs/protocol.md "Room messages").
"""

import js
from pyscript.ffi import create_proxy

from ui.page.browser import Timer
from ui.page.link import backoff
from ui.shared.gate import acceptable
from ui.page.link import UNREACHABLE_MS
from ui.page.netcheck import INCOMPATIBLE, FriendNote, unavailable_concerns
from ui.page.webrtc import channel_state, webrtc_ok

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
        self.friends = FriendNote()   # a guest whose connection never opened (issue 21)
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


class GuestNet(_Registration):
    """A guest's side: a Peer with a server-given id and one data connection to the room.

    Callbacks: on_open() (the connection to the host is open), on_text(text),
    on_lost(missing) (it closed or could not be opened; missing: the signaling server knows
    no peer with the room id, "peer-unavailable"), on_error(kind) (PeerJS error types, and
    "disconnected" when the signaling server is lost: the page may doubt its connection).
    The Peer registers again by itself (`revive`), also when an attempt hangs.
    The page decides when (ui/page/link.py): `connect()` opens a new connection (making the Peer
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
        failed), "asked", or "" when there is no attempt or it is open. For ui/page/link.py
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
        peer = js.crisp.newPeer(None)
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
