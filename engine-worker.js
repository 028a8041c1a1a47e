// Crisp's engine worker: the host's room and rules engine (ui/worker/engine.py over ui/worker/room.py and
// crisp_core) on Pyodide, in a module Web Worker, so that the page's main thread (MicroPython:
// the screens, PeerJS, timers, storage) never waits for Pyodide to start or for the engine.
//
// Started by boot.js (crisp.engine.start()) on a host page once its landing shows; a guest
// page starts it only when it becomes the host (a host handover, ui/page/guest_succession.py). The
// content-hashed zip of the host's Python comes from config.js (hostZip), written by the
// build. (Not from the worker's URL:
// served by the service worker, a worker's location has no query.)
//
// Messages (postMessage, JSON text both ways; ui/worker/engine.py documents the requests):
//   to the worker    a request's JSON text, answered in order, one reply each; requests that
//                    arrive while Pyodide starts wait for it
//   from the worker  a reply's JSON text: {"op": "out", ...} or {"op": "refused", ...}
//                    status objects (not text, so the page tells them apart unparsed):
//                    {op: "progress", pct: 0-99, stage}: pct never goes down; stage:
//                      "download"  3-70: the bytes of the runtime (pyodide.asm.wasm), the
//                                  standard library and our zip that have arrived (config.js
//                                  `loads.engine`, sizes from the build), counted as the
//                                  fetch streams deliver them (gzip or not: decoded bytes)
//                      "compile"   72: all downloaded, the runtime's wasm still compiling
//                      "python"    80: the runtime runs, Python starts (its standard library)
//                      "engine"    90: Python runs, our zip unpacked and the engine imported
//                    the same progress again every ALIVE_MS with alive: true while the
//                    worker still starts: once everything is downloaded (its work is the
//                    CPU's now, however slow), and before whenever bytes arrived since the
//                    last one (a download that stalls sends none of these)
//                    {op: "ready", ms: <ms since the worker started>, from: "snapshot" |
//                    "start" (how Python started), fetched: [urls],
//                     build: this build's id (config.js; the page refuses another build's)}
//                    (fetched: what this worker downloaded, for the service worker to keep)
//                    {op: "failed", error: text}  Pyodide or the engine could not start,
//                      or one of its downloads was refused or cut (a pending one is not)
//                    {op: "died", error: text}  a request threw (Pyodide's fatal error): the
//                      page starts a new worker (ui/page/enginewatch.py)
import { build, hostZip as zip, engineSnapshot, loads } from "./config.js";

const started = performance.now();
// Progress, in whole percent that never go down (a message only when it moves).
let shown = 0;
let shownStage = null;
const progress = (pct, stage) => {
  pct = Math.max(shown, Math.min(99, Math.floor(pct)));
  if (pct === shown && stage === shownStage) return;
  shown = pct;
  shownStage = stage;
  postMessage({ op: "progress", pct, stage });
};

// The downloads' bytes as they arrive: every fetch of this worker (Pyodide's own of its
// wasm and standard library, ours of the zip) goes through `counted`, which passes the body
// on unchanged while it adds up what came of the files in config.js `loads.engine`.
const plan = ((loads || {}).engine || []).filter((f) => f[1] > 0);
const total = plan.reduce((sum, f) => sum + f[1], 0);
const arrived = new Map();     // path -> bytes so far (at most its size)
const DOWNLOAD_FROM = 3;
const DOWNLOAD_TO = 70;
const downloaded = () => {
  let got = 0;
  for (const f of plan) got += arrived.get(f[0]) || 0;
  return total ? got / total : 0;
};
const moved = () => {
  if (shownStage !== "download" && shownStage !== null) return;
  const part = downloaded();
  if (part >= 1) progress(DOWNLOAD_TO + 2, "compile");
  else progress(DOWNLOAD_FROM + (DOWNLOAD_TO - DOWNLOAD_FROM) * part, "download");
};
// A download of the engine's own files that is refused or cut (a network error, an HTTP
// error, a body that breaks off) is a real failure, said at once (`fail`): Pyodide itself
// only warns and never settles its promise. One still pending is not: the page waits for it
// (ui/shared/hostlife.py engine_verdict). The snapshot is not one of them: without it
// Python starts the old way (startPython).
const fatal = (file) => file && file[0] !== engineSnapshot;
const fetchReal = self.fetch.bind(self);
const counted = async (input, init) => {
  const url = String(typeof input === "string" || input instanceof URL ? input : input.url);
  const file = plan.find((f) => url.split("?")[0].endsWith("/" + f[0]));
  let response;
  try {
    response = await fetchReal(input, init);
  } catch (e) {
    if (fatal(file)) fail(`download of ${file[0]}: ${e && e.message ? e.message : e}`);
    throw e;
  }
  if (!response.ok && fatal(file)) fail(`download of ${file[0]}: HTTP ${response.status}`);
  if (!file || !response.ok || !response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      let done, value;
      try {
        ({ done, value } = await reader.read());
      } catch (e) {
        if (fatal(file)) fail(`download of ${file[0]}: ${e && e.message ? e.message : e}`);
        throw e;
      }
      if (done) {
        arrived.set(file[0], file[1]);
        moved();
        controller.close();
        return;
      }
      arrived.set(file[0], Math.min(file[1], (arrived.get(file[0]) || 0) + value.byteLength));
      moved();
      controller.enqueue(value);
    },
    cancel(reason) { return reader.cancel(reason); },
  });
  // the same status and headers (Content-Type: application/wasm for the streaming compile)
  return new Response(body, { status: response.status, statusText: response.statusText,
                              headers: response.headers });
};
self.fetch = counted;

let handle = null;       // the engine's handle(text) -> text, once it runs
let failed = null;
const waiting = [];      // requests that came before the engine ran

// A request the engine cannot answer at all (Pyodide's fatal error: every call throws from
// then on) is reported as {op: "died", error}: the page restarts the worker from the room's
// last save (ui/page/enginewatch.py).
const answer = (text) => {
  try {
    postMessage(handle(text));
  } catch (e) {
    postMessage({ op: "died", error: String(e && e.message ? e.message : e).slice(0, 200) });
  }
};

onmessage = (event) => {
  if (typeof event.data !== "string") return;
  if (handle) answer(event.data);
  else if (failed) postMessage(JSON.stringify({ op: "refused", error: failed, failed: true }));
  else waiting.push(event.data);
};

// The engine's Python: where the host zip is unpacked (tools/snapshot.mjs imports it from
// the same place when it makes the snapshot).
const CRISP_DIR = "/home/pyodide/crisp";
const ENGINE = `
import sys
if ${JSON.stringify(CRISP_DIR)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(CRISP_DIR)})
import random
random.seed()      # (a snapshot holds the build's generator state: this page's own from here)
from ui.worker.engine import Engine
Engine()
`;

// SHA-256 of `bytes` (an ArrayBuffer) -> Uint8Array(32): the browser's own, or where there is
// none (crypto.subtle exists in secure contexts only, and a page at a plain-http LAN address,
// http://192.168.1.20:8000/, is none) @noble/hashes' (vendored from npm), loaded only then.
async function sha256(bytes) {
  if (self.crypto && self.crypto.subtle) {
    return new Uint8Array(await self.crypto.subtle.digest("SHA-256", bytes));
  }
  const noble = await import("./vendor/noble/sha2.js");
  return noble.sha256(new Uint8Array(bytes));
}

// The memory snapshot's bytes (config.js `engineSnapshot`, gzip, made by the build): fetched,
// checked against the hash its name carries (sha256, the first hex digits) and inflated.
// Rejects when there is none, it cannot be fetched, or it is not what the build wrote.
async function snapshotBytes(base) {
  const m = /^py\/snapshot-([0-9a-f]{10})\.gz$/.exec(engineSnapshot || "");
  if (!m) throw new Error("no snapshot in this build");
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream");
  const r = await counted(new URL(engineSnapshot, base));
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  const gz = await r.arrayBuffer();
  const digest = await sha256(gz);
  const hex = Array.from(digest.subarray(0, 5), (b) => b.toString(16).padStart(2, "0")).join("");
  if (hex !== m[1]) throw new Error("its content is not the build's");
  const inflated = new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")));
  return new Uint8Array(await inflated.arrayBuffer());
}

// Pyodide with the engine running in it: from the snapshot when there is one that Pyodide
// takes, else (with a console note saying why) started as without one. -> [pyodide, engine].
async function startPython(loadPyodide, base, python) {
  const options = {
    indexURL: new URL("./vendor/pyodide/", base).href,
    // no packages are ever loaded: nothing may come from a CDN
    packageBaseUrl: new URL("./vendor/pyodide/", base).href,
    // called once the runtime's wasm is compiled and runs (Emscripten's preRun), before
    // Python itself starts
    fsInit: () => progress(80, "python"),
  };
  const run = async (pyodide) => {
    progress(90, "engine");
    pyodide.unpackArchive(await python, "zip", { extractDir: CRISP_DIR });
    return [pyodide, pyodide.runPython(ENGINE)];
  };
  if (engineSnapshot) {
    try {
      // (Pyodide fetches and compiles its wasm meanwhile: it awaits the bytes last)
      const bytes = snapshotBytes(base);
      bytes.catch(() => {});          // (refused below, once loadPyodide has awaited it)
      const started = await run(await loadPyodide({ ...options, _loadSnapshot: bytes }));
      startedFrom = "snapshot";
      return started;
    } catch (e) {
      console.warn(`crisp engine: memory snapshot refused (${e && e.message ? e.message : e}): ` +
                   "starting Python without it");
      const file = plan.find((f) => f[0] === engineSnapshot);
      if (file) arrived.set(file[0], file[1]);     // (its bytes no longer hold up the progress)
    }
  }
  return run(await loadPyodide(options));
}

let startedFrom = "start";

// Signs of life while the CPU works (compile, Python's start): see the header.
// While downloading, a sign of life whenever bytes arrived since the last one (a slow
// network moves the percent seldom; a stalled download sends nothing).
const ALIVE_MS = 2000;
let beatBytes = 0;
const alive = setInterval(() => {
  let got = 0;
  for (const f of plan) got += arrived.get(f[0]) || 0;
  const moving = shownStage === "download" && got > beatBytes;
  beatBytes = got;
  if (moving || (shownStage !== null && shownStage !== "download")) {
    postMessage({ op: "progress", pct: shown, stage: shownStage, alive: true });
  }
}, ALIVE_MS);

async function start() {
  progress(DOWNLOAD_FROM, "download");
  if (!zip || !/^py\/host-[0-9a-f]+\.zip$/.test(zip)) throw new Error("no host zip given");
  const base = new URL("./", self.location.href);
  const python = counted(new URL(zip, base)).then((r) => {
    if (!r.ok) throw new Error(`${zip}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const { loadPyodide } = await import("./vendor/pyodide/pyodide.mjs");
  const [pyodide, engine] = await startPython(loadPyodide, base, python);
  if (failed) return;                // (a download failed meanwhile: said already)
  self.crispPyodide = pyodide;       // for bench/page_bench.py (worker.evaluate)
  const pyHandle = engine.handle;
  handle = (text) => pyHandle(text);
  const fetched = performance.getEntriesByType("resource").map((e) => e.name);
  clearInterval(alive);
  postMessage({ op: "ready", ms: Math.round(performance.now() - started), from: startedFrom,
                fetched, build });
  for (const text of settled(waiting.splice(0))) {
    if (text === null) postMessage(NOTHING);
    else answer(text);
  }
}

// The requests that waited for the engine, as the room should hear them: a data connection
// that opened and closed again before the engine ran (a guest page that gave up waiting and
// connected afresh, or reloaded) never reaches the room, so its join cannot hold a seat for
// a connection that is gone (and the guest's next join find its own name taken). Each of its
// requests still gets its reply, in order (null: NOTHING, a reply about no room, which the
// page passes over).
const NOTHING = JSON.stringify({ op: "out", out: [], save: null, wakeup: null, started: false,
                                 room: null, dropped: [] });
const CONN_OPS = new Set(["open", "receive", "close"]);
function settled(texts) {
  const parsed = texts.map((text) => {
    try {
      const r = JSON.parse(text);
      return r && typeof r === "object" && typeof r.conn === "string" ? r : null;
    } catch (e) { return null; }
  });
  const opened = new Set();
  const gone = new Set();
  for (const r of parsed) {
    if (r && r.op === "open") opened.add(r.conn);
    else if (r && r.op === "close" && opened.has(r.conn)) gone.add(r.conn);
  }
  return texts.map((text, i) => {
    const r = parsed[i];
    return r && CONN_OPS.has(r.op) && gone.has(r.conn) && r.conn !== "local" ? null : text;
  });
}

// The start failed for good (once; nothing after the engine runs): the page hears why, and
// every request that waited for the engine is refused.
function fail(why) {
  if (handle || failed) return;
  clearInterval(alive);
  failed = String(why);
  postMessage({ op: "failed", error: failed });
  for (const _ of waiting.splice(0)) {
    postMessage(JSON.stringify({ op: "refused", error: failed, failed: true }));
  }
}

start().catch((e) => fail(e && e.message ? e.message : e));
