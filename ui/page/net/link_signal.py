"""What a guest's page tells the player of its link to the host (ui/page/net/link.py `Link` is
built on LinkSignal): the status said ("ok", "host_paused", "host_gone", "unreachable", ...),
whether the host is quiet (its seat away, the timers paused), gone, or this page was away
itself (`behind`), and the one clock of the pause on every screen (`sign`: the host's beats).
Pure (no `js`, no clock): every call takes `now` (ms). MicroPython-compatible.
"""

from ui.page.net.netcheck import lost_channel_status

QUIET_MS = 4500               # no word from the host this long (1.5 pings, a pong missed): a
                              # seated page shows the game paused and the host's seat away (its
                              # page may not be running, and then no time counts against anyone)
GONE_AFTER = 3                # failed attempts in a row before the host counts as gone
BEHIND_MS = 5000              # a page back from away follows only, for gone_ms + this long
BEAT_STALE_MS = 2500          # beats this far behind the host's last word have stopped coming


class LinkSignal:
    """The reading side of Link: from its state (`open`, `seated`, `host_heard`, `beat_at`,
    `late_at`, `online`, `impostor`, ... set by Link's reports and `step`), what the page
    shows."""

    def sign(self):
        """The host's last sign of life (ms) that the pause and its countdown count from, the
        same moment on every guest's screen: its last `beat`, while beats come (the last one
        within BEAT_STALE_MS of the host's last word), else its last word (`host_heard`).
        Each guest's own last word from the host is its own pong, answered at its own moment
        (pings are each guest's, 3 s apart): counted from those, the guests' countdowns were
        1-2 s apart. Only this page's own clock is read (times it took itself
        with `now`): phones whose clocks differ still agree."""
        if self.beat_at is not None and self.host_heard - self.beat_at <= BEAT_STALE_MS:
            return self.beat_at
        return self.host_heard

    def host_quiet(self, now):
        """True when this seated page has heard nothing from its host for QUIET_MS, or has no
        working connection to it: the host's seat shows away and the timers paused."""
        if not self.seated:
            return False
        if not self.open or self.join_at is not None or self.impostor:
            return True
        return now - self.host_heard >= QUIET_MS

    def behind(self, now):
        """True while this seated page was away itself more recently than it heard the host:
        offline (its Peer off the signaling server: connected to nobody), or back less than
        `gone_ms` + BEHIND_MS ago. Such a page must not take the room over from what it
        last heard; it looks for the room at the next ids instead."""
        return self.late_at is not None and (not self.online
                                             or now - self.late_at < self.gone_ms + BEHIND_MS)

    def host_lost(self, now):
        """True once the host counts as gone: this seated page has had no word from it for
        `gone_ms` (its last sign of life, `sign`: the last beat, or the last message it sent)."""
        return self.host_quiet(now) and now - self.sign() >= self.gone_ms

    def signal(self, now, looking=False):
        """What this guest shows of its host as of `now`, in one dict (the page hands it to
        `Client.set_link`; the banner, the host seat's badge and every countdown read it):
          status        `status()`, but "host_paused" whenever the host is quiet on a
                        connection that is otherwise fine, and "looking" while the page
                        looks for a room that moved (`looking`; unless unverified or ok)
          paused_since  while the host is quiet (`host_quiet`): its last sign of life (ms,
                        `sign`: the same on every screen), where every countdown stops; else
                        None
          gone_at       while paused: when the host counts as gone (ms), else None
          lost          `host_lost(now)`: the host counts as gone (never while looking)
          behind        `behind(now)`: this page was away itself (it only follows)"""
        quiet = self.host_quiet(now)
        status = self.status()
        if quiet and status == "ok":
            status = lost_channel_status(True, not self.own_fault())
        if looking and status not in ("host_unverified", "ok"):
            status = "looking"
        sign = self.sign()
        return {"status": status, "paused_since": sign if quiet else None,
                "gone_at": sign + self.gone_ms if quiet else None,
                "lost": self.host_lost(now) and not looking, "behind": self.behind(now)}

    def own_fault(self):
        """True while this page's own link is down (`online` False), or was down since it
        last heard the host: its lost channel is its own network's fault ("reconnecting"),
        not the host's phone (back online, the dead channel was blamed on the
        host until the page reconnected)."""
        return not self.online or self.was_offline

    def status(self):
        """What the player is told of the link now (a word of Link's docstring: "ok",
        "host_paused", "connecting", "reconnecting", "host_gone", "host_unverified",
        "no_room", "unreachable", "no_webrtc", "bad_link"), as of the last `step`."""
        if self.incapable:
            return "no_webrtc"
        if self.malformed:
            return "bad_link"
        if self.impostor:
            return "host_unverified"
        if self.unreachable and not self.open:
            return "unreachable"
        if self.quiet and self.open:
            # a channel gone quiet: the host's phone, unless this phone's own link is down
            return lost_channel_status(self.seated, not self.own_fault())
        if self.open and self.join_at is None:
            return "ok"
        if self.idle_closed:
            return "ok"
        if self.online and (self.missing or self.silent) and not self.seated:
            return "no_room"
        if self.online and (self.missing or self.failures >= GONE_AFTER):
            return "host_gone"
        # its own link down, or back from being away itself and the host not heard since:
        # this phone is reconnecting, not the host silent
        return lost_channel_status(self.seated, not self.own_fault())
