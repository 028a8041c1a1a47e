"""The expert bot's search: determinized playouts over what its seat cannot see (R9).

A :class:`Search` takes one decision of one bot: the candidate actions (from the view's
``allowed``), and a seeded ``random.Random``. Each playout samples a world
(:func:`sample_world`: every card the bot has not seen dealt at random from the cards it
has not seen, where its memory allows, the deck shuffled from the rest), plays one
candidate in it and the rest of the round with the fast policy of ``crisp_core.bot_sim``
for every seat, and scores it for the bot's seat (round points less the others' average,
the call's +5/-5 included, R7). Every candidate is played in the same worlds (common random
numbers), and the one with the lowest mean wins; ties go to the first candidate.

It reads only the bot's memory (``crisp_core.bot_memory.Memory``: what the seat was shown
and inferred from public events) and the seat's view, never a Game. It is sized in
playouts, never in time, and may run in slices (:meth:`Search.step`): the result depends
only on the seed, the memory and the view, not on how the playouts were sliced.
CPython only, like the bots (tools/pyzip.py GUEST_CORE_EXCLUDED).
"""

import random

from . import bot_odds as odds
from .actions import POSITIONS
from .bot_sim import World, outcome, points
from .cards import RANKS

#: Playouts per decision by table size: about 150 ms of CPU on CPython here, at most.
BUDGET = {2: 960, 3: 800, 4: 640, 5: 480, 6: 420, 7: 360, 8: 320}
#: A crisp call needs fewer: two candidates, and its think time is shorter (R10.1).
CRISP_BUDGET = {2: 640, 3: 560, 4: 480, 5: 400, 6: 320, 7: 280, 8: 240}
#: The Queen's exchanges searched: the best few by a quick guess, and discarding it.
QUEEN_TOP = 5


def rank_code(card):
    """A card's rank code for bot_sim (Ace 1 ... Ten 10, Jack 11, Queen 12, King 13)."""
    return RANKS.index(card[0]) + 1


def sample_world(bot, view, rng):
    """One world the bot's seat cannot tell from the real table: a bot_sim ``World``.

    ``bot``: a Memory (its ``slots``, ``deck_known``, ``my_turns`` and ``_pool``); ``view``:
    its seat's view; ``rng``: a ``random.Random``. Cards it knows stay where they are; every
    other card at the table and in the deck is dealt from the cards it has not seen, a card
    its memory bounds (``slot[1]``) from those under the bound when there are some.
    """
    n = view["players"]
    me = bot.seat
    pool = []
    for rank, count in sorted(bot._pool(view).items()):
        pool += [rank_code(rank + "c")] * count
    rng.shuffle(pool)
    hands, know, pub, hidden = [], [], [], []
    for seat in range(n):
        hand, seen, guess = [], [], []
        for index in range(3):
            slot = bot._slot(seat, index)
            bound = slot[1]
            guess.append(6.5 if bound is None else min(6.5, (bound + 1) / 2.0))
            seen.append(slot[0] is not None if seat == me else bool(slot[2]))
            if slot[0] is not None:
                hand.append(rank_code(slot[0]))
            else:
                hand.append(0)
                hidden.append((bound if bound is not None else 10, seat, index))
        hands.append(hand)
        know.append(seen)
        pub.append(guess)
    for bound, seat, index in sorted(hidden):
        hands[seat][index] = _take(pool, bound)
    if bot.deck_known:
        deck = [rank_code(card) for card in reversed(bot.deck_known)]
    else:
        deck = pool[:view["deck_count"]]
        deck += [6] * (view["deck_count"] - len(deck))   # a memory hole: an average card
    discard = [rank_code(card) for card in view["discard"] if card]
    turns = [bot.my_turns] * n
    return World(hands, know, pub, deck, discard, view.get("turn"), view["caller"], turns)


def _take(pool, bound):
    """A card from the shuffled ``pool`` worth at most ``bound``, else its last one."""
    for at in range(len(pool) - 1, -1, -1):
        if points(pool[at]) <= bound:
            return pool.pop(at)
    return pool.pop() if pool else 6


def candidates(bot, view, kinds):
    """The actions worth searching at this decision (a list, in a fixed order), from
    ``kinds`` (``{do: allowed entry}``). One candidate (or none) means no search."""
    if "crisp" in kinds:
        return [{"do": "crisp"}, None]       # None: let the window pass (R10.1)
    if "draw" in kinds:
        return [{"do": "draw", "from": source} for source in kinds["draw"]["from"]]
    out = []
    if "swap" in kinds:
        out += [{"do": "swap", "pos": pos} for pos in kinds["swap"]["pos"]]
    if "jack" in kinds:
        out.append({"do": "jack"})
    if "queen" in kinds:
        out += _queens(bot, view, kinds["queen"])
    if "king" in kinds:
        out.append({"do": "king"})
    if "discard" in kinds:
        out.append({"do": "discard"})
    return out


def _queens(bot, view, entry):
    """The QUEEN_TOP exchanges that look best by the bot's mean guesses (R4.5)."""
    base = odds.value_dist(bot._pool(view))
    ranked = []
    for pos in entry["pos"]:
        mine = odds.mean(bot._slot_dist(bot.seat, POSITIONS.index(pos), base))
        for target in entry["targets"]:
            for target_pos in entry["target_pos"]:
                theirs = odds.mean(bot._slot_dist(target, POSITIONS.index(target_pos), base))
                ranked.append((theirs - mine, len(ranked),
                               {"do": "queen", "pos": pos, "target": target,
                                "target_pos": target_pos}))
    ranked.sort(key=lambda item: item[:2])
    return [item[2] for item in ranked[:QUEEN_TOP]]


def play(world, me, action, held, owed, drew):
    """Play ``action`` for seat ``me`` in ``world`` (changed), then the rest of the round;
    returns its round points per seat. ``held``: the rank code of the card it holds (or
    None); ``owed``: extra draws still owed after the present one (R4.6); ``drew``: whether
    this turn has drawn (a draw now is an extra draw)."""
    if action is None or action["do"] == "crisp":
        return world.finish(me, call=action is not None)
    kind = action["do"]
    extra = 0
    if kind == "draw":
        if action["from"] == "discard" and world.discard:
            card = world.discard.pop()
            index = world.best_swap(me, points(card))
            if index is None:
                index = max(range(3), key=lambda i: world.guess(me, i))
            world.swap(me, index, card)
        else:
            extra = world.resolve(me, world.draw())
        owed = owed - 1 if drew else 0
    elif kind == "swap":
        world.swap(me, POSITIONS.index(action["pos"]), held)
    elif kind == "queen":
        world.queen(me, POSITIONS.index(action["pos"]), action["target"],
                    POSITIONS.index(action["target_pos"]))
        world.discard.append(held)
    elif kind == "jack":
        world.know[me][1] = True
        world.discard.append(held)
    elif kind == "king":
        world.discard.append(held)
        extra = 2
    else:
        world.discard.append(held)
    world.play_turn(me, max(0, owed) + extra)
    return world.finish(me)


class Search:
    """One decision's search, run in slices: ``step(playouts)`` until ``done``, then
    ``best()``. ``bot``: the deciding bot (a Memory); ``view``: its seat's view; ``choices``:
    :func:`candidates` (two or more); ``seed``: an int; ``budget``: playouts in all (rounded
    down to whole worlds, at least one)."""

    def __init__(self, bot, view, choices, seed, budget):
        self.bot = bot
        self.view = view
        self.choices = choices
        self.rng = random.Random(seed)
        self.worlds = max(1, budget // len(choices))
        self.sums = [0.0] * len(choices)
        self.played = 0
        self.world = None
        held = view.get("held")
        card = held.get("card") if held else None
        self.held = rank_code(card) if card else None
        self.owed = view.get("pending_draws") or 0
        self.drew = bool(bot.drew)

    @property
    def done(self):
        """True once every candidate was played in every world."""
        return self.played >= self.worlds * len(self.choices)

    def step(self, playouts):
        """Play at most ``playouts`` more playouts; returns how many were played."""
        count = 0
        width = len(self.choices)
        while count < playouts and not self.done:
            at = self.played % width
            if at == 0:
                self.world = sample_world(self.bot, self.view, self.rng)
            world = self.world.copy()
            totals = play(world, self.bot.seat, self.choices[at], self.held, self.owed,
                          self.drew)
            self.sums[at] += outcome(totals, self.bot.seat)
            self.played += 1
            count += 1
        return count

    def best(self):
        """The candidate with the lowest mean outcome (the first of equals)."""
        low = min(range(len(self.choices)), key=lambda at: (self.sums[at], at))
        return self.choices[low]

    def means(self):
        """Each candidate's mean outcome so far (for the bench and the tests)."""
        worlds = max(1, self.played // len(self.choices))
        return [total / worlds for total in self.sums]
