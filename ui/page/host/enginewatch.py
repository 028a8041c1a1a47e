"""The host page's watch over its running engine worker (docs/decisions.md "Faults the page survives"): when is the
worker dead, and may it be started again?

The engine worker (engine-worker.js: the room on Pyodide) answers every request in order,
in milliseconds. Once it runs, three things say it died: an error event of the worker
(its script or an uncaught exception), Pyodide's fatal error (every call throws: the worker
reports it, `died`, or a probe is refused), and a request with no reply after REPLY_MS (a
worker that closed or hangs says nothing at all). While nothing is owed the page asks it
something small every PROBE_MS (`probe_due`: the engine's `alive`), so that a worker that
died while the table was quiet is found within PROBE_MS + REPLY_MS (under 5 s) all the
same, not at the next move. The page then starts a new worker and restores the room from
its last save (there is one after every change), at most RESTARTS_MAX times in
RESTART_WINDOW_MS; past that it gives up and says the game could not go on.

Plain values only (ms, texts); the page does the I/O (ui/page/host/enginelink.py wires it). Runs on
MicroPython and CPython.
"""

REPLY_MS = 3500               # a request still unanswered after this long: the worker is dead
PROBE_MS = 500                # nothing asked for this long: the page probes the worker
GAP_MS = 1500                 # checks this far apart: the page itself did not run meanwhile
RESTARTS_MAX = 3              # restarts allowed within RESTART_WINDOW_MS
RESTART_WINDOW_MS = 120000
# (REPLY_MS: a reply takes milliseconds. It must stay under the 9 s after which a guest whose
# pings go unanswered (the engine answers them) counts the host as lost and reconnects: the
# `restarting` note must reach it first. The time the page itself did not run (checks more
# than GAP_MS apart: a frozen or sleeping host page) never counts against the worker.)


class EngineWatch:
    """What the page knows of its running worker. `started(now)` once it says it is ready;
    `sent(now)` / `answered()` for each request and reply; `died(why)` on an error event or
    a fatal error; `check(now)` -> None (alive, or not running yet), "restart" or "give_up".
    `restarting(now)` once the page starts a new worker. Times are the page's ms."""

    def __init__(self):
        self.running = False       # the worker said it is ready (and has not died since)
        self.pending = []          # send times of the requests it has not answered, oldest first
        self.last_sent = None      # when the page last asked it anything (ms)
        self.why = None            # why it counts as dead ("error", "fatal", "no_reply")
        self.restarts = []         # when the page restarted it
        self.checked = None        # the last check (ms): a gap after it is the page's own
        self.dead_at = None        # when it died (ms): the room's clock holds from then

    def started(self, now):
        """The worker is ready: requests count against REPLY_MS from now on (those sent while
        it started wait for Pyodide: seconds, not a sign of death)."""
        self.running = True
        self.why = None
        self.dead_at = None
        self.pending = [now for _ in self.pending]

    def sent(self, now):
        self.pending.append(now)
        self.last_sent = now

    def probe_due(self, now):
        """True when the running worker owes nothing and was asked nothing for PROBE_MS:
        the page then sends it a probe (a request like any, `sent`)."""
        return (self.running and not self.pending
                and (self.last_sent is None or now - self.last_sent >= PROBE_MS))

    def answered(self):
        if self.pending:
            self.pending.pop(0)

    def died(self, why, now=None):
        """An error event or a fatal error (`why`, a short text) of the running worker."""
        if self.running:
            self.running = False
            self.why = why if isinstance(why, str) else "error"
            self.dead_at = now

    def check(self, now):
        """None while the worker runs (or starts), "restart" once it counts as dead and may
        be started again, "give_up" once it died too often."""
        if self.checked is not None and now - self.checked > GAP_MS:
            gap = now - self.checked       # the page did not run: nor could replies arrive
            self.pending = [t + gap for t in self.pending]
        self.checked = now
        if self.running and self.pending and now - self.pending[0] >= REPLY_MS:
            self.running = False
            self.why = "no_reply"
            self.dead_at = self.pending[0]     # it stopped answering then
        if self.why is None:
            return None
        recent = [t for t in self.restarts if now - t < RESTART_WINDOW_MS]
        return "give_up" if len(recent) >= RESTARTS_MAX else "restart"

    def restarting(self, now):
        """The page starts a new worker: what the old one had not answered is lost (the page
        restores the room from its last save, and the guests rejoin)."""
        self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW_MS] + [now]
        self.running = False
        self.why = None
        self.pending = []
