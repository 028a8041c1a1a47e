"""Spectators (docs/protocol.md "Spectators", "Spectators follow a handover"): connections
that watch without a seat get public information only, may ask for a seat (`sit`) that the
host gives (`approve`), and carry the follow token the room's next host proves its new id
with. Functions of the Room (ui/worker/room.py), which keeps `room.spectators` ({conn:
{"seen": ms, "ask": None | {"seat", "name"}, "follow": 32 hex}}); outputs are [(conn,
message dict)]. Room-only (the engine worker); pure Python, randomness from `secrets`.
"""

import secrets

from crisp_core import public_events
from ui.shared import comeback, gate, spectator_moves, wire
from ui.shared.wire import BadMessage
from ui.worker import outbox, seats
from ui.worker.names import clean_name, rename_bots
from ui.worker.outbox import LOG_REPLAY
from ui.worker.seats import LOCAL

MAX_SPECTATORS = 8            # connections watching without a seat (docs/protocol.md "Spectators")
SPECTATOR_SILENT_MS = 30000   # a spectator not heard from this long (10 pings) is closed


def watch(room, conn, msg, now):
    """A connection with no seat watches: it gets public information only (the lobby, or
    the spectator view and public events) and is not closed for being unseated; at most
    MAX_SPECTATORS at a time, two per remote peer (gate.spectator_to_evict: a newcomer may
    take a place of the peer holding the most; rate-limited like every connection)."""
    if conn == LOCAL or conn in room.conns or conn in room.proving:
        raise BadMessage("already_joined", "this connection already has a seat")
    out = []
    came = conn not in room.spectators
    if came:
        evict = gate.spectator_to_evict(list(room.spectators), room.peers, conn, MAX_SPECTATORS)
        if evict is None and len(room.spectators) >= MAX_SPECTATORS:
            room.drop(conn)
            return [(conn, wire.error("too_many_watchers", "too many people are watching"))]
        if evict is not None:
            room.drop(evict)
            out.append((evict, wire.error("too_many_watchers", "too many people are watching")))
        # its follow token: the room's next host proves the room's new id with it
        # (docs/protocol.md "Spectators follow a handover")
        room.spectators[conn] = {"seen": now, "ask": None, "follow": follow_token(room)}
        room.gate.joined(conn)
    out += [(conn, watching(room, conn))] + update(room, conn, replay=True)
    # everyone else hears who watches now (the `watchers` of the lobby or the view)
    return out + (outbox.watchers_changed(room, but=conn) if came else [])


def watching(room, conn):
    """The `watching` message to spectator `conn`: the room, its request for a seat, the
    host's seat, its follow token, the marks of the room's next ids and, in a successor's
    room, its proof that it opened the box (comeback.watching_proofs)."""
    watcher = room.spectators[conn]
    return wire.message("watching", room=room.room_id, ask=watcher["ask"], host=room.host,
                        follow=watcher["follow"],
                        **comeback.watching_proofs(room.room_id, room.succession, room.opened))


def follow_token(room):
    """A fresh follow token (16 random bytes as hex)."""
    return secrets.token_hex(spectator_moves.FOLLOW_HEX // 2)


def watchers(room):
    """The spectators the room's next host tells where the room went (`moved`): their
    PeerJS ids (as the signaling server named them) and the `moved` proofs this host made
    for the room's real next ids, [{"peer", "moved": [[id, mac]]}], at most
    spectator_moves.MAX_WATCHERS; kept in the sealed room and the designate's `standby`. No follow
    token leaves the host: a successor can forward only the true next id (attack 7)."""
    return spectator_moves.watchers([{"peer": room.peers.get(conn), "moved": spectator_moves.moved_entries(
        w["follow"], room.room_id, room.succession)} for conn, w in room.spectators.items()])


def update(room, conn, replay=False):
    """The lobby, or the spectator view (with the round's public events on `replay`)."""
    if room.game is None:
        return [(conn, outbox.lobby(room))]
    events = public_events(room.log)[-LOG_REPLAY:] if replay else []
    return [(conn, outbox.spectator_message(room, outbox.players(room), events))]


def sit(room, conn, msg, now):
    """A spectator asks for a seat: `seat` (an away person's, or one a bot plays) for the
    host to `approve`, or none: seated when the next game starts (`new_game`). In the
    lobby (no game, no deal under way) only without `seat` (`not_started` otherwise): a
    free seat is taken at once, as a `join` would; in a full lobby the spectator waits for
    the first seat to free up (the host removing a bot: `seat_waiting`), its name checked
    as a join's (`bad_name`, `name_taken`) before it waits."""
    watcher = room.spectators[conn]
    index = msg.get("seat")
    if room.game is None and room.deal.state is None:
        if index is not None:
            raise BadMessage("not_started", "the game has not started: join it")
        if len(room.seats) < seats.MAX_SEATS:
            return seats.take_seat(room, conn, None, msg["name"], now)
        name = seats.name_for(room, None, msg["name"])
        same_ask = watcher["ask"] == {"seat": None, "name": name}
        watcher["ask"] = {"seat": None, "name": name}
        # (the same request again tells nobody else: a repeated `sit` is no lobby flood)
        return [(conn, watching(room, conn))] + ([] if same_ask else outbox.broadcast(room))
    name = clean_name(msg["name"])
    if index is not None:
        if not seats.guest_seat(room, index):
            raise BadMessage("bad_message", "seat must be a guest's seat")
        if not open_seat(room, index):
            raise BadMessage("seat_taken", "that seat is played by someone who is here")
    watcher["ask"] = {"seat": index, "name": name}
    return [(conn, watching(room, conn))] + outbox.broadcast(room)


def open_seat(room, index):
    """A seat a spectator may take: not the host's, played by a bot, or its person away."""
    seat = room.seats[index]
    return index != room.host and (seat.bot is not None or seat.stand_in is not None
                                   or seat.away_since is not None)


def approve(room, conn, msg, now):
    """The host gives seat `seat` to the spectator asking for it: a new token (the seat's
    old one opens nothing any more), the seat's name, the current view and the round's
    log; a bot playing it stops."""
    index = msg["seat"]
    if not seats.guest_seat(room, index):
        raise BadMessage("bad_message", "seat must be a guest's seat")
    conn = asker(room, index)
    if conn is None:
        raise BadMessage("no_request", "nobody asks for that seat")
    if not open_seat(room, index):
        raise BadMessage("seat_taken", "that seat is played by someone who is here")
    name = room.spectators[conn]["ask"]["name"]
    out = []
    seat = room.seats[index]
    if seat.conn is not None:
        room.conns.pop(seat.conn, None)
        out.append((seat.conn, wire.kicked("replaced", "the host gave your seat away")))
    seat.conn = None
    seat.bot = None
    seat.stop_stand_in()
    seat.agent = None
    seat.plan = None
    seat.token = room.new_token()
    for other in room.spectators.values():
        if other["ask"] is not None and other["ask"]["seat"] == index:
            other["ask"] = None
    return out + seat_new(room, conn, index, name, now)


def asker(room, index):
    """The spectator asking for seat `index` (the first to ask), or None."""
    for conn, watcher in room.spectators.items():
        if watcher["ask"] is not None and watcher["ask"]["seat"] == index:
            return conn
    return None


def seat_waiting(room, now):
    """Seat the spectators waiting for a seat in the next game (`sit` without `seat`), in
    the order they asked, while the lobby has room: each gets a new seat and a `welcome`
    with its token. One whose name another person took meanwhile is not seated: it hears
    `name_taken` and its request ends (its page asks for another name). The caller sends
    the lobby after (outbox.broadcast)."""
    out = []
    for conn in list(room.spectators):
        ask = room.spectators[conn]["ask"]
        if ask is None or ask["seat"] is not None or len(room.seats) >= seats.MAX_SEATS:
            continue
        key = seats.name_key(ask["name"])
        if any(s.bot is None and seats.name_key(s.name) == key for s in room.seats):
            room.spectators[conn]["ask"] = None
            out += [(conn, wire.error("name_taken", "that name is taken: pick another one")),
                    (conn, watching(room, conn))]
            continue
        room.seats.append(seats.Seat(ask["name"], room.new_token()))
        index = len(room.seats) - 1
        out += seat_new(room, conn, index, ask["name"], now, tell=False)
    return out


def seat_new(room, conn, index, name, now, tell=True):
    """Seat spectator `conn` at seat `index` (its token already fresh): the welcome
    carries the token, as any new seat's."""
    seat = room.seats[index]
    seat.name = name
    seat.conn = conn
    seat.seen = now
    seat.away_since = None
    room.conns[conn] = index
    room.spectators.pop(conn, None)
    room.gate.joined(conn)
    rename_bots(room)         # a bot never has a person's name: the bot yields
    out = [(conn, seats.welcome(room, index, token=seat.token))]
    return out + (outbox.broadcast(room, replay_to=index) if tell else [])
