"""The host page's saved rooms (MicroPython, main thread): resume one, refuse one the engine
cannot read, forget one, and hold the lease of the tab that runs it (docs/design.md
"Persistence"). A part of HostPage (ui/page/host/host_page.py); the records are
ui/page/saved_rooms.py's, the rules (lease, resume, clock) ui/shared/hostlife.py's."""
from ui.page.browser import log, random_hex
from ui.page.client.client import Client
from ui.page.net.lookout import Probe
from ui.page.saved_rooms import host_of
from ui.shared import hostlife


class HostSaves:
    """HostPage's saved rooms: `saves` (SavedRooms), `tab` (this tab's lease id), `lease_at`
    (wall ms of the last lease written)."""

    def saved(self, room_id):
        """The saved room `room_id` if it is there and reads as JSON, else None. Whether it is
        whole and consistent is the engine's to say (Room.from_dict, in the worker: the page
        runs MicroPython): the landing asks it (`check`) before it offers the room, a resume
        asks it by restoring; a refused save is dropped and the landing says so."""
        saved = self.saves.saved(room_id)
        if saved == "bad":
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
        self.saves.forget(room_id)

    def hold_lease(self, at=None):
        """Mark the room as run by this tab (every second); `at=0` lets it go. The lease
        also carries the room's clock, so a resumed room goes on from the last second."""
        self.lease_at = self.now()
        self.saves.hold(self.room_id, self.tab, self.lease_at if at is None else at,
                        self.clock())

    def hidden(self):
        """pagehide (a reload, a closed tab, the page put in the back/forward cache): the
        room is saved after every change already; let the lease go and the room id too
        (guests hear at once that the host is away), so that a reloaded page resumes at once."""
        if self.probe is not None:
            self.probe.stop()
        if self.room_id is not None:
            self.hold_lease(0)
            self.stop_net()

    def shown(self):
        """pageshow: back from the back/forward cache, the page takes its room up again."""
        if self.room_id is not None and self.net is not None and not self.net.open:
            self.hold_lease()
            self.net.ensure()

    def resume_room(self, room_id):
        """Resume the saved room `room_id`, or wait (the phase's `held`) while another tab
        runs it."""
        if self.room_id is not None or not room_id:
            return
        if not hostlife.lease_free(self.saves.lease(room_id), self.tab, self.now()):
            self.phase.held = room_id           # ui_tick tries again
            return
        self.phase.held = None
        saved = self.saved(room_id)
        if not hostlife.resumable(saved):
            self.offer = None
            return
        clock = hostlife.resume_clock(saved, self.saves.lease(room_id))
        self.clock_ = self.room_clock(clock)   # the clock goes on from there
        self.room_id = room_id
        self.offer = None
        self.phase.to("resume_game" if saved.get("game") else "resume_lobby")
        self.phase.waits = True
        self.phase.solo = self.saves.is_solo(room_id)
        # a guided first round reloaded: its tips come back, at the step on the table
        self.screen.ui["guided"] = self.saves.is_guided(room_id)
        self.engine.request({"op": "restore", "saved": saved, "pace": self.bot_pace,
                             "cheat": self.cheat, "now": self.clock(),
                             "door": self.saves.peer_token(room_id, lambda: random_hex(16))})
        self.hold_lease()
        self.client = Client(self.local_send, is_host=True)
        self.client.join(host_of(saved)[1], None)
        self.early = (host_of(saved)[1], True)     # guests hear "Hana is back, setting up"
        if self.phase.solo:
            self.client.set_status("ok")              # solo: bots only, no network to open
            self.name_room_in_url(room_id)
        else:
            self.client.set_status("connecting")
            self.start_net()
            if saved.get("game"):
                self.probe = Probe(room_id, saved, self.moved)   # handed over meanwhile?
        self.saves.mark_last(room_id)
        log("room resumed:", room_id, "at", clock)
        self.render()
