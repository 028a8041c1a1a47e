"""store.js, the page's guarded door to localStorage (issue 23, fault 2), run under node
with a stand-in Storage: it never throws into the page, keeps in memory what the browser
refuses, and when the quota is full drops Crisp's own oldest room records first (never
another site's keys, the room being written, a room in use, or the player's name)."""

import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A Storage like the browser's: a byte quota (keys + values, as UTF-16 code units) whose
# setItem throws a QuotaExceededError past it; `refuse` makes every access throw.
HARNESS = r"""
import { makeStore, roomOf } from %(store)s;
class Quota extends Error { constructor() { super("full"); this.name = "QuotaExceededError"; this.code = 22; } }
class Security extends Error { constructor() { super("denied"); this.name = "SecurityError"; this.code = 18; } }
class FakeStorage {
  constructor(quota) { this.quota = quota; this.items = new Map(); }
  used() { let n = 0; for (const [k, v] of this.items) n += k.length + v.length; return n; }
  get length() { return this.items.size; }
  key(i) { return [...this.items.keys()][i] ?? null; }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) {
    const before = this.items.has(k) ? k.length + this.items.get(k).length : 0;
    if (this.used() - before + k.length + String(v).length > this.quota) throw new Quota();
    this.items.set(k, String(v));
  }
  removeItem(k) { this.items.delete(k); }
}
const results = {};
const told = [];
let clock = 1000000;
const now = () => clock;

// 1. storage blocked: reading localStorage itself throws
{
  const store = makeStore(() => { throw new Security(); }, now, (s) => told.push(s));
  const r = { state0: store.state };
  r.set = store.set("crisp.name", "Ana");
  r.get = store.get("crisp.name");
  store.remove("crisp.name");
  r.gone = store.get("crisp.name");
  r.missing = store.get("crisp.token.x");
  r.state = store.state;
  results.blocked = r;
}
// 2. the quota full: Crisp's oldest rooms go first, one room's records together
{
  const ls = new FakeStorage(4000);
  ls.setItem("other.app.big", "x".repeat(2200));        // another project on the origin
  ls.setItem("crisp.name", "Ana");
  for (const [room, at] of [["old1", 10], ["old2", 20], ["old3", 30]]) {
    ls.setItem("crisp.room." + room, "r".repeat(300));
    ls.setItem("crisp.live." + room, "{}");
  }
  ls.setItem("crisp.token.old4", "t".repeat(32));       // not in the ages index: oldest
  ls.setItem("crisp.host.room", "old1");
  ls.setItem("crisp.ages", JSON.stringify({ old1: 10, old2: 20, old3: 30 }));
  const store = makeStore(() => ls, now);
  const r = {};
  r.inUse = store.get("crisp.room.old3");                // the landing offers it: in use
  r.set = store.set("crisp.room.new", "n".repeat(1200));
  r.state = store.state;
  r.dropped = store.dropped;
  r.keys = [...ls.items.keys()].sort();
  r.got = store.get("crisp.room.new").length;
  r.ages = JSON.parse(ls.getItem("crisp.ages"));
  results.full = r;
}
// 3. nothing of Crisp's left to drop: kept in memory, state "full", the older copy gone
{
  const ls = new FakeStorage(1000);
  ls.setItem("crisp.room.mine", "old");
  ls.setItem("other.app.big", "x".repeat(900));
  const store = makeStore(() => ls, now);
  const r = {};
  r.set = store.set("crisp.room.mine", "n".repeat(500));
  r.state = store.state;
  r.got = store.get("crisp.room.mine").length;
  r.stored = ls.getItem("crisp.room.mine");
  r.other = ls.getItem("other.app.big").length;
  results.memory = r;
}
// 4. its own older copy makes room when nothing else can
{
  const ls = new FakeStorage(1000);
  ls.setItem("other.app.big", "x".repeat(450));
  ls.setItem("crisp.room.mine", "o".repeat(400));
  const store = makeStore(() => ls, now);
  results.own = { set: store.set("crisp.room.mine", "n".repeat(420)), state: store.state,
                  stored: (ls.getItem("crisp.room.mine") || "").length };
}
// 5. a hostile age index and keys: nothing throws
{
  const ls = new FakeStorage(520);
  ls.setItem("crisp.ages", "[1,2,");
  ls.setItem("crisp.room.", "empty room id");
  ls.setItem("crisp.token.z", "t".repeat(400));
  const store = makeStore(() => ls, now);
  results.hostile = { set: store.set("crisp.token.y", "u".repeat(100)), state: store.state,
                      dropped: store.dropped, roomOf: [roomOf("crisp.room."), roomOf("crisp.follow.ab"), roomOf("crisp.name")] };
}
// 6. a write that throws something else (SecurityError on setItem): blocked, in memory
{
  const ls = new FakeStorage(1000);
  ls.setItem = () => { throw new Security(); };
  const store = makeStore(() => ls, now);
  results.writeRefused = { set: store.set("crisp.name", "Bea"), get: store.get("crisp.name"),
                           state: store.state };
}
results.told = told;
console.log(JSON.stringify(results));
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    if shutil.which("node") is None:
        pytest.skip("node is missing")
    folder = tmp_path_factory.mktemp("store")
    script = folder / "run.mjs"
    store = "file://" + os.path.join(ROOT, "store.js")
    script.write_text(HARNESS % {"store": json.dumps(store)})
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_blocked_storage_never_throws_and_lives_in_memory(results):
    r = results["blocked"]
    assert r["state0"] == "blocked" and r["state"] == "blocked"
    assert r["set"] is False and r["get"] == "Ana"
    assert r["gone"] is None and r["missing"] is None
    assert results["told"] == ["blocked"]          # said once


def test_a_full_quota_drops_crisps_oldest_rooms_first(results):
    r = results["full"]
    assert r["set"] is True and r["state"] == "ok" and r["got"] == 1200
    # old4 (no age: oldest) went first, then old1, then old2; old3 is in use, kept
    assert r["dropped"] == ["crisp.token.old4", "crisp.room.old1", "crisp.live.old1",
                            "crisp.room.old2", "crisp.live.old2"]
    assert "crisp.room.old3" in r["keys"] and "crisp.name" in r["keys"]
    assert "other.app.big" in r["keys"]             # never another site's key
    assert "crisp.host.room" not in r["keys"]       # it named a dropped room
    assert "new" in r["ages"] and "old1" not in r["ages"]


def test_nothing_left_to_drop_keeps_the_write_in_memory(results):
    r = results["memory"]
    assert r["set"] is False and r["state"] == "full" and r["got"] == 500
    assert r["stored"] is None          # the older copy would come back on a reload
    assert r["other"] == 900


def test_its_own_older_copy_makes_room_last(results):
    assert results["own"] == {"set": True, "state": "ok", "stored": 420}


def test_hostile_records_never_throw(results):
    r = results["hostile"]
    assert r["set"] is True and r["state"] == "ok"
    assert r["dropped"] == ["crisp.token.z"]
    assert r["roomOf"] == [None, "ab", None]


def test_a_refused_write_is_kept_in_memory(results):
    assert results["writeRefused"] == {"set": False, "get": "Bea", "state": "blocked"}
