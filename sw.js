// Crisp's service worker: a warm start fetches nothing over the network, and solo play works
// offline after the first visit. tools/build.py writes dist/sw.js: this file after a
// generated first line, `self.CRISP_BUILD = {id, shell, files}`:
//   id     the build's id (a hash of every file below): the cache's name, so that a new build
//          is a new service worker (the browser's update check) with a fresh cache
//   shell  what every page needs (the page shell, MicroPython, PyScript's core, the page's
//          zip, PeerJS): cached when this worker installs
//   files  every file of the build (relative URLs) this worker may cache: what a page or the
//          engine worker fetched (Pyodide and the engine's zip only on a host page: a guest
//          never downloads them) is kept when the page says so ({op: "keep", urls})
//   engine the engine's files: had at install when the previous build's engine was kept
//          (keepEngine)
// Every URL is relative to the worker's scope (its folder), so the build works under a
// sub-path too. Requests for anything else (the PeerJS signaling server) are not touched.
const BUILD = self.CRISP_BUILD;
const CACHE = "crisp-" + BUILD.id;
const SCOPE = self.registration.scope;
const known = new Set(BUILD.files.map((f) => new URL(f, SCOPE).href));
// The cache key of a request: the page itself (any ?room= or ?host=) is the scope's URL;
// another file of the build is its URL (with no query); anything else is not ours (null).
function key(url) {
  const u = new URL(url);
  if (u.origin !== self.location.origin) return null;
  const bare = u.origin + u.pathname;
  if (bare === SCOPE || bare === SCOPE + "index.html") return SCOPE;
  return u.search === "" && known.has(bare) ? bare : null;
}
// A file of another build (each build's own files carry its id in their names,
// tools/versioning.py VERSIONED): a page of the previous build still open after this worker took
// over asks for those. It gets them from that build's cache when it was kept (never this
// build's copies), else from the network.
function other(url) {
  const u = new URL(url);
  return u.origin === self.location.origin && u.search === "" && u.href.startsWith(SCOPE)
    ? u.href : null;
}

async function keep(urls) {
  const cache = await caches.open(CACHE);
  await Promise.all(urls.map(async (url) => {
    const k = key(url);
    if (k === null || (await cache.match(k))) return;
    try {
      const response = await fetch(k);      // from the browser's HTTP cache when it can
      if (response.ok) await cache.put(k, response);
    } catch (e) { /* offline: kept on the next visit */ }
  }));
}

// The engine (BUILD.engine: the engine worker, Pyodide, its memory snapshot, the host zip),
// had before this worker takes over from a build whose engine this browser kept (it hosted
// or played solo here): else, after a deploy and one online visit, solo offline could not
// start (the old build's page never fetched the new build's engine). Each file comes from an
// earlier build's cache when its name is unchanged (versioned names: the same name, the same
// bytes), else from the network. One that cannot be had fails the install: the old build
// stays in charge, its cache kept, and the browser tries again at its next update check.
// A browser that never ran the engine (a guest's phone) downloads none of it.
async function keepEngine() {
  const olds = [];
  for (const name of await caches.keys()) {
    if (name.startsWith("crisp-") && name !== CACHE) olds.push(await caches.open(name));
  }
  let had = false;
  for (const old of olds) {
    if ((await old.keys()).some((r) => r.url.endsWith("/pyodide.asm.wasm"))) had = true;
  }
  if (!had) return;
  const cache = await caches.open(CACHE);
  await Promise.all((BUILD.engine || []).map(async (f) => {
    const url = new URL(f, SCOPE).href;
    if (await cache.match(url)) return;
    let response = null;
    for (const old of olds) response = response || (await old.match(url)) || null;
    response = response || (await fetch(url));
    if (!response.ok) throw new Error(`${f}: HTTP ${response.status}`);
    await cache.put(url, response);
  }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(keep(BUILD.shell.map((f) => new URL(f, SCOPE).href))
    .then(keepEngine).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // the newest other build's cache stays (a page of it may still be open: it runs its own
    // build to the end, see other()); older ones go
    const olds = (await caches.keys()).filter((n) => n.startsWith("crisp-") && n !== CACHE);
    for (const name of olds.slice(0, -1)) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.op !== "keep" || !Array.isArray(msg.urls)) return;
  const done = keep(msg.urls.filter((u) => typeof u === "string"));
  event.waitUntil(done);
  done.then(() => event.source && event.source.postMessage({ op: "kept", id: msg.id }));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const k = key(request.url);
  if (k === null) {
    const url = other(request.url);
    if (url !== null)
      event.respondWith(caches.match(url).then((hit) => hit || fetch(request)));
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(k);
    if (hit) return hit;
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      const copy = response.clone();
      event.waitUntil(cache.put(k, copy));
    }
    return response;
  })());
});
