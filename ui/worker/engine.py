"""The host's room behind a message port: what the engine worker (engine-worker.js, Pyodide in
a Web Worker) runs. The host page's main thread (MicroPython) owns the transport, the timers
and the storage; it sends this one request at a time and gets one reply per request.

Pure Python like ui/worker/room.py (no `js`, no clock, no I/O): CPython tests drive it directly.

Requests (JSON objects; `now`: the room's clock in ms, from the page):
  {"op": "create", "room_id", "name", "seed": int|null, "deck": [card]|null, "pace", "now",
   "lang": "es"|"en" (the bots' names; English when missing),
   "deck_once": true (optional: the stacked deck deals round 1 only, the guided round's),
   "guided": true (optional, with deck_once: the guided round, ui/worker/guide.py),
   "door": the page's PeerJS token for the room id (optional, 32 hex: ui/shared/door.py)}
  {"op": "restore", "saved": <Room.to_dict()>, "pace", "now"}     a reloaded host's room
                                              (or a hostlife.draft: the room made afresh)
  {"op": "receive", "conn", "text", "now"}    a message from `conn` ("local": the host's screen)
  {"op": "open", "conn", "peer", "now"}       a data connection from PeerJS id `peer`
  {"op": "close", "conn", "now"}              a data connection closed
  {"op": "tick", "now"}                       fire what is due
  {"op": "drop"}                              forget the room (the host left it)
  {"op": "alive"}                             the page's probe of a quiet worker (its
                                              watchdog, ui/page/host/enginewatch.py)
  {"op": "check", "saved": <Room.to_dict()>}  would this saved room load? (the landing asks
                                              before it offers one: Room.from_dict's checks)
  {"op": "takeover", "handover": <ui/worker/takeover.py spec>, "pace", "now",
   "lang": "es"|"en" (the new host's: the bots' names from now on)}   this page hosts the
                                              room from now on (host handover): until the room
                                              is made (two shares open the sealed box, or it is
                                              dealt again) `open`/`receive`/`close` wait, but
                                              for the share exchange (ui/worker/takeover.py)
Reply (one per request):
  {"op": "out", "out": [[conn, text, kind]], "save": <JSON text of Room.to_dict()> | null,
   "wakeup": ms | null, "started": bool, "room": room id | null,
   "dropped": [conn]}  the connections the room closed (ui/shared/gate.py): the page closes them
  {"op": "refused", "error": text, "code": str|null}   a request that makes no sense (no
                                     room yet, bad field, a refused save); `code`: the room's
                                     error code when it refused a name (e.g. "name_taken")
  {"op": "out", "checked": room id}  (to "check") the saved room would load
  {"op": "out", "alive": true}       (to "alive") the engine runs
  (engine-worker.js adds "failed": true to the refusals it sends when Pyodide could not start)
`kind` is each output's message type, as the room made it (typed outputs, encoded here once);
`save` is there whenever the room changed (anything but pongs and errors went out, or a
change that sends nothing: a contribution the deal still waits with, `Room.unsaved`).
After every request that ran the room, the room's `sealed` and `standby` messages that are due
(its sealing policy: Room.after_request, ui/worker/succession.py) go out with the reply;
a reply may carry "handover": "sealed" | "public" once a takeover made its room, and
"door": [first id, token] while the room is hosted away from its first id with the box's door
token (ui/shared/door.py `door_claim`: the page keeps a door there).
"""

import json
import secrets

from crisp_core import bot_names
from ui.shared import door, hostlife, savedroom, spectator_moves, wire
from ui.worker import idle
from ui.worker.room import BadMessage, Room, bot_maker
from ui.worker.takeover import Takeover, share_kind

OPS = ("create", "restore", "receive", "open", "close", "tick", "drop", "check", "takeover",
       "alive")
WAITING_MAX = 200           # requests kept while a takeover waits for its room


class Engine:
    """At most one Room, driven by requests (see the module doc)."""

    def __init__(self):
        self.room = None
        self.takeover = None        # a host handover waiting for its room (ui/worker/takeover.py)
        self.waiting = []           # the open/receive/close requests meanwhile
        self.how = None             # how the last takeover made its room
        self.pace = 1.0
        self.lang = None            # the last takeover's page language (the bots' names)

    def handle(self, request_text):
        """One request (JSON text) -> one reply (JSON text). Never raises."""
        try:
            request = json.loads(request_text)
        except (ValueError, TypeError):
            return _refused("not JSON")
        if not isinstance(request, dict) or request.get("op") not in OPS:
            return _refused("unknown op")
        try:
            return _text(getattr(self, "_" + request["op"])(request))
        except BadMessage as e:   # e.g. a host's name the room refuses
            return _refused(e.text, e.code)
        except Exception as e:    # a bad request or a hostile save: refused, the room goes on
            return _refused("%s: %s" % (type(e).__name__, e))

    def _now(self, request):
        now = request.get("now")
        if not isinstance(now, (int, float)) or isinstance(now, bool):
            raise ValueError("now must be a number")
        return int(now)

    def _create(self, request):
        now = self._now(request)
        seed = request.get("seed")
        seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else None
        room_id, name = request["room_id"], request["name"]
        if not isinstance(room_id, str) or not isinstance(name, str):
            raise TypeError("room_id and name must be text")
        if not spectator_moves.is_peer_id(room_id):
            raise ValueError("not a room id")
        try:
            room = Room(room_id, name, seed=seed, deck=request.get("deck") or None)
        except ValueError:
            room = Room(room_id, name, seed=seed)       # a bad test deck is ignored
        _run_here(room, _pace(request))
        room.cheat = _cheat(request)
        room.deck_once = room.deck is not None and request.get("deck_once") is True
        room.guided = room.deck_once and request.get("guided") is True
        token = request.get("door")
        room.door = token if door.is_door_token(token) else None
        room.lang = _lang(request.get("lang"), "en")
        room.now = now
        self.room = room
        return self._reply([], True)

    def _restore(self, request):
        saved = request["saved"]
        if not hostlife.resumable(saved):
            raise ValueError("not a resumable room")
        if saved.get("draft") is True:
            # created while the engine started, never saved by the room: make it again
            room_id, name, seed, deck, lang = savedroom.draft_fields(saved)
            return self._create({"room_id": room_id, "name": name, "seed": seed, "deck": deck,
                                 "pace": request.get("pace"), "cheat": request.get("cheat"),
                                 "now": request.get("now"), "lang": lang,
                                 "door": request.get("door")})
        room = Room.from_dict(saved, make_bot=bot_maker(saved.get("seed"), _pace(request)))
        _run_here(room, _pace(request))
        room.cheat = _cheat(request)
        out = room.resumed(self._now(request))
        self.room = room
        return self._reply(out, True)

    def _receive(self, request):
        text = request["text"]          # not text (a binary payload): the room says so
        now = self._now(request)
        if self.takeover is not None:
            # while the room is made: the share exchange is the takeover's (read through the
            # wire, ui/shared/wire.py BETWEEN), anything else waits for the room
            kind = share_kind(text) if request["conn"] != "local" else None
            if kind is not None:
                return self._pending(self.takeover.receive(request["conn"], kind, text), now)
            return self._wait(request, now)
        # (once the room runs it takes a late share message itself: it changes nothing)
        return self._out(self._room().receive_out(request["conn"], text, now), now)

    def _open(self, request):
        peer = request.get("peer")
        peer = peer if isinstance(peer, str) else None
        now = self._now(request)
        if self.takeover is not None:
            self.takeover.opened(request["conn"], peer)
            return self._wait(request, now)
        return self._out(self._room().open(request["conn"], now, peer=peer), now)

    def _close(self, request):
        now = self._now(request)
        if self.takeover is not None:
            self.takeover.closed(request["conn"])
            return self._wait(request, now)
        return self._out(self._room().close_out(request["conn"], now), now)

    def _tick(self, request):
        now = self._now(request)
        if self.takeover is not None:
            return self._pending([], now)
        return self._out(self._room().tick_out(now), now)

    # ---- a host handover: this page hosts the room from now on ---------------------------

    def _takeover(self, request):
        now = self._now(request)
        self.room = None
        self.waiting = []
        self.pace = _pace(request)
        self.lang = request.get("lang")
        self.takeover = Takeover(request["handover"], now,
                                 make_bot=bot_maker(secrets.randbits(64), self.pace))
        return self._pending([], now)

    def _wait(self, request, now):
        if len(self.waiting) < WAITING_MAX:
            self.waiting.append(request)
        return self._pending([], now)

    def _pending(self, out, now):
        """While a takeover waits: its replies; once its room is made, that room runs the
        requests that waited, and the reply carries all their outputs."""
        takeover = self.takeover
        room = takeover.room(now)
        if room is None:
            return {"op": "out", "out": _encoded(out),
                    "save": None, "wakeup": takeover.deadline, "started": True,
                    "room": takeover.new_id, "dropped": []}
        self.takeover = None
        self.how = takeover.how
        self.room = room
        _run_here(room, self.pace)
        # the bots come named in the host's language, and this page hosts now
        room.lang = _lang(self.lang, room.lang)
        room.seal_dirty = True      # a new host seals its room for the players at once
        for request in self.waiting:
            conn = request.get("conn")
            if request["op"] == "open":
                out += room.open(conn, now, peer=request.get("peer"))
            elif request["op"] == "close":
                out += room.close_out(conn, now)
            else:
                out += room.receive_out(conn, request.get("text"), now)
        self.waiting = []
        reply = self._out(out, now)
        reply["handover"] = takeover.how
        reply["follow"] = takeover.moved(room)     # the old room's spectators: where it went
        reply["clock"] = room.now
        reply["save"] = _text(room.to_dict())
        return reply

    def _check(self, request):
        """Whether a saved room would load (Room.from_dict's checks: ValueError or TypeError
        when it would not), without running it or touching the room in play."""
        saved = request["saved"]
        Room.from_dict(saved)
        return {"op": "out", "checked": saved.get("room_id")}

    def _alive(self, request):
        """The page's probe: the engine runs (it changes nothing)."""
        return {"op": "out", "alive": True}

    def _drop(self, request):
        self.room = None
        self.takeover = None
        self.waiting = []
        return {"op": "out", "out": [], "save": None, "wakeup": None, "started": False,
                "room": None, "dropped": []}

    def _room(self):
        if self.room is None:
            raise ValueError("no room")
        return self.room

    def _out(self, out, now=None):
        """The reply to a request that ran the room: its typed outputs `out` [(conn, kind,
        message)] and the seals and standby the room's sealing policy adds, encoded here,
        each message once (the edge: ui/shared/wire.py `encode_all`)."""
        changed = any(kind not in hostlife.UNSAVED_KINDS for _, kind, _ in out)
        room = self.room
        if room is not None and room.unsaved:
            changed, room.unsaved = True, False   # a change that sent nothing (a contribution)
        if now is not None and room is not None:
            # the room's sealing policy (ui/worker/succession.py `after_request`)
            extra = room.after_request(changed, now)
            # a seal changes the save too: its box's opened check (ui/shared/comeback.py),
            # and so does a standby: the designate's check (comeback.proof_keys)
            changed = changed or any(kind in ("sealed", "standby") for _, kind, _ in extra)
            out = out + extra
        return self._reply(_encoded(out), changed)

    def _reply(self, out, changed):
        room = self.room
        wakeup = room.next_wakeup()
        reply = {"op": "out", "out": out,
                 "save": _text(room.to_dict()) if changed else None,
                 "wakeup": wakeup, "started": room.game is not None,
                 "room": room.room_id, "dropped": list(room.take_dropped())}
        claim = door.door_claim(room.room_id, room.door)
        if claim is not None:
            reply["door"] = claim       # a moved room: the page keeps its first id's door
        return reply


def _encoded(out):
    """Typed outputs [(conn, kind, message dict)] as the reply's [[conn, text, kind]]."""
    return [list(item) for item in wire.encode_all(out)]


def _lang(lang, default):
    """The bots' names' language: `lang` when crisp_core/bot_names.py has names in it
    ("es", "en"), else `default`."""
    return lang if isinstance(lang, str) and lang in bot_names.NAMES else default


def _run_here(room, pace):
    """Set `room` up as this worker runs it: its bots made at `pace` from the room's seed
    (play.bot_maker), each thinking a slice at a time so that the worker serves every
    message between slices, and the idle turn's wait for that pace (idle.threshold)."""
    room.make_bot = bot_maker(room.seed, pace)
    room.idle_ms = idle.threshold(pace)
    room.sliced_bots = True


def _pace(request):
    pace = request.get("pace", 1.0)
    if not isinstance(pace, (int, float)) or isinstance(pace, bool):
        return 1.0
    return min(1.0, max(0.0, float(pace)))


def _cheat(request):
    """The test-only cheating host (?cheat=, honoured by a test build's page only)."""
    cheat = request.get("cheat")
    return cheat if isinstance(cheat, str) else None


def _refused(error, code=None):
    return _text({"op": "refused", "error": error, "code": code})


def _text(obj):
    """`obj` as JSON text with every character as itself (ensure_ascii=False): the page reads
    replies with MicroPython's json, which turns a surrogate pair escape ("\\ud83d\\ude00", a
    character beyond the basic plane such as an emoji in a name) into U+FFFD characters. Text
    that holds a lone surrogate (an exception's words about hostile input) is escaped instead:
    it is no valid character to carry."""
    text = json.dumps(obj, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj)
    return text
