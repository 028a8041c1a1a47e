"""What every screen runs: the model of one seat, fed by the room's messages.

MicroPython-compatible (guests run it there): plain classes, dicts and `json`; no
dataclasses, typing or enum. No clock of its own: every call that needs time takes `now` (ms).
Contract: docs/protocol.md ("Client").

The page renders the attributes below and calls `join`, `act`, `host` on the player's intents.
"""

import json

VERSION = 1
REVEAL_MS = 3000      # how long a Jack, Queen or draw reveal stays face up (R9.2)
LOG_MAX = 200         # public events of the round kept for the event log


class Client:
    """One seat's view of the room.

    Attributes (the model the page renders):
      screen   "join" | "lobby" | "table" | "gone"
      seat, token, room, is_host, name
      lobby    the last lobby message (players, options, host, started) or None
      view     the last view (docs/protocol.md), or None; view_at: the `now` it arrived at
               (its remaining times, e.g. draw_left, count from then)
      players  [{seat, name, connected, bot}]
      log      the public events of this round, newest last
      reveals  {(seat, pos): card} shown once right now; reveal_until {(seat, pos): ms | None}
               (None: the peek, shown until this seat is ready)
      error    the last {code, text} from the room, or None; kicked: {code, text} or None
      name_error  "bad_name" | "name_taken" when the room refused this page's join for its
               name (the join screen says so until the next join), else None
      status   "connecting" | "ok" | "reconnecting" | "host_gone"
      n        the counter of the last view; latency: ms of the last ping round trip
    """

    def __init__(self, send, is_host=False):
        self.send = send
        self.is_host = is_host
        self.screen = "join"
        self.seat = None
        self.token = None
        self.room = None
        self.name = None
        self.lobby = None
        self.view = None
        self.view_at = 0
        self.players = []
        self.log = []
        self.reveals = {}
        self.reveal_until = {}
        self.error = None
        self.kicked = None
        self.name_error = None
        self.status = "connecting"
        self.n = 0
        self.latency = None
        self.last_heard = None
        self._batch = 0
        self._reveal_batch = {}

    # ---- from the room ------------------------------------------------------------------

    def receive(self, text, now):
        """One message from the room. Returns True when the model changed (re-render).
        A malformed message is ignored (returns False): the room is trusted, the wire is not."""
        try:
            msg = json.loads(text)
        except ValueError:
            return False
        if not isinstance(msg, dict) or msg.get("v") != VERSION:
            return False
        self.last_heard = now
        self.status = "ok"                 # a message from the room: it is there
        kind = msg.get("type")
        if kind == "welcome":
            self.seat = msg.get("seat")
            self.token = msg.get("token")
            self.room = msg.get("room")
            # A (re)seat: the views that follow start over (the room replays the round's log).
            self.log = []
            self._clear_reveals()
            self.error = None
            self.name_error = None
            return True
        if kind == "lobby":
            self.lobby = msg
            self.players = msg.get("players") or []
            if not msg.get("started") and self.screen != "gone":
                self.screen = "lobby"
                # back in the lobby (a new game after game over): the old game is gone
                self.view = None
                self.log = []
                self._clear_reveals()
            return True
        if kind == "view":
            self._view(msg, now)
            return True
        if kind == "error":
            if msg.get("code") == "stale":
                # A tap that crossed a new view (a double tap, a timer): the fresh view is on
                # its way or here already, and shows what happened; nothing to tell.
                return False
            self.error = {"code": msg.get("code"), "text": msg.get("text")}
            if self.seat is None and msg.get("code") in ("bad_name", "name_taken"):
                self.name_error = msg.get("code")
            return True
        if kind == "kicked":
            self.kicked = {"code": msg.get("code"), "text": msg.get("text")}
            self.error = self.kicked
            self.screen = "gone"
            return True
        if kind == "pong":
            t = msg.get("t")
            if isinstance(t, (int, float)):
                self.latency = now - t
            return False
        return False

    def _view(self, msg, now):
        view = msg.get("view") or {}
        old = self.view
        if old is None or old.get("round") != view.get("round"):
            self.log = []
            self._clear_reveals()
        self.view = view
        self.view_at = now
        self.n = msg.get("n", self.n)
        self.players = msg.get("players") or self.players
        if self.screen != "gone":
            self.screen = "table"
        self._batch += 1
        for event in msg.get("events") or []:
            if not isinstance(event, dict):
                continue
            if "to" in event:
                self._reveal(event, now)
                continue
            self.log.append(event)
            kind = event.get("type")
            if kind == "swap":
                self._forget(event.get("seat"), event.get("pos"))
            elif kind == "queen":
                self._forget(event.get("seat"), event.get("pos"))
                self._forget(event.get("target"), event.get("target_pos"))
            elif kind == "round_over":
                self._clear_reveals()
        if len(self.log) > LOG_MAX:
            self.log = self.log[-LOG_MAX:]
        # The peek stays until this seat is ready (R2.4); the drawn card until it is resolved.
        ready = view.get("ready") or []
        me_ready = self.seat is not None and self.seat < len(ready) and ready[self.seat]
        if view.get("phase") != "peek" or me_ready:
            for key in list(self.reveal_until):
                if self.reveal_until[key] is None:
                    self._drop(key)
        if view.get("held") is None:
            for key in list(self.reveals):
                if key[1] == "held":
                    self._drop(key)

    def _reveal(self, event, now):
        if event.get("type") != "reveal" or event.get("to") != self.seat:
            return
        until = None if event.get("reason") == "peek" else now + REVEAL_MS
        for item in event.get("cards") or []:
            key = (item.get("seat"), item.get("pos"))
            self.reveals[key] = item.get("card")
            self.reveal_until[key] = until
            self._reveal_batch[key] = self._batch

    def _forget(self, seat, pos):
        """A card moved: a reveal of that place from an earlier message shows it no more."""
        key = (seat, pos)
        if key in self.reveals and self._reveal_batch.get(key) != self._batch:
            self._drop(key)

    def _drop(self, key):
        self.reveals.pop(key, None)
        self.reveal_until.pop(key, None)
        self._reveal_batch.pop(key, None)

    def _clear_reveals(self):
        self.reveals = {}
        self.reveal_until = {}
        self._reveal_batch = {}

    def tick(self, now):
        """Turn back the reveals whose time is up. Returns True when one was."""
        changed = False
        for key in list(self.reveal_until):
            until = self.reveal_until[key]
            if until is not None and until <= now:
                self._drop(key)
                changed = True
        return changed

    def next_wakeup(self):
        """When `tick` has something to do (ms), or None."""
        times = [t for t in self.reveal_until.values() if t is not None]
        return min(times) if times else None

    # ---- to the room --------------------------------------------------------------------

    def _send(self, msg):
        msg["v"] = VERSION
        self.send(json.dumps(msg))

    def join(self, name, token=None):
        self.name = name
        self.name_error = None
        self._send({"type": "join", "name": name, "token": token})

    def act(self, action):
        """Send an engine action, e.g. {"do": "draw", "from": "deck"}, with the number of the
        view it answers (`n`: the room refuses it as stale if the table changed since)."""
        self.error = None
        msg = {"type": "action", "action": action}
        if self.view is not None:
            msg["n"] = self.n
        self._send(msg)

    def host(self, msg):
        """Send a host-only message, e.g. {"type": "start"} (the room refuses it from guests)."""
        self.error = None
        msg = dict(msg)
        self._send(msg)

    def ping(self, now):
        self._send({"type": "ping", "t": now})

    # ---- helpers for screens -------------------------------------------------------------

    def allowed(self, kind):
        """The `allowed` entry of this kind in the current view, or None."""
        if self.view is None:
            return None
        for entry in self.view.get("allowed") or []:
            if entry.get("do") == kind:
                return entry
        return None

    def remaining(self, key, now):
        """A remaining time of the view (e.g. "draw_left") as of `now`, or None."""
        if self.view is None:
            return None
        value = self.view.get(key)
        if key == "crisp_window":
            value = value.get("left") if value else None
        if value is None:
            return None
        left = value - (now - self.view_at)
        return left if left > 0 else 0
