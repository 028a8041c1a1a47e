// Crisp's one door to localStorage, guarded on the JavaScript side (docs/decisions.md "Faults the page survives").
//
// A browser may refuse storage: reading `localStorage` itself throws a SecurityError in some
// private modes and embedded views, and setItem throws QuotaExceededError when the origin's
// quota is full (any other project on a shared origin can fill it). MicroPython's FFI lets
// those exceptions pass its JS attribute lookup and call, past a Python `except`, so the page
// (ui/page/storage.py) never touches localStorage itself: it calls window.crisp.store (boot.js),
// whose methods never throw.
//
//   get(key)         the text stored under key, or null
//   set(key, value)  store the text; true when the browser keeps it, false when it is kept in
//                    this page's memory only (a reload loses it)
//   remove(key)      forget key
//   state            "ok" | "blocked" (storage refused: everything lives in memory) | "full"
//                    (a write did not fit even after dropping old records: that one lives in
//                    memory); also body[data-storage] once the page has a body
//   dropped          the keys dropped to make room, oldest room first
//
// What may be dropped when the quota is full (docs/design.md "Persistence"): only Crisp's
// own per-room records (crisp.room./live./solo./peer./token./follow.<room>), one room's
// records together, the room last written longest ago first (ages: crisp.ages, the ms each
// room was last written, at most once a minute; a room missing from it counts as oldest).
// Never the room being written, nor a room this page wrote or read since it loaded, nor
// crisp.name / crisp.lang / crisp.sound (a few bytes each), nor another site's keys.

export const ROOM_PREFIXES = ["crisp.room.", "crisp.live.", "crisp.solo.", "crisp.peer.",
  "crisp.token.", "crisp.follow."];
const AGES = "crisp.ages";
const AGE_STEP_MS = 60000;     // a room's age is rewritten at most once a minute
const AGES_MAX = 64;           // rooms the age index remembers

const isQuota = (e) => !!e && (e.name === "QuotaExceededError" || e.code === 22
  || e.name === "NS_ERROR_DOM_QUOTA_REACHED" || e.code === 1014);

/** The room a per-room key belongs to (`crisp.token.<room>` -> "<room>"), else null. */
export const roomOf = (key) => {
  for (const prefix of ROOM_PREFIXES)
    if (key.startsWith(prefix) && key.length > prefix.length) return key.slice(prefix.length);
  return null;
};

/** A store over `local()` (a function giving the Storage object: reading it may throw),
 * `now()` ms, and `told(state, error)` called when the state changes. */
export function makeStore(local, now = () => Date.now(), told = () => {}) {
  const memory = new Map();      // key -> text (or null: removed) not kept by the browser
  const inUse = new Set();       // rooms this page wrote or read since it loaded
  let ages = null;               // {room: ms}, read once
  const store = { state: "ok", dropped: [] };

  const refuse = (state, e) => {
    if (store.state === state || store.state === "blocked") return;
    store.state = state;
    told(state, e);
  };
  const use = (key) => { const room = roomOf(key); if (room) inUse.add(room); return room; };
  const readAges = (ls) => {
    if (ages) return ages;
    ages = {};
    try {
      const parsed = JSON.parse(ls.getItem(AGES) || "{}");
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        for (const [room, at] of Object.entries(parsed))
          if (typeof at === "number") ages[room] = at;
    } catch (e) { /* a damaged index: every room counts as oldest */ }
    return ages;
  };
  const touch = (ls, room) => {
    const all = readAges(ls);
    const t = now();
    if (typeof all[room] === "number" && t - all[room] < AGE_STEP_MS) return;
    all[room] = t;
    const kept = Object.entries(all).sort((a, b) => b[1] - a[1]).slice(0, AGES_MAX);
    ages = Object.fromEntries(kept);
    try { ls.setItem(AGES, JSON.stringify(ages)); } catch (e) { /* full: the age waits */ }
  };
  // Drop the oldest room's records (not `keep`'s, nor one in use); false when none is left.
  const dropOldest = (ls, keep) => {
    const rooms = new Map();     // room -> its keys
    for (let i = 0; i < ls.length; i++) {
      const key = ls.key(i);
      const room = typeof key === "string" ? roomOf(key) : null;
      if (room && room !== keep && !inUse.has(room)) {
        if (!rooms.has(room)) rooms.set(room, []);
        rooms.get(room).push(key);
      }
    }
    if (!rooms.size) return false;
    const all = readAges(ls);
    const age = (room) => (typeof all[room] === "number" ? all[room] : 0);
    const oldest = [...rooms.keys()].sort((a, b) => age(a) - age(b) || (a < b ? -1 : 1))[0];
    for (const key of rooms.get(oldest)) { ls.removeItem(key); store.dropped.push(key); }
    if (ls.getItem("crisp.host.room") === oldest) ls.removeItem("crisp.host.room");
    delete all[oldest];
    return true;
  };

  store.get = (key) => {
    key = String(key);
    use(key);
    if (memory.has(key)) return memory.get(key);
    try {
      const value = local().getItem(key);
      return typeof value === "string" ? value : null;
    } catch (e) {
      refuse("blocked", e);
      return null;
    }
  };
  store.set = (key, value) => {
    key = String(key);
    value = String(value);
    const room = use(key);
    let ls = null;
    try {
      ls = local();
      let own = ls.getItem(key) !== null;   // its older copy: dropped last, for its own room
      for (;;) {
        try {
          ls.setItem(key, value);
          break;
        } catch (e) {
          if (!isQuota(e)) throw e;
          if (dropOldest(ls, room)) continue;
          if (!own) throw e;
          ls.removeItem(key);
          own = false;
        }
      }
      memory.delete(key);
      if (room) touch(ls, room);
      return true;
    } catch (e) {
      refuse(isQuota(e) ? "full" : "blocked", e);
      memory.set(key, value);
      // an older copy must not come back on a reload as if it were the newest
      try { ls?.removeItem(key); } catch (e2) { /* refused too: memory wins meanwhile */ }
      return false;
    }
  };
  store.remove = (key) => {
    key = String(key);
    if (memory.has(key)) memory.set(key, null);
    try {
      local().removeItem(key);
      memory.delete(key);
    } catch (e) {
      memory.set(key, null);
      refuse("blocked", e);
    }
  };
  // Storage refused from the start (reading localStorage throws): say so at once.
  try { local().getItem("crisp.name"); } catch (e) { refuse("blocked", e); }
  return store;
}

/** The page's store, over window.localStorage; body[data-storage] says its state. */
export const store = makeStore(() => window.localStorage, () => Date.now(), (state, e) => {
  console.warn(`crisp: storage ${state}: ${e && (e.name || e.message)}`);
  if (typeof document === "undefined") return;    // (imported by tests under node)
  const mark = () => { document.body.dataset.storage = state; };
  if (document.body) mark();
  else addEventListener("DOMContentLoaded", mark, { once: true });
});
