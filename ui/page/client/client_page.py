"""What the pages set on their Client (ui/page/client/client.py), by name: never field by field from
outside (docs/design.md "The page's modules and phases"). The host page sets the connection's
word, the engine's start and a takeover; the guest page what its link says of the host
(ui/page/net/link.py), its token, a handover or a move. Client is built on PageSide.

MicroPython-compatible (every page runs it), no I/O.
"""

NEW_HOST_MS = 6000        # "Ana is the new host" shows this long once the handover is done


class PageSide:
    """The Client's fields the page sets (status, pause, host_lost, behind, engine_wait,
    engine_stage, phase, handover, token, host_seat, old_host, send, is_host, trusted,
    suspect, follow, ask, host_leaving: see Client), through these methods."""

    host_lost = False     # the page's link says the host counts as gone (keep waiting or leave)
    behind = False        # ... that this page was away itself (it only follows the room)
    engine_wait = None    # host page: the engine's start in percent while waited for
    engine_stage = None   # ... and the step it is at (ui/page/host/enginelink.py)
    engine_slow = False   # ... and whether it has made no progress for a while (Retry offered)
    phase = None          # the page's phase (ui/page/host/host_phase.py, guest_phase.py)
    watchers = ()         # the room's spectators; took: whose seat this page took mid-game
    took = None           # (both the Client's, from the room: ui/page/client/watchers.py `heard`)
    arriving = ()         # host page: friends whose join waits for the engine (ui/page/host/early.py)
    solo = False          # host page: a solo game (bots only, no network: host_phase `solo`)
    new_host = None       # a handover just ended: {"seat", "me", "until": ms} (`set_handover`)
    old_host = None      # the seat that hosted before the last handover (`hand_over_to`)

    def set_status(self, status, phase=None):
        """The page's word on the connection (`status` above: ui/page/net/link.py's, or the host
        page's "connecting" | "ok"); `phase`: the page's (host_phase / guest_phase PHASES)."""
        self.status = status
        self.phase = phase if phase is not None else self.phase

    def set_link(self, signal):
        """What the guest page's link says of the host now (ui/page/net/link.py `Link.signal`):
        {status, paused_since, gone_at, lost, behind}; the pause (ui/page/client/presence.py) keeps
        its start and its silent seat until the host is back."""
        self.status = signal["status"]
        self.host_lost, self.behind = bool(signal["lost"]), bool(signal["behind"])
        # (while a handover is under way the host seat is the new host's, never silent: the
        # old host's seat shows away from the players list, `hand_over_to`; and this phone's
        # own network down, "reconnecting", says nothing of the host: no seat shows away)
        silent = self.host_seat if self.handover is None and self.status != "reconnecting" \
            else None
        self.pause.show(signal, silent)

    def hand_over_to(self, seat, name=None, me=False):
        """A host handover begins (docs/protocol.md "Host handover"): seat `seat` (called
        `name`; this page itself when `me`) hosts next. The crown moves to it now; the game
        stays paused, the old host's seat away, until the new host's room speaks."""
        if self.view is not None:
            self.pause.begin(self.last_heard if self.last_heard is not None else self.view_at,
                             self.host_seat)
        left = None
        if seat != self.host_seat:
            # the old host's page is gone: its seat shows away from now on, whatever pauses
            # or resumes, until the new room's players list says who is there
            self.players = _away(self.players, self.host_seat)
            self.old_host = self.host_seat     # the redeal's note names its phone
            # a host that said it leaves: told as a leave ("Fay left: Eva hosts now")
            left = self.host_seat if self.left_host == self.host_seat else None
        self.left_host = None
        self.host_seat = seat
        self.handover = {"me": True} if me else {"name": name, "me": False}
        if left is not None:
            self.handover["left"] = left
        self.host_lost = self.host_leaving = False

    def set_engine(self, wait, stage, slow=False):
        """Host page: the engine's start shown while waited for (`engine_wait`, `_stage`,
        `_slow`: EngineLink's)."""
        self.engine_wait, self.engine_stage, self.engine_slow = wait, stage, bool(slow)

    def set_solo(self, solo):
        """Host page: whether this room is a solo game (leaving it ends it for good)."""
        self.solo = bool(solo)

    def set_arriving(self, names):
        """Host page: the friends shown arriving in the lobby while the engine starts (names)."""
        self.arriving = tuple(names)

    def set_handover(self, handover, now=None):
        """The page's handover shown: None, {"me": True[, "failed": True]}, {"name", "me"}.
        None with `now` (ms) ends a handover that went through: for NEW_HOST_MS from `now`
        every screen says who hosts now ("Ana is the new host", `new_host`: the crowned seat,
        `me` on the new host's own page: the handover banner went without it)."""
        done = self.handover
        if handover is None and now is not None and isinstance(done, dict) \
                and not done.get("failed"):
            self.new_host = {"seat": self.host_seat, "me": bool(done.get("me")),
                             "until": now + NEW_HOST_MS}
            if done.get("left") is not None:
                self.new_host["left"] = done.get("left")     # told as a leave
        self.handover = handover

    def become_local_host(self, send):
        """This guest's page hosts the room from now on (a host handover): its messages go
        to the room as "local" through `send`, trusted, the takeover shown."""
        self.send, self.is_host, self.trusted, self.suspect = send, True, True, False
        self.hand_over_to(self.seat, me=True)
        self.status = "connecting"

    def nobody_hosts(self):
        """The host went and nobody can host in its place: the host-gone panel, for good."""
        self.handover, self.host_lost = None, True

    def moved_to(self, token, host, name):
        """The room moved to a new id hosted by seat `host` (called `name`): rejoin there
        with `token` (handover.next_token); the move shown until seated there."""
        self.token = token
        self.hand_over_to(host, name)

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
        """Host page: its engine worker restarts the room (ui/page/host/enginelink.py
        restart_room): the banner says so until the room welcomes this screen again."""
        self.restarting = True


def _away(players, seat):
    """A copy of the players list `players` ([{seat, connected, ...}]) with `seat` not
    connected."""
    out = []
    for i, p in enumerate(players or []):
        if isinstance(p, dict) and p.get("seat", i) == seat:
            p = dict(p)
            p["connected"] = False
        out.append(p)
    return out
