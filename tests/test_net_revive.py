"""ui/page/net/net.py's revive (issue 14, item 1): a Peer that reports neither open, disconnected nor
destroyed after a reconnect (its websocket hangs on a network that went away) still leads to
a working Peer, for the host and for a guest, with no help from the page and without closing
the data connections that are still open.

ui/page/net/net.py runs in the browser; here `js` and `pyscript.ffi` are stubs: a fake clock with
setTimeout, and PeerJS Peers whose signaling server the test turns off and on ("down": a
websocket opened then hangs for ever; "up": it opens)."""

import importlib
import sys
import types

import pytest


class Clock:
    def __init__(self):
        self.t = 1_000_000.0
        self.timers = {}
        self.next_id = 1

    def set_timeout(self, fn, ms):
        handle = self.next_id
        self.next_id += 1
        self.timers[handle] = (self.t + ms, fn)
        return handle

    def clear_timeout(self, handle):
        self.timers.pop(handle, None)

    def run(self, ms):
        """Let `ms` pass, firing each timer at its time."""
        end = self.t + ms
        while True:
            due = [(at, h) for h, (at, fn) in self.timers.items() if at <= end]
            if not due:
                break
            at, handle = min(due)
            self.t = max(self.t, at)
            fn = self.timers.pop(handle)[1]
            fn()
        self.t = end


class Server:
    """The signaling server as the stub Peers see it."""

    def __init__(self, clock):
        self.clock = clock
        self.up = True
        self.refuse = False       # the network is there but the server is not: fails at once
        self.peers = []


class StubConn:
    def __init__(self, peer_id):
        self.peer = peer_id
        self.open = True
        self.closed = False
        self.serialization = "raw"
        self.reliable = True
        self.metadata = None
        self.handlers = {}

    def on(self, event, fn):
        self.handlers[event] = fn

    def close(self):
        self.closed = True


class StubPeer:
    """The state PeerJS keeps and the events it emits, as far as ui/page/net/net.py reads them."""

    def __init__(self, server, peer_id):
        self.server = server
        self.wanted_id = peer_id
        self.id = None
        self.open = False
        self.disconnected = False
        self.destroyed = False
        self.handlers = {}
        self.sockets = 0          # websockets started
        server.peers.append(self)
        self._start()

    def on(self, event, fn):
        self.handlers[event] = fn

    def emit(self, event, *args):
        if event in self.handlers:
            self.handlers[event](*args)

    def _start(self):
        self.sockets += 1
        if self.server.refuse:
            self.server.clock.set_timeout(self.lose_server, 20)
        elif self.server.up:
            self.server.clock.set_timeout(self._opened, 20)
        # down: the websocket hangs; no event at all

    def _opened(self):
        if self.disconnected or self.destroyed:
            return
        self.id = self.wanted_id or "guest-%d" % len(self.server.peers)
        self.open = True
        self.emit("open", self.id)

    def lose_server(self):
        """The network went away: the socket closes (PeerJS: network error, disconnected)."""
        if self.disconnected or self.destroyed:
            return
        self.emit("error", types.SimpleNamespace(type="network"))
        self.disconnect()

    def disconnect(self):
        if self.disconnected:
            return
        self.disconnected = True
        self.open = False
        self.emit("disconnected", self.id)

    def reconnect(self):
        if self.destroyed:
            raise RuntimeError("destroyed")
        if not self.disconnected:
            return                 # PeerJS: "still connecting", nothing happens
        self.disconnected = False
        self._start()

    def destroy(self):
        if self.destroyed:
            return
        self.disconnect()
        self.destroyed = True


@pytest.fixture
def net():
    """ui.page.net.net, net_host and net_guest imported against the stubs; yields (module, clock,
    server): `module` has the three modules' names."""
    clock = Clock()
    server = Server(clock)
    js = types.ModuleType("js")
    js.Date = types.SimpleNamespace(now=lambda: clock.t)
    js.setTimeout = clock.set_timeout
    js.clearTimeout = clock.clear_timeout
    js.JSON = types.SimpleNamespace(stringify=lambda x: "null" if x is None else "{}",
                                    parse=lambda text: text)
    js.crisp = types.SimpleNamespace(newPeer=lambda pid, token=None, room=None: StubPeer(server, pid),
                                     now=lambda: clock.t + 0.5, webrtc=True,
                                     channelState=lambda conn: "asked" if conn else "")
    pyscript = types.ModuleType("pyscript")
    ffi = types.ModuleType("pyscript.ffi")
    ffi.create_proxy = lambda fn: fn
    pyscript.ffi = ffi
    parts = ("ui.page.net.net", "ui.page.net.net_host", "ui.page.net.net_guest")
    saved = {k: sys.modules.get(k) for k in ("js", "pyscript", "pyscript.ffi", "ui.page.browser",
                                             "ui.page.net.webrtc") + parts}
    sys.modules.update({"js": js, "pyscript": pyscript, "pyscript.ffi": ffi})
    for k in ("ui.page.browser", "ui.page.net.webrtc") + parts:
        sys.modules.pop(k, None)
    # the transport's three modules (shared, host, guest) as one, as the tests read it
    module = types.SimpleNamespace()
    for k in parts:
        vars(module).update(vars(importlib.import_module(k)))
    yield module, clock, server
    for k, v in saved.items():
        if v is None:
            sys.modules.pop(k, None)
        else:
            sys.modules[k] = v


def host_net(module):
    events = []
    h = module.HostNet("crisp-room", lambda: events.append("open"),
                       lambda cid, peer: events.append(("conn", cid)),
                       lambda cid, text: None, lambda cid: events.append(("close", cid)),
                       lambda kind: events.append(("error", kind)), token="tok")
    return h, events


def opened(net, make):
    """A page's net (`make`: host_net or guest_net) registered with the signaling server:
    (module, clock, server, the HostNet or GuestNet, the events it reported)."""
    module, clock, server = net
    page, events = make(module)
    clock.run(100)
    return module, clock, server, page, events


def network_gone(server, peer, refuse=False):
    """The phone's network goes away: `peer`'s socket closes, and the sockets it opens next
    hang for ever (with `refuse`: fail at once, the network is there but not the server)."""
    if refuse:
        server.refuse = True
    else:
        server.up = False
    peer.lose_server()


def test_a_host_whose_reconnect_hangs_registers_again_by_itself_and_keeps_its_guests(net):
    module, clock, server, h, events = opened(net, host_net)
    assert h.open and events == ["open"]
    peer = h.peer
    conn = StubConn("guest-1")
    peer.emit("connection", conn)
    assert ("conn", "c1") in events

    # the phone changes networks: the socket dies; what it tries next hangs
    network_gone(server, peer)
    assert not h.open
    h.ensure()                        # the page's backoff asks too: harmless
    clock.run(3000)
    assert peer.sockets >= 2 and not peer.open and not peer.disconnected   # hanging
    server.up = True                  # the new network works; the hanging socket never will
    clock.run(module.REGISTER_MS + 1000)
    assert h.open and events.count("open") == 2
    assert h.peer is peer             # the same Peer, reconnected: its guests stay
    assert not conn.closed and "c1" in h.conns
    assert not any(e == ("close", "c1") for e in events)


def test_a_host_page_that_never_calls_ensure_still_gets_its_id_back(net):
    module, clock, server, h, events = opened(net, host_net)
    network_gone(server, h.peer)
    clock.run(60_000)                 # down for a minute: it keeps trying, with backoff
    tries = h.peer.sockets
    assert 3 <= tries <= 30
    server.up = True
    clock.run(module.REGISTER_MS + module.RETRY_MS[-1] + 1000)
    assert h.open


def guest_net(module):
    events = []
    g = module.GuestNet("crisp-room", lambda: events.append("open"),
                        lambda text: None, lambda missing: events.append(("lost", missing)),
                        lambda kind: events.append(("error", kind)))
    return g, events


def test_a_guest_whose_reconnect_hangs_registers_again_by_itself(net):
    module, clock, server, g, events = opened(net, guest_net)
    assert g.registered
    peer = g.peer
    network_gone(server, peer)
    assert not g.registered
    clock.run(2000)                   # it tried again at once: that socket hangs
    assert not peer.open and not peer.disconnected and peer.sockets == 2
    server.up = True
    clock.run(module.REGISTER_MS + 1000)
    assert g.registered and g.peer is peer and g.peer_id() == peer.id


def test_a_guest_whose_first_peer_hangs_gets_a_new_one(net):
    module, clock, server = net
    server.up = False
    g, events = guest_net(module)
    first = g.peer
    assert not g.registered and first.id is None
    server.up = True
    clock.run(module.REGISTER_MS + 100)
    assert g.registered and g.peer is not first and first.destroyed


def test_a_guest_that_wants_a_connection_connects_once_registered_again(net):
    module, clock, server, g, events = opened(net, guest_net)
    network_gone(server, g.peer)
    clock.run(2000)
    connects = []
    g.peer.connect = lambda room, options: connects.append(room) or StubConn(room)
    g.connect()                       # the page's link asks for a new connection: waits
    assert connects == []
    server.up = True
    clock.run(module.REGISTER_MS + 1000)
    assert connects == ["crisp-room"]


def test_a_closed_page_stops_trying(net):
    module, clock, server, g, events = opened(net, guest_net)
    g.shutdown()
    made = len(server.peers)
    clock.run(120_000)
    assert len(server.peers) == made and not clock.timers


def test_a_server_that_refuses_is_asked_again_with_backoff(net):
    module, clock, server, g, events = opened(net, guest_net)
    network_gone(server, g.peer, refuse=True)
    clock.run(60_000)
    assert 5 <= g.peer.sockets <= 14           # 1, 2, 4, 8, 8 ... s apart, not a tight loop
    server.refuse = False
    clock.run(module.RETRY_MS[-1] + 1000)
    assert g.registered
    assert ("error", "disconnected") in events  # the page hears of it (it doubts its link)


# ---- a browser without WebRTC (issue 21, item 1) ------------------------------------------

@pytest.mark.parametrize("make", [host_net, guest_net])
def test_without_webrtc_no_peer_is_made_and_the_page_is_told_once(net, make):
    module, clock, server = net
    sys.modules["js"].crisp.webrtc = False
    page, events = make(module)
    assert events == []                       # never from the constructor
    clock.run(10 * 60 * 1000)                 # ten minutes: no retry loop
    assert server.peers == [] and page.peer is None
    assert events == [("error", "browser-incompatible")]
    if make is guest_net:
        page.connect()
        assert page.attempt() == ""
    else:
        page.ensure()
        assert page.tell("someone", "{}") is False
    clock.run(60 * 1000)
    assert server.peers == [] and events == [("error", "browser-incompatible")]
    page.shutdown()


@pytest.mark.parametrize("make", [host_net, guest_net])
def test_peerjs_browser_incompatible_is_said_once_and_never_retried(net, make):
    # the check passed but PeerJS disagrees (its own support test): it destroys the Peer
    module, clock, server = net
    page, events = make(module)
    peer = page.peer
    peer.emit("error", types.SimpleNamespace(type="browser-incompatible"))
    peer.destroy()
    clock.run(10 * 60 * 1000)
    assert len(server.peers) == 1 and peer.destroyed
    assert events.count(("error", "browser-incompatible")) == 1
    assert [e for e in events if e != "open" and e[0] == "error"] == [
        ("error", "browser-incompatible")]


def test_the_host_notes_a_friend_whose_connection_never_opens(net):
    module, clock, server, h, events = opened(net, host_net)
    conn = StubConn("guest-9")
    conn.open = False                         # arrived through signaling, never opens
    h.peer.emit("connection", conn)
    now = module._now()
    assert not h.friends.showing(now)
    clock.run(module.UNREACHABLE_MS)
    assert h.friends.showing(module._now())
    # it opens after all: the note goes
    conn.open = True
    conn.handlers["open"]()
    assert not h.friends.showing(module._now())
    # another one that closes without ever opening (ICE failed)
    other = StubConn("guest-10")
    other.open = False
    h.peer.emit("connection", other)
    other.handlers["error"](types.SimpleNamespace(type="negotiation-failed"))
    assert h.friends.showing(module._now()) and ("close", "c2") in events
    # a friend that connected and later left is no note
    third = StubConn("guest-11")
    clock.run(module.UNREACHABLE_MS * 3)
    h.peer.emit("connection", third)
    third.handlers["open"]()
    third.open = False
    third.handlers["close"]()
    clock.run(module.UNREACHABLE_MS)
    assert not h.friends.showing(module._now())


def test_a_guest_tells_an_ice_failure_from_a_silent_host(net):
    module, clock, server, g, events = opened(net, guest_net)
    states = {}
    sys.modules["js"].crisp.channelState = lambda conn: states.get(id(conn), "asked")
    conns = []
    g.peer.connect = lambda room, opts: conns.append(StubConn(room)) or conns[-1]
    g.connect()
    conn = conns[-1]
    conn.open = False
    assert g.attempt() == "asked"
    states[id(conn)] = "answered"
    assert g.attempt() == "answered"
    seen = []
    g.on_lost = lambda missing: seen.append((missing, g.lost_to_ice))
    conn.handlers["error"](types.SimpleNamespace(type="negotiation-failed"))
    assert seen == [(False, True)] and g.lost_to_ice is False
    # a connection that closes before any answer came: not the network's fault as far
    # as this page knows
    g.connect()
    conns[-1].open = False
    conns[-1].handlers["close"]()
    assert seen[-1] == (False, False)


# ---- a late peer-unavailable (issue 20.1: the handover's "Ana's phone is not answering") ----

def unavailable(peer_id):
    """PeerJS's error for an offer the signaling server could not deliver (it says so about
    5 s later, its expire_timeout)."""
    return types.SimpleNamespace(type="peer-unavailable",
                                 message="Could not connect to peer " + peer_id)


def test_a_late_peer_unavailable_for_the_old_id_keeps_the_connection_to_the_new_host(net):
    module, clock, server, g, events = opened(net, guest_net)
    conns = []
    g.peer.connect = lambda room, opts: conns.append(StubConn(room)) or conns[-1]
    g.connect()                              # the old host's id: its page is gone
    conns[-1].open = False
    g.room_id = "crisp-room-h1-0123456789abcdef0123"      # the handover's new id
    g.connect()
    to_new = conns[-1]
    to_new.handlers["open"]()
    assert g.open and g.conn is to_new
    g.peer.emit("error", unavailable("crisp-room"))      # about the tries at the old id
    assert g.open and g.conn is to_new and not to_new.closed
    assert not any(e[0] == "lost" for e in events if isinstance(e, tuple))
    g.peer.emit("error", unavailable(g.room_id))         # an earlier try at the new id: the
    assert g.open and not to_new.closed                  # host answered since (it is open)
    assert ("error", "peer-unavailable") in events       # (the page still hears of both)


def test_a_peer_unavailable_for_the_id_being_dialed_is_the_host_missing(net):
    module, clock, server, g, events = opened(net, guest_net)
    conns = []
    g.peer.connect = lambda room, opts: conns.append(StubConn(room)) or conns[-1]
    g.connect()
    conns[-1].open = False                   # not open yet
    g.peer.emit("error", unavailable("crisp-room"))
    assert ("lost", True) in events and g.conn is None and conns[-1].closed
    # a message in another form (another PeerJS version): as before, for an attempt not open
    g.connect()
    conns[-1].open = False
    g.peer.emit("error", types.SimpleNamespace(type="peer-unavailable", message=None))
    assert events.count(("lost", True)) == 2
