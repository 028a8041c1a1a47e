"""What each action does (R2.4, R3-R6): the moves of a :class:`crisp_core.game.Game`.

:class:`Moves` holds one method per action kind, ``_do_<kind>(seat, act, now)``, which
``Game.apply`` calls once ``crisp_core.legal`` has allowed the action: it changes the state
and emits the events, public ones and private ``reveal`` events (:func:`reveal`). The flow
they hand on to (the end of a draw, of a turn, of a round) and the timers stay in
``crisp_core.game``, whose Game is built on this class. Plain Python: guests run it on
MicroPython (the round check).
"""

from .actions import POSITIONS


def reveal(to, reason, shown):
    """A private event showing cards once to seat ``to`` (R9.1, R9.2): ``shown`` is a list
    of (seat, pos, card), ``reason`` what showed them ("peek", "draw", "jack", "queen")."""
    return {"type": "reveal", "to": to, "reason": reason,
            "cards": [{"seat": seat, "pos": pos, "card": card} for seat, pos, card in shown]}


class Moves:
    """The actions' effects, mixed into ``Game`` (its fields and its ``_emit``,
    ``_resolve_draw``, ``_recycle_if_empty`` and ``_start_play``)."""

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
            self._emit(reveal(seat, "draw", [(seat, "held", card)]))
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
        self._emit(reveal(seat, "jack", [(seat, "center", self.hands[seat][1])]))
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
            self._emit(reveal(seat, "queen", [(seat, pos, hand[mine])]))
        if target_pos != "center":
            self._emit(reveal(target, "queen", [(target, target_pos, other[theirs])]))
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
