"""The Client's quick reactions (docs/protocol.md "Quick reactions"): sending one, and keeping
the last one each seat sent, for the screens to show on that seat (ui/page/screens/reaction_view.py).
Client (ui/page/client/client.py) is built on ReactSide.

MicroPython-compatible (every page runs it), no I/O, no clock: `now` is passed in.
"""

from ui.shared import wire
from ui.shared.reactions import is_reaction


class ReactSide:
    """The Client's `reactions`: {seat: {"r": index, "at": ms it came, "n": how many came}}
    (a new one from a seat replaces its last; `n` tells the screens it is a new one), or
    None before the first."""

    reactions = None

    def react(self, r):
        """Send quick reaction `r` (an index into ui/shared/reactions.py REACTIONS) to the
        room; any other value sends nothing. The room's `reaction` shows it, here too."""
        if is_reaction(r):
            self.error = None
            self._send({"type": "react", "r": r})

    def _on_reaction(self, msg, now):
        """`reaction` from the room: True when the model changed. One that is not the wire's
        (ui/shared/wire.py FROM_ROOM) or names no seat of this table is dropped."""
        if not wire.fits(wire.FROM_ROOM, msg):
            return False
        seat = msg["seat"]
        if self.players and seat >= len(self.players):
            return False
        if self.reactions is None:
            self.reactions = {}
        last = self.reactions.get(seat)
        self.reactions[seat] = {"r": msg["r"], "at": now,
                                "n": last["n"] + 1 if last is not None else 1}
        return True
