"""Engine benchmark: rounds per second of random legal play, and the host's cost per action.

    python3 bench/engine_bench.py [--seconds S]

Prints numbers; asserts nothing. The same functions run inside Pyodide in headless Chromium
(``bench/pyodide_bench.py`` loads this file into the browser), so the two are comparable.
The clock used here is the benchmark's own (``time.perf_counter``); the engine never reads it.
"""

import json
import random
import sys
import time

try:  # in the browser this file sits next to crisp_core in Pyodide's file system
    from crisp_core import Game, events_for, view_for
except ImportError:  # pragma: no cover - run from a checkout
    sys.path.insert(0, __file__.rsplit("/bench/", 1)[0])
    from crisp_core import Game, events_for, view_for


def _legal_step(game, rng, now):
    """Pick one random legal action (calls now and then) and its seat, or None."""
    legal = []
    for seat in range(game.players):
        for action in game.legal_actions(seat, now):
            legal.append((seat, action))
    if not legal:
        return None
    calls = [item for item in legal if item[1]["do"] == "crisp"]
    if calls and rng.random() < 0.2:
        return rng.choice(calls)
    others = [item for item in legal if item[1]["do"] not in ("crisp", "next_round")]
    if others:
        return rng.choice(others)
    return rng.choice(legal)


def play_round(game, rng, now):
    """Play one round with random legal actions; returns (now, actions applied)."""
    actions = 0
    while game.phase not in ("round_over", "game_over"):
        now += rng.choice((0, 2000, 3000))
        game.advance(now)
        step = _legal_step(game, rng, now)
        if step is None:
            continue
        game.apply(step[0], step[1], now)
        actions += 1
    return now, actions


def rounds_per_second(players, seconds, seed=1):
    """Random legal rounds of ``players`` played in about ``seconds``; returns rounds/s."""
    rng = random.Random(seed)
    rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new({"players": players, "target": 150}, seed=rng.random())
        now = 0
        while game.phase != "game_over":
            now, _ = play_round(game, rng, now)
            rounds += 1
            if game.phase == "round_over":
                game.next_round(now)
    return rounds / (time.perf_counter() - start)


def host_cost_per_action(players, actions_wanted, seed=2):
    """Mean ms per action of what the host does: apply + every seat's view + JSON encoding."""
    rng = random.Random(seed)
    game = Game.new({"players": players, "target": 150, "draw_seconds": 30,
                     "draw_from_discard": True}, seed=seed)
    now = 0
    timed = 0
    elapsed = 0.0
    largest = 0
    while timed < actions_wanted:
        if game.phase == "game_over":
            game = Game.new({"players": players, "target": 150}, seed=rng.random())
            now = 0
        if game.phase == "round_over":
            game.next_round(now)
        now += rng.choice((0, 2000, 3000))
        game.advance(now)
        step = _legal_step(game, rng, now)
        if step is None:
            continue
        start = time.perf_counter()
        events = game.apply(step[0], step[1], now)
        for seat in range(players):
            text = json.dumps({"type": "view", "v": 1, "view": view_for(game, seat, now),
                               "events": events_for(events, seat)})
            largest = max(largest, len(text))
        elapsed += time.perf_counter() - start
        timed += 1
    return elapsed / timed * 1000.0, largest


def run(seconds=2.0):
    """Run every measurement; returns a dict of results (also printed by :func:`main`)."""
    results = {}
    for players in (2, 4, 8):
        results["rounds_per_s_%dp" % players] = round(rounds_per_second(players, seconds), 1)
    ms, largest = host_cost_per_action(8, 2000)
    results["host_ms_per_action_8p"] = round(ms, 3)
    results["largest_view_message_bytes_8p"] = largest
    return results


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    seconds = 2.0
    if "--seconds" in argv:
        seconds = float(argv[argv.index("--seconds") + 1])
    results = run(seconds)
    print("CPython %s" % sys.version.split()[0])
    for key, value in results.items():
        print("%-34s %s" % (key, value))


if __name__ == "__main__":
    main()
