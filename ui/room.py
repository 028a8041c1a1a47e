"""The host's room: lobby, seats, tokens and the wire around the rules engine.

Pure Python: runs on Pyodide (the host page) and in CPython (tests). No `js`, no clock, no I/O.
Every entry point takes `now` (ms on the host's clock) and returns the messages to send as a
list of `(conn, text)`. `conn` is any hashable id of a data connection; `"local"` is the host's
own screen (seat 0), the only connection allowed host-only messages.

Contract: docs/protocol.md ("Room messages", "Room").
"""

import json
import random
import secrets

from crisp_core import Bot, Game, IllegalAction, events_for, is_card, normalize_options, view_for
from crisp_core import shuffle
from crisp_core.actions import ActionError, check_shape
from ui import proof
from ui import roomcode
from ui.gate import Gate

VERSION = 1
LOCAL = "local"
MAX_TEXT = 16 * 1024          # bytes, both ways
MAX_NAME = 20
MAX_BRACKETS = 64          # [ and { in one incoming message (real ones have a handful)
MAX_SEATS = 8
LOG_REPLAY = 40               # public events of the round replayed to a (re)joining seat
LOG_KEEP = 300                # events of the round the room keeps for replays
SILENT_MS = 9000              # a guest not heard from this long is away: 3 missed pings (every
                              # 3 s), so a closed tab or a dead phone shows within 10 s
GONE_MS = 20000               # the grace: away this long while the game waits for it, the room
                              # plays its part (peek confirmed, turns timed out) until it is back
RATE_BURST = 40               # messages a connection may send at once (token bucket) ...
RATE_PER_S = 10               # ... and per second after that; a person taps a few a second
RATE_ERROR_MS = 1000          # at most one `rate_limited` error a second to a flooding peer
SYNC_MS = 1000                # a seat's `sync` is answered at most once in this long
BOT_LEVELS = ("easy", "hard")
DEFAULT_OPTIONS = {"target": 100, "draw_seconds": None, "draw_from_discard": False}
HOST_ONLY = ("options", "start", "next_round", "add_bot", "remove", "stand_in", "new_game")
CONTRIBUTE_MS = 3000          # how long the deal waits for guests' contributions at most
PROOF_ACTIONS = 150           # a round's inputs per `proof` message (each one stays < 16 KB)
CHEATS = ("hand", "deck")     # test builds only (?cheat=): what a cheating host changes


def new_room_id():
    """A fresh room id, usable as a PeerJS id: "crisp-" + a room code (ui/roomcode.py: 50
    random bits in 10 characters that friends can read out and type)."""
    return roomcode.room_id(roomcode.new_code(secrets.randbits))


def _card_points(card):
    return 1 if card[0] == "A" else 10 if card[0] in "TJQK" else int(card[0])


def fair_from_dict(data):
    """The saved state of a committed shuffle (`Room.to_dict()["fair"]`), checked; None when
    absent or malformed (an old save, a broken one: the round goes on without a proof)."""
    if not isinstance(data, dict):
        return None
    try:
        ok = (shuffle.is_hex(data["secret"], shuffle.SECRET_BYTES)
              and _is_int(data["round"]) and _is_number(data["deadline"])
              and isinstance(data["asked"], list) and all(_is_int(i) for i in data["asked"])
              and isinstance(data["contributions"], list)
              and all(isinstance(c, list) and len(c) == 2 and _is_int(c[0])
                      and shuffle.is_hex(c[1], shuffle.CONTRIBUTION_BYTES)
                      for c in data["contributions"])
              and isinstance(data["dealt"], bool)
              and (data["info"] is None or isinstance(data["info"], dict)))
    except (KeyError, TypeError):
        return None
    if not ok or (data["dealt"] and data["info"] is None):
        return None
    fair = dict(data)
    fair["commitment"] = shuffle.commitment(fair["secret"])
    return fair


def bot_maker(seed, pace=1.0):
    """A `make_bot` for Room: crisp_core bots, each with its own `random.Random` seeded from
    the room's seed and its seat (never the global random). `pace` scales their think times
    (1: a person's pace; the host page's test-only `?botpace=`)."""
    def make_bot(level, seat):
        return Bot(seat, level, random.Random("crisp-bot:%s:%d" % (seed, seat)), pace)
    return make_bot


class BadMessage(Exception):
    """A message refused before it reaches the engine; becomes one `error` to its sender."""

    def __init__(self, code, text):
        Exception.__init__(self, text)
        self.code = code
        self.text = text


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x):
    return (isinstance(x, (int, float)) and not isinstance(x, bool)
            and x == x and x not in (float("inf"), float("-inf")))


def _fields(msg, required, optional=()):
    """Refuse a message missing a required field or holding an unknown one."""
    allowed = set(required) | set(optional) | {"type", "v"}
    for key in required:
        if key not in msg:
            raise BadMessage("bad_message", "missing field: " + key)
    for key in msg:
        if key not in allowed:
            raise BadMessage("bad_message", "unknown field: " + str(key)[:40])


def clean_name(name):
    """A player's name: a string, control characters dropped, trimmed, at most 20 characters."""
    if not isinstance(name, str):
        raise BadMessage("bad_name", "the name must be text")
    name = "".join(ch for ch in name if ord(ch) >= 32 and ord(ch) != 127).strip()
    name = name[:MAX_NAME]
    # Cutting at 20 characters must not leave half an emoji sequence: drop a dangling joiner.
    while name.endswith("\u200d"):
        name = name[:-1]
    name = name.strip()
    if not name:
        raise BadMessage("bad_name", "the name is empty")
    return name


def check_action(action, players):
    """Check an action's shape (crisp_core.actions, with `target` a seat of this room) and
    return it; legality is the engine's job. Raises BadMessage `bad_message`."""
    try:
        check_shape(action, players)
    except ActionError as e:
        raise BadMessage("bad_message", str(e))
    return action


def parse(text):
    """Decode one incoming text into a message dict with a known `type` and `v` 1."""
    if not isinstance(text, str):
        raise BadMessage("bad_message", "messages are JSON text")
    if len(text) > MAX_TEXT or len(text.encode("utf-8")) > MAX_TEXT:
        raise BadMessage("too_big", "message larger than 16 KB")
    # A guest's message nests two levels at most; refusing deep nesting before parsing keeps
    # a crafted "[[[[..." from running the parser's recursion out (fatal on a small stack).
    if text.count("[") + text.count("{") > MAX_BRACKETS:
        raise BadMessage("bad_message", "message nested too deeply")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("bad_message", "not JSON")
    if not isinstance(msg, dict):
        raise BadMessage("bad_message", "a message is a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise BadMessage("bad_message", "missing type")
    version = msg.get("v")
    if not _is_int(version) or version != VERSION:
        raise BadMessage("bad_version", "protocol version must be 1")
    return msg


class Seat:
    """One place at the table: a person (with a token) or a bot. A person's seat may be
    played by a bot standing in (`stand_in`, a level) while that person is away."""

    def __init__(self, name, token, bot=None):
        self.name = name
        self.token = token
        self.bot = bot            # None or a bot level
        self.stand_in = None      # a person's seat played by a bot of this level meanwhile
        self.conn = None          # the data connection now playing this seat
        self.n = 0                # views sent to this seat
        self.allowed = None       # the `allowed` of the last view sent (JSON text) ...
        self.allowed_n = 0        # ... and the view that brought it: older actions are stale
        self.agent = None         # the bot object (saved with its own to_dict)
        self.plan = None          # the bot's next move: {"at": ms, "action": {...}}
        self.seen = None          # when its connection was last heard from (ms)
        self.synced = None        # when its last `sync` was answered (ms)
        self.away_since = None    # when it went away (closed or silent), None while here
        self.wins = 0             # games this seat won in this room (kept across new_game)

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


class Room:
    """The host's room. See docs/protocol.md.

    `make_bot(level, seat)` (optional) returns a bot: an object with
    `plan(view, events, now) -> None | {"at": ms, "action": {...}}` (as crisp_core.bots.Bot),
    asked after every view the room builds for that seat. Without it, `add_bot` is refused.
    """

    def __init__(self, room_id, host_name, seed=None, deck=None, make_token=secrets.token_hex,
                 make_bot=None):
        self.room_id = room_id
        # Without a seed every room would deal the same decks: draw one (64 bits).
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.deck = list(deck) if deck else None
        if self.deck is not None and (not all(is_card(c) for c in self.deck)
                                      or len(set(self.deck)) != len(self.deck)):
            raise ValueError("deck: distinct card codes only")
        self.make_token = make_token
        self.make_bot = make_bot
        self.options = dict(DEFAULT_OPTIONS)
        self.seats = [Seat(clean_name(host_name), self._token())]
        self.game = None
        self.log = []             # engine events of the current round (for replays)
        self.history = []         # each finished round's points of this game, per seat
        self.games = 0            # games played to the end in this room
        self.peeks = {}           # seat -> its peek reveal of the current round
        self.conns = {}           # conn -> seat index
        self.buckets = {}         # conn -> [tokens, at, last rate_limited error] (flood control)
        self.peers = {}           # conn -> the remote PeerJS id (bound into the seat proofs)
        self.proving = {}         # conn -> a rejoin waiting for its seat proof (`_join`)
        self.gate = Gate()        # connections not seated yet (ui/gate.py)
        self.dropped = []         # connections the page must close (`take_dropped`)
        self.now = 0
        self.fair = None          # the committed shuffle of this round (or the next deal)
        self.cheat = None         # test builds only: "hand" | "deck", a host that cheats

    # ---- entry points -------------------------------------------------------------------

    def open(self, conn, now, peer=None):
        """A data connection from PeerJS id `peer` (the signaling server's word for who opened
        it) arrived; it gets a seat only with `join`, and must be seated within JOIN_MS
        (ui/gate.py): the connections this pushes out are in `take_dropped()`."""
        self._clock(now)
        self.peers[conn] = peer if isinstance(peer, str) else ""
        for old in self.gate.admit(conn, peer, self.now):
            self._drop(old)
        return []

    def take_dropped(self):
        """The connections the room closed (not seated in time, pushed out by newer ones):
        the page closes them, without calling `close`. Empties the list."""
        out, self.dropped = self.dropped, []
        return out

    def _drop(self, conn):
        self._forget(conn)
        self.dropped.append(conn)

    def _forget(self, conn):
        self.buckets.pop(conn, None)
        self.peers.pop(conn, None)
        self.proving.pop(conn, None)
        self.gate.forget(conn)

    def close(self, conn, now):
        """A data connection closed: its seat stays, marked not connected."""
        now = self._clock(now)
        self._forget(conn)
        seat = self.conns.pop(conn, None)
        if seat is None:
            return []
        self.seats[seat].conn = None
        if self.seats[seat].away_since is None:
            self.seats[seat].away_since = now
        return self._broadcast()

    def receive(self, conn, text, now):
        """One message from `conn`. Never raises: a refused message gets one `error` back."""
        now = self._clock(now)
        if conn != LOCAL and not self._allow(conn, now):
            return self._limited(conn, now)
        out = []
        try:
            out += self._heard(conn, now)
            msg = parse(text)
            return out + self._dispatch(conn, msg, now)
        except BadMessage as e:
            return out + [(conn, self._error(e.code, e.text))]
        except Exception as e:    # a bug must not take the room down
            return out + [(conn, self._error("internal", "internal error: " + type(e).__name__))]

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
        self.gate.clear()
        for index, seat in enumerate(self.seats):
            seat.conn = None
            seat.seen = None
            if index != 0 and seat.bot is None:
                seat.away_since = now
        return []

    def tick(self, now):
        """Fire the engine's deadlines, bots' moves and what is due for away players at `now`;
        send views if anything moved."""
        now = self._clock(now)
        for conn in self.gate.expired(now):
            self._drop(conn)
        changed = self._check_silence(now)
        if self._fair_due(now):
            return self._fair_deal(now) + self._run_bots(now)
        if self.game is None:
            return self._broadcast() if changed else []
        return self._advance(now, changed) + self._run_bots(now)

    def _advance(self, now, changed=False):
        """Fire what is due at `now` (the engine's deadlines, away players' parts) and send
        views when anything moved (a passed deadline may change only what a seat may do)."""
        deadline = self.game.next_deadline()
        events = self.game.advance(now) + self._forfeits(now)
        if changed or events or (deadline is not None and deadline <= now):
            return self._after_change(events, now)
        return []

    def next_wakeup(self):
        """When `tick` should run next (ms), or None."""
        times = []
        if self.fair is not None and self.fair.get("dealt") is False:
            times.append(self.fair["deadline"])
        door = self.gate.next_deadline()
        if door is not None:
            times.append(door)
        if self.game is not None:
            deadline = self.game.next_deadline()
            if deadline is not None:
                times.append(deadline)
        for index, seat in enumerate(self.seats):
            if seat.plan is not None:
                times.append(seat.plan["at"])
            if index == 0 or seat.bot is not None:
                continue
            if seat.away_since is None:
                if seat.conn is not None and seat.seen is not None:
                    times.append(seat.seen + SILENT_MS)
            else:
                due = self._forfeit_at(index)
                if due is not None:
                    times.append(due)
        return min(times) if times else None

    # ---- presence: away players (docs/design.md "Persistence and reconnection") ---------------

    def _heard(self, conn, now):
        """A message from `conn`: its seat is here (again)."""
        index = self.conns.get(conn)
        if index is None:
            return []
        seat = self.seats[index]
        seat.seen = now
        if seat.away_since is None:
            return []
        seat.away_since = None
        seat.stop_stand_in()
        return self._broadcast()

    def _check_silence(self, now):
        """Guests ping every 3 s: one silent for SILENT_MS is away (PeerJS `close` often
        never fires on a phone that went to sleep)."""
        changed = False
        for index, seat in enumerate(self.seats):
            if (index != 0 and seat.conn is not None and seat.away_since is None
                    and seat.seen is not None and now - seat.seen >= SILENT_MS):
                seat.away_since = seat.seen + SILENT_MS
                changed = True
        return changed

    def _forfeit_at(self, index):
        """When the room will play for away seat `index` (its peek or its turn), or None."""
        seat = self.seats[index]
        if self.game is None or seat.away_since is None or seat.agent is not None:
            return None               # (a bot standing in plays for it)
        since = self.game.awaiting(self.now).get(index)
        if since is None:
            return None
        return max(seat.away_since + GONE_MS, since)

    def _forfeits(self, now):
        """Play the part of seats away for GONE_MS that the game waits for: confirm their
        peek, time out their turn (Game.forfeit, R2.4, R10.2). A timed-out turn may pass to
        another away seat, hence the loop."""
        events = []
        for _ in range(len(self.seats) + 1):
            acted = False
            for index in range(1, len(self.seats)):
                due = self._forfeit_at(index)
                if due is not None and due <= now:
                    try:
                        events += self.game.forfeit(index, now)
                        acted = True
                    except IllegalAction:
                        pass
            if not acted:
                break
        return events

    # ---- flood control ------------------------------------------------------------------

    def _allow(self, conn, now):
        """A token bucket per connection: RATE_BURST messages at once, RATE_PER_S a second
        after that (never reached by a person: pings every 3 s, a few taps a second)."""
        bucket = self.buckets.get(conn)
        if bucket is None:
            bucket = self.buckets[conn] = [float(RATE_BURST), now, None]
        tokens = min(float(RATE_BURST), bucket[0] + (now - bucket[1]) * RATE_PER_S / 1000.0)
        bucket[1] = now
        if tokens < 1:
            bucket[0] = tokens
            return False
        bucket[0] = tokens - 1
        return True

    def _limited(self, conn, now):
        """A message over the rate is dropped unread; its sender hears so at most once a
        second (answering every message of a flood would only double it)."""
        bucket = self.buckets[conn]
        if bucket[2] is not None and now - bucket[2] < RATE_ERROR_MS:
            return []
        bucket[2] = now
        return [(conn, self._error("rate_limited", "too many messages: slow down"))]

    # ---- messages -----------------------------------------------------------------------

    def _dispatch(self, conn, msg, now):
        kind = msg["type"]
        if kind == "ping":
            _fields(msg, ("t",))
            if not _is_number(msg["t"]):
                raise BadMessage("bad_message", "t must be a number")
            seat = self.conns.get(conn)
            if seat is not None and self.game is not None:
                # the heartbeat names the seat's last view: a guest that missed one asks
                return [(conn, self._msg("pong", t=msg["t"], n=self.seats[seat].n))]
            return [(conn, self._msg("pong", t=msg["t"]))]
        if kind == "sync":
            _fields(msg, ())
            return self._sync(conn, now)
        if kind == "join":
            _fields(msg, ("name",), ("seat_id", "nonce"))
            return self._join(conn, msg, now)
        if kind == "proof":
            _fields(msg, ("mac",))
            return self._proof(conn, msg, now)
        if kind == "action":
            _fields(msg, ("action",), ("n",))
            return self._action(conn, msg, now)
        if kind == "contribute":
            _fields(msg, ("round", "value"))
            return self._contribute(conn, msg, now)
        if kind in HOST_ONLY:
            if conn != LOCAL:
                raise BadMessage("not_host", "only the host may do that")
            return getattr(self, "_host_" + kind)(msg, now)
        raise BadMessage("unknown_type", "unknown message type")

    def _join(self, conn, msg, now):
        """A first join (no `seat_id`: a new seat, its token in the welcome, trust on first
        use) or a rejoin: `seat_id` names the seat (proof.seat_id of its token) and `nonce` is
        the guest's; the room answers a `challenge` with its proof that it knows the token and
        seats the connection once the guest's `proof` checks out (`_proof`)."""
        name = clean_name(msg["name"])
        bound = self.conns.get(conn)
        if "seat_id" in msg or "nonce" in msg:
            if conn == LOCAL or not proof.is_hex(msg.get("seat_id"), proof.SEAT_ID_HEX) \
                    or not proof.is_hex(msg.get("nonce"), proof.NONCE_HEX):
                raise BadMessage("bad_message", "seat_id and nonce: 32 hex digits each")
            if bound is not None:
                raise BadMessage("already_joined", "this connection already has a seat")
            return self._challenge(conn, name, msg["seat_id"], msg["nonce"])
        seat = 0 if conn == LOCAL else None
        if bound is not None and bound != seat:
            raise BadMessage("already_joined", "this connection already has a seat")
        if conn != LOCAL and conn in self.proving:
            raise BadMessage("already_joined", "this connection is proving a seat")
        return self._seat(conn, seat, name, now)

    def _challenge(self, conn, name, seat_id, guest_nonce):
        """Answer a rejoin with the room's nonce and its proof that it knows that seat's
        token (the guest checks it before it trusts anything from this peer)."""
        index = self._seat_of_id(seat_id)
        if index is None:
            raise BadMessage("no_seat", "no seat of this room has that id")
        token = self.seats[index].token
        host_nonce = self.make_token(16)
        peer = self.peers.get(conn, "")
        self.proving[conn] = {"token": token, "name": name, "seat_id": seat_id,
                              "guest_nonce": guest_nonce, "host_nonce": host_nonce}
        mac = proof.host_mac(token, self.room_id, peer, seat_id, guest_nonce, host_nonce)
        return [(conn, self._msg("challenge", nonce=host_nonce, mac=mac))]

    def _proof(self, conn, msg, now):
        """The guest's answer to `challenge`: right, it gets its seat back; wrong, the
        exchange is over (a new join starts another)."""
        pending = self.proving.pop(conn, None)
        if pending is None:
            raise BadMessage("not_joined", "no seat proof was asked of this connection")
        token = pending["token"]
        expected = proof.guest_mac(token, self.room_id, self.peers.get(conn, ""),
                                   pending["seat_id"], pending["guest_nonce"],
                                   pending["host_nonce"])
        if not proof.is_hex(msg["mac"], proof.MAC_HEX) or not secrets.compare_digest(
                msg["mac"], expected):
            raise BadMessage("bad_proof", "the seat proof is wrong")
        seat = self._seat_of_token(token)
        if seat is None:                        # removed meanwhile
            raise BadMessage("no_seat", "that seat is gone")
        return self._seat(conn, seat, pending["name"], now)

    def _seat(self, conn, seat, name, now):
        """Seat `conn`: at `seat` (the host's own, or a proven rejoin) or, for None, at a new
        seat (lobby only). Only a new seat's welcome carries its token."""
        out = []
        new = seat is None
        if new:
            if self.game is not None:
                return [(conn, self._kicked("started", "the game has already started"))]
            if len(self.seats) >= MAX_SEATS:
                return [(conn, self._kicked("room_full", "the room is full"))]
            self.seats.append(Seat(name, self._token()))
            seat = len(self.seats) - 1
        old = self.seats[seat].conn
        if old is not None and old != conn:
            # R: a second connection with the same token takes the seat over.
            self.conns.pop(old, None)
            out.append((old, self._kicked("taken_over", "this seat was opened elsewhere")))
        self.seats[seat].conn = conn
        self.seats[seat].name = name
        self.seats[seat].seen = now
        self.seats[seat].away_since = None
        self.seats[seat].stop_stand_in()
        self.conns[conn] = seat
        self.gate.joined(conn)
        if new:                   # trust on first use: the only time a token is sent
            out.append((conn, self._msg("welcome", seat=seat, token=self.seats[seat].token,
                                        room=self.room_id)))
        else:                     # a proven rejoin, or the host's own seat: no token
            out.append((conn, self._msg("welcome", seat=seat, room=self.room_id)))
        out += self._broadcast(replay_to=seat)
        return out

    def _sync(self, conn, now):
        """A seated guest missed a message (a gap in its views' `n`, or a pong naming a newer
        one): send it the room as it is now, as to a rejoining seat (its view, with the
        round's last public events to start its log over: `replay`), or the lobby. At most
        once per SYNC_MS per seat (`rate_limited` otherwise); changes nothing in the room."""
        index = self.conns.get(conn)
        if index is None:
            raise BadMessage("not_joined", "join the room first")
        seat = self.seats[index]
        if seat.synced is not None and now - seat.synced < SYNC_MS:
            raise BadMessage("rate_limited", "asked for the room too often")
        seat.synced = now
        if self.game is None:
            return [(conn, self._lobby_text())]
        return self._views([], now, replay_to=index, only=index)

    def _action(self, conn, msg, now):
        action = msg["action"]
        seat = self.conns.get(conn)
        if seat is None:
            raise BadMessage("not_joined", "join the room first")
        if self.game is None:
            raise BadMessage("not_started", "the game has not started")
        check_action(action, len(self.seats))
        if "n" in msg:
            self._fresh(self.seats[seat], msg["n"])
        if action["do"] == "next_round" and conn != LOCAL:
            raise BadMessage("not_host", "only the host starts the next round")
        return self._apply(seat, action, now)

    def _apply(self, seat, action, now):
        """Fire what is due, then apply one checked action for `seat` through the engine."""
        out = self._advance(now)
        if (action["do"] == "next_round" and self.game.phase == "round_over"
                and self._fair_wanted()):
            return out + self._fair_begin(now)     # commit first, deal once contributions are in
        try:
            events = self.game.apply(seat, action, now)
        except IllegalAction as e:
            out.append((self.seats[seat].conn, self._error(e.code, str(e))))
            return out
        return out + self._after_change(events, now)

    def _fresh(self, seat, n):
        """An action names the view it answers (`n`): one from before what this seat may do
        last changed is stale (a late tap, a replayed message) and is refused."""
        if not _is_int(n) or not 0 <= n <= seat.n:
            raise BadMessage("bad_message", "n must be the number of a view you received")
        if n < seat.allowed_n:
            raise BadMessage("stale", "the table has changed since that view")

    # ---- host-only messages -------------------------------------------------------------

    def _host_options(self, msg, now):
        _fields(msg, (), ("target", "draw_seconds", "draw_from_discard"))
        self._in_lobby()
        options = dict(self.options)
        for key in DEFAULT_OPTIONS:
            if key in msg:
                options[key] = msg[key]
        try:
            normalize_options(dict(options, players=2))     # the engine's own check (R10)
        except ValueError as e:
            raise BadMessage("bad_option", str(e))
        self.options = options
        return self._broadcast()

    def _host_start(self, msg, now):
        _fields(msg, ())
        self._in_lobby()
        if not 2 <= len(self.seats) <= MAX_SEATS:
            raise BadMessage("not_enough_players", "a game needs 2 to 8 players")
        if self._fair_wanted():
            return self._fair_begin(now)           # commit first, deal once contributions are in
        options = dict(self.options)
        options["players"] = len(self.seats)
        self.game = Game.new(options, seed=self.seed, deck=self.deck, dealer=0, now=now)
        self.history = []
        out = self._broadcast()
        return out + self._after_change(self.game.deal_events(), now)

    def _host_next_round(self, msg, now):
        _fields(msg, ())
        if self.game is None:
            raise BadMessage("not_started", "the game has not started")
        return self._apply(0, {"do": "next_round"}, now)

    def _host_new_game(self, msg, now):
        """After game over: everyone back to the lobby, same seats, bots and options,
        scores reset (the game is gone). A fresh seed: the next game deals other decks."""
        _fields(msg, ())
        if self.game is None or self.game.phase != "game_over":
            raise BadMessage("not_over", "the game is not over")
        self.game = None
        self.log = []
        self.peeks = {}
        self.history = []
        self.fair = None
        self.seed = (self.seed + 1) % (1 << 64)
        for index, seat in enumerate(self.seats):
            seat.stop_stand_in()
            seat.plan = None
            if seat.bot is not None and self.make_bot is not None:
                seat.agent = self.make_bot(seat.bot, index)      # a fresh memory
        return self._broadcast()

    def _host_add_bot(self, msg, now):
        _fields(msg, ("level",))
        self._in_lobby()
        if msg["level"] not in BOT_LEVELS:
            raise BadMessage("bad_message", "level must be easy or hard")
        if self.make_bot is None:
            raise BadMessage("no_bots", "bots are not available")
        if len(self.seats) >= MAX_SEATS:
            raise BadMessage("room_full", "the room is full")
        seat = Seat("Bot " + str(len(self.seats)), None, bot=msg["level"])
        self.seats.append(seat)
        seat.agent = self.make_bot(seat.bot, len(self.seats) - 1)
        return self._broadcast()

    def _host_remove(self, msg, now):
        _fields(msg, ("seat",))
        self._in_lobby()
        index = msg["seat"]
        if not _is_int(index) or not 1 <= index < len(self.seats):
            raise BadMessage("bad_message", "seat must be a guest's seat")
        out = []
        gone = self.seats.pop(index)
        if gone.conn is not None:
            out.append((gone.conn, self._kicked("removed", "the host removed you")))
        self.conns = {}
        for i, seat in enumerate(self.seats):
            if seat.conn is not None:
                self.conns[seat.conn] = i
        for i, seat in enumerate(self.seats):
            if i >= index and seat.conn is not None:
                # Seats after the removed one move down: tell them their new seat.
                out.append((seat.conn, self._msg("welcome", seat=i, room=self.room_id)))
            if seat.bot is not None:
                seat.name = "Bot " + str(i)        # named by their seat: never two "Bot 2"
                if seat.agent is not None:
                    seat.agent = self.make_bot(seat.bot, i)
        return out + self._broadcast()

    def _host_stand_in(self, msg, now):
        """A bot plays an away person's seat until that person is back (`_join`, `_heard`).
        It starts from what that seat was shown this round (the round's events for it)."""
        _fields(msg, ("seat", "level"))
        if self.game is None:
            raise BadMessage("not_started", "the game has not started")
        index = msg["seat"]
        if not _is_int(index) or not 1 <= index < len(self.seats) \
                or self.seats[index].bot is not None:
            raise BadMessage("bad_message", "seat must be a guest's seat")
        if msg["level"] not in BOT_LEVELS:
            raise BadMessage("bad_message", "level must be easy or hard")
        if self.make_bot is None:
            raise BadMessage("no_bots", "bots are not available")
        seat = self.seats[index]
        if seat.away_since is None:
            raise BadMessage("not_away", "that player is here")
        if seat.stand_in is not None:
            return []
        seat.stand_in = msg["level"]
        seat.agent = self.make_bot(seat.stand_in, index)
        seat.plan = seat.agent.plan(view_for(self.game, index, now),
                                    events_for(self.log, index), now)
        return self._broadcast()

    def _in_lobby(self):
        if self.game is not None or self.fair is not None:
            raise BadMessage("started", "the game has already started")

    # ---- the committed shuffle (docs/protocol.md "Verifiable shuffle") ---------------------

    def _fair_wanted(self):
        """A round is dealt from a committed shuffle when someone can check it: a person in a
        seat other than the host's. Solo games (bots only) and a stacked test deck (`deck`,
        the test page's ?deck=, which is no shuffle at all) deal as before, with no commitment."""
        return self.deck is None and any(
            index != 0 and seat.bot is None for index, seat in enumerate(self.seats))

    def _fair_waiting(self):
        """The seats whose contribution the deal still waits for: those asked, not answered,
        and still here (a guest that closed or went silent is skipped at once)."""
        fair = self.fair
        given = [item[0] for item in fair["contributions"]]
        out = []
        for index in fair["asked"]:
            seat = self.seats[index] if index < len(self.seats) else None
            if (index not in given and seat is not None and seat.conn is not None
                    and seat.away_since is None and seat.stand_in is None):
                out.append(index)
        return out

    def _fair_begin(self, now):
        """Before a deal: draw a fresh secret (`secrets`, 256 bits), send every seat its
        commitment, and ask each person seated (not the host, not bots) for a contribution.
        The deal goes once all have answered or after CONTRIBUTE_MS (`_fair_due`)."""
        if self.fair is not None and self.fair.get("dealt") is False:
            return []                            # already waiting for contributions
        secret = secrets.token_hex(shuffle.SECRET_BYTES)
        number = 1 if self.game is None else self.game.round + 1
        asked = [index for index, seat in enumerate(self.seats)
                 if index != 0 and seat.bot is None and seat.stand_in is None
                 and seat.conn is not None and seat.away_since is None]
        self.fair = {"round": number, "secret": secret, "commitment": shuffle.commitment(secret),
                     "asked": asked, "contributions": [], "deadline": now + CONTRIBUTE_MS,
                     "dealt": False, "info": None}
        text = self._msg("commit", round=number, commitment=self.fair["commitment"])
        out = [(seat.conn, text) for seat in self.seats if seat.conn is not None]
        if not self._fair_waiting():
            out += self._fair_deal(now)
        return out

    def _contribute(self, conn, msg, now):
        """A guest's contribution to the next deal: 16 random bytes in hex, once per deal. A
        late one (the deal went without it) or one from a seat not asked changes nothing."""
        seat = self.conns.get(conn)
        if seat is None:
            raise BadMessage("not_joined", "join the room first")
        value = msg["value"]
        if not _is_int(msg["round"]) or not shuffle.is_hex(value, shuffle.CONTRIBUTION_BYTES):
            raise BadMessage("bad_message", "a contribution is 32 lowercase hex digits")
        fair = self.fair
        if (fair is None or fair.get("dealt") is not False or msg["round"] != fair["round"]
                or seat not in fair["asked"]
                or seat in [item[0] for item in fair["contributions"]]):
            return []
        fair["contributions"].append([seat, value])
        fair["contributions"].sort()
        if not self._fair_waiting():
            return self._fair_deal(now)
        return []

    def _fair_due(self, now):
        fair = self.fair
        return (fair is not None and fair.get("dealt") is False
                and (now >= fair["deadline"] or not self._fair_waiting()))

    def _fair_deal(self, now):
        """Deal the round from the committed shuffle: the seed is SHA-256 over the secret and
        the contributions in seat order, the deck the portable shuffle of that seed
        (crisp_core.shuffle). Every seat hears first (`fair`) who contributed and who was
        skipped, and the round's start (all a page needs to replay it with the engine)."""
        fair = self.fair
        fair["dealt"] = True
        values = [item[1] for item in fair["contributions"]]
        order = shuffle.deck_from_seed(shuffle.derive_seed(fair["secret"], values))
        if self.game is None:
            options = dict(self.options)
            options["players"] = len(self.seats)
            self.game = Game.new(options, seed=self.seed, order=order, dealer=0, now=now)
            events = self.game.deal_events()
        else:
            events = self.game.next_round(now, deck=order)
        game = self.game
        given = [item[0] for item in fair["contributions"]]
        fair["info"] = {
            "round": game.round, "commitment": fair["commitment"],
            "contributions": [list(item) for item in fair["contributions"]],
            "skipped": [index for index in fair["asked"] if index not in given],
            "dealer": game.dealer, "options": dict(game.options),
            "scores": list(game.scores), "start": game.clock,
            "players": [seat.name for seat in self.seats]}
        text = self._msg("fair", **fair["info"])
        out = [(seat.conn, text) for seat in self.seats if seat.conn is not None]
        out += self._broadcast() if game.round == 1 else []
        return out + self._after_change(events, now)

    def _fair_proof(self, events):
        """At the end of a round dealt from a commitment: reveal the secret and the round's
        inputs in order with their times (the engine's journal), to every seat."""
        if self.fair is None or not self.fair.get("dealt") or self.game is None:
            return []
        if not any(event.get("type") == "round_over" for event in events):
            return []
        texts = self._proof_texts()
        return [(seat.conn, text) for seat in self.seats if seat.conn is not None
                for text in texts]

    def _proof_texts(self):
        fair = self.fair
        actions = [list(entry) for entry in self.game.journal]
        parts = max(1, (len(actions) + PROOF_ACTIONS - 1) // PROOF_ACTIONS)
        return [self._msg("proof", round=fair["round"], secret=fair["secret"], part=i,
                          parts=parts, actions=actions[i * PROOF_ACTIONS:(i + 1) * PROOF_ACTIONS])
                for i in range(parts)]

    def _fair_replay(self):
        """What a (re)joining seat gets about the round's commitment: the `fair` message
        before its view, and the proof after it once the round is over."""
        fair = self.fair
        if (fair is None or not fair.get("dealt") or self.game is None
                or fair["round"] != self.game.round):
            return [], []
        before = [self._msg("fair", **fair["info"])]
        after = []
        if self.game.phase in ("round_over", "game_over"):
            after = self._proof_texts()
        return before, after

    def _cheat(self):
        """Test builds only (`?cheat=`): a host that cheats after committing, to show that
        every guest notices. "hand": once play starts, the host's own center card is
        exchanged for the best card left in the deck; "deck": the deck is reversed."""
        fair = self.fair
        game = self.game
        if (self.cheat not in CHEATS or fair is None or not fair.get("dealt") or game is None
                or game.phase != "play" or fair.get("cheated") == game.round or not game.deck):
            return
        fair["cheated"] = game.round
        if self.cheat == "deck":
            game.deck.reverse()
            return
        values = [_card_points(card) for card in game.deck]
        best = values.index(min(values))
        game.hands[0][1], game.deck[best] = game.deck[best], game.hands[0][1]

    # ---- views --------------------------------------------------------------------------

    def _after_change(self, events, now):
        """Record events, then send every seat its view with the events it may receive."""
        self._record(events)
        self._cheat()
        return self._views(events, now) + self._fair_proof(events)

    def _record(self, events):
        for event in events:
            if event.get("type") == "deal":
                self.log = []
                self.peeks = {}
            self.log.append(event)
            if event.get("type") == "round_over":
                self.history.append(list(event.get("round_points") or []))
            elif event.get("type") == "game_over":
                self.games += 1
                for w in event.get("winners") or []:
                    if 0 <= w < len(self.seats):
                        self.seats[w].wins += 1
            if event.get("type") == "reveal" and event.get("reason") == "peek":
                self.peeks[event["to"]] = event
        if len(self.log) > LOG_KEEP:
            self.log = self.log[-LOG_KEEP:]

    def _views(self, events, now, replay_to=None, only=None):
        out = []
        players = self._players()
        for index, seat in enumerate(self.seats):
            if only is not None and index != only:
                continue
            if index == replay_to:
                mine = self._replay(index, now)
            else:
                mine = events_for(events, index)
            if seat.conn is None and seat.agent is None:
                continue
            fair_before, fair_after = [], []
            if index == replay_to and seat.conn is not None:
                fair_before, fair_after = self._fair_replay()
                out += [(seat.conn, text) for text in fair_before]
            view = view_for(self.game, index, now)
            if index != 0:
                view["allowed"] = [a for a in view["allowed"] if a.get("do") != "next_round"]
            seat.n += 1
            allowed = json.dumps(view["allowed"], sort_keys=True)
            if allowed != seat.allowed:
                seat.allowed = allowed        # what it may do changed with this view
                seat.allowed_n = seat.n
            text = self._view_text(seat.n, view, mine, players, replay=index == replay_to)
            if seat.conn is not None:
                out.append((seat.conn, text))
                out += [(seat.conn, proof) for proof in fair_after]
            if seat.agent is not None:
                seat.plan = seat.agent.plan(view, mine, now)
        return out

    def _replay(self, index, now):
        """What a (re)joining seat gets: the round's last public events, and its peek again
        while it has not confirmed it (the peek is shown until the seat is ready, R2.4)."""
        public = [e for e in events_for(self.log, index) if "to" not in e][-LOG_REPLAY:]
        peek = self.peeks.get(index)
        if peek is not None:
            view = view_for(self.game, index, now)
            if view.get("phase") == "peek" and not view["ready"][index]:
                public.append(peek)
        return public

    def _view_text(self, n, view, events, players, replay=False):
        """One view message, always under 16 KB: the oldest events go first if it is not.
        `replay`: its events are the round's replay (a (re)joined or resynced seat): the
        client starts its log over."""
        extra = {"replay": True} if replay else {}
        while True:
            text = self._msg("view", n=n, view=view, events=events, players=players,
                             history=self.history, games=self.games, **extra)
            if len(text.encode("utf-8")) < MAX_TEXT or not events:
                return text
            events = events[max(1, len(events) // 4):]

    def _broadcast(self, replay_to=None):
        """Send the lobby to everyone, or, once started, every seat its view."""
        if self.game is not None:
            return self._views([], self.now, replay_to=replay_to)
        text = self._lobby_text()
        return [(seat.conn, text) for seat in self.seats if seat.conn is not None]

    def _players(self):
        return [{"seat": i, "name": s.name, "bot": s.bot or s.stand_in,
                 "connected": s.bot is not None or (s.conn is not None and s.away_since is None),
                 "wins": s.wins}
                for i, s in enumerate(self.seats)]

    def _lobby_text(self):
        return self._msg("lobby", players=self._players(), options=dict(self.options), host=0,
                         started=self.game is not None, games=self.games)

    # ---- bots ---------------------------------------------------------------------------

    def _run_bots(self, now):
        out = []
        for index, seat in enumerate(self.seats):
            plan = seat.plan
            if plan is None or plan["at"] > now or self.game is None:
                continue
            seat.plan = None
            try:
                action = check_action(plan["action"], len(self.seats))
            except BadMessage:
                continue
            out += [o for o in self._apply(index, action, now) if o[0] is not None]
        return out

    # ---- helpers ------------------------------------------------------------------------

    def _clock(self, now):
        if now > self.now:
            self.now = now
        return self.now

    def _token(self):
        return self.make_token(16)

    def _seat_of_id(self, seat_id):
        """The guest seat whose token's public id is `seat_id`, or None (never seat 0)."""
        for index, seat in enumerate(self.seats):
            if index != 0 and seat.token is not None and secrets.compare_digest(
                    proof.seat_id(seat.token), seat_id):
                return index
        return None

    def _seat_of_token(self, token):
        if not token:
            return None
        for index, seat in enumerate(self.seats):
            if index != 0 and seat.token is not None and secrets.compare_digest(seat.token, token):
                return index
        return None

    def _msg(self, kind, **fields):
        msg = {"type": kind, "v": VERSION}
        msg.update(fields)
        # ensure_ascii=False: the text carries characters as they are. MicroPython's json
        # decodes a "\\ud83d\\ude00" escape pair as two broken characters, so an emoji
        # escaped by CPython's default would arrive garbled on every guest page.
        return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)

    def _error(self, code, text):
        return self._msg("error", code=code, text=text[:200])

    def _kicked(self, code, text):
        return self._msg("kicked", code=code, text=text)

    # ---- saving -------------------------------------------------------------------------

    def to_dict(self):
        """The whole room, JSON-safe (connections are not saved: everyone rejoins)."""
        return {"room_id": self.room_id, "seed": self.seed, "deck": self.deck,
                "options": dict(self.options), "seats": [s.to_dict() for s in self.seats],
                "game": self.game.to_dict() if self.game is not None else None,
                "log": list(self.log), "peeks": {str(k): v for k, v in self.peeks.items()},
                "now": self.now, "history": [list(r) for r in self.history],
                "games": self.games, "fair": self.fair}

    @classmethod
    def from_dict(cls, d, make_token=secrets.token_hex, make_bot=None, load_bot=Bot.from_dict):
        """The room saved by `to_dict`. Its bots come back with their memory (`load_bot`, a
        saved bot's `to_dict` -> bot); `make_bot` makes the bots added from now on (and one
        for a seat saved without its bot's state)."""
        room = cls(d["room_id"], d["seats"][0]["name"], seed=d["seed"], deck=d["deck"],
                   make_token=make_token, make_bot=make_bot)
        room.options = dict(d["options"])
        room.seats = []
        for i, s in enumerate(d["seats"]):
            seat = Seat(s["name"], s["token"], bot=s["bot"])
            seat.n = s["n"]
            seat.stand_in = s.get("stand_in")
            wins = s.get("wins", 0)
            seat.wins = wins if _is_int(wins) and wins >= 0 else 0
            level = seat.bot or seat.stand_in
            if s.get("agent") is not None:
                try:
                    seat.agent = load_bot(s["agent"])
                    seat.plan = s.get("plan")
                except ValueError:
                    seat.agent = None
            if seat.agent is None and level is not None and make_bot is not None:
                seat.agent = make_bot(level, i)
            if seat.agent is None:
                seat.stand_in = None
            if i != 0 and seat.bot is None:
                seat.away_since = d["now"]    # away until it rejoins
            room.seats.append(seat)
        room.game = Game.from_dict(d["game"]) if d["game"] is not None else None
        room.log = list(d["log"])
        room.peeks = {int(k): v for k, v in d["peeks"].items()}
        room.now = d["now"]
        history = d.get("history")
        if isinstance(history, list) and all(
                isinstance(r, list) and all(_is_int(p) for p in r) for r in history):
            room.history = [list(r) for r in history]
        games = d.get("games", 0)
        room.games = games if _is_int(games) and games >= 0 else 0
        room.fair = fair_from_dict(d.get("fair"))
        return room
