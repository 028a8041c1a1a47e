// Crisp's engine worker: the host's room and rules engine (ui/worker/engine.py over ui/worker/room.py and
// crisp_core) on Pyodide, in a module Web Worker, so that the page's main thread (MicroPython:
// the screens, PeerJS, timers, storage) never waits for Pyodide to start or for the engine.
//
// Made by boot.js as a host page boots (crisp.engine.prepare(): this script and config.js load,
// nothing else), and told to start Pyodide ({op: "start"}, crisp.engine.start()) once its
// landing shows; a guest page makes and starts it only when it becomes the host (a host
// handover, ui/page/guest/guest_succession.py). The
// content-hashed zip of the host's Python comes from config.js (hostZip), written by the
// build. (Not from the worker's URL:
// served by the service worker, a worker's location has no query.)
//
// Messages (postMessage, JSON text both ways; ui/worker/engine.py documents the requests):
//   to the worker    {op: "start"} (an object): start Pyodide and the engine (once);
//                    a request's JSON text, answered in order, one reply each; requests that
//                    arrive while Pyodide starts (or before it is told to) wait for it
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
//                    {op: "ready", ms: <ms since it was told to start>, from: "snapshot" |
//                    "kept" | "start" (how Python started: the build's memory snapshot,
//                    inflated now; the inflated copy this browser kept from an earlier start;
//                    without a snapshot), fetched: [urls],
//                     build: this build's id (config.js; the page refuses another build's)}
//                    (fetched: what this worker downloaded, for the service worker to keep)
//                    {op: "kept", ok: bool}  after a start from the build's snapshot: its
//                      inflated copy was kept for the next start (or could not be: no room,
//                      no Cache Storage)
//                    {op: "failed", error: text}  Pyodide or the engine could not start,
//                      or one of its downloads was refused or cut (a pending one is not)
//                    {op: "died", error: text}  a request threw (Pyodide's fatal error): the
//                      page starts a new worker (ui/page/host/enginewatch.py)
import { build, hostZip as zip, engineSnapshot, loads, testBuild } from "./config.js";

let started = null;         // performance.now() when told to start
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
// What an error says (its message, else itself), and a fetch's URL as text.
const errorText = (e) => (e && e.message ? e.message : e);
const urlOf = (input) =>
  String(typeof input === "string" || input instanceof URL ? input : input.url);
const fetchReal = self.fetch.bind(self);
const counted = async (input, init) => {
  const url = urlOf(input);
  const file = plan.find((f) => url.split("?")[0].endsWith("/" + f[0]));
  let response;
  try {
    response = await fetchReal(input, init);
  } catch (e) {
    if (fatal(file)) fail(`download of ${file[0]}: ${errorText(e)}`);
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
        if (fatal(file)) fail(`download of ${file[0]}: ${errorText(e)}`);
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
// Pyodide compiles its runtime's wasm only once it holds the snapshot's bytes (it sizes the
// memory by them), so the compile came after the snapshot's read or inflating, one after the
// other. Here the compile starts with the worker, beside them (compileEarly): Pyodide's own
// fetch of the wasm gets a stand-in response (no second download) that
// WebAssembly.instantiateStreaming, wrapped below, answers with the module compiled here.
const standIns = new WeakSet();
let earlyWasm = null;      // {url, module: Promise<WebAssembly.Module>} once start() began it
self.fetch = (input, init) => {
  const url = urlOf(input);
  if (earlyWasm && url === earlyWasm.url) {
    const standIn = new Response(null, { status: 200 });
    standIns.add(standIn);
    return Promise.resolve(standIn);
  }
  return counted(input, init);
};
const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
WebAssembly.instantiateStreaming = async (source, imports) => {
  const response = await source;
  if (!standIns.has(response)) return instantiateStreaming(response, imports);
  const module = await earlyWasm.module;
  return { module, instance: await WebAssembly.instantiate(module, imports) };
};

// The runtime's wasm (`url`), compiled as its bytes stream in -> {url, module}. A compile that
// fails (bytes cut or refused: said by `counted`; a server that does not say application/wasm)
// fails the start, said at once: Pyodide would only warn and wait for good.
function compileEarly(url) {
  const module = WebAssembly.compileStreaming(counted(url));
  module.catch((e) => fail(`compiling the runtime: ${errorText(e)}`));
  return { url, module };
}

let handle = null;       // the engine's handle(text) -> text, once it runs
let failed = null;
const waiting = [];      // requests that came before the engine ran

// A request the engine cannot answer at all (Pyodide's fatal error: every call throws from
// then on) is reported as {op: "died", error}: the page restarts the worker from the room's
// last save (ui/page/host/enginewatch.py).
const answer = (text) => {
  try {
    postMessage(handle(text));
  } catch (e) {
    postMessage({ op: "died", error: String(errorText(e)).slice(0, 200) });
  }
};

onmessage = (event) => {
  if (typeof event.data !== "string") {
    if (event.data && event.data.op === "start" && started === null) {
      started = performance.now();
      start().catch((e) => fail(errorText(e)));
    }
    // test builds only ({op: "fault", what}, e2e/test_engine_restart.py): the worker closes
    // itself (no error event), or from now on every request throws, as every call into
    // Pyodide does once it has had a fatal error
    if (testBuild === true && event.data && event.data.op === "fault" && handle) {
      if (event.data.what === "close") close();
      else handle = () => { throw new Error("Pyodide already fatally failed and can no longer be used."); };
    }
    return;
  }
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

// The inflated snapshot kept in Cache Storage (KEPT_CACHE: one entry, under the build's
// snapshot URL), so that the next start skips the inflating: reading its ~31 MB back took ~35 ms
// where inflating the gzip took ~150 ms (Chromium, a laptop). Kept a few seconds
// after a start from the build's snapshot, and only when the origin's storage has KEPT_ROOM
// times its size free (the service worker's caches and the saved rooms come first). Not a
// "crisp-<build>" cache: sw.js prunes those. A kept copy Pyodide refuses is deleted and the
// build's snapshot used instead (startPython).
const KEPT_CACHE = "engine-snapshot-inflated";
const KEPT_AFTER_MS = 3000;
const KEPT_ROOM = 8;
let inflated = null;       // the bytes a start from the build's snapshot inflated, to keep

async function keptSnapshot(url) {
  try {
    const hit = await (await caches.open(KEPT_CACHE)).match(url);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (e) {
    return null;           // (no Cache Storage: not a secure context, private browsing)
  }
}

async function forgetKept() {
  try { await caches.delete(KEPT_CACHE); } catch (e) { /* none to forget */ }
}

// -> true when `bytes` are kept under `url` (the only entry of KEPT_CACHE), else false.
async function keepInflated(url, bytes) {
  try {
    const { usage, quota } = await navigator.storage.estimate();
    if (!(quota - usage > KEPT_ROOM * bytes.length)) return false;
    const cache = await caches.open(KEPT_CACHE);
    for (const old of await cache.keys()) if (old.url !== url) await cache.delete(old);
    await cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    return true;
  } catch (e) {
    return false;          // (no Cache Storage or estimate, or the storage is full)
  }
}

// Pyodide with the engine running in it: from the snapshot when there is one that Pyodide
// takes (its inflated copy kept from an earlier start first), else (with a console note saying
// why) started as without one. -> [pyodide, engine].
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
  const file = plan.find((f) => f[0] === engineSnapshot);
  const url = engineSnapshot ? new URL(engineSnapshot, base).href : null;
  for (const tryKept of [true, false]) {
    if (!url) break;
    let fromKept = false;
    // (the kept copy, else the build's: the wasm compiles meanwhile, compileEarly)
    const bytes = (tryKept ? keptSnapshot(url) : Promise.resolve(null)).then((kept) => {
      if (!kept) return snapshotBytes(base);
      fromKept = true;
      if (file) arrived.set(file[0], file[1]);   // (no download: its bytes are here)
      return kept;
    });
    bytes.catch(() => {});          // (refused below, once loadPyodide has awaited it)
    try {
      const started = await run(await loadPyodide({ ...options, _loadSnapshot: bytes }));
      startedFrom = fromKept ? "kept" : "snapshot";
      if (!fromKept) inflated = { url, bytes: await bytes };
      return started;
    } catch (e) {
      if (fromKept) {
        console.warn(`crisp engine: kept snapshot refused (${errorText(e)}): taking the build's`);
        await forgetKept();
        if (file) arrived.delete(file[0]);
        continue;
      }
      console.warn(`crisp engine: memory snapshot refused (${errorText(e)}): starting Python without it`);
      if (file) arrived.set(file[0], file[1]);     // (its bytes no longer hold up the progress)
      break;
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
  earlyWasm = compileEarly(new URL("./vendor/pyodide/pyodide.asm.wasm", base).href);
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
  if (inflated) {
    setTimeout(async () => {
      const ok = await keepInflated(inflated.url, inflated.bytes);
      inflated = null;
      postMessage({ op: "kept", ok });
    }, KEPT_AFTER_MS);
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
