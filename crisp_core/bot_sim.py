"""A fast, compact round of Crisp for the expert bot's playouts, and the cheap policy that
plays every seat in them.

A :class:`World` is one guess at the whole table (every hidden card filled in, the deck in
order): what ``crisp_core.bot_search`` samples from a bot's memory. It plays the rest of a
round by the rules (R3-R7: swap or discard, Jack, Queen, King, the deck turned over, the
call and the last turns, the +5/-5) far faster than :class:`crisp_core.game.Game`: cards are
small ints (rank 1..13: Ace 1 ... Ten 10, Jack 11, Queen 12, King 13; a hand counts them at
most 10, R1.3), no events, no clock, no timers, no draws from the discard in the playouts.

The policy (:meth:`World.play_turn`) reads, for each seat, only what that seat would know in
that world: its own cards it has seen (``know``) and a public guess of every card (``pub``,
low for a card someone chose to keep). It never reads a hidden card, so the playouts do not
let the searching bot (or anyone) play as if it could see. CPython only, like the bots
(tools/pyzip.py GUEST_CORE_EXCLUDED).
"""

import math

#: The rank codes of the special cards (R4).
JACK, QUEEN, KING = 11, 12, 13
#: What the policy guesses for a card nobody showed it (about the average unseen card).
UNKNOWN = 6.5
#: The worth, in points, of seeing one more of one's own cards (as the hard bot's INFO_BONUS).
INFO = 0.5
#: The policy calls crisp when its chance of being strictly lowest after the others' last
#: turns (a normal guess, :meth:`World.call_chance`) is at least this: about where the hard
#: bot calls (its 0.75 by its own estimate; measured against ``Bot.win_chance``) ...
CALL_CHANCE = 0.68
#: ... less this per own turn past CALL_LATE (rounds do end, as the hard bot's LATE_SLOPE).
CALL_SLOPE = 0.05
CALL_LATE = 5
#: The spread (variance, points squared) of a card nobody has seen: the deck's (R1.3).
CARD_VAR = 9.9
#: What another seat's last turn is expected to take off its total (a swap of its worst).
LAST_GAIN = 1.5
#: A Queen is played when giving one's worst card for the best target gains this much.
QUEEN_GAIN = 1.5
#: A playout stops (scored as the hands are) after this many turns per seat.
HORIZON = 8


def _card_var(guess):
    """The spread of a card guessed at ``guess``: a low kept card's is small."""
    return guess * guess / 3.0 if guess < UNKNOWN else CARD_VAR


def points(rank):
    """A card's points in a hand (R1.3): rank codes 1..13 -> 1..10."""
    return rank if rank < 10 else 10


class World:
    """One determinized table. ``hands``: per seat three rank codes ``[left, center,
    right]``; ``know``: per seat three bools (the owner has seen that card); ``pub``: per
    seat three floats (what the table guesses of that card); ``deck``: rank codes, top
    LAST (``pop()`` draws); ``discard``: rank codes, top last; ``turn``: the seat playing;
    ``caller``: the seat that called crisp, or None; ``turns``: per seat, own turns played
    this round. All plain lists, copied by :meth:`copy`."""

    __slots__ = ("n", "hands", "know", "pub", "deck", "discard", "turn", "caller", "turns")

    def __init__(self, hands, know, pub, deck, discard, turn, caller, turns):
        self.n = len(hands)
        self.hands = hands
        self.know = know
        self.pub = pub
        self.deck = deck
        self.discard = discard
        self.turn = turn
        self.caller = caller
        self.turns = turns

    def copy(self):
        """An independent copy (the playouts change the world they play)."""
        return World([list(h) for h in self.hands], [list(k) for k in self.know],
                     [list(p) for p in self.pub], list(self.deck), list(self.discard),
                     self.turn, self.caller, list(self.turns))

    # ------------------------------------------------------------------------ guesses

    def guess(self, seat, index):
        """What ``seat`` believes its card at ``index`` is worth (its own view)."""
        if self.know[seat][index]:
            return points(self.hands[seat][index])
        return min(UNKNOWN, self.pub[seat][index])

    def own_total(self, seat):
        """``seat``'s guess at its own total."""
        return self.guess(seat, 0) + self.guess(seat, 1) + self.guess(seat, 2)

    def others_low(self, seat):
        """The lowest public guess of another seat's total."""
        best = None
        for other in range(self.n):
            if other != seat:
                pub = self.pub[other]
                guess = pub[0] + pub[1] + pub[2]
                if best is None or guess < best:
                    best = guess
        return best

    # ------------------------------------------------------------------------ moves

    def draw(self):
        """The deck's top card (R3.1); an empty deck is the discard turned over (R5.1)."""
        if not self.deck:
            self.deck = self.discard[::-1]   # oldest discard on top (top is last here)
            self.discard = []
        return self.deck.pop()

    def swap(self, seat, index, rank):
        """``rank`` goes into ``seat``'s hand at ``index``, seen; the old card is discarded
        (R3.2). The table guesses the kept card lower than the one it replaced."""
        old = self.hands[seat][index]
        known = self.know[seat][index]
        self.hands[seat][index] = rank
        self.know[seat][index] = True
        self.pub[seat][index] = points(old) / 2.0 if known else 3.0
        self.discard.append(old)

    def queen(self, seat, mine, target, theirs):
        """R4.5: a blind exchange; each receiver sees a card landing left or right."""
        hand, other = self.hands[seat], self.hands[target]
        hand[mine], other[theirs] = other[theirs], hand[mine]
        self.know[seat][mine] = mine != 1
        self.know[target][theirs] = theirs != 1
        pub_mine, pub_theirs = self.pub[seat][mine], self.pub[target][theirs]
        self.pub[seat][mine], self.pub[target][theirs] = pub_theirs, pub_mine

    # ------------------------------------------------------------------------ the policy

    def best_swap(self, seat, value):
        """Where the policy puts a card worth ``value`` (an index), or None to discard."""
        best, best_gain = None, 0.0
        for index in range(3):
            gain = self.guess(seat, index) - value
            if not self.know[seat][index]:
                gain += INFO
            if gain > best_gain:
                best, best_gain = index, gain
        return best

    def best_queen(self, seat):
        """The policy's Queen (R4.5): ``(mine, target, theirs)`` or None to discard it."""
        mine = max(range(3), key=lambda index: self.guess(seat, index))
        worst = self.guess(seat, mine)
        best, best_gain = None, QUEEN_GAIN
        for target in range(self.n):
            if target == seat:
                continue
            pub = self.pub[target]
            for theirs in range(3):
                gain = worst - pub[theirs]
                if gain > best_gain:
                    best, best_gain = (mine, target, theirs), gain
        return best

    def resolve(self, seat, rank):
        """The policy deals with a drawn card; returns the extra draws it earns (R4.6)."""
        if rank == KING:
            self.discard.append(rank)
            return 2
        if rank == JACK:
            self.know[seat][1] = True      # R4.4 (no harm when already seen)
        elif rank == QUEEN:
            move = self.best_queen(seat)
            if move is not None:
                self.queen(seat, move[0], move[1], move[2])
        else:
            index = self.best_swap(seat, rank)
            if index is not None:
                self.swap(seat, index, rank)
                return 0
        self.discard.append(rank)
        return 0

    def wants_call(self, seat):
        """The policy's call (R6.1), as the hard bot calls: when its chance of being
        strictly lowest after the others' last turns is at least CALL_CHANCE (less
        CALL_SLOPE a turn late in a round)."""
        late = max(0, self.turns[seat] - CALL_LATE)
        return self.call_chance(seat) >= CALL_CHANCE - CALL_SLOPE * late

    def call_chance(self, seat):
        """``seat``'s guess (from what it knows: its seen cards, the public guesses) of its
        chance to be strictly lowest after every other seat's last turn: each total taken
        as normal, a card's spread the deck's or, for a card kept low, its guess's. 0.0 as
        soon as another seat's expected total is under its own (the cheap common case)."""
        hand, know, pub = self.hands[seat], self.know[seat], self.pub[seat]
        mine = spread = 0.0
        for index in range(3):
            if know[index]:
                mine += points(hand[index])
            else:
                guess = pub[index] if pub[index] < UNKNOWN else UNKNOWN
                mine += guess
                spread += _card_var(guess)
        others = []
        for other in range(self.n):
            if other != seat:
                guess = self.pub[other]
                theirs = guess[0] + guess[1] + guess[2] - LAST_GAIN
                if theirs < mine:
                    return 0.0
                others.append((theirs, _card_var(guess[0]) + _card_var(guess[1])
                               + _card_var(guess[2])))
        chance = 1.0
        for theirs, their_spread in others:
            z = (theirs - mine - 0.5) / math.sqrt(spread + their_spread + 1.0)
            chance *= 0.5 * (1.0 + math.erf(z * 0.7071067811865476))
        return chance

    def play_turn(self, seat, draws=1):
        """The policy plays ``seat``'s turn (or what is left of it: ``draws`` owed)."""
        while draws > 0:
            draws -= 1
            draws += self.resolve(seat, self.draw())
        self.turns[seat] += 1

    def score(self):
        """Round points per seat (R7): totals, the caller's -5 when strictly lowest, else +5."""
        totals = [points(h[0]) + points(h[1]) + points(h[2]) for h in self.hands]
        caller = self.caller
        if caller is not None:
            low = min(totals[s] for s in range(self.n) if s != caller)
            totals[caller] += -5 if totals[caller] < low else 5
        return totals

    def finish(self, after, call=None):
        """Play on from the end of ``after``'s turn to the end of the round; ``call``: True
        or False forces ``after``'s call decision, None lets the policy decide. Returns the
        round points (:meth:`score`), or the hands' totals when the horizon is reached."""
        n = self.n
        if self.caller is None:
            calls = self.wants_call(after) if call is None else call
            if calls:
                self.caller = after
        seat = after
        for _ in range(HORIZON * n):
            seat = (seat + 1) % n
            if seat == self.caller:
                return self.score()
            self.play_turn(seat)
            if self.caller is None and self.wants_call(seat):
                self.caller = seat
        return self.score()


def outcome(totals, seat):
    """What a playout is worth to ``seat`` (lower is better): its round points less the
    average of the others' (R7: the round points, the call's +5/-5 included)."""
    others = (sum(totals) - totals[seat]) / (len(totals) - 1)
    return totals[seat] - others
