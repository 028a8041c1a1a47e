// Crisp bootstrap: start PyScript's MicroPython on every page, and the engine worker on a
// host page.
//
// One page for everyone: the landing, the lobby and the table run ui/page/main.py on MicroPython
// (<script type="mpy" src="./start.py" config="./mpy.toml">: small and fast to start;
// start.py imports ui/page/main.py from the page's zip, compiled to bytecode by the build, in short
// tasks). A guest page (?room=<id>) only renders what the host sends. A host page (no ?room)
// also runs the room and the rules engine, on Pyodide in a Web Worker (engine-worker.js), which
// ui/page/main.py starts once the landing shows (crisp.engine.start()); the landing, Create room
// and the lobby work before it is ready. A guest page starts it only when it becomes the host
// (a host handover).
// PyScript reads the configs of the <script> tags present when core.js is first imported, so
// the tag is added first and core.js imported after it.
//
// window.crisp (read from Python as `js.crisp`):
//   interpreter  "micropython" (the page's; the engine worker runs Pyodide)
//   guest: bool;  room: the ?room id or null
//   mode         "local" | "hosted" (from the build, see config.js)
//   build        this build's id (config.js; tools/build.py names config-<id>.js and
//                engine-worker-<id>.js with it): the engine worker says its own when ready,
//                and one of another build is refused (engine "failed", error "build")
//   test         true on a test build only (tools/build.py --test): the page then honours the
//                test-only parameters ?deck= and ?seed=
//   peerOptions  PeerJS client options for this page's signaling server (a fresh object each call;
//                with several servers, the one of the page's ?room, `serverFor`)
//   turn         "none" (the build carries its TURN servers, if any), or with
//                --turn-from-signaling "asking" | "ok" | "failed" (the signaling server gave no
//                TURN credentials: the page plays on with direct paths only); <body data-turn>
//   serverFor(id) the index of the signaling server of room id `id` (0 with one server)
//   webrtc       true when this browser has WebRTC data channels (RTCPeerConnection and
//                RTCDataChannel), checked before any `new Peer`: without them no one can
//                play with friends here, only solo (ui/net.py never makes a Peer then)
//   channelState(conn)  where a PeerJS data connection's negotiation stands: "failed" (ICE
//                failed), "answered" (the remote peer answered our offer: it is there),
//                "asked" (no answer yet) or "" (no connection)
//   newPeer(id, token, room)  new Peer(id, peerOptions()); id may be null for a server-assigned
//                id (a guest's: `room`, the room it joins, picks the signaling server then);
//                token: the Peer's PeerJS token (the host keeps one per room across reloads,
//                so that the signaling server gives it its id back first), else a fresh one;
//                both from crypto.getRandomValues, never PeerJS's Math.random token
//   randomHex(n) n random bytes from crypto.getRandomValues as 2n lowercase hex digits (room
//                ids, the seat proof's nonces on MicroPython, which has no `secrets`)
//   now()        Date.now() + 0.5: never a whole number, so MicroPython gets it as a float
//                (its FFI wraps whole numbers above 2**31)
//   engine       the engine worker: prepare() (made, idle), start(), post(text), listen(fn);
//                state "idle" | "loading"
//                | "ready" | "failed" (also on body[data-engine]); once ready, body[data-engine-from]
//                says how it started: "snapshot" (the build's memory snapshot), "kept" (its
//                inflated copy, kept by an earlier start: body[data-engine-kept] "yes") or "start";
//                restart(): a new worker in place of a dead one (ui/page/host/enginewatch.py);
//                build: the build id the worker said when ready (always this page's: another's
//                is refused)
//   keepAwake(on) hold the Screen Wake Lock while `on` (awake.js; ui/page/main.py: while a round is
//                played), asked again when the page is shown; silently absent where unsupported
//   loaded()     hide the loading screen now (ui/page/main.py: once its page shows)
//   failed(text) show the loading screen's error with `text` (ui/page/main.py: the page's start
//                failed)
//   times        {boot, ready, done, shown, engine}: ms since navigation start, for measurements
//                (and engineOwn: the engine worker's own start, ms; faces: how long the
//                colour-emoji check below took, ms)
//   store        localStorage behind a door that never throws (store.js: get, set, remove,
//                state "ok" | "blocked" | "full"); ui/page/storage.py goes through it
//   pageFiles(then)  write the page's Python (pagefiles.js: downloaded from the start of
//                this script) into MicroPython's file system, then call `then()` in a task
//                of its own; start.py calls it first. A download or archive that fails is
//                said with failed(text), and `then` is never called
import { build, loads, mode, pageZip, signaling, testBuild } from "./config.js";
import { keepAwake } from "./awake.js";
import { store } from "./store.js";
import { unpack, writeFiles } from "./pagefiles.js";

const params = new URLSearchParams(location.search);
const room = params.get("room") || null;
const guest = room !== null;
const type = "mpy";

// Several signaling servers (tools/netconfig.py): every page of a room (its host, guests,
// and the successors at <id>-h<k>-<tag>, ui/shared/handover.py room_id_after) picks the same
// one, by a hash (FNV-1a, 32 bits) of the room's base id.
const baseRoom = (id) => String(id || "").replace(/-h[0-9]{1,2}-[0-9a-f]{20}$/, "");
const serverFor = (id, n) => {
  let h = 0x811c9dc5;
  for (const c of baseRoom(id)) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h % n;
};
const peerOptions = (forRoom) => {
  const options = JSON.parse(JSON.stringify(signaling.peer));
  if (signaling.same_origin) {
    const https = location.protocol === "https:";
    options.host = location.hostname;
    options.port = Number(location.port) || (https ? 443 : 80);
    options.secure = https;
    options.path = signaling.path;
  }
  const servers = signaling.servers;
  if (servers && servers.length) Object.assign(options, servers[serverFor(forRoom || room, servers.length)]);
  return withTurn(options);
};

// Per-player TURN credentials (a build with --turn-from-signaling; tools/serve.mjs
// --turn-secret): asked of the signaling server (GET <path>/turn) at once, long before the
// page's Python makes its first Peer, again TURN_EARLY_MS before they expire, and when a Peer
// is made with none fresh (a reconnect after the phone slept). A Peer made meanwhile gets
// them as soon as they come: PeerJS reads peer.options.config for every RTCPeerConnection
// it makes. When the endpoint does not answer, the page plays on without TURN (direct paths
// only), says so (crisp.turn "failed", <body data-turn>, ui/page/screens/banner.py), and asks again
// TURN_RETRY_MS later.
const TURN_EARLY_MS = 10 * 60 * 1000;
const TURN_RETRY_MS = 60 * 1000;
const turn = { state: signaling.turn ? "asking" : "none", servers: [], expires: 0, asking: null,
               timer: null, peers: [] };
const turnUrl = () => {
  const servers = signaling.servers;
  const p = servers && servers.length ? servers[serverFor(room, servers.length)] : signaling.peer;
  const origin = signaling.same_origin ? location.origin
    : `${p.secure === false ? "http" : "https"}://${p.host}:${p.port}`;
  const path = (signaling.same_origin ? signaling.path : p.path || "/").replace(/\/+$/, "");
  return `${origin}${path}/turn`;
};
const iceOf = (config) => {
  const out = JSON.parse(JSON.stringify(config || {}));
  out.iceServers = (out.iceServers || []).concat(turn.servers);
  return out;
};
function withTurn(options) {
  if (!signaling.turn) return options;
  if (Date.now() > turn.expires - TURN_EARLY_MS) askTurn();
  options.config = iceOf(options.config || signaling.peer.config);
  return options;
}
const turnSays = (state) => {
  turn.state = state;
  if (document.body) document.body.dataset.turn = state;
};
const goodTurn = (answer) => answer && Array.isArray(answer.iceServers) && answer.iceServers.length <= 8
  && answer.iceServers.every((s) => s && typeof s.username === "string" && typeof s.credential === "string"
    && (typeof s.urls === "string" || Array.isArray(s.urls)))
  && Number.isFinite(answer.expires) && answer.expires > Date.now();
function askTurn() {
  if (!signaling.turn || turn.asking) return turn.asking;
  clearTimeout(turn.timer);
  const url = turnUrl();
  turn.asking = fetch(url, { credentials: "omit", cache: "no-store" })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((answer) => {
      if (!goodTurn(answer)) throw new Error("bad answer");
      turn.servers = answer.iceServers.map((s) => ({ urls: s.urls, username: s.username, credential: s.credential }));
      turn.expires = answer.expires;
      turnSays("ok");
      turn.peers = turn.peers.filter((p) => !p.destroyed);
      for (const p of turn.peers) if (p.options) p.options.config = iceOf(signaling.peer.config);
      turn.timer = setTimeout(askTurn, Math.max(TURN_RETRY_MS, answer.expires - Date.now() - TURN_EARLY_MS));
    })
    .catch(() => {
      if (Date.now() > turn.expires) { turn.servers = []; turnSays("failed"); }
      turn.timer = setTimeout(askTurn, TURN_RETRY_MS);
    })
    .finally(() => { turn.asking = null; });
  return turn.asking;
}
if (signaling.turn) askTurn();

const loading = document.getElementById("loading");
const byId = (id) => document.getElementById(id) || {};
const bar = loading?.querySelector("progress") || {};
const es = (navigator.language || "").toLowerCase().startsWith("es");
// Real progress: the bytes of this page's big downloads (config.js `loads`, sizes from the
// build) that have arrived (resource timing entries), and the part still coming, by name.
// (in player words: the parts are what they give the player, never the software's names)
const PARTS = {
  python: ["the rules", "las reglas"],
  stdlib: ["the rules", "las reglas"],
  micropython: ["the table", "la mesa"],
  game: ["the cards", "las cartas"],
};
byId("loading-tagline").textContent = es ? "Un juego de cartas de memoria y farol"
  : "A card game of memory and bluff";
const plan = ((loads || {})[guest ? "guest" : "host"]) || [];
const total = plan.reduce((sum, f) => sum + f[1], 0) || 1;
const arrived = new Set();
let got = 0;
let starting = false;
const show = () => {
  const next = plan.find((f) => !arrived.has(f[0]));
  const part = next ? PARTS[next[2]][es ? 1 : 0] : null;
  byId("loading-text").textContent = starting || !part
    ? (es ? "Preparando la mesa…" : "Setting the table…")
    : (es ? `Cargando ${part}…` : `Loading ${part}…`);
  byId("loading-detail").textContent = `${Math.round(100 * got / total)}%`;
  bar.value = Math.max(bar.value || 0, Math.round(5 + 90 * got / total) + (starting ? 3 : 0));
  if (loading) loading.dataset.progress = String(bar.value);
};
const say = () => show();   // PyScript's own steps move nothing: the bytes do
// (Watched until the page shows: loaded() stops it.)
let progress = null;
if (typeof PerformanceObserver === "function") {
  progress = new PerformanceObserver((list) => {
    let moved = false;
    for (const e of list.getEntries()) {
      const f = plan.find((p) => !arrived.has(p[0]) && e.name.endsWith("/" + p[0]));
      if (f) { arrived.add(f[0]); got += f[1]; moved = true; }
    }
    if (moved) show();
  });
  progress.observe({type: "resource", buffered: true});
}
const randomHex = (n) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, "0")).join("");
const webrtc = typeof window.RTCPeerConnection === "function"
  && typeof window.RTCDataChannel === "function";
const channelState = (conn) => {
  const pc = conn && conn.peerConnection;
  if (!pc) return conn ? "asked" : "";
  if (pc.iceConnectionState === "failed" || pc.connectionState === "failed") return "failed";
  return pc.remoteDescription ? "answered" : "asked";
};
const newPeer = (id, token, forRoom) => {
  if (!webrtc) throw new Error("browser-incompatible");
  const options = peerOptions(id || forRoom);
  options.token = typeof token === "string" && token ? token : randomHex(16);
  const peer = id ? new Peer(id, options) : new Peer(options);
  if (signaling.turn) turn.peers = turn.peers.filter((p) => !p.destroyed).concat([peer]);
  return peer;
};

// The page shows: the loading screen goes, and the service worker starts (in a task of its
// own, after the one that drew the page).
let shown = false;
const loaded = () => {
  if (loading) loading.hidden = true;
  if (!shown) {
    shown = true;
    window.crisp.times.shown = performance.now();
    progress?.disconnect();
    setTimeout(() => offline.start(), 0);
  }
};
const failed = (message) => {
  if (!loading) return;
  loading.hidden = false;
  loading.classList.add("error");
  // in player words first; the error itself stays, small, for whoever helps them
  byId("loading-text").textContent = es
    ? "El juego no pudo arrancar: recarga la página para intentarlo de nuevo."
    : "The game could not start: reload the page to try again.";
  byId("loading-detail").textContent = message;
};

// The service worker (sw.js): registered once the page is usable (it never delays the
// landing), then told what this page and its engine worker fetched, so that the next start
// (and solo play offline) needs no network. body[data-offline] says how far that has come:
// "page" (every page's files kept), "engine" (the host's engine too). Needs a secure context
// (https, localhost): a phone on a LAN address simply goes without.
// Another build's service worker taking over this page since it loaded (a deploy while it
// is open): the page goes on with its own build's files (sw.js keeps them when it can); a
// file of its build that is gone says so (the engine's failure: "update").
const deploy = { had: !!navigator.serviceWorker?.controller, seen: false };
navigator.serviceWorker?.addEventListener("controllerchange", () => {
  if (deploy.had) deploy.seen = true;
});
const offline = {
  ready: null,
  start() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    this.ready = navigator.serviceWorker.register("./sw.js")
      .then(() => navigator.serviceWorker.ready)
      .catch((e) => { console.warn("crisp: no service worker:", e.message); return null; });
    navigator.serviceWorker.addEventListener("message", (e) => {
      const what = e.data && e.data.op === "kept" ? e.data.id : null;
      if (what === "page" && document.body.dataset.offline !== "engine")
        document.body.dataset.offline = "page";
      else if (what === "engine") document.body.dataset.offline = "engine";
    });
    this.keep(performance.getEntriesByType("resource").map((e) => e.name), "page");
  },
  keep(urls, id) {
    // the page's files first: the engine's wait for them, also when the engine is ready
    // before the page has registered the service worker (a reloaded host tab starts it at once)
    if (id === "engine" && !this.pageKept) {
      this.later = urls;
      return;
    }
    if (!this.ready) return;
    this.ready.then((registration) => {
      if (registration && registration.active)
        registration.active.postMessage({ op: "keep", urls, id });
    });
    if (id === "page") {
      this.pageKept = true;
      if (this.later) this.keep(this.later, "engine");
    }
  },
};

// The engine worker (engine-worker.js). Messages are JSON text both ways; the worker answers
// requests in order. What arrives before ui/page/host/enginelink.py listens is kept for it.
const engine = {
  state: "idle",
  worker: null,
  listener: null,
  inbox: [],
  setState(state) {
    this.state = state;
    if (document.body) document.body.dataset.engine = state;
  },
  going: false,
  // The worker made, its script and config loaded, Pyodide not started (a host page does it
  // as it boots: the landing's start is not held up, and the worker's own load no longer
  // comes after the landing).
  prepare() {
    if (this.worker) return;
    this.worker = new Worker(new URL("./engine-worker.js", location.href), { type: "module" });
    // Status messages are objects ({op: "progress" | "ready" | "failed"}), replies are text.
    this.worker.onmessage = (e) => {
      if (typeof e.data === "string") return this.deliver(e.data);
      const status = e.data || {};
      if (status.op === "kept") {
        // (the worker kept its inflated snapshot for the next start, or could not)
        document.body.dataset.engineKept = status.ok ? "yes" : "no";
        return;
      }
      if (status.op === "ready" && status.build !== build) {
        // one page, one build: an engine of another build never runs this page's room
        console.warn(`crisp: engine of build ${status.build}, page of build ${build}`);
        this.worker.terminate();
        this.setState("failed");
        return this.deliver(JSON.stringify({ op: "failed", error: "build" }));
      }
      if (status.op === "ready") {
        window.crisp.times.engine = performance.now();
        window.crisp.times.engineOwn = status.ms;      // the worker's own start, ms
        // how it started: "snapshot" (the build's memory snapshot), "kept" (its inflated copy
        // kept by an earlier start) or "start" (without one)
        document.body.dataset.engineFrom = status.from || "start";
        this.build = status.build;
        this.setState("ready");
        // what the worker fetched, and the worker's own script (in the page's entries)
        offline.keep((status.fetched || []).concat(
          performance.getEntriesByType("resource").map((e) => e.name)), "engine");
        delete status.fetched;
      } else if (status.op === "failed") this.setState("failed");
      this.deliver(JSON.stringify(status));
    };
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      if (!this.going) {
        this.worker = null;    // (a worker that did not load before its start: start() makes another)
        return;
      }
      if (this.state === "ready") {
        // the running worker died (an uncaught error): the page restarts it
        return this.deliver(JSON.stringify({ op: "died", error: e.message || "worker error" }));
      }
      this.setState("failed");
      // a new build took over this page's service worker: this build's worker may be gone
      const error = deploy.seen ? "update" : (e.message || "worker error");
      this.deliver(JSON.stringify({ op: "failed", error }));
    };
  },
  // Pyodide starts in the worker (made now if prepare() did not): once; a second call does nothing.
  start() {
    if (this.going) return;
    this.prepare();
    this.going = true;
    this.setState("loading");
    this.worker.postMessage({ op: "start" });
  },
  // A new worker in place of the running one (ui/page/host/enginewatch.py: it died); the page then
  // restores its room in it. Replies the old one owed never come.
  restart() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.going = false;
    this.restarts = (this.restarts || 0) + 1;
    this.start();
  },
  deliver(text) {
    if (this.listener) this.listener(text);
    else this.inbox.push(text);
  },
  post(text) {
    if (!this.going) this.start();
    this.worker.postMessage(String(text));
  },
  listen(fn) {
    this.listener = fn;
    for (const text of this.inbox.splice(0)) fn(text);
  },
};

window.crisp = {
  mode, room, guest, test: testBuild === true, build,
  interpreter: "micropython",
  get peerOptions() { return peerOptions(); },
  get turn() { return turn.state; },
  serverFor: (id) => (signaling.servers ? serverFor(id, signaling.servers.length) : 0),
  webrtc, channelState, newPeer, randomHex, keepAwake, store,
  now: () => Date.now() + 0.5,
  engine,
  loaded, failed,
  times: { boot: performance.now() },
};
document.documentElement.dataset.interpreter = window.crisp.interpreter;

// Bots' faces (ui/page/screens/faces.py): does this browser draw colour emoji? One face, the fox
// (crisp_core/bot_faces.py FACES[0]), is drawn once in black on a small canvas: a colour
// emoji font draws it in its own colours; without one the browser draws an empty box in the
// fill colour, or nothing. <html data-faces="colour|none"> says which (facesCheck, at the end
// of this script), before the page's Python starts and reads it, once; a bot is then shown
// without its face where "none".
// `colourDrawn` decides from the canvas's RGBA bytes (tests/test_faces.py runs it in node):
// "colour" when at least 4 opaque-ish pixels (alpha > 64) have a colour, max - min of their
// R, G, B over 48 (black, grey and anti-aliased edges of a black box have none).
const colourDrawn = (px) => {
  let coloured = 0;
  for (let i = 0; i + 3 < px.length; i += 4) {
    const hi = Math.max(px[i], px[i + 1], px[i + 2]);
    const lo = Math.min(px[i], px[i + 1], px[i + 2]);
    if (px[i + 3] > 64 && hi - lo > 48) coloured += 1;
  }
  return coloured >= 4 ? "colour" : "none";
};
const facesCheck = () => {
  const started = performance.now();
  let faces = "none";
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 20;
    const g = canvas.getContext("2d", { willReadFrequently: true });
    if (g) {
      g.fillStyle = "#000";
      g.textBaseline = "top";
      g.font = '16px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';  // the page's
      g.fillText("\u{1F98A}", 2, 2);
      faces = colourDrawn(g.getImageData(0, 0, 20, 20).data);
    }
  } catch (e) {
    console.warn("crisp: no faces check:", e.message);    // no sure colour: no faces
  }
  document.documentElement.dataset.faces = faces;
  window.crisp.times.faces = performance.now() - started;
};

addEventListener(`${type}:progress`, (e) => say(e.detail));
document.addEventListener(`${type}:ready`, () => {
  window.crisp.times.ready = performance.now();
  starting = true;
  show();
});
// (ui/page/main.py has been imported: it draws the page in a task after this one, then calls
// crisp.loaded())
document.addEventListener(`${type}:done`, () => { window.crisp.times.done = performance.now(); });
addEventListener("error", (e) => { if (!window.crisp.times.done) failed(e.message); });
addEventListener("unhandledrejection", (e) => {
  if (!window.crisp.times.done) failed(e.reason?.message || String(e.reason));
});

// A reloaded host tab (?host=<room>) resumes its room at once: its engine starts now, beside
// MicroPython, not after it. (A plain landing starts it once it shows: its files then never
// compete with the landing's.)
if (!guest && params.get("host")) engine.start();

// The page's Python, downloaded beside MicroPython's files (pagefiles.js says why not through
// PyScript's [files]); its entries are written into MicroPython's file system when start.py
// asks (crisp.pageFiles), once the interpreter runs (PyScript's onReady gives its FS).
const pageArchive = fetch(new URL(pageZip, location.href)).then((r) => {
  if (!r.ok) throw new Error(`${pageZip}: HTTP ${r.status}`);
  return r.arrayBuffer();
}).then((buffer) => unpack(new Uint8Array(buffer)));
pageArchive.catch(() => {});    // (said when start.py asks for it)
let interpreterFS = null;
window.crisp.pageFiles = (then) => {
  pageArchive.then((files) => {
    if (!interpreterFS) throw new Error("page files: MicroPython's file system was not given");
    writeFiles(interpreterFS, files);
    setTimeout(() => then(), 0);
  }).catch((e) => failed(e && e.message ? e.message : String(e)));
};

// Every other host page makes its engine worker now, idle until the landing shows.
if (!guest) engine.prepare();

const script = document.createElement("script");
script.type = type;
script.src = "./start.py";      // imports ui/page/main.py, as bytecode (tools/build.py)
script.setAttribute("config", "./mpy.toml");
document.head.append(script);
say("");
import("./vendor/pyscript/core.js").then(({ hooks }) => {
  hooks.main.onReady.add((wrap) => { interpreterFS = wrap.interpreter.FS; });
}).catch((e) => failed(e.message));
// The faces check last: MicroPython's files are on their way meanwhile, and its Python,
// which reads the flag, starts only after this script.
facesCheck();
