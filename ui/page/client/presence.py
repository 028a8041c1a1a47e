"""The game paused on a guest's screen: its host went silent (ui/page/net/link.py `Link.signal`),
or a host handover is under way. The banner, the away badge of the seat that went silent and
every countdown read this one pause, so they cannot disagree.

Pure (no `js`, no clock: every call that needs time takes it, ms). MicroPython-compatible.
"""


def left_ms(value, elapsed):
    """The one countdown: a remaining time of a view (ms, e.g. `draw_left`) as of `elapsed`
    ms after the view arrived, never below 0; None (no timer) stays None. Views carry
    remaining times, not clock times, so guests need no clock in step with the host's."""
    if value is None:
        return None
    left = value - elapsed
    return left if left > 0 else 0


def elapsed_ms(view_at, paused_since, now):
    """The one elapsed-time input of every countdown (`left_ms`): the ms
    since the view arrived (`view_at`), stopped at `paused_since` (or None) while the game is
    paused (the host silent: its page may not run, and then no time counts against anyone),
    never below 0."""
    until = paused_since if paused_since is not None and paused_since < now else now
    return until - view_at if until > view_at else 0


class Pause:
    """Whether, since when and why the game is paused on this screen.

    Attributes: `since` (ms: the host's last word; None while the game is not paused),
    `seat` (the seat that went silent, the host's when the pause began: it shows away while
    paused), `gone_at` (ms: when the silent host counts as gone, or None)."""

    def __init__(self):
        self.since = None
        self.seat = None
        self.gone_at = None

    def show(self, signal, host_seat):
        """Follow the link's `signal` ({paused_since, gone_at, ...}) while `host_seat` hosts.
        A pause, once begun, keeps its start and its seat until the signal says the host is
        back: a new connection's shorter silence, or a handover's new room id, never makes
        the countdowns jump on. `host_seat` None: no seat to show silent now (a handover under
        way, or this phone's own network down); one given later is taken (the network back,
        the host's still silent)."""
        if signal["paused_since"] is None:
            self.end()
            return
        self.begin(signal["paused_since"], host_seat)
        if self.seat is None:
            self.seat = host_seat
        self.gone_at = signal["gone_at"]

    def begin(self, since, host_seat):
        """The game is paused since `since` (ms), `host_seat` silent (kept if already)."""
        if self.since is None:
            self.seat = host_seat
        if self.since is None or since < self.since:
            self.since = since

    def end(self):
        """The host is back (or the room spoke): nothing paused."""
        self.since = None
        self.seat = None
        self.gone_at = None
