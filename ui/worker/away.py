"""Presence at the table: whether each seat is here, away, or away long enough that the room
plays its part (docs/protocol.md "Room"). Guests ping every 3 s; a seat not heard from for
SILENT_MS is away, and once away for GONE_MS while the game waits for it the room confirms its
peek or times out its turn (R2.4, R10.2) until it is back. Functions over the Room's state
(ui/worker/room.py) that return what changed, never messages: the room and its outbox say it.
Room-only (the engine worker); pure Python.
"""

from crisp_core import IllegalAction

SILENT_MS = 9000              # a guest not heard from this long is away: 3 missed pings (every
                              # 3 s), so a closed tab or a dead phone shows within 10 s
GONE_MS = 20000               # the grace: away this long while the game waits for it, the room
                              # plays its part (peek confirmed, turns timed out) until it is back


def heard(room, conn, now):
    """A message from `conn` at `now` (ms): its seat (or its spectator) is here. -> True when
    the seat was away and is back (the room then tells everyone: outbox.broadcast), else
    False."""
    index = room.conns.get(conn)
    if index is None:
        watcher = room.spectators.get(conn)
        if watcher is not None:
            watcher["seen"] = now
        return False
    seat = room.seats[index]
    seat.seen = now
    if seat.away_since is None:
        return False
    seat.away_since = None
    seat.stop_stand_in()
    return True


def check_silence(room, now):
    """Guests ping every 3 s: one silent for SILENT_MS is away (PeerJS `close` often
    never fires on a phone that went to sleep)."""
    changed = False
    for index, seat in enumerate(room.seats):
        if (index != room.host and seat.conn is not None and seat.away_since is None
                and seat.seen is not None and now - seat.seen >= SILENT_MS):
            seat.away_since = seat.seen + SILENT_MS
            changed = True
    return changed


def forfeit_at(room, index):
    """When the room will play for away seat `index` (its peek or its turn), or None."""
    seat = room.seats[index]
    if room.game is None or seat.away_since is None or seat.agent is not None:
        return None               # (a bot standing in plays for it)
    since = room.game.awaiting(room.now).get(index)
    if since is None:
        return None
    return max(seat.away_since + GONE_MS, since)


def forfeits(room, now):
    """Play the part of seats away for GONE_MS that the game waits for: confirm their
    peek, time out their turn (Game.forfeit, R2.4, R10.2). A timed-out turn may pass to
    another away seat, hence the loop."""
    events = []
    for _ in range(len(room.seats) + 1):
        acted = False
        for index in range(len(room.seats)):
            if index == room.host:
                continue
            due = forfeit_at(room, index)
            if due is not None and due <= now:
                try:
                    events += room.game.forfeit(index, now)
                    acted = True
                except IllegalAction:
                    pass
        if not acted:
            break
    return events
