# The entry script of the page, on both interpreters (boot.js picks one):
#   host page (no ?room=): Pyodide. Landing -> create a room -> lobby with the room link ->
#     table. Runs the Room (ui/room.py) and the rules engine; its own screen is a Client whose
#     messages go straight to the room as the connection "local".
#   guest page (?room=<id>): MicroPython. Join -> lobby -> table. A Client fed by the data
#     connection to the host.
#   solo (the landing's "Play solo"): the same Room with bot seats and the host's Client only;
#     no PeerJS Peer at all.
# When the page is usable, body[data-ready] is set to the interpreter's name (e2e tests wait
# for it). Test-only host page parameters: ?deck=Ah,5c,... (stacks every round), ?seed=N and
# ?botpace=F (bots' think times times F; 1 = a person's pace, the default).
import json
import sys

import js
from pyscript.ffi import create_proxy

from ui import render
from ui.client import Client
from ui.net import GuestNet, HostNet

INTERPRETER = "micropython" if sys.implementation.name == "micropython" else "pyodide"
UI_TICK_MS = 250          # countdowns and one-time reveals
PING_MS = 3000            # guest heartbeat
SILENT_MS = 10000         # no word from the host for this long: reconnect
RETRY_MS = 2000           # a guest's next try to reach the host


def _str(value):
    """A JS value as Python text, or None (null/undefined come back as other things)."""
    return value if isinstance(value, str) else None


def storage_get(key):
    try:
        return _str(js.localStorage.getItem(key))
    except Exception:
        return None


def storage_set(key, value):
    try:
        js.localStorage.setItem(key, value)
    except Exception:
        pass


def log(*parts):
    try:
        js.console.log("crisp: " + " ".join([str(p) for p in parts]))
    except Exception:
        pass


def param(name):
    try:
        return _str(js.URLSearchParams.new(js.location.search).get(name))
    except Exception:
        return None


class Timer:
    """One re-armable setTimeout with a single long-lived proxy."""

    def __init__(self, fn):
        self.fn = fn
        self.handle = None
        self.proxy = create_proxy(self._fire)

    def _fire(self, *args):
        self.handle = None
        self.fn()

    def at(self, delay_ms):
        self.cancel()
        self.handle = js.setTimeout(self.proxy, max(5, int(delay_ms)))

    def cancel(self):
        if self.handle is not None:
            js.clearTimeout(self.handle)
            self.handle = None


def every(ms, fn):
    proxy = create_proxy(lambda *a: fn())
    js.setInterval(proxy, ms)
    return proxy


class Page:
    """What both pages share: the renderer, the model, the periodic UI tick."""

    def __init__(self):
        self.client = None
        self.screen = render.Screen(js.document.getElementById("app"), self.intent)
        self._tick_proxy = every(UI_TICK_MS, self.ui_tick)

    def now(self):
        return int(js.Date.now())

    def render(self):
        try:
            self.screen.update(self.client)
        except Exception as e:
            # A failed patch leaves the DOM and the renderer's last tree apart: start the
            # screen over from an empty root rather than keep a broken page.
            try:
                js.console.error("crisp: render failed, drawing afresh: " + str(e))
                self.screen.tree = None
                self.screen.root.textContent = ""
                self.screen.update(self.client)
            except Exception as again:
                log("render failed again:", again)

    def ui_tick(self):
        if self.client is not None:
            self.client.tick(self.now())
        self.render()

    def intent(self, name, payload):
        try:
            self.handle(name, payload)
        except Exception as e:
            log("intent", name, "failed:", e)
        self.render()

    def handle(self, name, payload):
        client = self.client
        if name == "action":
            client.act(payload)
        elif name in ("start", "next_round"):
            client.host({"type": name})
        elif name == "options":
            msg = {"type": "options"}
            for key in ("target", "draw_seconds", "draw_from_discard"):
                if key in payload:
                    msg[key] = payload[key]
            client.host(msg)
        elif name == "add_bot":
            client.host({"type": "add_bot", "level": payload.get("level", "easy")})
        elif name == "remove":
            client.host({"type": "remove", "seat": payload.get("seat")})
        elif name == "stand_in":
            client.host({"type": "stand_in", "seat": payload.get("seat"),
                         "level": payload.get("level", "easy")})
        elif name == "copy_link":
            link = render.room_link(client, self.screen.base)
            if link:
                js.navigator.clipboard.writeText(link)
        elif name == "share_link":
            link = render.room_link(client, self.screen.base)
            if link:
                js.navigator.share(js.JSON.parse(json.dumps({"url": link})))
        else:
            self.other(name, payload)

    def other(self, name, payload):
        log("intent not handled here:", name)


class HostPage(Page):
    """The host: the room, its transport, its timers, and the host's own screen."""

    def __init__(self):
        Page.__init__(self)
        self.room = None
        self.net = None
        self.epoch = 0
        self.wake = Timer(self.tick)
        seed = param("seed")
        self.seed = int(seed) if seed and seed.lstrip("-").isdigit() else None
        deck = param("deck")
        self.deck = [c.strip() for c in deck.split(",") if c.strip()] if deck else None
        self.bot_pace = 1.0
        pace = param("botpace")
        try:
            if pace:
                self.bot_pace = min(1.0, max(0.0, float(pace)))
        except ValueError:
            pass
        self.render()

    def clock(self):
        """The room's clock: ms since the room was created (DESIGN.md "Time")."""
        return self.now() - self.epoch

    def other(self, name, payload):
        if name == "create_room":
            self.create(payload["name"])
        elif name == "play_solo":
            self.solo(payload)
        else:
            log("intent not handled here:", name)

    def new_room(self, name):
        """A fresh Room whose bots are seeded from its seed and their seat."""
        from ui.room import Room, bot_maker, new_room_id
        room_id = new_room_id()
        self.epoch = self.now()
        try:
            room = Room(room_id, name, seed=self.seed, deck=self.deck)
        except ValueError as e:
            log("bad ?deck= ignored:", e)
            room = Room(room_id, name, seed=self.seed)
        room.make_bot = bot_maker(room.seed, self.bot_pace)
        return room

    def solo(self, payload):
        """Play at once against bots, in this tab only: no signaling, no Peer."""
        if self.room is not None:
            return
        name = payload["name"]
        self.room = self.new_room(name)
        self.client = Client(self.local_send, is_host=True)
        self.client.status = "ok"
        self.client.join(name, None)
        bots = payload.get("bots", 3)
        bots = bots if isinstance(bots, int) and 1 <= bots <= 7 else 3
        for _ in range(bots):
            self.client.host({"type": "add_bot", "level": payload.get("level", "easy")})
        if payload.get("target") in (50, 100, 150):
            self.client.host({"type": "options", "target": payload["target"]})
        self.client.host({"type": "start"})

    def create(self, name):
        if self.room is not None:
            return
        self.room = self.new_room(name)
        room_id = self.room.room_id
        self.client = Client(self.local_send, is_host=True)
        self.client.join(name, None)
        self.client.status = "connecting"
        self.net = HostNet(room_id, self.net_open, self.conn_open, self.conn_text,
                           self.conn_close, self.net_error)
        storage_set("crisp.host.room", room_id)
        self.render()

    # -- the room's outputs
    def local_send(self, text):
        self.deliver(self.room.receive("local", text, self.clock()))

    def deliver(self, out):
        for conn, text in out:
            if conn == "local":
                self.client.receive(text, self.now())
            else:
                self.net.send(conn, text)
                if '"type":"kicked"' in text:
                    self.net.close(conn)
        if self.net is not None and not self.net.open:
            self.client.status = "connecting"
        if any('"type":"pong"' not in text for conn, text in out):
            self.save()                   # (heartbeats change nothing worth saving)
        self.schedule()
        self.render()

    def save(self):
        storage_set("crisp.room." + self.room.room_id, json.dumps(self.room.to_dict()))

    def schedule(self):
        at = self.room.next_wakeup()
        if at is None:
            self.wake.cancel()
        else:
            self.wake.at(at - self.clock())

    def tick(self):
        self.deliver(self.room.tick(self.clock()))

    # -- the transport
    def net_open(self):
        log("room open:", self.room.room_id)
        self.client.status = "ok"
        self.render()

    def net_error(self, kind):
        log("peer error:", kind)
        if kind in ("network", "server-error", "socket-error", "socket-closed"):
            self.client.status = "connecting"
            self.render()

    def conn_open(self, cid):
        self.deliver(self.room.open(cid, self.clock()))

    def conn_text(self, cid, text):
        self.deliver(self.room.receive(cid, text, self.clock()))

    def conn_close(self, cid):
        self.deliver(self.room.close(cid, self.clock()))


class GuestPage(Page):
    """A guest: one Client, one data connection to the host, a heartbeat."""

    def __init__(self, room_id):
        Page.__init__(self)
        self.room_id = room_id
        self.token_key = "crisp.token." + room_id
        self.client = Client(self.send)
        self.client.token = storage_get(self.token_key)
        self.name = None
        self.ever_open = False
        if self.client.token:
            # A reload or a re-woken phone: take the seat back without asking (DESIGN.md).
            self.name = storage_get("crisp.name") or "?"
        self.retry = Timer(self.reconnect)
        self.net = GuestNet(room_id, self.net_open, self.net_text, self.net_close,
                            self.net_error)
        self.net.connect()
        self._ping_proxy = every(PING_MS, self.heartbeat)
        self.render()

    def send(self, text):
        self.net.send(text)

    def other(self, name, payload):
        if name == "join":
            self.name = payload["name"]
            if self.net.open:
                self.client.join(self.name, self.client.token)
        else:
            log("intent not handled here:", name)

    def net_open(self):
        self.ever_open = True
        self.client.status = "ok"
        self.client.last_heard = self.now()
        if self.name is not None and self.client.screen != "gone":
            self.client.join(self.name, self.client.token)
        self.render()

    def net_text(self, text):
        if text is None:
            return
        client = self.client
        client.receive(text, self.now())
        if client.token:
            storage_set(self.token_key, client.token)
        self.render()

    def net_close(self):
        if self.client.screen == "gone":
            return
        self.client.status = "reconnecting" if self.ever_open else "connecting"
        self.retry.at(RETRY_MS)
        self.render()

    def net_error(self, kind):
        log("peer error:", kind)
        if kind == "peer-unavailable":
            if self.ever_open:
                self.client.status = "host_gone"
            self.retry.at(RETRY_MS)
            self.render()

    def reconnect(self):
        if self.client.screen != "gone":
            self.net.connect()

    def heartbeat(self):
        client = self.client
        if client.screen == "gone" or not self.net.open:
            return
        client.ping(self.now())
        heard = client.last_heard
        if heard is not None and self.now() - heard > SILENT_MS:
            client.status = "reconnecting"
            client.last_heard = self.now()
            self.net.connect()
            self.render()


def main():
    room_id = _str(js.crisp.room) if js.crisp.guest else None
    page = GuestPage(room_id) if room_id else HostPage()
    js.document.body.dataset.ready = INTERPRETER
    return page


PAGE = main()
