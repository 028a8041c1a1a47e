// The door of the LAN signaling server (tools/serve.mjs): which websockets reach the PeerJS
// server (npm `peer`), through its own hook for making its websocket server
// (`createWebSocketServer`). README.md "Playing on a LAN" says what it does:
//
//   - Host: every request (pages, /peerjs/peerjs/id, websockets) is refused (403) unless its
//     Host header names this computer: an IP address (the LAN addresses serve.mjs prints,
//     loopback: the address the browser connected to), `localhost`, its host name (and
//     <name>.local), or a name given with --allow-host. A page of another site whose DNS
//     name was pointed at this computer (DNS rebinding) asks with its own name, gets nothing.
//   - Origin: a websocket is refused (403) unless its Origin is the page's own
//     (http(s)://<the Host it asked for>, itself one of ours); an HTTP request that carries
//     an Origin (another site's fetch) likewise. Our own page's PeerJS asks for a guest's id
//     with a same-origin fetch, which carries none; no CORS header is ever sent.
//   - Per address: at most PER_ADDRESS open websockets from one remote address (429).
//     A phone's page holds one; 5,000 from one address used to fill the server for everyone.
//   - Reserved ids: when a peer's websocket closes, its id stays reserved for that peer's own
//     PeerJS token for RESERVE_MS (5 minutes): only the same token gets it back meanwhile
//     (anyone else hears ID-TAKEN, PeerJS's "unavailable-id"). The host page keeps one token
//     per room across reloads, so a reloading or reopened host gets its room id back first,
//     never someone who only has the room link. A newer websocket with the same id and token
//     replaces the old one (a reloaded page whose old socket is not closed yet).
import { isIP } from "node:net";
import os from "node:os";
import { URL } from "node:url";
import { WebSocketServer } from "ws";

export const RESERVE_MS = 5 * 60 * 1000;
export const PER_ADDRESS = 20;
export const RESERVED_PER_ADDRESS = 64;   // reservations one address may leave behind

const STATUS = { 403: "Forbidden", 404: "Not Found", 429: "Too Many Requests" };

function refuse(socket, code) {
  try {
    socket.end(`HTTP/1.1 ${code} ${STATUS[code]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  } catch {
    socket.destroy();
  }
}

/** True when `origin` is the page's own origin for a request to `host` (the Host header). */
export function sameOrigin(origin, host) {
  if (typeof origin !== "string" || typeof host !== "string" || !host) return false;
  host = host.toLowerCase();
  return origin === `http://${host}` || origin === `https://${host}`;
}

/** [name, port] of a Host header ("192.168.1.20:8000", "[fe80::1]:8000", "Crisp.LAN."):
 * the name lower-cased, without brackets or a final dot; port a number, or null when the
 * header gives none. null for anything else. */
export function splitHost(host) {
  if (typeof host !== "string" || !host || host.length > 300) return null;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:\[\]\s/@]+)(?::(\d{1,5}))?$/.exec(host);
  if (!m) return null;
  const name = m[1].toLowerCase().replace(/\.$/, "");
  return [name.startsWith("[") ? name.slice(1, -1) : name, m[2] === undefined ? null : Number(m[2])];
}

/** The names this computer answers to: "localhost" (and *.localhost), its host name and
 * <host name>.local (mDNS), and `extra` (--allow-host). Any IP address is ours too: a Host
 * that is an address is the one the browser connected to, and it reached this server (by
 * its LAN or loopback address, or through a port forward), whereas DNS rebinding needs a
 * name, the attacker's. */
export class OwnNames {
  constructor({ extra = [], hostname = () => os.hostname() } = {}) {
    this.names = new Set(["localhost"]);
    for (const n of extra) this.names.add(String(n).toLowerCase().replace(/\.$/, ""));
    const me = String(hostname() || "").toLowerCase();
    if (me) {
      this.names.add(me);
      if (!me.includes(".")) this.names.add(`${me}.local`);
    }
  }

  /** True when the Host header `host` names this computer. Its port is not compared with
   * ours: a browser always sends the URL's own host and port, so a request from a page of
   * another port carries that page's Origin (refused by `sameOrigin`), and a different port
   * means something forwarded the request here (a port forward, a test's TCP proxy). */
  ours(host) {
    const parts = splitHost(host);
    if (parts === null) return false;
    const name = parts[0];
    return isIP(name) !== 0 || this.names.has(name) || name.endsWith(".localhost");
  }
}

const REFUSED = "Crisp: this server answers only at its own addresses (open the address "
  + "./serve.sh printed; a name of this computer that it does not know: --allow-host NAME).\n";

export class SignalGuard {
  constructor({ reserveMs = RESERVE_MS, perAddress = PER_ADDRESS, now = () => Date.now(),
                allowHosts = [], names = null } = {}) {
    this.reserveMs = reserveMs;
    this.perAddress = perAddress;
    this.now = now;
    this.names = names || new OwnNames({ extra: allowHosts });
    this.open = new Map();     // remote address -> open sockets
    this.owners = new Map();   // peer id -> {token, address, sockets: Set, until}
  }

  /** True when a request may go on: its Host is one of ours, and its Origin, if it has one
   * (always, for a websocket: `needOrigin`), is that Host's. */
  allowed(req, needOrigin) {
    const host = req.headers.host;
    if (!this.names.ours(host)) return false;
    const origin = req.headers.origin;
    if (origin === undefined && !needOrigin) return true;
    return sameOrigin(origin, host);
  }

  /** Express middleware for every HTTP request (the pages and /peerjs): 403 unless
   * `allowed`. */
  http() {
    return (req, res, next) => {
      if (this.allowed(req, false)) return next();
      res.status(403).type("text/plain; charset=utf-8").send(REFUSED);
    };
  }

  /** The `createWebSocketServer` option of ExpressPeerServer: our own websocket server on
   * `options.server` at `options.path`, every upgrade checked here first. */
  factory() {
    return (options) => {
      const wss = new WebSocketServer({ noServer: true });
      options.server.on("upgrade", (req, socket, head) => {
        const path = new URL(req.url ?? "", "http://x").pathname;
        if (path !== options.path) return refuse(socket, 404);
        const address = req.socket.remoteAddress ?? "?";
        if (!this.allowed(req, true)) return refuse(socket, 403);
        const count = this.open.get(address) ?? 0;
        if (count >= this.perAddress) return refuse(socket, 429);
        this.open.set(address, count + 1);
        socket.once("close", () => {
          const left = (this.open.get(address) ?? 1) - 1;
          if (left > 0) this.open.set(address, left);
          else this.open.delete(address);
        });
        wss.handleUpgrade(req, socket, head, (ws) =>
          this.admit(ws, req, address, () => wss.emit("connection", ws, req)));
      });
      return wss;
    };
  }

  /** A websocket asking for a peer id: refused with ID-TAKEN while that id is held or
   * reserved for another token; else handed to the PeerJS server (`pass`). */
  admit(ws, req, address, pass) {
    const query = new URL(req.url ?? "", "http://x").searchParams;
    const id = query.get("id");
    const token = query.get("token");
    if (!id || !token) return pass();        // the PeerJS server answers that itself
    const now = this.now();
    let owner = this.owners.get(id);
    if (owner && owner.token !== token && (owner.sockets.size > 0 || now < owner.until)) {
      ws.send(JSON.stringify({ type: "ID-TAKEN", payload: { msg: "ID is taken" } }));
      ws.close();
      return;
    }
    if (!owner || owner.token !== token) {
      this.prune(address, now);
      owner = { token, address, sockets: new Set(), until: 0 };
      this.owners.set(id, owner);
    }
    const old = [...owner.sockets];
    owner.sockets.add(ws);
    ws.on("close", () => {
      owner.sockets.delete(ws);
      if (owner.sockets.size === 0) owner.until = this.now() + this.reserveMs;
    });
    if (!old.length) return pass();
    // The same peer again (a reload) while its old socket lingers: the PeerJS server would
    // take the new one without saying OPEN. Close the old one first, then pass.
    let waiting = old.length;
    const next = () => { if (--waiting === 0 && ws.readyState === ws.OPEN) pass(); };
    for (const s of old) {
      s.once("close", next);
      s.terminate();
    }
  }

  /** Forget expired reservations, and keep at most RESERVED_PER_ADDRESS of one address. */
  prune(address, now) {
    const mine = [];
    for (const [id, o] of this.owners) {
      if (o.sockets.size === 0 && now >= o.until) this.owners.delete(id);
      else if (o.address === address && o.sockets.size === 0) mine.push([o.until, id]);
    }
    mine.sort((a, b) => a[0] - b[0]);
    while (mine.length > RESERVED_PER_ADDRESS) this.owners.delete(mine.shift()[1]);
  }
}
