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
//   - Crisp's ids only: a websocket asks for a room id ("crisp-" + a room code or 32 hex
//     digits, perhaps after a handover's "-h<k>-<tag>", ui/shared/roomcode.py) or an id this
//     server gave (a guest's, PeerJS's uuid); a message names one as its destination. Anything
//     else gets PeerJS's ERROR and its socket is closed.
//   - Messages: at most MAX_MESSAGE bytes (bigger closes that socket, 1009), JSON objects of
//     PeerJS's own types only (others are dropped), at most MESSAGE_BURST at once from one
//     socket then MESSAGE_RATE a second (more closes it, 1008), and at most OFFER_BURST offers
//     at once to one id then OFFER_RATE a second from everyone (the rest are dropped): a flood
//     aimed at a host's id costs that host nothing, and other peers never notice it.
//   - A deployment (serve.mjs --signal-only) names the origins of its pages (`origins`): their
//     websockets and requests are let in too; behind a TLS proxy (`proxied`) a client's
//     address is the last one the proxy added to X-Forwarded-For.
import { isIP } from "node:net";
import os from "node:os";
import { URL } from "node:url";
import { WebSocketServer } from "ws";

export const RESERVE_MS = 5 * 60 * 1000;
export const PER_ADDRESS = 20;
export const RESERVED_PER_ADDRESS = 64;   // reservations one address may leave behind
// An offer is 2-6 kB of SDP, a candidate a few hundred bytes: 64 kB is room for any of ours
// (ws's own default is 100 MB).
export const MAX_MESSAGE = 64 * 1024;
// One page's Peer sends a heartbeat every 5 s, and per connection an offer or answer and a few
// dozen candidates at once: a burst of 200 then 50 a second is far above that.
export const MESSAGE_BURST = 200;
export const MESSAGE_RATE = 50;
// A room's host hears one offer per guest connection attempt (8 seats, spectators, retries).
export const OFFER_BURST = 60;
export const OFFER_RATE = 10;
const TYPES = new Set(["HEARTBEAT", "OFFER", "ANSWER", "CANDIDATE", "LEAVE", "EXPIRE"]);
const ROOM_ID = /^crisp-([0-9A-HJKMNP-TV-Z]{10}|[0-9a-f]{32})(-h[0-9]{1,2}-[0-9a-f]{20})?$/;
const SERVER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for an id a Crisp page registers with: a room id (ui/shared/roomcode.py is_room_id,
 * the handover's suffix ui/shared/handover.py room_id_after) or an id the PeerJS server gave
 * a guest (a uuid). */
export function crispId(id) {
  return typeof id === "string" && id.length <= 64 && (ROOM_ID.test(id) || SERVER_ID.test(id));
}

/** A token bucket: `take()` is true while there are tokens (`burst` at most, `rate` more a
 * second, by the clock `now`, ms). */
export class Bucket {
  constructor(burst, rate, now) {
    this.burst = burst;
    this.rate = rate;
    this.tokens = burst;
    this.at = now;
  }

  take(now) {
    this.tokens = Math.min(this.burst, this.tokens + (now - this.at) * this.rate / 1000);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

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

/** The client's address of request `req`: the socket's, or behind a TLS proxy (`proxied`)
 * the last address in X-Forwarded-For (the one the proxy itself added; earlier ones are
 * whatever the client wrote). */
export function clientAddress(req, proxied) {
  const own = req.socket?.remoteAddress ?? "?";
  if (!proxied) return own;
  const forwarded = req.headers["x-forwarded-for"];
  if (typeof forwarded !== "string") return own;
  const last = forwarded.split(",").pop().trim();
  return isIP(last) ? last : own;
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
                allowHosts = [], names = null, origins = [], proxied = false,
                maxMessage = MAX_MESSAGE, messageBurst = MESSAGE_BURST,
                messageRate = MESSAGE_RATE, offerBurst = OFFER_BURST,
                offerRate = OFFER_RATE } = {}) {
    this.reserveMs = reserveMs;
    this.perAddress = perAddress;
    this.now = now;
    this.origins = new Set(origins);
    this.proxied = proxied;
    this.maxMessage = maxMessage;
    this.messageBurst = messageBurst;
    this.messageRate = messageRate;
    this.offerBurst = offerBurst;
    this.offerRate = offerRate;
    this.offers = new Map();   // destination id -> Bucket of the offers it may still hear
    this.refused = { frames: 0, oversize: 0, flood: 0, offers: 0, ids: 0, junk: 0 };
    this.names = names || new OwnNames({ extra: allowHosts });
    this.open = new Map();     // remote address -> open sockets
    this.owners = new Map();   // peer id -> {token, address, sockets: Set, until}
  }

  /** True when a request may go on: its Host is one of ours, and its Origin, if it has one
   * (always, for a websocket: `needOrigin`), is that Host's or one of `origins`. */
  allowed(req, needOrigin) {
    const host = req.headers.host;
    if (!this.names.ours(host)) return false;
    const origin = req.headers.origin;
    if (origin === undefined && !needOrigin) return true;
    return sameOrigin(origin, host) || this.ownPage(origin);
  }

  /** True when `origin` is one the deployment named for its pages (`origins`). */
  ownPage(origin) {
    return typeof origin === "string" && this.origins.has(origin);
  }

  /** The client's address of `req` (clientAddress). */
  address(req) {
    return clientAddress(req, this.proxied);
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
      const wss = new WebSocketServer({ noServer: true, maxPayload: this.maxMessage });
      options.server.on("upgrade", (req, socket, head) => {
        const path = new URL(req.url ?? "", "http://x").pathname;
        if (path !== options.path) return refuse(socket, 404);
        const address = this.address(req);
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
    this.watch(ws);
    if (!id || !token) return pass();        // the PeerJS server answers that itself
    if (!crispId(id) || token.length > 64) {
      this.refused.ids++;
      ws.send(JSON.stringify({ type: "ERROR", payload: { msg: "Crisp ids only" } }));
      ws.close(1008);
      return;
    }
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

  /** Every message of websocket `ws` goes through `message` before the PeerJS server's own
   * listeners see it (they are added after this, on the same emitter); a socket error (a
   * malformed frame, an oversize message: ws closes the socket itself) is counted, never
   * thrown. */
  watch(ws) {
    const bucket = new Bucket(this.messageBurst, this.messageRate, this.now());
    ws.on("error", (e) => {
      if (e && e.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") this.refused.oversize++;
      else this.refused.frames++;
    });
    const emit = ws.emit;
    ws.emit = (event, ...args) => {
      if (event !== "message") return emit.call(ws, event, ...args);
      const [data, binary] = args;
      if (!bucket.take(this.now())) {
        this.refused.flood++;
        ws.close(1008);
        return false;
      }
      return this.message(data, binary) ? emit.call(ws, event, ...args) : false;
    };
  }

  /** True when a message (`data` of a websocket, `binary` or text) may reach the PeerJS
   * server: a JSON object of one of its types, its `dst` a Crisp id, and for an OFFER one its
   * destination may still hear (OFFER_BURST, then OFFER_RATE a second). */
  message(data, binary) {
    let msg = null;
    try {
      msg = binary ? null : JSON.parse(data.toString());
    } catch {
      msg = null;
    }
    if (msg === null || typeof msg !== "object" || Array.isArray(msg) || !TYPES.has(msg.type)) {
      this.refused.junk++;
      return false;
    }
    if (msg.type === "HEARTBEAT") return true;
    if (!crispId(msg.dst)) {
      this.refused.ids++;
      return false;
    }
    if (msg.type !== "OFFER") return true;
    const now = this.now();
    let bucket = this.offers.get(msg.dst);
    if (!bucket) {
      if (this.offers.size > 100000) this.offers.clear();    // a flood of made-up ids
      bucket = new Bucket(this.offerBurst, this.offerRate, now);
      this.offers.set(msg.dst, bucket);
    }
    if (bucket.take(now)) return true;
    this.refused.offers++;
    return false;
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
