#!/usr/bin/env node
// How many peers one signaling process holds (tools/serve.mjs --signal-only, its door
// tools/signal_guard.mjs included). Prints numbers; asserts nothing.
//
//   nice node bench/signal_bench.mjs [--steps 1000,5000,10000] [--measure-s 10]
//                                    [--interval-ms 2000] [--p99-ms 100] [--max-mb 1024]
//                                    [--through]  (go on past a p99 over the bound, to see the
//                                                  next steps' figures; memory still stops it)
//
// It starts the server on 127.0.0.1 (loopback only) and, in this process, simulated PeerJS
// peers over websockets as a Crisp page's Peer speaks to it: open (?id=&token=&key=), rooms
// of 4 (a host at a room id, 3 guests at server-style uuids), each peer sending a relay to a
// room mate every --interval-ms (OFFER, ANSWER or CANDIDATE, each of a real one's size) and
// a HEARTBEAT every 5 s. At each step it adds peers up to the step's count, measures for
// --measure-s seconds and reports: peers, rooms, relays a second, relay latency p50/p99 (ms,
// from this process's send to its receipt at the destination: the server's queue and work,
// plus this process's own, which shares the machine's 2 cores), the server's memory (RSS)
// and memory per peer over the empty server's. It stops at the first step whose p99 passes
// --p99-ms or whose RSS passes --max-mb, or that cannot be opened (file descriptors: ulimit -n).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SDP = "v=0 ".repeat(500);          // an offer's size, about 2 kB
const CANDIDATE = "candidate:1 1 udp 2122260223 192.168.1.20 54321 typ host ".repeat(2);

function options(argv) {
  const o = { steps: [1000, 5000, 10000], measureS: 10, intervalMs: 2000, p99Ms: 100, maxMb: 1024,
              through: false };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === "--steps") o.steps = v.split(",").map(Number);
    else if (k === "--measure-s") o.measureS = Number(v);
    else if (k === "--interval-ms") o.intervalMs = Number(v);
    else if (k === "--p99-ms") o.p99Ms = Number(v);
    else if (k === "--max-mb") o.maxMb = Number(v);
    else if (k === "--through") { o.through = true; i--; }
    else throw new Error(`unknown argument ${k}`);
  }
  if (o.steps.some((n) => !Number.isInteger(n) || n < 4 || n > 18000))
    throw new Error("--steps: counts of 4 to 18000 peers (each is a file descriptor here and there)");
  return o;
}

const freePort = () => new Promise((ok) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); });
});

// CPU seconds a process has used (utime + stime, /proc/<pid>/stat, clock ticks of 10 ms).
function cpuS(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function startServer(maxPeers) {
  const port = await freePort();
  const proc = spawn("node", [path.join(ROOT, "tools", "serve.mjs"), "--signal-only",
    "--host", "127.0.0.1", "--port", String(port), "--per-address", String(maxPeers),
    "--max-peers", String(maxPeers)], { stdio: ["ignore", "ignore", "inherit"] });
  for (let i = 0; i < 200; i++) {
    const up = await new Promise((ok) => {
      const c = net.connect(port, "127.0.0.1", () => { c.end(); ok(true); }).on("error", () => ok(false));
    });
    if (up) return { port, proc };
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill();
  throw new Error("the server did not start");
}

class Bench {
  constructor(port, o) {
    this.port = port;
    this.o = o;
    this.peers = [];         // {id, ws, mates: [ids]}
    this.byId = new Map();
    this.latencies = [];
    this.measuring = false;
    this.relays = 0;
    this.lost = 0;
  }

  open(id) {
    const url = `ws://127.0.0.1:${this.port}/peerjs/peerjs?key=peerjs&id=${id}&token=${crypto.randomBytes(8).toString("hex")}`;
    return new Promise((ok, fail) => {
      const ws = new WebSocket(url, { headers: { Origin: `http://127.0.0.1:${this.port}` }, perMessageDeflate: false });
      const peer = { id, ws, mates: [] };
      ws.on("message", (data) => {
        const msg = JSON.parse(data.toString());
        if (msg.type === "OPEN") return ok(peer);
        if (msg.type === "ERROR" || msg.type === "ID-TAKEN") return fail(new Error(msg.payload?.msg || msg.type));
        if (this.measuring && msg.payload && typeof msg.payload.at === "number") {
          this.latencies.push(performance.now() - msg.payload.at);
          this.relays++;
        }
      });
      ws.on("error", fail);
      ws.on("close", () => { this.lost++; });
    });
  }

  async grow(count) {
    while (this.peers.length < count) {
      const batch = [];
      for (let r = 0; r < 50 && this.peers.length + batch.length * 4 < count; r++) {
        const room = `crisp-${crypto.randomBytes(16).toString("hex")}`;
        const ids = [room, crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
        batch.push(Promise.all(ids.map((id) => this.open(id))));
      }
      for (const room of await Promise.all(batch)) {
        for (const p of room) {
          p.mates = room.filter((q) => q !== p).map((q) => q.id);
          this.peers.push(p);
          this.byId.set(p.id, p);
          this.start(p);
        }
      }
    }
  }

  start(p) {
    const kinds = ["OFFER", "ANSWER", "CANDIDATE"];
    let n = 0;
    const jitter = Math.random() * this.o.intervalMs;
    setTimeout(() => {
      p.relay = setInterval(() => {
        if (p.ws.readyState !== WebSocket.OPEN) return;
        const type = kinds[n++ % 3];
        const payload = type === "CANDIDATE" ? { candidate: CANDIDATE, at: performance.now() }
          : { sdp: { type: type.toLowerCase(), sdp: SDP }, connectionId: "dc_bench", at: performance.now() };
        p.ws.send(JSON.stringify({ type, dst: p.mates[n % p.mates.length], payload }));
      }, this.o.intervalMs);
      p.beat = setInterval(() => {
        if (p.ws.readyState === WebSocket.OPEN) p.ws.send('{"type":"HEARTBEAT"}');
      }, 5000);
    }, jitter);
  }

  async measure() {
    this.latencies = [];
    this.relays = 0;
    this.measuring = true;
    await new Promise((r) => setTimeout(r, this.o.measureS * 1000));
    this.measuring = false;
    const l = this.latencies.sort((a, b) => a - b);
    const at = (q) => (l.length ? l[Math.min(l.length - 1, Math.floor(q * l.length))] : NaN);
    return { p50: at(0.5), p99: at(0.99), rate: this.relays / this.o.measureS };
  }

  stop() {
    for (const p of this.peers) {
      clearInterval(p.relay);
      clearInterval(p.beat);
      p.ws.terminate();
    }
  }
}

async function main() {
  const o = options(process.argv.slice(2));
  const top = Math.max(...o.steps);
  const { port, proc } = await startServer(top + 100);
  const bench = new Bench(port, o);
  const base = rssMb(proc.pid);
  console.log(`signal_bench: tools/serve.mjs --signal-only on 127.0.0.1:${port}; a relay per peer every ${o.intervalMs} ms, heartbeats every 5 s; ${o.measureS} s per step; empty server ${base.toFixed(0)} MB`);
  console.log(`  (load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")} on ${os.cpus().length} cores: latency here counts every other program's share of them)`);
  console.log("   peers  rooms  relays/s  p50 ms  p99 ms  server MB  kB/peer  lost  load  server  bench (CPU of one core)");
  let held = 0;
  let within = true;
  try {
    for (const step of o.steps.sort((a, b) => a - b)) {
      try {
        await bench.grow(step);
      } catch (e) {
        console.log(`  ${String(step).padStart(6)}: could not open (${e.message}): stop`);
        break;
      }
      const cpu0 = [cpuS(proc.pid), process.cpuUsage()];
      const m = await bench.measure();
      const server = 100 * (cpuS(proc.pid) - cpu0[0]) / o.measureS;
      const used = process.cpuUsage(cpu0[1]);
      const mine = 100 * (used.user + used.system) / 1e6 / o.measureS;
      const rss = rssMb(proc.pid);
      const n = bench.peers.length;
      console.log(`  ${String(n).padStart(6)} ${String(n / 4).padStart(6)} ${m.rate.toFixed(0).padStart(9)} `
        + `${m.p50.toFixed(1).padStart(7)} ${m.p99.toFixed(1).padStart(7)} ${rss.toFixed(0).padStart(10)} `
        + `${((rss - base) * 1024 / n).toFixed(1).padStart(8)} ${String(bench.lost).padStart(5)} ${os.loadavg()[0].toFixed(1).padStart(5)} `
        + `${server.toFixed(0).padStart(6)}% ${mine.toFixed(0).padStart(6)}%`);
      if (m.p99 > o.p99Ms || rss > o.maxMb || bench.lost) {
        console.log(`  past the bound (p99 ${o.p99Ms} ms, ${o.maxMb} MB, no peer lost)${o.through ? "" : ": stop"}`);
        within = false;
        if (!o.through || rss > o.maxMb || bench.lost) break;
      } else if (within) held = n;
    }
    console.log(`signal_bench: one process held ${held} peers (${held / 4} rooms of 4) within the bounds`);
  } finally {
    bench.stop();
    proc.kill("SIGTERM");       // by its PID (the child this started)
  }
  process.exit(0);
}

main().catch((e) => { console.error(`signal_bench: ${e.stack || e}`); process.exit(1); });
