"""A bot's memory: what one seat was shown and what the public events let it infer (R9).

:class:`Memory` is the belief tracker that every :class:`crisp_core.bots.Bot` is built on: it
takes in the seat's events (:meth:`Memory.observe`), lines itself up with the seat's view,
and keeps, per seat and position, the card it knows (or None), an upper bound on its value
read from the owner's play, and whether the owner knows it. It only ever reads what a person
in the seat would see: the events for its seat (its private ``reveal`` events included) and
its view. The policies that decide from it are in ``crisp_core.bots``. CPython only, like the
bots (tools/pyzip.py GUEST_CORE_EXCLUDED).
"""

from .actions import POSITIONS
from .cards import CANONICAL, is_special, value

#: Per own turn, the chance that an easy bot forgets each card it remembers.
EASY_FORGET = 0.15

#: The index of a hand's center card (POSITIONS), the one its owner does not peek (R2.4).
CENTER = 1


def _new_slot(pos_index):
    # [card known to this bot or None, upper bound on its value or None, owner knows it]
    # After the peek (R2.4) every owner knows its left and right cards.
    return [None, None, pos_index != CENTER]


class Memory:
    """What the bot of ``seat`` knows and believes; ``level`` (``crisp_core.bots.LEVELS``)
    says whether it forgets (``easy``: each remembered card slips away with probability
    :data:`EASY_FORGET` at the start of each of its turns, drawn from ``rng``, a
    ``random.Random``). Its state is plain attributes (``round``, ``slots``, ``discard``,
    ``deck_known``, ``held``, ``holding``, ``drew``, ``turn``, ``caller``, ``my_turns``,
    ``events_seen``), saved by ``Bot.to_dict``.
    """

    def __init__(self, seat, level, rng):
        self.seat = seat
        self.level = level
        self.rng = rng
        self.events_seen = 0
        self._reset_round(0)

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
        if taken is None and (seat != self.seat or self.level == "expert"):
            # (the expert also keeps what the table may read of its own cards, bot_search)
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
        if (seat != self.seat or self.level == "expert") and not is_special(card):
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
        self._slot(event["seat"], CENTER)[2] = True
        self._resolved()

    def _on_queen(self, event):
        self._discarded(event.get("card"))
        seat, target = event["seat"], event["target"]
        mine, theirs = POSITIONS.index(event["pos"]), POSITIONS.index(event["target_pos"])
        a, b = self._slot(seat, mine), self._slot(target, theirs)
        # R4.5: the cards move blind; each receiver sees a card landing left or right (the
        # reveal to this bot, if any, follows this event).
        self.slots[seat][mine] = [b[0], b[1], mine != CENTER]
        self.slots[target][theirs] = [a[0], a[1], theirs != CENTER]
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


def _min_bound(bound, new):
    return new if bound is None else min(bound, new)
