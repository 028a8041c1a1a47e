"""Did the room move while its host page was cut off? (MicroPython, main thread.) A host page
that no person has been with for PROBE_ALONE_MS during a game (a partition) looks whether its
players handed the room over meanwhile (ui/page/net/lookout.py `Probe`), every PROBE_EVERY_MS; if
they did, it rejoins the new room as a guest in its own seat. A part of HostPage
(ui/page/host/host_page.py); the decisions are ui/page/host/host_phase.py's (`alone`, `probe_due`)."""

from ui.page import browser
from ui.page.host import host_phase
from ui.page.browser import log
from ui.page.net.lookout import Probe

PROBE_ALONE_MS = 10000    # a host page alone this long at a game looks whether the room moved
PROBE_EVERY_MS = 15000    # ... and again this often while it stays alone


class HostMoved:
    """The host page's look for a room handed over without it (`probe`, `alone_since`,
    `probed_at`, set by HostPage)."""

    def check_moved(self, now):
        """A host page cut off from its players (a partition: every person's seat away here
        for PROBE_ALONE_MS) looks whether they handed the room over meanwhile (Probe), every
        PROBE_EVERY_MS: a host that comes back must not keep hosting a stale room."""
        client = self.client
        if self.room_id is None or self.net is None or not self.phase.started() \
                or client is None or (self.probe is not None and not self.probe.done):
            self.alone_since = None if self.room_id is None else self.alone_since
            return
        if not host_phase.alone(client.players, client.seat):
            self.alone_since = None
            return
        if self.alone_since is None:
            self.alone_since = now
        if host_phase.probe_due(self.alone_since, self.probed_at, now, PROBE_ALONE_MS,
                                PROBE_EVERY_MS):
            saved = self.saves.saved_game(self.room_id)
            if saved is not None:
                self.probed_at = now
                try:
                    self.probe = Probe(self.room_id, saved, self.moved)
                except ValueError as e:
                    log("no probe:", e)       # a save without a succession secret

    def moved(self, new_id, token, name):
        """The room this page resumed was handed over meanwhile (Probe): this page rejoins
        it as a player in its own seat, as a guest of the new host. Its saved host room
        becomes a guest's seat record: the token of its seat there (handover.next_token);
        the save is forgotten once it is seated there, and hosted again if it cannot be."""
        log("the room moved to", new_id, ": rejoining as a player")
        self.probe = None
        room_id = self.room_id
        self.stop_net()
        self.wake.cancel()
        self.engine.request({"op": "drop"})
        self.room_id = None             # pagehide saves nothing now; the save stays until
        self.phase.to("forget")         # its seat proof there succeeds (docs/decisions.md "A page that says it hosts the room proves it")
        self.saves.leave_for(new_id, room_id)
        browser.storage_set("crisp.token." + new_id, token)
        browser.storage_set("crisp.name", name)
        browser.go(self.screen.base + "?room=" + new_id, replace=True)
