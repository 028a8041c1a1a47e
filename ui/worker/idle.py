"""A connected seat that holds its turn (docs/protocol.md "Room messages", `bot_turn`): how long
the turn the table waits for has waited on the host's clock, when every screen is told so
(the turn's seat's `waited` in a view's players), and the host's `bot_turn`: a bot plays that
one turn for the seat, then the seat is its person's again.

With the "no limit" timer nothing ends a turn whose person is here but not playing (a phone
put down on the table, a friend talking): the room plays the part of away seats only
(ui/worker/away.py). IDLE_TURN_MS is past the page's own nudge (25 s, ui/page/screens/away.py
NUDGE_MS) with time for the nudged person to answer it, and shorter than the slowest timer
the host could have chosen (45 s, 60 s): a table that chose no limit still waits that long
for a thinking friend. A timed turn ends by itself (R10.2), so it is never offered.

Decisions over the Room's state (ui/worker/room.py; the command's handler is
ui/worker/lobby.py `bot_turn`), which return no messages. Room-only
(the engine worker); pure Python, no clock: `now` is ms on the host's clock.
"""

from crisp_core import PLAY_PHASES
from ui.shared.wire import BadMessage, is_int

IDLE_TURN_MS = 40000          # a turn that waited this long (since it could start, or its
                              # seat's last move) is told to every screen and may be botted


def threshold(pace):
    """The room's IDLE_TURN_MS for its bots' `pace` (1: a person's; a test page's `?botpace=`
    makes its bots and this wait shorter alike, so a test of it waits seconds, not 40)."""
    if not isinstance(pace, (int, float)) or isinstance(pace, bool) or not 0 < pace < 1:
        return IDLE_TURN_MS
    return max(1000, int(IDLE_TURN_MS * pace))


def turn_since(room):
    """(seat, since): the seat whose turn the table waits for and when it last could act on
    its own (its turn's start, R10.1, or its last move in this turn, ms), or None out of
    play (peek, a round's or the game's end)."""
    game = room.game
    if game is None or game.phase not in PLAY_PHASES or game.start_at is None:
        return None
    seat, since = game.turn, game.start_at
    moved = room.moved
    if moved is not None and moved[0] == seat and moved[1] > since:
        since = moved[1]
    return seat, since


def waited(room, index, now):
    """ms the table has waited for seat `index`'s turn, or None when it does not wait for a
    person here: not its turn, a bot's seat or one a bot plays, an away seat (the room's
    own clock plays its part: away.py), a turn with a draw timer (R10.2 ends it), the game
    paused for the start delay."""
    turn = turn_since(room)
    if turn is None or turn[0] != index or index == room.host:
        return None
    seat = room.seats[index]
    if seat.bot is not None or seat.agent is not None or seat.conn is None \
            or seat.away_since is not None:
        return None
    if room.options.get("draw_seconds") is not None:
        return None
    return max(0, now - turn[1])


def offered(room, index, now):
    """ms seat `index`'s turn has waited when that is IDLE_TURN_MS or more (every screen
    shows it, the host may let a bot play the turn), else None."""
    ms = waited(room, index, now)
    return ms if ms is not None and ms >= room.idle_ms else None


def due_at(room):
    """When the turn the table waits for reaches IDLE_TURN_MS (ms on the host's clock; the
    room's `next_wakeup`), or None once every screen was told or nobody waits."""
    turn = turn_since(room)
    if turn is None or room.idle_told == turn or waited(room, turn[0], turn[1]) is None:
        return None
    return turn[1] + room.idle_ms


def crossed(room, now):
    """True once per turn, when it passes IDLE_TURN_MS: every screen must hear it (a view)."""
    at = due_at(room)
    if at is None or at > now:
        return False
    room.idle_told = turn_since(room)
    return True


def check_bot_turn(room, index, now):
    """Raise BadMessage unless the host may let a bot play seat `index`'s turn now:
    `bad_message` (not a guest's seat, a bot's), `no_bots`, `not_idle` (not the turn the
    table waits for, a turn a bot plays already, not waited IDLE_TURN_MS since it could
    start or the seat's last move, an away seat, a timed turn)."""
    if not (is_int(index) and 0 <= index < len(room.seats) and index != room.host) \
            or room.seats[index].bot is not None:
        raise BadMessage("bad_message", "seat must be a guest's seat")
    if room.make_bot is None:
        raise BadMessage("no_bots", "bots are not available")
    if room.seats[index].agent is not None:
        raise BadMessage("not_idle", "a bot plays that seat already")
    if offered(room, index, now) is None:
        raise BadMessage("not_idle", "that turn is not waiting for its player")


def end_turns(room):
    """The bots playing one turn whose turn passed stop: the seat is its person's again
    (called before every change's views: outbox.after_change)."""
    game = room.game
    for index, seat in enumerate(room.seats):
        if seat.turn_bot is None:
            continue
        if (game is None or game.phase not in PLAY_PHASES or game.turn != index
                or game.start_at != seat.turn_bot[1] or seat.stand_in is not None):
            if seat.stand_in is None:
                seat.agent = None
                seat.plan = None
            seat.turn_bot = None


def person_view(seat, view):
    """The view a seat's person is sent: while a bot plays this turn for them, nothing to
    do (the bot plans from the whole view)."""
    if seat.turn_bot is None:
        return view
    shown = dict(view)
    shown["allowed"] = []
    return shown


def refuse_person(seat):
    """Raise BadMessage `bot_playing` for a person's action while a bot plays their turn."""
    if seat.turn_bot is not None:
        raise BadMessage("bot_playing", "a bot is playing this turn for you")
