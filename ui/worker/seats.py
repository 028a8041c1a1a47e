"""Seats and the door of the room (docs/protocol.md "Room messages", "Rejoining: the seat
proof", "Room"): `Seat`, joining (a first join's trust on first use, a rejoin's seat proof),
the seat a `join` gets and its name, and the flood control every connection passes first
(presence, silence and away seats' forfeits: ui/worker/away.py). Functions of the Room
(ui/worker/room.py); outputs are [(conn, message dict)]. Room-only (the engine worker); pure
Python.
"""

from ui.shared import linkspeed, proof, wire
from ui.shared.limits import MAX_PLAYERS
from ui.shared.wire import BadMessage, is_hex, is_int, same
from ui.worker import outbox
from ui.worker.names import check_name, clean_name, name_key, rename_bots

LOCAL = "local"               # the host's own screen: its seat, and host-only messages
MAX_SEATS = MAX_PLAYERS
RATE_BURST = 40               # messages a connection may send at once (token bucket) ...
RATE_PER_S = 10               # ... and per second after that; a person taps a few a second
RATE_ERROR_MS = 1000          # at most one `rate_limited` error a second to a flooding peer
SYNC_MS = 1000                # a seat's `sync` is answered at most once in this long
LEFT_BOT = "easy"             # the bot that takes a seat left at the table


class Seat:
    """One place at the table: a person (with a token) or a bot. A person's seat may be
    played by a bot standing in (`stand_in`, a level) while that person is away."""

    def __init__(self, name, token, bot=None):
        self.peer = None          # the PeerJS id whose first join made this seat (not saved)
        self.page = None          # ... and the `page` id that join gave (not saved)
        self.name = name
        self.token = token
        self.bot = bot            # None or a bot level
        self.stand_in = None      # a person's seat played by a bot of this level meanwhile
        self.turn_bot = None      # (level, the turn's start): a bot plays this one turn for
                                  # the person here (the host's `bot_turn`: idle.py; not saved)
        self.conn = None          # the data connection now playing this seat
        self.n = 0                # views sent to this seat
        self.allowed = None       # the `allowed` of the last view sent ...
        self.allowed_n = 0        # ... and the view that brought it: older actions are stale
        self.agent = None         # the bot object (saved with its own to_dict)
        self.plan = None          # the bot's next move: {"at": ms, "action": {...}}
        self.seen = None          # when its connection was last heard from (ms)
        self.synced = None        # when its last `sync` was answered (ms)
        self.away_since = None    # when it went away (closed or silent), None while here
        self.wins = 0             # games this seat won in this room (kept across new_game)
        self.slow = False         # its link is slow, from the round trip its pings report
                                  # (ui/shared/linkspeed.py; not saved)

    @property
    def token(self):
        """The seat's token (32 hex), or None (a bot's, a seat left for good)."""
        return self._token

    @token.setter
    def token(self, token):
        # A seat whose token changes has changed hands (`approve`), lost its person
        # (`leave`) or had a derived token replaced: the ids of the first join that made it
        # name nobody here any more (else the previous person's page takes it back,
        # `same_person`, with the new person's token, and kicks them).
        if token != getattr(self, "_token", None):
            self.peer = self.page = None
        self._token = token

    def to_dict(self):
        save = getattr(self.agent, "to_dict", None)
        return {"name": self.name, "token": self.token, "bot": self.bot, "n": self.n,
                "stand_in": self.stand_in, "agent": save() if save is not None else None,
                "plan": self.plan, "wins": self.wins}

    def stop_stand_in(self):
        """The person is back: the bot standing in for them stops."""
        if self.stand_in is not None:
            self.stand_in = None
            self.agent = None
            self.plan = None


def allow(room, conn, now):
    """A token bucket per connection: RATE_BURST messages at once, RATE_PER_S a second
    after that (never reached by a person: pings every 3 s, a few taps a second)."""
    bucket = room.buckets.get(conn)
    if bucket is None:
        bucket = room.buckets[conn] = [float(RATE_BURST), now, None]
    tokens = min(float(RATE_BURST), bucket[0] + (now - bucket[1]) * RATE_PER_S / 1000.0)
    bucket[1] = now
    if tokens < 1:
        bucket[0] = tokens
        return False
    bucket[0] = tokens - 1
    return True


def limited(room, conn, now):
    """A message over the rate is dropped unread; its sender hears so at most once a
    second (answering every message of a flood would only double it)."""
    bucket = room.buckets[conn]
    if bucket[2] is not None and now - bucket[2] < RATE_ERROR_MS:
        return []
    bucket[2] = now
    return [(conn, wire.error("rate_limited", "too many messages: slow down"))]


def join(room, conn, msg, now):
    """A first join (no `seat_id`: a new seat, its token in the welcome, trust on first
    use) or a rejoin: `seat_id` names the seat (proof.seat_id of its token) and `nonce` is
    the guest's; the room answers a `challenge` with its proof that it knows the token and
    seats the connection once the guest's `proof` checks out (`check_proof`)."""
    name = clean_name(msg["name"])
    bound = room.conns.get(conn)
    if "seat_id" in msg or "nonce" in msg:
        if conn == LOCAL or "seat_id" not in msg or "nonce" not in msg:
            raise BadMessage("bad_message", "seat_id and nonce: 32 hex digits each")
        if bound is not None:
            raise BadMessage("already_joined", "this connection already has a seat")
        return challenge(room, conn, name, msg["seat_id"], msg["nonce"])
    seat = room.host if conn == LOCAL else None
    if bound is not None and bound != seat:
        raise BadMessage("already_joined", "this connection already has a seat")
    if conn != LOCAL and conn in room.proving:
        raise BadMessage("already_joined", "this connection is proving a seat")
    if conn != LOCAL:
        again = same_person(room, room.peers.get(conn, ""), msg.get("page"))
        if again is not None:     # the same page joining again: its seat, never name_taken
            return take_seat(room, conn, again, name, now, fresh=True)
    out = take_seat(room, conn, seat, name, now)
    index = room.conns.get(conn)
    if conn != LOCAL and index is not None and room.seats[index].peer is None:
        room.seats[index].peer = room.peers.get(conn) or None
        room.seats[index].page = msg.get("page")
    return out


def same_person(room, peer, page):
    """The guest seat that a first join from PeerJS id `peer` with page id `page` (hex(32) or
    None) comes back to, or None: the seat a first join with that same `page` made (one
    page, one person, whenever it joins again: a join that waited for the engine, a
    connection made afresh), or in the lobby the seat the same `peer` made (one Peer is one
    page). Never the host's seat or a bot's; a rejoin with a token goes through the seat
    proof instead. A seat's ids are its first person's only: a new token (`approve`,
    `leave`, a derived one replaced, `Seat.token`) or a proven rejoin clears them."""
    for index, seat in enumerate(room.seats):
        if index == room.host or seat.bot is not None or seat.token is None:
            continue
        if is_hex(page, 32) and seat.page is not None and same(seat.page, page):
            return index
        if room.game is None and peer and seat.peer is not None and same(seat.peer, peer):
            return index
    return None


def challenge(room, conn, name, seat_id, guest_nonce):
    """Answer a rejoin with the room's nonce and its proof that it knows that seat's
    token (the guest checks it before it trusts anything from this peer)."""
    index = seat_of_id(room, seat_id)
    if index is None:
        raise BadMessage("no_seat", "no seat of this room has that id")
    token = room.seats[index].token
    host_nonce = room.make_token(16)
    peer = room.peers.get(conn, "")
    room.proving[conn] = {"token": token, "name": name, "seat_id": seat_id,
                          "guest_nonce": guest_nonce, "host_nonce": host_nonce}
    mac = proof.host_mac(token, room.room_id, peer, seat_id, guest_nonce, host_nonce)
    return [(conn, wire.message("challenge", nonce=host_nonce, mac=mac))]


def check_proof(room, conn, msg, now):
    """The guest's answer to `challenge`: right, it gets its seat back; wrong, the
    exchange is over (a new join starts another)."""
    pending = room.proving.pop(conn, None)
    if pending is None:
        raise BadMessage("not_joined", "no seat proof was asked of this connection")
    token = pending["token"]
    expected = proof.guest_mac(token, room.room_id, room.peers.get(conn, ""),
                               pending["seat_id"], pending["guest_nonce"],
                               pending["host_nonce"])
    if not is_hex(msg["mac"], proof.MAC_HEX) or not same(msg["mac"], expected):
        raise BadMessage("bad_proof", "the seat proof is wrong")
    seat = seat_of_token(room, token)
    if seat is None:                        # removed meanwhile
        raise BadMessage("no_seat", "that seat is gone")
    # a proven page holds its token: its first join's ids open nothing any more
    room.seats[seat].peer = room.seats[seat].page = None
    fresh = seat in room.derived
    if fresh:
        # a token derived at a handover, which the old host can derive too: this seat gets a
        # fresh one over this proven connection, the derived one opens nothing (attack 5)
        room.derived.discard(seat)
        room.seats[seat].token = room.new_token()
    return take_seat(room, conn, seat, pending["name"], now, fresh)


def take_seat(room, conn, seat, name, now, fresh=False):
    """Seat `conn`: at `seat` (the host's own, or a proven rejoin) or, for None, at a new
    seat (lobby only). Only a new seat's welcome carries its token, and a proven seat's
    whose derived token was just replaced (`fresh`: after a handover)."""
    out = []
    name = name_for(room, seat, name)
    new = seat is None
    if new:
        if room.game is not None:
            return [(conn, wire.kicked("started", "the game has already started"))]
        if len(room.seats) >= MAX_SEATS:
            return [(conn, wire.kicked("room_full", "the room is full"))]
        room.seats.append(Seat(name, room.new_token()))
        seat = len(room.seats) - 1
    old = room.seats[seat].conn
    if old is not None and old != conn:
        # R: a second connection with the same token takes the seat over.
        room.conns.pop(old, None)
        out.append((old, wire.kicked("taken_over", "this seat was opened elsewhere")))
    room.seats[seat].conn = conn
    room.seats[seat].name = name
    room.seats[seat].seen = now
    room.seats[seat].away_since = None
    room.seats[seat].stop_stand_in()
    room.conns[conn] = seat
    room.spectators.pop(conn, None)
    room.gate.joined(conn)
    rename_bots(room)         # a bot never has a person's name: the bot yields
    if new or fresh:          # trust on first use, or a handover's derived token replaced
        out.append((conn, welcome(room, seat, token=room.seats[seat].token)))
    else:                     # a proven rejoin, or the host's own seat: no token
        out.append((conn, welcome(room, seat)))
    out += outbox.broadcast(room, replay_to=seat)
    return out


def sync(room, conn, msg, now):
    """A seated guest missed a message (a gap in its views' `n`, or a pong naming a newer
    one): send it the room as it is now, as to a rejoining seat (its view, with the
    round's last public events to start its log over: `replay`), or the lobby. At most
    once per SYNC_MS per seat (`rate_limited` otherwise); changes nothing in the room."""
    index = room.conns[conn]
    seat = room.seats[index]
    if seat.synced is not None and now - seat.synced < SYNC_MS:
        raise BadMessage("rate_limited", "asked for the room too often")
    seat.synced = now
    if room.game is None:
        return [(conn, outbox.lobby(room))]
    return outbox.views(room, [], now, replay_to=index, only=index)


def name_for(room, seat, name):
    """The name `seat` (None: a new seat) gets from a `join` saying `name`. Once the game
    has started a seat's name is frozen: a rejoin keeps it whatever `join` says. In the
    lobby the name is cleaned (`clean_name`) and refused (`name_taken`) when it equals
    another person's (`name_key`: case-folded, NFKC) or has the bots' old form (`Bot 3`);
    a bot with that name takes another (`rename_bots`)."""
    if room.game is not None:
        if seat is None:
            return clean_name(name)           # (refused: the game has started)
        if not isinstance(name, str):
            raise BadMessage("bad_name", "the name must be text")
        return room.seats[seat].name
    name = check_name(name)
    key = name_key(name)
    for index, other in enumerate(room.seats):
        if index != seat and other.bot is None and name_key(other.name) == key:
            raise BadMessage("name_taken", "that name is taken: pick another one")
    return name


def welcome(room, seat, token=None):
    """The `welcome` to the person at `seat` (a proven seat only: never a spectator):
    its seat, the room id, the host's seat and the room's succession secret
    (handover.room_id_after), with the seat's token only when it is new, and `redealt`
    while the round a handover dealt again (`from_public`) lasts."""
    msg = wire.welcome(seat, room.room_id, room.host, room.succession, token)
    if room.redealt is not None and room.game is not None and room.game.round == room.redealt:
        msg["redealt"] = room.redealt     # why the round starts over: the screens say it
    return msg


def seat_of_id(room, seat_id):
    """The guest seat whose token's public id is `seat_id`, or None (never the host's)."""
    for index, seat in enumerate(room.seats):
        if index != room.host and seat.token is not None \
                and same(proof.seat_id(seat.token), seat_id):
            return index
    return None


def seat_of_token(room, token):
    """The guest seat whose token is `token`, or None (never the host's)."""
    if not token:
        return None
    for index, seat in enumerate(room.seats):
        if index != room.host and seat.token is not None \
                and same(seat.token, token):
            return index
    return None


def guest_seat(room, index):
    """True for a seat of this room that is not the host's."""
    return is_int(index) and 0 <= index < len(room.seats) and index != room.host


def ping(room, conn, msg, now):
    """A guest's heartbeat: `pong` with its `t`; to a seat at the table, also the `n` of its
    last view (a guest that missed one asks: `sync`). Its `rtt` (ms, the round trip its page
    measures) says whether that seat's link is slow (linkspeed.is_slow, with hysteresis):
    when that changes, every screen hears it (its `players` entry's `slow`)."""
    seat = room.conns.get(conn)
    out = []
    if seat is not None:
        rtt = linkspeed.reported(msg.get("rtt"))
        place = room.seats[seat]
        slow = linkspeed.is_slow(place.slow, rtt)
        if slow != place.slow:
            place.slow = slow
            out = outbox.people_changed(room)
    if seat is not None and room.game is not None:
        return [(conn, wire.message("pong", t=msg["t"], n=room.seats[seat].n))] + out
    return [(conn, wire.message("pong", t=msg["t"]))] + out
