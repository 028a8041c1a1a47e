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

from ui.page.base_page import Page
from ui.page.browser import (_str, log, on_page, set_query, storage_get, storage_remove,
                             storage_set, test_param)
from ui.page.client import Client
from ui.page.host_page import HostPage
from ui.page.link import HOST_GONE_MS, Link
from ui.page.lookout import Looker
from ui.page.net import GuestNet
from ui.page.own_room_page import OwnRoomPage, own_status
from ui.shared import handover, limits

INTERPRETER = "micropython" if sys.implementation.name == "micropython" else "pyodide"
FOLLOW_LOOK_MS = 8000     # ... a look for the room of a page back from away
FOLLOW_EVERY_MS = 4000    # a seated page back from away looks for its room this often
SUCCESSOR_MS = 5000       # a successor's new id unknown to the signaling server this long after
                          # the host's gone time: that page went too, the next one hosts




class GuestPage(Page):
    """A guest: one Client, one data connection to the host, kept up by ui/page/link.py."""

    def __init__(self, room_id):
        Page.__init__(self)
        self.room_id = room_id
        self.token_key = "crisp.token." + room_id
        self.follow_key = "crisp.follow." + room_id
        self.client = Client(self.send, nonce=lambda: str(js.crisp.randomHex(16)))
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
        client.status = self.link.status()
        # The countdowns stop while the host is not heard (paused, or reconnecting to it):
        # when the host could not run, no time counted; the next view says how much is left.
        silent = self.link.seated and client.status != "ok" and client.view is not None
        client.quiet_since = self.link.last_heard if silent else None
        # The host's absence shown truthfully (ui/page/link.py): its seat away, timers paused,
        # and once it counts as gone the choice between keep-waiting and leave.
        client.host_quiet = self.link.host_quiet(now)
        client.host_lost = self.link.host_lost(now)
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
        if self.reload_look == "looking":
            self.look_for_room(now)
        if self.reload_look in ("looking", "moving"):
            client.host_lost = False
            if client.status not in ("host_unverified", "ok"):
                client.status = "looking"
            return
        behind = self.link.behind(now)
        if self.plan is None and not self.gave_up and self.can_hand_over():
            if behind:
                # Away itself (asleep, frozen, offline) while the host went: what it last
                # heard may be old. It never takes the room over: it looks for it.
                if client.host_lost and self.net.registered:
                    self.look_for_room(now)
                return
            if client.host_quiet and not self.early and self.next_host() == client.seat:
                # This page would host next: Pyodide starts now, while the host may still
                # come back, so that a takeover waits seconds less (a guest page downloads
                # Pyodide only when it is about to become the host).
                self.early = True
                log("the host is quiet and this seat hosts next: starting the engine")
                js.crisp.engine.start()
            if client.host_lost or client.host_leaving:
                self.hand_over()

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
        client.host_seat = host
        client.host_lost = client.host_quiet = client.host_leaving = False
        client.handover = {"name": name, "me": False}
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
        self.looker = Looker(new_id, self.found, self.not_found, FOLLOW_LOOK_MS)

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
            client.status = self.link.status()
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
            client.status = self.link.status()
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
        self.client.status = self.link.status()
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
