"""The network-conditions harness for e2e tests and benchmarks (the kernel here has no
`sch_netem`): each page gets a link of its own with a profile (e2e/net_profiles.py: lan, 4g,
3g, stall) applied to both of its paths:

  - its WebRTC traffic: a UDP proxy between the page and the TURN relay (Debian's coturn,
    e2e/turn_relay.py) of a relay-only test build; the page's RTCPeerConnections are told
    to use the proxy's port as their TURN server (`page_init`, an init script that rewrites
    the configuration the page gives them), so every packet of its data channels crosses
    the proxy, delayed, jittered, lost or blacked out as the profile says, each way;
  - its page and signaling websocket: a TCP proxy in front of the site (the page is opened
    at the proxy's port, `Link.url`; PeerJS signals to the page's own origin), each chunk
    delayed as the profile says and held through a blackout (TCP loses nothing).

`Net(turn_port, site_port)` runs every proxy in one child process (asyncio; a thread next to
Playwright's sync API is too slow), spoken to over its stdin/stdout, and stops it by its PID
(`close()`). `net.link(name, profile, seed)` -> Link (.udp, .tcp ports; .url(url) the same
URL through this link); `net.set(name, profile, first_ms)` changes a link's profile (a stall's
first blackout `first_ms` after); `net.stats(name)` -> what its UDP directions did
({"up": {"passed", "lost", "blacked"}, "down": ...}). Only 127.0.0.1.

`python3 e2e/netem.py <turn port> <site port>` is the child: it prints "ready", then takes a
command a line and answers one line (see _Child.command).
"""

import asyncio
import collections
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from net_profiles import Direction, profile  # noqa: E402
from tcp_proxy import stop_child  # noqa: E402
from turn_relay import SELECTED_PAIRS  # noqa: E402

HOST = "127.0.0.1"


class Link:
    """A page's link: its UDP proxy port (its TURN server) and TCP proxy port (its site)."""

    def __init__(self, name, profile_name, udp, tcp):
        self.name, self.profile, self.udp, self.tcp = name, profile_name, udp, tcp

    def url(self, url):
        """`url` (on 127.0.0.1:<any port>) opened through this link's TCP proxy."""
        head, sep, rest = url.partition("127.0.0.1:")
        port = "".join(c for c in rest[:6] if c.isdigit())
        return head + sep + str(self.tcp) + rest[len(port):]


class Net:
    """The harness's child process (see the module doc)."""

    def __init__(self, turn_port, site_port):
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), str(turn_port),
                                      str(site_port)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "ready":
            self.close()
            raise RuntimeError("the network harness did not start")
        self.links = {}

    def _ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if answer.startswith("error"):
            raise ValueError(answer)
        return answer

    def link(self, name, profile_name, seed=0):
        udp, tcp = self._ask("link %s %s %d" % (_word(name), profile_name, seed)).split()
        self.links[name] = Link(name, profile_name, int(udp), int(tcp))
        return self.links[name]

    def set(self, name, profile_name, first_ms=None):
        self._ask("set %s %s %s" % (_word(name), profile_name, "-" if first_ms is None
                                    else int(first_ms)))
        self.links[name].profile = profile_name

    def stats(self, name):
        return json.loads(self._ask("stats %s" % _word(name)))

    def close(self):
        stop_child(self.proc)


def _word(name):
    """A link's name as one word of a command line."""
    return "_".join(str(name).split()) or "_"


def now_ms():
    return time.monotonic() * 1000


class Delayed:
    """Items sent out in order, each at its due time (ms, time.monotonic's): `put(due, send,
    item)`; the loop sends every item whose time has come, then sleeps until the next."""

    def __init__(self, loop):
        self.loop, self.queue, self.timer = loop, collections.deque(), None

    def put(self, due, send, item):
        self.queue.append((due, send, item))
        if self.timer is None:
            self._arm()

    def _arm(self):
        due = self.queue[0][0]
        self.timer = self.loop.call_at(self.loop.time() + max(0.0, due - now_ms()) / 1000,
                                       self._run)

    def _run(self):
        self.timer = None
        t = now_ms() + 0.5
        while self.queue and self.queue[0][0] <= t:
            _, send, item = self.queue.popleft()
            try:
                send(item)
            except Exception:
                pass
        if self.queue:
            self._arm()


class Upstream(asyncio.DatagramProtocol):
    """The proxy's socket to the relay for one of the page's sockets: what the relay sends
    goes back to that page socket, down the link."""

    def __init__(self, link, client):
        self.link, self.client, self.transport = link, client, None

    def connection_made(self, transport):
        self.transport = transport

    def datagram_received(self, data, addr):
        self.link.down_packet(data, self.client)


class UdpLink(asyncio.DatagramProtocol):
    """A page's UDP proxy: one upstream socket to the relay per page socket."""

    def __init__(self, loop, turn_port, p, seed):
        self.loop, self.turn = loop, (HOST, turn_port)
        self.up = Direction(p, now_ms(), seed * 2 + 1)
        self.down = Direction(p, now_ms(), seed * 2 + 2)
        self.up_q, self.down_q = Delayed(loop), Delayed(loop)
        self.uplinks, self.pending, self.transport = {}, {}, None

    def connection_made(self, transport):
        self.transport = transport

    def set(self, p):
        self.up.set(p, now_ms())
        self.down.set(p, now_ms())

    def datagram_received(self, data, addr):
        due = self.up.decide(now_ms())
        if due is None:
            return
        up = self.uplinks.get(addr)
        if up is None:
            if addr not in self.pending:
                self.pending[addr] = []
                self.loop.create_task(self._open(addr))
            self.pending[addr].append((due, data))
            return
        self.up_q.put(due, up.transport.sendto, data)

    async def _open(self, addr):
        _, up = await self.loop.create_datagram_endpoint(
            lambda: Upstream(self, addr), remote_addr=self.turn)
        self.uplinks[addr] = up
        for due, data in self.pending.pop(addr):
            self.up_q.put(due, up.transport.sendto, data)

    def down_packet(self, data, client):
        due = self.down.decide(now_ms())
        if due is not None:
            self.down_q.put(due, lambda d: self.transport.sendto(d, client), data)


class TcpLink:
    """A page's TCP proxy in front of the site: every chunk delayed each way, held through a
    blackout."""

    def __init__(self, loop, site_port, p, seed):
        self.loop, self.site = loop, (HOST, site_port)
        self.p, self.seed, self.count = p, seed, 0
        self.dirs = []

    def set(self, p):
        self.p = p
        for d in self.dirs:
            d.set(p, now_ms())

    async def client(self, reader, writer):
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.site)
        except OSError:
            writer.transport.abort()
            return
        self.count += 1
        ways = []
        for k in (1, 2):
            d = Direction(self.p, now_ms(), self.seed * 1000 + self.count * 2 + k, stream=True)
            self.dirs.append(d)
            ways.append(d)
        try:
            await asyncio.gather(self._pump(reader, up_writer, ways[0]),
                                 self._pump(up_reader, writer, ways[1]))
        finally:
            self.dirs = [d for d in self.dirs if d not in ways]

    async def _pump(self, src, dst, direction):
        queue = Delayed(self.loop)

        def send(data):
            if data is None:
                dst.close()
            else:
                dst.write(data)
        try:
            while True:
                data = await src.read(65536)
                queue.put(direction.decide(now_ms()), send, data or None)
                if not data:
                    break
        except (OSError, ConnectionError):
            queue.put(now_ms(), send, None)


class _Child:
    def __init__(self, turn_port, site_port):
        self.turn_port, self.site_port = turn_port, site_port
        self.links = {}

    async def command(self, line):
        """`link NAME PROFILE SEED` -> "UDP_PORT TCP_PORT"; `set NAME PROFILE FIRST_MS|-` ->
        "ok"; `stats NAME` -> a JSON line; anything else "error ..."."""
        words = line.split()
        loop = asyncio.get_running_loop()
        try:
            if words[0] == "link":
                name, p, seed = words[1], profile(words[2]), int(words[3])
                transport, udp = await loop.create_datagram_endpoint(
                    lambda: UdpLink(loop, self.turn_port, p, seed), local_addr=(HOST, 0))
                tcp = TcpLink(loop, self.site_port, p, seed)
                server = await asyncio.start_server(tcp.client, HOST, 0)
                self.links[name] = (udp, tcp, server)
                return "%d %d" % (transport.get_extra_info("sockname")[1],
                                  server.sockets[0].getsockname()[1])
            if words[0] == "set":
                udp, tcp, _ = self.links[words[1]]
                p = profile(words[2], None if words[3] == "-" else int(words[3]))
                udp.set(p)
                tcp.set(p)
                return "ok"
            if words[0] == "stats":
                udp = self.links[words[1]][0]
                return json.dumps({"up": udp.up.counts, "down": udp.down.counts})
        except (IndexError, KeyError, ValueError) as e:
            return "error %r" % (e,)
        return "error unknown command"

    async def run(self):
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        print("ready", flush=True)
        while True:
            line = await reader.readline()
            if not line:
                break
            if line.strip():
                print(await self.command(line.decode()), flush=True)
        sys.stdout.flush()
        os._exit(0)         # stdin closed: the sockets go with the process, no task to wind up


# The page's RTCPeerConnections (in window.__crispPCs, as turn_relay.PC_TAP) use this link's
# UDP proxy as their TURN server: the configuration's TURN URLs are rewritten to its port.
PAGE_INIT = """
(() => {
  window.__crispPCs = [];
  const Native = window.RTCPeerConnection;
  if (!Native) return;
  const port = %d;
  const turn = (u) => u.replace(/^(turns?):([^:?]+)(:\\d+)?/, "$1:127.0.0.1:" + port);
  class Linked extends Native {
    constructor(config, ...rest) {
      config = Object.assign({}, config || {});
      config.iceServers = (config.iceServers || []).map((s) => Object.assign({}, s, {
        urls: Array.isArray(s.urls) ? s.urls.map(turn) : turn(s.urls)}));
      super(config, ...rest);
      window.__crispPCs.push(this);
    }
  }
  window.RTCPeerConnection = Linked;
})();
"""


def page_init(link):
    """The init script that sends a page's WebRTC through `link` (a Link)."""
    return PAGE_INIT % link.udp


def round_trips(page):
    """[{local, remote, address, rtt (ms or None)}] of the page's connected RTCPeerConnections
    that have a selected candidate pair (turn_relay.SELECTED_PAIRS, which says how it is found)."""
    return [p for p in page.evaluate(SELECTED_PAIRS) if p["local"] is not None]


if __name__ == "__main__":
    asyncio.run(_Child(int(sys.argv[1]), int(sys.argv[2])).run())
