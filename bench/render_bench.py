"""What a guest's page spends on one view, on MicroPython (the interpreter guests run), with no
browser: parse it (Client.receive), build the screen's tree (screens.build) and patch the DOM
from it (vdom.Patcher), at 3 and 8 players (issue 22.5).

    .venv/bin/python bench/render_bench.py [--views 60] [--players 3,8] [--rounds 3]
        [--against REF] [--cpu-time]

The views are a real game's, seat 1's: the room (ui/worker/room.py, in CPython here) plays
draw-and-discard turns for every seat. The page side runs in the npm MicroPython build (the
file the page loads) under node, on a small DOM of plain Python objects (so the patch's
numbers are the Python side of it: the browser's own DOM work comes on top). Each view is
rendered as a page renders it on arrival (`arrive`), then again as the 250 ms tick renders
it unchanged (`tick`). `--against REF` runs the same views through the ui/ and crisp_core/
of a git ref too (`git archive`), the two side by side, each run `--rounds` times in turn
(a machine that other work loads meanwhile weighs on both alike). `--cpu-time`: each part timed
by the node process's CPU time (process.cpuUsage) instead of the wall clock, so that other work
on a loaded machine weighs on neither. Medians and p95, ms. Prints numbers; asserts nothing.
"""

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript",
                   "micropython.mjs")


def game_views(players, count, seed=5):
    """Seat 1's view messages (JSON texts, in order) of a game of `players` people whose
    seats draw and discard (or do what their view allows first: ready, discard, draw), as
    the room sends them; `count` of them at least, once the deal is over."""
    sys.path.insert(0, ROOT)
    from ui.worker.room import Room

    room = Room("crisp-bench", "Host", seed=seed)
    conns = ["local"] + ["c%d" % i for i in range(1, players)]
    latest, texts = {}, []

    def feed(out):
        for conn, text in out:
            msg = json.loads(text)
            if msg.get("type") == "view":
                latest[conn] = msg
            if conn == "c1" and msg.get("type") in ("view", "welcome", "lobby"):
                texts.append(text)

    feed(room.receive("local", json.dumps({"type": "join", "v": 1, "name": "Host"}), 0))
    for i, conn in enumerate(conns[1:]):
        room.open(conn, 1)
        feed(room.receive(conn, json.dumps({"type": "join", "v": 1,
                                            "name": "Guest %d" % (i + 1)}), 1))
    feed(room.receive("local", json.dumps({"type": "start", "v": 1}), 2))
    now = 10
    rng = random.Random(seed)
    while len(texts) < count + 10 and now < 10 ** 7:
        now += 700
        feed(room.tick(now))
        for conn in conns:
            msg = latest.get(conn)
            allowed = [a.get("do") for a in (msg or {}).get("view", {}).get("allowed") or []]
            todo = next((d for d in ("ready", "discard", "swap", "jack", "king", "draw") if d in allowed), None)
            if todo is None:
                continue
            action = {"do": todo}
            if todo == "draw":
                action["from"] = "deck"
            if todo == "swap":
                action["pos"] = rng.choice(["left", "center", "right"])
            res = room.receive(conn, json.dumps({"type": "action", "v": 1, "action": action,
                                                "n": msg["n"]}), now)
            feed(res)
            break
        if room.game is not None and room.game.phase == "round_over":
            feed(room.receive("local", json.dumps({"type": "next_round", "v": 1}), now))
    return texts


PAGE = r"""
import json
from benchclock import now as clock
from ui.page.screens import screens
from ui.page.client.client import Client
from ui.page.dom.vdom import Patcher
from ui.page.screens.viewmodel import Ctx, new_ui

class El:
    def __init__(self, tag):
        self.tag, self.kids, self.attrs, self.data = tag, [], {}, ""
        self.value, self.checked = "", False
        self.style = self
        self.cssText = ""
    def setAttribute(self, k, v): self.attrs[k] = v
    def removeAttribute(self, k): self.attrs.pop(k, None)
    def appendChild(self, c): self.kids.append(c); return c
    def insertBefore(self, c, ref):
        if c in self.kids: self.kids.remove(c)
        self.kids.insert(self.kids.index(ref), c); return c
    def removeChild(self, c): self.kids.remove(c); return c
    def replaceChild(self, new, old): self.kids[self.kids.index(old)] = new; return old

class Doc:
    def createElement(self, tag): return El(tag)
    def createElementNS(self, ns, tag): return El(tag)
    def createTextNode(self, text):
        e = El("#text"); e.data = text; return e

def ms(a, b): return b - a

class Page:
    # a guest's page: its Client, its screen state, its DOM and tree (and memo, where the
    # ui/ measured has one)

    def __init__(self):
        self.client = Client(lambda text: None)
        self.client.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "t",
                                        "room": "r"}), 0)
        self.ui = new_ui("en", "Guest 1")
        self.root = El("div")
        self.patcher = Patcher(Doc())
        self.tree = None
        try:
            from ui.page.dom.memo import Memo
            self.memo = Memo()
        except ImportError:
            try:
                from ui.page.dom.vdom import Memo       # (where a ref before it had it)
                self.memo = Memo()
            except ImportError:
                self.memo = None

    def one(self, text, now):
        # the view `text` arrives at `now`, then a tick 250 ms later: [[parse, build,
        # patch] ms of each]
        row = []
        for phase in ("arrive", "tick"):
            t0 = clock()
            if phase == "arrive":
                self.client.receive(text, now)
            t1 = clock()
            ctx = Ctx("en", now, 0 if phase == "arrive" else 250)
            if self.memo is not None:
                ctx.memo = self.memo
                self.memo.begin()
            new = screens.build(self.client, self.ui, ctx)
            t2 = clock()
            if self.tree is None:
                self.root.appendChild(self.patcher.create(new))
            else:
                self.patcher.patch(self.root, self.tree, new)
            self.tree = new
            t3 = clock()
            row.append([t1 - t0, t2 - t1, t3 - t2])
        return row

page = Page()
texts = json.loads(TEXTS)

def one(i):
    print("ROW " + json.dumps(page.one(texts[i], 1000 + 700 * i)))
"""

RUNNER = r"""
import { loadMicroPython } from %(mpy)s;
import fs from "node:fs";
import path from "node:path";
const src = %(src)s;
const texts = fs.readFileSync(%(texts)s, "utf8");
let out = "";
const mp = await loadMicroPython({stdout: (s) => { out += s + "\n"; },
                                  stderr: (s) => { out += s + "\n"; }});
const walk = (dir) => {
  for (const name of fs.readdirSync(path.join(src, dir))) {
    const rel = path.join(dir, name), full = path.join(src, rel);
    if (fs.statSync(full).isDirectory()) { mp.FS.mkdir("/" + rel); walk(rel); }
    else if (name.endsWith(".py")) mp.FS.writeFile("/" + rel, fs.readFileSync(full, "utf8"));
  }
};
for (const top of ["ui", "crisp_core"]) { mp.FS.mkdir("/" + top); walk(top); }
mp.registerJsModule("benchclock", {now: %(clock)s});
mp.globals.set("TEXTS", texts);
try {
  mp.runPython(fs.readFileSync(%(page)s, "utf8"));
  for (let i = 0; i < JSON.parse(texts).length; i++) mp.runPython("one(" + i + ")");
} catch (e) { out += "ERROR " + e + "\n"; }
process.stdout.write(out);
"""


WALL = "() => performance.now()"
CPU = "() => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }"
CLOCK = [WALL]          # --cpu-time: CPU


def on_micropython(src, texts):
    """Run PAGE on MicroPython (node) with the ui/ and crisp_core/ of folder `src`, the
    views `texts` in order; -> per view [[parse, build, patch] on arrival, [...] on the tick
    after], ms."""
    with tempfile.TemporaryDirectory() as tmp:
        page, views, script = (os.path.join(tmp, n) for n in ("page.py", "views.json", "run.mjs"))
        with open(page, "w", encoding="utf-8") as f:
            f.write(PAGE)
        with open(views, "w", encoding="utf-8") as f:
            json.dump(texts, f)
        with open(script, "w", encoding="utf-8") as f:
            f.write(RUNNER % {"mpy": json.dumps("file://" + MPY), "src": json.dumps(src),
                              "texts": json.dumps(views), "page": json.dumps(page),
                              "clock": CLOCK[0]})
        proc = subprocess.run(["node", script], capture_output=True, text=True, timeout=900)
    out = proc.stdout + proc.stderr
    rows = [json.loads(l[4:]) for l in out.splitlines() if l.startswith("ROW ")]
    if len(rows) != len(texts):
        raise SystemExit("MicroPython run failed:\n" + out[-3000:])
    return rows


def checkout(ref, into):
    """The ui/ and crisp_core/ of git ref `ref`, unpacked into folder `into`."""
    archive = subprocess.run(["git", "-C", ROOT, "archive", ref, "ui", "crisp_core"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)


def p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    count = int(argv[argv.index("--views") + 1]) if "--views" in argv else 60
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 3
    players = [int(n) for n in (argv[argv.index("--players") + 1] if "--players" in argv
                                else "3,8").split(",")]
    if "--cpu-time" in argv:
        CLOCK[0] = CPU
    if shutil.which("node") is None or not os.path.isfile(MPY):
        raise SystemExit("needs node and node_modules (npm ci)")
    sources = [("this tree", ROOT)]
    tmp = None
    if "--against" in argv:
        ref = argv[argv.index("--against") + 1]
        tmp = tempfile.mkdtemp()
        checkout(ref, tmp)
        sources.append((ref, tmp))
    try:
        print("a guest's page, one view, on MicroPython (node; medians / p95, ms%s):"
              % (" of CPU time" if CLOCK[0] == CPU else ""))
        print("  %-10s %-14s" % ("players", "") + "".join(
            "%24s" % label[:23] for label, _ in sources))
        for n in players:
            texts = game_views(n, count)[:count + 10][10:]    # past the deal
            results = [[] for _ in sources]
            for _ in range(rounds):         # the sources in turn, round after round
                for k, (_, src) in enumerate(sources):
                    results[k] += on_micropython(src, texts)
            for p, phase in enumerate(("arrive", "tick")):
                for k, part in enumerate(("parse", "build", "patch", "total")):
                    if phase == "tick" and part == "parse":
                        continue
                    row = "  %-10s %-14s" % (n, phase + " " + part)
                    for res in results:
                        vals = [sum(v[p]) if part == "total" else v[p][k] for v in res]
                        row += "%24s" % ("%.2f / %.2f" % (statistics.median(vals), p95(vals)))
                    print(row)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
