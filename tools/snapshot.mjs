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
// Prints one line of JSON: {bytes: raw snapshot bytes, gz: written bytes, ms: {...}}.
// Exit status 1 with a message on stderr when Pyodide cannot start or the snapshot fails.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

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
  const ms = {};
  let t = performance.now();
  const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: dir,
    _makeSnapshot: true,
    // the page's stdout/stderr are not ours: say nothing unless asked
    stdout: () => {},
  });
  ms.start = Math.round(performance.now() - t);
  t = performance.now();
  pyodide.unpackArchive(new Uint8Array(fs.readFileSync(zipPath)), "zip",
                        { extractDir: CRISP_DIR });
  pyodide.runPython(IMPORT);
  ms.imports = Math.round(performance.now() - t);
  t = performance.now();
  const snapshot = pyodide.makeMemorySnapshot();
  const gz = zlib.gzipSync(snapshot);   // level 6: 6.6 MB in 0.6 s (level 9: 1% less, 4x the time)
  fs.writeFileSync(outPath, gz);
  ms.write = Math.round(performance.now() - t);
  process.stdout.write(JSON.stringify({ bytes: snapshot.length, gz: gz.length, ms }) + "\n");
}

main(process.argv.slice(2)).then(() => process.exit(0), (e) => {
  process.stderr.write(`snapshot: ${e && e.stack ? e.stack.split("\n")[0] : e}\n`);
  process.exit(1);
});
