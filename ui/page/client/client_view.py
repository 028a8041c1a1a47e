"""The Client's views (docs/protocol.md "Client"): a `view` read into the model (the round's
log, the one-time reveals, the committed shuffle's events), a gap in the views asked for again
(`sync`), the ping's round trip (`pong`). Client (ui/page/client/client.py) is built on ViewSide.

MicroPython-compatible (every page runs it), no I/O, no clock: every call takes `now` (ms).
"""

from ui.page.client import fairplay
from ui.shared import linkspeed
from ui.shared.wire import is_int

SYNC_RETRY_MS = 2000  # a guest asks for the room again (`sync`) at most this often
LOG_MAX = 200         # public events of the round kept for the event log


class ViewSide:
    """What the Client reads from `view` and `pong` (`view`, `view_at`, `n`, `fresh`,
    `players`, `history`, `games`, `log`, `latency`, `synced_at`; the link's speed: `rtts`,
    `rtt`, `slow`, `view_lead`; a tap answered: `tapped`), and its `sync` request."""

    def _on_view(self, msg, now):
        """`view` from the room: True when the model changed."""
        self.welcomed_at = None
        self._view(msg, now)
        return True

    def _on_pong(self, msg, now):
        """`pong` from the room: True when the model changed."""
        t = msg.get("t")
        changed = False
        if isinstance(t, (int, float)):
            self.latency = now - t
        if linkspeed.is_sample(t, self.pongs_from, self.pong_t):
            self.pong_t = t
            self.rtts = linkspeed.add_sample(self.rtts, self.latency)
            self.rtt = linkspeed.estimate(self.rtts)
            slow = linkspeed.is_slow(self.slow, self.rtt)    # "your connection is slow"
            changed = slow != self.slow
            self.slow = slow
        n = msg.get("n")
        if is_int(n) and n > self.n:
            self._resync(now)     # the host sent a view we never got (ordered channel:
                                  # a view sent before this pong would be here already)
        return changed

    def _view(self, msg, now):
        view = msg.get("view") or {}
        old = self.view
        if old is None or old.get("round") != view.get("round") or msg.get("replay") is True:
            self.log = []             # a new round, or the round's replay: start over
            if msg.get("replay") is not True:
                self._clear_reveals()
        if msg.get("replay") is True:
            self._segment = True      # the replay: a new stretch of observed events
        n = msg.get("n")
        gap = is_int(n) and n > self.n + 1 and not self.fresh and msg.get("replay") is not True
        self.view = view
        self.view_at = now
        self._lead(old, view, now)
        if msg.get("events") or msg.get("replay") is True:
            # the room answered (every move is an event): the move is drawn as it is now. A
            # view that moves nothing (who watches, a seat's link) is no answer: the tap
            # stays taken rather than drop back and lift again when the answer comes
            self.tapped = None
        if is_int(n):
            self.n = n
            self.fresh = False
        self.players = msg.get("players") or self.players
        history = msg.get("history")
        if isinstance(history, list):
            self.history = [r for r in history if isinstance(r, list)]
        self.games = count(msg.get("games"), self.games)
        if self.screen != "gone":
            self.screen = "table"
        self._batch += 1
        fairplay.observe(self, view.get("round"), msg.get("events") or [], view.get("phase"))
        for event in msg.get("events") or []:
            if not isinstance(event, dict):
                continue
            if "to" in event:
                self._reveal(event, now)
                continue
            self.log.append(event)
            self._reveals_moved(event)
        if len(self.log) > LOG_MAX:
            self.log = self.log[-LOG_MAX:]
        self._reveals_after(view)
        if gap:
            self._resync(now)         # views went missing: this one is current, the log is not

    def _lead(self, old, view, now):
        """This view's `view_lead`: its countdowns end a slow round trip sooner here (the
        view's way, the tap's way back: ui/shared/linkspeed.py), fixed for this view so that
        they never jump meanwhile; a crisp window already shown (the same seat's, this round)
        ends here no later than it did (`crisp_end`, this page's clock): a late view gives
        no time back. None on the host's own screen."""
        if self.is_host:
            self.view_lead, self.crisp_end = 0, None
            return
        lead = linkspeed.lead(self.rtt)
        cw = view.get("crisp_window")
        was = (old or {}).get("crisp_window") if (old or {}).get("round") == view.get("round") \
            else None
        if not isinstance(cw, dict) or not is_int(cw.get("left")):
            self.view_lead, self.crisp_end = lead, None
            return
        if isinstance(was, dict) and was.get("seat") == cw.get("seat"):
            lead = linkspeed.kept_lead(lead, now, cw["left"], self.crisp_end)
        self.view_lead = lead
        self.crisp_end = now + cw["left"] - lead

    def _resync(self, now):
        """Ask the room for the table as it is (a message went missing), at most once every
        SYNC_RETRY_MS. Guests only: the host's own screen cannot miss anything."""
        if self.is_host or (self.synced_at is not None and now - self.synced_at < SYNC_RETRY_MS):
            return
        self.synced_at = now
        self._send({"type": "sync"})


def count(value, default):
    """A count from the room (a non-negative int), else `default`."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return default
