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
import { mode, signaling, testBuild } from "./config.js";

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
byId("loading-text").textContent = es ? "Cargando…" : "Loading…";
const say = (detail) => {  // PyScript's progress steps ("Loading interpreter", ...)
  byId("loading-detail").textContent = detail || "";
  bar.value += (95 - bar.value) * 0.25;
};
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
document.addEventListener(`${type}:ready`, () => { window.crisp.times.ready = performance.now(); say(""); });
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
