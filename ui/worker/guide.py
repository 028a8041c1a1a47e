"""The guided first round's crisp window, held open for the newcomer (ui/page/guided.py).

The guided round is a solo game against easy bots (`room.guided`: made by the landing's
offer, nobody else at the table). In its first round, the call window R10.1 opens after the
player's own turn waits for its tip to be read: it lasts up to READ_MS instead of 3 s, and
the next player begins only when it ends. The player's `guide_read` ("play on": they will
not call) ends it at once. Every other room, and every later round, keeps R10.1 as it is.

    hold(room, events, now)     after a change: a window just opened for the player waits
    read(room, conn, msg, now)  the `guide_read` message's handler

Pure Python like the room (no `js`, no clock, no I/O); `now` is ms on the host's clock.
"""

from crisp_core.actions import CALL_WINDOW_MS

READ_MS = 30000      # the longest a guided window waits for its tip (about 4x its reading)


def held(room):
    """Whether the crisp window open now is a guided one: a guided room's first round, the
    window of the host's own seat (the player)."""
    game = room.game
    return (room.guided and game is not None and game.round == 1
            and game.window is not None and game.window[0] == room.host)


def hold(room, events, now):
    """A window opened by `events` at `now` (a turn of the player just ended, R10.1: it ends
    at now + 3 s) waits READ_MS instead, and the next player begins when it ends (their
    draw timer, if any, moved with it). Changes the room's game; returns nothing."""
    game = room.game
    if not held(room) or game.window[1] != now + CALL_WINDOW_MS:
        return
    if not any(isinstance(e, dict) and e.get("type") == "turn" for e in events):
        return
    _move(game, now + READ_MS)


def _move(game, end):
    """The window and the next player's start (and draw timer) to `end` (ms)."""
    shift = end - game.start_at
    game.window[1] = end
    game.start_at = end
    if game.draw_deadline is not None:
        game.draw_deadline += shift


def read(room, conn, msg, now):
    """`guide_read` (the host's screen only): the player will not call; a held window ends
    now and the next player may begin. Anything else: nothing changes."""
    now = room._clock(now)
    if not held(room) or room.game.window[1] <= now:
        return []
    _move(room.game, now)
    return room.advance(now, True)
