"""The expert bot's decisions measured: playouts, CPU ms per decision and the longest slice.

    python3 bench/bot_bench.py [--games G] [--players 2,4,8]

Plays G games (one round each is enough to collect decisions; default 3) of expert against
hard at each table size, keeps every decision the expert searched (its saved state and
view), then replays each one twice from the saved bot: whole (``Bot.decide``: its CPU time
in ms, by ``time.process_time``) and in the engine worker's slices (``Bot.plan``/``think``
with ``crisp_core.bot_expert.slice_for`` playouts: the longest slice, by
``time.perf_counter``). Prints, per table size: decisions, playouts per decision, ms per
decision (mean, p50, p99, max) and the longest slice. ``run`` returns the same as a dict;
bench/pyodide_bench.py ``--bots`` runs it in the engine worker's Pyodide, side by side.
Asserts nothing.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from crisp_core import bot_expert, bot_search  # noqa: E402
from crisp_core.bots import Bot  # noqa: E402
from crisp_core.tournament import play_game  # noqa: E402


def positions(players, games):
    """The expert's searched decisions in ``games`` rounds at ``players`` seats:
    ``[(saved bot dict, view, now)]``."""
    found = []

    def check(game, seat, view, bot, plan, now):
        if bot.level != "expert" or plan is None:
            return
        kinds = {e["do"]: e for e in view["allowed"]}
        choices = bot_search.candidates(bot, view, kinds)
        if len(choices) > 1 and bot.memo is not None and bot.memo["key"][0] == bot.events_seen:
            found.append((json.loads(json.dumps(dict(bot.to_dict(), memo=None, pending=None))),
                          view, now))

    for index in range(games):
        levels = ["expert" if seat % 2 == index % 2 else "hard" for seat in range(players)]
        play_game(levels, {"target": 100}, seed="bench%d" % index, check=check, max_rounds=2)
    return found


def _pct(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * share))] if values else 0.0


def measure(found):
    """Time each decision whole and in slices; a dict of figures (ms, playouts)."""
    whole, playouts, slices = [], [], []
    step = bot_search.Search.step
    counted = [0]

    def counting(search, count):
        played = step(search, count)
        counted[0] += played
        return played

    for saved, view, now in found:
        bot = Bot.from_dict(saved)
        counted[0] = 0
        bot_search.Search.step = counting
        start = time.process_time()
        try:
            bot.decide(view)
        finally:
            bot_search.Search.step = step
        whole.append((time.process_time() - start) * 1000)
        playouts.append(counted[0])
        bot = Bot.from_dict(saved)
        size = bot_expert.slice_for(view["players"])
        start = time.perf_counter()
        plan = bot.plan(view, [], now, slicing=size)
        slices.append((time.perf_counter() - start) * 1000)
        while plan is not None and plan["action"]["do"] == "think":
            start = time.perf_counter()
            plan = bot.think(now, size)
            slices.append((time.perf_counter() - start) * 1000)
    return {"decisions": len(found), "playouts_mean": round(sum(playouts) / max(1, len(playouts))),
            "ms_mean": round(sum(whole) / max(1, len(whole)), 1),
            "ms_p50": round(_pct(whole, 0.5), 1), "ms_p99": round(_pct(whole, 0.99), 1),
            "ms_max": round(max(whole or [0]), 1), "slice_ms_max": round(max(slices or [0]), 1),
            "slice_ms_p99": round(_pct(slices, 0.99), 1)}


def run(tables=(2, 4, 8), games=3):
    """Every figure per table size: ``{"2": {...}, "4": {...}, ...}``."""
    return {str(players): measure(positions(players, games)) for players in tables}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    games = int(argv[argv.index("--games") + 1]) if "--games" in argv else 3
    tables = (tuple(int(p) for p in argv[argv.index("--players") + 1].split(","))
              if "--players" in argv else (2, 4, 8))
    result = run(tables, games)
    keys = list(next(iter(result.values())).keys())
    print("%-16s" % "players" + "".join("%10s" % p for p in result))
    for key in keys:
        print("%-16s" % key + "".join("%10s" % result[p][key] for p in result))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
