"""The lobby's host commands, and leaving (docs/protocol.md "Room messages" host-only,
"Leaving"): options, start, next round, new game, bots added and removed, a bot standing in
for an away person, and a page that leaves (the host's own: a handover). The wire table
(ui/shared/wire.py TO_ROOM) has checked each message's sender, fields and phase before these
run. Functions of the Room (ui/worker/room.py); outputs are [(conn, message dict)].
Room-only (the engine worker); pure Python.
"""

from crisp_core import Game, events_for, normalize_options, view_for
from ui.shared import wire
from ui.shared.wire import DEFAULT_OPTIONS, BadMessage
from ui.worker import idle, outbox, seats, spectators, succession
from ui.worker.names import bot_name, rename_bots
from ui.worker.seats import LEFT_BOT, LOCAL, MAX_SEATS, Seat


def options(room, conn, msg, now):
    """The host sets the lobby's options (any of target, draw_seconds, draw_from_discard;
    the others keep theirs), refused as the engine would refuse them (`bad_option`)."""
    chosen = dict(room.options)
    for key in DEFAULT_OPTIONS:
        if key in msg:
            chosen[key] = msg[key]
    try:
        normalize_options(dict(chosen, players=2))      # the engine's own check (R10)
    except ValueError as e:
        raise BadMessage("bad_option", str(e))
    room.options = chosen
    return outbox.broadcast(room)


def start(room, conn, msg, now):
    """The host starts the game (2 to 8 seats): the fair deal commits first when someone
    can check it, else round 1 is dealt at once."""
    if not 2 <= len(room.seats) <= MAX_SEATS:
        raise BadMessage("not_enough_players", "a game needs 2 to 8 players")
    if room.deal.wanted():
        return room.deal.begin(now)           # commit first, deal once contributions are in
    options = dict(room.options)
    options["players"] = len(room.seats)
    room.game = Game.new(options, seed=room.seed, deck=room.deck, dealer=0, now=now)
    if room.deck_once:
        # the guided round's stacked deal (crisp_core/guided.py) is round 1's only: every
        # later round and game is shuffled from the seed as any room's
        room.game.stack = None
        room.deck = None
        room.deck_once = False
    room.history = []
    out = outbox.broadcast(room)
    return out + outbox.after_change(room, room.game.deal_events(), now)


def next_round(room, conn, msg, now):
    """The host deals the next round (as the action `next_round` from its own seat)."""
    return room.apply(room.host, {"do": "next_round"}, now)


def new_game(room, conn, msg, now):
    """After game over: everyone back to the lobby, same seats, bots and options,
    scores reset (the game is gone). A fresh seed: the next game deals other decks."""
    room.game = None
    room.log = []
    room.peeks = {}
    room.history = []
    room.deal.reset()
    room.seed = (room.seed + 1) % (1 << 64)
    for index, seat in enumerate(room.seats):
        seat.stop_stand_in()
        seat.plan = None
        if seat.bot is not None and room.make_bot is not None:
            seat.agent = room.make_bot(seat.bot, index)      # a fresh memory
    for watcher in room.spectators.values():
        if watcher["ask"] is not None:
            watcher["ask"]["seat"] = None     # an away seat asked for: a seat in this game
    # Spectators who asked for a seat are seated in the new game, while there is room.
    return spectators.seat_waiting(room, now) + outbox.broadcast(room)


def add_bot(room, conn, msg, now):
    """The host seats a bot of level `level` at the next free seat (`room_full` at 8)."""
    if room.make_bot is None:
        raise BadMessage("no_bots", "bots are not available")
    if len(room.seats) >= MAX_SEATS:
        raise BadMessage("room_full", "the room is full")
    seat = Seat(bot_name(room), None, bot=msg["level"])
    room.seats.append(seat)
    seat.agent = room.make_bot(seat.bot, len(room.seats) - 1)
    return outbox.broadcast(room)


def remove(room, conn, msg, now):
    """The host removes a bot or a person from the lobby (its page hears `removed`)."""
    index = msg["seat"]
    if not seats.guest_seat(room, index):
        raise BadMessage("bad_message", "seat must be a guest's seat")
    return remove_seat(room, index, "removed", "the host removed you")


def remove_seat(room, index, code, text):
    """Take seat `index` out of the lobby; the seats after it move down."""
    out = []
    gone = room.seats.pop(index)
    if index < room.host:
        room.host -= 1            # (after a handover the host may sit after it)
    if gone.conn is not None:
        out.append((gone.conn, wire.kicked(code, text)))
    room.conns = {}
    for i, seat in enumerate(room.seats):
        if seat.conn is not None:
            room.conns[seat.conn] = i
    for i, seat in enumerate(room.seats):
        if i >= index and seat.conn is not None:
            # Seats after the removed one move down: tell them their new seat.
            out.append((seat.conn, seats.welcome(room, i)))
        if seat.bot is not None and seat.agent is not None:
            seat.agent = room.make_bot(seat.bot, i)     # (a bot keeps its name)
    # a friend waiting for a seat in the full lobby takes the one freed ("make room")
    return out + spectators.seat_waiting(room, room.now) + outbox.broadcast(room)


def stand_in(room, conn, msg, now):
    """A bot plays an away person's seat until that person is back (`seats.join`, `away.heard`).
    It starts from what that seat was shown this round (the round's events for it)."""
    index = msg["seat"]
    if not seats.guest_seat(room, index) or room.seats[index].bot is not None:
        raise BadMessage("bad_message", "seat must be a guest's seat")
    if room.make_bot is None:
        raise BadMessage("no_bots", "bots are not available")
    seat = room.seats[index]
    if seat.away_since is None:
        raise BadMessage("not_away", "that player is here")
    if seat.stand_in is not None:
        return []
    seat.stand_in = msg["level"]
    seat.agent = room.make_bot(seat.stand_in, index)
    seat.plan = outbox.plan(room, index, view_for(room.game, index, now),
                            events_for(room.log, index), now)
    return outbox.broadcast(room)


def bot_turn(room, conn, msg, now):
    """The host's `bot_turn`: a bot of `level` plays seat `seat`'s turn, from what that seat
    was shown this round; its person's view offers nothing meanwhile (so a move of theirs
    in flight is `stale`) and their own moves are refused (`bot_playing`) until the turn
    passes (idle.end_turns)."""
    index = msg["seat"]
    room.advance(now)             # what is due first: a turn that just passed is not offered
    idle.check_bot_turn(room, index, now)
    seat = room.seats[index]
    seat.turn_bot = (msg["level"], room.game.start_at)
    seat.agent = room.make_bot(msg["level"], index)
    seat.plan = outbox.plan(room, index, view_for(room.game, index, now),
                            events_for(room.log, index), now)
    return outbox.broadcast(room)


def leave(room, conn, msg, now):
    """A guest leaves: in the lobby its seat frees up; at the table a bot takes it for
    good (its token opens nothing any more). The leaving page hears `kicked` `left`."""
    if conn == LOCAL:
        if room.game is None:
            raise BadMessage("not_allowed", "the host's page closes the room itself")
        # The host leaves mid-game: every page hears it at once and hands the room over
        # to the designated successor without waiting for the host to count as gone
        # (docs/protocol.md "Host handover"), with the room sealed as it stands now.
        return succession.leave_out(room, now)
    if conn in room.spectators:
        room.forget(conn)
        return [(conn, wire.kicked("left", "you left"))] + outbox.broadcast(room)
    index = room.conns.get(conn)
    if index is None:
        raise BadMessage("not_joined", "join the room first")
    if room.game is None:
        return remove_seat(room, index, "left", "you left")
    seat = room.seats[index]
    room.conns.pop(conn, None)
    room.forget(conn)
    seat.conn = None
    seat.token = None
    seat.stop_stand_in()
    seat.away_since = now
    if room.make_bot is not None:
        seat.bot = LEFT_BOT
        seat.away_since = None
        seat.agent = room.make_bot(LEFT_BOT, index)
        seat.plan = outbox.plan(room, index, view_for(room.game, index, now),
                                events_for(room.log, index), now)
    out = [(conn, wire.kicked("left", "you left"))]
    return out + outbox.broadcast(room) + room.advance(now)
