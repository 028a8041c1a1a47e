"""A deployment's own servers (README "Your own servers"): per-player TURN credentials minted
by the signaling server, and a room's pages on one of several signaling servers.

- Debian's coturn on loopback configured as a deployment's, `use-auth-secret` with a
  `static-auth-secret` (no user of its own); tools/serve.mjs given the same secret
  (`--turn-secret`); a relay-only test build made with `--turn-from-signaling` and no
  credential of its own. Two players play a round through the relay, every channel's
  selected candidate pair `relay` on both ends, each page with its own credential. coturn
  refuses an expired credential (a TURN Allocate, from here); the endpoint refuses a page of
  another origin.
- The same build served without a secret: the endpoint does not answer, and the page says
  it plays without a relay (`no-relay`).
- A hosted build with two signaling servers (`--signaling A,B`, each `serve.mjs
  --signal-only --origin <the page's origin>`): host and guest of a room meet on the server
  its id hashes to, and so does every successor id of the room.
"""

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import socket
import struct
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from crisp_e2e import ROOT, free_port, serve, stop
from crisp_rooms import join_room, open_room
from crisp_e2e import T, live, sel
from turn_relay import PC_TAP, SELECTED_PAIRS, ensure_coturn, free_udp_port, stun_answers

REALM = "crisp.test"
# deal (dealer = host, seat 0): Ana (1): 2c 9d 5h  Hana (0): 7h Ah 8s; then Ana draws 6d,
# Hana 8c: no special card, so every turn is draw and discard
DECK = ["2c", "7h", "9d", "Ah", "5h", "8s", "6d", "8c", "7c", "7d", "3s", "4c"]


def coturn_config(port, low, secret, folder):
    """coturn as a deployment runs it (README "Your own servers"), on 127.0.0.1 only:
    REST credentials (`use-auth-secret`), relay ports `low`..`low`+99."""
    return "\n".join([
        "listening-ip=127.0.0.1", "relay-ip=127.0.0.1", "listening-port=%d" % port,
        "min-port=%d" % low, "max-port=%d" % (low + 99),
        "use-auth-secret", "static-auth-secret=%s" % secret, "realm=" + REALM,
        "allow-loopback-peers",     # both allocations are on 127.0.0.1 (e2e/turn_relay.py)
        "no-cli", "no-tls", "no-dtls", "no-multicast-peers", "fingerprint",
        "no-software-attribute", "pidfile=%s" % os.path.join(folder, "turnserver.pid"),
        "userdb=%s" % os.path.join(folder, "turndb"), "simple-log", "log-file=stdout", ""])


@contextlib.contextmanager
def rest_coturn(folder, turnserver):
    """coturn with a fresh static-auth-secret; yields (port, secret); stopped by its PID."""
    port = free_udp_port()
    low = 20000 + (port % 100) * 100
    secret = secrets.token_hex(24)
    path = os.path.join(folder, "turnserver.conf")
    with open(path, "w") as f:
        f.write(coturn_config(port, low, secret, folder))
    log = open(os.path.join(folder, "turnserver.log"), "w")
    proc = subprocess.Popen([turnserver, "-c", path], stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not stun_answers(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("coturn did not start: see %s" % log.name)
            time.sleep(0.1)
        yield port, secret
    finally:
        stop(proc)
        log.close()


@pytest.fixture(scope="module")
def turn_site(tmp_path_factory):
    """(Site served with --turn-secret, the same build served without one, coturn's port,
    its secret)."""
    turnserver, why = ensure_coturn()
    if turnserver is None:
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("own-turn")
    with rest_coturn(str(folder), turnserver) as (port, secret):
        (folder / "secret").write_text(secret + "\n")
        (folder / "ice.json").write_text(json.dumps(
            {"iceServers": [], "iceTransportPolicy": "relay"}))
        dist = str(folder / "dist")
        subprocess.run(["python3", os.path.join(ROOT, "tools", "build.py"), "--test",
                        "--ice", str(folder / "ice.json"), "--turn-from-signaling",
                        "--out", dist], check=True, cwd=ROOT)
        with serve(dist, "--turn-secret", str(folder / "secret"),
                   "--turn-url", "turn:127.0.0.1:%d" % port) as s, serve(dist) as bare:
            yield s, bare, port, secret


def draw_and_discard(page, card):
    live(page, "deck")
    page.wait_for_selector(sel("held-card", '[data-card="%s"]' % card), timeout=T)
    live(page, "discard-held")


def turn_user(page):
    page.wait_for_function("window.crisp.turn === 'ok'", timeout=T)
    servers = page.evaluate("window.crisp.peerOptions.config.iceServers")
    assert len(servers) == 1, servers
    return servers[0]


def test_two_players_play_a_round_through_coturn_with_credentials_of_their_own(new_phone,
                                                                             turn_site):
    site, _, port, secret = turn_site
    for name in os.listdir(site.dist):           # config-<build id>.js: no secret there
        if name.startswith("config") and name.endswith(".js"):
            with open(os.path.join(site.dist, name)) as f:
                text = f.read()
            assert '"turn": true' in text and secret not in text
    host, link = open_room(new_phone, "Hana", "?deck=" + ",".join(DECK), site=site,
                           init=PC_TAP)
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, others=(hp,), init=PC_TAP)
    ap = ana.page
    users = [turn_user(p) for p in (hp, ap)]
    for user in users:
        assert user["urls"] == ["turn:127.0.0.1:%d" % port]
        expiry = int(user["username"].split(":")[0])
        assert 3 * 3600 < expiry - time.time() <= 4 * 3600 + 60
        mac = hmac.new(secret.encode(), user["username"].encode(), hashlib.sha1).digest()
        assert user["credential"] == base64.b64encode(mac).decode()
    assert users[0]["username"] != users[1]["username"]
    assert hp.evaluate("window.crisp.peerOptions.config.iceTransportPolicy") == "relay"

    live(hp, "start-game")
    for page in (hp, ap):
        live(page, "ready")
    draw_and_discard(ap, "6d")
    live(ap, "crisp", timeout=2500)        # the window is 3 s
    draw_and_discard(hp, "8c")
    for page in (hp, ap):
        page.wait_for_selector(sel("round-results"), timeout=T)
    pairs = hp.evaluate(SELECTED_PAIRS) + ap.evaluate(SELECTED_PAIRS)
    assert len(pairs) == 2, pairs
    for pair in pairs:
        assert pair["local"] == "relay" and pair["remote"] == "relay", pairs
    assert hp.locator(sel("no-relay")).count() == 0
    for phone in (host, ana):
        assert phone.errors == [], phone.errors


# A TURN Allocate from here (RFC 5766 over RFC 5389), to see coturn's verdict on a credential.

def stun_message(kind, tid, attrs, key=None):
    body = b"".join(struct.pack("!HH", t, len(v)) + v + b"\0" * (-len(v) % 4) for t, v in attrs)
    if key is None:
        return struct.pack("!HHI", kind, len(body), 0x2112A442) + tid + body
    head = struct.pack("!HHI", kind, len(body) + 24, 0x2112A442) + tid
    mac = hmac.new(key, head + body, hashlib.sha1).digest()
    return head + body + struct.pack("!HH", 0x0008, 20) + mac


def stun_attrs(data):
    out, i = {}, 20
    while i + 4 <= len(data):
        t, n = struct.unpack("!HH", data[i:i + 4])
        out[t] = data[i + 4:i + 4 + n]
        i += 4 + n + (-n % 4)
    return out


def allocate(port, username, password):
    """coturn's answer to an Allocate with this long-term credential: "ok" or the error code."""
    transport = (0x0019, bytes([17, 0, 0, 0]))            # REQUESTED-TRANSPORT: UDP
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(3)
        tid = secrets.token_bytes(12)
        s.sendto(stun_message(0x0003, tid, [transport]), ("127.0.0.1", port))
        attrs = stun_attrs(s.recvfrom(4096)[0])
        realm, nonce = attrs[0x0014], attrs[0x0015]
        key = hashlib.md5(b"%s:%s:%s" % (username.encode(), realm, password.encode())).digest()
        tid = secrets.token_bytes(12)
        s.sendto(stun_message(0x0003, tid, [(0x0006, username.encode()), (0x0014, realm),
                                            (0x0015, nonce), transport], key),
                 ("127.0.0.1", port))
        data = s.recvfrom(4096)[0]
    if struct.unpack("!H", data[:2])[0] == 0x0103:
        return "ok"
    code = stun_attrs(data).get(0x0009, b"\0\0\0\0")
    return code[2] * 100 + code[3]


def mint(port_of_site, origin=None, fetch_site=None):
    """GET /peerjs/turn from here as a browser would send it, with that Origin and
    Sec-Fetch-Site (none by default, as a same-origin fetch): (status, headers lower-cased
    as one text, body bytes)."""
    req = urllib.request.Request("http://127.0.0.1:%d/peerjs/turn" % port_of_site)
    if origin:
        req.add_header("Origin", origin)
    if fetch_site:
        req.add_header("Sec-Fetch-Site", fetch_site)
    try:
        with urllib.request.urlopen(req, timeout=5) as res:
            return res.status, str(res.headers).lower(), res.read()
    except urllib.error.HTTPError as refused:
        return refused.code, str(refused.headers).lower(), refused.read()


def test_coturn_refuses_an_expired_credential_and_takes_a_minted_one(turn_site):
    site, _, port, secret = turn_site
    status, _, body = mint(site.port)
    assert status == 200
    fresh = json.loads(body)["iceServers"][0]
    assert allocate(port, fresh["username"], fresh["credential"]) == "ok"
    old = "%d:crisp" % (time.time() - 60)
    mac = base64.b64encode(hmac.new(secret.encode(), old.encode(), hashlib.sha1).digest())
    assert allocate(port, old, mac.decode()) == 401
    forged = "%d:crisp" % (time.time() + 3600)              # not signed with the secret
    assert allocate(port, forged, fresh["credential"]) == 401


def test_the_endpoint_refuses_a_page_of_another_origin(new_phone, turn_site, site):
    own, _, _, _ = turn_site
    # a page of another origin (another server of this computer: another port)
    other = new_phone()
    other.page.goto(site.url("/build.json"))
    got = other.page.evaluate(
        "async (url) => { try { const r = await fetch(url); return r.status; }"
        " catch (e) { return 'refused'; } }", own.url("/peerjs/turn"))
    assert got == "refused"
    origin = "http://127.0.0.1:%d" % site.port
    status, head, _ = mint(own.port, origin=origin)
    assert status == 403 and "access-control-allow-origin" not in head
    assert mint(own.port, fetch_site="cross-site")[0] == 403          # a no-cors fetch
    assert mint(own.port, fetch_site="same-origin")[0] == 200          # the page's own


def test_without_the_endpoint_the_page_plays_on_and_says_there_is_no_relay(new_phone,
                                                                           turn_site):
    _, bare, _, _ = turn_site
    host, link = open_room(new_phone, "Hana", site=bare, engine=False)
    hp = host.page
    hp.wait_for_function("window.crisp.turn === 'failed'", timeout=T)
    note = hp.wait_for_selector(sel("no-relay"), timeout=T)
    assert "relay" in note.inner_text() or "retransmisi" in note.inner_text()
    assert hp.locator(sel("create-room")).count() == 0          # the lobby is there
    assert host.errors == []


# Two signaling servers: a room's pages all on the one its id hashes to.

@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    folder = tmp_path_factory.mktemp("two-signal")
    (folder / "ice.json").write_text("[]")            # no STUN: nothing leaves loopback
    ports = [free_port(), free_port()]
    signal = ",".join("http://127.0.0.1:%d/peerjs" % p for p in ports)
    dist = str(folder / "dist")
    subprocess.run(["python3", os.path.join(ROOT, "tools", "build.py"), "--hosted", "--test",
                    "--signaling", signal, "--ice", str(folder / "ice.json"), "--out", dist],
                   check=True, cwd=ROOT)
    procs = []
    with serve(dist) as site:
        try:
            for p in ports:
                log = open(str(folder / ("signal-%d.log" % p)), "w")
                procs.append(subprocess.Popen(
                    ["node", os.path.join(ROOT, "tools", "serve.mjs"), "--signal-only",
                     "--host", "127.0.0.1", "--port", str(p), "--origin",
                     "http://127.0.0.1:%d" % site.port], cwd=ROOT, stdout=log,
                    stderr=subprocess.STDOUT))
            for p in ports:
                deadline = time.monotonic() + 20
                while True:
                    try:
                        socket.create_connection(("127.0.0.1", p), timeout=1).close()
                        break
                    except OSError:
                        assert time.monotonic() < deadline, "signal-only server did not start"
                        time.sleep(0.1)
            yield site, ports
        finally:
            for proc in procs:
                stop(proc)


def signal_ports(phone):
    return {int(u.split(":")[2].split("/")[0]) for u in phone.requests
            if u.startswith("ws://127.0.0.1:") and "/peerjs/peerjs?" in u}


def test_a_rooms_pages_meet_on_the_signaling_server_its_id_hashes_to(new_phone, two_servers):
    site, ports = two_servers
    seen = set()
    for attempt in range(8):
        host, link = open_room(new_phone, "Hana", site=site, engine=False)
        hp = host.page
        room = link.split("?room=")[1]
        index = hp.evaluate("(id) => window.crisp.serverFor(id)", room)
        # every successor id of the room: the same server
        for epoch in (1, 2, 17):
            later = "%s-h%d-%s" % (room, epoch, secrets.token_hex(10))
            assert hp.evaluate("(id) => window.crisp.serverFor(id)", later) == index
        guest = join_room(new_phone, link, "Ana", 1, others=(hp,))
        assert signal_ports(host) == signal_ports(guest) == {ports[index]}, (
            signal_ports(host), signal_ports(guest), ports, index)
        assert guest.page.evaluate("(id) => window.crisp.serverFor(id)", room) == index
        seen.add(index)
        for phone in (host, guest):
            assert phone.errors == [], phone.errors
            phone.context.close()
        if seen == {0, 1}:
            break
    assert seen == {0, 1}, seen       # (1 chance in 128 of one server eight times)
