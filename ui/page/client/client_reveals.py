"""The Client's one-time reveals (docs/protocol.md "Client": `reveals`, `reveal_until`): the
cards this seat is shown once (the peek, a Jack's or Queen's look, the drawn card), and when
each turns back. Client (ui/page/client/client.py) is built on RevealSide.

MicroPython-compatible (every page runs it), no I/O, no clock: `now` is passed in (ms).
"""

REVEAL_MS = 3000      # how long a draw reveal stays face up (R9.2)
UNTIL_TURN = "turn"   # reveal_until of a Jack's or Queen's reveal: shown until the next turn


class RevealSide:
    """`reveals` {(seat, pos): card} shown once right now, `reveal_until` {(seat, pos): ms |
    None | "turn"} (None: the peek, shown until this seat is ready, R2.4; "turn": a Jack's or
    a Queen's reveal, shown until the next turn begins or `dismiss_reveals`; ms: the drawn
    card's, REVEAL_MS after it came), and `_reveal_batch`: the view (`_batch`) each came in."""

    def _reveal(self, event, now):
        """A `reveal` event of a view (`to` this seat) at `now` (ms): its cards shown once."""
        if event.get("type") != "reveal" or event.get("to") != self.seat:
            return
        reason = event.get("reason")
        if reason == "peek":
            until = None
        elif reason in ("jack", "queen"):
            until = UNTIL_TURN
        else:
            until = now + REVEAL_MS
        for item in event.get("cards") or []:
            key = (item.get("seat"), item.get("pos"))
            self.reveals[key] = item.get("card")
            self.reveal_until[key] = until
            self._reveal_batch[key] = self._batch

    def _reveals_moved(self, event):
        """A public event of a view: the reveals it turns back (a card that moved, the next
        turn, the round's end)."""
        kind = event.get("type")
        if kind == "swap":
            self._forget(event.get("seat"), event.get("pos"))
        elif kind == "queen":
            self._forget(event.get("seat"), event.get("pos"))
            self._forget(event.get("target"), event.get("target_pos"))
        elif kind == "turn":
            # the next turn begins: a Jack's or Queen's reveal from before turns back
            for key in list(self.reveal_until):
                if (self.reveal_until[key] == UNTIL_TURN
                        and self._reveal_batch.get(key) != self._batch):
                    self._drop(key)
        elif kind == "round_over":
            self._clear_reveals()

    def _reveals_after(self, view):
        """After a view's events: the peek stays until this seat is ready (R2.4); the drawn
        card until it is resolved (the view has no held card)."""
        ready = view.get("ready") or []
        me_ready = self.seat is not None and self.seat < len(ready) and ready[self.seat]
        if view.get("phase") != "peek" or me_ready:
            for key in list(self.reveal_until):
                if self.reveal_until[key] is None:
                    self._drop(key)
        if view.get("held") is None:
            for key in list(self.reveals):
                if key[1] == "held":
                    self._drop(key)

    def _forget(self, seat, pos):
        """A card moved: a reveal of that place from an earlier message shows it no more."""
        key = (seat, pos)
        if key in self.reveals and self._reveal_batch.get(key) != self._batch:
            self._drop(key)

    def _drop(self, key):
        self.reveals.pop(key, None)
        self.reveal_until.pop(key, None)
        self._reveal_batch.pop(key, None)

    def _clear_reveals(self):
        self.reveals = {}
        self.reveal_until = {}
        self._reveal_batch = {}

    def tick(self, now):
        """Turn back the reveals whose time is up. Returns True when one was."""
        changed = False
        for key in list(self.reveal_until):
            until = self.reveal_until[key]
            if isinstance(until, (int, float)) and until <= now:
                self._drop(key)
                changed = True
        return changed

    def dismiss_reveals(self):
        """The player turned their Jack's or Queen's reveal back before the next turn.
        Returns True when one was showing."""
        keys = [k for k in self.reveal_until if self.reveal_until[k] == UNTIL_TURN]
        for key in keys:
            self._drop(key)
        return bool(keys)

    def next_wakeup(self):
        """When `tick` has something to do (ms), or None."""
        times = [t for t in self.reveal_until.values() if isinstance(t, (int, float))]
        return min(times) if times else None
