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

Bots obey the online rules because they only ever choose from ``view["allowed"]``: no draw
before the next player may start (R10.1), a crisp call only inside ``view["crisp_window"]``
and, with :meth:`Bot.plan`, well before it closes; every action well before the draw timer
(R10.2) runs out.
"""

import base64
import random
import struct

from .actions import POSITIONS
from .cards import CANONICAL, value

LEVELS = ("random", "easy", "hard")

#: Per own turn, the chance that an easy bot forgets each card it remembers.
EASY_FORGET = 0.15
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

_CENTER = 1
_NAIVE_MEAN = 85.0 / 13  # the average card of a full deck, Ace 1 ... J/Q/K 10 (R1.3)


def think_ms(rng, kind="act", level="hard"):
    """A short, varied, human-like delay (ms) before a bot's action of ``kind``.

    ``kind``: ``"ready"`` (looking at the peeked cards: 1200-2600 ms), ``"crisp"`` (hard:
    450-1000 ms, easy and random: 900-1900 ms, always well inside the 3 s window of R10.1),
    or anything else (700-1600 ms). ``rng``: a ``random.Random``.
    """
    if kind == "ready":
        return rng.randint(1200, 2600)
    if kind == "crisp":
        if level == "hard":
            return rng.randint(450, 1000)
        return rng.randint(900, 1900)
    return rng.randint(700, 1600)


def _new_slot(pos_index):
    # [card known to this bot or None, upper bound on its value or None, owner knows it]
    # After the peek (R2.4) every owner knows its left and right cards.
    return [None, None, pos_index != _CENTER]


def _is_special(card):
    return card[0] in "JQK"


class Bot:
    """A computer player for one seat. See the module docstring for how to drive it.

    ``seat``: the seat it plays. ``level``: one of :data:`LEVELS`. ``rng``: an injected
    ``random.Random`` (a new one seeded with 0 when omitted); the bot draws all its
    randomness (forgetting, tie-breaking, random play, think times) from it, so a bot with
    the same ``rng`` state, memory, events and view always makes the same decision.
    ``pace``: a factor on the think times of :meth:`plan` (1 = a person's pace; test pages
    use less); it changes when the bot acts, never what it does.
    """

    def __init__(self, seat, level, rng=None, pace=1.0):
        if level not in LEVELS:
            raise ValueError("level must be one of %s" % ", ".join(LEVELS))
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise ValueError("seat must be a seat number")
        self.seat = seat
        self.level = level
        self.rng = rng if rng is not None else random.Random(0)
        self.pace = float(pace)
        self.events_seen = 0
        self.memo = None
        self._reset_round(0)

    # ------------------------------------------------------------------------- memory

    def _reset_round(self, round_number):
        self.round = round_number
        self.slots = []           # per seat, three [card, upper bound, owner knows]
        self.discard = []         # mirror of the discard pile, bottom first
        self.deck_known = None    # the deck, top first, once it is a turned-over discard pile
        self.held = None          # the card the player on turn holds, when this bot knows it
        self.holding = False
        self.drew = False
        self.turn = None
        self.caller = None
        self.my_turns = 0

    def _slot(self, seat, pos_index):
        while len(self.slots) <= seat:
            self.slots.append([_new_slot(i) for i in range(3)])
        return self.slots[seat][pos_index]

    def known_cards(self):
        """What this bot believes now: ``{(seat, pos): card}`` for every card it knows."""
        out = {}
        for seat, hand in enumerate(self.slots):
            for index, slot in enumerate(hand):
                if slot[0] is not None:
                    out[(seat, POSITIONS[index])] = slot[0]
        return out

    def observe(self, events):
        """Take in the seat's events (``events_for(events, seat)``), in order, once each.

        A private event addressed to another seat is ignored: a bot learns only what its
        seat was shown.
        """
        for event in events:
            self.events_seen += 1
            handler = getattr(self, "_on_" + str(event.get("type")), None)
            if handler is not None:
                handler(event)

    def _on_deal(self, event):
        self._reset_round(event["round"])

    def _on_reveal(self, event):
        if event.get("to") != self.seat:
            return
        for item in event["cards"]:
            if item["pos"] == "held":
                self.held = item["card"]
            else:
                slot = self._slot(item["seat"], POSITIONS.index(item["pos"]))
                slot[0] = item["card"]

    def _start_turn(self, seat):
        self.turn = seat
        self.holding = False
        self.drew = False
        self.held = None
        if seat == self.seat:
            self.my_turns += 1
            if self.level == "easy":
                self._forget()

    def _forget(self):
        """Easy bots forget: each remembered card slips away with probability EASY_FORGET."""
        for hand in self.slots:
            for slot in hand:
                if slot[0] is not None and self.rng.random() < EASY_FORGET:
                    slot[0] = None

    def _on_play(self, event):
        self._start_turn(event["turn"])

    def _on_turn(self, event):
        self._start_turn(event["seat"])

    def _on_draw(self, event):
        self.drew = True
        self.holding = True
        if event["from"] == "discard":
            card = event["card"]
            if self.discard and self.discard[-1] == card:
                self.discard.pop()
            elif card in self.discard:
                self.discard.remove(card)
            self.held = card
        else:
            self.held = self._pop_deck()

    def _pop_deck(self):
        if self.deck_known:
            return self.deck_known.pop(0)
        self.deck_known = None
        return None

    def _on_recycle(self, event):
        # R5.1: the discard pile turned over, unshuffled: its oldest card is the new top.
        exact = len(self.discard) == event["count"] and None not in self.discard
        self.deck_known = list(self.discard) if exact else None
        self.discard = []

    def _on_swap(self, event):
        seat, index = event["seat"], POSITIONS.index(event["pos"])
        old = event["card"]
        self.discard.append(old)
        slot = self._slot(seat, index)
        owner_knew = slot[2]
        taken = event.get("taken")
        card = taken if taken is not None else self.held
        if seat != self.seat and taken is None:
            # A player keeps a drawn card over one they knew only when it is lower; over an
            # unknown card, only when it is low. Their other known cards were not worse.
            bound = max(1, value(old) - 1) if owner_knew else 5
            for other, other_slot in enumerate(self.slots[seat]):
                if other != index and other_slot[2] and owner_knew:
                    other_slot[1] = _min_bound(other_slot[1], value(old))
        else:
            bound = None
        self.slots[seat][index] = [card, bound, True]
        self._resolved()

    def _on_discard(self, event):
        card = event["card"]
        self.discard.append(card)
        seat = event["seat"]
        if seat != self.seat and not _is_special(card):
            # They preferred to throw this away: the cards they know are about as low.
            for slot in self._hand(seat):
                if slot[2]:
                    slot[1] = _min_bound(slot[1], value(card) + 1)
        self._resolved()

    def _hand(self, seat):
        self._slot(seat, 0)
        return self.slots[seat]

    def _discarded(self, card):
        # A special card used goes to the discard pile (R4); the engine names it. Without
        # the name (None) the mirror has a hole until the next view puts it right.
        self.discard.append(card)

    def _resolved(self):
        self.holding = False
        self.held = None

    def _on_jack(self, event):
        self._discarded(event.get("card"))
        self._slot(event["seat"], _CENTER)[2] = True
        self._resolved()

    def _on_queen(self, event):
        self._discarded(event.get("card"))
        seat, target = event["seat"], event["target"]
        mine, theirs = POSITIONS.index(event["pos"]), POSITIONS.index(event["target_pos"])
        a, b = self._slot(seat, mine), self._slot(target, theirs)
        # R4.5: the cards move blind; each receiver sees a card landing left or right (the
        # reveal to this bot, if any, follows this event).
        self.slots[seat][mine] = [b[0], b[1], mine != _CENTER]
        self.slots[target][theirs] = [a[0], a[1], theirs != _CENTER]
        self._resolved()

    def _on_king(self, event):
        self._discarded(event.get("card"))
        self._resolved()

    def _on_timeout(self, event):
        card = event["card"]
        if card is not None:
            if not self.holding and not self.drew:
                self._pop_deck()  # R10.2: the top card was drawn for them and discarded
            self.discard.append(card)
        self._resolved()

    def _on_crisp(self, event):
        self.caller = event["seat"]
        if self.caller != self.seat:
            # Whoever calls believes their total is the lowest: the cards they know are low.
            for slot in self._hand(self.caller):
                if slot[2]:
                    slot[1] = _min_bound(slot[1], 6)

    def _on_round_over(self, event):
        for seat, hand in enumerate(event["hands"]):
            for index, card in enumerate(hand):
                self._slot(seat, index)[0] = card
        self.turn = None

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
        self.memo = {"key": key, "action": action, "at": None}
        return dict(action) if action is not None else None

    def plan(self, view, events, now):
        """Observe ``events``, decide on ``view`` and pace it like a person: the room's call.

        Returns None (nothing to do now: ask again with the next view) or
        ``{"at": ms, "action": {...}}``: apply ``action`` for this seat at ``at`` on the
        host's clock, unless a newer view has been planned meanwhile. A decision kept over
        several views keeps its time. Crisp is planned at least 800 ms before the window
        closes; any action at least 2 s before the draw or peek timer runs out.
        """
        self.observe(events)
        action = self.decide(view)
        if action is None:
            return None
        memo = self.memo
        if memo.get("at") is None:
            kind = action["do"] if action["do"] in ("ready", "crisp") else "act"
            at = now + int(think_ms(self.rng, kind, self.level) * self.pace)
            limit = None
            if action["do"] == "crisp" and view.get("crisp_window"):
                limit = now + view["crisp_window"]["left"] - CRISP_MARGIN_MS
            elif action["do"] == "ready" and view.get("peek_left") is not None:
                limit = now + view["peek_left"] - DRAW_MARGIN_MS
            elif view.get("draw_left") is not None:
                limit = now + view["draw_left"] - DRAW_MARGIN_MS
            if limit is not None:
                at = max(now, min(at, limit))
            memo["at"] = at
        return {"at": max(memo["at"], now), "action": dict(action)}

    def _sync(self, view):
        """Line memory up with the view: table size, round, discard pile, deck, caller."""
        if view["round"] != self.round:
            self._reset_round(view["round"])  # joined mid-game (or missed the deal)
        self._slot(view["players"] - 1, 0)
        if view["discard"] != self.discard:
            self.discard = list(view["discard"])
            self.deck_known = None
        if self.deck_known is not None and len(self.deck_known) != view["deck_count"]:
            self.deck_known = None
        self.caller = view["caller"]
        held = view.get("held")
        if held is not None and held.get("card") is not None:
            self.held = held["card"]

    def _choose(self, view, kinds):
        if "ready" in kinds:
            return {"do": "ready"}
        window = view.get("crisp_window")
        if "crisp" in kinds and (window is None or window["left"] < CRISP_MARGIN_MS):
            del kinds["crisp"]  # too late to make up one's mind (R10.1)
        if self.level == "random":
            return self._random_choice(kinds)
        if "crisp" in kinds and self._wants_crisp(view):
            return {"do": "crisp"}
        if "draw" in kinds:
            return {"do": "draw", "from": self._draw_source(view, kinds["draw"]["from"])}
        held = view.get("held")
        if held is None or held.get("card") is None or held.get("seat") != self.seat:
            return None
        card, source = held["card"], held["from"]
        if source == "discard" or "swap" in kinds and not _is_special(card):
            pos = self._swap_pos(view, card, forced=source == "discard")
            if pos is not None and "swap" in kinds and pos in kinds["swap"]["pos"]:
                return {"do": "swap", "pos": pos}
            if "discard" in kinds:
                return {"do": "discard"}
            return {"do": "swap", "pos": kinds["swap"]["pos"][0]}
        if "king" in kinds:
            return {"do": "king"}
        if "jack" in kinds and self._slot(self.seat, _CENTER)[0] is None:
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

    def _pool(self, view):
        """Counts by rank of the cards whose place this bot does not know (R9.1)."""
        placed = set(view["discard"])
        for hand in self.slots:
            for slot in hand:
                if slot[0] is not None:
                    placed.add(slot[0])
        if self.deck_known:
            placed.update(self.deck_known)
        if self.held is not None:
            placed.add(self.held)
        held = view.get("held")
        if held is not None and held.get("card") is not None:
            placed.add(held["card"])
        counts = {}
        for card in CANONICAL:
            if card not in placed:
                counts[card[0]] = counts.get(card[0], 0) + 1
        return counts

    @staticmethod
    def _value_dist(pool):
        """The value distribution (index 1..10) of a card drawn from ``pool``."""
        dist = [0.0] * 11
        total = 0
        for rank, count in pool.items():
            dist[value(rank + "c")] += count
            total += count
        if total == 0:
            dist = [0.0] + [1.0] * 9 + [4.0]
            total = 13
        return [weight / total for weight in dist]

    def _slot_dist(self, seat, index, base):
        """The value distribution of one card at the table, as this bot believes it."""
        slot = self._slot(seat, index)
        if slot[0] is not None:
            return _point(value(slot[0]))
        if self.level != "hard":
            return _point_mean(_NAIVE_MEAN)
        bound = slot[1]
        if bound is None or bound >= 10:
            return base
        dist = [p if v <= bound else 0.0 for v, p in enumerate(base)]
        total = sum(dist)
        if total <= 0:
            return _point(bound)
        return [p / total for p in dist]

    def _my_values(self, base):
        return [_mean(self._slot_dist(self.seat, index, base)) for index in range(3)]

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
        base = self._value_dist(self._pool(view))
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
        return _CENTER

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
        base = self._value_dist(pool)
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
                if info and self._slot(self.seat, _CENTER)[0] is None:
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
        base = self._value_dist(self._pool(view))
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
                    delta = values[mine] - _mean(dist)
                    worth = delta * (1.0 + weight)
                    if mine == _CENTER and self._slot(target, theirs)[0] is None:
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
        base = self._value_dist(self._pool(view))

        def expected(seat):
            return sum(_mean(self._slot_dist(seat, index, base)) for index in range(3))

        mine = expected(self.seat)
        return all(expected(seat) >= mine
                   for seat in range(view["players"]) if seat != self.seat)

    def win_chance(self, view):
        """Hard: the chance to be strictly lowest after every other player's last turn."""
        pool = self._pool(view)
        base = self._value_dist(pool)
        mine = _total([self._slot_dist(self.seat, index, base) for index in range(3)])
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
            worst = max(range(3), key=lambda index: _mean(dists[index]))
            dists[worst] = _min_dist(dists[worst], draw)
            others.append(_survival(_total(dists)))
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
        """The bot as a JSON-safe dict: level, seat, memory and random state."""
        return {"version": 1, "seat": self.seat, "level": self.level,
                "rng": _rng_state(self.rng), "pace": self.pace, "events_seen": self.events_seen,
                "memo": self.memo, "round": self.round,
                "slots": [[list(slot) for slot in hand] for hand in self.slots],
                "discard": list(self.discard),
                "deck_known": list(self.deck_known) if self.deck_known is not None else None,
                "held": self.held, "holding": self.holding, "drew": self.drew,
                "turn": self.turn, "caller": self.caller, "my_turns": self.my_turns}

    @classmethod
    def from_dict(cls, data):
        """Rebuild a bot from :meth:`to_dict` output. Raises ``ValueError`` if malformed."""
        if not isinstance(data, dict) or data.get("version") != 1:
            raise ValueError("not a saved Crisp bot")
        try:
            bot = cls(data["seat"], data["level"], _rng_from(data["rng"]),
                      data.get("pace", 1.0))
            bot.events_seen = data["events_seen"]
            bot.memo = data["memo"]
            bot.round = data["round"]
            bot.slots = [[list(slot) for slot in hand] for hand in data["slots"]]
            bot.discard = list(data["discard"])
            bot.deck_known = (list(data["deck_known"]) if data["deck_known"] is not None
                              else None)
            for name in ("held", "holding", "drew", "turn", "caller", "my_turns"):
                setattr(bot, name, data[name])
        except (KeyError, TypeError, ValueError, struct.error) as exc:
            raise ValueError("saved bot is malformed: %s" % exc)
        return bot


def _min_bound(bound, new):
    return new if bound is None else min(bound, new)


def _point(points):
    dist = [0.0] * 11
    dist[max(1, min(10, int(points)))] = 1.0
    return dist


def _point_mean(mean):
    """A two-point distribution with the given mean (easy bots' naive guess)."""
    low = int(mean)
    dist = [0.0] * 11
    dist[low] = 1.0 - (mean - low)
    dist[low + 1] = mean - low
    return dist


def _mean(dist):
    return sum(v * p for v, p in enumerate(dist))


def _total(dists):
    """The distribution of the sum of independent card values."""
    offset = 0
    spread = []
    for dist in dists:
        if 1.0 in dist:
            offset += dist.index(1.0)  # a known card only shifts the total
        else:
            spread.append(dist)
    out = [0.0] * offset + [1.0]
    for dist in spread:
        nxt = [0.0] * (len(out) + len(dist) - 1)
        for a, pa in enumerate(out):
            if pa:
                for b, pb in enumerate(dist):
                    if pb:
                        nxt[a + b] += pa * pb
        out = nxt
    return out


def _survival(dist):
    """``s[t]`` = P(total > t)."""
    out = [0.0] * len(dist)
    running = 0.0
    for t in range(len(dist) - 1, -1, -1):
        out[t] = running
        running += dist[t]
    return out


def _min_dist(card, draw):
    """The distribution of min(card, drawn card), a drawn special leaving the card (R4.1)."""
    keep = 1.0 - sum(draw)
    out = [0.0] * 11
    card_above = 1.0          # P(card >= v)
    draw_above = 1.0 - keep   # P(a normal card >= v is drawn)
    for v in range(1, 11):
        # P(min = v) = P(min >= v) - P(min >= v + 1)
        at_least = card_above * (draw_above + keep)
        card_above -= card[v]
        draw_above -= draw[v]
        out[v] = at_least - card_above * (draw_above + keep)
    return out


def _rng_state(rng):
    version, internal, gauss = rng.getstate()
    packed = base64.b64encode(struct.pack("<%dI" % len(internal), *internal)).decode("ascii")
    return {"v": version, "s": packed, "g": gauss}


def _rng_from(data):
    raw = base64.b64decode(data["s"])
    internal = struct.unpack("<%dI" % (len(raw) // 4), raw)
    rng = random.Random()
    rng.setstate((data["v"], tuple(internal), data["g"]))
    return rng
