"""A page that was away (hidden behind another app, or not running at all: a frozen tab, a phone
asleep) and comes back: which cue it may play (only what is true of the table now, never the
turns that went by meanwhile) and what it says it missed ("while you were away").

    Backlog            fed by the page on every render (ui/page/screens/render.py): the table's new
                       events for the flights, the cue to play, the summary to show
    away_summary       what the missed events mean for one seat
    summary_lines      that summary in the player's words

Pure (no `js`, no clock: every call takes `now`, ms). Runs on MicroPython, Pyodide and CPython.
"""

from ui.page.screens import cues

AWAY_GAP_MS = 5000      # the page's own renders/ticks this far apart: it did not run meanwhile
SETTLE_MS = 2000        # back, what arrives this soon is still news of the time away
MISSED_KEEP = 300       # the events an away page keeps to sum up (a round has fewer)
TAIL = 6                # the last events seen, kept to find where a replayed log goes on
SUMMARY_MS = 20000      # how long the summary stays unless the player closes it
NUDGE_MS = 25000        # this seat's turn waits this long: its cue once more, and a line
IDLE_MS = 30000         # a turn with no move this long: the table says so (`idle_for`)


def _mine(ev, me):
    return isinstance(ev, dict) and me is not None and ev.get("seat") == me


def away_summary(events, me):
    """What happened for seat `me` (None: a spectator) in `events` (the public events the page
    missed, oldest first), or None when nothing worth telling:
    {"skipped": its turns the room timed out (R10.2, an away player's too), "played": its
    turns a bot standing in played, "discarded": [the cards the room discarded for it],
    "crisp": the seat that called crisp (the last call) or None, "round_over": a round
    ended, "game_over": the game ended}. Malformed events are skipped."""
    skipped = played = 0
    discarded = []
    crisp = None
    ended = {"round_over": False, "game_over": False}
    in_turn = False               # a turn of `me` began in these events and is going on
    timed_out = False
    for ev in events or []:
        if not isinstance(ev, dict) or "to" in ev:
            continue
        ty = ev.get("type")
        if ty in ("turn", "round_over", "game_over") and in_turn:
            if not timed_out:
                played += 1       # the turn ended with no timeout: a stand-in played it
            in_turn = False
        if ty == "turn":
            in_turn = _mine(ev, me)
            timed_out = False
        elif ty == "timeout" and _mine(ev, me):
            skipped += 1
            timed_out = True
            card = ev.get("card")
            if isinstance(card, str) and len(card) == 2:
                discarded.append(card)
        elif ty == "crisp" and isinstance(ev.get("seat"), int):
            crisp = ev.get("seat")
        elif ty in ended:
            ended[ty] = True
    if not (skipped or played or crisp is not None or ended["round_over"]
            or ended["game_over"]):
        return None
    return {"skipped": skipped, "played": played, "discarded": discarded, "crisp": crisp,
            "round_over": ended["round_over"], "game_over": ended["game_over"]}


def summary_lines(summary, me, name_of, ctx, card_text):
    """The summary (away_summary) in words, one line each: [text]. `name_of(seat)` gives a
    seat's name, `ctx` the catalogue's texts (its t and tn: ui/page/screens/viewmodel.py Ctx),
    `card_text(code)` a card as the table writes it."""
    if not isinstance(summary, dict):
        return []
    out = []
    if summary.get("skipped"):
        out.append(ctx.tn("away_skipped", summary["skipped"], n=summary["skipped"]))
    if summary.get("played"):
        out.append(ctx.tn("away_played", summary["played"], n=summary["played"]))
    cards = [card_text(c) for c in summary.get("discarded") or []]
    if cards:
        out.append(ctx.t("away_discarded", cards=", ".join(cards)))
    seat = summary.get("crisp")
    if isinstance(seat, int):
        out.append(ctx.t("away_crisp_you") if seat == me
                   else ctx.t("away_crisp", name=name_of(seat)))
    if summary.get("game_over"):
        out.append(ctx.t("away_game_over"))
    elif summary.get("round_over"):
        out.append(ctx.t("away_round_over"))
    return out


def replayed(log, tail):
    """The events of `log` (a log that started over: a replay of the round after a rejoin or
    a `sync`) past the last ones this page had seen (`tail`, the last few, oldest first),
    found by value; [] when `tail` is not in it (a new round: nothing of the old one)."""
    if not tail or not log:
        return []
    k = len(tail)
    for end in range(len(log), 0, -1):
        if log[end - 1] != tail[-1]:
            continue
        start = end - k if end >= k else 0
        if log[start:end] == tail[k - (end - start):]:
            return log[end:]
    return []


class Backlog:
    """What a table's events play on this page, and what it missed while away. The page
    calls `ran(now)` on each tick and `take(...)` on each render of the table.

    Away: hidden (`hidden`), or its ticks AWAY_GAP_MS apart (it did not run). Back, what it
    missed meanwhile and for SETTLE_MS after (a frozen page's messages come in a burst) is
    summed up (`away_summary`); a cue plays only for what is true of the table now
    (cues.cue), and this seat's turn, begun meanwhile or not, is cued once it can be played
    (cues.turn_cue: its start delay over, R10.1), once per turn."""

    def __init__(self):
        self.away = False
        self.back_at = None       # ms: when it came back (None: not just back)
        self.missed = []          # the events got while away (MISSED_KEEP at most)
        self.waiting = False      # a turn of this seat began: its cue waits until playable
        self.heard = False        # that turn's cue played while the page was hidden
        self.seen_at = None       # ms: the page's last tick or render
        self.last = None          # the newest event of the log already taken
        self.tail = []            # the last TAIL events taken (a replayed log: `replayed`)
        self.turn_at = None       # ms: this seat's turn could be played from then
        self.nudged = False       # ... and its nudge played
        self.idle = (None, None)  # (the seat whose turn it is, ms since its last move)
        self.came_back = False    # the last take was the page's first back from away

    def ran(self, now):
        """The page runs at `now` (ms)."""
        if self.seen_at is not None and now - self.seen_at >= AWAY_GAP_MS:
            self.away = True
        self.seen_at = now

    def off_table(self):
        """The page shows another screen: nothing of a table is pending."""
        self.last = None
        self.tail = []
        self.waiting = False
        self.missed = []

    def take(self, log, me, view, now, start_left=0, hidden=False):
        """The table's log now (`log`, oldest first) for seat `me` (None: a spectator) with
        the table now (`view`; `start_left`: ms left of this seat's start delay as shown),
        the page `hidden` or not: (the events new since the last take, for the flights; the
        cue to play, or None, with "quiet": True when it played while hidden already; the
        summary to show, or None)."""
        self.ran(now)
        log = log if isinstance(log, list) else []
        fresh = cues.new_events(log, self.last)
        news = fresh
        if not fresh and log and self.last is not None and log[-1] is not self.last:
            news = replayed(log, self.tail)       # the log started over: old news only
        self.last = log[-1] if log else None
        self.tail = list(log[-TAIL:])
        if self.back_at is not None and not self.away and now - self.back_at >= SETTLE_MS:
            self.back_at = None
            self.missed = []
        if hidden:
            self.away = True
            self.back_at = None
        collecting = self.away or self.back_at is not None
        if collecting:
            self.missed = (self.missed + list(news))[-MISSED_KEEP:]
        just_back = self.away and not hidden
        self.came_back = just_back
        if just_back:
            self.away = False
            self.back_at = now
            self.waiting = True                   # its turn now, if it is: cue it again
        summary = away_summary(self.missed, me) if collecting and not hidden else None
        played = cues.cue(fresh, me, view, start_left)
        played = self._turn(fresh, me, view, start_left, played, hidden)
        played = self._nudge(me, view, now, start_left, played)
        self._watch(fresh, view, now)
        return fresh, played, summary

    def _nudge(self, me, view, now, start_left, played):
        """This seat's turn playable since `turn_at`: at NUDGE_MS its cue once more, marked
        "nudge" (the player looked away; the page's line says the table waits)."""
        if cues.turn_cue(view, me, start_left) is None:
            if not cues.my_turn(view, me):
                self.turn_at, self.nudged = None, False
            return played
        if self.turn_at is None:
            self.turn_at = now
        if not self.nudged and now - self.turn_at >= NUDGE_MS:
            self.nudged = True
            if played is None:
                played = cues.turn_cue(view, me, 0)
                played["nudge"] = True
        return played

    def nudging(self):
        """Whether this seat's turn has waited past NUDGE_MS and still does."""
        return self.nudged and self.turn_at is not None

    def wake(self):
        """ms: when the page must render again for this seat's nudge, or None."""
        if self.turn_at is None or self.nudged:
            return None
        return self.turn_at + NUDGE_MS

    def _watch(self, fresh, view, now):
        """Who the table waits for, and since when they last moved (`idle`)."""
        turn = view.get("turn") if isinstance(view, dict) and view.get("phase") in cues.PLAY \
            else None
        seat, since = self.idle
        moved = False
        for ev in fresh:
            if isinstance(ev, dict) and "to" not in ev and (
                    ev.get("seat") == turn or ev.get("type") in ("turn", "play")):
                moved = True
        if turn != seat or moved or since is None:
            self.idle = (turn, now if turn is not None else None)

    def idle_for(self, now):
        """(the seat whose turn it is, ms since its turn began or its last move), or
        (None, 0) out of play."""
        seat, since = self.idle
        if seat is None or since is None:
            return None, 0
        return seat, max(0, now - since)

    def _turn(self, fresh, me, view, start_left, played, hidden):
        """The cue once more with this seat's turn: `played` (cues.cue's), or the turn's own
        cue when a turn that began is playable now."""
        if cues.turn_began(fresh, me):
            self.waiting = True
            self.heard = False
        if played is not None and played.get("kind") in ("your_turn", "last_turn"):
            self.waiting = False
        elif self.waiting:
            now_cue = cues.turn_cue(view, me, start_left)
            if now_cue is not None:
                self.waiting = False
                played = played or now_cue
            elif not cues.my_turn(view, me):
                self.waiting = False
        if played is None:
            return None
        if played.get("kind") in ("your_turn", "last_turn"):
            if self.heard and not hidden:
                played["quiet"] = True            # heard already: shown, not played again
            self.heard = hidden
        return played


def tab_title(screen, view, me, lobby_n, name_of, ctx):
    """The tab's title while the page is hidden (the player is in another tab or app), or
    None for the page's own title: on the table "(!) Your turn" (your last turn, R6.2; your
    peek, R2.4) when the table waits for this seat, else whose turn it is, or the round's or
    game's end; in the lobby how many are in the room (`lobby_n`). `name_of(seat)`: a
    seat's name; `ctx`: the catalogue's texts (its t and tn)."""
    if screen == "lobby" and isinstance(lobby_n, int) and lobby_n > 0:
        return ctx.tn("title_lobby", lobby_n, n=lobby_n)
    if screen != "table" or not isinstance(view, dict):
        return None
    phase = view.get("phase")
    if phase in ("round_over", "game_over"):
        return ctx.t("title_" + phase)
    if phase == "peek":
        ready = view.get("ready")
        if isinstance(me, int) and isinstance(ready, list) and 0 <= me < len(ready) \
                and not ready[me]:
            return ctx.t("title_peek")
        return None
    turn = view.get("turn")
    if phase not in cues.PLAY or not isinstance(turn, int) or isinstance(turn, bool):
        return None
    if turn == me:
        return ctx.t("title_your_last_turn" if phase == "last_turns" else "title_your_turn")
    name = name_of(turn)
    name = name.replace("\u2068", "").replace("\u2069", "") if isinstance(name, str) else ""
    return ctx.t("title_turn_of", name=name)
