"""What the pages set on their Client (ui/page/client.py), by name: never field by field from
outside (docs/design.md "The page's modules and phases"). The host page sets the connection's
word, the engine's start and a takeover; the guest page what its link says of the host
(ui/page/link.py), its token, a handover or a move. Client is built on PageSide.

MicroPython-compatible (every page runs it), no I/O.
"""


class PageSide:
    """The Client's fields the page sets (status, quiet_since, host_quiet, host_lost,
    engine_wait, engine_stage, phase, handover, token, host_seat, send, is_host, trusted,
    suspect, follow, ask, host_leaving: see Client), through these methods."""

    host_quiet = False    # the page says the host is silent (its seat shows away)
    host_lost = False     # ... and counts as gone (the keep-waiting-or-leave panel)
    engine_wait = None    # host page: the engine's start in percent while waited for
    engine_stage = None   # ... and the step it is at (ui/page/enginelink.py)
    phase = None          # the page's phase (ui/page/host_phase.py, guest_phase.py)

    def set_status(self, status, phase=None):
        """The page's word on the connection (`status` above: ui/page/link.py's, or the host
        page's "connecting" | "ok"); `phase`: the page's (host_phase / guest_phase PHASES)."""
        self.status = status
        self.phase = phase if phase is not None else self.phase

    def set_link(self, status, quiet_since, host_quiet, host_lost):
        """What the guest page's link says of the host (ui/page/link.py): `status`, the `now`
        the host was last heard while it is silent (or None: the countdowns run), whether
        its seat shows away, whether it counts as gone."""
        self.status, self.quiet_since = status, quiet_since
        self.host_quiet, self.host_lost = host_quiet, host_lost

    def set_engine(self, wait, stage):
        """Host page: the engine's start shown while waited for (`engine_wait`, `_stage`)."""
        self.engine_wait, self.engine_stage = wait, stage

    def set_handover(self, handover):
        """The page's handover shown: None, {"me": True[, "failed": True]}, {"name", "me"}."""
        self.handover = handover

    def become_local_host(self, send):
        """This guest's page hosts the room from now on (a host handover): its messages go
        to the room as "local" through `send`, trusted, the takeover shown."""
        self.send, self.is_host, self.trusted, self.suspect = send, True, True, False
        self.host_lost = self.host_quiet = False
        self.handover = {"me": True}
        self.status = "connecting"

    def nobody_hosts(self):
        """The host went and nobody can host in its place: the host-gone panel, for good."""
        self.handover, self.host_lost = None, True

    def moved_to(self, token, host, name):
        """The room moved to a new id hosted by seat `host` (called `name`): rejoin there
        with `token` (handover.next_token); the move shown until seated there."""
        self.token, self.host_seat = token, host
        self.host_lost = self.host_quiet = self.host_leaving = False
        self.handover = {"name": name, "me": False}

    def set_token(self, token):
        """The seat token to rejoin with (back from away: the next one to try)."""
        self.token, self.suspect = token, False

    def doubted(self):
        """The page dropped a peer that failed the seat proof (`suspect`): forget it."""
        self.suspect = False

    def unfollow(self):
        """A spectator whose room moved: its follow token and seat request end with it."""
        self.follow = self.ask = None

    def leave_heard(self):
        """The host's `host_leaving` was acted on (the handover began)."""
        self.host_leaving = False

    def engine_restarts(self):
        """Host page: its engine worker restarts the room (ui/page/enginelink.py
        restart_room): the banner says so until the room welcomes this screen again."""
        self.restarting = True
