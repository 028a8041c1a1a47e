"""The LAN signaling server's door (tools/serve.mjs, tools/signal_guard.mjs), through raw
websocket upgrades and HTTP requests to 127.0.0.1: this computer's own names only (no DNS
rebinding), the page's own origin only, at most 20 websockets from one address, and a peer's
id kept for its own PeerJS token for 5 minutes after it goes, so that nobody with the room
link takes a reloading host's room id."""

import base64
import json
import os
import re
import shutil
import socket
import subprocess
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVE = os.path.join(ROOT, "tools", "serve.mjs")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, tmp_path, *args):
        if shutil.which("node") is None or not os.path.isdir(os.path.join(ROOT, "node_modules",
                                                                            "peer")):
            pytest.skip("node or node_modules is missing (npm ci)")
        dist = tmp_path / "dist"
        dist.mkdir(exist_ok=True)
        (dist / "index.html").write_text("<!doctype html><title>t</title>")
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["node", SERVE, "--port", str(self.port), "--host", "127.0.0.1", "--dir", str(dist)]
            + list(args), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(self.proc.stdout.read().decode())
                time.sleep(0.05)

    def stop(self):
        self.proc.terminate()          # by its PID
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


class Socket:
    """One raw websocket to the signaling server (server frames are not masked)."""

    def __init__(self, port, peer_id, token, origin="own", source="127.0.0.1", host=None,
                 extra=()):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                             source_address=(source, 0))
        host = host or "127.0.0.1:%d" % port
        lines = ["GET /peerjs/peerjs?key=peerjs&id=%s&token=%s HTTP/1.1" % (peer_id, token),
                 "Host: " + host, "Upgrade: websocket", "Connection: Upgrade",
                 "Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)).decode(),
                 "Sec-WebSocket-Version: 13"]
        if origin == "own":
            lines.append("Origin: http://" + host)
        elif origin is not None:
            lines.append("Origin: " + origin)
        lines += list(extra)
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self.buf += chunk
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        match = re.match(rb"HTTP/1.1 (\d+)", head)
        self.status = int(match.group(1)) if match else None

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def message(self):
        """The next text message from the server, as JSON."""
        b0, b1 = self._read(2)
        size = b1 & 0x7F
        if size == 126:
            size = int.from_bytes(self._read(2), "big")
        elif size == 127:
            size = int.from_bytes(self._read(8), "big")
        data = self._read(size)
        if b0 & 0x0F == 8:
            raise EOFError("closed")
        return json.loads(data)

    def close(self):
        self.sock.close()


def test_a_websocket_from_another_origin_is_refused(server):
    for origin in ("http://evil.test", None, "http://127.0.0.1:1", "null"):
        ws = Socket(server.port, "crisp-%032x" % len(str(origin)), "t", origin=origin)
        assert ws.status == 403, origin
        ws.close()
    ws = Socket(server.port, "crisp-%032x" % 1, "t")
    assert ws.status == 101 and ws.message() == {"type": "OPEN"}
    ws.close()


def test_one_address_holds_at_most_20_websockets_and_others_still_get_in(server):
    mine = [Socket(server.port, "crisp-%032x" % i, "t%d" % i) for i in range(60)]
    accepted = [ws for ws in mine if ws.status == 101]
    assert len(accepted) == 20
    assert {ws.status for ws in mine if ws.status != 101} == {429}
    for ws in accepted:
        assert ws.message() == {"type": "OPEN"}
    # another address (a phone next to the attacker) gets in
    other = Socket(server.port, "crisp-%032x" % 999, "tp", source="127.0.0.2")
    assert other.status == 101 and other.message() == {"type": "OPEN"}
    # one of the 20 goes: room for one more from that address
    accepted[0].close()
    deadline = time.monotonic() + 5
    while True:
        again = Socket(server.port, "crisp-%032x" % 998, "tz")
        if again.status == 101 or time.monotonic() > deadline:
            break
        again.close()
        time.sleep(0.1)
    assert again.status == 101
    for ws in mine + [other, again]:
        ws.close()


def test_a_gone_peers_id_is_kept_for_its_own_token(server):
    host = Socket(server.port, "crisp-%032x" % 7, "host-token")
    assert host.message() == {"type": "OPEN"}
    # while it is there, the id is taken (as PeerJS always did)
    thief = Socket(server.port, "crisp-%032x" % 7, "thief-token")
    assert thief.message()["type"] == "ID-TAKEN"
    host.close()                                  # the host's page reloads, or its tab closed
    time.sleep(0.3)
    for _ in range(3):
        thief = Socket(server.port, "crisp-%032x" % 7, "thief-token", source="127.0.0.3")
        assert thief.status == 101 and thief.message()["type"] == "ID-TAKEN"
        thief.close()
        time.sleep(0.5)
    back = Socket(server.port, "crisp-%032x" % 7, "host-token")
    assert back.message() == {"type": "OPEN"}
    # a reloaded page whose old socket is still open: the newer one with the token wins
    newer = Socket(server.port, "crisp-%032x" % 7, "host-token")
    assert newer.message() == {"type": "OPEN"}
    newer.close()
    back.close()


def test_the_reservation_lasts_5_minutes_by_default_and_then_ends(tmp_path):
    with open(os.path.join(ROOT, "tools", "signal_guard.mjs")) as f:
        assert "export const RESERVE_MS = 5 * 60 * 1000;" in f.read()
    short = Server(tmp_path, "--reserve-ms", "600")
    try:
        host = Socket(short.port, "crisp-%032x" % 8, "host-token")
        assert host.message() == {"type": "OPEN"}
        host.close()
        time.sleep(0.2)
        assert Socket(short.port, "crisp-%032x" % 8, "other").message()["type"] == "ID-TAKEN"
        time.sleep(1.0)
        late = Socket(short.port, "crisp-%032x" % 8, "other")
        assert late.message() == {"type": "OPEN"}           # long gone: free again
        late.close()
    finally:
        short.stop()


def http_get(port, path, host=None, origin=None, extra=()):
    """A plain HTTP GET to the server with this Host (ours by default) and Origin (none by
    default: a page's same-origin fetch sends none). Returns (status, headers, body)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=5)
    lines = ["GET %s HTTP/1.1" % path, "Host: " + (host or "127.0.0.1:%d" % port),
             "Connection: close"]
    if origin is not None:
        lines.append("Origin: " + origin)
    lines += list(extra)
    conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    conn.close()
    head, _, body = data.partition(b"\r\n\r\n")
    head = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in head[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return int(head[0].split()[1]), headers, body


def lan_addresses():
    """This machine's own addresses as node sees them (IPv4 and IPv6, loopback too)."""
    out = subprocess.run(["node", "-e", "console.log(JSON.stringify("
                          "Object.values(require('os').networkInterfaces()).flat()))"],
                         capture_output=True, text=True, check=True).stdout
    return [a["address"] for a in json.loads(out)]


def host_of(address, port):
    return ("[%s]:%d" if ":" in address else "%s:%d") % (address, port)


REBIND = "rebind.evil.test"


def test_a_dns_rebinding_page_gets_no_websocket(server):
    """A page at http://rebind.evil.test:<port>, whose name the attacker's DNS now points at
    this computer: its Origin is its own Host, but that Host is not one of ours."""
    host = "%s:%d" % (REBIND, server.port)
    ws = Socket(server.port, "crisp-%032x" % 9, "t", host=host)         # Origin: http://<that host>
    assert ws.status == 403
    ws.close()
    # nor with our Host and its Origin, nor from a page of ours on another port (another
    # program of this computer)
    for host, origin in (("127.0.0.1:%d" % server.port, "http://" + host),
                         ("127.0.0.1:%d" % server.port, "http://127.0.0.1:1")):
        ws = Socket(server.port, "crisp-%032x" % 10, "t", host=host, origin=origin)
        assert ws.status == 403, (host, origin)
        ws.close()


def test_a_dns_rebinding_page_or_another_site_gets_nothing_over_http(server):
    for path in ("/peerjs/peerjs/id?ts=1", "/peerjs", "/"):
        # the rebinding page's same-origin fetch: its own Host, no Origin
        status, headers, body = http_get(server.port, path, host="%s:%d" % (REBIND, server.port))
        assert status == 403, path
        assert body.startswith(b"Crisp: this server answers only at its own addresses")
        # another site's page asking across origins: refused, and no CORS header for it
        status, headers, body = http_get(server.port, path, origin="http://evil.test")
        assert status == 403, path
        assert "access-control-allow-origin" not in headers, path


def test_our_own_pages_still_get_their_id_and_their_websocket(server):
    """What a phone does: it opens http://<the computer's LAN address>:<port>/ (or localhost
    on the computer itself, or its name); its PeerJS asks /peerjs/peerjs/id (a same-origin
    fetch: no Origin), then opens its websocket with its Origin."""
    me = socket.gethostname().lower()
    # (an address of another interface, or forwarded here, is the one the browser reached)
    for address in ["localhost", me, me + ".local", "127.0.1.1"] + lan_addresses():
        host = host_of(address, server.port)
        status, headers, body = http_get(server.port, "/peerjs/peerjs/id?ts=1", host=host)
        assert status == 200 and len(body.strip()) >= 8, host
        assert "access-control-allow-origin" not in headers   # same origin: no CORS needed
        status, _, _ = http_get(server.port, "/", host=host, origin="http://" + host)
        assert status == 200, host
        ws = Socket(server.port, "crisp-%032x" % len(host), "t", host=host)
        assert ws.status == 101 and ws.message() == {"type": "OPEN"}, host
        ws.close()


def test_a_name_given_with_allow_host_is_ours_too(tmp_path):
    """`--allow-host crisp.lan` (a name the LAN's DNS gives this computer): pages opened at
    http://crisp.lan:<port>/ work; without it they are refused."""
    named = Server(tmp_path, "--allow-host", "crisp.lan")
    try:
        host = "crisp.lan:%d" % named.port
        assert http_get(named.port, "/peerjs/peerjs/id", host=host)[0] == 200
        ws = Socket(named.port, "crisp-%032x" % 11, "t", host=host)
        assert ws.status == 101 and ws.message() == {"type": "OPEN"}
        ws.close()
        assert http_get(named.port, "/", host="other.lan:%d" % named.port)[0] == 403
    finally:
        named.stop()
