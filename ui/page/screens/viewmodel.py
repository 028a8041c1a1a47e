"""What the screens read of the model, as plain data: the render's context and the model read
defensively.

`Ctx` is what one render needs besides the model (language, clock, and the acts it collects);
`new_ui` this screen's own small state; `read`, `player_list`, `seat_name` and the other
readers take whatever the Client holds without trusting its shape. What the table shows is
decided in ui/page/screens/table_model.py, its status line in ui/page/screens/status_line.py, the end of a
round in ui/page/screens/results_model.py. Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from crisp_core.actions import PLAY_PHASES
from ui.page.screens import cards
from ui.page.i18n import i18n
from ui.page.screens.faces import COLOUR, shown_name
from ui.page.client.presence import Pause, left_ms
from ui.page.dom.vdom import FSI, PDI, isolate


class Ctx:
    """What one render needs besides the model: language, clock, and the acts it collects.
    `faces`: whether this page shows bots' faces (ui/page/screens/faces.py COLOUR or NONE; read once
    from boot.js's <html data-faces>).

    The clock (`now`, this page's, ms) and `elapsed` (ms since the current view arrived,
    stopped while the game is paused) are read through it, and it notes when what the render
    shows will change with them (`wake`: a clock time, ms, or None: never): at once for a
    countdown still running, at its end for a note shown for a while. Until then a render
    looks the same unless the model changes, so the page's 250 ms tick need not draw it
    again (ui/page/dom/redraw.py). `left`, `until`, `before` and `within` note it only while
    their answer can still change; reading `now` or `elapsed` itself always does (a part that
    reads them so is redrawn every tick, as every part was before)."""

    def __init__(self, lang="en", now=0, elapsed=0, can_share=False, base="", faces=COLOUR):
        self.lang = lang
        self.faces = faces
        self.base = base            # this page's URL without query (for the room link)
        self._now = now             # ms, this page's clock
        self._elapsed = elapsed     # ms since the current view arrived
        self.wake = None            # ms: when what this render shows changes with the clock
        self.can_share = can_share  # navigator.share exists
        self.acts = {}
        self.memo = None            # a memo.Memo: parts kept from the last render (the page's)
        self.later = []             # work the page does after this render, each in a task
                                    # of its own, then renders again (screens.do_later)
        self.lead = 0               # ms: the view's countdowns end this much sooner here
                                    # (the Client's view_lead: ui/shared/linkspeed.py)
        self.tapped = None          # the move sent, shown taken until answered (taps.py)

    def wake_at(self, at):
        """What this render shows changes at the clock time `at` (ms, this page's clock):
        the tick draws it again from then (the earliest such time counts)."""
        if self.wake is None or at < self.wake:
            self.wake = at

    @property
    def now(self):
        """This page's clock (ms); what is drawn from it changes with it (`wake` now)."""
        self.wake_at(self._now)
        return self._now

    @property
    def elapsed(self):
        """ms since the current view arrived (stopped while paused); as `now`."""
        self.wake_at(self._now)
        return self._elapsed

    def left(self, value, step=None, ahead=True):
        """A view's remaining time `value` (ms, e.g. `draw_left`; None: no timer) as of now
        (presence.left_ms), a deadline ending `lead` ms sooner (`ahead`; on a guest's page:
        a tap it shows in time reaches the host in time, ui/shared/linkspeed.py): None, 0
        once it ran out, else the ms left, noted as counting (`counting`: shown in whole
        `step`s, or every tick without one)."""
        left = left_ms(value, self._elapsed + (self.lead if ahead else 0))
        if left:
            self.counting(left, step)
        return left

    def grown(self, value, step=1000):
        """ms since the current view arrived, for a time `value` (ms) it gave that grows
        with the clock (a turn's `waited`): drawn again when value + that reaches its next
        whole `step`."""
        self.wake_at(self._now + step - (int(value) + self._elapsed) % step)
        return self._elapsed

    def until(self, at, step=None):
        """ms from now until the clock time `at` (ms), never below 0 (a countdown, noted as
        `left` notes it while above)."""
        left = at - self._now
        if left > 0:
            self.counting(left, step)
            return left
        return 0

    def counting(self, left, step=None):
        """A countdown with `left` ms to go (> 0) is on screen: `wake` now (drawn every tick: a
        ring, an exact time), or, when it is shown in whole `step`s rounded up (ms: 1000 for
        viewmodel.secs), at the moment it drops to the next one (once a second, not four
        times)."""
        if step:
            self.wake_at(self._now + (left - 1) % step + 1)
        else:
            self.wake_at(self._now)

    def before(self, at):
        """True while the clock is before `at` (ms): a note shown until then (`wake` at `at`)."""
        if self._now < at:
            self.wake_at(at)
            return True
        return False

    def within(self, at, ms):
        """True while less than `ms` have passed since the clock time `at` (a note shown for
        a while after it: `wake` when it goes)."""
        return self.before(at + ms)

    def instant(self):
        """The clock (ms) for a part that says itself when it changes (`wake_at`), e.g. the
        reactions shown on seats, each until its time is up."""
        return self._now

    def t(self, key, **kw):
        return i18n.t(self.lang, key, **kw)

    def tn(self, key, how_many, **kw):
        return i18n.tn(self.lang, key, how_many, **kw)

    def act(self, name, spec):
        self.acts[name] = spec
        return name


# ---------------------------------------------------------------------------------------------
# Reading the model (the Client object; every field read defensively)

def new_ui(lang="en", name=""):
    """This screen's own state: what is typed and picked before it becomes an intent."""
    return {"lang": lang, "name": name, "bots": 3, "level": "easy", "target": 100,
            "bot_level": "easy",
            "queen": None, "copied_at": None, "copy_failed_at": None, "log_open": False}


def read(model, attr, default=None):
    """model.attr, or `default` when the model is None or the attribute is missing or None."""
    if model is None:
        return default
    v = getattr(model, attr, default)
    return default if v is None else v


def pause_of(model):
    """The model's pause (ui/page/client/presence.py `Pause`; a model without one: nothing paused)."""
    pause = read(model, "pause")
    return pause if pause is not None else Pause()


def player_list(model):
    """Per-seat player info {seat: {"name", "connected", "bot", "seat"}} from the view
    message's players, else the lobby's."""
    out = {}
    for src in (read(model, "players"), (read(model, "lobby", {}) or {}).get("players")):
        if not src:
            continue
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for i, p in items:
            if not isinstance(p, dict):
                continue
            seat = p.get("seat", i)
            if seat not in out:
                out[seat] = p
    return out


def seat_name(players, seat, ctx):
    """The name of `seat` as the screens show it, isolated (FSI ... PDI: shown in its own
    <bdi>, ui/page/dom/vdom.py): the seat's name, without a bot's face where this page shows no
    faces (`ctx.faces`, ui/page/screens/faces.py `shown_name`), or "Seat n" when it has none.
    `players`: player_list's {seat: {"name", ...}}."""
    p = players.get(seat)
    name = p.get("name") if p else None
    if not name:
        return ctx.t("seat_n", n=seat + 1)
    return isolate(shown_name(name, getattr(ctx, "faces", COLOUR)))


def says_you(name):
    """True when a seat's `name` (as the room has it, or as `seat_name` shows it) is itself
    the word "you" in a language of the page ("You", "T\u00fa": the guided round's player,
    who typed no name, is called so): its seat then shows no "you" badge beside it, which
    read "You YOU"."""
    if not isinstance(name, str):
        return False
    word = name.replace(FSI, "").replace(PDI, "").strip().lower()
    for lang in i18n.LANGS:
        for key in ("badge_you", "guided_name"):
            if word == i18n.t(lang, key).lower():
                return True
    return False


def allowed_map(view):
    out = {}
    for a in (view or {}).get("allowed") or []:
        if isinstance(a, dict) and "do" in a:
            out[a["do"]] = a
    return out


def reveal_map(model):
    """{(seat, pos): card} of the cards shown once right now (values may carry a time)."""
    out = {}
    rev = read(model, "reveals", {}) or {}
    for k in rev:
        v = rev[k]
        if isinstance(v, (list, tuple)):
            v = v[0] if v else None
        elif isinstance(v, dict):
            v = v.get("card")
        if isinstance(k, str) and ":" in k:
            s, p = k.split(":", 1)
            k = (int(s), p)
        else:
            k = (k[0], k[1])
        if cards.is_card(v):
            out[k] = v
    return out


SECOND = 1000       # ms: the step of a countdown shown by `secs` (Ctx.left's `step`)


def secs(ms):
    """Whole seconds to show for a countdown (rounded up: 0.2 s left shows 1)."""
    return (int(ms) + SECOND - 1) // SECOND


def clock(ms):
    s = secs(ms)
    return str(s // 60) + ":" + ("0" if s % 60 < 10 else "") + str(s % 60)


def card_text(code):
    """A card code as the status line and the log show it (\"10♥\"); \"?\" for none."""
    return cards.label(code) if code else "?"


def room_role(model):
    """This page's part in its room, for what leaving it means: "solo" (the host of a solo
    game: only bots, no network; leaving ends the game for good), "host" (the room closes
    for everyone) or "guest" (the link brings the player back)."""
    if not read(model, "is_host", False):
        return "guest"
    return "solo" if read(model, "solo", False) else "host"


def awake_wanted(model):
    """True while a round is being played on this page's table (phases peek, play,
    last_turns): the page then holds the Screen Wake Lock (awake.js), else lets it go."""
    if read(model, "screen") != "table":
        return False
    view = read(model, "view", {}) or {}
    return view.get("phase") == "peek" or view.get("phase") in PLAY_PHASES
