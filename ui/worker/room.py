"""The host's room: lobby, seats, tokens and the wire around the rules engine.

Pure Python: runs on Pyodide (the host page) and in CPython (tests). No `js`, no clock, no I/O.
Every entry point takes `now` (ms on the host's clock) and returns the messages to send as a
list of `(conn, text)`. `conn` is any hashable id of a data connection; `"local"` is the host's
own screen (seat 0), the only connection allowed host-only messages.

Contract: docs/protocol.md ("Room messages", "Room").
"""

import json
import random
import re
import secrets
import unicodedata

from crisp_core import (Bot, Game, IllegalAction, events_for, is_card, normalize_options,
                        public_events, spectator_view, view_for)
from crisp_core import bots as _bots
from crisp_core import shuffle
from crisp_core.actions import POSITIONS
from crisp_core.actions import ActionError, check_shape
from ui.shared import handover
from ui.shared import proof
from ui.shared import seal
from ui.shared import roomcode
from ui.shared.gate import Gate
from ui.shared.limits import MAX_PLAYERS, NAME_MAX

VERSION = 1
LOCAL = "local"
MAX_TEXT = 16 * 1024          # bytes, both ways
MAX_NAME = NAME_MAX          # characters (ui/shared/limits.py: the screens' name field too)
MAX_MARKS = 3              # combining marks on one character of a name (Vietnamese needs 2)
MAX_BRACKETS = 64          # [ and { in one incoming message (real ones have a handful)
MAX_SEATS = MAX_PLAYERS
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
HOST_ONLY = ("options", "start", "next_round", "add_bot", "remove", "stand_in", "new_game",
             "approve")
MAX_SPECTATORS = 8            # connections watching without a seat (docs/protocol.md "Spectators")
SPECTATOR_SILENT_MS = 30000   # a spectator not heard from this long (10 pings) is closed
LEFT_BOT = "easy"             # the bot that takes a seat left at the table
SEAL_MS = 1000                # the room is sealed for the players at most once a second
CONTRIBUTE_MS = 3000          # how long the deal waits for guests' contributions at most
PROOF_ACTIONS = 150           # a round's inputs per `proof` message (each one stays < 16 KB)
CHEATS = ("hand", "deck")     # test builds only (?cheat=): what a cheating host changes


def new_room_id():
    """A fresh room id, usable as a PeerJS id: "crisp-" + a room code (ui/shared/roomcode.py: 50
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


# Code points that draw nothing but are not format characters (Cf): fillers and blanks that
# would make a name invisible, and the combining grapheme joiner.
INVISIBLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E,
                       0x180F, 0x2800, 0x3164, 0xFFA0])
ZWJ = "\u200d"


def _is_emoji(ch):
    """A pictograph an emoji sequence joins (category So: \U0001F469, \u2764, ...)."""
    return unicodedata.category(ch) == "So"


def _emoji_before(chars):
    """True when `chars` ends with an emoji, maybe followed by its presentation selector
    (U+FE0F) or a skin tone (U+1F3FB..U+1F3FF): where a joiner may continue the sequence."""
    i = len(chars) - 1
    while i >= 0 and (chars[i] == "\ufe0f" or 0x1F3FB <= ord(chars[i]) <= 0x1F3FF):
        i -= 1
    return i >= 0 and _is_emoji(chars[i])


def clean_name(name):
    """A player's name as the room keeps and shows it (names are never trusted).

    `name`: what a `join` (or the host page) says. Returns it in NFC with: control, format
    (Cf), surrogate, private-use and unassigned characters dropped, but a zero-width joiner
    between two emoji (an emoji sequence such as a family); invisible fillers dropped; every
    run of whitespace one space, none at the ends; at most MAX_MARKS combining marks on one
    character; at most MAX_NAME (20) characters. Raises BadMessage `bad_name` when it is not
    text or nothing visible is left.
    """
    if not isinstance(name, str):
        raise BadMessage("bad_name", "the name must be text")
    name = unicodedata.normalize("NFC", name[:MAX_NAME * 16])
    out = []
    marks = 0
    for i, ch in enumerate(name):
        kind = unicodedata.category(ch)
        if ch.isspace() or kind[0] == "Z":
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
        elif kind in ("Cc", "Cs", "Co", "Cn") or ord(ch) in INVISIBLE:
            continue
        elif kind == "Cf":
            if (ch == ZWJ and _emoji_before(out) and i + 1 < len(name)
                    and _is_emoji(name[i + 1])):
                out.append(ch)
        elif kind[0] == "M":
            # a mark on nothing (or on a space) is dropped; a tower of them is cut down
            if out and out[-1] not in (" ", ZWJ) and marks < MAX_MARKS:
                out.append(ch)
                marks += 1
        else:
            out.append(ch)
            marks = 0
    name = unicodedata.normalize("NFC", "".join(out))[:MAX_NAME]
    # A cut at 20 characters must not leave half an emoji sequence: drop a dangling joiner.
    name = name.strip(" " + ZWJ)
    if not any(not unicodedata.category(ch).startswith("M") and ch not in (" ", ZWJ)
               for ch in name):
        raise BadMessage("bad_name", "the name has nothing visible")
    return name


def name_key(name):
    """What two names are compared by: case-folded, NFKC (so "ANA", "ana" and "\uff21na"
    are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def bot_name(seat):
    """A bot's name, by its seat: "Bot 2". People may not take names of this form."""
    return "Bot " + str(seat)


def is_bot_name(name):
    key = name_key(name)
    return key.startswith("bot") and key[3:].strip().isdigit()


def check_name(name):
    """`clean_name`, and no name a bot goes by (`Bot 3`): BadMessage `name_taken`."""
    name = clean_name(name)
    if is_bot_name(name):
        raise BadMessage("name_taken", "that name is taken by the bots: pick another one")
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
                 make_bot=None, succession=None):
        self.room_id = room_id
        # The secret the room's next ids derive from (handover.room_id_after): 16 random
        # bytes as hex, sent in `welcome` to seated people only, never to spectators.
        self.succession = succession if succession is not None else secrets.token_hex(16)
        if not handover.is_secret(self.succession):
            raise ValueError("succession: %d hex digits" % handover.SECRET_HEX)
        # Without a seed every room would deal the same decks: draw one (64 bits).
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.deck = list(deck) if deck else None
        if self.deck is not None and (not all(is_card(c) for c in self.deck)
                                      or len(set(self.deck)) != len(self.deck)):
            raise ValueError("deck: distinct card codes only")
        self.make_token = make_token
        self.make_bot = make_bot
        self.options = dict(DEFAULT_OPTIONS)
        self.seats = [Seat(check_name(host_name), self._token())]
        self.host = 0             # the host's seat ("local"): 0, or its successor's after a
                                  # handover (`from_handover`)
        self.game = None
        self.log = []             # engine events of the current round (for replays)
        self.history = []         # each finished round's points of this game, per seat
        self.games = 0            # games played to the end in this room
        self.peeks = {}           # seat -> its peek reveal of the current round
        self.conns = {}           # conn -> seat index
        self.buckets = {}         # conn -> [tokens, at, last rate_limited error] (flood control)
        self.peers = {}           # conn -> the remote PeerJS id (bound into the seat proofs)
        self.proving = {}         # conn -> a rejoin waiting for its seat proof (`_join`)
        self.gate = Gate()        # connections not seated yet (ui/shared/gate.py)
        self.dropped = []         # connections the page must close (`take_dropped`)
        self.spectators = {}      # conn -> {"seen": ms, "ask": None | {"seat", "name"},
                                  #          "follow": its follow token (32 hex)}
        self.followers = []       # the old room's spectators this room's host tells where
                                  # it went after a handover ([{"peer", "follow"}]: `moved`)
        self.seal_n = 0           # seals sent (`seal_out`): the newest box wins
        self.sealed_at = None     # when the last one went
        self.standby_sent = None  # (designate, its conn, tokens) the last `standby` was for
        self.now = 0
        self.fair = None          # the committed shuffle of this round (or the next deal)
        self.cheat = None         # test builds only: "hand" | "deck", a host that cheats

    # ---- entry points -------------------------------------------------------------------

    def open(self, conn, now, peer=None):
        """A data connection from PeerJS id `peer` (the signaling server's word for who opened
        it) arrived; it gets a seat only with `join`, and must be seated within JOIN_MS
        (ui/shared/gate.py): the connections this pushes out are in `take_dropped()`."""
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
        self.spectators.pop(conn, None)
        self.buckets.pop(conn, None)
        self.peers.pop(conn, None)
        self.proving.pop(conn, None)
        self.gate.forget(conn)

    def close(self, conn, now):
        """A data connection closed: its seat stays, marked not connected."""
        now = self._clock(now)
        watcher = self.spectators.get(conn)
        self._forget(conn)
        seat = self.conns.pop(conn, None)
        if seat is None:
            if watcher is not None and watcher["ask"] is not None:
                return self._broadcast()      # its request for a seat goes with it
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
        self.spectators = {}
        self.gate.clear()
        for index, seat in enumerate(self.seats):
            seat.conn = None
            seat.seen = None
            if index != self.host and seat.bot is None:
                seat.away_since = now
        return []

    def tick(self, now):
        """Fire the engine's deadlines, bots' moves and what is due for away players at `now`;
        send views if anything moved."""
        now = self._clock(now)
        for conn in self.gate.expired(now):
            self._drop(conn)
        for conn in list(self.spectators):
            if now - self.spectators[conn]["seen"] >= SPECTATOR_SILENT_MS:
                self._drop(conn)              # a watching tab that died without a word
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
        for watcher in self.spectators.values():
            times.append(watcher["seen"] + SPECTATOR_SILENT_MS)
        if self.game is not None:
            deadline = self.game.next_deadline()
            if deadline is not None:
                times.append(deadline)
        for index, seat in enumerate(self.seats):
            if seat.plan is not None:
                times.append(seat.plan["at"])
            if index == self.host or seat.bot is not None:
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
            watcher = self.spectators.get(conn)
            if watcher is not None:
                watcher["seen"] = now
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
            if (index != self.host and seat.conn is not None and seat.away_since is None
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
            for index in range(len(self.seats)):
                if index == self.host:
                    continue
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
        if kind == "watch":
            _fields(msg, ())
            return self._watch(conn, now)
        if kind == "sit":
            _fields(msg, ("name",), ("seat",))
            return self._sit(conn, msg, now)
        if kind == "leave":
            _fields(msg, ())
            return self._leave(conn, now)
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
        seat = self.host if conn == LOCAL else None
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
        name = self._name_for(seat, name)
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
        self.spectators.pop(conn, None)
        self.gate.joined(conn)
        if new:                   # trust on first use: the only time a token is sent
            out.append((conn, self._welcome(seat, token=self.seats[seat].token)))
        else:                     # a proven rejoin, or the host's own seat: no token
            out.append((conn, self._welcome(seat)))
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

    # ---- spectators, leaving (docs/protocol.md "Spectators", "Leaving") -------------------

    def _watch(self, conn, now):
        """A connection with no seat watches: it gets public information only (the lobby, or
        the spectator view and public events) and is not closed for being unseated; at most
        MAX_SPECTATORS at a time (rate-limited like every connection)."""
        if conn == LOCAL or conn in self.conns or conn in self.proving:
            raise BadMessage("already_joined", "this connection already has a seat")
        if conn not in self.spectators:
            if len(self.spectators) >= MAX_SPECTATORS:
                self._drop(conn)
                return [(conn, self._error("too_many_watchers", "too many people are watching"))]
            # its follow token: the room's next host proves the room's new id with it
            # (docs/protocol.md "Spectators follow a handover")
            self.spectators[conn] = {"seen": now, "ask": None, "follow": self._follow_token()}
            self.gate.joined(conn)
        return [(conn, self._watching_text(conn))] + self._watcher_update(conn, replay=True)

    def _watching_text(self, conn):
        watcher = self.spectators[conn]
        return self._msg("watching", room=self.room_id, ask=watcher["ask"], host=self.host,
                         follow=watcher["follow"])

    def _follow_token(self):
        return secrets.token_hex(handover.FOLLOW_HEX // 2)

    def watchers(self):
        """The spectators the room's next host tells where the room went (`moved`): their
        PeerJS ids (as the signaling server named them) and follow tokens,
        [{"peer", "follow"}], at most handover.MAX_WATCHERS; kept in the sealed room and the
        designate's `standby`, never sent to a spectator."""
        return handover.watchers([{"peer": self.peers.get(conn), "follow": w["follow"]}
                                  for conn, w in self.spectators.items()])

    def _watcher_update(self, conn, replay=False):
        """The lobby, or the spectator view (with the round's public events on `replay`)."""
        if self.game is None:
            return [(conn, self._lobby_text())]
        events = public_events(self.log)[-LOG_REPLAY:] if replay else []
        return [(conn, self._spectator_text(self._players(), events))]

    def _sit(self, conn, msg, now):
        """A spectator asks for a seat: `seat` (an away person's, or one a bot plays) for the
        host to `approve`, or none: seated when the next game starts (`new_game`). In the
        lobby a spectator just joins."""
        watcher = self.spectators.get(conn)
        if watcher is None:
            raise BadMessage("not_watching", "watch the game first")
        if self.game is None:
            raise BadMessage("not_started", "the game has not started: join it")
        name = clean_name(msg["name"])
        index = msg.get("seat")
        if index is not None:
            if not _is_int(index) or not self._guest_seat(index):
                raise BadMessage("bad_message", "seat must be a guest's seat")
            if not self._open_seat(index):
                raise BadMessage("seat_taken", "that seat is played by someone who is here")
        watcher["ask"] = {"seat": index, "name": name}
        return [(conn, self._watching_text(conn))] + self._broadcast()

    def _open_seat(self, index):
        """A seat a spectator may take: not the host's, played by a bot, or its person away."""
        seat = self.seats[index]
        return index != self.host and (seat.bot is not None or seat.stand_in is not None
                               or seat.away_since is not None)

    def _host_approve(self, msg, now):
        """The host gives seat `seat` to the spectator asking for it: a new token (the seat's
        old one opens nothing any more), the seat's name, the current view and the round's
        log; a bot playing it stops."""
        _fields(msg, ("seat",))
        if self.game is None:
            raise BadMessage("not_started", "the game has not started")
        index = msg["seat"]
        if not _is_int(index) or not self._guest_seat(index):
            raise BadMessage("bad_message", "seat must be a guest's seat")
        conn = self._asker(index)
        if conn is None:
            raise BadMessage("no_request", "nobody asks for that seat")
        if not self._open_seat(index):
            raise BadMessage("seat_taken", "that seat is played by someone who is here")
        name = self.spectators[conn]["ask"]["name"]
        out = []
        seat = self.seats[index]
        if seat.conn is not None:
            self.conns.pop(seat.conn, None)
            out.append((seat.conn, self._kicked("replaced", "the host gave your seat away")))
        seat.conn = None
        seat.bot = None
        seat.stop_stand_in()
        seat.agent = None
        seat.plan = None
        seat.token = self._token()
        for other in self.spectators.values():
            if other["ask"] is not None and other["ask"]["seat"] == index:
                other["ask"] = None
        return out + self._seat_new(conn, index, name, now)

    def _asker(self, index):
        """The spectator asking for seat `index` (the first to ask), or None."""
        for conn, watcher in self.spectators.items():
            if watcher["ask"] is not None and watcher["ask"]["seat"] == index:
                return conn
        return None

    def _welcome(self, seat, token=None):
        """The `welcome` to the person at `seat` (a proven seat only: never a spectator):
        its seat, the room id, the host's seat and the room's succession secret
        (handover.room_id_after), with the seat's token only when it is new."""
        if token is not None:
            return self._msg("welcome", seat=seat, token=token, room=self.room_id,
                             host=self.host, succession=self.succession)
        return self._msg("welcome", seat=seat, room=self.room_id, host=self.host,
                         succession=self.succession)

    def _seat_new(self, conn, index, name, now):
        """Seat spectator `conn` at seat `index` (its token already fresh): the welcome
        carries the token, as any new seat's."""
        seat = self.seats[index]
        seat.name = name
        seat.conn = conn
        seat.seen = now
        seat.away_since = None
        self.conns[conn] = index
        self.spectators.pop(conn, None)
        out = [(conn, self._welcome(index, token=seat.token))]
        return out + self._broadcast(replay_to=index)

    def _leave(self, conn, now):
        """A guest leaves: in the lobby its seat frees up; at the table a bot takes it for
        good (its token opens nothing any more). The leaving page hears `kicked` `left`."""
        if conn == LOCAL:
            if self.game is None:
                raise BadMessage("not_allowed", "the host's page closes the room itself")
            # The host leaves mid-game: every page hears it at once and hands the room over
            # to the designated successor without waiting for the host to count as gone
            # (docs/protocol.md "Host handover"); the host's seat is sealed as it is.
            return [(c, self._msg("host_leaving", host=self.host))
                    for c in list(self.conns) + list(self.spectators) if c != LOCAL]
        if conn in self.spectators:
            self._forget(conn)
            return [(conn, self._kicked("left", "you left"))] + self._broadcast()
        index = self.conns.get(conn)
        if index is None:
            raise BadMessage("not_joined", "join the room first")
        if self.game is None:
            return self._remove_seat(index, "left", "you left")
        seat = self.seats[index]
        self.conns.pop(conn, None)
        self._forget(conn)
        seat.conn = None
        seat.token = None
        seat.stop_stand_in()
        seat.away_since = now
        if self.make_bot is not None:
            seat.bot = LEFT_BOT
            seat.away_since = None
            seat.agent = self.make_bot(LEFT_BOT, index)
            seat.plan = seat.agent.plan(view_for(self.game, index, now),
                                        events_for(self.log, index), now)
        out = [(conn, self._kicked("left", "you left"))]
        return out + self._broadcast() + self._advance(now)

    def _name_for(self, seat, name):
        """The name `seat` (None: a new seat) gets from a `join` saying `name`. Once the game
        has started a seat's name is frozen: a rejoin keeps it whatever `join` says. In the
        lobby the name is cleaned (`clean_name`) and refused (`name_taken`) when it equals
        another seat's (`name_key`: case-folded, NFKC) or a bot's (`Bot 3`)."""
        if self.game is not None:
            if seat is None:
                return clean_name(name)           # (refused: the game has started)
            if not isinstance(name, str):
                raise BadMessage("bad_name", "the name must be text")
            return self.seats[seat].name
        name = check_name(name)
        key = name_key(name)
        for index, other in enumerate(self.seats):
            if index != seat and name_key(other.name) == key:
                raise BadMessage("name_taken", "that name is taken: pick another one")
        return name

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
        return self._apply(self.host, {"do": "next_round"}, now)

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
        out = []
        for conn in list(self.spectators):
            # Spectators who asked for a seat are seated in the new game, while there is room.
            ask = self.spectators[conn]["ask"]
            if ask is not None and len(self.seats) < MAX_SEATS:
                self.seats.append(Seat(ask["name"], self._token()))
                out += self._seat_new(conn, len(self.seats) - 1, ask["name"], now)
        return out + self._broadcast()

    def _host_add_bot(self, msg, now):
        _fields(msg, ("level",))
        self._in_lobby()
        if msg["level"] not in BOT_LEVELS:
            raise BadMessage("bad_message", "level must be easy or hard")
        if self.make_bot is None:
            raise BadMessage("no_bots", "bots are not available")
        if len(self.seats) >= MAX_SEATS:
            raise BadMessage("room_full", "the room is full")
        seat = Seat(bot_name(len(self.seats)), None, bot=msg["level"])
        self.seats.append(seat)
        seat.agent = self.make_bot(seat.bot, len(self.seats) - 1)
        return self._broadcast()

    def _host_remove(self, msg, now):
        """The host removes a bot or a person from the lobby (its page hears `removed`)."""
        _fields(msg, ("seat",))
        self._in_lobby()
        index = msg["seat"]
        if not _is_int(index) or not self._guest_seat(index):
            raise BadMessage("bad_message", "seat must be a guest's seat")
        return self._remove_seat(index, "removed", "the host removed you")

    def _remove_seat(self, index, code, text):
        """Take seat `index` out of the lobby; the seats after it move down."""
        out = []
        gone = self.seats.pop(index)
        if index < self.host:
            self.host -= 1            # (after a handover the host may sit after it)
        if gone.conn is not None:
            out.append((gone.conn, self._kicked(code, text)))
        self.conns = {}
        for i, seat in enumerate(self.seats):
            if seat.conn is not None:
                self.conns[seat.conn] = i
        for i, seat in enumerate(self.seats):
            if i >= index and seat.conn is not None:
                # Seats after the removed one move down: tell them their new seat.
                out.append((seat.conn, self._welcome(i)))
            if seat.bot is not None:
                seat.name = bot_name(i)            # named by their seat: never two "Bot 2"
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
        if not _is_int(index) or not self._guest_seat(index) \
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
            index != self.host and seat.bot is None for index, seat in enumerate(self.seats))

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
                 if index != self.host and seat.bot is None and seat.stand_in is None
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
        game.hands[self.host][1], game.deck[best] = game.deck[best], game.hands[self.host][1]

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
            if index != self.host:
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
                seat.plan = self._plan(index, view, mine, now)
        if self.spectators:
            text = self._spectator_text(players, public_events(events))
            out += [(conn, text) for conn in self.spectators]
        return out

    def _plan(self, index, view, events, now):
        """Ask seat `index`'s bot for its next move. A bot that fails (its memory came from a
        tampered save and does not fit the table) is replaced by a fresh one, which starts
        from what the seat was shown this round: a bot never takes the room down."""
        seat = self.seats[index]
        try:
            return seat.agent.plan(view, events, now)
        except Exception:
            seat.agent = None
            level = seat.bot or seat.stand_in
            if self.make_bot is None or level is None:
                return None
            seat.agent = self.make_bot(level, index)
            try:
                return seat.agent.plan(view, events_for(self.log, index), now)
            except Exception:
                return None

    def _spectator_text(self, players, events):
        """A view message for spectators: the spectator projection (public information only,
        crisp_core.spectator_view) and public events."""
        view = spectator_view(self.game, self.now)
        while True:
            text = self._msg("view", n=0, view=view, events=events, players=players)
            if len(text.encode("utf-8")) < MAX_TEXT or not events:
                return text
            events = events[max(1, len(events) // 4):]

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
        return ([(seat.conn, text) for seat in self.seats if seat.conn is not None]
                + [(conn, text) for conn in self.spectators])

    def _players(self):
        """Each seat's name, bot level, presence and games won; `asks`: the name of a
        spectator asking for that seat (docs/protocol.md "Spectators"), when one does."""
        players = [{"seat": i, "name": s.name, "bot": s.bot or s.stand_in,
                    "connected": s.bot is not None or (s.conn is not None
                                                       and s.away_since is None),
                    "wins": s.wins}
                   for i, s in enumerate(self.seats)]
        for watcher in self.spectators.values():
            ask = watcher["ask"]
            if ask is not None and ask["seat"] is not None and ask["seat"] < len(players) \
                    and "asks" not in players[ask["seat"]]:
                players[ask["seat"]]["asks"] = ask["name"]
        return players

    def _lobby_text(self):
        return self._msg("lobby", players=self._players(), options=dict(self.options),
                         host=self.host, started=self.game is not None, games=self.games)

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

    def _guest_seat(self, index):
        """True for a seat of this room that is not the host's."""
        return _is_int(index) and 0 <= index < len(self.seats) and index != self.host

    def _token(self):
        return self.make_token(16)

    def _seat_of_id(self, seat_id):
        """The guest seat whose token's public id is `seat_id`, or None (never the host's)."""
        for index, seat in enumerate(self.seats):
            if index != self.host and seat.token is not None and secrets.compare_digest(
                    proof.seat_id(seat.token), seat_id):
                return index
        return None

    def _seat_of_token(self, token):
        if not token:
            return None
        for index, seat in enumerate(self.seats):
            if index != self.host and seat.token is not None \
                    and secrets.compare_digest(seat.token, token):
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
        return {"room_id": self.room_id, "host": self.host, "seed": self.seed, "deck": self.deck,
                "options": dict(self.options), "seats": [s.to_dict() for s in self.seats],
                "game": self.game.to_dict() if self.game is not None else None,
                "log": list(self.log), "peeks": {str(k): v for k, v in self.peeks.items()},
                "now": self.now, "history": [list(r) for r in self.history],
                "games": self.games, "fair": self.fair, "succession": self.succession}

    @classmethod
    def from_dict(cls, d, make_token=secrets.token_hex, make_bot=None, load_bot=Bot.from_dict):
        """The room saved by `to_dict` (the host's localStorage: maybe truncated or tampered
        with). Raises ValueError with a short English reason unless it is whole and
        consistent: `check_saved` (room), `Game.from_dict` (the game). Names are cleaned as a
        `join`'s are. Its bots come back with their memory (`load_bot`, a saved bot's
        `to_dict` -> bot; a bot state that does not load, or is another seat's, gives a fresh
        bot); `make_bot` makes the bots added from now on (and one for a seat saved without
        its bot's state)."""
        check_saved(d)
        try:
            game = Game.from_dict(d["game"]) if d["game"] is not None else None
            names = [clean_name(s["name"]) for s in d["seats"]]
        except BadMessage as e:
            raise ValueError("saved room: a seat's name: " + e.text)
        if game is not None:
            if game.players != len(d["seats"]):
                raise ValueError("saved room: the game has %d seats, the room %d"
                                 % (game.players, len(d["seats"])))
            if any(game.options[key] != d["options"][key] for key in DEFAULT_OPTIONS):
                raise ValueError("saved room: the game's options are not the room's")
        try:
            room = cls(d["room_id"], names[0], seed=d["seed"], deck=d["deck"],
                       make_token=make_token, make_bot=make_bot,
                       succession=d.get("succession"))   # (checked: check_saved)
        except BadMessage as e:
            raise ValueError("saved room: the host's name: " + e.text)
        room.options = dict(d["options"])
        room.seats = []
        for i, s in enumerate(d["seats"]):
            seat = Seat(names[i], s["token"], bot=s["bot"])
            seat.n = s["n"]
            seat.stand_in = s["stand_in"] if game is not None else None
            wins = s.get("wins", 0)
            seat.wins = wins if _is_int(wins) and wins >= 0 else 0
            level = seat.bot or seat.stand_in
            if s["agent"] is not None and level is not None:
                try:
                    agent = load_bot(s["agent"])
                    if getattr(agent, "seat", i) == i:
                        seat.agent = agent
                        seat.plan = s["plan"]
                except (ValueError, TypeError, KeyError, AttributeError, IndexError):
                    seat.agent = None
            if seat.agent is None and level is not None and make_bot is not None:
                seat.agent = make_bot(level, i)
            if seat.agent is None:
                seat.stand_in = None
            if i != d.get("host", 0) and seat.bot is None:
                seat.away_since = d["now"]    # away until it rejoins
            room.seats.append(seat)
        room.host = d.get("host", 0)
        room.game = game
        room.log = list(d["log"]) if game is not None else []
        room.peeks = {int(k): v for k, v in d["peeks"].items()} if game is not None else {}
        room.now = max(d["now"], game.clock if game is not None else 0)
        history = d.get("history")
        if isinstance(history, list) and all(
                isinstance(r, list) and all(_is_int(p) for p in r) for r in history):
            room.history = [list(r) for r in history]
        games = d.get("games", 0)
        room.games = games if _is_int(games) and games >= 0 else 0
        room.fair = fair_from_dict(d.get("fair"))    # checked there: None when malformed
        return room

    # ---- the host handover (docs/protocol.md "Host handover") ------------

    def seal_holders(self):
        """The seats that hold a share of the sealed room: people other than the host, here
        now (not bots, not away, not spectators)."""
        return [i for i, s in enumerate(self.seats)
                if i != self.host and s.bot is None and s.conn is not None
                and s.away_since is None]

    def seal_due(self, now):
        """True when a game is on, two or more people could hold shares, and the last seal
        is SEAL_MS old: the page then calls `seal_out`."""
        return (self.game is not None and len(self.seal_holders()) >= seal.THRESHOLD
                and (self.sealed_at is None or now - self.sealed_at >= SEAL_MS))

    def sealed_state(self, randbytes=secrets.token_bytes):
        """What the sealed box holds (docs/protocol.md "Host handover"): `to_dict()` with each
        bot's random state (2.5 KB of Mersenne Twister state a bot, incompressible) replaced
        by a fresh 64-bit seed ({"seed": n}) its next host seeds it with: the bot keeps its
        memory (the cards it saw), only its future whims differ. Everything else, the round's
        journal and log included, is kept: the successor sends the round's proof and
        replays the log to rejoining seats."""
        state = self.to_dict()
        for seat in state["seats"]:
            agent = seat.get("agent")
            if isinstance(agent, dict) and "rng" in agent:
                seat["agent"] = dict(agent, rng={"seed": int.from_bytes(randbytes(8), "big")})
        state["watchers"] = self.watchers()
        return state

    def seal_out(self, now, randbytes=secrets.token_bytes):
        """The room sealed for the players (ui/shared/seal.py): one `sealed` message to each holder
        with the box (the same for all; `sealed_state`), that seat's own share, never
        another's, and the keys with which every other holder's page, as successor, proves
        itself to this one (ui/shared/handover.py `successor_key`); nothing to spectators, bots or
        the host's own screen. [] when fewer than two could hold it, or when the message would
        pass MAX_TEXT even with the bots' memories left out (then the bots start afresh)."""
        holders = self.seal_holders()
        if self.game is None or len(holders) < seal.THRESHOLD:
            return []
        self.seal_n += 1
        self.sealed_at = now
        state = self.sealed_state(randbytes)
        for attempt in (0, 1):
            box, shares = seal.seal_room(state, self.room_id, self.seal_n, holders, randbytes)
            out = [(self.seats[i].conn, self._msg(
                "sealed", box=box, share=shares[i], host=self.host,
                keys={str(j): handover.successor_key(self.seats[j].token, self.room_id, i)
                      for j in holders if j != i}))
                for i in holders]
            if max(len(text) for _, text in out) <= MAX_TEXT:
                return out
            for seat in state["seats"]:
                seat["agent"], seat["plan"] = None, None
        return []

    def designate(self):
        """The seat that would host next if the host went now (ui/handover.successor over the
        players list every page gets), or None."""
        return handover.successor(self._players(), self.host)

    def standby_due(self):
        """True when the designated successor has not got this room's `standby` tokens for
        the seats as they are now (`standby_out`)."""
        return self.game is not None and self._standby_key() != self.standby_sent

    def _standby_key(self):
        seat = self.designate()
        if seat is None or self.seats[seat].conn is None:
            return None
        return (seat, self.seats[seat].conn,
                tuple(s.token for s in self.seats if s.bot is None),
                tuple((w["peer"], w["follow"]) for w in self.watchers()))

    def standby_out(self):
        """The designated successor's `standby`: {"seat": its seat, "tokens": {seat: the
        seat's token in a room it hosts after a handover (handover.next_token)}} for every
        person's seat (the old host's too). Only that seat's connection gets it, and the
        tokens serve only in a room that seat hosts: it needs them when the sealed room
        cannot be opened (`from_public`) so that the old host and away players can still
        prove their seats there; no one else can use them. [] when there is no designate."""
        key = self._standby_key()
        self.standby_sent = key
        if key is None:
            return []
        seat = key[0]
        tokens = {str(i): handover.next_token(s.token, self.room_id, seat)
                  for i, s in enumerate(self.seats) if s.bot is None and s.token is not None}
        return [(self.seats[seat].conn, self._msg("standby", seat=seat, tokens=tokens,
                                                  watchers=self.watchers()))]

    @classmethod
    def from_handover(cls, d, seat, now, new_id=None, make_token=secrets.token_hex,
                      make_bot=None, load_bot=Bot.from_dict, after_seal=0):
        """The room `d` (its old host's `sealed_state`, opened from the sealed box,
        ui/shared/seal.py) hosted from now on by the page of `seat` (ui/handover.successor) at PeerJS
        id `new_id` (handover.room_id_after; the room's id from now on): every seat, name,
        bot, option and score, the dealer rotation and the round in play exactly where it
        stopped. Every person's token becomes `handover.next_token(token, old id, seat)`,
        which that person's page derives from its own: the old host's seat is a guest's seat
        now, its person rejoins it through the seat proof. Every other person is away from
        `now` until it rejoins; the clock goes on from the saved one (the page sets its epoch
        so), so no deadline ran out while nobody hosted. `after_seal` (ms, an int >= 0): how
        long the old host still ran after it sealed `d`; the clock goes on from that much past
        the sealed reading, so a turn's timer resumes where it was when the host went silent
        (ValueError when it is not such an int). A bot sealed with a seed instead of
        its random state is seeded with it. Raises ValueError when `seat` is not a person's
        seat other than the old host's (or `d` is not a room)."""
        def load(agent):
            rng = agent.get("rng") if isinstance(agent, dict) else None
            if isinstance(rng, dict) and set(rng) == {"seed"} and _is_int(rng["seed"]):
                agent = dict(agent, rng=_bots._rng_state(random.Random(rng["seed"])))
            return load_bot(agent)

        d = dict(d)
        followers = handover.watchers(d.pop("watchers", None))
        if not _is_int(after_seal) or after_seal < 0:
            raise ValueError("after_seal: ms as an int >= 0")
        room = cls.from_dict(d, make_token=make_token, make_bot=make_bot, load_bot=load)
        room.now += after_seal
        room.followers = followers
        old = room.host
        if not _is_int(seat) or not 0 <= seat < len(room.seats) or seat == old \
                or room.seats[seat].bot is not None:
            raise ValueError("the new host must be a person's seat other than the old host's")
        old_id = room.room_id
        for s in room.seats:
            if s.bot is None:
                s.token = handover.next_token(s.token, old_id, seat)
        if new_id is not None:
            if not isinstance(new_id, str) or not ROOM_ID.match(new_id):
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

    @classmethod
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
        if not _is_int(seat) or not 0 <= seat < len(players):
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
            person = proof.is_hex(token, 32) and token not in seen   # (a person's seat:
            # `standby` has tokens for people only; the list shows a stand-in as a bot)
            if index == seat:
                room.seats.append(Seat(name, token if person else room._token()))
                seen.add(room.seats[-1].token)
                continue
            if person:
                seen.add(token)
                person_seat = Seat(name, token)
                person_seat.away_since = now          # until it rejoins
                room.seats.append(person_seat)
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
        room._record(room.game.deal_events())
        return room

# A PeerJS id (its own check: letters and digits, single - or _ between), at most 64 long.
ROOM_ID = re.compile(r"(?=.{1,64}\Z)[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)*\Z")
SAVED_FIELDS = ("room_id", "seed", "deck", "options", "seats", "game", "log", "peeks", "now")
SAVED_OPTIONAL = ("fair", "history", "games", "host", "succession")   # checked where they are loaded
SEAT_FIELDS = ("name", "token", "bot", "n", "stand_in", "agent", "plan")


def check_saved(d):
    """Raise ValueError (a short English reason) unless `d` has the shape of a saved room
    (`Room.to_dict`): its fields and no other; a room id PeerJS takes; an integer seed; a
    stacked deck of distinct cards or none; the lobby options; 1 to 8 seats, the host's seat
    (`host`: 0 unless the room was handed over) and every other person with a distinct token
    (text), bots without one and of a known level, a stand-in only on a person's seat other
    than the host's, bot plans with a time; the round's log and peeks as
    events; a clock; the succession secret (32 hex; a save without one gets a fresh one).
    The game itself is checked by `Game.from_dict`."""
    def bad(what):
        raise ValueError("saved room: " + what)

    if not isinstance(d, dict):
        bad("not an object")
    for key in SAVED_FIELDS:
        if key not in d:
            bad("missing " + key)
    for key in d:
        if key not in SAVED_FIELDS and key not in SAVED_OPTIONAL:
            bad("unknown field " + str(key)[:40])
    if not isinstance(d["room_id"], str) or not ROOM_ID.match(d["room_id"]):
        bad("room id")
    if not _is_int(d["seed"]):
        bad("seed")
    if "succession" in d and not handover.is_secret(d["succession"]):
        bad("succession secret")
    deck = d["deck"]
    if deck is not None and (not isinstance(deck, list) or len(deck) > 52
                             or not all(is_card(c) for c in deck)
                             or len(set(deck)) != len(deck)):
        bad("stacked deck")
    options = d["options"]
    if not isinstance(options, dict) or set(options) != set(DEFAULT_OPTIONS):
        bad("options")
    try:
        normalize_options(dict(options, players=2))
    except ValueError as e:
        bad("options: " + str(e))
    seats = d["seats"]
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        bad("1 to 8 seats")
    host = d.get("host", 0)
    if not _is_int(host) or not 0 <= host < len(seats):
        bad("host")
    tokens = set()
    for i, s in enumerate(seats):
        if not isinstance(s, dict) or not set(SEAT_FIELDS) <= set(s) <= set(SEAT_FIELDS) | {"wins"}:
            bad("seat %d" % i)
        if s["bot"] is None:
            token = s["token"]
            if not isinstance(token, str) or not 0 < len(token) <= 128 or token in tokens:
                bad("seat %d: token" % i)
            tokens.add(token)
            if s["stand_in"] is not None and (i == host or s["stand_in"] not in BOT_LEVELS):
                bad("seat %d: stand-in" % i)
        elif i == host or s["bot"] not in BOT_LEVELS or s["token"] is not None \
                or s["stand_in"] is not None:
            bad("seat %d: bot" % i)
        if not _is_int(s["n"]) or s["n"] < 0:
            bad("seat %d: view count" % i)
        if s["agent"] is not None and not isinstance(s["agent"], dict):
            bad("seat %d: bot state" % i)
        plan = s["plan"]
        if plan is not None and (not isinstance(plan, dict) or set(plan) != {"at", "action"}
                                 or not _is_int(plan["at"])
                                 or not isinstance(plan["action"], dict)):
            bad("seat %d: bot plan" % i)
    # (after a handover the seat that hosts need not be seat 0: checked above, as a person)
    log = d["log"]
    if not isinstance(log, list) or len(log) > LOG_KEEP or not all(
            is_event(e, len(seats)) for e in log):
        bad("log")
    peeks = d["peeks"]
    if not isinstance(peeks, dict):
        bad("peeks")
    for key, event in peeks.items():
        if (not key.isdigit() or not 0 <= int(key) < len(seats)
                or not is_event(event, len(seats))
                or event["type"] != "reveal" or event["to"] != int(key)):
            bad("peeks")
    if not _is_int(d["now"]) or d["now"] < 0:
        bad("clock")


# Each event type and the fields it always has (docs/protocol.md "Events").
EVENT_TYPES = {
    "deal": ("round", "dealer"), "reveal": ("to", "reason", "cards"), "ready": ("seat", "auto"),
    "play": ("turn",), "draw": ("seat", "from"), "recycle": ("count",),
    "swap": ("seat", "pos", "card"), "discard": ("seat", "card"), "jack": ("seat", "card"),
    "queen": ("seat", "card", "pos", "target", "target_pos"), "king": ("seat", "card", "pending"),
    "timeout": ("seat", "card", "forced", "lost"), "turn": ("seat",), "crisp": ("seat",),
    "round_over": ("hands", "round_points", "scores"), "game_over": ("winners",),
}


def is_event(e, players):
    """True when `e` has the shape of an engine event (docs/protocol.md "Events") at a table
    of `players` seats: a known type, and every field of its kind with a fitting value."""
    def seat(v):
        return _is_int(v) and 0 <= v < players

    def card(v):
        return v is None or is_card(v)

    def count(v):
        return _is_int(v) and 0 <= v <= 1000

    def ints(v):
        return isinstance(v, list) and len(v) == players and all(_is_int(x) for x in v)

    def shown(v):
        return isinstance(v, list) and len(v) <= 3 and all(
            isinstance(c, dict) and set(c) == {"seat", "pos", "card"} and seat(c["seat"])
            and c["pos"] in POSITIONS + ("held",) and is_card(c["card"]) for c in v)

    fields = {
        "seat": seat, "to": seat, "turn": seat, "dealer": seat, "target": seat,
        "pos": lambda v: v in POSITIONS, "target_pos": lambda v: v in POSITIONS,
        "card": card, "taken": is_card, "cards": shown,
        "from": lambda v: v in ("deck", "discard"),
        "reason": lambda v: v in ("peek", "draw", "jack", "queen"),
        "auto": lambda v: isinstance(v, bool), "forced": lambda v: isinstance(v, bool),
        "away": lambda v: isinstance(v, bool),
        "round": count, "count": count, "pending": count, "lost": count,
        "hands": lambda v: isinstance(v, list) and len(v) == players and all(
            isinstance(h, list) and len(h) == 3 and all(is_card(c) for c in h) for h in v),
        "round_points": ints, "scores": ints,
        "winners": lambda v: isinstance(v, list) and len(v) <= players and all(
            seat(x) for x in v),
    }
    if not isinstance(e, dict) or not isinstance(e.get("type"), str) \
            or e["type"] not in EVENT_TYPES:
        return False
    if any(key not in e for key in EVENT_TYPES[e["type"]]):
        return False
    for key, value in e.items():
        if key != "type" and (key not in fields or not fields[key](value)):
            return False
    return True
