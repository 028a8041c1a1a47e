"""The signaling server's door against bad input and as a deployment's server
(tools/serve.mjs, tools/signal_guard.mjs, tools/turn_mint.mjs), through raw websockets and
HTTP to 127.0.0.1: malformed frames, a flood of offers to one id, ids that are not Crisp's
and oversize messages are each refused without hurting the other peers; --signal-only
serves the pages of its --origin, counts addresses behind a proxy, and mints per-player TURN
credentials (coturn's REST scheme) for its own pages only."""

import base64
import hashlib
import hmac
import json
import os
import socket
import struct
import time

import pytest

from test_signaling import Server, Socket, http_get

PAGE = "https://crisp.example.org"


def rid(n):
    """A Crisp room id (the older 32-hex form), distinct for each n."""
    return "crisp-%032x" % n


class Peer(Socket):
    """A raw websocket that also sends (client frames are masked, as RFC 6455 wants)."""

    def frame(self, payload, opcode=0x1, mask=True, fin=True):
        head = bytes([(0x80 if fin else 0) | opcode])
        n = len(payload)
        bit = 0x80 if mask else 0
        if n < 126:
            head += bytes([bit | n])
        elif n < 65536:
            head += bytes([bit | 126]) + struct.pack("!H", n)
        else:
            head += bytes([bit | 127]) + struct.pack("!Q", n)
        if not mask:
            return head + payload
        key = os.urandom(4)
        return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))

    def send(self, msg):
        data = msg if isinstance(msg, bytes) else json.dumps(msg).encode()
        self.sock.sendall(self.frame(data))

    def closed(self, timeout=5):
        """True once the server closed this socket (a close frame, or the TCP end)."""
        self.sock.settimeout(timeout)
        try:
            while True:
                self.message()
        except (EOFError, ConnectionError):
            return True
        except socket.timeout:
            return False

    def messages(self, wait=0.5):
        """Every message that arrives within `wait` s of the last one."""
        out = []
        self.sock.settimeout(wait)
        try:
            while True:
                out.append(self.message())
        except (socket.timeout, EOFError, ConnectionError):
            return out


def opened(port, n, source="127.0.0.1", **kw):
    ws = Peer(port, rid(n), "tok%d" % n, source=source, **kw)
    assert ws.status == 101 and ws.message() == {"type": "OPEN"}, n
    return ws


def offer(dst, size=200):
    return {"type": "OFFER", "dst": dst, "payload": {"sdp": "x" * size, "type": "data",
                                                     "connectionId": "dc_1"}}


def relays(port, a, b):
    """True when an offer from peer a to peer b (open Peers) arrives, from a."""
    a.send(offer(rid(b.n)))
    got = b.messages(1.0)
    return any(m.get("type") == "OFFER" and m.get("src") == rid(a.n) for m in got)


def pair(port, n, source="127.0.0.1"):
    a, b = opened(port, n, source), opened(port, n + 1, source)
    a.n, b.n = n, n + 1
    return a, b


@pytest.fixture(scope="module")
def door(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("door"))
    yield s
    s.stop()


def test_a_malformed_frame_closes_only_its_own_socket(door):
    a, b = pair(door.port, 100)
    for bad in (Peer.frame(None, b"{}", mask=False),          # a client frame unmasked
                Peer.frame(None, b"{}", opcode=0x3),           # a reserved opcode
                b"\xff\xff\xff\xff\xff\xff",                   # not a frame at all
                Peer.frame(None, b"\xc3\x28", opcode=0x1)):    # text that is not UTF-8
        victim = opened(door.port, 110)
        victim.sock.sendall(bad)
        assert victim.closed(), bad
        victim.close()
    junk = opened(door.port, 111)
    for msg in (b"not json", b"[1, 2]", b'{"type": "NOPE", "dst": "%s"}' % rid(101).encode(),
                b'"OFFER"', b"null"):
        junk.send(msg)
    assert relays(door.port, a, b)          # the others go on as before
    assert not b.messages(0.3)              # and heard none of it
    for ws in (a, b, junk):
        ws.close()


def test_a_flood_of_offers_to_one_id_reaches_it_bounded_and_nobody_else_notices(door):
    host, other = opened(door.port, 200), opened(door.port, 201, "127.0.0.6")
    a, b = pair(door.port, 210, "127.0.0.7")
    # one socket sending 500 offers at once: it is closed after its burst
    loud = opened(door.port, 220, "127.0.0.8")
    for _ in range(500):
        try:
            loud.send(offer(rid(200)))
        except OSError:
            break
    assert loud.closed()
    # many sockets each within its own burst: the host still hears only its id's burst
    quiet = [opened(door.port, 230 + i, "127.0.0.9") for i in range(10)]
    started = time.monotonic()
    for ws in quiet:
        for _ in range(40):
            ws.send(offer(rid(200)))
    heard = [m for m in host.messages(1.0) if m.get("type") == "OFFER"]
    took = time.monotonic() - started
    assert 0 < len(heard) <= 60 + 10 * (took + 1), (len(heard), took)
    assert relays(door.port, a, b)                          # another pair: as before
    other.n = 201
    assert relays(door.port, other, a)                      # another address to another id
    for ws in [host, other, a, b, loud] + quiet:
        ws.close()


def test_ids_that_are_not_crisps_are_refused(door):
    for bad in ("admin", "crisp-", "crisp-012345678", "crisp-0123456789I", "CRISP-%032x" % 1, "x" * 64,
                "crisp-%032x-h1-zz" % 1, "../peerjs"):
        ws = Peer(door.port, bad, "tok")
        assert ws.status == 101
        msg = ws.message()
        assert msg["type"] == "ERROR", bad
        assert ws.closed(), bad
        ws.close()
    # a guest's server-given id (a uuid) and a handed-over room id are Crisp's
    for good in ("6f1c1e9e-3b0a-4c2d-9e1f-0a1b2c3d4e5f", "crisp-0123456789ABCDEFGHJK"[:16],
                 "crisp-%032x-h2-%020x" % (5, 7)):
        ws = Peer(door.port, good, "tok")
        assert ws.message() == {"type": "OPEN"}, good
        ws.close()
    # a message to a made-up id is neither relayed nor kept for later
    a, b = pair(door.port, 300)
    a.send(offer("evil"))
    a.send(offer("6f1c1e9e-3b0a-4c2d-9e1f-0a1b2c3d4e5f"))  # queued for a uuid: allowed
    assert relays(door.port, a, b)
    a.close()
    b.close()


def test_an_oversize_message_closes_its_socket_and_others_go_on(door):
    a, b = pair(door.port, 400)
    big = opened(door.port, 410)
    big.send(offer(rid(401), 70 * 1024))           # over 64 kB
    assert big.closed()
    assert not [m for m in b.messages(0.5) if m.get("src") == rid(410)]
    a.send(offer(rid(401), 12 * 1024))             # a big SDP offer is fine
    assert any(m.get("src") == rid(400) for m in b.messages(1.0))
    assert relays(door.port, a, b)
    a.close()
    b.close()


# A deployment's server: --signal-only for the pages of PAGE, behind a proxy, with TURN.

SECRET = "a-static-auth-secret-of-coturn"


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("deployed")
    (folder / "turn-secret").write_text(SECRET + "\n")
    s = Server(folder, "--signal-only", "--origin", PAGE, "--proxied", "--per-address", "3",
               "--allow-host", "peer.example.org", "--turn-secret", str(folder / "turn-secret"),
               "--turn-url", "turn:turn.example.org:3478", "--turn-ttl", "3600")
    yield s
    s.stop()


def test_a_deployment_lets_in_its_pages_origin_only(deployed):
    host = "peer.example.org"
    ws = Peer(deployed.port, rid(1), "t", host=host, origin=PAGE)
    assert ws.status == 101 and ws.message() == {"type": "OPEN"}
    ws.close()
    for origin in ("https://evil.example.org", "http://peer.example.org:1"):
        ws = Peer(deployed.port, rid(2), "t", host=host, origin=origin)
        assert ws.status == 403, origin
        ws.close()
    # the guest's id, asked across origins: with CORS for PAGE only
    status, headers, body = http_get(deployed.port, "/peerjs/peerjs/id?ts=1", host=host,
                                     origin=PAGE)
    assert status == 200 and headers.get("access-control-allow-origin") == PAGE
    assert http_get(deployed.port, "/peerjs/peerjs/id", host=host,
                    origin="https://evil.example.org")[0] == 403
    assert http_get(deployed.port, "/", host=host)[0] == 404          # no files served


def forwarded_socket(port, n, client):
    """A websocket as the TLS proxy passes it on: from 127.0.0.1, for `client`."""
    ws = Peer.__new__(Peer)
    Socket.__init__(ws, port, rid(n), "t%d" % n, host="peer.example.org", origin=PAGE,
                    extra=["X-Forwarded-For: 198.51.100.7, " + client])
    return ws


def test_behind_a_proxy_each_client_address_has_its_own_limit(deployed):
    mine = [forwarded_socket(deployed.port, 500 + i, "203.0.113.5") for i in range(5)]
    assert [ws.status for ws in mine] == [101, 101, 101, 429, 429]
    other = forwarded_socket(deployed.port, 510, "203.0.113.6")
    assert other.status == 101
    for ws in mine + [other]:
        ws.close()


def turn(port, origin=PAGE, site=None, client="203.0.113.20"):
    extra = ["X-Forwarded-For: " + client]
    if site:
        extra.append("Sec-Fetch-Site: " + site)
    return http_get(port, "/peerjs/turn", host="peer.example.org", origin=origin, extra=extra)


def test_turn_credentials_are_coturns_rest_ones_for_our_pages_only(deployed):
    status, headers, body = turn(deployed.port)
    assert status == 200 and headers.get("access-control-allow-origin") == PAGE
    assert "no-store" in headers.get("cache-control", "")
    answer = json.loads(body)
    (server,) = answer["iceServers"]
    assert server["urls"] == ["turn:turn.example.org:3478"]
    expiry, name = server["username"].split(":")
    assert abs(int(expiry) - (time.time() + 3600)) < 60 and len(name) >= 8
    assert answer["expires"] == int(expiry) * 1000
    mac = hmac.new(SECRET.encode(), server["username"].encode(), hashlib.sha1).digest()
    assert server["credential"] == base64.b64encode(mac).decode()
    assert SECRET not in body.decode()
    again = json.loads(turn(deployed.port)[2])["iceServers"][0]
    assert again["username"] != server["username"]          # one per player
    # a page of another site: refused, whether its fetch says its Origin or only its site
    assert turn(deployed.port, origin="https://evil.example.org")[0] == 403
    assert turn(deployed.port, origin=None, site="cross-site")[0] == 403


def test_turn_credentials_are_rate_limited_per_address(deployed):
    got = [turn(deployed.port, client="203.0.113.30")[0] for _ in range(14)]
    assert got[:10] == [200] * 10 and set(got[10:]) == {429}
    assert turn(deployed.port, client="203.0.113.31")[0] == 200       # someone else: fine


def test_with_its_own_certificate_it_speaks_tls(tmp_path):
    """--cert/--key (no proxy): https for the id, wss for the websocket."""
    import shutil
    import ssl
    import subprocess
    if shutil.which("openssl") is None:
        pytest.skip("openssl is missing")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(tmp_path / "key.pem"),
                    "-out", str(tmp_path / "cert.pem")], check=True, capture_output=True)
    s = Server(tmp_path, "--signal-only", "--cert", str(tmp_path / "cert.pem"),
               "--key", str(tmp_path / "key.pem"), "--origin", PAGE)
    try:
        context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        context.check_hostname = False
        raw = socket.create_connection(("127.0.0.1", s.port), timeout=5)
        tls = context.wrap_socket(raw)
        key = base64.b64encode(os.urandom(16)).decode()
        tls.sendall(("GET /peerjs/peerjs?key=peerjs&id=%s&token=t HTTP/1.1\r\nHost: 127.0.0.1:%d"
                     "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                     "Sec-WebSocket-Version: 13\r\nOrigin: %s\r\n\r\n"
                     % (rid(1), s.port, key, PAGE)).encode())
        data = b""
        while b"OPEN" not in data:
            chunk = tls.recv(4096)
            assert chunk, data
            data += chunk
        assert data.startswith(b"HTTP/1.1 101")
        tls.close()
    finally:
        s.stop()
