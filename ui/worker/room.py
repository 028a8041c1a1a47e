"""The host's room: the one object the engine worker drives (docs/protocol.md "Room").

Pure Python: runs on Pyodide (the engine worker) and in CPython (tests). No `js`, no clock, no
I/O. Every entry point takes `now` (ms on the host's clock) and returns the messages to send
as a list of `(conn, text)`; its `*_out` twins (`receive_out`, `close_out`, `tick_out`,
`after_request`) return typed outputs `(conn, kind, message dict)`, which the engine worker
encodes once at its edge (ui/worker/engine.py). `conn` is any hashable id of a data
connection; `"local"` is the host's own screen (its seat), the only connection allowed
host-only messages.

The Room holds the state and the front door: every message is checked by the wire table
(ui/shared/wire.py TO_ROOM: fields, sender, phase) and goes to its handler (HANDLERS). Each
concept has its module: seats and the door (ui/worker/seats.py), spectators (spectators.py),
the lobby's host commands and leaving (lobby.py), the play: actions from seats and bots
through the engine (play.py), the fair deal (fairdeal.py, a `FairDeal`
the room holds), the outbox (outbox.py), saves (saves.py), the host handover
(succession.py) and names (names.py).
"""

import secrets

from crisp_core import is_card
from ui.shared import handover, roomcode, wire
from ui.shared.gate import Gate
from ui.shared.wire import (BOT_LEVELS, DEFAULT_OPTIONS, MAX_TEXT, VERSION,  # noqa: F401
                            BadMessage, parse)
from ui.worker import (away, guide, idle, lobby, outbox, play, reactions, saves, seats,
                       spectators, succession)
from ui.worker.fairdeal import CONTRIBUTE_MS, PROOF_ACTIONS, FairDeal  # noqa: F401
from ui.worker.names import MAX_NAME, check_name, clean_name  # noqa: F401
from ui.worker.outbox import LOG_KEEP, LOG_REPLAY  # noqa: F401
from ui.worker.play import bot_maker, check_action  # noqa: F401
from ui.worker.saves import check_saved, is_event  # noqa: F401
from ui.worker.away import GONE_MS, SILENT_MS  # noqa: F401
from ui.worker.seats import (LEFT_BOT, LOCAL, MAX_SEATS, RATE_BURST, RATE_PER_S,  # noqa: F401
                             SYNC_MS, Seat)
from ui.worker.spectators import MAX_SPECTATORS, SPECTATOR_SILENT_MS  # noqa: F401


def new_room_id():
    """A fresh room id, usable as a PeerJS id: "crisp-" + a room code (ui/shared/roomcode.py: 50
    random bits in 10 characters that friends can read out and type)."""
    return roomcode.room_id(roomcode.new_code(secrets.randbits))


def contribute(room, conn, msg, now):
    """A seat's contribution to the next deal (the fair deal's)."""
    return room.deal.contribute(room.conns[conn], msg, now)


def _typed(out):
    """The room's outputs [(conn, message dict)] as typed outputs [(conn, kind, message)]:
    what the edge (ui/worker/engine.py) encodes, once (ui/shared/wire.py `texts`)."""
    return [(conn, msg["type"], msg) for conn, msg in out]


# Each message a page sends (ui/shared/wire.py TO_ROOM) -> its handler(room, conn, msg, now).
HANDLERS = {
    "join": seats.join, "proof": seats.check_proof, "ping": seats.ping, "sync": seats.sync,
    "action": play.act, "contribute": contribute, "watch": spectators.watch,
    "sit": spectators.sit, "approve": spectators.approve, "leave": lobby.leave,
    "options": lobby.options, "start": lobby.start, "next_round": lobby.next_round,
    "add_bot": lobby.add_bot, "remove": lobby.remove, "stand_in": lobby.stand_in,
    "new_game": lobby.new_game, "react": reactions.react, "guide_read": guide.read,
    "bot_turn": lobby.bot_turn,
}
HOST_ONLY = tuple(kind for kind, row in wire.TO_ROOM.items() if row["from"] == "host")


class Room:
    """The host's room. See docs/protocol.md.

    `make_bot(level, seat)` (optional) returns a bot: an object with
    `plan(view, events, now) -> None | {"at": ms, "action": {...}}` (as crisp_core.bots.Bot),
    asked after every view the room builds for that seat. Without it, `add_bot` is refused.
    """

    def __init__(self, room_id, host_name, seed=None, deck=None, make_token=secrets.token_hex,
                 make_bot=None, succession=None):
        self.room_id = room_id
        # The secret the room's next ids derive from (handover.room_id_after): 16 random
        # bytes as hex, sent in `welcome` to seated people only, never to spectators.
        self.succession = succession if succession is not None else secrets.token_hex(16)
        self.redealt = None       # the round a host handover dealt again (from_public), or None
        # The first host's PeerJS token for the room's first id (ui/shared/door.py): only in
        # the save and the sealed box, so that a successor that opened the box can answer
        # the room's first link. None: no door (a room rebuilt without the box).
        self.door = None
        if not handover.is_secret(self.succession):
            raise ValueError("succession: %d hex digits" % handover.SECRET_HEX)
        # Without a seed every room would deal the same decks: draw one (64 bits).
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.deck = list(deck) if deck else None
        if self.deck is not None and (not all(is_card(c) for c in self.deck)
                                      or len(set(self.deck)) != len(self.deck)):
            raise ValueError("deck: distinct card codes only")
        self.deck_once = False    # the stacked deck deals round 1 only (the guided round's)
        self.guided = False       # the guided round (ui/worker/guide.py: its held windows)
        self.make_token = make_token
        self.make_bot = make_bot
        self.sliced_bots = False  # a searching bot thinks a slice per tick (the engine worker)
        self.options = dict(DEFAULT_OPTIONS)
        self.lang = "en"          # the bots' names' language (the host's: crisp_core/bot_names.py)
        self.seats = [Seat(check_name(host_name), self.new_token())]
        self.host = 0             # the host's seat ("local"): 0, or its successor's after a
                                  # handover (`from_handover`)
        self.game = None
        self.log = []             # engine events of the current round (for replays)
        self.history = []         # each finished round's points of this game, per seat
        self.games = 0            # games played to the end in this room
        self.peeks = {}           # seat -> its peek reveal of the current round
        self.conns = {}           # conn -> seat index
        self.buckets = {}         # conn -> [tokens, at, last rate_limited error] (flood control)
        self.reacted = {}         # seat -> [tokens, at]: its quick reactions' own rate
        self.peers = {}           # conn -> the remote PeerJS id (bound into the seat proofs)
        self.proving = {}         # conn -> a rejoin waiting for its seat proof (`seats.join`)
        self.gate = Gate()        # connections not seated yet (ui/shared/gate.py)
        self.dropped = []         # connections the page must close (`take_dropped`)
        self.spectators = {}      # conn -> {"seen": ms, "ask": None | {"seat", "name"},
                                  #          "follow": its follow token (32 hex)}
        self.followers = []       # the old room's spectators this room's host tells where
                                  # it went after a handover ([{"peer", "follow"}]: `moved`)
        self.seal_n = 0           # seals sent (`seal_out`): the newest box wins
        self.seal_checks = {}     # {str(n): seal.opened_check} of its last boxes (comeback.py)
        self.opened = None        # {"n", "check"}: the box a successor's room was opened from
        self.standby_check = None  # 64 hex: the designate's proof key when no box opens (comeback.py)
        self.derived = set()      # seats with a handover-derived token not yet replaced
        self.sealed_at = None     # when the last one went
        self.seal_dirty = False   # the room changed since it was last sealed
        self.host_left = False    # the host's player left: no box after its last (leave_out)
        self.unsaved = False      # it changed with nothing sent (a contribution): save it
        self.standby_sent = None  # (designate, its conn, tokens) the last `standby` was for
        self.moved = None         # (seat, ms): the last move applied (idle.turn_since)
        self.idle_told = None     # (seat, since): the waiting turn every screen was told of
        self.idle_ms = idle.IDLE_TURN_MS    # (idle.threshold: shorter for test pages' bots)
        self.now = 0
        self.deal = FairDeal(self)    # the committed shuffle of this round (or the next deal)

    @property
    def fair(self):
        """The fair deal's state (`FairDeal.state`): None or this round's commitment."""
        return self.deal.state

    @property
    def cheat(self):
        """Test builds only: "hand" | "deck", a host that cheats (FairDeal.cheat_now)."""
        return self.deal.cheat

    @cheat.setter
    def cheat(self, value):
        self.deal.cheat = value

    # ---- entry points -------------------------------------------------------------------

    def open(self, conn, now, peer=None):
        """A data connection from PeerJS id `peer` (the signaling server's word for who opened
        it) arrived; it gets a seat only with `join`, and must be seated within JOIN_MS
        (ui/shared/gate.py): the connections this pushes out are in `take_dropped()`."""
        self._clock(now)
        self.peers[conn] = peer if isinstance(peer, str) else ""
        for old in self.gate.admit(conn, peer, self.now):
            self.drop(old)
        return []

    def take_dropped(self):
        """The connections the room closed (not seated in time, pushed out by newer ones):
        the page closes them, without calling `close`. Empties the list."""
        out, self.dropped = self.dropped, []
        return out

    def close(self, conn, now):
        """A data connection closed: [(conn, text)] (`close_out`, encoded)."""
        return wire.texts(self.close_out(conn, now))

    def close_out(self, conn, now):
        """A data connection closed: its seat stays, marked not connected. Typed outputs."""
        now = self._clock(now)
        watcher = self.spectators.get(conn)
        self.forget(conn)
        seat = self.conns.pop(conn, None)
        if seat is None:
            if watcher is not None:
                # its request for a seat goes with it, and it leaves `watchers`
                return _typed(outbox.watchers_changed(self))
            return []
        self.seats[seat].conn = None
        if self.seats[seat].away_since is None:
            self.seats[seat].away_since = now
        return _typed(outbox.broadcast(self))

    def receive(self, conn, text, now):
        """One message from `conn`: [(conn, text)] (`receive_out`, encoded)."""
        return wire.texts(self.receive_out(conn, text, now))

    def receive_out(self, conn, text, now):
        """One message from `conn` (JSON text): the typed outputs [(conn, kind, message
        dict)]. Never raises: a refused message gets one `error` back."""
        now = self._clock(now)
        if conn != LOCAL and not seats.allow(self, conn, now):
            return _typed(seats.limited(self, conn, now))
        out = []
        try:
            if away.heard(self, conn, now):       # a seat back from away: everyone sees it
                out += outbox.broadcast(self)
            msg = parse(text)
            return _typed(out + self._dispatch(conn, msg, now))
        except BadMessage as e:
            return _typed(out + [(conn, self._refusal(e))])
        except Exception as e:    # a bug must not take the room down
            return _typed(out + [(conn, wire.error(
                "internal", "internal error: " + type(e).__name__))])

    def resumed(self, now):
        """The host page came back with this saved room (`from_dict`); its clock goes on from
        `now`, at least the saved one, so the engine's deadlines paused while the host was
        away. No connection survives a reload: every guest is away from `now` until it rejoins
        with its token, and its grace (GONE_MS) counts from here."""
        now = self._clock(now)
        self.conns = {}
        self.buckets = {}
        self.peers = {}
        self.proving = {}
        self.spectators = {}
        self.gate.clear()
        for index, seat in enumerate(self.seats):
            seat.conn = None
            seat.seen = None
            if index != self.host and seat.bot is None:
                seat.away_since = now
        return []

    def tick(self, now):
        """[(conn, text)]: `tick_out`, encoded."""
        return wire.texts(self.tick_out(now))

    def tick_out(self, now):
        """Fire the engine's deadlines, bots' moves and what is due for away players at `now`;
        send views if anything moved. Typed outputs."""
        now = self._clock(now)
        for conn in self.gate.expired(now):
            self.drop(conn)
        silent = [c for c in self.spectators
                  if now - self.spectators[c]["seen"] >= SPECTATOR_SILENT_MS]
        for conn in silent:
            self.drop(conn)                   # a watching tab that died without a word
        told = outbox.watchers_changed(self) if silent else []    # it leaves `watchers`
        changed = away.check_silence(self, now)
        changed = idle.crossed(self, now) or changed
        if self.deal.due(now):
            return _typed(told + self.deal.deal(now) + play.run_bots(self, now))
        if self.game is None:
            return _typed(outbox.broadcast(self)) if changed else _typed(told)
        return _typed(told + self.advance(now, changed) + play.run_bots(self, now))

    def next_wakeup(self):
        """When `tick` should run next (ms), or None."""
        times = []
        if self.deal.waiting_deal():
            times.append(self.deal.state["deadline"])
        door = self.gate.next_deadline()
        if door is not None:
            times.append(door)
        for watcher in self.spectators.values():
            times.append(watcher["seen"] + SPECTATOR_SILENT_MS)
        if self.game is not None:
            deadline = self.game.next_deadline()
            if deadline is not None:
                times.append(deadline)
            idle_at = idle.due_at(self)
            if idle_at is not None:
                times.append(idle_at)
        for index, seat in enumerate(self.seats):
            if seat.plan is not None:
                times.append(seat.plan["at"])
            if index == self.host or seat.bot is not None:
                continue
            if seat.away_since is None:
                if seat.conn is not None and seat.seen is not None:
                    times.append(seat.seen + SILENT_MS)
            else:
                due = away.forfeit_at(self, index)
                if due is not None:
                    times.append(due)
        return min(times) if times else None

    # ---- the front door: the wire table, then the handler --------------------------------

    def _dispatch(self, conn, msg, now):
        """Check `msg` against its row of the wire table (ui/shared/wire.py TO_ROOM): a known
        type, the sender (`not_host`, then after the fields `not_joined`, `not_watching`),
        the fields and their checks (`bad_message`), the phase (`started`, `not_started`,
        `not_over`); then run its handler."""
        if msg["type"] in wire.SHARE_TYPES:
            return []     # a late message of a handover's share exchange: it changes nothing
        row = wire.row_of(wire.TO_ROOM, msg)
        if row["from"] == "host" and conn != LOCAL:
            raise BadMessage("not_host", "only the host may do that")
        wire.check_fields(row, msg)
        if row["from"] == "seated" and conn not in self.conns:
            raise BadMessage("not_joined", "join the room first")
        if row["from"] == "watcher" and conn not in self.spectators:
            raise BadMessage("not_watching", "watch the game first")
        self._in_phase(row["phase"])
        return HANDLERS[msg["type"]](self, conn, msg, now)

    def _refusal(self, e):
        """The `error` refusing a message (BadMessage `e`); a message of another protocol
        version is told this room's version and the host's name, which a page of any
        version reads (docs/protocol.md "Room messages": who must reload)."""
        msg = wire.error(e.code, e.text)
        if e.code == "bad_version":
            msg.update(protocol=VERSION, host_name=self.seats[self.host].name)
        return msg

    def _in_phase(self, phase):
        if phase == "lobby" and (self.game is not None or self.deal.state is not None):
            raise BadMessage("started", "the game has already started")
        if phase == "game" and self.game is None:
            raise BadMessage("not_started", "the game has not started")
        if phase == "over" and (self.game is None or self.game.phase != "game_over"):
            raise BadMessage("not_over", "the game is not over")

    # ---- helpers for the concept modules -------------------------------------------------

    def drop(self, conn):
        """Close `conn` (the page closes it: `take_dropped`) and forget it."""
        self.forget(conn)
        self.dropped.append(conn)

    def forget(self, conn):
        """Forget what the room knows of connection `conn` but its seat."""
        self.spectators.pop(conn, None)
        self.buckets.pop(conn, None)
        self.peers.pop(conn, None)
        self.proving.pop(conn, None)
        self.gate.forget(conn)

    def new_token(self):
        """A fresh seat token (`make_token(16)`: 128 bits)."""
        return self.make_token(16)

    def _record(self, events):
        """Keep the round's record of `events` (outbox.record; a test room records more)."""
        outbox.record(self, events)

    def _clock(self, now):
        if now > self.now:
            self.now = now
        return self.now

    # ---- the concept modules' functions of the room, as its methods ----------------------

    apply = play.apply                      # one checked action through the engine
    advance = play.advance                  # what is due on the engine's clock
    watchers = spectators.watchers          # the spectators the next host tells (`moved`)
    to_dict = saves.to_dict                 # the whole room, JSON-safe
    from_dict = classmethod(saves.from_dict)
    seal_holders = succession.seal_holders
    seal_due = succession.seal_due
    sealed_state = succession.sealed_state
    designate = succession.designate
    standby_due = succession.standby_due
    from_handover = classmethod(succession.from_handover)
    from_public = classmethod(succession.from_public)

    def seal_out(self, now, randbytes=secrets.token_bytes):
        """The room sealed for the players: [(conn, text)] (succession.seal_out)."""
        return wire.texts(succession.seal_out(self, now, randbytes))

    def standby_out(self):
        """The designate's `standby`: [(conn, text)] (succession.standby_out)."""
        return wire.texts(succession.standby_out(self))

    def after_request(self, changed, now):
        """The sealing policy after a request that ran the room: the typed outputs of the
        seals and standby due (succession.after_request)."""
        return _typed(succession.after_request(self, changed, now))
