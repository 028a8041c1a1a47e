"""The host's page (MicroPython, main thread): landing -> create a room -> lobby with the room
link -> table. The Room (ui/worker/room.py) and the rules engine run on Pyodide in the engine
worker (ui/page/host/enginelink.py), started as soon as the landing shows; this page owns PeerJS
(ui/page/host/host_transport.py), the timers, localStorage and the lease (ui/page/saved_rooms.py)
and the host's own screen: a Client whose messages go to the room as the connection "local",
exactly as a guest's do over the network. Its phase is ui/page/host/host_phase.py's; the pure side
of the room's life (lease, resume, clock, what the room's outputs ask for) is
ui/shared/hostlife.py's. Solo (the landing's Play solo): the same Room with bot seats and the
host's Client only; no PeerJS Peer at all."""
import js

from crisp_core.guided import deck as guided_deck

from ui.page import browser, room_commands
from ui.page.host import host_phase
from ui.page.net import webrtc
from ui.page.base_page import Page
from ui.page.browser import Timer, log, on_page, param, test_param
from ui.page.client.client import Client
from ui.page.host.enginelink import EngineLink, restart_room
from ui.page.host.host_moved import HostMoved
from ui.page.host.host_phase import HostPhase, Landing
from ui.page.host.host_replies import HostReplies
from ui.page.host.host_saves import HostSaves
from ui.page.host.host_transport import HostTransport
from ui.page.saved_rooms import SavedRooms
from ui.shared import hostlife

WAITS_FOR = ("start", "new_game", "add_bot", "remove")   # taps that show the engine's start


def room_params():
    """The room's test parameters (a test build only: ?seed=N, ?deck=Ah,5c,..., ?cheat=) and
    the bots' pace (?botpace=F, 0-1, every build): (seed, deck, cheat, pace)."""
    seed = test_param("seed")
    seed = int(seed) if seed and seed.lstrip("-").isdigit() else None
    deck = test_param("deck")
    deck = [c.strip() for c in deck.split(",") if c.strip()] if deck else None
    pace = 1.0
    try:
        if param("botpace"):
            pace = min(1.0, max(0.0, float(param("botpace"))))
    except ValueError:
        pass
    return seed, deck, test_param("cheat"), pace


class HostPage(HostTransport, HostSaves, HostReplies, HostMoved, Page):
    """The host: its room (in the engine worker), the room's transport (HostTransport), its
    saves (HostSaves), the engine's replies (HostReplies), the check that the room did not move
    while this page was cut off (HostMoved), timers and the host's own screen. `takeover`:
    (spec, client, name) of a guest page that becomes the host in a handover
    (ui/page/guest/guest_succession.py)."""

    def __init__(self, screen=None, takeover=None):
        Page.__init__(self, screen)
        self.init_transport()
        self.phase = HostPhase()
        self.room_id = None           # the room this page runs, once created or resumed
        self.saves = SavedRooms(browser.storage)
        self.clock_ = hostlife.Clock(self.now())
        self.wake = Timer(self.tick)
        self.tab = browser.random_hex(8)
        self.offer = None             # the saved room the landing offers to resume
        self.refused = False          # a saved room was refused: the landing says so
        self.landing_error = None     # {code, text} of the last refused name
        self.lease_at = 0
        self.seed, self.deck, self.cheat, self.bot_pace = room_params()
        self._net_soon = Timer(self._start_net_soon)     # create's start_net, after the lobby
        self._net_room = None
        self.engine = EngineLink(self.reply, self.engine_status, self.engine_died)
        self.last_save = None         # the room's last save (the engine's, text): a restart
        self.engine.listen()
        self._page_proxies = [on_page(js.window, "pagehide", self.hidden),
                              on_page(js.window, "pageshow", self.shown)]
        self.probe = None             # a resumed room's check that it did not move (Probe)
        self.alone_since = None       # since when no person is here but the host (ms)
        self.probed_at = 0
        if takeover is not None:
            self.take_over(*takeover)
            return
        self.landing()
        self.render()

    def landing(self):
        """A new page: resume the room of a reload at once, or offer the last one."""
        wanted = param("host")
        last = wanted or self.saves.last()
        held = wanted is not None and not hostlife.lease_free(self.saves.lease(wanted),
                                                               self.tab, self.now())
        todo, what = hostlife.choose(wanted, self.saved(last) if last else None, held)
        if todo == "resume":
            self.resume_room(what)             # a reload: back to the same room at once
        elif todo == "offer":
            self.offer = what
            self.engine.request({"op": "check", "saved": what})

    def model(self):
        wait = self.engine_wait()
        client = self.client
        if client is not None and client.screen != "join":
            client.set_engine(wait, self.engine.stage, self.engine.slow)
            client.set_arriving(self.arriving())
            client.set_solo(self.phase.solo)
            client.set_status(client.status, self.phase.phase)
            return webrtc.describe(client, self.net, self.now())   # a friend could not connect
        # no room yet, or the engine has not answered for it (solo, a resumed room); in a
        # browser without WebRTC the landing offers solo only (ui/page/screens/netscreens.py)
        return webrtc.describe(Landing(self.offer, "connecting" if self.phase.held else None,
                                       wait, self.refused, self.landing_error,
                                       self.engine.stage, self.engine.slow))

    def engine_wait(self):
        """The engine's progress (percent) when the player waits for it, or the lobby's
        when it is slow or failed (host_phase.engine_shown), else None."""
        e = self.engine
        return host_phase.engine_shown(e.state, e.pct, self.phase.waits, e.slow,
                                       self.room_id is not None)

    def engine_died(self):
        """The running engine worker died (ui/page/host/enginewatch.py): restart_room."""
        restart_room(self, self.last_save or (self.saves.saved_text(self.room_id)
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
        elif name == "play_guided":
            self.solo(payload, deck=guided_deck(), guided=True)   # ui/page/guided.py
        elif name == "resume_room" and self.offer is not None:
            self.resume_room(self.offer.get("room_id"))
        elif name == "abandon_room" and self.offer is not None:
            self.forget(self.offer.get("room_id"))
            self.offer = None
        elif name == "guided_skip":           # (the screen remembers a skipped guide)
            if self.room_id is not None and self.saves.is_guided(self.room_id):
                self.saves.mark_solo(self.room_id)     # no tips after a reload either
        else:
            log("intent not handled here:", name)

    def handle(self, name, payload):
        if name in WAITS_FOR and self.engine.state != "ready":
            # show the engine's progress meanwhile: a tap that changes nothing on screen
            # for seconds reads as a broken button (a tester tapped Add a bot 3 times)
            self.phase.waits = True
        Page.handle(self, name, payload)

    def new_game(self):
        self.client.host({"type": "new_game"})
        if self.net is None:
            self.phase.to("new_game_solo")     # solo: straight into the next game

    def tell_leave(self):
        """The host leaves mid-game: the room tells its guests (`host_leaving`), so that
        they hand the room over at once (docs/protocol.md "Host handover"); in the lobby or
        alone the room simply closes."""
        if self.net is None or not self.phase.started() or self.client is None:
            return False
        self.client.leave()
        return True

    def forget_room(self):
        if self.room_id is not None:
            room_id = self.room_id
            self.stop_net()
            self.wake.cancel()
            self.engine.request({"op": "drop"})
            self.room_id = None         # pagehide saves nothing now
            self.phase.to("forget")
            self.forget(room_id)

    def new_room(self, name, deck=None):
        """Ask the engine for a fresh room (its bots seeded from its seed and their seat;
        `deck`: a stacked deck, else the test build's ?deck=); the host's own screen joins
        it. Returns the room id."""
        self.room_id = hostlife.new_room_id(browser.random_hex(8))
        self.saves.drop_peer_token(self.room_id)
        # the room keeps the id's PeerJS token for a successor's door (ui/shared/door.py)
        token = self.saves.peer_token(self.room_id, lambda: browser.random_hex(16))
        self.clock_ = self.room_clock()
        self.phase.to("create")
        self.early = (name, False)    # what the page tells guests while the engine starts
        self.engine.request({"op": "create", "room_id": self.room_id, "name": name,
                             "seed": self.seed, "deck": deck or self.deck,
                             "pace": self.bot_pace,
                             "cheat": self.cheat, "now": self.clock(),
                             "lang": self.screen.ui.get("lang", "en"),    # the bots' names
                             "deck_once": deck is not None,    # the guided round's deal
                             "guided": deck is not None,       # its held crisp windows
                             "door": token})
        self.client = Client(self.local_send, is_host=True)
        return self.room_id

    def solo(self, payload, deck=None, guided=False):
        """Play at once against bots, in this tab only: no signaling, no Peer (`deck`: a
        stacked deck, the guided round's: crisp_core/guided.py; `guided`: the guided round,
        its tips shown again after a reload)."""
        if self.room_id is not None:
            return
        name = payload["name"]
        room_id = self.new_room(name, deck)
        self.phase.solo = True
        self.phase.waits = True
        self.client.set_status("ok")
        self.client.join(name, None)
        for msg in room_commands.solo_messages(payload):
            self.client.host(msg)
        self.saves.mark_solo(room_id, guided)  # resumed without a network
        self.saves.mark_last(room_id)
        self.hold_lease()
        self.name_room_in_url(room_id)
        self.client.host({"type": "start"})

    def create(self, name):
        if self.room_id is not None:
            return
        self.phase.held = None
        self.refused = False
        if self.offer is not None:            # a new room replaces the saved one
            self.forget(self.offer.get("room_id"))
            self.offer = None
        room_id = self.new_room(name)
        self.hold_lease()
        # saved at once: a reload before the engine saves the room makes the same room again
        self.saves.save_draft(room_id, name, self.seed, self.deck,
                              self.screen.ui.get("lang", "en"))
        if self.engine.state != "ready":
            # The lobby and its link work at once; the room's own lobby replaces this one
            # when the engine runs (guests who join meanwhile wait for it).
            for text in hostlife.provisional(room_id, name):
                self.client.receive(text, self.now())
        self.client.join(name, None)
        self.client.set_status("connecting")
        self.name_room_in_url(room_id)
        self.saves.mark_last(room_id)
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
        self.phase.to("take_over")
        self.clock_ = self.room_clock()         # the room's own clock comes with its reply
        client.become_local_host(self.local_send)
        self.client = client
        self.hold_lease()
        self.engine.request({"op": "takeover", "handover": spec, "pace": self.bot_pace,
                             "now": self.clock(),
                             "lang": self.screen.ui.get("lang", "en")})    # the bots' names
        client.join(name, None)
        self.saves.mark_last(room_id)
        self.start_net()
        log("taking over the room as", room_id)
        self.render()

    def ui_tick(self):
        now = self.now()
        self.engine.watch(now)
        if self.probe is not None:
            self.probe.step(now)
        self.check_moved(now)
        if self.phase.held is not None:
            self.resume_room(self.phase.held)
        if self.room_id is not None:
            skipped = self.clock_.skipped
            self.clock()                       # a reading each tick: a gap shows at once
            if self.clock_.skipped != skipped:
                log("the page did not run for a while: the room's clock skipped",
                    self.clock_.skipped - skipped, "ms")
            if hostlife.lease_due(self.lease_at, now):
                self.hold_lease()
            self.retry_net(now)
            self.beat(now)
        Page.ui_tick(self)
