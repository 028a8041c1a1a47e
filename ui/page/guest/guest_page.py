"""A guest's page (MicroPython, main thread; ?room=<id>): join -> lobby -> table. One Client
fed by the data connection to the host (GuestNet, ui/page/net/net_guest.py), kept up by the link policy
(ui/page/net/link.py). Its phase is ui/page/guest/guest_phase.py's; what it does when the host goes or
the room moves is ui/page/guest/guest_succession.py's. Its seat token is kept per room
("crisp.token.<id>"); once seated at a game, what it needs to follow a host handover after a
reload too ("crisp.follow.<id>": follow.follow_record; docs/protocol.md "Back from away")."""
import json

import js

from ui.page import browser
from ui.page.dom import redraw
from ui.page.guest import guest_phase
from ui.page.host import early
from ui.page.net import netcheck, webrtc
from ui.page.base_page import Page
from ui.page.browser import log, on_page, random_hex, set_query, test_param
from ui.page.client.client import Client
from ui.page.guest.guest_phase import GuestPhase
from ui.page.guest.guest_succession import Succession
from ui.page.net.link import HOST_GONE_MS, Link
from ui.page.net.net_guest import GuestNet
from ui.page.saved_rooms import SavedRooms
from ui.shared import follow, handover, limits, roomcode, wire

SUCCESSOR_MS = 5000       # a successor's new id unknown to the signaling server this long after
                          # the host's gone time: that page went too, the next one hosts


def gone_time():
    """The host's gone time, ms (HOST_GONE_MS; a test build may shorten it: ?hostgone=)."""
    shorter = test_param("hostgone")
    return int(shorter) if shorter and shorter.isdigit() else HOST_GONE_MS


class GuestPage(Page):
    """A guest: one Client, one data connection to the host, kept up by ui/page/net/link.py."""

    def __init__(self, room_id):
        Page.__init__(self)
        self.at_room(room_id, url=False)
        self.client = Client(self.send, nonce=lambda: random_hex(16),
                             test_build=browser.test_build())
        self.client.set_token(browser.storage_get(self.token_key))
        self.name = None
        # A reloaded page's way to its room after a handover it did not see (its follow
        # record: hostile until checked; anything off and it is ignored whole)
        self.saved_follow = None
        self.follow_text = None           # the record as last written (written on change only)
        self.follow_marks = None          # what it was made of (keep_follow)
        if self.client.token:
            # A reload or a re-woken phone: take the seat back without asking (docs/design.md).
            self.name = browser.storage_get("crisp.name") or "?"
            self.saved_follow = follow.load_follow_record(
                browser.storage_get(self.follow_key), limits.MAX_PLAYERS)
        self.gone_ms = gone_time()
        self.phase = GuestPhase()
        self.succession = Succession(self)
        self.successor = None             # the HostPage that took this page over, if any
        self.link = Link(self.now(), seated=bool(self.client.token), gone_ms=self.gone_ms)
        if not roomcode.is_room_id(room_id):
            self.link.bad_link()          # `?room=hello`: said at once, never tried
        self.net = GuestNet(room_id, self.net_open, self.net_text, self.net_lost,
                            self.net_error, self.succession.incoming)
        # A page shown again, a network back: check the connection at once.
        self._wake_proxies = [on_page(js.document, "visibilitychange", self.woke),
                              on_page(js.document, "resume", self.woke),
                              on_page(js.window, "pageshow", self.woke),
                              on_page(js.window, "online", self.woke),
                              on_page(js.window, "focus", self.woke),
                              on_page(js.window, "pagehide", self.hidden)]
        self.step()
        self.render()

    def at_room(self, room_id, follow=True, url=True):
        """This page's room is `room_id` from now on (its token's key; `follow`: its follow
        record's key too; `url`: the page's URL names it)."""
        self.room_id = room_id
        self.token_key = "crisp.token." + room_id
        if follow:
            self.follow_key = "crisp.follow." + room_id
        if url:
            set_query("room", room_id)

    def reconnect(self, room_id, seated):
        """Connect to the room at `room_id` afresh (a new link: `seated` when it rejoins a
        seat there)."""
        self.link = Link(self.now(), seated=seated, gone_ms=self.gone_ms)
        self.net.drop()
        self.net.room_id = room_id
        self.net.connect()

    def hidden(self):
        """pagehide: let the host hear at once that this page is going (a reload or a
        closed tab); back from the back/forward cache, `woke` connects again."""
        if self.retired:
            return
        self.net.shutdown()
        self.link.lost(self.now())
        looker = self.phase.get("looker")
        if looker is not None:
            looker.stop()                 # a look for the room starts again once back
            self.phase.data["looker"] = None

    def send(self, text):
        self.net.send(text)

    def forget_room(self):
        self.net.shutdown()
        self.forget_seat()

    def forget_seat(self):
        browser.storage_remove(self.token_key)
        self.forget_follow()

    def forget_follow(self):
        """Drop this room's follow record (with the token: the page left, or the game ended)."""
        browser.storage_remove(self.follow_key)
        self.follow_text = None

    def write_follow(self, record):
        """Keep `record` (follow.follow_record, or None: nothing to keep) as this room's."""
        self.follow_marks = None              # written again once seated there
        if record is not None:
            self.follow_text = json.dumps(record)
            browser.storage_set(self.follow_key, self.follow_text)

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
        if over:
            self.follow_marks = marks
            self.forget_follow()
            return
        self.write_follow(follow.follow_record(client.succession, client.seat,
                                                 client.host_seat, client.players))
        self.follow_marks = marks

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

    def render(self, model=None):
        """Draw the screen, but not between a welcome and the view (or lobby) the room sends
        right after it (`Client.settling`): the two are drawn together."""
        if not self.client.settling(self.now()):
            Page.render(self, model)

    def step(self):
        """Do what the link says now (drop a dead connection, connect, ping), show what it
        says of the host, then what the phase says (guest_phase.GuestPhase.step)."""
        client = self.client
        if self.retired:
            return
        if client.screen == "gone":
            self.phase.to("closed")
            self.net.drop()
            return
        now = self.now()
        self.link.online = netcheck.own_link_up(self.net.registered, js.navigator.onLine)
        webrtc.report(self.net, self.link, now, client)    # answered? ICE failed? no WebRTC?
        for todo in self.link.step(now):
            if todo == "drop":
                log("no word from the host: reconnecting")
                self.net.drop()
            elif todo == "connect":
                self.net.connect()
            elif todo == "ping":
                client.ping(now)
        self.show_link(now)
        self.succession.follow_moved(now)     # a spectator's proven move, once the host is gone
        looker = self.phase.get("looker")
        if looker is not None:
            looker.step(now)
        self.act(now, self.phase.step(now, self.facts(now)))
        client.set_status(client.status, self.phase.phase)   # the banner reads the phase

    def show_link(self, now):
        """The host's presence as the link sees it, on the Client (ui/page/net/link.py): its seat
        away, the countdowns paused while it is not heard (no time counted while the host
        could not run; the next view says how much is left), and once it counts as gone the
        choice between keep-waiting and leave."""
        client = self.client
        signal = self.link.signal(now, looking=self.phase.reloading())
        client.set_link(signal)                   # one signal: banner, badge, countdowns
        self.phase.link(signal["paused_since"] is not None)
        if not client.host_lost:
            self.screen.ui.pop("keep_waiting", None)

    def facts(self, now):
        """The plain facts GuestPhase.step decides from."""
        client, link = self.client, self.link
        return {"gone_ms": self.gone_ms, "successor_ms": SUCCESSOR_MS,
                "missing": link.missing, "open": link.open, "failures": link.failures,
                "registered": self.net.registered, "quiet": client.pause.since is not None,
                "lost": client.host_lost, "leaving": client.host_leaving,
                "behind": client.behind, "old_gone": link.old_room_gone(),
                "saved_follow": self.saved_follow,
                "can_hand_over": guest_phase.can_hand_over(
                    self.phase.seen, client.seat, client.token, client.view, client.screen,
                    client.host_seat),
                "next_is_me": handover.successor(client.players, client.host_seat)
                == client.seat}

    def act(self, now, todo):
        """Do what GuestPhase.step said."""
        client = self.client
        for what in todo:
            if what == "next_successor":
                self.succession.next_successor()
            elif what == "look":
                self.succession.look_for_room(now, reload=self.phase.reloading())
            elif what == "looking":
                self.show_link(now)           # "looking for the room", never "host gone"
            elif what == "start_engine":
                log("the host is quiet and this seat hosts next: starting the engine")
                js.crisp.engine.start()
            elif what == "hand_over":
                self.succession.hand_over()

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
        self.succession.offer_share()
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
        msg = wire.read(text, any_version=True)       # each text read once
        if self.succession.share_proof(msg) or self.succession.elsewhere(msg):
            return
        client = self.client
        now = self.now()
        setup = early.setup_of(msg)
        if setup is not None:           # the host's table is being set up: wait for the seat
            early.wait_on(client, self.link, setup, now)
            self.render_soon()
            return
        client.take(msg, now)
        if client.last_type == "welcome":
            client.setup = None
        back = SavedRooms(browser.storage).settle(self.room_id, client.last_type == "welcome") \
            if client.suspect or client.last_type == "welcome" else None
        if back is not None:            # an old host whose own seat here failed its proof:
            browser.go(self.screen.base + "?host=" + back, replace=True)    # host it again
            return
        if client.suspect:
            self.doubt(now)
            return
        if not client.trusted:
            return                        # waiting for the host's proof
        self.succession.sit_again()
        if client.kicked is not None and client.kicked.get("code") == "left":
            self.go_home()                # the room heard our `leave`
            return
        if client.host_leaving and self.phase.phase != "handing_over":
            self.step()                   # the host leaves: hand the room over now
            if self.retired:
                return
        self.heard(now)
        if redraw.draws_at_once(client):
            self.render_now()           # a move: on screen without waiting for a task
        elif not redraw.quiet(client.last_type) or self.screen.due(self.model()):
            self.render_soon()          # (a beat or a pong that changed nothing shown: none)

    def doubt(self, now):
        """The peer at the room id could not prove it is our host (an impostor, or a host
        that lost our seat): drop it, keep trying, say so. Nothing it sent was taken. Back
        from away, at a room reached through handovers this page never saw: its seat there
        has the next of the tokens it may have (follow.Follow.tokens): try that one."""
        token = self.succession.next_token()
        self.net.drop()
        if token is not None:
            self.client.set_token(token)
            browser.storage_set(self.token_key, token)
            self.link.lost(now)
            return
        log("the peer at the room id did not prove it is the host")
        self.client.doubted()
        self.link.unverified(now)
        self.show_link(now)
        self.render()

    def heard(self, now):
        """A trusted message from the room: the link, the phase, the seat's records."""
        client = self.client
        welcome = client.last_type == "welcome"
        self.link.heard(now, seated=welcome)
        self.phase.host_heard()           # a look back from away ends the moment it answers
        if client.last_type == "beat":
            self.link.beat(now)           # the pause's one clock (Link.sign)
        if welcome:
            self.saved_follow = None      # this page knows the room now: no reload look
            if client.handover is not None:
                client.set_handover(None, now)    # seated again, under the new host
            self.phase.welcomed()
        if client.name_error and self.name is not None:
            # the room refused the name: the join screen says why; no retry with it
            self.name = None
            self.link.refused()
        if client.screen != "gone":
            self.show_link(now)
        if client.token and browser.storage_get(self.token_key) != client.token:
            browser.storage_set(self.token_key, client.token)    # the first welcome's, only
        elif client.token is None and client.kicked is not None:
            browser.storage_remove(self.token_key)               # removed by the host: seat gone
            self.forget_follow()
        if client.last_type in ("welcome", "view", "lobby") and client.token is not None:
            self.keep_follow()

    def net_lost(self, missing):
        if self.retired or self.client.screen == "gone":
            return
        self.link.lost(self.now(), missing, blocked=self.net.lost_to_ice)
        self.link.online = netcheck.own_link_up(self.net.registered, js.navigator.onLine)
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
