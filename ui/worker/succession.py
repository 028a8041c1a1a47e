"""Succession: the room's part in a host handover (docs/protocol.md "Host handover"). While
the game is played the room is sealed for the players (`seal_out`: ui/shared/seal.py) and the
designated successor gets its `standby` tokens, by the sealing policy run after every request
(`after_request`); the successor's engine makes the room again from the sealed
box (`from_handover`) or, when the box cannot be opened, from what every page knows
(`from_public`). Functions of the Room (ui/worker/room.py); outputs are [(conn, message
dict)]. Room-only (the engine worker); pure Python, randomness from `secrets`.
"""

import random
import secrets

from crisp_core import Bot, Game
from crisp_core import bots as _bots
from ui.shared import comeback, handover, seal, spectator_moves, wire
from ui.shared.wire import BOT_LEVELS, DEFAULT_OPTIONS, MAX_TEXT, is_hex, is_int
from ui.worker import outbox, saves, spectators
from ui.worker.names import clean_name
from ui.worker.away import GONE_MS
from ui.worker.seats import LEFT_BOT, LOCAL, MAX_SEATS, Seat

def seal_holders(room):
    """The seats that hold a share of the sealed room: people other than the host, here
    now (not bots, not away, not spectators)."""
    return [i for i, s in enumerate(room.seats)
            if i != room.host and s.bot is None and s.conn is not None
            and s.away_since is None]


def seal_due(room, now):
    """True when a game is on and two or more people could hold shares: the room is then
    sealed (`seal_out`) with every change, until its host left (`leave_out`). (`now`: ms,
    the request's; kept for callers.)"""
    return room.game is not None and len(seal_holders(room)) >= seal.THRESHOLD \
        and not room.host_left


def sealed_state(room, randbytes=secrets.token_bytes):
    """What the sealed box holds (docs/protocol.md "Host handover"): `to_dict()` with each
    bot's random state (2.5 KB of Mersenne Twister state a bot, incompressible) replaced
    by a fresh 64-bit seed ({"seed": n}) its next host seeds it with: the bot keeps its
    memory (the cards it saw), only its future whims differ. Everything else, the round's
    journal and log included, is kept: the successor sends the round's proof and
    replays the log to rejoining seats."""
    state = saves.to_dict(room)
    for key in ("seal_checks", "opened", "derived", "standby_check"):
        state.pop(key, None)      # this room's own proofs: not for whoever opens the box
    for seat in state["seats"]:
        agent = seat.get("agent")
        if isinstance(agent, dict) and "rng" in agent:
            seat["agent"] = dict(agent, rng={"seed": int.from_bytes(randbytes(8), "big")})
    state["watchers"] = spectators.watchers(room)
    return state


def seal_out(room, now, randbytes=secrets.token_bytes):
    """The room sealed for the players (ui/shared/seal.py): one `sealed` message to each holder
    with the box (the same for all; `sealed_state`), that seat's own share, never
    another's, and the keys with which every other holder's page, as successor, proves
    itself to this one (ui/shared/handover.py `successor_key`); nothing to spectators, bots or
    the host's own screen. [] when fewer than two could hold it, or when the message would
    pass MAX_TEXT even with the bots' memories left out (then the bots start afresh)."""
    holders = seal_holders(room)
    if room.game is None or len(holders) < seal.THRESHOLD or room.host_left:
        return []
    return _sealed(room, now, holders, randbytes)[0]


def _sealed(room, now, holders, randbytes):
    """(the `sealed` outputs to the guests among `holders`, {seat: share}) of a new box
    sealed for `holders` (the host's seat may be one: `leave_out`), or ([], {})."""
    room.seal_n += 1
    room.sealed_at = now
    state = sealed_state(room, randbytes)
    guests = [i for i in holders if i != room.host]
    for attempt in (0, 1):
        check = {}
        box, shares = seal.seal_room(state, room.room_id, room.seal_n, holders, randbytes,
                                     check=check)
        out = [(room.seats[i].conn, wire.encoded(wire.message(
            "sealed", box=box, share=shares[i], host=room.host,
            keys={str(j): handover.successor_key(room.seats[j].token, room.room_id, i)
                  for j in guests if j != i})))
            for i in guests]
        if out and max(len(msg.text) for _, msg in out) <= MAX_TEXT:
            room.seal_checks = comeback.keep_check(room.seal_checks, room.seal_n,
                                                   check["opened"])
            return out, shares
        for seat in state["seats"]:
            seat["agent"], seat["plan"] = None, None
    return [], {}


def leave_out(room, now, randbytes=secrets.token_bytes):
    """The host's player leaves mid-game (its own screen's `leave`, docs/protocol.md
    "Leaving"): the room as it stands now is sealed for the people here and for the host's
    own seat, and every connection hears `host_leaving`; the designated successor's alone
    carries the host's share of that box (`n`, `share`), so that with its own share it
    opens the box at once and the round goes on where it stopped, even with one person
    left (a host that merely goes silent hands over no share: then two people must remain).
    The successor reads the room it is about to host anyway; no other page gets a second
    share. No box is sealed after this one (`host_left`): the successor's is the last.
    Returns the outputs: the `sealed`, then the `host_leaving`."""
    out, share, successor = [], None, designate(room)
    guests = seal_holders(room)
    if successor is not None and successor in guests and not room.host_left:
        out, shares = _sealed(room, now, guests + [room.host], randbytes)
        share = shares.get(room.host) if out else None
    room.host_left = True
    room.seal_dirty = False
    to = room.seats[successor].conn if successor is not None else None
    for c in list(room.conns) + list(room.spectators):
        if c == LOCAL:
            continue
        if c == to and share is not None:
            out.append((c, wire.message("host_leaving", host=room.host, n=room.seal_n,
                                        share=share)))
        else:
            out.append((c, wire.message("host_leaving", host=room.host)))
    return out


def after_request(room, changed, now):
    """The sealing policy, after each request that ran the room (`changed`: the room
    changed, so its save and its seal are stale): the room sealed for the players with
    every change, in the same reply as the change's views (a move any page has seen applied
    is in the box the holders keep: a host that sleeps right after it hands over a box
    with it), and the designated successor's `standby` when the designate or the seats
    changed. Returns those outputs."""
    room.seal_dirty = room.seal_dirty or changed
    out = []
    if room.seal_dirty and seal_due(room, now):
        out = seal_out(room, now)
        room.seal_dirty = False
    if standby_due(room):
        out += standby_out(room)
    return out


def designate(room):
    """The seat that would host next if the host went now (ui/shared/handover.py
    `successor` over the players list every page gets), or None."""
    return handover.successor(outbox.players(room), room.host)


def standby_due(room):
    """True when the designated successor has not got this room's `standby` tokens for
    the seats as they are now (`standby_out`)."""
    return room.game is not None and standby_key(room) != room.standby_sent


def standby_key(room):
    seat = designate(room)
    if seat is None or room.seats[seat].conn is None:
        return None
    return (seat, room.seats[seat].conn,
            tuple(s.token for s in room.seats if s.bot is None),
            tuple((room.peers.get(c), w["follow"]) for c, w in room.spectators.items()))


def standby_out(room):
    """The designated successor's `standby`: {"seat": its seat, "tokens": {seat: the
    seat's token in a room it hosts after a handover (handover.next_token)}} for every
    person's seat (the old host's too). Only that seat's connection gets it, and the
    tokens serve only in a room that seat hosts: it needs them when the sealed room
    cannot be opened (`from_public`) so that the old host and away players can still
    prove their seats there; no one else can use them. [] when there is no designate."""
    key = standby_key(room)
    room.standby_sent = key
    if key is None:
        return []
    seat = key[0]
    tokens = {str(i): handover.next_token(s.token, room.room_id, seat)
              for i, s in enumerate(room.seats) if s.bot is None and s.token is not None}
    if room.standby_check is None:
        room.standby_check = secrets.token_hex(32)     # kept in the save (comeback.py)
    return [(room.seats[seat].conn, wire.message("standby", seat=seat, tokens=tokens,
                                              watchers=spectators.watchers(room),
                                              check=room.standby_check))]


def from_handover(cls, d, seat, now, new_id=None, make_token=secrets.token_hex,
                  make_bot=None, load_bot=Bot.from_dict, after_seal=0):
    """The room `d` (its old host's `sealed_state`, opened from the sealed box,
    ui/shared/seal.py) hosted from now on by the page of `seat` (ui/shared/handover.py
    `successor`) at PeerJS id `new_id` (handover.room_id_after; the room's id from now on):
    every seat, name, bot, option and score, the dealer rotation and the round in play
    exactly where it stopped. Every person's token becomes `handover.next_token(token, old
    id, seat)`, which that person's page derives from its own: the old host's seat is a
    guest's seat now, its person rejoins it through the seat proof. Every other person is
    away from `now` until it rejoins; the clock goes on from the saved one (the page sets
    its epoch so), so no deadline ran out while nobody hosted. `after_seal` (ms, an int >=
    0): how long the old host still ran after it sealed `d`; the clock goes on from that
    much past the sealed reading, so a turn's timer resumes where it was when the host went
    silent (ValueError when it is not such an int). A bot sealed with a seed instead of its
    random state is seeded with it. Raises ValueError when `seat` is not a person's seat
    other than the old host's (or `d` is not a room)."""
    def load(agent):
        rng = agent.get("rng") if isinstance(agent, dict) else None
        if isinstance(rng, dict) and set(rng) == {"seed"} and is_int(rng["seed"]):
            agent = dict(agent, rng=_bots._rng_state(random.Random(rng["seed"])))
        return load_bot(agent)

    d = dict(d)
    followers = spectator_moves.watchers(d.pop("watchers", None))
    if not is_int(after_seal) or after_seal < 0:
        raise ValueError("after_seal: ms as an int >= 0")
    room = cls.from_dict(d, make_token=make_token, make_bot=make_bot, load_bot=load)
    room.now += after_seal
    room.followers = followers
    old = room.host
    if not is_int(seat) or not 0 <= seat < len(room.seats) or seat == old \
            or room.seats[seat].bot is not None:
        raise ValueError("the new host must be a person's seat other than the old host's")
    old_id = room.room_id
    for s in room.seats:
        if s.bot is None:
            s.token = handover.next_token(s.token, old_id, seat)
    # the old host could derive these too: each gets a fresh one once proved (attack 5)
    room.derived = set(i for i, s in enumerate(room.seats) if s.bot is None and i != seat)
    if new_id is not None:
        if not spectator_moves.is_peer_id(new_id):
            raise ValueError("new room id")
        room.room_id = new_id
    room.host = seat
    room.seats[seat].stop_stand_in()
    room.seats[seat].away_since = None
    room.resumed(now)
    # The old host has been gone for the pages' whole gone time already: its grace is
    # over, so the room plays its part at once (its turn times out, R2.4) instead of
    # holding the table another GONE_MS. It rejoins its seat whenever it comes back.
    room.seats[old].away_since = room.now - GONE_MS
    return room


def from_public(cls, room_id, seat, players, options, scores, dealer, round_no, now,
                seed=None, tokens=None, make_token=secrets.token_hex, make_bot=None,
                succession=None):
    """A room rebuilt by seat `seat` from what every page knows (the last view and
    players list) when the sealed room cannot be opened (fewer than two players left to
    open it): the same seats and names, the options, the scores of the finished rounds,
    and the interrupted round dealt again (same number and dealer, a new seed).
    `players`: [{seat, name, bot}]. `tokens`: {seat (text): token}, the `standby` tokens
    the old host gave this seat (handover.next_token, bound to this seat): a person's
    seat with one stays that person's (away until it rejoins through the seat proof, the
    old host's too); every other seat is played by a bot. `room_id`: the room's new id.
    `succession`: the room's succession secret (`welcome`), kept so that every page
    names the same next id. Raises ValueError for bad input (a malformed secret too)."""
    if not handover.is_secret(succession):
        raise ValueError("succession: the room's secret")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_SEATS:
        raise ValueError("players: 2 to 8 seats")
    if not is_int(seat) or not 0 <= seat < len(players):
        raise ValueError("seat must be one of the players'")
    tokens = tokens if isinstance(tokens, dict) else {}
    room = cls(room_id, players[seat].get("name") or "?", seed=seed, make_token=make_token,
               make_bot=make_bot, succession=succession)
    room.seats = []
    seen = set()
    for index, p in enumerate(players):
        p = p if isinstance(p, dict) else {}
        name = clean_name(p.get("name") or "Bot " + str(index))
        token = tokens.get(str(index))
        person = is_hex(token, 32) and token not in seen   # (a person's seat:
        # `standby` has tokens for people only; the list shows a stand-in as a bot)
        if index == seat:
            room.seats.append(Seat(name, token if person else room.new_token()))
            seen.add(room.seats[-1].token)
            continue
        if person:
            seen.add(token)
            person_seat = Seat(name, token)
            person_seat.away_since = now          # until it rejoins
            room.seats.append(person_seat)
            room.derived.add(index)               # a fresh token once proved (attack 5)
            continue
        level = p.get("bot") if p.get("bot") in BOT_LEVELS else LEFT_BOT
        bot = Seat(name, None, bot=level)
        if make_bot is not None:
            bot.agent = make_bot(level, index)
        room.seats.append(bot)
    room.host = seat
    room.options = dict(DEFAULT_OPTIONS)
    for key in DEFAULT_OPTIONS:
        if key in (options or {}):
            room.options[key] = options[key]
    game_options = dict(room.options, players=len(players))
    room.game = Game.new(game_options, seed=room.seed, deck=room.deck, dealer=dealer,
                         scores=list(scores), now=now, round_number=round_no)
    room.now = now
    room.redealt = room.game.round
    room._record(room.game.deal_events())
    return room
