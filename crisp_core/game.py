"""The state machine of a game of Crisp: rounds, turns, special cards, timers, scoring.

The engine never reads a clock and never uses global random state. Every entry point takes
``now``, an integer number of milliseconds on the host's monotonic clock; deadlines are
absolute times on that clock. Randomness is a ``seed`` passed in (or a stacked deck).

Public API: :class:`Game` (``new``, ``apply``, ``advance``, ``next_deadline``,
``legal_actions``, ``next_round``, ``to_dict``, ``from_dict``) and :class:`IllegalAction`.
Actions and events are plain JSON-safe dicts, described in ``docs/protocol.md``.
"""

from . import cards
from .checks import is_int
from .actions import PHASES, PLAY_PHASES, POSITIONS, ActionError, check_shape

#: Time after a turn ends during which its player may still call crisp (R10.1), ms.
CALL_WINDOW_MS = 3000
#: Time after a turn ends before the next player may start, when a call may follow (R10.1), ms.
START_DELAY_MS = 2000

TARGETS = (50, 100, 150)
DRAW_SECONDS = (None, 30, 45, 60)
#: The codes of a refusal (IllegalAction.code), as the room sends them (docs/protocol.md).
ILLEGAL = "illegal"                # not allowed now
NOT_YOUR_TURN = "not_your_turn"    # a turn action (R3) from a seat whose turn it is not
BAD_ACTION = "bad_message"         # not an action at all (crisp_core.actions.check_shape)


class IllegalAction(Exception):
    """An action that is malformed or not allowed now; the game state is unchanged.

    ``str(exc)`` is a short English reason. ``events`` holds the events of deadlines that
    fired (at or before ``now``) before the action was refused: those still happened.
    ``code`` says what kind of refusal it is, as the room's ``error`` message names it:
    ``"not_your_turn"`` (a turn action from another seat, or outside play),
    ``"bad_message"`` (an action of the wrong shape) or ``"illegal"`` (anything else).
    """

    def __init__(self, reason, events=None, code=ILLEGAL):
        super().__init__(reason)        # (MicroPython has no Exception.__init__)
        self.reason = reason
        self.events = events or []
        self.code = code


def normalize_options(options):
    """Return the lobby options (R10) as a complete dict, defaults filled in.

    ``options``: dict with ``players`` (2-8, required), ``target`` (50/100/150, default 100),
    ``draw_seconds`` (None/30/45/60, default None), ``draw_from_discard`` (bool, default
    False). Raises ``ValueError`` for an unknown key or a value out of range.
    """
    if not isinstance(options, dict):
        raise ValueError("options must be an object")
    unknown = set(options) - {"players", "target", "draw_seconds", "draw_from_discard"}
    if unknown:
        raise ValueError("unknown option: %s" % sorted(unknown)[0])
    players = options.get("players")
    if not is_int(players) or not 2 <= players <= 8:
        raise ValueError("players must be 2 to 8")
    target = options.get("target", 100)
    if not is_int(target) or target not in TARGETS:
        raise ValueError("target must be 50, 100 or 150")
    draw_seconds = options.get("draw_seconds")
    if draw_seconds is not None and (not is_int(draw_seconds) or draw_seconds not in DRAW_SECONDS):
        raise ValueError("draw_seconds must be null, 30, 45 or 60")
    from_discard = options.get("draw_from_discard", False)
    if not isinstance(from_discard, bool):
        raise ValueError("draw_from_discard must be true or false")
    return {"players": players, "target": target, "draw_seconds": draw_seconds,
            "draw_from_discard": from_discard}


def _reveal(to, reason, shown):
    """A private event showing cards once to seat ``to`` (R9.1, R9.2)."""
    return {"type": "reveal", "to": to, "reason": reason,
            "cards": [{"seat": seat, "pos": pos, "card": card} for seat, pos, card in shown]}


class Game:
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
        return cards.shuffled_deck(self.seed, self.round)

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
        self.turn = None
        self.caller = None
        self.held = None
        self.held_from = None
        self.pending_draws = 0
        self.drew = False
        self.ready = [False] * n
        draw_ms = self._draw_ms()
        self.peek_deadline = None if draw_ms is None else now + draw_ms
        self.start_at = now        # every seat may confirm its peek from the deal (awaiting)
        self.draw_deadline = None
        self.window = None
        self.round_points = None
        self.winners = None
        for event in self.deal_events():
            self._emit(event)

    def deal_events(self):
        """The events of this round's deal (R2.2, R2.4): ``deal``, then each seat's private
        peek ``reveal`` of its left and right cards, as emitted when the round was dealt.

        :meth:`new` deals round 1 without returning events; the host and the scenario runner
        take them from here.
        """
        events = [{"type": "deal", "round": self.round, "dealer": self.dealer}]
        for seat, hand in enumerate(self.hands):
            events.append(_reveal(seat, "peek", [(seat, "left", hand[0]), (seat, "right", hand[2])]))
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
        self.turn = None
        self.window = None
        self.start_at = None
        self.draw_deadline = None
        self.drew = False
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
        """Validate ``action`` for ``seat`` at ``now``: its shape (crisp_core.actions), then
        whether it is allowed; return it normalized or raise :class:`IllegalAction`."""
        try:
            action = check_shape(action)
        except ActionError as exc:
            raise IllegalAction(str(exc), code=BAD_ACTION)
        return self._allowed(seat, action, now)

    def _allowed(self, seat, action, now):
        """Whether a well-formed ``action`` is allowed for ``seat`` at ``now``; returns it."""
        kind = action["do"]
        if kind == "next_round":
            if self.phase != "round_over":
                raise IllegalAction("the round is not over")
            return {"do": kind}
        n = self.players
        if not is_int(seat) or not 0 <= seat < n:
            raise IllegalAction("no such seat")
        if kind == "ready":
            if self.phase != "peek":
                raise IllegalAction("not in the peek phase")
            if self.ready[seat]:
                raise IllegalAction("already ready")
            return {"do": kind}
        if kind == "crisp":
            return self._check_crisp(seat, now)
        # what is left is a turn action (R3): only the turn's seat may take it
        if self.phase not in PLAY_PHASES:
            raise IllegalAction("no turn is being played", code=NOT_YOUR_TURN)
        if seat != self.turn:
            raise IllegalAction("not your turn", code=NOT_YOUR_TURN)
        if kind == "draw":
            return self._check_draw(action, now)
        held = self.held
        if held is None:
            raise IllegalAction("draw a card first")
        from_deck = self.held_from == "deck"
        rank = held[0]
        if kind == "swap":
            pos = action["pos"]
            if from_deck and cards.is_special(held):
                raise IllegalAction("a Jack, Queen or King from the deck cannot be swapped in")
            return {"do": kind, "pos": pos}
        if kind == "discard":
            if not from_deck:
                raise IllegalAction("a card taken from the discard must be swapped in")
            if rank == "K":
                raise IllegalAction("a King must be used")
            return {"do": kind}
        wanted = {"jack": "J", "queen": "Q", "king": "K"}[kind]
        if not from_deck or rank != wanted:
            raise IllegalAction("you do not hold a %s from the deck" % kind)
        if kind != "queen":
            return {"do": kind}
        pos, target, target_pos = action["pos"], action["target"], action["target_pos"]
        if not 0 <= target < n:
            raise IllegalAction("no such target seat")
        if target == seat:
            raise IllegalAction("a Queen exchanges with another player")
        return {"do": kind, "pos": pos, "target": target, "target_pos": target_pos}

    def _check_crisp(self, seat, now):
        if self.phase == "last_turns" or self.caller is not None:
            raise IllegalAction("crisp has already been called")
        if self.phase != "play":
            raise IllegalAction("no turn is being played")
        window = self.window
        if window is None or window[0] != seat or now >= window[1]:
            raise IllegalAction("you may call crisp only just after your turn")
        return {"do": "crisp"}

    def _check_draw(self, action, now):
        source = action["from"]
        if self.held is not None:
            raise IllegalAction("resolve the card you hold first")
        if self.drew and self.pending_draws == 0:
            raise IllegalAction("no draw left this turn")
        if not self.drew and now < self.start_at:
            raise IllegalAction("wait: the previous player may still call crisp")
        if source == "discard":
            if not self.options["draw_from_discard"]:
                raise IllegalAction("drawing from the discard is off")
            if not self.discard:
                raise IllegalAction("the discard pile is empty")
        return {"do": "draw", "from": source}

    def _do_ready(self, seat, act, now):
        self.ready[seat] = True
        self._emit({"type": "ready", "seat": seat, "auto": False})
        if all(self.ready):
            self._start_play(now)

    def _do_draw(self, seat, act, now):
        source = act["from"]
        if source == "deck":
            self._recycle_if_empty()
            card = self.deck.pop(0)
        else:
            card = self.discard.pop()
        if self.drew:
            self.pending_draws -= 1
        self.drew = True
        self.held = card
        self.held_from = source
        if source == "deck":
            self._emit({"type": "draw", "seat": seat, "from": "deck"})
            self._emit(_reveal(seat, "draw", [(seat, "held", card)]))
        else:
            self._emit({"type": "draw", "seat": seat, "from": "discard", "card": card})

    def _do_swap(self, seat, act, now):
        index = POSITIONS.index(act["pos"])
        old = self.hands[seat][index]
        self.hands[seat][index] = self.held
        self.discard.append(old)
        event = {"type": "swap", "seat": seat, "pos": act["pos"], "card": old}
        if self.held_from == "discard":
            event["taken"] = self.held  # public: it was on the discard pile (R9.3)
        self._emit(event)
        self._resolve_draw(now)

    def _do_discard(self, seat, act, now):
        card = self.held
        self.discard.append(card)
        self._emit({"type": "discard", "seat": seat, "card": card})
        self._resolve_draw(now)

    def _do_jack(self, seat, act, now):
        """R4.4: look once at your own center card."""
        self.discard.append(self.held)
        self._emit({"type": "jack", "seat": seat, "card": self.held})
        self._emit(_reveal(seat, "jack", [(seat, "center", self.hands[seat][1])]))
        self._resolve_draw(now)

    def _do_queen(self, seat, act, now):
        """R4.5: blind exchange; each receiver sees a card landing in left or right once."""
        pos, target, target_pos = act["pos"], act["target"], act["target_pos"]
        mine, theirs = POSITIONS.index(pos), POSITIONS.index(target_pos)
        hand, other = self.hands[seat], self.hands[target]
        hand[mine], other[theirs] = other[theirs], hand[mine]
        self.discard.append(self.held)
        self._emit({"type": "queen", "seat": seat, "card": self.held, "pos": pos,
                    "target": target, "target_pos": target_pos})
        if pos != "center":
            self._emit(_reveal(seat, "queen", [(seat, pos, hand[mine])]))
        if target_pos != "center":
            self._emit(_reveal(target, "queen", [(target, target_pos, other[theirs])]))
        self._resolve_draw(now)

    def _do_king(self, seat, act, now):
        """R4.6: the King goes to the discard pile, then two extra draws."""
        self.discard.append(self.held)
        self.pending_draws += 2
        self._emit({"type": "king", "seat": seat, "card": self.held,
                    "pending": self.pending_draws})
        self._resolve_draw(now)

    def _do_crisp(self, seat, act, now):
        """R6, R10.1: the call; the next player may start at once, its timer from now."""
        self.caller = seat
        self.phase = "last_turns"
        self.window = None
        self._emit({"type": "crisp", "seat": seat})
        if not self.drew and self.start_at > now:
            self.start_at = now
            draw_ms = self._draw_ms()
            self.draw_deadline = None if draw_ms is None else now + draw_ms

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
        ``round_over``; the room decides who may ask for it.
        """
        legal = []
        for action in self._candidates(seat):      # well-formed: no shape check needed
            try:
                legal.append(self._allowed(seat, action, now))
            except IllegalAction:
                pass
        return legal

    def _candidates(self, seat):
        if self.phase == "peek":
            return [{"do": "ready"}]
        if self.phase in ("round_over",):
            return [{"do": "next_round"}]
        if self.phase == "game_over":
            return []
        out = [{"do": "crisp"}]
        if seat != self.turn:
            return out
        if self.held is None:
            return out + [{"do": "draw", "from": "deck"}, {"do": "draw", "from": "discard"}]
        out += [{"do": "swap", "pos": pos} for pos in POSITIONS]
        out += [{"do": "discard"}, {"do": "jack"}, {"do": "king"}]
        if self.held[0] == "Q":
            for target in range(self.players):
                if target != seat:
                    out += [{"do": "queen", "pos": pos, "target": target, "target_pos": tpos}
                            for pos in POSITIONS for tpos in POSITIONS]
        return out

    # ------------------------------------------------------------------------- state

    _FIELDS = ("options", "seed", "stack", "phase", "round", "dealer", "turn", "caller", "hands",
               "held", "held_from", "pending_draws", "drew", "deck", "discard", "ready",
               "peek_deadline", "start_at", "draw_deadline", "window", "round_points", "scores",
               "winners", "clock")

    def to_dict(self):
        """The whole state as a JSON-safe dict (to save and resume a game)."""
        out = {"version": 1}
        for name in self._FIELDS:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(item) if isinstance(item, list) else item for item in value]
            elif isinstance(value, dict):
                value = dict(value)
            out[name] = value
        out["journal"] = [list(entry) for entry in self.journal]
        return out

    @classmethod
    def from_dict(cls, data):
        """Rebuild a Game from :meth:`to_dict` output (a saved game, maybe tampered with).

        Raises ``ValueError`` with a short English reason unless ``data`` is a whole,
        consistent state: every field of the right type; the 52 cards each exactly once across
        deck, discard pile, hands and the held card (R1.2); seats, dealer, turn, caller, ready
        flags, scores, round points and winners that fit the phase (R2-R8); deadlines that
        fit the phase and the clock.
        """
        if not isinstance(data, dict) or data.get("version") != 1:
            raise ValueError("not a saved Crisp game")
        missing = [name for name in cls._FIELDS if name not in data]
        if missing:
            raise ValueError("saved game lacks %s" % missing[0])
        extra = set(data) - set(cls._FIELDS) - {"version", "journal"}
        if extra:
            raise ValueError("saved game has an unknown field: %s" % sorted(extra)[0])
        game = cls()
        for name in cls._FIELDS:
            setattr(game, name, data[name])
        try:
            game.options = normalize_options(game.options)
        except ValueError as exc:
            raise ValueError("saved game options: %s" % exc)
        _check_state(game)
        game.hands = [list(hand) for hand in game.hands]
        game.deck, game.discard = list(game.deck), list(game.discard)
        game.ready = list(game.ready)
        game.scores = list(game.scores)
        game.stack = list(game.stack) if game.stack is not None else None
        game.round_points = list(game.round_points) if game.round_points is not None else None
        game.winners = list(game.winners) if game.winners is not None else None
        game.window = list(game.window) if game.window is not None else None
        journal = data.get("journal") or []
        if not isinstance(journal, list) or not all(_is_journal_entry(e, game.players)
                                                    for e in journal):
            raise ValueError("saved game is inconsistent: journal")
        game.journal = [list(entry) for entry in journal]
        game._events = []
        return game

    def __eq__(self, other):
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "<Game round %d %s turn=%r>" % (self.round, self.phase, self.turn)


def _check_state(game):
    """Raise ``ValueError`` unless ``game`` (fields set from a saved dict, options already
    normalized) is a state the engine can reach: see :meth:`Game.from_dict`."""
    def bad(what):
        raise ValueError("saved game is inconsistent: " + what)

    def is_seat(value):
        return is_int(value) and 0 <= value < n

    def is_time(value):
        return is_int(value) and value >= 0

    def int_list(value):
        return (isinstance(value, list) and len(value) == n
                and all(is_int(item) for item in value))

    n = game.players
    phase = game.phase
    playing = phase in ("play", "last_turns")
    if not isinstance(phase, str) or phase not in PHASES:
        bad("unknown phase")
    if game.seed is not None and not isinstance(game.seed, str) and not is_int(game.seed):
        bad("seed")
    if game.stack is not None:
        if not isinstance(game.stack, list):
            bad("stacked deck")
        try:
            cards.stacked_deck(game.stack)
        except (TypeError, ValueError):
            bad("stacked deck")
    if not is_int(game.round) or game.round < 1:
        bad("round")
    if not is_seat(game.dealer):
        bad("dealer")
    if not is_time(game.clock):
        bad("clock")
    # R1.2: the 52 cards, each once, across hands, deck, discard pile and the held card
    hands = game.hands
    if (not isinstance(hands, list) or len(hands) != n
            or not all(isinstance(hand, list) and len(hand) == 3 for hand in hands)):
        bad("hands must be three cards for each of the %d seats" % n)
    if not isinstance(game.deck, list) or not isinstance(game.discard, list):
        bad("deck and discard pile must be lists")
    held = [] if game.held is None else [game.held]
    every = [card for hand in hands for card in hand] + game.deck + game.discard + held
    if not all(cards.is_card(card) for card in every):
        bad("something that is not a card")
    if len(every) != 52 or len(set(every)) != 52:
        bad("the 52 cards must each be there exactly once")
    # the turn and the card in hand
    if game.held is None:
        if game.held_from is not None:
            bad("held_from without a held card")
    elif not playing or game.held_from not in ("deck", "discard") or game.drew is not True:
        bad("a held card outside a turn")
    if not isinstance(game.drew, bool) or (game.drew and not playing):
        bad("drew")
    if not is_int(game.pending_draws) or not 0 <= game.pending_draws <= 8 \
            or (game.pending_draws and not playing):
        bad("pending draws")
    if playing:
        if not is_seat(game.turn):
            bad("turn")
        if not is_time(game.start_at):
            bad("start time")
    elif game.turn is not None or (game.start_at is not None
                                   and (phase != "peek" or not is_time(game.start_at))):
        bad("a turn outside play")
    if (game.caller is not None or phase in ("last_turns", "round_over", "game_over")) \
            and not is_seat(game.caller):
        bad("caller")
    if phase in ("peek", "play") and game.caller is not None:
        bad("a caller before the call")
    if phase == "last_turns" and game.turn == game.caller:
        bad("the caller has no last turn")
    # timers
    if game.peek_deadline is not None and (phase != "peek" or not is_time(game.peek_deadline)):
        bad("peek timer")
    if game.draw_deadline is not None and (not playing or not is_time(game.draw_deadline)):
        bad("draw timer")
    if (game.options["draw_seconds"] is None) != (game.draw_deadline is None) and playing:
        bad("draw timer and options disagree")
    window = game.window
    if window is not None and (not isinstance(window, list) or len(window) != 2
                               or not is_seat(window[0]) or not is_time(window[1])
                               or phase != "play"):
        bad("call window")
    # the peek (R2.4), scores (R7) and the end of the game (R8)
    ready = game.ready
    if not isinstance(ready, list) or len(ready) != n \
            or not all(isinstance(flag, bool) for flag in ready):
        bad("ready flags")
    if phase != "peek" and not all(ready):
        bad("a seat not ready after the peek")
    if phase == "peek" and all(ready):
        bad("the peek is over but play has not started")
    if not int_list(game.scores):
        bad("scores must be one integer per seat")
    ended = phase in ("round_over", "game_over")
    if ended != (game.round_points is not None) or (ended and not int_list(game.round_points)):
        bad("round points")
    target = game.options["target"]
    if phase == "game_over":
        if max(game.scores) < target:
            bad("game over below the target")
        best = min(game.scores)
        if game.winners != [seat for seat in range(n) if game.scores[seat] == best]:
            bad("winners")
    else:
        if max(game.scores) >= target:
            bad("a score at the target but the game goes on")
        if game.winners is not None:
            bad("winners before the end")


def _is_journal_entry(entry, players):
    """``[at, "act", seat, action]``, ``[at, "advance"]`` or ``[at, "forfeit", seat]``."""
    if not isinstance(entry, list) or len(entry) < 2 or not is_int(entry[0]) or entry[0] < 0:
        return False
    kind = entry[1]
    if kind == "advance":
        return len(entry) == 2
    if kind == "forfeit":
        return len(entry) == 3 and is_int(entry[2]) and 0 <= entry[2] < players
    return (kind == "act" and len(entry) == 4 and is_int(entry[2]) and 0 <= entry[2] < players
            and isinstance(entry[3], dict) and isinstance(entry[3].get("do"), str))
