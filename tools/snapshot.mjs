// Makes the engine worker's Pyodide memory snapshot at build time (tools/build.py runs it):
//
//   node tools/snapshot.mjs <pyodide dir> <host zip> <out file>
//
// <pyodide dir> is the build's vendored Pyodide (dist/vendor/pyodide-<version>/: the very
// pyodide.asm.wasm the worker will run, since a snapshot only loads into the build it was made
// by: Pyodide checks its build id). The script starts that Pyodide in Node with
// `_makeSnapshot: true`, unpacks the host zip where engine-worker.js unpacks it, imports the
// engine (`ui.worker.engine` and, through it, the room and crisp_core), and writes the interpreter's
// memory (`makeMemorySnapshot()`: Pyodide's header and JS-reference table, then the whole
// wasm heap), gzipped, to <out file>. The worker hands the inflated bytes to
// `loadPyodide({_loadSnapshot})`, which skips Python's own start and these imports.
//
// What a snapshot may hold (Pyodide src/js/snapshot.ts): references to JS objects only as paths
// from the JS globals (nothing else is serializable), so nothing here may keep a JS object
// alive in Python. What it freezes: everything in Python's memory, the same for every host:
// the str hash key (PYTHONHASHSEED) and the `random` module's global generator (which the
// engine never uses: its randomness comes from `secrets`, read when used; the worker reseeds
// `random` after a restore anyway). Nothing secret is made here.
//
// The same inputs make the same bytes (fixedWorld): the entropy Python and Pyodide read while
// they start is zeros, their clocks stand still, their time zone, locale and program name are
// fixed, so the snapshot's content-hashed name changes only when Pyodide, the engine's zip or
// this script does (not with the machine or the checkout's path), and a deploy that leaves the
// engine alone does not send every host its 6.5 MB again. (Left to chance, two makes from the
// same inputs differed in 6.9 million of their 31.5 million bytes, nearly all of it the str
// hash key's doing.) That fixes nothing a host could keep secret: whatever the snapshot
// freezes, anyone can read in the published file.
//
// Prints one line of JSON: {bytes: raw snapshot bytes, gz: written bytes, ms: {...}}.
// Exit status 1 with a message on stderr when Pyodide cannot start or the snapshot fails.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import nodeCrypto from "node:crypto";

// What this process's Pyodide reads of the world made the same on every machine: its entropy
// (Emscripten's from node:crypto's randomFillSync, Pyodide's JS's from crypto.getRandomValues),
// its clocks (Date.now, performance.now), its time zone, and its program's name (Emscripten's
// `thisProgram`, this script's path: Python's sys.executable and $_). The locale is the other
// (Emscripten's $LANG follows navigator.language): main() sets it. -> the real performance.now,
// for the script's own timings.
function fixedWorld() {
  process.env.TZ = "UTC";
  process.argv[1] = "snapshot.mjs";
  const zeros = (view) => {
    new Uint8Array(view.buffer, view.byteOffset, view.byteLength).fill(0);
    return view;
  };
  nodeCrypto.randomFillSync = zeros;
  globalThis.crypto.getRandomValues = zeros;
  const now = performance.now.bind(performance);
  let tick = 0;
  Date.now = () => 0;
  performance.now = () => (tick += 1);   // (still moving: a wait on it ends)
  return now;
}

// The engine's Python, as the worker sees it (engine-worker.js: CRISP_DIR, ENGINE_IMPORT).
const CRISP_DIR = "/home/pyodide/crisp";
const IMPORT = `
import sys
sys.path.insert(0, ${JSON.stringify(CRISP_DIR)})
import ui.worker.engine
`;

async function main([pyodideDir, zipPath, outPath]) {
  if (!pyodideDir || !zipPath || !outPath) {
    throw new Error("usage: node tools/snapshot.mjs <pyodide dir> <host zip> <out file>");
  }
  const dir = path.resolve(pyodideDir) + path.sep;
  const now = fixedWorld();
  const ms = {};
  let t = now();
  const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: dir,
    _makeSnapshot: true,
    env: { LANG: "C.UTF-8" },      // (fixedWorld)
    // the page's stdout/stderr are not ours: say nothing unless asked
    stdout: () => {},
  });
  ms.start = Math.round(now() - t);
  t = now();
  pyodide.unpackArchive(new Uint8Array(fs.readFileSync(zipPath)), "zip",
                        { extractDir: CRISP_DIR });
  pyodide.runPython(IMPORT);
  ms.imports = Math.round(now() - t);
  t = now();
  const snapshot = pyodide.makeMemorySnapshot();
  const gz = zlib.gzipSync(snapshot);   // level 6: 6.6 MB in 0.6 s (level 9: 1% less, 4x the time)
  fs.writeFileSync(outPath, gz);
  ms.write = Math.round(now() - t);
  process.stdout.write(JSON.stringify({ bytes: snapshot.length, gz: gz.length, ms }) + "\n");
}

main(process.argv.slice(2)).then(() => process.exit(0), (e) => {
  process.stderr.write(`snapshot: ${e && e.stack ? e.stack.split("\n")[0] : e}\n`);
  process.exit(1);
});
