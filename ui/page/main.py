# The entry script of every page, on MicroPython (boot.js):
#   host page (no ?room=): landing -> create a room -> lobby with the room link -> table. The
#     Room (ui/worker/room.py) and the rules engine run on Pyodide in the engine worker
#     (engine-worker.js, ui/worker/engine.py), started as soon as the landing shows; the page talks
#     to it by messages (EngineLink) and owns PeerJS, the timers, localStorage, the lease and
#     the host's own screen: a Client whose messages go to the room as the connection
#     "local", exactly as a guest's do over the network. The landing, Create room and the
#     lobby work before the engine is ready; Start and Play solo show its progress if it is
#     not ready yet. The page's side of the room's life (lease, resume, clock, what the
#     room's outputs ask for) is pure: ui/shared/hostlife.py.
#   guest page (?room=<id>): join -> lobby -> table. A Client fed by the data connection to
#     the host. It never starts the engine worker, unless it becomes the host in a host
#     handover (docs/protocol.md "Host handover": a HostPage then takes the page over).
#   solo (the landing's "Play solo"): the same Room with bot seats and the host's Client only;
#     no PeerJS Peer at all.
# When the page is usable, body[data-ready] is set to "micropython" (e2e tests wait for it);
# on a host page body[data-engine] follows the engine worker: loading | ready | failed. Host
# page parameters for tests: ?deck=Ah,5c,... (stacks every round, with no
# commitment), ?seed=N and ?cheat=hand|deck (a host that cheats after committing, to show that
# guests notice), honoured by a test build only (tools/build.py --test); ?botpace=F (bots'
# think times times F; 1 = a person's pace, the default) on every build: it only changes when
# the host's bots act.
#
# Fair play (docs/protocol.md "Verifiable shuffle"): a guest's page answers each commitment
# with 16 random bytes from crypto.getRandomValues (boot.js crisp.randomHex, the Client's
# nonce); every page checks each round at its end
# and offers its record as a JSON download (save-record).
#
# Persistence and reconnection (docs/design.md; docs/protocol.md "Reconnection"):
#   host: the room is saved in localStorage after every change ("crisp.room.<id>", the save
#     the engine worker returns with each change: workers have no localStorage) and the
#     page's URL becomes ?host=<id>: a reloaded host page resumes that room at once (the
#     landing at / offers to resume the last one, or to abandon it). The room's clock goes on
#     from where it stopped, so deadlines pause while the host is away. A lease
#     ("crisp.live.<id>", refreshed every second, dropped on pagehide) keeps a second tab
#     from running the same room at the same time.
#   guest: its seat token is kept per room ("crisp.token.<id>"); ui/page/link.py decides when to
#     reconnect (never giving up) and what the banner says. Next to it, once seated at a
#     game, what it needs to follow a host handover after a reload ("crisp.follow.<id>":
#     handover.follow_record; docs/protocol.md "Back from away").
import json
import sys

import js
from pyscript.ffi import create_proxy

from ui.page import render
from ui.shared import handover, hostlife, limits
from ui.page import screens
from ui.page.client import Client
from ui.page.link import HOST_GONE_MS, Link, backoff
from ui.page.net import GuestNet, HostNet
from ui.page.storage import Storage
from ui.page.enginelink import EngineLink, _str, log, restart_room
from ui.page.viewmodel import awake_wanted

INTERPRETER = "micropython" if sys.implementation.name == "micropython" else "pyodide"
UI_TICK_MS = 250          # countdowns, one-time reveals, the guest's link (ui/page/link.py)
LEAVE_MS = 600            # a leaving guest waits this long at most for the room to hear it
PROBE_ALONE_MS = 10000    # a host page alone this long at a game looks whether the room moved
PROBE_EVERY_MS = 15000    # ... and again this often while it stays alone
LOOK_MS = 20000           # a look at a room id (Looker) that nothing answered this long is over
FOLLOW_LOOK_MS = 8000     # ... a look for the room of a page back from away
FOLLOW_EVERY_MS = 4000    # a seated page back from away looks for its room this often
SUCCESSOR_MS = 5000       # a successor's new id unknown to the signaling server this long after
                          # the host's gone time: that page went too, the next one hosts


_storage = Storage(js)         # localStorage, never failing the page (ui/page/storage.py)
storage_get = _storage.get
storage_set = _storage.set
storage_remove = _storage.remove
storage_json = _storage.get_json


def on_page(target, event, fn):
    """Listen to a window/document event for the page's whole life."""
    proxy = create_proxy(lambda *a: fn())
    target.addEventListener(event, proxy)
    return proxy


def param(name):
    try:
        return _str(js.URLSearchParams.new(js.location.search).get(name))
    except Exception:
        return None


def download(name, text, mime="application/json"):
    """Offer `text` to the player as a file download named `name`."""
    blob = js.Blob.new(js.JSON.parse(json.dumps([text])), js.JSON.parse(json.dumps({"type": mime})))
    url = js.URL.createObjectURL(blob)
    link = js.document.createElement("a")
    link.href = url
    link.download = name
    js.document.body.appendChild(link)
    link.click()
    link.remove()
    js.setTimeout(create_proxy(lambda *a: js.URL.revokeObjectURL(url)), 10000)


def test_build():
    """True on a test build (`tools/build.py --test`, boot.js `crisp.test`) only."""
    try:
        return js.crisp.test is True
    except Exception:
        return False


def test_param(name):
    """A test-only page parameter (`?deck=`, `?seed=`): its text on a test build, None on any
    other build, so that nobody can stack or predict a real room's deck by getting its host
    to open a crafted link."""
    return param(name) if test_build() else None


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


class Page:
    """What both pages share: the renderer, the model, the periodic UI tick. `screen`: the
    renderer of a page this one takes over from (a guest page that becomes the host in a
    handover: the table stays on screen), else a new one."""

    def __init__(self, screen=None):
        self.client = None
        if screen is None:
            screen = render.Screen(js.document.getElementById("app"), self.intent)
        else:
            screen.on_intent = self.intent
        self.screen = screen
        self.awake = False            # the Screen Wake Lock is wanted (awake.js holds it)
        self.leaving = Timer(self.go_home)
        self.retired = False          # another page object runs this page now
        self._tick_proxy = create_proxy(lambda *a: self.ui_tick())
        self._tick_handle = js.setInterval(self._tick_proxy, UI_TICK_MS)
        self._soon = Timer(self.render)   # render_soon's

    def retire(self):
        """Another page object takes over this page (a host handover): stop ticking; every
        callback of this one does nothing from now on."""
        self.retired = True
        js.clearInterval(self._tick_handle)
        self.leaving.cancel()
        self._soon.cancel()

    def now(self):
        """The wall clock, ms (Date.now()). Read through crisp.now(), which is never a whole
        number: MicroPython's FFI turns a JS whole number above 2**31 into a wrapped small
        int (Date.now() would run backwards every 24.8 days), a fraction into a float."""
        return int(js.crisp.now())

    def model(self):
        return self.client

    def render(self):
        # Screen recovers from a failed patch by itself (it draws afresh); what can still
        # raise here is building the page from the model, and a retry would raise again.
        # Log it, so the timer or network callback that called us goes on.
        try:
            self.screen.update(self.model())
        except Exception as e:
            js.console.error("crisp: render failed: " + str(e))
        self.keep_awake()

    def render_soon(self):
        """Render in a task of its own after this one, once for everything that arrives
        meanwhile: handling a message (the engine's reply, the host's view) and drawing the
        screen it leads to never make one long task, and a burst of messages (the engine's
        replies once it runs) draws the screen once."""
        if self._soon.handle is None:
            self._soon.at(0)

    def keep_awake(self):
        """Hold the Screen Wake Lock while a round is played on this page, let it go
        otherwise (awake.js asks again when the page is shown; absent where unsupported)."""
        want = awake_wanted(self.model())
        if want != self.awake:
            self.awake = want
            try:
                js.crisp.keepAwake(want)
            except Exception as e:
                log("wake lock:", e)

    def ui_tick(self):
        if self.client is not None:
            self.client.tick(self.now())
        self.render()

    def intent(self, name, payload):
        """A tap's intent (ui/page/render.py has drawn the tap itself already): handled now, the
        screen it leads to drawn in a task of its own (render_soon), so that a tap that opens
        another screen (Create room: the lobby) is not one long task."""
        try:
            self.handle(name, payload)
        except Exception as e:
            log("intent", name, "failed:", e)
        self.render_soon()

    def handle(self, name, payload):
        client = self.client
        if name == "action":
            client.act(payload)
        elif name in ("start", "next_round"):
            client.host({"type": name})
        elif name == "join_code":
            # a friend's room by its code: its guest page (boot.js: ?room= is a guest page)
            js.location.assign(self.screen.base + "?room=" + str(payload.get("room")))
        elif name == "dismiss_reveal":
            client.dismiss_reveals()
        elif name == "new_game":
            self.new_game()
        elif name == "leave":
            self.leave()
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
        elif name == "approve":
            client.host({"type": "approve", "seat": payload.get("seat")})
        elif name == "sit":
            self.name = payload.get("name")       # its name when the seat is given
            client.sit(payload.get("name"), payload.get("seat"))
        elif name == "stand_in":
            client.host({"type": "stand_in", "seat": payload.get("seat"),
                         "level": payload.get("level", "easy")})
        elif name == "copy_link":
            link = screens.room_link(client, self.screen.base)
            if link:
                js.navigator.clipboard.writeText(link)
        elif name == "save_record":
            self.save_record()
        elif name == "share_link":
            link = screens.room_link(client, self.screen.base)
            if link:
                js.navigator.share(js.JSON.parse(json.dumps({"url": link})))
        else:
            self.other(name, payload)

    def other(self, name, payload):
        log("intent not handled here:", name)

    def save_record(self):
        """The last round's record (commitment, contributions, secret, inputs, what this page
        saw) as a JSON file: `python3 -m crisp_core.verify <file>` checks it again."""
        record = getattr(self.client, "record", None)
        if record is None:
            return
        room = str(self.client.room or "room")[-8:]
        download("crisp-%s-round-%s.json" % (room, record.get("round")), json.dumps(record))

    def new_game(self):
        self.client.host({"type": "new_game"})

    def leave(self):
        """`leave`: the room hears it first (a guest's seat frees up in the lobby, a bot takes
        it at the table), then this page forgets the room and opens the landing (no ?room)."""
        if self.tell_leave():
            self.leaving.at(LEAVE_MS)     # or at once when the room's `kicked` `left` comes
        else:
            self.go_home()

    def tell_leave(self):
        """Send `leave` to the room when there is one to tell; True when it was sent."""
        return False

    def go_home(self):
        self.leaving.cancel()
        self.forget_room()
        js.location.href = self.screen.base or "./"

    def forget_room(self):
        pass


class Landing:
    """The host page's model before it has a room (or while its room waits for the engine):
    the landing, offering to resume the last saved room (`resume`: hostlife.summary) when
    there is one. `engine_wait`: the engine's start in percent while the player waits for
    it (Play solo, a resumed room), else None; `engine_stage`: the step it is at (EngineLink
    `stage`), or None."""

    screen = "landing"

    def __init__(self, saved=None, status=None, engine_wait=None, refused=False, error=None,
                 engine_stage=None):
        self.status = status
        self.engine_wait = engine_wait
        self.engine_stage = engine_stage
        self.refused = refused        # the saved room was refused (damaged or changed)
        self.error = error            # {code, text}: e.g. a name the room refused
        self.resume = hostlife.summary(saved) if saved is not None else None


class HostPage(Page):
    """The host: its room (in the engine worker), the room's transport, timers, storage and
    the host's own screen. The page's side of the room's life (lease, resume, clock, what
    the room's outputs ask for) is ui/shared/hostlife.py."""

    def __init__(self, screen=None, takeover=None):
        Page.__init__(self, screen)
        self.room_id = None           # the room this page runs, once created or resumed
        self.solo_room = False
        self.started = False          # the room's game has started (from the engine's replies)
        self.net = None
        self.clock_ = hostlife.Clock(self.now())
        self.wake = Timer(self.tick)
        self.tab = str(js.crisp.randomHex(8))
        self.offer = None             # the saved room the landing offers to resume
        self.refused = False          # a saved room was refused: the landing says so
        self.landing_error = None     # {code, text} of the last refused name
        self.pending = None           # a room to resume once its other tab lets it go
        self.waiting = False          # the player asked for something the engine must do
        self.restart = False          # solo: start the next game once back in the lobby
        self.failures = 0             # failed tries to register the room id in a row
        self.retry_at = None
        self.lease_at = 0
        seed = test_param("seed")
        self.seed = int(seed) if seed and seed.lstrip("-").isdigit() else None
        deck = test_param("deck")
        self.deck = [c.strip() for c in deck.split(",") if c.strip()] if deck else None
        self.cheat = test_param("cheat")        # None on every build but a test build
        self.bot_pace = 1.0
        pace = param("botpace")
        try:
            if pace:
                self.bot_pace = min(1.0, max(0.0, float(pace)))
        except ValueError:
            pass
        self._net_soon = Timer(self._start_net_soon)     # create's start_net, after the lobby
        self._net_room = None
        self.engine = EngineLink(self.reply, self.engine_status, self.engine_died)
        self.last_save = None         # the room's last save (the engine's, text): a restart
        self.engine.listen()
        self._page_proxies = [on_page(js.window, "pagehide", self.hidden),
                              on_page(js.window, "pageshow", self.shown)]
        self.probe = None             # a resumed room's check that it did not move (Probe)
        self.followers = []           # after a takeover: the spectators to tell (`moved`)
        self.alone_since = None       # since when no person is here but the host (ms)
        self.probed_at = 0
        if takeover is not None:
            self.take_over(*takeover)
            return
        wanted = param("host")
        last = wanted or storage_get("crisp.host.room")
        held = wanted is not None and not hostlife.lease_free(self.lease(wanted), self.tab,
                                                               self.now())
        todo, what = hostlife.choose(wanted, self.saved(last) if last else None, held)
        if todo == "resume":
            self.resume_room(what)             # a reload: back to the same room at once
        elif todo == "offer":
            self.offer = what
            self.engine.request({"op": "check", "saved": what})
        self.render()

    def model(self):
        wait = self.engine_wait()
        client = self.client
        stage = self.engine.stage
        if client is not None and client.screen != "join":
            client.engine_wait = wait
            client.engine_stage = stage
            return client
        # no room yet, or the engine has not answered for it (solo, a resumed room)
        return Landing(self.offer, "connecting" if self.pending else None, wait, self.refused,
                       self.landing_error, stage)

    def engine_wait(self):
        """The engine's progress (percent) when the player waits for it, else None."""
        if self.engine.state == "ready" or not self.waiting:
            return None
        return -1 if self.engine.state == "failed" else self.engine.pct

    def engine_died(self):
        """The running engine worker died (ui/page/enginewatch.py): restart_room."""
        restart_room(self, self.last_save or (storage_get("crisp.room." + self.room_id)
                                              if self.room_id is not None else None))

    def engine_status(self):
        js.document.body.dataset.engine = self.engine.state
        if self.engine.state == "ready":
            self.clock_.go(self.now())     # the room runs from now on: its clock too
        self.render()

    def room_clock(self, start=0):
        """The clock of a room created or resumed now (`start`: its reading, ms); held until
        the engine runs the room (hostlife.Clock)."""
        return hostlife.Clock(self.now(), start, running=self.engine.state == "ready")

    def clock(self):
        """The room's clock (docs/design.md "Time"): ms since the room was created, not counting
        the time its host page was away (a resumed room goes on from its saved clock)."""
        return self.clock_.at(self.now())

    def other(self, name, payload):
        if name == "retry_engine":
            js.location.reload()               # the room is saved: a reload resumes it
            return
        self.landing_error = None
        if name == "create_room":
            self.create(payload["name"])
        elif name == "play_solo":
            self.solo(payload)
        elif name == "resume_room" and self.offer is not None:
            self.resume_room(self.offer.get("room_id"))
        elif name == "abandon_room" and self.offer is not None:
            self.forget(self.offer.get("room_id"))
            self.offer = None
        else:
            log("intent not handled here:", name)

    def handle(self, name, payload):
        if name in ("start", "new_game", "add_bot", "remove") and self.engine.state != "ready":
            # show the engine's progress meanwhile: a tap that changes nothing on screen
            # for seconds reads as a broken button (a tester tapped Add a bot 3 times)
            self.waiting = True
        Page.handle(self, name, payload)

    def new_game(self):
        self.client.host({"type": "new_game"})
        self.restart = self.net is None         # solo: straight into the next game

    def tell_leave(self):
        """The host leaves mid-game: the room tells its guests (`host_leaving`), so that
        they hand the room over at once (docs/protocol.md "Host handover"); in the lobby or
        alone the room simply closes."""
        if self.net is None or not self.started or self.client is None:
            return False
        self.client.leave()
        return True

    def check_moved(self, now):
        """A host page cut off from its players (a partition: every person's seat away here
        for PROBE_ALONE_MS) looks whether they handed the room over meanwhile (Probe), every
        PROBE_EVERY_MS: a host that comes back must not keep hosting a stale room."""
        client = self.client
        if self.room_id is None or self.net is None or not self.started or client is None \
                or (self.probe is not None and not self.probe.done):
            self.alone_since = None if self.room_id is None else self.alone_since
            return
        others = [p for p in client.players if isinstance(p, dict) and p.get("bot") is None
                  and p.get("seat") != client.seat]
        if not others or any(p.get("connected") for p in others):
            self.alone_since = None
            return
        if self.alone_since is None:
            self.alone_since = now
        if now - self.alone_since >= PROBE_ALONE_MS and now - self.probed_at >= PROBE_EVERY_MS:
            saved = storage_json("crisp.room." + self.room_id)
            if isinstance(saved, dict) and saved.get("game"):
                self.probed_at = now
                try:
                    self.probe = Probe(self.room_id, saved, self.moved)
                except ValueError as e:
                    log("no probe:", e)       # a save without a succession secret

    def moved(self, new_id, token, name):
        """The room this page resumed was handed over meanwhile (Probe): this page rejoins
        it as a player in its own seat, as a guest of the new host. Its saved host room
        becomes a guest's seat record: the token of its seat there (handover.next_token)."""
        log("the room moved to", new_id, ": rejoining as a player")
        self.probe = None
        room_id = self.room_id
        self.room_id = None               # pagehide saves nothing now
        if self.net is not None:
            self.net.shutdown()
        self.wake.cancel()
        self.engine.request({"op": "drop"})
        self.forget(room_id)
        storage_set("crisp.token." + new_id, token)
        storage_set("crisp.name", name)
        js.location.replace(self.screen.base + "?room=" + new_id)

    def forget_room(self):
        if self.room_id is not None:
            room_id = self.room_id
            if self.net is not None:
                self.net.shutdown()
            self.wake.cancel()
            self.engine.request({"op": "drop"})
            self.room_id = None         # pagehide saves nothing now
            self.forget(room_id)

    def new_room(self, name):
        """Ask the engine for a fresh room (its bots seeded from its seed and their seat);
        the host's own screen joins it. Returns the room id."""
        self.room_id = hostlife.new_room_id(str(js.crisp.randomHex(8)))
        storage_remove("crisp.peer." + self.room_id)
        self.clock_ = self.room_clock()
        self.started = False
        self.engine.request({"op": "create", "room_id": self.room_id, "name": name,
                             "seed": self.seed, "deck": self.deck, "pace": self.bot_pace,
                             "cheat": self.cheat, "now": self.clock()})
        self.client = Client(self.local_send, is_host=True)
        return self.room_id

    def solo(self, payload):
        """Play at once against bots, in this tab only: no signaling, no Peer."""
        if self.room_id is not None:
            return
        name = payload["name"]
        room_id = self.new_room(name)
        self.solo_room = True
        self.waiting = True
        self.client.status = "ok"
        self.client.join(name, None)
        bots = payload.get("bots", 3)
        bots = bots if isinstance(bots, int) and 1 <= bots <= 7 else 3
        for _ in range(bots):
            self.client.host({"type": "add_bot", "level": payload.get("level", "easy")})
        if payload.get("target") in (50, 100, 150):
            self.client.host({"type": "options", "target": payload["target"]})
        storage_set("crisp.solo." + room_id, "1")   # resumed without a network
        storage_set("crisp.host.room", room_id)
        self.hold_lease()
        self.name_room_in_url(room_id)
        self.client.host({"type": "start"})

    def create(self, name):
        if self.room_id is not None:
            return
        self.pending = None
        self.refused = False
        if self.offer is not None:            # a new room replaces the saved one
            self.forget(self.offer.get("room_id"))
            self.offer = None
        room_id = self.new_room(name)
        self.hold_lease()
        # saved at once: a reload before the engine saves the room makes the same room again
        storage_set("crisp.room." + room_id, json.dumps(
            hostlife.draft(room_id, name, self.seed, self.deck)))
        if self.engine.state != "ready":
            # The lobby and its link work at once; the room's own lobby replaces this one
            # when the engine runs (guests who join meanwhile wait for it).
            for text in hostlife.provisional(room_id, name):
                self.client.receive(text, self.now())
        self.client.join(name, None)
        self.client.status = "connecting"
        self.name_room_in_url(room_id)
        storage_set("crisp.host.room", room_id)
        self.render_soon()
        # PeerJS (the room's Peer, its signaling socket) starts in a task after the one that
        # draws the lobby: the tap's task stays short
        self._net_room = room_id
        self._net_soon.at(0)

    def _start_net_soon(self):
        if self.room_id is not None and self.room_id == self._net_room:
            self.start_net()

    def take_over(self, spec, client, name):
        """A host handover (docs/protocol.md "Host handover"): this page was a guest at
        seat `spec["seat"]` and hosts the room from now on at `spec["new_id"]`. The engine
        worker gathers a second share of the sealed room and opens it (or deals the round
        again); meanwhile the table stays on screen (`client`, this page's model as a guest)
        with the handover banner. The room is saved as this page's own hosted room."""
        room_id = spec["new_id"]
        self.room_id = room_id
        self.started = True
        self.waiting = False
        self.clock_ = self.room_clock()         # the room's own clock comes with its reply
        client.send = self.local_send
        client.is_host = True
        client.trusted = True
        client.suspect = False
        client.hand_over_to(client.seat, me=True)
        client.status = "connecting"
        self.client = client
        self.hold_lease()
        self.engine.request({"op": "takeover", "handover": spec, "pace": self.bot_pace,
                             "now": self.clock()})
        client.join(name, None)
        storage_set("crisp.host.room", room_id)
        self.start_net()
        log("taking over the room as", room_id)
        self.render()

    # -- saved rooms: resume, abandon, the lease of the tab that runs one
    def saved(self, room_id):
        """The saved room `room_id` if it is there and reads as JSON, else None. Whether it is
        whole and consistent is the engine's to say (Room.from_dict, in the worker: the page
        runs MicroPython): the landing asks it (`check`) before it offers the room, a resume
        asks it by restoring; a refused save is dropped and the landing says so."""
        text = storage_get("crisp.room." + room_id)
        if text is None:
            return None
        try:
            saved = json.loads(text)
        except ValueError:
            saved = None
        if not isinstance(saved, dict):
            self.refuse_save(room_id)
            return None
        return saved

    def refuse_save(self, room_id):
        """A saved room that would not load (unreadable here, or Room.from_dict's checks in
        the engine): dropped, and the landing says so."""
        log("saved room refused:", room_id)
        self.forget(room_id)
        self.refused = True

    def forget(self, room_id):
        if room_id:
            for key in ("crisp.room.", "crisp.live.", "crisp.solo.", "crisp.peer."):
                storage_remove(key + room_id)
        if storage_get("crisp.host.room") == room_id:
            storage_remove("crisp.host.room")

    def lease(self, room_id):
        return storage_json("crisp.live." + room_id)

    def hold_lease(self, at=None):
        """Mark the room as run by this tab (every second); `at=0` lets it go. The lease
        also carries the room's clock, so a resumed room goes on from the last second."""
        self.lease_at = self.now()
        storage_set("crisp.live." + self.room_id, json.dumps(hostlife.lease_record(
            self.tab, self.lease_at if at is None else at, self.clock())))

    def hidden(self):
        """pagehide (a reload, a closed tab, the page put in the back/forward cache): the
        room is saved after every change already; let the lease go and the room id too
        (guests hear at once that the host is away), so that a reloaded page resumes at once."""
        if self.probe is not None:
            self.probe.stop()
        if self.room_id is not None:
            self.hold_lease(0)
            if self.net is not None:
                self.net.shutdown()

    def shown(self):
        """pageshow: back from the back/forward cache, the page takes its room up again."""
        if self.room_id is not None and self.net is not None and not self.net.open:
            self.hold_lease()
            self.net.ensure()

    def resume_room(self, room_id):
        """Resume the saved room `room_id`, or wait (`pending`) while another tab runs it."""
        if self.room_id is not None or not room_id:
            return
        if not hostlife.lease_free(self.lease(room_id), self.tab, self.now()):
            self.pending = room_id              # ui_tick tries again
            return
        self.pending = None
        saved = self.saved(room_id)
        if not hostlife.resumable(saved):
            self.offer = None
            return
        clock = hostlife.resume_clock(saved, self.lease(room_id))
        self.clock_ = self.room_clock(clock)   # the clock goes on from there
        self.room_id = room_id
        self.offer = None
        self.waiting = True
        self.solo_room = bool(storage_get("crisp.solo." + room_id))
        self.started = bool(saved.get("game"))
        self.engine.request({"op": "restore", "saved": saved, "pace": self.bot_pace,
                             "cheat": self.cheat, "now": self.clock()})
        self.hold_lease()
        self.client = Client(self.local_send, is_host=True)
        host = saved.get("host", 0)
        seats = saved.get("seats") or [{}]
        host = host if isinstance(host, int) and 0 <= host < len(seats) else 0
        self.client.join(seats[host].get("name") or "?", None)
        if self.solo_room:
            self.client.status = "ok"              # solo: bots only, no network to open
            self.name_room_in_url(room_id)
        else:
            self.client.status = "connecting"
            self.start_net()
            if saved.get("game"):
                self.probe = Probe(room_id, saved, self.moved)   # handed over meanwhile?
        storage_set("crisp.host.room", room_id)
        log("room resumed:", room_id, "at", clock)
        self.render()

    def ui_tick(self):
        self.engine.watch(self.now())
        if self.probe is not None:
            self.probe.step(self.now())
        self.check_moved(self.now())
        if self.pending is not None:
            self.resume_room(self.pending)
        if self.room_id is not None:
            now = self.now()
            skipped = self.clock_.skipped
            self.clock()                       # a reading each tick: a gap shows at once
            if self.clock_.skipped != skipped:
                log("the page did not run for a while: the room's clock skipped",
                    self.clock_.skipped - skipped, "ms")
            if hostlife.lease_due(self.lease_at, now):
                self.hold_lease()
            if self.net is not None and self.retry_at is not None and now >= self.retry_at:
                self.retry_at = None
                self.net.ensure()
        Page.ui_tick(self)

    # -- the room (in the engine worker) and its outputs
    def local_send(self, text):
        self.engine.request({"op": "receive", "conn": "local", "text": text,
                             "now": self.clock()})

    def reply(self, asked, msg):
        """One reply of the engine to the request `asked` (its op)."""
        if asked == "check":
            self.checked(msg)
            return
        if msg.get("op") == "refused" and asked == "create" and not msg.get("failed"):
            self.name_refused(msg)
            return
        if msg.get("op") == "refused" and asked == "takeover":
            # the room could not be made here (nothing to deal again from): say so
            log("the takeover failed:", msg.get("error"))
            self.client.handover = {"me": True, "failed": True}
            self.render()
            return
        if msg.get("op") == "refused":
            log("engine refused", asked, ":", msg.get("error"))
            # a save the engine cannot read is dropped; not one it never read (it failed to
            # start: the banner says so, and the save waits for a reload)
            if asked == "restore" and self.room_id is not None and not msg.get("failed"):
                log("saved room unreadable, dropped:", self.room_id)
                room_id = self.room_id
                self.forget_room()
                self.refuse_save(room_id)
                self.client = None
                self.waiting = False
                self.render()
            return
        if self.room_id is None or msg.get("room") != self.room_id:
            return                       # a reply about a room this page has left
        self.started = bool(msg.get("started"))
        if msg.get("handover") is not None:
            # the takeover made its room: its clock is the room's from now on
            clock = msg.get("clock")
            if isinstance(clock, (int, float)):
                self.clock_ = hostlife.Clock(self.now(), int(clock), running=True)
            self.client.handover = None
            log("took over the room:", msg.get("handover"))
            follow = msg.get("follow")
            self.followers = [f for f in follow if isinstance(f, dict)] \
                if isinstance(follow, list) else []
            self.tell_followers()
        out = msg.get("out")
        todo = hostlife.sort_out(out if isinstance(out, list) else [], "local")
        now = self.now()
        for text in todo["local"]:
            self.client.receive(text, now)
        if self.net is not None:
            for conn, text in todo["remote"]:
                self.net.send(conn, text)
            for conn in todo["close"]:
                self.net.close(conn)
            for conn in msg.get("dropped") or []:
                # not seated within 10 s, or pushed out by newer ones (ui/shared/gate.py)
                self.net.close(conn)
            if not self.net.open:
                self.client.status = "connecting"
        save = msg.get("save")
        if isinstance(save, str):
            self.last_save = save
            storage_set("crisp.room." + self.room_id, save)
        if todo["local"] and self.client.screen != "join":
            self.waiting = False
        if self.restart and not self.started and todo["local"]:
            self.restart = False
            self.client.host({"type": "start"})
        self.schedule(msg.get("wakeup"))
        if todo["local"] or todo["changed"]:
            self.render_soon()

    def checked(self, msg):
        """The engine's answer on the saved room the landing offers: a refused one is dropped
        (the landing says so instead of offering it)."""
        offer = self.offer
        if msg.get("op") != "refused" or msg.get("failed") or offer is None:
            return
        self.offer = None
        self.refuse_save(offer.get("room_id"))
        self.render()

    def name_refused(self, msg):
        """The room refused the host's name (taken by a bot's, nothing visible): back to the
        landing, which says why; the room that was being made is forgotten."""
        self.forget_room()
        self.client = None
        self.waiting = False
        self.landing_error = {"code": msg.get("code") or "bad_name",
                              "text": msg.get("error") or ""}
        self.render()

    def schedule(self, at):
        if not isinstance(at, (int, float)):
            self.wake.cancel()
        else:
            self.wake.at(at - self.clock())

    def tick(self):
        if self.room_id is not None:
            self.engine.request({"op": "tick", "now": self.clock()})

    # -- the transport
    def start_net(self):
        room_id = self.room_id
        # The room's PeerJS token, kept across reloads: the LAN signaling server keeps the
        # room id reserved for it, so that a reloaded host page gets its id back first.
        token = storage_get("crisp.peer." + room_id)
        if not token:
            token = str(js.crisp.randomHex(16))
            storage_set("crisp.peer." + room_id, token)
        self.net = HostNet(room_id, self.net_open, self.conn_open, self.conn_text,
                           self.conn_close, self.net_error, token=token)
        self.name_room_in_url(room_id)

    def name_room_in_url(self, room_id):
        """The URL names the room (?host=<id>): a reload of this tab resumes it."""
        try:
            query = js.URLSearchParams.new(js.location.search)
            query.delete("room")          # (a guest that took over: a host page now)
            query.set("host", room_id)
            js.history.replaceState(None, "", "?" + str(query.toString()))
        except Exception as e:
            log("could not set the URL:", e)

    def net_open(self):
        log("room open:", self.room_id)
        self.failures = 0
        self.retry_at = None
        self.client.status = "ok"
        self.tell_followers()
        self.render()

    def tell_followers(self):
        """After a takeover: tell the old room's spectators where the room is now (`moved`),
        once this page holds the new id (never before: a spectator must not learn the next
        id while someone else could still take it)."""
        if not self.followers or self.net is None or not self.net.open:
            return
        followers, self.followers = self.followers, []
        for f in followers:
            if isinstance(f.get("peer"), str) and isinstance(f.get("text"), str):
                self.net.tell(f["peer"], f["text"])
        log("told", len(followers), "spectators where the room is")

    def net_error(self, kind):
        log("peer error:", kind)
        if self.net.open:
            return                  # e.g. a guest's connection failed: the room id is ours
        # Not registered (the id still held by our own reloaded page, or the server lost):
        # try again with backoff, for as long as the page is open.
        self.failures += 1
        self.retry_at = self.now() + backoff(self.failures)
        self.client.status = "connecting"
        self.render()

    def conn_open(self, cid, peer):
        self.engine.request({"op": "open", "conn": cid, "peer": peer, "now": self.clock()})

    def conn_text(self, cid, text):
        self.engine.request({"op": "receive", "conn": cid, "text": text, "now": self.clock()})

    def conn_close(self, cid):
        self.engine.request({"op": "close", "conn": cid, "now": self.clock()})


class GuestPage(Page):
    """A guest: one Client, one data connection to the host, kept up by ui/page/link.py."""

    def __init__(self, room_id):
        Page.__init__(self)
        self.room_id = room_id
        self.token_key = "crisp.token." + room_id
        self.follow_key = "crisp.follow." + room_id
        self.client = Client(self.send, nonce=lambda: str(js.crisp.randomHex(16)),
                             test_build=test_build())
        self.client.token = storage_get(self.token_key)
        self.name = None
        # A reloaded page's way to its room after a handover it did not see (its follow
        # record: hostile until checked; anything off and it is ignored whole)
        self.saved_follow = None
        self.follow_text = None           # the record as last written (written on change only)
        self.follow_marks = None          # what it was made of (keep_follow)
        self.seen = False                 # the room welcomed this page since it loaded
        self.reload_look = None           # None | "looking" | "moving" | "done"
        self.moved_at = None
        if self.client.token:
            # A reload or a re-woken phone: take the seat back without asking (docs/design.md).
            self.name = storage_get("crisp.name") or "?"
            self.saved_follow = handover.load_follow_record(storage_get(self.follow_key),
                                                            limits.MAX_PLAYERS)
        gone_ms = HOST_GONE_MS
        shorter = test_param("hostgone")        # a test build may shorten the 30 s
        if shorter and shorter.isdigit():
            gone_ms = int(shorter)
        self.gone_ms = gone_ms
        self.plan = None                  # the host handover in progress (ui/shared/handover.py)
        self.handed = None                # what it started from: room, players, host, token
        self.early = False                # the engine started early: this page hosts next
        self.gave_up = False              # nobody could host: no handover from this page
        self.follow = None                # back from away: where the room may be (Follow)
        self.looker = None                # the look at one of those ids in progress
        self.looked_at = None             # when the last look began
        self.candidates = []              # seat tokens still to try at the id it moved to
        self.link = Link(self.now(), seated=bool(self.client.token), gone_ms=gone_ms)
        self.reask = None                 # a spectator's seat request to make again
        self.net = GuestNet(room_id, self.net_open, self.net_text, self.net_lost,
                            self.net_error, self.incoming)
        # A page shown again, a network back: check the connection at once.
        self._wake_proxies = [on_page(js.document, "visibilitychange", self.woke),
                              on_page(js.document, "resume", self.woke),
                              on_page(js.window, "pageshow", self.woke),
                              on_page(js.window, "online", self.woke),
                              on_page(js.window, "focus", self.woke),
                              on_page(js.window, "pagehide", self.hidden)]
        self.step()
        self.render()

    def hidden(self):
        """pagehide: let the host hear at once that this page is going (a reload or a
        closed tab); back from the back/forward cache, `woke` connects again."""
        if self.retired:
            return
        self.net.shutdown()
        self.link.lost(self.now())
        if self.looker is not None:
            self.looker.stop()            # a look for the room starts again once back
            self.looker = None

    def send(self, text):
        self.net.send(text)

    def forget_room(self):
        self.net.shutdown()
        storage_remove(self.token_key)
        self.forget_follow()

    def forget_follow(self):
        """Drop this room's follow record (with the token: the page left, or the game ended)."""
        storage_remove(self.follow_key)
        self.follow_text = None

    def keep_follow(self):
        """Keep this seat's follow record up to date (docs/protocol.md "Back from away"):
        written only when it changed (a welcome, the players list, the host seat), dropped
        once the game is over."""
        client = self.client
        if client.seat is None or client.token is None:
            return
        view = client.view if isinstance(client.view, dict) else {}
        over = view.get("phase") == "game_over"
        # what the record is made of, compared in memory: most views change none of it
        marks = (client.seat, client.host_seat, client.succession, over,
                 tuple([(p.get("seat"), bool(p.get("bot")), p.get("connected") is True)
                        for p in client.players or [] if isinstance(p, dict)]))
        if marks == self.follow_marks:
            return
        self.follow_marks = marks
        if over:
            self.forget_follow()
            return
        record = handover.follow_record(client.succession, client.seat, client.host_seat,
                                        client.players)
        self.follow_marks = None              # written again once seated there
        if record is not None:
            self.follow_text = json.dumps(record)
            storage_set(self.follow_key, self.follow_text)

    def follow_source(self):
        """(seat, host, secret, players) to look for the room from: what the page heard, or
        after a reload the saved follow record."""
        client = self.client
        if client.seat is not None:
            return client.seat, client.host_seat, client.succession, client.players
        saved = self.saved_follow
        if saved is None:
            return None, None, None, []
        return saved["seat"], saved["host"], saved["secret"], saved["players"]

    def tell_leave(self):
        client = self.client
        if not self.net.open or not client.trusted or client.screen == "gone":
            return False
        if client.seat is None and not client.spectator:
            return False
        client.leave()
        return True

    def other(self, name, payload):
        if name == "join":
            self.name = payload["name"]
            if self.net.open:
                self.join()
        elif name == "reload":
            js.location.reload()          # the host's game is a newer version (version_clash)
        else:
            log("intent not handled here:", name)

    def join(self):
        # With a token: the seat proof (ui/shared/proof.py), bound to the room id and our PeerJS id.
        self.client.join(self.name, self.client.token, room=self.room_id,
                         peer=self.net.peer_id())
        self.link.joining(self.now())

    def ui_tick(self):
        self.step()
        Page.ui_tick(self)

    def step(self):
        """Do what the link says now: drop a dead connection, connect, ping."""
        client = self.client
        if self.retired:
            return
        if client.screen == "gone":
            self.net.drop()
            return
        now = self.now()
        self.link.online = self.net.registered
        for todo in self.link.step(now):
            if todo == "drop":
                log("no word from the host: reconnecting")
                self.net.drop()
            elif todo == "connect":
                self.net.connect()
            elif todo == "ping":
                client.ping(now)
        if self.looker is not None:
            self.looker.step(now)
        if self.reload_look is None and handover.reload_should_look(
                self.saved_follow, self.seen, self.link.missing, self.link.failures,
                self.net.registered):
            # A reloaded page whose room id does not answer: the room may have moved while
            # its tab was gone. It looks at the next ids (never takes the room over).
            log("the room does not answer: looking for it at its next ids")
            self.reload_look = "looking"
        if self.reload_look == "moving" and now - self.moved_at > self.gone_ms + SUCCESSOR_MS:
            self.reload_look = "done"         # the room it found does not seat it
        # The host's presence, one signal (ui/page/link.py): the banner, its seat away, the
        # countdowns paused, and once it counts as gone the choice of keep-waiting or leave.
        self.show_link(now)
        if not client.host_lost:
            self.screen.ui.pop("keep_waiting", None)
        if (self.plan is not None and client.handover is not None and self.link.missing
                and not self.link.open
                and now - self.handed["at"] >= self.gone_ms + SUCCESSOR_MS):
            # Nobody holds the new id (the successor's page went too: a page that takes over
            # registers it at once, before its engine runs): the next person hosts.
            log("seat", self.plan.successor, "did not take over: the next one does")
            self.hand_over(failed=self.plan.successor)
            return
        if self.reload_look == "looking":
            self.look_for_room(now)
        if self.reload_look in ("looking", "moving"):
            return
        if self.plan is None and not self.gave_up and self.can_hand_over():
            if client.behind:
                # Away itself (asleep, frozen, offline) while the host went: what it last
                # heard may be old. It never takes the room over: it looks for it.
                if client.host_lost and self.net.registered:
                    self.look_for_room(now)
                return
            if client.pause.since is not None and not self.early \
                    and self.next_host() == client.seat:
                # This page would host next: Pyodide starts now, while the host may still
                # come back, so that a takeover waits seconds less (a guest page downloads
                # Pyodide only when it is about to become the host).
                self.early = True
                log("the host is quiet and this seat hosts next: starting the engine")
                js.crisp.engine.start()
            if client.host_lost or client.host_leaving:
                self.hand_over()

    def show_link(self, now):
        """The host's presence as the link has it now, to the Client (what the screens show)."""
        self.client.set_link(self.link.signal(now, looking=self.reload_look in ("looking",
                                                                                 "moving")))

    # -- the host handover (docs/protocol.md "Host handover")
    def can_hand_over(self):
        """A seated player at a game in play (the lobby simply waits for its host), seated
        by the room since this page loaded (a reloaded page knows only its stored record:
        it looks for the room, never takes it over)."""
        client = self.client
        return (self.seen and client.seat is not None and client.token is not None and client.view is not None
                and client.screen == "table" and client.seat != client.host_seat)

    def next_host(self):
        return handover.successor(self.client.players, self.client.host_seat)

    def hand_over(self, failed=None):
        """The host counts as gone (or said it leaves): do this page's part, with nothing to
        tap or type. The successor's page becomes the host in place; every other page moves
        to the room's new id and rejoins its seat there; with nobody to host, the host-gone
        panel stays (keep waiting or leave). `failed`: a successor that never hosted at its
        new id (its page went too): the next one takes over at the next id (epoch + 1)."""
        client = self.client
        if failed is None:
            # what the page knew when the host went: every page names the successor from it
            players = client.players_at_leave if client.host_leaving else client.players
            self.handed = {"room": self.room_id, "players": [p for p in players],
                           "host": client.host_seat, "token": client.token,
                           "epoch": handover.epoch_after(self.room_id),
                           "succession": client.succession}
        else:
            self.handed["players"] = [without(p) if isinstance(p, dict)
                                      and p.get("seat") == failed else p
                                      for p in self.handed["players"]]
            self.handed["epoch"] += 1
        self.handed["at"] = self.now()
        handed = self.handed
        old_id, players = handed["room"], handed["players"]
        try:
            plan = handover.Handover(old_id, client.seat, players, handed["host"],
                                     client.sealed, handed["epoch"], handed["succession"])
        except ValueError as e:
            log("no handover:", e)
            return
        if plan.role == "none":
            self.plan = None              # nobody to host: the host-gone panel, for good
            self.gave_up = True
            client.handover = None
            client.host_lost = True
            return
        self.plan = plan
        name = handover_name(players, plan.successor)
        log("the host is gone: seat", plan.successor, "(" + name + ") hosts at", plan.new_id)
        if plan.role == "host":
            self.become_host(plan)
            return
        self.move_to(plan.new_id, plan.successor, name,
                     handover.next_token(handed["token"], old_id, plan.successor))

    def move_to(self, new_id, host, name, token):
        """Go to the room at `new_id`, hosted by seat `host` (called `name`), and rejoin this
        seat there with `token` (handover.next_token) through the seat proof."""
        client = self.client
        seat, old_host, secret, players = self.follow_source()
        storage_remove(self.token_key)
        self.forget_follow()
        self.room_id = new_id
        self.token_key = "crisp.token." + new_id
        self.follow_key = "crisp.follow." + new_id
        storage_set(self.token_key, token)
        # the follow record goes with the token: a reload before the new host seats this
        # page can still find the room
        record = handover.follow_record(secret, seat, host, players)
        self.follow_marks = None              # written again once seated there
        if record is not None:
            self.follow_text = json.dumps(record)
            storage_set(self.follow_key, self.follow_text)
        client.token = token
        client.hand_over_to(host, name)
        self.screen.ui.pop("keep_waiting", None)
        self.name = self.name or client.name or storage_get("crisp.name") or "?"
        set_query("room", new_id)
        self.link = Link(self.now(), seated=True, gone_ms=self.gone_ms)
        self.net.drop()
        self.net.room_id = new_id
        self.net.connect()

    # -- a spectator follows the room (docs/protocol.md "Spectators follow a handover")
    def incoming(self, text, answer, close):
        """A data connection someone opened to this page: the only message that counts on
        one is the room's new host's `moved` to a spectator, proven with its follow token
        (handover.check_moved); then the page watches the room at its new id. Anything
        else gets `error` `bad_message`, its connection closed, nothing changed."""
        client = self.client
        new_id = None
        if not self.retired and client.spectator and client.seat is None \
                and client.screen != "gone" and text is not None:
            new_id = handover.check_moved(text, client.follow, self.room_id)
        if new_id is None:
            answer(json.dumps({"type": "error", "v": 1, "code": "bad_message",
                               "text": "this page takes no messages here"}))
            close()
            return
        close()
        self.watch_at(new_id)

    def watch_at(self, new_id):
        """The room this page watches moved to `new_id` (a host handover): watch it there,
        and ask again for the seat it had asked for (the request ended with the old room)."""
        client = self.client
        log("the room moved to", new_id, ": watching it there")
        ask = client.ask
        if isinstance(ask, dict) and isinstance(ask.get("name"), str):
            self.reask = {"name": ask.get("name"), "seat": ask.get("seat")}
        client.follow = None
        client.ask = None
        self.room_id = new_id
        self.token_key = "crisp.token." + new_id
        set_query("room", new_id)
        self.link = Link(self.now(), gone_ms=self.gone_ms)
        self.net.drop()
        self.net.room_id = new_id
        self.net.connect()
        self.render()

    # -- back from away (docs/protocol.md "Back from away")
    def look_for_room(self, now):
        """This seated page was away while its host went: look for the room at its next ids
        (handover.Follow), one at a time, every FOLLOW_EVERY_MS; found, rejoin this seat there
        (`found`). Never a takeover from here."""
        client = self.client
        if self.looker is not None and not self.looker.done:
            return
        if self.looked_at is not None and now - self.looked_at < FOLLOW_EVERY_MS:
            return
        if self.follow is None:
            seat, host, secret, players = self.follow_source()
            try:
                self.follow = handover.Follow(self.room_id, seat, client.token, host, secret,
                                              players)
            except ValueError as e:
                log("cannot look for the room:", e)   # no succession secret
                self.looked_at = now
                if self.reload_look == "looking":
                    self.reload_look = "done"
                return
        new_id = self.follow.current()
        if new_id is None:
            self.follow.restart()             # none held the room: look again later
            self.looked_at = now
            if self.reload_look == "looking":
                # a reloaded page looks once: nothing there, the room is gone (host-gone)
                log("the room is at none of its next ids")
                self.reload_look = "done"
                self.follow = None
                self.render()
            return
        self.looked_at = now
        log("away while the host went: looking for the room at", new_id)
        # a holder of the sealed room offers its share on the look too: the successor waits
        # for it before answering anyone (else it deals the round again, issue 23 fault 4)
        seat, host, secret, players = self.follow_source()
        offer = handover.holder_plan(self.room_id, seat, players, host, client.sealed,
                                     new_id, secret)
        self.looker = Looker(new_id, self.found, self.not_found, FOLLOW_LOOK_MS, offer)

    def found(self, host):
        follow = self.follow
        new_id = follow.current() if follow is not None else None
        tokens = follow.tokens(host) if new_id is not None else []
        self.looker = None
        if self.retired or not tokens or self.link.open:
            self.not_found()
            return
        log("the room moved to", new_id, "hosted by seat", host, ": rejoining there")
        self.follow = None
        self.looked_at = None
        self.candidates = tokens[1:]
        self.move_to(new_id, host, handover_name(self.client.players, host), tokens[0])
        self.link.late_at = self.now()        # still behind there: never a takeover from here
        if self.reload_look == "looking":
            self.reload_look = "moving"       # "looking for the room" until seated there
            self.moved_at = self.now()
            self.client.handover = None       # (no names known yet: the banner says looking)
        self.render()

    def not_found(self):
        self.looker = None
        if self.follow is not None:
            self.follow.missing()
            self.looked_at = None             # the next id at once

    def become_host(self, plan):
        """This page is the successor: a HostPage takes it over in place (the same screen,
        the same model), and the engine worker makes the room (ui/worker/takeover.py)."""
        global PAGE
        client = self.client
        view = client.view or {}
        handed = self.handed
        spec = {"room_id": handed["room"], "new_id": plan.new_id, "epoch": handed["epoch"],
                "succession": handed["succession"], "seat": client.seat, "token": handed["token"], "players": handed["players"],
                "host": handed["host"], "sealed": client.sealed, "standby": client.standby,
                "after_seal": self.after_seal(),
                "public": {"options": view.get("options"), "scores": view.get("scores"),
                           "dealer": view.get("dealer"), "round": view.get("round"),
                           "phase": view.get("phase")}}
        name = client.name or self.name or storage_get("crisp.name") or "?"
        storage_remove(self.token_key)     # a guest of that room no more
        self.forget_follow()
        self.retire()
        self.net.shutdown()
        client.host_leaving = False
        PAGE = HostPage(self.screen, (spec, client, name))

    def after_seal(self):
        """How long (ms) the old host still spoke after this page's newest sealed box came:
        the room's clock ran on that long past the box's own reading, so a turn's timer
        goes on from where it was when the host went silent, not from the last seal."""
        sealed, heard = self.client.sealed, self.client.last_heard
        if not isinstance(sealed, dict) or not isinstance(sealed.get("at"), int) \
                or not isinstance(heard, int):
            return 0
        return max(0, heard - sealed["at"])

    def share_proof(self, text):
        """The successor's `share_proof` on the connection to the new id: this page's share
        goes to it only when its mac proves it is the successor's seat (ui/shared/handover.py);
        an impostor at the new id gets nothing. True when `text` was one."""
        plan = self.plan
        if plan is None or '"share_proof"' not in text:
            return False
        try:
            msg = json.loads(text)
        except ValueError:
            return False
        if not isinstance(msg, dict) or msg.get("type") != "share_proof":
            return False
        share = plan.share_for(msg.get("mac"), msg.get("nonce"), self.net.peer_id())
        if share is None:
            log("the peer at the new room id did not prove it is the successor: no share")
            return True
        self.net.send(json.dumps({"type": "share", "v": 1, "n": share["n"],
                                  "share": share["share"]}))
        return True

    def woke(self):
        try:
            if str(js.document.visibilityState) == "hidden":
                return
        except Exception:
            pass
        self.link.woke(self.now())
        self.step()
        self.render()

    def net_open(self):
        if self.retired:
            return
        plan = self.plan
        if plan is not None and plan.sealed is not None and plan.resume \
                and self.client.handover is not None:
            # a holder of the sealed room: offer the successor this seat's share (it goes
            # only once the successor proved itself: `share_proof`)
            nonce = plan.challenge(str(js.crisp.randomHex(16)))
            self.net.send(json.dumps({"type": "share_offer", "v": 1, "seat": self.client.seat,
                                      "n": (plan.sealed.get("box") or {}).get("n"),
                                      "nonce": nonce}))
        self.link.opened(self.now())
        self.client.connected()           # nothing from this peer counts until it proves itself
        # (a connection that opens is not a word from the host: the countdowns a quiet host
        # paused stay at its last message, client.last_heard, until it speaks again)
        joins = self.client.token or (self.name is not None and not self.client.spectator)
        if joins and self.client.screen != "gone":
            self.join()
        elif self.client.seat is None and self.client.screen != "gone":
            self.client.watch()           # no name needed to watch (docs/protocol.md "Spectators")
        self.render()

    def net_text(self, text):
        if text is None or self.retired:
            return
        if self.share_proof(text):
            return
        client = self.client
        now = self.now()
        client.receive(text, now)
        if client.suspect and self.candidates:
            # back from away, at a room reached through handovers this page never saw: its
            # seat there has the next of the tokens it may have (handover.Follow.tokens)
            client.suspect = False
            client.token = self.candidates.pop(0)
            storage_set(self.token_key, client.token)
            self.net.drop()
            self.link.lost(now)
            return
        if client.suspect:
            # The peer at the room id could not prove it is our host (an impostor, or a host
            # that lost our seat): drop it, keep trying, say so. Nothing it sent was taken.
            log("the peer at the room id did not prove it is the host")
            client.suspect = False
            self.net.drop()
            self.link.unverified(now)
            self.show_link(now)
            self.render()
            return
        if not client.trusted:
            return                        # waiting for the host's proof
        if self.reask is not None and client.spectator and client.room == self.room_id \
                and client.ask is None:
            # the new room's `watching` came (a `view` may have come after it in the same
            # batch: the page looks at what it holds, not at the last message's type)
            ask, self.reask = self.reask, None
            client.sit(ask["name"], ask["seat"])     # asked the old room: ask the new one
        if client.kicked is not None and client.kicked.get("code") == "left":
            self.go_home()                # the room heard our `leave`
            return
        if client.host_leaving and self.plan is None:
            self.step()                   # the host leaves: hand the room over now
            if self.retired:
                return
        self.link.heard(now, seated=client.last_type == "welcome")
        if client.last_type == "welcome":
            self.seen = True                  # this page knows the room now: no reload look
            self.saved_follow = None
            if self.reload_look is not None:
                self.reload_look = "done"
            self.candidates = []
        if client.last_type == "welcome" and client.handover is not None:
            client.handover = None            # seated again, under the new host
            self.plan = None
        if client.name_error and self.name is not None:
            # the room refused the name: the join screen says why; no retry with it
            self.name = None
            self.link.refused()
        if client.screen != "gone":
            self.show_link(now)
        if client.token and storage_get(self.token_key) != client.token:
            storage_set(self.token_key, client.token)    # the first welcome's, only
        elif client.token is None and client.kicked is not None:
            storage_remove(self.token_key)               # removed by the host: seat gone
            self.forget_follow()
        if client.last_type in ("welcome", "view", "lobby") and client.token is not None:
            self.keep_follow()
        self.render_soon()

    def net_lost(self, missing):
        if self.retired or self.client.screen == "gone":
            return
        self.link.lost(self.now(), missing)
        self.link.online = self.net.registered
        self.show_link(self.now())
        self.render()

    def net_error(self, kind):
        if self.retired:
            return
        log("peer error:", kind)
        if kind in ("disconnected", "network"):
            # the signaling server is lost: a new network? check the connection now
            self.link.doubt(self.now())
            self.step()


def handover_name(players, seat):
    """The name of `seat` in a players list, or "?"."""
    for p in players or []:
        if isinstance(p, dict) and p.get("seat") == seat:
            return str(p.get("name") or "?")
    return "?"


def without(player):
    """A players list entry marked not connected (a successor that never hosted)."""
    copy = {}
    for key in player:
        copy[key] = player[key]
    copy["connected"] = False
    return copy


def set_query(key, value):
    """Set one parameter of the page's URL (a reload goes to the same room)."""
    try:
        query = js.URLSearchParams.new(js.location.search)
        query.set(key, value)
        js.history.replaceState(None, "", "?" + str(query.toString()))
    except Exception as e:
        log("could not set the URL:", e)


class Looker:
    """A look at what holds PeerJS id `room_id`: a data connection of its own (a Peer of its
    own) that sends `watch`. A room there answers `watching` (or `lobby`) naming its host's
    seat: `on_host(seat)`. No peer holds the id (the signaling server says so), or nothing
    answers within `wait_ms` (LOOK_MS): `on_none()`. Either once; then the look is `done`. It sends
    nothing but `watch`: whoever holds the id learns nothing from it; with `offer` (a holder's
    handover.holder_plan) also a `share_offer`, and its share only to a proven successor."""

    def __init__(self, room_id, on_host, on_none, wait_ms=None, offer=None):
        self.room_id = room_id
        self.offer = offer              # a holder's handover.Handover: its share, on proof
        self.wait_ms = LOOK_MS if wait_ms is None else wait_ms
        self.on_host = on_host
        self.on_none = on_none
        self.done = False
        self.started = int(js.crisp.now())
        self.net = GuestNet(room_id, self.opened, self.text, self.lost, self.error)
        self.net.connect()

    def step(self, now):
        if not self.done and now - self.started > self.wait_ms:
            self.stop()                   # nothing answered
            self.on_none()

    def opened(self):
        if self.done:
            return
        plan = self.offer
        if plan is not None:
            nonce = plan.challenge(str(js.crisp.randomHex(16)))
            self.net.send(json.dumps({"type": "share_offer", "v": 1, "seat": plan.seat,
                                      "n": (plan.sealed.get("box") or {}).get("n"),
                                      "nonce": nonce}))
        self.net.send(json.dumps({"type": "watch", "v": 1}))

    def text(self, text):
        if self.done or text is None:
            return
        if self.offer is not None and '"share_proof"' in text:
            self.prove(text)
            return
        try:
            msg = json.loads(text)
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("type") not in ("lobby", "watching"):
            return
        host = msg.get("host")
        if not isinstance(host, int) or isinstance(host, bool):
            return
        self.stop()
        self.on_host(host)

    def prove(self, text):
        """The successor's `share_proof`: this holder's share goes once it checks (an
        impostor at the new id gets nothing)."""
        try:
            msg = json.loads(text)
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("type") != "share_proof":
            return
        share = self.offer.share_for(msg.get("mac"), msg.get("nonce"), self.net.peer_id())
        if share is None:
            log("the peer at the next room id did not prove it is the successor: no share")
            return
        log("away while the host went: this seat's share went to the successor")
        self.net.send(json.dumps({"type": "share", "v": 1, "n": share["n"],
                                  "share": share["share"]}))

    def lost(self, missing):
        if missing and not self.done:
            self.stop()                   # no room at this id
            self.on_none()

    def error(self, kind):
        pass

    def stop(self):
        self.done = True
        self.net.shutdown()


class Probe:
    """A resumed host room's check that it was not handed over while its page was away
    (issue 10: "if the old host comes back, it rejoins as a player in its own seat"): a
    Looker at the room's next id (handover.room_id_after, from the saved room's
    succession secret; ValueError without one). A room there whose `watching` (or `lobby`)
    names another seat as host is this room moved:
    `on_moved(new_id, token, name)` with this seat's token there (handover.next_token).
    Nothing there (the signaling server knows no such peer): the probe stops and the page
    goes on hosting. Whoever squats the next id learns nothing: the page then rejoins there
    through the seat proof, which a stranger cannot pass (the page says the host is
    unverified)."""

    def __init__(self, room_id, saved, on_moved):
        self.room_id = room_id
        self.new_id = handover.room_id_after(room_id, handover.epoch_after(room_id),
                                             saved.get("succession"))
        host = saved.get("host", 0)
        seats = saved.get("seats") or []
        self.seat = host if isinstance(host, int) and 0 <= host < len(seats) else 0
        me = seats[self.seat] if seats else {}
        self.token = me.get("token")
        self.name = me.get("name") or "?"
        self.on_moved = on_moved
        self.look = Looker(self.new_id, self.hosted, self.nothing)

    @property
    def done(self):
        return self.look.done

    def step(self, now):
        self.look.step(now)               # nothing answered: the room is here

    def hosted(self, host):
        if host == self.seat or not isinstance(self.token, str):
            return
        self.on_moved(self.new_id, handover.next_token(self.token, self.room_id, host),
                      self.name)

    def nothing(self):
        log("no room at", self.new_id, ": this room was not handed over")

    def stop(self):
        self.look.stop()


class OwnRoom:
    """The model of a room link opened in the browser that hosts the room (ui/page/link.py
    `own_room`): `own` "elsewhere" (a tab runs it now) or "resume" (none does)."""

    screen = "own_room"

    def __init__(self, room_id, own):
        self.room = room_id
        self.own = own
        self.status = "ok"


class OwnRoomPage(Page):
    """This browser hosts the room of the link it opened: never a second seat. Says that a
    tab runs the room, or offers to resume hosting it (the host page, ?host=<id>); checks
    again every tick (the other tab may close)."""

    def __init__(self, room_id, own):
        Page.__init__(self)
        self.own = OwnRoom(room_id, own)
        self.render()

    def model(self):
        return self.own

    def ui_tick(self):
        own = own_status(self.own.room, self.now())
        if own is not None:
            self.own.own = own
        self.render()

    def other(self, name, payload):
        if name == "resume_hosting":
            js.location.assign(self.screen.base + "?host=" + self.own.room)
        else:
            log("intent not handled here:", name)


def own_status(room_id, now):
    """hostlife.own_room for the room of this page's link, from this browser's storage."""
    return hostlife.own_room(room_id, storage_json("crisp.room." + room_id),
                             storage_json("crisp.live." + room_id), now)


def main():
    room_id = _str(js.crisp.room) if js.crisp.guest else None
    own = own_status(room_id, int(js.crisp.now())) if room_id else None
    if own is not None:
        page = OwnRoomPage(room_id, own)
    else:
        page = GuestPage(room_id) if room_id else HostPage()
    js.document.body.dataset.ready = INTERPRETER
    js.crisp.loaded()           # the loading screen goes: the page shows
    if room_id is None:
        page.engine.start()     # the landing shows: Pyodide starts in its worker meanwhile
    return page


PAGE = None


def start(*args):
    """The page's start, in a task of its own after the one that imported these modules
    (start.py's, itself after PyScript's own start): no one task holds the main thread for
    all of it, so a phone stays responsive and its loading screen moves meanwhile."""
    global PAGE
    try:
        if test_param("prof"):
            from ui.page import prof     # a test build's profile (bench/page_bench.py --profile)
            prof.install()
        PAGE = main()
    except Exception as e:
        try:
            js.crisp.failed("%s: %s" % (type(e).__name__, e))
        except Exception:
            pass
        raise


_START = create_proxy(start)
js.setTimeout(_START, 0)
