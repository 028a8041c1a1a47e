// Crisp's engine worker: the host's room and rules engine (ui/engine.py over ui/room.py and
// crisp_core) on Pyodide, in a module Web Worker, so that the page's main thread (MicroPython:
// the screens, PeerJS, timers, storage) never waits for Pyodide to start or for the engine.
//
// Started by boot.js (crisp.engine.start()) on a host page once its landing shows; a guest
// page starts it only when it becomes the host (a host handover, ui/main.py). The
// content-hashed zip of the host's Python comes from config.js (hostZip), written by the
// build. (Not from the worker's URL:
// served by the service worker, a worker's location has no query.)
//
// Messages (postMessage, JSON text both ways; ui/engine.py documents the requests):
//   to the worker    a request's JSON text, answered in order, one reply each; requests that
//                    arrive while Pyodide starts wait for it
//   from the worker  a reply's JSON text: {"op": "out", ...} or {"op": "refused", ...}
//                    status objects (not text, so the page tells them apart unparsed):
//                    {op: "progress", pct: 0-100, stage: "runtime"|"python"|"engine"}
//                    {op: "ready", ms: <ms since the worker started>, fetched: [urls]}
//                    (fetched: what this worker downloaded, for the service worker to keep)
//                    {op: "failed", error: text}  Pyodide or the engine could not start
import { hostZip as zip } from "./config.js";

const started = performance.now();
const progress = (pct, stage) => postMessage({ op: "progress", pct, stage });

let handle = null;       // the engine's handle(text) -> text, once it runs
let failed = null;
const waiting = [];      // requests that came before the engine ran

onmessage = (event) => {
  if (typeof event.data !== "string") return;
  if (handle) postMessage(handle(event.data));
  else if (failed) postMessage(JSON.stringify({ op: "refused", error: failed, failed: true }));
  else waiting.push(event.data);
};

async function start() {
  progress(5, "runtime");
  if (!zip || !/^py\/host-[0-9a-f]+\.zip$/.test(zip)) throw new Error("no host zip given");
  const base = new URL("./", self.location.href);
  const python = fetch(new URL(zip, base)).then((r) => {
    if (!r.ok) throw new Error(`${zip}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const { loadPyodide } = await import("./vendor/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({
    indexURL: new URL("./vendor/pyodide/", base).href,
    // no packages are ever loaded: nothing may come from a CDN
    packageBaseUrl: new URL("./vendor/pyodide/", base).href,
  });
  progress(80, "python");
  pyodide.unpackArchive(await python, "zip", { extractDir: "/home/pyodide/crisp" });
  progress(90, "engine");
  const engine = pyodide.runPython(`
import sys
sys.path.insert(0, "/home/pyodide/crisp")
from ui.engine import Engine
Engine()
`);
  self.crispPyodide = pyodide;       // for bench/page_bench.py (worker.evaluate)
  const pyHandle = engine.handle;
  handle = (text) => pyHandle(text);
  const fetched = performance.getEntriesByType("resource").map((e) => e.name);
  postMessage({ op: "ready", ms: Math.round(performance.now() - started), fetched });
  for (const text of waiting.splice(0)) postMessage(handle(text));
}

start().catch((e) => {
  failed = String(e && e.message ? e.message : e);
  postMessage({ op: "failed", error: failed });
  for (const _ of waiting.splice(0)) {
    postMessage(JSON.stringify({ op: "refused", error: failed, failed: true }));
  }
});
