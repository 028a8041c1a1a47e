"""The guest page's part of a host handover and of a room that moved (MicroPython, main
thread; docs/protocol.md "Host handover", "Spectators follow a handover", "Back from away"):
hand the room over when the host went, move to the successor's new id and rejoin this seat
there, become the host in place, give this seat's share only to a proven successor, look for
a room that moved while this page was away, and follow a watched room to its new id. Held by
GuestPage (ui/page/guest/guest_page.py) as `succession`; the phase and its data are
ui/page/guest/guest_phase.py's, the succession rules ui/shared/handover.py's."""
from ui.page import browser
from ui.page.guest import guest_phase
from ui.page.browser import log
from ui.page.host.host_page import HostPage
from ui.page.net.lookout import Looker, give_share, offer_share
from ui.shared import door, follow, handover, spectator_moves, wire

FOLLOW_LOOK_MS = 8000     # a look for the room of a page back from away (Looker)
FOLLOW_EVERY_MS = 4000    # a seated page back from away looks for its room this often


class Succession:
    """What a guest page does when its host goes or its room moves. `page`: the GuestPage
    (its client, net, link, phase, room id)."""

    def __init__(self, page):
        self.page = page
        self.reask = None             # a spectator's seat request to make again
        self.moved_to = None          # a spectator's proven move, followed once the old host
                                      # has been silent for the gone time (`follow_moved`)

    # -- the host handover
    def hand_over(self, failed=None):
        """The host counts as gone (or said it leaves): do this page's part, with nothing to
        tap or type. The successor's page becomes the host in place; every other page moves
        to the room's new id and rejoins its seat there; with nobody to host, the host-gone
        panel stays (keep waiting or leave). `failed`: a successor that never hosted at its
        new id (its page went too): the next one takes over at the next id (epoch + 1)."""
        page, client = self.page, self.page.client
        if failed is None:
            # what the page knew when the host went: every page names the successor from it
            players = client.players_at_leave if client.host_leaving else client.players
            handed = {"room": page.room_id, "players": [p for p in players],
                      "host": client.host_seat, "token": client.token,
                      "epoch": handover.epoch_after(page.room_id),
                      "succession": client.succession}
        else:
            handed = page.phase.get("handed")
            handed["players"] = guest_phase.without(handed["players"], failed)
            handed["epoch"] += 1
        handed["at"] = page.now()
        try:
            plan = handover.Handover(handed["room"], client.seat, handed["players"],
                                     handed["host"], client.sealed, handed["epoch"],
                                     handed["succession"])
        except ValueError as e:
            log("no handover:", e)
            return
        if plan.role == "none":
            page.phase.to("nobody")     # nobody to host: the host-gone panel, for good
            client.nobody_hosts()
            return
        page.phase.to("hand_over", {"plan": plan, "handed": handed})
        name = guest_phase.handover_name(handed["players"], plan.successor)
        log("the host is gone: seat", plan.successor, "(" + name + ") hosts at", plan.new_id)
        if plan.role == "host":
            self.become_host(plan, handed)
            return
        self.move_to(plan.new_id, plan.successor, name,
                     handover.next_token(handed["token"], handed["room"], plan.successor))

    def next_successor(self):
        plan = self.page.phase.get("plan")
        log("seat", plan.successor, "did not take over: the next one does")
        self.hand_over(failed=plan.successor)

    def move_to(self, new_id, host, name, token):
        """Go to the room at `new_id`, hosted by seat `host` (called `name`), and rejoin this
        seat there with `token` (handover.next_token) through the seat proof."""
        page, client = self.page, self.page.client
        seat, old_host, secret, players = page.follow_source()
        page.forget_seat()
        page.at_room(new_id)
        browser.storage_set(page.token_key, token)
        # the follow record goes with the token: a reload before the new host seats this
        # page can still find the room
        page.write_follow(follow.follow_record(secret, seat, host, players))
        client.moved_to(token, host, name)
        page.screen.ui.pop("keep_waiting", None)
        page.name = page.name or client.name or browser.storage_get("crisp.name") or "?"
        page.reconnect(new_id, seated=True)

    def become_host(self, plan, handed):
        """This page is the successor: a HostPage takes it over in place (the same screen,
        the same model), and the engine worker makes the room (ui/worker/takeover.py)."""
        page, client = self.page, self.page.client
        spec = guest_phase.takeover_spec(
            handed, plan.new_id, client.seat, client.sealed, client.standby,
            guest_phase.after_seal(client.sealed, client.last_heard), client.view)
        name = client.name or page.name or browser.storage_get("crisp.name") or "?"
        browser.storage_remove(page.token_key)     # a guest of that room no more
        page.forget_follow()
        page.retire()
        page.net.shutdown()
        client.leave_heard()
        page.successor = HostPage(page.screen, (spec, client, name))

    def offer_share(self):
        """On the connection to the new id: a holder of the sealed room offers the successor
        this seat's share (lookout.offer_share)."""
        plan = self.page.phase.get("plan")
        if plan is not None and plan.sealed is not None and plan.resume:
            offer_share(plan, self.page.client.seat, self.page.net)

    def share_proof(self, msg):
        """`msg` (read once) on the connection to the new id: the successor's `share_proof`
        gets this seat's share once it proves itself (lookout.give_share). True when it was
        one."""
        plan = self.page.phase.get("plan")
        return plan is not None and give_share(plan, msg, self.page.net)

    # -- a spectator follows the room (docs/protocol.md "Spectators follow a handover")
    def incoming(self, text, answer, close):
        """A data connection someone opened to this page: the only message that counts on
        one is the room's new host's `moved` to a spectator, proven with its follow token
        (spectator_moves.check_moved); then the page watches the room at its new id, once its
        old host has been silent for the gone time (`follow_moved`). Anything else gets
        `error` `bad_message`, its connection closed, nothing changed."""
        page, client = self.page, self.page.client
        new_id = None
        if not page.retired and client.spectator and client.seat is None \
                and client.screen != "gone" and text is not None:
            new_id = spectator_moves.check_moved(text, client.follow, page.room_id, client.next_ids)
        if new_id is None:
            answer(wire.encode(wire.message("error", code="bad_message",
                                            text="this page takes no messages here")))
            close()
            return
        close()
        self.moved_to = new_id
        self.follow_moved(page.now())

    def follow_moved(self, now):
        """A proven move waits (`moved_to`) until the old host has been silent for the gone
        time on this page's clock (spectator_moves.follow_now); then the page follows it.
        Called at every step of the page."""
        page, client = self.page, self.page.client
        if self.moved_to is None:
            return
        if page.retired or not client.spectator or client.seat is not None:
            self.moved_to = None              # seated, or gone: nothing to follow any more
            return
        if spectator_moves.follow_now(self.moved_to, page.link.sign(), now, page.gone_ms,
                                      client.host_leaving):
            new_id, self.moved_to = self.moved_to, None
            self.watch_at(new_id)

    def watch_at(self, new_id):
        """The room this page watches moved to `new_id` (a host handover): watch it there,
        and ask again for the seat it had asked for (the request ended with the old room)."""
        page, client = self.page, self.page.client
        log("the room moved to", new_id, ": watching it there")
        ask = client.ask
        if isinstance(ask, dict) and isinstance(ask.get("name"), str):
            self.reask = {"name": ask.get("name"), "seat": ask.get("seat")}
        client.unfollow()
        page.at_room(new_id, follow=False)
        page.reconnect(new_id, seated=False)
        page.render()

    def elsewhere(self, msg):
        """`msg` (read once) came from the door at the room's first id (ui/shared/door.py):
        the room moved to a later id of its own. A page without a seat goes there as it
        came (to join in the lobby, or to watch: the same screen, the name it typed); a
        seated page takes it as a room id nobody holds and finds its room its own way
        ("Back from away"), with its proofs. True when it was one (anything else, False)."""
        if not isinstance(msg, dict) or msg.get("type") != "elsewhere":
            return False
        page, client = self.page, self.page.client
        new_id = door.check_elsewhere(msg, page.room_id)
        page.net.drop()
        if new_id is None or page.retired:
            page.net_lost(True)
            return True
        if client.token or client.seat is not None:
            page.net_lost(True)
            return True
        log("the room's first id says it is at", new_id, ": going there")
        self.watch_at(new_id)         # (a spectator's seat request is made again there)
        return True

    def sit_again(self):
        """The new room's `watching` came: ask it for the seat asked of the old one (a
        `view` may have come after it in the same batch: the page looks at what it holds,
        not at the last message's type)."""
        client = self.page.client
        if self.reask is not None and client.spectator and client.room == self.page.room_id \
                and client.ask is None:
            ask, self.reask = self.reask, None
            client.sit(ask["name"], ask["seat"])

    # -- back from away (docs/protocol.md "Back from away")
    def look_for_room(self, now, reload=False):
        """This seated page was away while its host went (or a reloaded page's room id does
        not answer): look for the room at its next ids (follow.Follow), one at a time,
        every FOLLOW_EVERY_MS; found, rejoin this seat there (`found`). Never a takeover
        from here."""
        page = self.page
        phase = page.phase
        if phase.phase != "looking":
            phase.to("look", {"reload": reload})
        looker, looked_at = phase.get("looker"), phase.get("looked_at")
        if looker is not None and not looker.done:
            return
        if looked_at is not None and now - looked_at < FOLLOW_EVERY_MS:
            return
        if phase.get("follow") is None and not self.new_follow(now):
            return
        follow = phase.get("follow")
        new_id = follow.current()
        phase.data["looked_at"] = now
        if new_id is None:
            follow.restart()             # none held the room: look again later
            if phase.get("reload"):
                # a reloaded page looks once: nothing there, the room is gone (host-gone)
                log("the room is at none of its next ids")
                phase.to("nothing")
                page.render()
            return
        log("away while the host went: looking for the room at", new_id)
        # a holder of the sealed room offers its share on the look too: the successor waits
        # for it before answering anyone (else it deals the round again, docs/decisions.md "Faults the page survives")
        seat, host, secret, players = page.follow_source()
        offer = handover.holder_plan(page.room_id, seat, players, host, page.client.sealed,
                                     new_id, secret)
        phase.data["looker"] = Looker(new_id, self.found, self.not_found, FOLLOW_LOOK_MS,
                                      offer)

    def new_follow(self, now):
        """The Follow to look from (the page's seat, host, secret, players); False when
        there is none to make (no succession secret)."""
        page = self.page
        seat, host, secret, players = page.follow_source()
        try:
            page.phase.data["follow"] = follow.Follow(page.room_id, seat, page.client.token,
                                                        host, secret, players)
        except ValueError as e:
            log("cannot look for the room:", e)   # no succession secret
            page.phase.data["looked_at"] = now
            if page.phase.get("reload"):
                page.phase.to("nothing")
            return False
        return True

    def found(self, host):
        page = self.page
        phase = page.phase
        follow = phase.get("follow") if phase.phase == "looking" else None
        new_id = follow.current() if follow is not None else None
        tokens = follow.tokens(host) if new_id is not None else []
        if page.retired or not tokens or page.link.open:
            self.not_found()
            return
        log("the room moved to", new_id, "hosted by seat", host, ": rejoining there")
        reload = bool(phase.get("reload"))
        phase.to("found", {"reload": reload, "candidates": tokens[1:], "moved_at": page.now()})
        self.move_to(new_id, host, guest_phase.handover_name(page.client.players, host),
                     tokens[0])
        page.link.late_at = page.now()        # still behind there: never a takeover from here
        if reload:
            page.client.set_handover(None)    # (no names known yet: the banner says looking)
        page.render()

    def not_found(self):
        phase = self.page.phase
        if phase.phase != "looking":
            return
        phase.data["looker"] = None
        if phase.get("follow") is not None:
            phase.get("follow").missing()
            phase.data["looked_at"] = None       # the next id at once

    def next_token(self):
        """Back from away at a room reached through handovers this page never saw: the next
        of the seat tokens it may have there (follow.Follow.tokens), or None."""
        phase = self.page.phase
        candidates = phase.get("candidates") if phase.phase == "moving" else None
        return candidates.pop(0) if candidates else None
