// Crisp bootstrap: choose the Python interpreter, then start PyScript.
//
// How the interpreter is chosen (one rule):
//   URL has ?room=<id>  -> a guest page. <script type="mpy" config="./mpy.toml">: MicroPython,
//                          fast to start; it only renders the views the host sends.
//   otherwise           -> the host / landing / solo page. <script type="py" config="./pyscript.toml">:
//                          Pyodide, which runs the rules engine (crisp_core).
// Both run the same entry ui/main.py. PyScript reads the configs of the <script> tags present
// when core.js is first imported, so the tag is added first and core.js imported after it.
//
// window.crisp (read from Python as `js.crisp`):
//   interpreter  "pyodide" | "micropython";  guest: bool;  room: the ?room id or null
//   mode         "local" | "hosted" (from the build, see config.js)
//   test         true on a test build only (tools/build.py --test): the page then honours the
//                test-only parameters ?deck= and ?seed=
//   peerOptions  PeerJS client options for this page's signaling server (a fresh object each call)
//   newPeer(id, token)  new Peer(id, peerOptions()); id may be null for a server-assigned id;
//                token: the Peer's PeerJS token (the host keeps one per room across reloads,
//                so that the signaling server gives it its id back first), else a fresh one;
//                both from crypto.getRandomValues, never PeerJS's Math.random token
//   randomHex(n) n random bytes from crypto.getRandomValues as 2n lowercase hex digits (the
//                seat proof's nonces on MicroPython, which has no `secrets`)
//   loaded()     hide the loading screen now (it hides by itself when ui/main.py has finished)
//   times        {boot, ready, done}: ms since navigation start, for measurements
import { loads, mode, signaling, testBuild } from "./config.js";

const params = new URLSearchParams(location.search);
const room = params.get("room") || null;
const guest = room !== null;
const type = guest ? "mpy" : "py";

const peerOptions = () => {
  const options = JSON.parse(JSON.stringify(signaling.peer));
  if (signaling.same_origin) {
    const https = location.protocol === "https:";
    options.host = location.hostname;
    options.port = Number(location.port) || (https ? 443 : 80);
    options.secure = https;
    options.path = signaling.path;
  }
  return options;
};

const loading = document.getElementById("loading");
const byId = (id) => document.getElementById(id) || {};
const bar = loading?.querySelector("progress") || {};
const es = (navigator.language || "").toLowerCase().startsWith("es");
// Real progress: the bytes of this page's big downloads (config.js `loads`, sizes from the
// build) that have arrived (resource timing entries), and the part still coming, by name.
const PARTS = {
  python: ["the Python interpreter", "el intérprete de Python"],
  stdlib: ["Python's standard library", "la biblioteca estándar de Python"],
  micropython: ["MicroPython", "MicroPython"],
  game: ["the game", "el juego"],
};
byId("loading-tagline").textContent = es ? "Un juego de cartas de memoria y farol"
  : "A card game of memory and bluff";
const plan = ((loads || {})[guest ? "guest" : "host"]) || [];
const total = plan.reduce((sum, f) => sum + f[1], 0) || 1;
const arrived = new Set();
let got = 0;
let starting = false;
const mb = (n) => (n / 1e6).toFixed(1);
const show = () => {
  const next = plan.find((f) => !arrived.has(f[0]));
  const part = next ? PARTS[next[2]][es ? 1 : 0] : null;
  byId("loading-text").textContent = starting || !part
    ? (es ? "Preparando la mesa…" : "Setting the table…")
    : (es ? `Cargando ${part}…` : `Loading ${part}…`);
  byId("loading-detail").textContent = `${mb(got)} / ${mb(total)} MB`;
  bar.value = Math.max(bar.value || 0, Math.round(5 + 90 * got / total) + (starting ? 3 : 0));
  if (loading) loading.dataset.progress = String(bar.value);
};
const say = () => show();   // PyScript's own steps move nothing: the bytes do
if (typeof PerformanceObserver === "function") {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const path = new URL(e.name, location.href).pathname;
      const f = plan.find((p) => path.endsWith("/" + p[0]) && !arrived.has(p[0]));
      if (f) { arrived.add(f[0]); got += f[1]; show(); }
    }
  }).observe({type: "resource", buffered: true});
}
const randomHex = (n) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, "0")).join("");
const newPeer = (id, token) => {
  const options = peerOptions();
  options.token = typeof token === "string" && token ? token : randomHex(16);
  return id ? new Peer(id, options) : new Peer(options);
};

const loaded = () => { if (loading) loading.hidden = true; };
const failed = (message) => {
  if (!loading) return;
  loading.hidden = false;
  loading.classList.add("error");
  byId("loading-text").textContent = es ? "No se pudo cargar" : "Could not load";
  byId("loading-detail").textContent = message;
};

window.crisp = {
  mode, room, guest, test: testBuild === true,
  interpreter: guest ? "micropython" : "pyodide",
  get peerOptions() { return peerOptions(); },
  newPeer, randomHex,
  loaded,
  times: { boot: performance.now() },
};
document.documentElement.dataset.interpreter = window.crisp.interpreter;

addEventListener(`${type}:progress`, (e) => say(e.detail));
document.addEventListener(`${type}:ready`, () => {
  window.crisp.times.ready = performance.now();
  starting = true;
  show();
});
document.addEventListener(`${type}:done`, () => { window.crisp.times.done = performance.now(); loaded(); });
addEventListener("error", (e) => { if (!window.crisp.times.done) failed(e.message); });
addEventListener("unhandledrejection", (e) => {
  if (!window.crisp.times.done) failed(e.reason?.message || String(e.reason));
});

const script = document.createElement("script");
script.type = type;
script.src = "./ui/main.py";
script.setAttribute("config", guest ? "./mpy.toml" : "./pyscript.toml");
document.head.append(script);
say("");
import("./vendor/pyscript/core.js").catch((e) => failed(e.message));
