"""The Screen's side for what the table's new events play and for a player elsewhere (browser
only; ui/page/screens/render.py's Screen is built on it): the cue of what is true now with its sound,
the "while you were away" summary, the nudge, the tab's title while hidden and the system
notification of a turn. What each says is decided in ui/page/screens/away.py and ui/page/screens/cues.py;
this only wires them to the page. Runs on MicroPython and Pyodide.
"""

from ui.page.i18n import i18n
from ui.page.screens import away, cues
from ui.page.screens.notices import STORE_KEY as NOTIFY_KEY
from ui.page.screens.notices import Notices
from ui.page.screens.viewmodel import SECOND, player_list, read, seat_name


class AwaySide:
    """Expects the Screen's `js`, `ui`, `sounds`, `_stored`, `_store`, `_now`."""

    def _away_init(self):
        self.backlog = away.Backlog()   # what plays, and what was missed while away
        self.notices = Notices(self.js)
        self._hidden = False            # the page was hidden at the last look

    def away_due(self, now):
        """True when the page must draw now for its own sake: it was hidden or shown since the
        last render (the title, the summary), or this seat's nudge is due."""
        self.backlog.ran(now)
        wake = self.backlog.wake()
        return self.notices.hidden() != self._hidden or (wake is not None and now >= wake)

    def _take_events(self, model, now, ctx):
        """The table's events new since the last render, for the flights (none on other
        screens, when the log started over, or while the page is hidden); the cue of what is
        true of the table now (away.Backlog) goes into ui["announce"] with its sound (unless
        turned off), back from away what was missed into ui["away"]."""
        hidden = self._hidden = self.notices.hidden()
        if read(model, "screen") != "table":
            self.backlog.off_table()
            self.ui["nudge"] = False
            return []
        view, me = read(model, "view"), read(model, "seat")
        start = 0
        if cues.my_turn(view, me):
            start = ctx.left(view.get("start_in") or 0, SECOND, ahead=False)
        fresh, cue, summary = self.backlog.take(read(model, "log", []) or [], me, view, now,
                                                start, hidden)
        if summary is not None:
            summary["at"] = now
            self.ui["away"] = summary
        self.ui["nudge"] = self.backlog.nudging()
        if self.backlog.came_back and me is not None and self.notices.permission() == "default" \
                and not self._stored(NOTIFY_KEY):
            self.ui["notify_offer"] = True    # looked elsewhere: asked once, in its words
        if not hidden:
            self.notices.close()
        if cue is not None:
            self._cue(cue, now, hidden)
        return [] if hidden else fresh

    def _cue(self, cue, now, hidden):
        cue["at"] = now
        self.ui["announce"] = cue
        if self.ui.get("sound", True) and not cue.get("quiet"):
            self.sounds.play(cue["kind"])
        if hidden and cue["kind"] in ("your_turn", "last_turn"):
            lang = self.ui.get("lang", "en")
            self.notices.notify(i18n.t(lang, "notify_" + ("last_turn" if cue["kind"] == "last_turn"
                                                          else "turn")),
                                i18n.t(lang, "notify_body"))

    def _show_title(self, model, ctx):
        """The tab's title: the table's state while the page is hidden (away.tab_title)."""
        lang = self.ui.get("lang", "en")
        text = None
        if self._hidden:
            players = player_list(model)
            lobby = read(model, "lobby") or {}
            n = len(lobby.get("players") or []) if isinstance(lobby, dict) else 0
            text = away.tab_title(read(model, "screen"), read(model, "view"),
                                  read(model, "seat"), n,
                                  lambda seat: seat_name(players, seat, ctx), ctx)
        self.notices.set_title(text, i18n.t(lang, "page_title"))

    def notify_answer(self, yes):
        """The player answered the offer of a turn's notification (a tap: the browser asks
        only in one): asked once, either way."""
        self.ui["notify_offer"] = False
        self._store(NOTIFY_KEY, "asked")
        if yes:
            self.notices.ask()
