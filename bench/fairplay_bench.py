"""Fair play benchmark (docs/protocol.md "Verifiable shuffle"): what the committed shuffle
costs the host, and what checking a round costs a guest.

    python3 bench/fairplay_bench.py [--rounds N]

Prints numbers; asserts nothing.
- CPython (the host's engine; Pyodide runs the same code): a fresh secret (`secrets`), its
  commitment, the seed from the secret and the contributions, and the deck (Fisher-Yates
  over the SHA-256 stream), per deal; the check of one round's record (replay + compare).
- MicroPython under node (the guest's interpreter, the npm build the page loads): the same
  deck, and the check of the same records, per round. Skipped without node/node_modules.
- Sizes: a round's inputs, its `proof` messages and its saved record, in bytes.
"""

import json
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.engine_bench import _legal_step  # noqa: E402
from crisp_core import Game, events_for, shuffle, verify  # noqa: E402

MPY = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript",
                   "micropython.mjs")
GUEST_EXCLUDED = ("bots.py", "bot_memory.py", "bot_odds.py", "tournament.py", "scenario.py")


def commit_and_shuffle(players):
    """One deal's work for the host: secret, commitment, seed, deck."""
    secret = secrets.token_hex(32)
    shuffle.commitment(secret)
    contributions = [secrets.token_hex(16) for _ in range(players - 1)]
    return shuffle.deck_from_seed(shuffle.derive_seed(secret, contributions))


def host_cost_us(players, reps=2000):
    start = time.perf_counter()
    for _ in range(reps):
        commit_and_shuffle(players)
    return (time.perf_counter() - start) / reps * 1e6


def a_round(players, seed, draw_seconds=30, no_call_steps=0):
    """A round played with random legal actions from a committed deck (nobody calls crisp in
    its first `no_call_steps` steps: a long round); returns the record as seat 1's page would
    save it."""
    rng = random.Random(seed)
    secret = "%064x" % rng.getrandbits(256)
    contributions = ["%032x" % rng.getrandbits(128) for _ in range(players - 1)]
    order = shuffle.deck_from_seed(shuffle.derive_seed(secret, contributions))
    game = Game.new({"players": players, "draw_seconds": draw_seconds}, order=order, now=0)
    events = game.deal_events()
    now = 0
    steps = 0
    while game.phase not in ("round_over", "game_over"):
        now += rng.choice((0, 2000, 3000))
        events += game.advance(now)
        steps += 1
        step = _legal_step(game, rng, now)
        if step is not None and step[1]["do"] == "crisp" and steps < no_call_steps:
            continue
        if step is not None:
            events += game.apply(step[0], step[1], now)
    return {"crisp_record": 1, "round": 1, "dealer": 0, "options": game.options,
            "scores": [0] * players, "start": 0, "commitment": shuffle.commitment(secret),
            "contributions": [[s + 1, v] for s, v in enumerate(contributions)], "skipped": [],
            "secret": secret, "actions": [list(e) for e in game.journal], "seat": 1,
            "sent": contributions[0], "observed": [events_for(events, 1)]}


def cpython_check_ms(records):
    start = time.perf_counter()
    for record in records:
        assert verify.check(record) is None
    return (time.perf_counter() - start) / len(records) * 1000


MPY_SCRIPT = r"""
import { loadMicroPython } from %(mpy)s;
import fs from "node:fs";
let out = "";
const mp = await loadMicroPython({stdout: (s) => { out += s + "\n"; },
                                  stderr: (s) => { out += s + "\n"; }});
mp.FS.mkdir("/crisp_core");
for (const [dst, src] of Object.entries(%(files)s)) mp.FS.writeFile(dst, fs.readFileSync(src, "utf8"));
try {
  mp.runPython(`
import sys, json, time
sys.path.insert(0, "/")
import crisp_core.verify as verify
from crisp_core import shuffle
records = json.load(open("/records.json"))
reps = 200
t0 = time.ticks_ms()
for i in range(reps):
    shuffle.deck_from_seed(shuffle.derive_seed("ab" * 32, ["01" * 16] * 7))
deck_ms = time.ticks_diff(time.ticks_ms(), t0) / reps
t0 = time.ticks_ms()
bad = 0
for record in records:
    if verify.check(record) is not None:
        bad += 1
check_ms = time.ticks_diff(time.ticks_ms(), t0) / len(records)
print("MPY", deck_ms, check_ms, bad)
`);
} catch (e) { out += "ERROR " + e + "\n"; }
process.stdout.write(out);
"""


def micropython_ms(records):
    """(deck ms, check ms per round, failures) on MicroPython under node, or None."""
    node = shutil.which("node")
    if node is None or not os.path.isfile(MPY):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        files = {"/records.json": os.path.join(tmp, "records.json")}
        with open(files["/records.json"], "w") as f:
            json.dump(records, f)
        for name in os.listdir(os.path.join(ROOT, "crisp_core")):
            if name.endswith(".py") and name not in GUEST_EXCLUDED:
                files["/crisp_core/" + name] = os.path.join(ROOT, "crisp_core", name)
        script = os.path.join(tmp, "run.mjs")
        with open(script, "w") as f:
            f.write(MPY_SCRIPT % {"mpy": json.dumps("file://" + MPY), "files": json.dumps(files)})
        out = subprocess.run([node, script], capture_output=True, text=True, timeout=600).stdout
    line = [x for x in out.splitlines() if x.startswith("MPY ")]
    if not line:
        return ("error", out[-500:])
    _, deck, check, bad = line[-1].split()
    return float(deck), float(check), int(bad)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 20
    print("CPython %s" % sys.version.split()[0])
    for players in (2, 4, 8):
        print("%-46s %.1f" % ("host commit+shuffle per deal, %d players (us)" % players,
                              host_cost_us(players)))
    for players, long_steps in ((4, 0), (8, 0), (4, 200)):
        records = [a_round(players, seed, no_call_steps=long_steps) for seed in range(rounds)]
        if long_steps:
            players = "%d (long rounds)" % players
        inputs = sorted(len(r["actions"]) for r in records)
        proof = sorted(len(json.dumps(r["actions"], separators=(",", ":"))) for r in records)
        saved = sorted(len(json.dumps(r)) for r in records)
        mid = len(records) // 2
        print("%-46s %d (max %d)" % ("inputs per round, %s players, median" % players,
                                     inputs[mid], inputs[-1]))
        print("%-46s %d (max %d)" % ("proof bytes per round, %s players, median" % players,
                                     proof[mid], proof[-1]))
        print("%-46s %d (max %d)" % ("saved record bytes, %s players, median" % players,
                                     saved[mid], saved[-1]))
        print("%-46s %.2f" % ("CPython check per round, %s players (ms)" % players,
                              cpython_check_ms(records)))
        mpy = micropython_ms(records)
        if mpy is None:
            print("MicroPython: skipped (node or node_modules missing)")
        elif mpy[0] == "error":
            print("MicroPython: failed:", mpy[1])
        else:
            print("%-46s %.2f" % ("MicroPython deck from seed (ms)", mpy[0]))
            print("%-46s %.1f (%d failed)" % ("MicroPython check per round, %s players (ms)"
                                              % players, mpy[1], mpy[2]))


if __name__ == "__main__":
    main()
