// The door of the LAN signaling server (tools/serve.mjs): which websockets reach the PeerJS
// server (npm `peer`), through its own hook for making its websocket server
// (`createWebSocketServer`). README.md "Playing on a LAN" says what it does:
//
//   - Origin: a websocket is refused (403) unless its Origin is the page's own
//     (http(s)://<the Host it asked for>): no other site's page can use this server.
//   - Per address: at most PER_ADDRESS open websockets from one remote address (429).
//     A phone's page holds one; 5,000 from one address used to fill the server for everyone.
//   - Reserved ids: when a peer's websocket closes, its id stays reserved for that peer's own
//     PeerJS token for RESERVE_MS (5 minutes): only the same token gets it back meanwhile
//     (anyone else hears ID-TAKEN, PeerJS's "unavailable-id"). The host page keeps one token
//     per room across reloads, so a reloading or reopened host gets its room id back first,
//     never someone who only has the room link. A newer websocket with the same id and token
//     replaces the old one (a reloaded page whose old socket is not closed yet).
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
  return origin === `http://${host}` || origin === `https://${host}`;
}

export class SignalGuard {
  constructor({ reserveMs = RESERVE_MS, perAddress = PER_ADDRESS, now = () => Date.now() } = {}) {
    this.reserveMs = reserveMs;
    this.perAddress = perAddress;
    this.now = now;
    this.open = new Map();     // remote address -> open sockets
    this.owners = new Map();   // peer id -> {token, address, sockets: Set, until}
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
        if (!sameOrigin(req.headers.origin, req.headers.host)) return refuse(socket, 403);
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
