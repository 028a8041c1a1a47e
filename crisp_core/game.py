"""The state machine of a game of Crisp: rounds, turns, special cards, timers, scoring.

The engine never reads a clock and never uses global random state. Every entry point takes
``now``, an integer number of milliseconds on the host's monotonic clock; deadlines are
absolute times on that clock. Randomness is a ``seed`` passed in (or a stacked deck).

Public API: :class:`Game` (``new``, ``apply``, ``advance``, ``next_deadline``,
``legal_actions``, ``next_round``, ``to_dict``, ``from_dict``) and :class:`IllegalAction`.
Actions and events are plain JSON-safe dicts, described in ``docs/protocol.md``. What the
rules allow (options, and whether an action may be taken now) is ``crisp_core.legal``; what
each allowed action does, ``crisp_core.moves`` (Game is built on its Moves); saving and the
check of a saved state, ``crisp_core.saved``.
"""

from . import cards, legal, saved, shuffle
from .actions import CALL_WINDOW_MS, PLAY_PHASES, is_int
# the names of crisp_core.legal that callers take from here too
from .legal import (BAD_ACTION, DRAW_SECONDS, ILLEGAL, NOT_YOUR_TURN, TARGETS,  # noqa: F401
                    IllegalAction, normalize_options)
from .moves import Moves, reveal

#: Time after a turn ends before the next player may start, when a call may follow (R10.1), ms.
START_DELAY_MS = 2000


class Game(Moves):
    """The whole state of one game of Crisp, host side (perfect information).

    Build one with :meth:`Game.new` or :meth:`Game.from_dict`. Seats are ``0 .. players-1``
    (R1.1). Hands are lists ``[left, center, right]`` of card codes; ``deck`` is top first;
    ``discard`` is bottom first (its last card is the top).
    """

    # ----------------------------------------------------------------------------- set-up

    def __init__(self):
        self.options = None
        self.seed = None
        self.stack = None
        self.phase = "peek"
        self.round = 0
        self.dealer = 0
        self.turn = None
        self.caller = None
        self.hands = []
        self.held = None
        self.held_from = None
        self.pending_draws = 0
        self.drew = False
        self.deck = []
        self.discard = []
        self.ready = []
        self.peek_deadline = None
        self.start_at = None
        self.draw_deadline = None
        self.window = None
        self.round_points = None
        self.scores = []
        self.winners = None
        self.clock = 0
        self.journal = []

    @classmethod
    def new(cls, options, seed=None, deck=None, dealer=0, scores=None, now=0, order=None,
            round_number=1):
        """Start a game and deal its first round at ``now`` (ms); returns the Game.

        ``options``: see :func:`normalize_options`. ``seed``: any int or string; each round's
        deck is shuffled from it (R2.2). ``deck``: a list of cards stacked on top of every
        round's deck instead (rest canonical, docs/scenarios.md); with neither, every deck is in
        canonical order (each round's deck comes from ``crisp_core.shuffle.seeded_deck``).
        ``order``: the whole deck of this first round only (52 distinct cards, top first),
        e.g. from a committed shuffle (``crisp_core.shuffle.deck_from_seed``); it wins over
        ``seed`` and ``deck`` for this round. ``dealer``: the first dealer's seat (R2.1: the
        host, 0). ``scores``: running totals carried in (default all 0). ``round_number``: the
        number of the round dealt (1; a replay of a later round, ``crisp_core.verify``, deals
        that one). Raises ``ValueError`` for bad arguments.
        """
        game = cls()
        game.options = normalize_options(options)
        n = game.options["players"]
        if not is_int(dealer) or not 0 <= dealer < n:
            raise ValueError("dealer must be a seat")
        if scores is None:
            scores = [0] * n
        if (not isinstance(scores, list) or len(scores) != n
                or not all(is_int(score) for score in scores)):
            raise ValueError("scores must be one integer per seat")
        if deck is not None:
            cards.stacked_deck(deck)  # validates
            game.stack = list(deck)
        game.seed = seed
        game.dealer = dealer
        game.scores = list(scores)
        game.clock = now
        game._events = []
        if order is not None and len(cards.stacked_deck(order)) != len(order):
            raise ValueError("order must be the whole deck")
        if not is_int(round_number) or round_number < 1:
            raise ValueError("round_number must be 1 or more")
        game.round = round_number - 1
        game._deal(now, order)
        game._events = []
        return game

    @property
    def players(self):
        """Number of seats at the table."""
        return self.options["players"]

    def _draw_ms(self):
        seconds = self.options["draw_seconds"]
        return None if seconds is None else seconds * 1000

    def _round_deck(self, deck):
        if deck is not None:
            return cards.stacked_deck(deck)
        if self.stack is not None:
            return cards.stacked_deck(self.stack)
        if self.seed is None:
            return list(cards.CANONICAL)
        return shuffle.seeded_deck(self.seed, self.round)

    def _deal(self, now, deck):
        """Deal a round (R2): three passes from the dealer's left, left/center/right."""
        n = self.players
        self.round += 1
        self.journal = []
        self.deck = self._round_deck(deck)
        self.hands = [[None, None, None] for _ in range(n)]
        for pass_index in range(3):
            for k in range(n):
                seat = (self.dealer + 1 + k) % n
                self.hands[seat][pass_index] = self.deck.pop(0)
        self.discard = []
        self.phase = "peek"
        self._no_turn()
        self.caller = None
        self.ready = [False] * n
        draw_ms = self._draw_ms()
        self.peek_deadline = None if draw_ms is None else now + draw_ms
        self.start_at = now        # every seat may confirm its peek from the deal (awaiting)
        self.round_points = None
        self.winners = None
        for event in self.deal_events():
            self._emit(event)

    def _no_turn(self):
        """No turn is being played (a deal, the end of a round): no seat on turn, no card in
        hand, no draw timer, no call window."""
        self.turn = None
        self.held = None
        self.held_from = None
        self.pending_draws = 0
        self.drew = False
        self.start_at = None
        self.draw_deadline = None
        self.window = None

    def deal_events(self):
        """The events of this round's deal (R2.2, R2.4): ``deal``, then each seat's private
        peek ``reveal`` of its left and right cards, as emitted when the round was dealt.

        :meth:`new` deals round 1 without returning events; the host and the scenario runner
        take them from here.
        """
        events = [{"type": "deal", "round": self.round, "dealer": self.dealer}]
        for seat, hand in enumerate(self.hands):
            events.append(reveal(seat, "peek", [(seat, "left", hand[0]), (seat, "right", hand[2])]))
        return events

    # ------------------------------------------------------------------------- time

    def _emit(self, event):
        self._events.append(event)

    def _due(self):
        """The earliest pending timed effect as (time, kind), or None."""
        due = []
        if self.phase == "peek" and self.peek_deadline is not None:
            due.append((self.peek_deadline, "peek"))
        if self.phase in PLAY_PHASES and self.draw_deadline is not None:
            due.append((self.draw_deadline, "draw"))
        if self.window is not None:
            due.append((self.window[1], "window"))
        return min(due) if due else None

    def advance(self, now):
        """Fire every deadline at or before ``now`` (ms), each at its own time.

        Returns the events, in order. Time never goes back: an earlier ``now`` than one
        already seen is taken as the latest one. Implements R2.4 (peek timer), R10.1 (end of
        the call window) and R10.2 (draw timer).
        """
        self._events = []
        now = self._advance(now)
        events, self._events = self._events, []
        self._note(events, [now, "advance"])
        return events

    def _note(self, events, entry):
        """Keep one input of this round in ``journal`` when it did something (its events):
        ``[at, "act", seat, action]``, ``[at, "advance"]`` or ``[at, "forfeit", seat]``.
        Replayed on a game dealt from the same deck, they give the same events
        (``crisp_core.verify``, docs/protocol.md "Verifiable shuffle")."""
        if events:
            self.journal.append(entry)

    def _advance(self, now):
        now = max(now, self.clock)
        while True:
            due = self._due()
            if due is None or due[0] > now:
                break
            at, kind = due
            if kind == "peek":
                self._peek_timeout(at)
            elif kind == "draw":
                self._draw_timeout(at)
            else:
                self.window = None
        self.clock = now
        return now

    def next_deadline(self):
        """The next time (ms) at which the state or what a seat may do changes, or None.

        That is the peek timer, the draw timer, the end of a crisp window, or the moment the
        next player may start (R10.1); the host calls :meth:`advance` then and sends views.
        """
        times = []
        due = self._due()
        if due is not None:
            times.append(due[0])
        if (self.phase in PLAY_PHASES and not self.drew and self.start_at is not None
                and self.start_at > self.clock):
            times.append(self.start_at)
        return min(times) if times else None

    def _peek_timeout(self, at):
        """R2.4: the peek timer confirms every seat not yet ready."""
        for seat in range(self.players):
            if not self.ready[seat]:
                self.ready[seat] = True
                self._emit({"type": "ready", "seat": seat, "auto": True})
        self._start_play(at)

    def _draw_timeout(self, at, away=False):
        """R10.2: the player runs out of time and loses the rest of the turn.

        ``away`` marks a turn ended for a player who is gone (:meth:`forfeit`), not by the
        draw timer: the event says so, the effects are the same.
        """
        seat = self.turn
        card = None
        forced = False
        if self.held is not None:
            card = self.held
            self.discard.append(card)
            self.held = None
            self.held_from = None
        elif not self.drew:
            self._recycle_if_empty()
            card = self.deck.pop(0)
            self.discard.append(card)
            forced = True
        lost = self.pending_draws
        self.pending_draws = 0
        event = {"type": "timeout", "seat": seat, "card": card, "forced": forced, "lost": lost}
        if away:
            event["away"] = True
        self._emit(event)
        self._end_turn(at, callable_=False)

    # ------------------------------------------------------------------------- flow

    def _start_play(self, at):
        self.phase = "play"
        self.peek_deadline = None
        self.turn = (self.dealer + 1) % self.players  # R2.5
        self._emit({"type": "play", "turn": self.turn})
        self._begin_turn(at)

    def _begin_turn(self, start_at):
        self.drew = False
        self.pending_draws = 0
        self.held = None
        self.held_from = None
        self.start_at = start_at
        draw_ms = self._draw_ms()
        self.draw_deadline = None if draw_ms is None else start_at + draw_ms

    def _end_turn(self, at, callable_):
        """A turn is over (R3.3): pass it on, open the call window (R10.1) or end the round."""
        ended = self.turn
        n = self.players
        self.window = None
        nxt = (ended + 1) % n
        if self.phase == "last_turns":
            if nxt == self.caller:  # R6.2: everyone else has played a last turn
                self._finish_round()
                return
            start = at
        elif callable_ and self.caller is None:
            self.window = [ended, at + CALL_WINDOW_MS]
            start = at + START_DELAY_MS
        else:
            start = at
        self.turn = nxt
        self._emit({"type": "turn", "seat": nxt})
        self._begin_turn(start)

    def _resolve_draw(self, now):
        """The held card is resolved: next extra draw (R4.6) or end of the turn (R3.3)."""
        self.held = None
        self.held_from = None
        if self.pending_draws > 0:
            draw_ms = self._draw_ms()
            self.draw_deadline = None if draw_ms is None else now + draw_ms
        else:
            self._end_turn(now, callable_=True)

    def _recycle_if_empty(self):
        """R5.1: turn the discard pile over into the deck, unshuffled, oldest card on top."""
        if not self.deck:
            self.deck = self.discard
            self.discard = []
            self._emit({"type": "recycle", "count": len(self.deck)})

    def _finish_round(self):
        """R6.2, R7: show all hands, score the round, maybe end the game (R8)."""
        n = self.players
        points = [cards.hand_points(hand) for hand in self.hands]
        caller = self.caller
        lowest_other = min(points[seat] for seat in range(n) if seat != caller)
        points[caller] += -5 if points[caller] < lowest_other else 5
        self.round_points = points
        self.scores = [self.scores[seat] + points[seat] for seat in range(n)]
        self.phase = "round_over"
        self._no_turn()
        self._emit({"type": "round_over", "hands": [list(hand) for hand in self.hands],
                    "round_points": list(points), "scores": list(self.scores)})
        if max(self.scores) >= self.options["target"]:
            best = min(self.scores)
            self.phase = "game_over"
            self.winners = [seat for seat in range(n) if self.scores[seat] == best]
            self._emit({"type": "game_over", "winners": list(self.winners)})

    def next_round(self, now, deck=None):
        """Deal the next round at ``now`` (ms) after ``round_over`` (R2.1: dealer moves left).

        ``deck`` optionally stacks this round's deck (a list of cards, rest canonical); without
        it the game's own stack or seeded shuffle is used. Returns the events (deadlines fired
        first, then the deal and the peek reveals). Raises :class:`IllegalAction` outside
        ``round_over`` and ``ValueError`` for a bad ``deck``.
        """
        self._events = []
        self._advance(now)
        events = self._events
        if self.phase != "round_over":
            self._events = []
            self._note(events, [max(now, self.clock), "advance"])
            raise IllegalAction("the round is not over", events)
        if deck is not None:
            cards.stacked_deck(deck)
        self.dealer = (self.dealer + 1) % self.players
        self._deal(max(now, self.clock), deck)
        events, self._events = self._events, []
        return events

    # ------------------------------------------------------------------------- actions

    def apply(self, seat, action, now):
        """Apply ``action`` (a dict, docs/protocol.md) by ``seat`` at ``now`` (ms).

        Deadlines at or before ``now`` fire first. Returns the list of events (public ones and
        private ``reveal`` events with ``to``). Raises :class:`IllegalAction` when the action
        is malformed or not allowed; the state is then as after the deadlines alone.
        """
        self._events = []
        now = self._advance(now)
        fired = self._events
        try:
            act = self._check(seat, action, now)
        except IllegalAction as exc:
            self._events = []
            self._note(fired, [now, "advance"])
            raise IllegalAction(exc.reason, fired, exc.code)
        kind = act["do"]
        if kind == "next_round":
            self._events = []
            self._note(fired, [now, "advance"])
            return fired + self.next_round(now)
        getattr(self, "_do_" + kind)(seat, act, now)
        events, self._events = self._events, []
        self.journal.append([now, "act", seat, dict(act)])
        return events

    def _check(self, seat, action, now):
        """Validate ``action`` for ``seat`` at ``now``: its shape, then whether it is
        allowed (crisp_core.legal); return it normalized or raise :class:`IllegalAction`."""
        return legal.check(self, seat, action, now)

    def forfeit(self, seat, now):
        """Act for a player who is gone (the room decides when): returns the events.

        In the peek phase the seat's peek is confirmed for it (R2.4, as the peek timer does);
        on its turn, once it may start, the current draw ends as a timed-out draw with every
        effect of R10.2 (forced draw, held card discarded, extra draws lost, no call). Raises
        :class:`IllegalAction` when there is nothing to do for ``seat`` at ``now`` (ms).
        """
        self._events = []
        now = self._advance(now)
        fired = self._events
        since = self.awaiting(now).get(seat) if is_int(seat) else None
        if since is None or since > now:
            self._events = []
            self._note(fired, [now, "advance"])
            raise IllegalAction("nothing to do for that seat now", fired)
        if self.phase == "peek":
            self.ready[seat] = True
            self._emit({"type": "ready", "seat": seat, "auto": True})
            if all(self.ready):
                self._start_play(now)
        else:
            self._draw_timeout(now, away=True)
        events, self._events = self._events, []
        self._note(events, [now, "forfeit", seat])
        return events

    def awaiting(self, now):
        """The seats the game waits for, each with the time (ms) from which it may act.

        Returns ``{seat: since}``. In the peek phase: every seat not yet ready, since the
        deal (R2.4). During a turn: the turn's seat, since it may start (R10.1); in the
        2 s before it may, ``since`` is later than ``now``. Nobody at ``round_over`` and
        ``game_over`` (the room decides who starts the next round). A seat that may still
        call crisp (R10.1) is not waited for. Reads the state as it is: call
        :meth:`advance` first. ``now`` stands in for the deal time of a game saved before
        it was kept. The room (when to act for an away player), :meth:`forfeit` and the
        tournament's driver all ask this.
        """
        if self.phase == "peek":
            since = self.start_at if self.start_at is not None else now
            return {seat: since for seat in range(self.players) if not self.ready[seat]}
        if self.phase in PLAY_PHASES:
            return {self.turn: self.start_at}
        return {}

    def legal_actions(self, seat, now):
        """Every concrete action ``seat`` may take at ``now`` (ms), as a list of dicts.

        Does not fire deadlines: call :meth:`advance` first. Queen actions are expanded to
        every (pos, target, target_pos). ``next_round`` is listed for every seat in
        ``round_over``; the room decides who may ask for it (crisp_core.legal).
        """
        return legal.legal_actions(self, seat, now)

    # ------------------------------------------------------------------------- state

    _FIELDS = saved.FIELDS

    def to_dict(self):
        """The whole state as a JSON-safe dict (to save and resume a game)."""
        return saved.to_dict(self)

    @classmethod
    def from_dict(cls, data):
        """Rebuild a Game from :meth:`to_dict` output (a saved game, maybe tampered with).

        Raises ``ValueError`` with a short English reason unless ``data`` is a whole,
        consistent state: every field of the right type; the 52 cards each exactly once across
        deck, discard pile, hands and the held card (R1.2); seats, dealer, turn, caller, ready
        flags, scores, round points and winners that fit the phase (R2-R8); deadlines that
        fit the phase and the clock (crisp_core.saved).
        """
        return saved.from_dict(cls, data)

    def __eq__(self, other):
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "<Game round %d %s turn=%r>" % (self.round, self.phase, self.turn)
