#!/usr/bin/env node
// One process for LAN play and tests: serves dist/ statically AND runs the PeerJS signaling
// server (npm `peer`, ExpressPeerServer) at /peerjs on the same port. A local build
// (python3 tools/build.py) points the page at this origin's /peerjs.
//
// The signaling server's door (tools/signal_guard.mjs): requests only for this computer's own
// names and addresses (no DNS rebinding), websockets only from the page's own origin, at most
// 20 from one address, and a peer's id reserved for its own PeerJS token for 5 minutes after
// its socket closes (a reloading host gets its room id back first).
//
//   node tools/serve.mjs [--port 8000] [--host 0.0.0.0] [--dir dist] [--verbose]
//                        [--reserve-ms 300000]   (how long ids stay reserved; tests shorten it)
//                        [--allow-host NAME]     (another name of this computer that phones
//                                                 use, e.g. one the router's DNS gives it;
//                                                 repeatable)
import http from "node:http";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import express from "express";
import compression from "compression";
import { ExpressPeerServer } from "peer";
import { RESERVE_MS, SignalGuard } from "./signal_guard.mjs";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function parseArgs(argv) {
  const args = { port: 8000, host: "0.0.0.0", dir: path.join(ROOT, "dist"), verbose: false,
                 reserveMs: RESERVE_MS, allowHosts: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (a.includes("=")) return a.slice(a.indexOf("=") + 1);
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a.startsWith("--port")) args.port = Number(value());
    else if (a.startsWith("--host")) args.host = value();
    else if (a.startsWith("--dir")) args.dir = path.resolve(value());
    else if (a.startsWith("--reserve-ms")) args.reserveMs = Number(value());
    else if (a.startsWith("--allow-host")) args.allowHosts.push(...value().split(","));
    else if (a === "--verbose" || a === "-v") args.verbose = true;
    else if (a === "--help" || a === "-h") {
      console.log("usage: node tools/serve.mjs [--port 8000] [--host 0.0.0.0] [--dir dist] [--verbose] [--reserve-ms 300000] [--allow-host NAME]");
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535)
    throw new Error(`bad --port ${args.port}`);
  if (!Number.isInteger(args.reserveMs) || args.reserveMs < 0)
    throw new Error(`bad --reserve-ms ${args.reserveMs}`);
  for (const name of args.allowHosts)
    if (!/^[A-Za-z0-9.-]+$/.test(name)) throw new Error(`bad --allow-host ${name}`);
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
  if (!fs.existsSync(path.join(args.dir, "index.html"))) {
    console.error(`serve: ${args.dir}/index.html not found: build first (python3 tools/build.py)`);
    process.exit(1);
  }

  const app = express();
  app.disable("x-powered-by");
  const server = http.createServer(app);

  // Every request, first: only for this computer's own names and addresses, and only from
  // its own pages when it says where it comes from (tools/signal_guard.mjs).
  const guard = new SignalGuard({ reserveMs: args.reserveMs, allowHosts: args.allowHosts });
  app.use(guard.http());

  // Signaling: client options {host: location.hostname, port: location.port, path: "/peerjs"}.
  // concurrent_limit: every peer on the server at once (a LAN party is a few dozen; the
  // per-address cap keeps one machine from taking them all). The guard makes the websocket
  // server (peer's createWebSocketServer hook) and checks every upgrade first. No CORS:
  // the page's PeerJS asks for a guest's id from its own origin (corsOptions origin false).
  const peerServer = ExpressPeerServer(server, {
    path: "/", key: "peerjs", allow_discovery: false, concurrent_limit: 500,
    createWebSocketServer: guard.factory(), corsOptions: { origin: false },
  });
  if (args.verbose) {
    peerServer.on("connection", (c) => console.log(`peer: + ${c.getId()}`));
    peerServer.on("disconnect", (c) => console.log(`peer: - ${c.getId()}`));
  }
  peerServer.on("error", (e) => console.error(`peer: ${e.message || e}`));
  app.use("/peerjs", peerServer);

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

  server.on("error", (e) => {
    console.error(`serve: ${e.code === "EADDRINUSE" ? `port ${args.port} is in use` : e.message}`);
    process.exit(1);
  });
  server.listen(args.port, args.host, () => {
    const port = server.address().port;
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
