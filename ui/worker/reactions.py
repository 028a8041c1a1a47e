"""Quick reactions in the room (docs/protocol.md "Quick reactions"): a seat's `react` goes to
every screen as `reaction` with the sender's seat, within a rate of its own per seat (a token
bucket: ui/shared/reactions.py BURST at once, PER_S a second after that). A reaction over the
rate is refused with `too_many_reactions` and goes nowhere; the game is never touched.
Functions of the Room (ui/worker/room.py); outputs are [(conn, message dict)]. Room-only
(the engine worker); pure Python.
"""

from ui.shared import wire
from ui.shared.reactions import BURST, PER_S
from ui.shared.wire import BadMessage


def react(room, conn, msg, now):
    """`react` from a seated connection (the wire checked `r`, the seat and the phase): the
    `reaction` to every seated screen and every spectator, the sender's own included (its
    screen shows it when the room has taken it). Raises BadMessage `too_many_reactions`."""
    seat = room.conns[conn]
    if not take(room.reacted, seat, now):
        raise BadMessage("too_many_reactions", "one reaction a second, three at most at once")
    out = wire.message("reaction", seat=seat, r=msg["r"])
    return ([(s.conn, out) for s in room.seats if s.conn is not None]
            + [(c, out) for c in room.spectators])


def take(buckets, key, now):
    """Take one token from `key`'s bucket in `buckets` ({key: [tokens, ms]}: BURST tokens,
    refilled at PER_S a second) at `now` (ms); False when it is empty (nothing taken)."""
    tokens, at = buckets.get(key, (float(BURST), now))
    tokens = min(float(BURST), tokens + max(0, now - at) * PER_S / 1000.0)
    if tokens < 1:
        buckets[key] = [tokens, now]
        return False
    buckets[key] = [tokens - 1, now]
    return True
