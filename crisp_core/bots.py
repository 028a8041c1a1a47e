"""Bots: seats played by the computer, deciding only from what their seat may know (R9).

A bot sees exactly what a person in its seat would see: the per-seat view
(:func:`crisp_core.view_for`) and the events for its seat (:func:`crisp_core.events_for`),
including its private ``reveal`` events. It keeps its own memory of what it was shown and of
what the public events let it infer. It never reads the :class:`~crisp_core.Game`.

    bot = Bot(seat, "hard", random.Random(seed))
    plan = bot.plan(view, events, now)     # after every view built for the seat
    # plan is None (wait) or {"at": ms, "action": {...}}: apply the action at plan["at"]

or, driving the two halves yourself::

    bot.observe(events)          # the seat's events, in order, each exactly once
    action = bot.decide(view)    # an action from view["allowed"], or None to wait

Levels (:data:`LEVELS`):

- ``random``: uniformly random among the legal actions (an action kind first, then its
  choices); calls crisp rarely, so that rounds end. A baseline.
- ``easy``: remembers imperfectly (each remembered card is forgotten with some probability
  at the start of each of its turns), swaps low cards in over its worst known card, uses a
  Queen only to get rid of a known 9 or 10, calls crisp late and rarely.
- ``hard``: remembers everything it was shown and everything the public events let it infer
  (cards swapped in, discards, cards moved by anyone's Queen, cards taken from the discard,
  the order of the deck once the discard pile is turned over, R5.1), estimates unknown cards
  from the cards it has not seen, reads its opponents' swaps and discards, and calls crisp
  when it is likely to be strictly lowest after everyone's last turn, weighing the +5 (R7.3).
- ``expert``: the hard bot's memory, and a search for each decision that matters: playouts
  in worlds sampled from what it has not seen (``crisp_core.bot_expert``, ``bot_search``).

The memory (what the seat was shown and what it infers from the public events) is
:class:`crisp_core.bot_memory.Memory`, which :class:`Bot` is built on; the arithmetic of its
estimates is ``crisp_core.bot_odds``. This module holds the levels' policies and saving.

Bots obey the online rules because they only ever choose from ``view["allowed"]``: no draw
before the next player may start (R10.1), a crisp call only inside ``view["crisp_window"]``
and, with :meth:`Bot.plan`, well before it closes; every action well before the draw timer
(R10.2) runs out.
"""

import random

from . import bot_expert, bot_saved
from . import bot_odds as odds
from .actions import POSITIONS, is_int
# (EASY_FORGET, a level's knob like those below, is importable from here too)
from .bot_memory import CENTER, EASY_FORGET, Memory  # noqa: F401
from .cards import is_special, value

LEVELS = ("random", "easy", "hard", "expert")

#: Per crisp window, the chance that a random bot calls crisp (so that rounds end).
RANDOM_CRISP = 0.1
#: A hard bot calls crisp when its estimated chance of being strictly lowest is at least this.
HARD_CRISP = 0.75
#: An easy bot calls crisp (half the time) when its guessed total is at most this.
EASY_CRISP = 8
#: What an easy bot guesses for a card it does not remember.
EASY_UNKNOWN = 5
#: After this many of its own turns in a round, a bot grows keener to call crisp: people do
#: not let a round go on for ever.
LONG_ROUND = 5
#: ... and then lowers its crisp threshold by this much per turn.
LATE_SLOPE = 0.05
#: The value, in points, that a hard bot gives to knowing one more of its own cards.
INFO_BONUS = 0.5

#: A hard bot plays a Queen only when the exchange is worth at least this many points.
QUEEN_MIN = 1.0
#: A hard bot takes the top discard only when it beats a blind draw by this many points.
DISCARD_MARGIN = 0.25

#: Margins kept before a window or timer closes when a bot plans an action (ms).
CRISP_MARGIN_MS = 800
DRAW_MARGIN_MS = 2000


def think_ms(rng, kind="act", level="hard"):
    """A short, varied, human-like delay (ms) before a bot's action of ``kind``.

    ``kind``: ``"ready"`` (looking at the peeked cards: 1200-2600 ms), ``"crisp"`` (hard:
    450-1000 ms, easy and random: 900-1900 ms, always well inside the 3 s window of R10.1),
    or anything else (700-1600 ms). ``rng``: a ``random.Random``.
    """
    if kind == "ready":
        return rng.randint(1200, 2600)
    if kind == "crisp":
        if level in ("hard", "expert"):
            return rng.randint(450, 1000)
        return rng.randint(900, 1900)
    return rng.randint(700, 1600)


class Bot(Memory):
    """A computer player for one seat. See the module docstring for how to drive it.

    ``seat``: the seat it plays. ``level``: one of :data:`LEVELS`. ``rng``: an injected
    ``random.Random`` (a new one seeded with 0 when omitted); the bot draws all its
    randomness (forgetting, tie-breaking, random play, think times) from it, so a bot with
    the same ``rng`` state, memory, events and view always makes the same decision.
    ``pace``: a factor on the think times of :meth:`plan` (1 = a person's pace; test pages
    use less); it changes when the bot acts, never what it does. An expert's search may run
    in slices of ``slicing`` playouts (``plan``'s argument; ``think`` goes on with it).
    """

    def __init__(self, seat, level, rng=None, pace=1.0):
        if level not in LEVELS:
            raise ValueError("level must be one of %s" % ", ".join(LEVELS))
        if not is_int(seat) or seat < 0:
            raise ValueError("seat must be a seat number")
        Memory.__init__(self, seat, level, rng if rng is not None else random.Random(0))
        self.pace = float(pace)
        self.memo = None
        self.pending = None     # an expert's search under way (saved): crisp_core.bot_expert
        self.search = None      # ... and its playouts so far (not saved: replayed from its seed)
        self.slicing = None
        self.asked_at = None    # when the decision was asked (plan's now)
        self.since = None       # when the decision a search just ended was asked
        self.viewed_at = None   # when the view think() decides on was made

    # ------------------------------------------------------------------------- deciding

    def decide(self, view):
        """The action this bot takes now, chosen from ``view["allowed"]``, or None to wait.

        ``view``: this seat's view (``view_for(game, seat, now)``). Call :meth:`observe` with
        the events that came with it first. Asking again with no new events and the same
        ``allowed`` gives the same answer (no fresh dice roll).
        """
        allowed = view.get("allowed") or []
        if not allowed:
            return None
        self._sync(view)
        key = [self.events_seen, allowed]
        if self.memo is not None and self.memo["key"] == key:
            action = self.memo["action"]
            return dict(action) if action is not None else None
        action = self._choose(view, {entry["do"]: entry for entry in allowed})
        if action is bot_expert.THINK:
            return dict(action)
        self.memo = {"key": key, "action": action, "at": None}
        return dict(action) if action is not None else None

    def plan(self, view, events, now, slicing=None):
        """Observe ``events``, decide on ``view`` and pace it like a person: the room's call.

        Returns None (nothing to do now: ask again with the next view) or
        ``{"at": ms, "action": {...}}``: apply ``action`` for this seat at ``at`` on the
        host's clock, unless a newer view has been planned meanwhile. A decision kept over
        several views keeps its time. Crisp is planned at least 800 ms before the window
        closes; any action at least 2 s before the draw or peek timer runs out. ``slicing``:
        at most that many playouts of an expert's search now; while it is not done the plan
        is ``{"at": now, "action": {"do": "think"}}``: call :meth:`think` from ``at`` on.
        """
        self.observe(events)
        self.slicing, self.asked_at = slicing, now
        action = self.decide(view)
        viewed, self.viewed_at = self.viewed_at, None
        since, self.since = self.since, None
        if action is None or action["do"] == "think":
            return None if action is None else {"at": now, "action": dict(action)}
        memo = self.memo
        if memo.get("at") is None:
            start = now if since is None else min(now, since)   # the think time counts from then
            viewed = now if viewed is None else viewed          # the view's times count from then
            kind = action["do"] if action["do"] in ("ready", "crisp") else "act"
            at = start + int(think_ms(self.rng, kind, self.level) * self.pace)
            limit = None
            if action["do"] == "crisp" and view.get("crisp_window"):
                limit = viewed + view["crisp_window"]["left"] - CRISP_MARGIN_MS
            elif action["do"] == "ready" and view.get("peek_left") is not None:
                limit = viewed + view["peek_left"] - DRAW_MARGIN_MS
            elif view.get("draw_left") is not None:
                limit = viewed + view["draw_left"] - DRAW_MARGIN_MS
            if limit is not None:
                at = max(start, min(at, limit))
            memo["at"] = at
        return {"at": max(memo["at"], now), "action": dict(action)}

    def think(self, now, slicing):
        """Go on with the search under way (``slicing`` playouts more, at ``now``): a plan as
        :meth:`plan` gives, or None when there is no search under way (plan afresh)."""
        if self.pending is None:
            return None
        self.viewed_at = self.pending["since"]
        return self.plan(self.pending["view"], [], now, slicing)

    def _choose(self, view, kinds):
        if "ready" in kinds:
            return {"do": "ready"}
        window = view.get("crisp_window")
        if "crisp" in kinds and (window is None or window["left"] < CRISP_MARGIN_MS):
            del kinds["crisp"]  # too late to make up one's mind (R10.1)
        if self.level == "random":
            return self._random_choice(kinds)
        if self.level == "expert":
            return bot_expert.choose(self, view, kinds)
        if "crisp" in kinds and self._wants_crisp(view):
            return {"do": "crisp"}
        if "draw" in kinds:
            return {"do": "draw", "from": self._draw_source(view, kinds["draw"]["from"])}
        held = view.get("held")
        if held is None or held.get("card") is None or held.get("seat") != self.seat:
            return None
        card, source = held["card"], held["from"]
        if source == "discard" or "swap" in kinds and not is_special(card):
            pos = self._swap_pos(view, card, forced=source == "discard")
            if pos is not None and "swap" in kinds and pos in kinds["swap"]["pos"]:
                return {"do": "swap", "pos": pos}
            if "discard" in kinds:
                return {"do": "discard"}
            return {"do": "swap", "pos": kinds["swap"]["pos"][0]}
        if "king" in kinds:
            return {"do": "king"}
        if "jack" in kinds and self._slot(self.seat, CENTER)[0] is None:
            return {"do": "jack"}
        if "queen" in kinds:
            action = self._queen(view, kinds["queen"])
            if action is not None:
                return action
        if "discard" in kinds:
            return {"do": "discard"}
        return None

    # ------------------------------------------------------------------------- random

    def _random_choice(self, kinds):
        if "crisp" in kinds and self.rng.random() < RANDOM_CRISP:
            return {"do": "crisp"}
        options = [kind for kind in kinds if kind not in ("crisp", "next_round")]
        if not options:
            return None
        kind = self.rng.choice(options)
        entry = kinds[kind]
        if kind == "draw":
            return {"do": "draw", "from": self.rng.choice(entry["from"])}
        if kind == "swap":
            return {"do": "swap", "pos": self.rng.choice(entry["pos"])}
        if kind == "queen":
            return {"do": "queen", "pos": self.rng.choice(entry["pos"]),
                    "target": self.rng.choice(entry["targets"]),
                    "target_pos": self.rng.choice(entry["target_pos"])}
        return {"do": kind}

    # ------------------------------------------------------------------------- beliefs

    def _slot_dist(self, seat, index, base):
        """The value distribution of one card at the table, as this bot believes it."""
        slot = self._slot(seat, index)
        if slot[0] is not None:
            return odds.point(value(slot[0]))
        if self.level not in ("hard", "expert"):
            return odds.point_mean(odds.NAIVE_MEAN)
        bound = slot[1]
        if bound is None or bound >= 10:
            return base
        dist = [p if v <= bound else 0.0 for v, p in enumerate(base)]
        total = sum(dist)
        if total <= 0:
            return odds.point(bound)
        return [p / total for p in dist]

    def _my_values(self, base):
        return [odds.mean(self._slot_dist(self.seat, index, base)) for index in range(3)]

    # ------------------------------------------------------------------------- hard & easy

    def _swap_gain(self, values, card_value, index, info):
        gain = values[index] - card_value
        if info and self._slot(self.seat, index)[0] is None:
            gain += INFO_BONUS
        return gain

    def _swap_pos(self, view, card, forced):
        """Where to swap ``card`` in, or None to discard it (R3.2)."""
        v = value(card)
        if self.level == "easy":
            pos = self._easy_pos(v)
            if pos is None and forced:
                pos = self._easy_worst()
            return POSITIONS[pos] if pos is not None else None
        base = odds.value_dist(self._pool(view))
        values = self._my_values(base)
        info = view["phase"] == "play"
        best, best_gain = None, None
        for index in range(3):
            gain = self._swap_gain(values, v, index, info)
            if best_gain is None or gain > best_gain:
                best, best_gain = index, gain
        if forced or best_gain > 0:
            return POSITIONS[best]
        return None

    def _easy_known(self):
        hand = self._hand(self.seat)
        return [(value(slot[0]), index) for index, slot in enumerate(hand) if slot[0] is not None]

    def _easy_worst(self):
        known = self._easy_known()
        if known:
            return max(known)[1]
        return CENTER

    def _easy_pos(self, v):
        """Easy: a low card goes over the worst known card, or into an unknown place."""
        known = self._easy_known()
        unknown = [index for index, slot in enumerate(self._hand(self.seat)) if slot[0] is None]
        if known:
            worst_value, worst = max(known)
            if worst_value - v >= 2:
                return worst
        if unknown and v <= 4:
            return self.rng.choice(unknown)
        return None

    def _draw_source(self, view, sources):
        """Deck or discard (R10.3): take the top discard only when it beats a blind draw."""
        if "discard" not in sources or not view["discard"]:
            return sources[0] if sources else "deck"
        top = value(view["discard"][-1])
        if self.level == "easy":
            return "discard" if top <= 3 and self._easy_pos(top) is not None else "deck"
        pool = self._pool(view)
        base = odds.value_dist(pool)
        values = self._my_values(base)
        info = view["phase"] == "play"
        take = max(self._swap_gain(values, top, index, info) for index in range(3))
        gain = self._deck_gain(view, pool, values, info)
        return "discard" if take > gain + DISCARD_MARGIN else "deck"

    def _deck_gain(self, view, pool, values, info):
        """What a draw from the deck is worth on average (an exact card if the deck is known)."""
        def normal_gain(card_value):
            return max(0.0, max(self._swap_gain(values, card_value, i, info) for i in range(3)))

        if self.deck_known:
            ranks = {self.deck_known[0][0]: 1}
        else:
            ranks = pool
        total = sum(ranks.values()) or 1
        gain = 0.0
        normal = 0.0
        for rank, count in ranks.items():
            if rank in "JQK":
                continue
            normal += count * normal_gain(value(rank + "c"))
        normal_mean = normal / total
        for rank, count in ranks.items():
            if rank == "J":
                if info and self._slot(self.seat, CENTER)[0] is None:
                    gain += count * INFO_BONUS
            elif rank == "Q":
                gain += count * 1.0
            elif rank == "K":
                gain += count * 2 * normal_mean
        return normal_mean + gain / total

    def _queen(self, view, entry):
        """The best blind exchange (R4.5), or None to discard the Queen."""
        if self.level == "easy":
            known = self._easy_known()
            if not known or max(known)[0] < 9:
                return None
            pos = POSITIONS[max(known)[1]]
            if pos not in entry["pos"]:
                return None
            return {"do": "queen", "pos": pos, "target": self.rng.choice(entry["targets"]),
                    "target_pos": self.rng.choice(entry["target_pos"])}
        base = odds.value_dist(self._pool(view))
        values = self._my_values(base)
        n = view["players"]
        leader = min(view["scores"])
        best, best_value = None, QUEEN_MIN
        for pos in entry["pos"]:
            mine = POSITIONS.index(pos)
            for target in entry["targets"]:
                weight = 1.0 / (n - 1)
                if target == self.caller:
                    weight = 1.5
                elif view["scores"][target] == leader and view["scores"][self.seat] > leader:
                    weight *= 1.5
                for target_pos in entry["target_pos"]:
                    theirs = POSITIONS.index(target_pos)
                    dist = self._slot_dist(target, theirs, base)
                    delta = values[mine] - odds.mean(dist)
                    worth = delta * (1.0 + weight)
                    if mine == CENTER and self._slot(target, theirs)[0] is None:
                        worth -= 0.3  # a blind card into the center stays unknown (R4.5.1)
                    if worth > best_value:
                        best, best_value = (pos, target, target_pos), worth
        if best is None:
            return None
        return {"do": "queen", "pos": best[0], "target": best[1], "target_pos": best[2]}

    def _wants_crisp(self, view):
        """Call crisp now (R6, R7.2-R7.3)?"""
        late = max(0, self.my_turns - LONG_ROUND)
        if self.level == "easy":
            # A forgotten card is vaguely remembered as "not bad" (EASY_UNKNOWN points).
            known = self._easy_known()
            estimate = sum(v for v, _ in known) + EASY_UNKNOWN * (3 - len(known))
            return (self.my_turns >= 3 and estimate <= EASY_CRISP + late
                    and self.rng.random() < 0.5)
        threshold = HARD_CRISP - LATE_SLOPE * late
        if threshold >= 0.5 and not self._may_be_lowest(view):
            return False  # an opponent is expected lower: the chance is under one half
        return self.win_chance(view) >= threshold

    def _may_be_lowest(self, view):
        """Hard: whether this seat's expected total is the lowest at the table (cheap)."""
        base = odds.value_dist(self._pool(view))

        def expected(seat):
            return sum(odds.mean(self._slot_dist(seat, index, base)) for index in range(3))

        mine = expected(self.seat)
        return all(expected(seat) >= mine
                   for seat in range(view["players"]) if seat != self.seat)

    def win_chance(self, view):
        """Hard: the chance to be strictly lowest after every other player's last turn."""
        pool = self._pool(view)
        base = odds.value_dist(pool)
        mine = odds.total([self._slot_dist(self.seat, index, base) for index in range(3)])
        # The drawn card of a last turn: a normal card can replace their worst card.
        total = sum(pool.values()) or 1
        draw = [0.0] * 11
        for rank, count in pool.items():
            if rank not in "JQK":
                draw[value(rank + "c")] += count / total
        queens = pool.get("Q", 0) / total
        others = []
        for seat in range(view["players"]):
            if seat == self.seat:
                continue
            dists = [self._slot_dist(seat, index, base) for index in range(3)]
            worst = max(range(3), key=lambda index: odds.mean(dists[index]))
            dists[worst] = odds.min_dist(dists[worst], draw)
            others.append(odds.survival(odds.total(dists)))
        chance = 0.0
        for points, p in enumerate(mine):
            if p:
                beat = p
                for survive in others:
                    beat *= survive[points] if points < len(survive) else 0.0
                chance += beat
        return chance * (1 - 0.5 * queens) ** len(others)

    # ------------------------------------------------------------------------- saving

    def to_dict(self):
        """The bot as a JSON-safe dict (crisp_core.bot_saved): level, seat, memory, rng."""
        return bot_saved.to_dict(self)

    @classmethod
    def from_dict(cls, data):
        """Rebuild a bot from :meth:`to_dict` output. Raises ``ValueError`` if malformed."""
        return bot_saved.from_dict(cls, data)


# (the room's handover seeds a saved bot's rng afresh with these)
_rng_state, _rng_from = bot_saved._rng_state, bot_saved._rng_from
