#!/usr/bin/env node
// One process for LAN play and tests: serves dist/ statically AND runs the PeerJS signaling
// server (npm `peer`, ExpressPeerServer) at /peerjs on the same port. A local build
// (python3 tools/build.py) points the page at this origin's /peerjs. With --signal-only it is
// a deployment's signaling server (README.md "Your own servers"): no files, only /peerjs,
// behind a TLS proxy (--proxied) or with its own certificate (--cert, --key), for the pages
// of the origins named with --origin.
//
// The signaling server's door (tools/signal_guard.mjs): requests only for this computer's own
// names and addresses (no DNS rebinding), websockets only from the page's own origin (or an
// --origin), at most --per-address from one address, --max-peers in all, Crisp's ids only,
// messages bounded in size and rate, and a peer's id reserved for its own PeerJS token for
// 5 minutes after its socket closes (a reloading host gets its room id back first).
// With --turn-secret it also answers GET /peerjs/turn with TURN credentials for one player
// (tools/turn_mint.mjs).
//
//   node tools/serve.mjs [--port 8000] [--host 0.0.0.0] [--dir dist] [--verbose]
//                        [--reserve-ms 300000]   (how long ids stay reserved; tests shorten it)
//                        [--allow-host NAME]     (another name of this computer that phones
//                                                 use, e.g. one the router's DNS gives it, or
//                                                 a deployment's public name; repeatable)
//                        [--signal-only] [--origin https://crisp.example.org] (repeatable)
//                        [--proxied] | [--cert FILE --key FILE]
//                        [--per-address 20] [--max-peers 5000] [--max-message 65536]
//                        [--turn-secret FILE --turn-url turn:turn.example.org:3478 ...]
//                        [--turn-ttl 14400]      (seconds a credential is good)
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import express from "express";
import compression from "compression";
import { ExpressPeerServer } from "peer";
import { MAX_MESSAGE, PER_ADDRESS, RESERVE_MS, SignalGuard } from "./signal_guard.mjs";
import { TURN_TTL_S, TurnMint, loadSecret, turnUrlOk } from "./turn_mint.mjs";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// Every peer on the server at once: a LAN party is a few dozen; a deployment's one process
// holds far more (bench/signal_bench.mjs measures it), and the per-address cap keeps one
// machine from taking them all.
const LAN_PEERS = 500;
const MAX_PEERS = 5000;
const USAGE = "usage: node tools/serve.mjs [--port 8000] [--host 0.0.0.0] [--dir dist] "
  + "[--verbose] [--reserve-ms 300000] [--allow-host NAME] [--signal-only] [--origin URL] "
  + "[--proxied | --cert FILE --key FILE] [--per-address 20] [--max-peers 5000] "
  + "[--max-message 65536] [--turn-secret FILE --turn-url URL] [--turn-ttl 14400]";

function parseArgs(argv) {
  const args = { port: 8000, host: null, dir: path.join(ROOT, "dist"), verbose: false,
                 reserveMs: RESERVE_MS, allowHosts: [], signalOnly: false, origins: [],
                 proxied: false, cert: null, key: null, perAddress: PER_ADDRESS,
                 maxPeers: null, maxMessage: MAX_MESSAGE, turnSecret: null, turnUrls: [],
                 turnTtl: TURN_TTL_S };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (a.includes("=")) return a.slice(a.indexOf("=") + 1);
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    const name = a.split("=")[0];
    if (name === "--port") args.port = Number(value());
    else if (name === "--host") args.host = value();
    else if (name === "--dir") args.dir = path.resolve(value());
    else if (name === "--reserve-ms") args.reserveMs = Number(value());
    else if (name === "--allow-host") args.allowHosts.push(...value().split(","));
    else if (name === "--origin") args.origins.push(...value().split(","));
    else if (name === "--signal-only") args.signalOnly = true;
    else if (name === "--proxied") args.proxied = true;
    else if (name === "--cert") args.cert = value();
    else if (name === "--key") args.key = value();
    else if (name === "--per-address") args.perAddress = Number(value());
    else if (name === "--max-peers") args.maxPeers = Number(value());
    else if (name === "--max-message") args.maxMessage = Number(value());
    else if (name === "--turn-secret") args.turnSecret = value();
    else if (name === "--turn-url") args.turnUrls.push(...value().split(","));
    else if (name === "--turn-ttl") args.turnTtl = Number(value());
    else if (a === "--verbose" || a === "-v") args.verbose = true;
    else if (a === "--help" || a === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return checkArgs(args);
}

function checkArgs(args) {
  const count = (v, low) => Number.isInteger(v) && v >= low;
  if (!count(args.port, 0) || args.port > 65535) throw new Error(`bad --port ${args.port}`);
  if (!count(args.reserveMs, 0)) throw new Error(`bad --reserve-ms ${args.reserveMs}`);
  if (!count(args.perAddress, 1)) throw new Error(`bad --per-address ${args.perAddress}`);
  if (args.maxPeers === null) args.maxPeers = args.signalOnly ? MAX_PEERS : LAN_PEERS;
  if (!count(args.maxPeers, 1)) throw new Error(`bad --max-peers ${args.maxPeers}`);
  if (!count(args.maxMessage, 1024)) throw new Error(`bad --max-message ${args.maxMessage}`);
  if (!count(args.turnTtl, 60) || args.turnTtl > 86400) throw new Error(`bad --turn-ttl ${args.turnTtl}`);
  for (const name of args.allowHosts)
    if (!/^[A-Za-z0-9.-]+$/.test(name)) throw new Error(`bad --allow-host ${name}`);
  for (const origin of args.origins)
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin))
      throw new Error(`bad --origin ${origin}: give it as https://host[:port]`);
  if ((args.cert === null) !== (args.key === null)) throw new Error("--cert and --key go together");
  if (args.cert && args.proxied) throw new Error("--proxied (TLS at the proxy) or --cert/--key, not both");
  if (args.turnSecret && !args.turnUrls.length) throw new Error("--turn-secret needs --turn-url");
  for (const url of args.turnUrls)
    if (!turnUrlOk(url)) throw new Error(`bad --turn-url ${url}: turn:host[:port] or turns:...`);
  // Behind a proxy only the proxy talks to it; a LAN server listens for the phones.
  if (args.host === null) args.host = args.proxied ? "127.0.0.1" : "0.0.0.0";
  return args;
}

// Explicit types for what the page loads; express's own table is used for the rest.
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".zip": "application/zip",
  // the engine's memory snapshot, gzipped by the build: sent as it is (no Content-Encoding,
  // not compressed again), inflated by engine-worker.js
  ".gz": "application/gzip",
  ".toml": "application/toml; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".py": "text/x-python; charset=utf-8",
  ".svg": "image/svg+xml",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".png": "image/png",
};

// Paths (relative to the served folder) whose content never changes: see tools/build.py.
const VERSIONED = /^(py\/[a-z]+-[0-9a-f]{8,}\.(zip|gz)|vendor\/[a-z]+-\d+\.\d+\.\d+[^/]*\/.+)$/;

function lanAddresses() {
  const out = [];
  for (const [name, addrs] of Object.entries(os.networkInterfaces())) {
    for (const a of addrs || []) {
      if ((a.family === "IPv4" || a.family === 4) && !a.internal) out.push({ name, address: a.address });
    }
  }
  return out;
}

function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`serve: ${e.message}`);
    process.exit(2);
  }
  if (!args.signalOnly && !fs.existsSync(path.join(args.dir, "index.html"))) {
    console.error(`serve: ${args.dir}/index.html not found: build first (python3 tools/build.py)`);
    process.exit(1);
  }

  let mint = null;
  let tls = null;
  try {
    if (args.turnSecret)
      mint = new TurnMint({ secret: loadSecret(args.turnSecret), urls: args.turnUrls, ttlS: args.turnTtl });
    if (args.cert) tls = { cert: fs.readFileSync(args.cert), key: fs.readFileSync(args.key) };
  } catch (e) {
    console.error(`serve: ${e.message}`);
    process.exit(1);
  }

  const app = express();
  app.disable("x-powered-by");
  if (args.proxied) app.set("trust proxy", "loopback");
  const server = tls ? https.createServer(tls, app) : http.createServer(app);

  // Every request, first: only for this computer's own names and addresses, and only from
  // its own pages when it says where it comes from (tools/signal_guard.mjs).
  const guard = new SignalGuard({ reserveMs: args.reserveMs, allowHosts: args.allowHosts,
                                  origins: args.origins, proxied: args.proxied,
                                  perAddress: args.perAddress, maxMessage: args.maxMessage });
  app.use(guard.http());
  // Per-player TURN credentials for our own pages (tools/turn_mint.mjs); before /peerjs.
  if (mint) app.get("/peerjs/turn", mint.handler(guard));

  // Signaling: client options {host: location.hostname, port: location.port, path: "/peerjs"}.
  // The guard makes the websocket server (peer's createWebSocketServer hook) and checks every
  // upgrade first. CORS only for the deployment's --origin pages: a LAN page's PeerJS asks
  // for a guest's id from its own origin.
  const peerServer = ExpressPeerServer(server, {
    path: "/", key: "peerjs", allow_discovery: false, concurrent_limit: args.maxPeers,
    createWebSocketServer: guard.factory(),
    corsOptions: { origin: args.origins.length ? args.origins : false },
  });
  if (args.verbose) {
    peerServer.on("connection", (c) => console.log(`peer: + ${c.getId()}`));
    peerServer.on("disconnect", (c) => console.log(`peer: - ${c.getId()}`));
  }
  peerServer.on("error", (e) => console.error(`peer: ${e.message || e}`));
  app.use("/peerjs", peerServer);

  if (args.signalOnly) return listen(server, args);
  // gzip what compresses (the Pyodide wasm and stdlib, scripts, styles): a phone on Wi-Fi
  // downloads the host page in about a third of the bytes. Websockets are not affected.
  app.use(compression());

  // Static files. Versioned files (a path that names its content: the content-hashed Python
  // zips py/<kind>-<hash>.zip, the vendored packages under vendor/<name>-<version>/) never
  // change, so they are cached for good (immutable: not even revalidated on reload). The
  // rest (index.html, boot.js, config.js, sw.js, ...) is no-cache: always revalidated
  // (ETag / Last-Modified), so a rebuild is seen at once and an unchanged file costs a 304.
  app.use(express.static(args.dir, {
    index: ["index.html"],
    dotfiles: "ignore",
    setHeaders(res, file) {
      const type = TYPES[path.extname(file).toLowerCase()];
      if (type) res.setHeader("Content-Type", type);
      const rel = path.relative(args.dir, file).split(path.sep).join("/");
      res.setHeader("Cache-Control", VERSIONED.test(rel)
        ? "public, max-age=31536000, immutable" : "no-cache");
      res.setHeader("X-Content-Type-Options", "nosniff");
    },
  }));
  if (args.verbose) app.use((req, res, next) => { console.log(`404 ${req.url}`); next(); });
  listen(server, args);
}

function listen(server, args) {
  server.on("error", (e) => {
    console.error(`serve: ${e.code === "EADDRINUSE" ? `port ${args.port} is in use` : e.message}`);
    process.exit(1);
  });
  server.listen(args.port, args.host, () => {
    const port = server.address().port;
    if (args.signalOnly) {
      const scheme = args.cert ? "https" : "http";
      console.log(`Crisp: signaling server (/peerjs${args.turnSecret ? ", /peerjs/turn" : ""}) `
        + `on ${scheme}://${args.host}:${port}/ for ${args.origins.join(" ") || "its own origin"}`
        + `${args.proxied ? " (behind a proxy)" : ""}; at most ${args.maxPeers} peers`);
      return;
    }
    const dir = path.relative(process.cwd(), args.dir) || ".";
    console.log(`Crisp: serving ${dir}/ and the PeerJS signaling server (/peerjs) on port ${port}`);
    console.log(`  on this computer:  http://localhost:${port}/`);
    const lan = args.host === "0.0.0.0" || args.host === "::" ? lanAddresses() : [];
    for (const { name, address } of lan) console.log(`  on the LAN (${name}): http://${address}:${port}/`);
    if (!lan.length && (args.host === "0.0.0.0" || args.host === "::"))
      console.log("  (no LAN address found: connect this computer to the Wi-Fi the phones use)");
    console.log("Phones on the same Wi-Fi open the LAN address. Ctrl+C stops.");
  });

  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections?.();
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main();
