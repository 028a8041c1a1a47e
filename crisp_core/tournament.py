"""Bot tournaments: levels against each other over many seeded games, on a simulated clock.

    python -m crisp_core.tournament [--games N] [--players P[,P...]] [--seed S] [--target T]
                                    [--draw-seconds D] [--from-discard] [--levels a,b,c]

For each table size P (``--players 2,4,8``: one table after another) and each pairing of
levels, plays N games at a table of P seats, the two levels alternating
round the table and the seats rotated each game, and prints each level's share of the games
won (a shared win counts as a fraction; 95% Wilson interval) and its average round points
per seat (mean over games of each game's average, +/- 1.96 standard errors).

:func:`play_game` is the driver, also used by the tests: it plays a whole game between bots
the way a room does (every bot gets its seat's events and view after each change, and plans
an action with a human-like delay), firing the engine's deadlines on a simulated clock.
"""

import argparse
import itertools
import math
import random
import sys

from .bots import LEVELS, Bot
from .game import Game, IllegalAction
from .views import events_for, view_for

#: The host starts the next round this long after a round is over (ms).
NEXT_ROUND_MS = 4000
#: A game longer than this many steps is a bug (a bot that never calls, a stuck table).
MAX_STEPS = 200000


def _may_act(game, seat, now):
    """Whether ``seat`` could have anything in ``allowed`` now (others get events only): the
    game waits for it (Game.awaiting), or it may still call crisp (R10.1)."""
    if seat in game.awaiting(now):
        return True
    return game.window is not None and game.window[0] == seat and now < game.window[1]


def play_game(levels, options=None, seed=0, bot_seed=0, check=None, stall=None,
              max_rounds=None, make_bot=Bot, deck=None, on_events=None):
    """Play one game between bots of ``levels`` (one per seat) and return its result.

    ``options``: lobby options without ``players`` (R10). ``seed``: the deal's seed;
    ``bot_seed``: seeds each bot's ``random.Random``. ``check(game, seat, view, bot, plan,
    now)``: called after every plan a bot makes (tests). ``stall(seat, plan, now)``: returns
    a number of ms during which that seat ignores its plan (a slow player, to fire draw
    timers), or 0. ``max_rounds``: stop after that many rounds. ``make_bot(seat, level,
    rng)``: builds each bot (default :class:`Bot`). ``deck``: a stacked deck for every round
    (instead of ``seed``). ``on_events(events, now)``: called with every batch of engine
    events, unfiltered (tests). Returns ``{"levels",
    "rounds": [round points per seat, ...], "scores", "winners" (None if stopped early),
    "turns"}``. Raises ``RuntimeError`` when a planned action is refused by the engine and
    ``check`` is given, or when the game gets stuck.
    """
    n = len(levels)
    opts = dict(options or {})
    opts["players"] = n
    game = Game.new(opts, seed=seed, deck=deck, now=0)
    bots = [make_bot(seat, level, random.Random("%s:%s:%d" % (bot_seed, seed, seat)))
            for seat, level in enumerate(levels)]
    now = 0
    batch = game.deal_events()
    plans = [None] * n
    asleep = [0] * n
    rounds = []
    turns = 0
    for _ in range(MAX_STEPS):
        if on_events is not None and batch:
            on_events(batch, now)
        for event in batch:
            if event["type"] == "round_over":
                rounds.append(list(event["round_points"]))
            elif event["type"] == "turn":
                turns += 1
        _show(game, bots, batch, plans, now, check)
        if game.phase == "game_over" or (max_rounds is not None and len(rounds) >= max_rounds
                                         and game.phase == "round_over"):
            break
        if game.phase == "round_over":
            now += NEXT_ROUND_MS
            batch = game.next_round(now)
            continue
        now, seat = _next_move(game, plans, asleep, now)
        if seat is None:
            batch = game.advance(now)
        else:
            batch = _act(game, seat, plans[seat], asleep, now, stall,
                         None if check is None else levels)
    else:
        raise RuntimeError("game too long (%r)" % game)
    return {"levels": list(levels), "rounds": rounds, "scores": list(game.scores),
            "winners": list(game.winners) if game.winners is not None else None,
            "turns": turns}


def _show(game, bots, batch, plans, now, check):
    """Give every bot its seat's events of ``batch``; a bot that may act also gets its view
    and plans (``plans[seat]``, None for the others), and ``check`` sees the plan."""
    for seat, bot in enumerate(bots):
        mine = events_for(batch, seat)
        if _may_act(game, seat, now):
            view = view_for(game, seat, now)
            plans[seat] = bot.plan(view, mine, now)
            if check is not None:
                check(game, seat, view, bot, plans[seat], now)
        else:
            if mine:
                bot.observe(mine)
            plans[seat] = None


def _next_move(game, plans, asleep, now):
    """When the next thing happens and who does it: ``(at, seat)``, with seat None for the
    engine's next deadline. Raises ``RuntimeError`` when nothing can happen."""
    times = []
    for seat, plan in enumerate(plans):
        if plan is None:
            continue
        if asleep[seat] > now:
            times.append((asleep[seat], 1, seat))
            continue
        times.append((max(now, plan["at"]), 1, seat))
    deadline = game.next_deadline()
    if deadline is not None:
        times.append((max(now, deadline), 0, None))
    if not times:
        raise RuntimeError("stuck: nobody may act and nothing is due (%r)" % game)
    at, _, seat = min(times)
    return at, seat


def _act(game, seat, plan, asleep, now, stall, levels):
    """``seat`` carries out its ``plan`` at ``now`` unless it sleeps (``asleep``, ``stall``)
    or the plan is not due; returns the events. ``levels`` (given when the caller checks the
    bots): an illegal plan raises ``RuntimeError`` instead of being dropped."""
    if asleep[seat] > now or plan["at"] > now:
        return []
    if stall is not None:
        sleep = stall(seat, plan, now)
        if sleep:
            asleep[seat] = now + sleep
            return []
    try:
        return game.apply(seat, plan["action"], now)
    except IllegalAction as exc:
        if levels is not None:
            raise RuntimeError("seat %d (%s) planned an illegal action %r at %d: %s"
                               % (seat, levels[seat], plan["action"], now, exc))
        return exc.events


def _mean_ci(samples):
    """Mean and half-width of its 95% confidence interval (normal approximation)."""
    count = len(samples)
    mean = sum(samples) / count
    if count < 2:
        return mean, float("nan")
    var = sum((x - mean) ** 2 for x in samples) / (count - 1)
    return mean, 1.96 * math.sqrt(var / count)


def _wilson(share, count):
    """95% Wilson score interval of a proportion (honest near 0 and 1, unlike mean +/-)."""
    z = 1.96
    centre = (share + z * z / (2 * count)) / (1 + z * z / count)
    half = (z * math.sqrt(share * (1 - share) / count + z * z / (4 * count * count))
            / (1 + z * z / count))
    return max(0.0, centre - half), min(1.0, centre + half)


def seats_for(a, b, players, game_index):
    """Levels ``a`` and ``b`` alternating round the table, rotated by ``game_index``."""
    return [a if (seat + game_index) % 2 == 0 else b for seat in range(players)]


def match(a, b, games, players=2, seed=0, options=None, make_bot=Bot):
    """Play ``games`` games of level ``a`` against ``b``; per level, per-game samples.

    Returns ``{level: {"wins": [...], "points": [...]}}``: for each game, the level's share
    of the win (1 if one of its seats won alone, fractions when the win is shared, 0 else)
    and the average round points of its seats.
    """
    out = {a: {"wins": [], "points": []}, b: {"wins": [], "points": []}}
    for index in range(games):
        levels = seats_for(a, b, players, index)
        result = play_game(levels, options=options, seed="%s:%d" % (seed, index),
                           bot_seed="%s:%s:%s" % (seed, a, b), make_bot=make_bot)
        winners = result["winners"]
        for level in (a, b):
            seats = [seat for seat in range(players) if levels[seat] == level]
            share = sum(1.0 / len(winners) for seat in winners if levels[seat] == level)
            points = [points[seat] for points in result["rounds"] for seat in seats]
            out[level]["wins"].append(share)
            out[level]["points"].append(sum(points) / len(points))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m crisp_core.tournament",
                                     description="Pit bot levels against each other.")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--players", default="2",
                        help="seats at the table, or several: 2,4,8 (2)")
    parser.add_argument("--seed", default="0", help="seed of deals and bots (0)")
    parser.add_argument("--target", type=int, default=100, choices=(50, 100, 150))
    parser.add_argument("--draw-seconds", type=int, default=None, choices=(30, 45, 60))
    parser.add_argument("--from-discard", action="store_true",
                        help="allow drawing from the discard (R10.3)")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="comma-separated levels to pair (%s)" % ",".join(LEVELS))
    args = parser.parse_args(argv)
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    if any(level not in LEVELS for level in levels) or len(levels) < 2:
        parser.error("levels: two or more of %s" % ", ".join(LEVELS))
    try:
        tables = [int(players) for players in args.players.split(",")]
    except ValueError:
        tables = []
    if not tables or not all(2 <= players <= 8 for players in tables) or args.games < 1:
        parser.error("players must be 2 to 8 and games at least 1")
    options = {"target": args.target, "draw_seconds": args.draw_seconds,
               "draw_from_discard": args.from_discard}
    for players in tables:
        _table(args, levels, players, options)
    return 0


def _table(args, levels, players, options):
    """Print the table of every pairing of ``levels`` at ``players`` seats."""
    print("Crisp bots: %d games per pairing, %d players, target %d, draw timer %s, "
          "draw from discard %s, seed %s" % (args.games, players, args.target,
                                           args.draw_seconds or "off",
                                           "on" if args.from_discard else "off", args.seed))
    print("fair win share with %d players: 0.50 per level (alternating seats)" % players)
    print()
    header = "%-16s %-7s %-24s %-26s" % ("pairing", "level", "win share [95% CI]",
                                          "avg round points (95% CI)")
    print(header)
    print("-" * len(header))
    for a, b in itertools.combinations(levels, 2):
        # The stronger level is named first in each pairing.
        a, b = sorted((a, b), key=LEVELS.index, reverse=True)
        result = match(a, b, args.games, players, args.seed, options)
        for i, level in enumerate((a, b)):
            wins = sum(result[level]["wins"]) / args.games
            low, high = _wilson(wins, args.games)
            points, points_ci = _mean_ci(result[level]["points"])
            print("%-16s %-7s %.3f [%.3f, %.3f]     %6.2f +/- %.2f"
                  % ("%s vs %s" % (a, b) if i == 0 else "", level, wins, low, high,
                     points, points_ci))
        sys.stdout.flush()
    print()


if __name__ == "__main__":
    sys.exit(main())
