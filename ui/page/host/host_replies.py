"""The engine's replies on the host's page (MicroPython, main thread): what the room in the
engine worker (ui/page/host/enginelink.py) answered, host_phase.reply_kind says what it is; the
room's outputs to the host's own screen, to its guests (ui/page/host/host_transport.py), the save
to localStorage, the room's next wakeup; a takeover's room made, a saved room refused or
unreadable, the host's name refused. A part of HostPage (ui/page/host/host_page.py), which holds
`engine`, `client`, `room_id`, `phase`, `saves`, `wake`, `clock_`."""

from ui.page.host import host_phase
from ui.page.browser import log
from ui.page.net.net_door import keep_door
from ui.shared import hostlife


class HostReplies:
    """The host page's side of the engine: its requests for the host's screen and the room's
    wakeups, and what it does with each reply."""

    def local_send(self, text):
        """The host's own screen's message (JSON text) to the room, as the connection "local"."""
        self.engine.request({"op": "receive", "conn": "local", "text": text,
                             "now": self.clock()})

    def reply(self, asked, msg):
        """One reply of the engine to the request `asked` (its op): host_phase.reply_kind
        says what it is."""
        kind = host_phase.reply_kind(asked, msg, self.room_id)
        if kind == "checked":
            self.checked(msg)
        elif kind == "name_refused":
            self.name_refused(msg)
        elif kind == "takeover_failed":
            # the room could not be made here (nothing to deal again from): say so
            log("the takeover failed:", msg.get("error"))
            self.client.set_handover({"me": True, "failed": True})
            self.render()
        elif kind in ("refused", "unreadable"):
            log("engine refused", asked, ":", msg.get("error"))
            if kind == "unreadable":
                self.unreadable()
        elif kind == "room":
            self.room_out(msg)

    def room_out(self, msg):
        """The room's outputs of one reply: to the host's own screen, to its guests, the save
        to localStorage, the next wakeup armed."""
        if msg.get("handover") is not None:
            self.took_over(msg)
        if self.net is not None:
            keep_door(self, msg)        # a moved room answers its first link (door.py)
        out = msg.get("out")
        todo = hostlife.sort_out(out if isinstance(out, list) else [], "local")
        now = self.now()
        self.send_remote(todo)
        for text in todo["local"]:
            self.client.receive(text, now)
        self.deliver(todo, msg.get("dropped"))
        save = msg.get("save")
        if isinstance(save, str):
            self.last_save = save
            self.saves.save(self.room_id, save)
        if todo["local"] and self.client.screen != "join":
            self.phase.waits = False
        if self.phase.heard(bool(msg.get("started")), bool(todo["local"])):
            self.client.host({"type": "start"})
        self.schedule(msg.get("wakeup"))
        if todo["local"] or todo["changed"]:
            self.render_soon()

    def took_over(self, msg):
        """The takeover made its room: its clock is the room's from now on; the old room's
        spectators hear where it went once the new id is held."""
        clock = msg.get("clock")
        if isinstance(clock, (int, float)):
            self.clock_ = hostlife.Clock(self.now(), int(clock), running=True)
        self.client.set_handover(None, self.now())
        log("took over the room:", msg.get("handover"))
        self.followers = host_phase.followers_of(msg)
        self.tell_followers()

    def unreadable(self):
        """The engine could not read the saved room it was to restore: dropped, and the
        landing says so."""
        log("saved room unreadable, dropped:", self.room_id)
        room_id = self.room_id
        self.forget_room()
        self.refuse_save(room_id)
        self.client = None
        self.phase.waits = False
        self.render()

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
        self.phase.waits = False
        self.landing_error = {"code": msg.get("code") or "bad_name",
                              "text": msg.get("error") or ""}
        self.render()

    def schedule(self, at):
        """Arm the room's next wakeup at `at` (the room's clock, ms); none when `at` is not a
        number."""
        if not isinstance(at, (int, float)):
            self.wake.cancel()
        else:
            self.wake.at(at - self.clock())

    def tick(self):
        """The room's wakeup: the engine's `tick` at the room's clock."""
        if self.room_id is not None:
            self.engine.request({"op": "tick", "now": self.clock()})
