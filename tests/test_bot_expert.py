"""The expert bot (crisp_core.bot_expert, bot_search, bot_sim): a level after hard that
searches by playouts in worlds sampled from what its seat has not seen. Legal play, the
same decision whatever the cards it cannot see (R9), determinism (the same rng state,
memory, events and view give the same action; slices or not; saved mid-search or not), and
the fast round of the playouts against the rules (R4.5, R5.1, R7)."""

import json
import random

from crisp_core import CANONICAL, Game, events_for, view_for
from crisp_core import bot_expert, bot_search, bot_sim
from crisp_core.bots import LEVELS, Bot
from crisp_core.tournament import play_game
from tests.test_bots import Checker, _never_seen, _permuted

import pytest


@pytest.fixture
def quick(monkeypatch):
    """Smaller searches (the decisions' rules are the same, the tests faster)."""
    monkeypatch.setattr(bot_expert, "BUDGET", dict.fromkeys(range(2, 9), 48))
    monkeypatch.setattr(bot_expert, "CRISP_BUDGET", dict.fromkeys(range(2, 9), 32))


def test_expert_is_the_level_after_hard():
    assert LEVELS.index("expert") == LEVELS.index("hard") + 1
    with_bad = None
    try:
        Bot(0, "guru")
    except ValueError as exc:
        with_bad = exc
    assert with_bad is not None


def test_expert_plays_only_legal_actions_at_every_table_size_and_option(quick):
    """Whole rounds between expert and hard (2 to 8 seats, draw timer and drawing from the
    discard on and off): every plan is legal, on time (R10.1, R10.2), from memory that
    matches the table; the expert uses every kind of action."""
    checker = Checker()
    for index in range(7):
        players = 2 + index % 7
        levels = ["expert" if (seat + index) % 2 == 0 else "hard" for seat in range(players)]
        options = {"target": 50, "draw_seconds": (None, 30)[index % 2],
                   "draw_from_discard": index % 3 == 0}
        play_game(levels, options, seed="x%d" % index, check=checker, max_rounds=2)
    assert {"draw", "swap", "discard", "crisp"} <= checker.kinds


def test_expert_decides_the_same_when_cards_it_never_saw_change(quick):
    """R9: at many decision points of real games, every card the expert's seat has not been
    shown this round is shuffled among its places (other hands, the deck, its own unseen
    center): the seat's view and events are the same, and the bot decides the same."""
    rng = random.Random(11)
    log = []
    checked = {"points": 0, "moved": 0, "searched": 0}

    def on_events(events, now):
        for event in events:
            if event["type"] == "deal":
                del log[:]
            log.append(event)

    def check(game, seat, view, bot, plan, now):
        if bot.level != "expert" or game.phase not in ("play", "last_turns") or not plan:
            return
        hidden = set(_never_seen(log, seat))
        other, moved = _permuted(game, hidden, rng)
        assert view_for(other, seat, now) == view
        assert events_for(log, seat) == events_for(log, seat)
        first, second = Bot.from_dict(bot.to_dict()), Bot.from_dict(bot.to_dict())
        first.memo = second.memo = None
        first.pending = second.pending = None
        choices = bot_search.candidates(first, view, {e["do"]: e for e in view["allowed"]})
        assert first.decide(view) == second.decide(view_for(other, seat, now))
        checked["points"] += 1
        checked["moved"] += moved > 0
        checked["searched"] += len(choices) > 1

    for index in range(8):
        players = 2 + index % 4
        levels = ["expert" if seat % 2 == 0 else "hard" for seat in range(players)]
        play_game(levels, {"target": 50, "draw_from_discard": index % 2 == 1},
                  seed="r9-%d" % index, check=check, on_events=on_events, max_rounds=2)
    assert checked["points"] > 100 and checked["moved"] > 100 and checked["searched"] > 40


def _decision(seed="d"):
    """A game at the expert's first searched decision: (game, view, bot, now)."""
    found = {}

    def check(game, seat, view, bot, plan, now):
        if found or bot.level != "expert" or not plan:
            return
        kinds = {e["do"]: e for e in view["allowed"]}
        if len(bot_search.candidates(bot, view, kinds)) > 1 and "crisp" not in kinds:
            found.update(game=Game.from_dict(game.to_dict()), view=view, now=now,
                         bot=json.loads(json.dumps(bot.to_dict())))

    play_game(["expert", "hard", "hard"], {"target": 50}, seed=seed, check=check,
              max_rounds=4)
    return found


def test_the_same_rng_state_memory_and_view_give_the_same_action_in_slices_or_not():
    """Determinism: from one saved bot (rng state, memory), deciding whole, in slices of a
    few playouts (the engine worker), or saved and restored mid-search gives the same
    action; the search is sized in playouts only."""
    found = _decision()
    view, now = found["view"], found["now"]
    saved = dict(found["bot"], memo=None, pending=None)
    whole = Bot.from_dict(saved).decide(view)
    sliced = Bot.from_dict(saved)
    plan = sliced.plan(view, [], now, slicing=7)
    steps = 1
    while plan["action"]["do"] == "think":
        assert plan["at"] == now + steps - 1
        plan = sliced.think(now + steps, 7)
        steps += 1
    assert plan["action"] == whole and steps > 5
    resumed = Bot.from_dict(saved)
    assert resumed.plan(view, [], now, slicing=5)["action"] == {"do": "think"}
    resumed = Bot.from_dict(json.loads(json.dumps(resumed.to_dict())))
    assert resumed.pending is not None and resumed.search is None
    plan = resumed.think(now + 1, 10 ** 6)
    assert plan["action"] == whole
    assert plan["at"] >= now + 700 * resumed.pace - 1     # a think time from the first ask


def test_a_saved_bot_with_a_bad_pending_search_loads_without_it():
    found = _decision("bad")
    for bad in ("x", {"key": 1}, dict.fromkeys(("key", "seed", "view", "since", "budget"))):
        bot = Bot.from_dict(dict(found["bot"], pending=bad))
        assert bot.pending is None
    assert Bot.from_dict({k: v for k, v in found["bot"].items() if k != "pending"}).pending \
        is None


def test_a_sampled_world_keeps_what_the_bot_knows_and_deals_the_rest_from_the_unseen():
    """sample_world: the cards the bot knows stay in place; the hidden places and the deck
    hold exactly the cards it has not seen (by rank), in a deck of the view's size."""
    found = _decision("w")
    bot = Bot.from_dict(found["bot"])
    view = found["view"]
    bot._sync(view)
    pool = bot._pool(view)
    for seed in range(20):
        world = bot_search.sample_world(bot, view, random.Random(seed))
        dealt = list(world.deck)
        for seat in range(view["players"]):
            for index in range(3):
                slot = bot._slot(seat, index)
                if slot[0] is not None:
                    assert world.hands[seat][index] == bot_search.rank_code(slot[0])
                else:
                    dealt.append(world.hands[seat][index])
        assert len(world.deck) == view["deck_count"]
        counts = {}
        for code in dealt:
            counts[code] = counts.get(code, 0) + 1
        assert counts == {bot_search.rank_code(r + "c"): c for r, c in pool.items()}


def test_the_fast_round_scores_a_call_and_turns_the_discard_over_by_the_rules():
    """bot_sim: the caller's -5 when strictly lowest, +5 on a tie (R7.2, R7.3); an empty
    deck is the discard pile turned over, its oldest card on top (R5.1); a Queen's exchange
    shows each receiver a card landing left or right, never center (R4.5)."""
    def world(hands, caller=None):
        n = len(hands)
        return bot_sim.World(hands, [[True] * 3 for _ in range(n)],
                             [[6.5] * 3 for _ in range(n)], [], [], 0, caller, [0] * n)

    assert world([[1, 2, 3], [4, 5, 6]], caller=0).score() == [1, 15]
    assert world([[1, 2, 3], [1, 2, 3]], caller=0).score() == [11, 6]
    assert world([[11, 12, 13], [1, 1, 1]]).score() == [30, 3]
    w = world([[1, 2, 3], [4, 5, 6]])
    w.discard = [7, 8, 9]
    assert w.draw() == 7 and w.deck == [9, 8] and w.discard == []
    w.queen(0, 1, 1, 0)
    assert w.hands == [[1, 4, 3], [2, 5, 6]]
    assert w.know[0][1] is False and w.know[1][0] is True


def test_a_playout_only_reads_what_each_seat_knows():
    """bot_sim's policy never reads a hidden card: two worlds that differ only in a card no
    seat has seen are played the same, move for move (the same discards, but for that card
    itself once it is discarded)."""
    def world(center):
        return bot_sim.World([[1, center, 2], [9, 9, 9]], [[True, False, True]] * 2,
                             [[6.5] * 3, [6.5] * 3], [3, 8, 5, 13, 12, 4, 7, 6, 11, 2] * 3,
                             [], 0, None, [0, 0])
    low, high = world(1), world(10)
    low.finish(1)
    high.finish(1)
    assert low.know == high.know and len(low.discard) == len(high.discard)
    assert [a for a, b in zip(low.discard, high.discard) if a != b] in ([], [1])
    assert [a for a, b in zip(low.deck, high.deck) if a != b] == []


def test_the_search_budget_is_in_playouts_and_ends():
    found = _decision("b")
    bot = Bot.from_dict(found["bot"])
    view = found["view"]
    kinds = {e["do"]: e for e in view["allowed"]}
    choices = bot_search.candidates(bot, view, kinds)
    search = bot_search.Search(bot, view, choices, 3, 100)
    played = 0
    while not search.done:
        played += search.step(9)
    assert played == search.worlds * len(choices) <= 100
    assert search.best() in choices and len(search.means()) == len(choices)
    assert bot_expert.THINK == {"do": "think"}
    assert CANONICAL   # (the deck the worlds are dealt from)


def test_the_tournament_prints_one_table_per_table_size(capsys):
    from crisp_core.tournament import main
    assert main(["--games", "2", "--players", "2,3", "--target", "50",
                 "--levels", "easy,hard"]) == 0
    out = capsys.readouterr().out
    assert out.count("hard vs easy") == 2 and "3 players" in out and "2 players" in out
