"""The host page's link to its engine worker (engine-worker.js: ui/worker/engine.py's Room on
Pyodide), and what the page does when that worker dies (docs/decisions.md "Faults the page survives"): `EngineLink`
(requests, replies, the start's progress, the worker's death by ui/page/host/enginewatch.py) and
`restart_room`. Runs on MicroPython (the page); needs a browser (`js`).
"""

import json

import js
from pyscript.ffi import create_proxy

from ui.page.screens import screens
from ui.page.browser import _str, log
from ui.page.host.enginewatch import EngineWatch
from ui.shared import hostlife, wire

CLOSE_AFTER_MS = 1000     # a restart closes the guests' connections this long after its note


class EngineLink:
    """The engine worker (engine-worker.js: ui/worker/engine.py's Room on Pyodide), from the page.

    `request(msg)` posts one request (a dict, ui/worker/engine.py); the worker answers in order, and
    `on_reply(request_op, reply)` gets each reply with the op it answers. `state`: "idle" |
    "loading" | "ready" | "failed"; `pct`: how far its start has come (0-100); `on_status()`
    is called when either changes; `stage`: the step the worker is at (ENGINE_STAGES: the
    downloads, the wasm's compile, Python's start, the engine's) or None; `slow`: its start
    has made no progress for a while (hostlife.engine_verdict), still waited for."""

    def __init__(self, on_reply, on_status, on_dead=None):
        self.on_reply, self.on_status, self.on_dead = on_reply, on_status, on_dead
        self.life = EngineWatch()     # the running worker's death (ui/page/host/enginewatch.py)
        state = _str(js.crisp.engine.state)     # boot.js may have started it already
        self.state = state if state in ("idle", "loading") else "loading"
        self.pct = 0
        self.stage = None             # what it does now (ENGINE_STAGES), None before it says
        self.progress_at = None       # wall ms of the start or of its last progress
        self.slow = False             # no progress for a while: Retry offered, still waiting
        self.sent = []                # ops of the requests not answered yet, oldest first
        self.proxy = create_proxy(self._message)

    def listen(self):
        """Take the worker's messages from now on (and those that came before: boot.js
        kept them)."""
        js.crisp.engine.listen(self.proxy)

    def start(self):
        if self.state == "idle":
            self.state = "loading"
        if self.progress_at is None:
            self.progress_at = int(js.crisp.now())
        js.crisp.engine.start()         # (once: boot.js ignores a second start)

    def watch(self, now):
        """Called every UI tick: a start with no progress for a while is `slow` (the player
        is offered Retry while the page still waits: a wasm request held by a slow network
        may yet answer), and `failed` only after much longer (hostlife.engine_verdict); a
        running worker that died is restarted (ui/page/host/enginewatch.py)."""
        start = hostlife.engine_verdict(self.state, self.progress_at, now, self.stage)
        if start == "failed":
            self.state, self.slow = "failed", False
            log("engine start: no progress for", now - self.progress_at, "ms at", self.pct,
                "% (", self.stage, "): given up")
            self.on_status()
        elif (start == "slow") != self.slow:
            self.slow = start == "slow"
            if self.slow:
                log("engine start: no progress for", now - self.progress_at, "ms at",
                    self.pct, "% (", self.stage, "): still waiting, Retry offered")
            self.on_status()
        verdict = self.life.check(now) if self.state == "ready" else None
        if verdict is None and self.state == "ready" and self.life.probe_due(now):
            self.request({"op": "alive"})     # a quiet table: is the worker still there?
        if verdict is not None:
            log("engine worker dead (", self.life.why, "):", verdict)
            if verdict == "give_up" or self.on_dead is None:
                self.state = "failed"
                self.on_status()
            else:
                self.on_dead()

    def restart(self, now):
        """A new worker in place of the dead one (boot.js engine.restart()); the replies the
        old one owed never come."""
        self.life.restarting(now)
        self.sent = []
        self.state, self.pct, self.stage = "loading", 0, None
        self.progress_at, self.slow = now, False
        js.crisp.engine.restart()

    def request(self, msg):
        self.start()
        self.sent.append(msg.get("op"))
        self.life.sent(int(js.crisp.now()))
        js.crisp.engine.post(json.dumps(msg))

    def _message(self, text):
        try:
            msg = json.loads(_str(text) or "")
        except ValueError:
            return
        if not isinstance(msg, dict):
            return
        op = msg.get("op")
        if op in ("out", "refused"):
            self.life.answered()
            asked = self.sent.pop(0) if self.sent else None
            if asked == "alive":
                if op == "refused":       # it answers, but its engine no longer runs
                    log("engine worker refused its probe:", msg.get("error"))
                    self.life.died("refused", int(js.crisp.now()))
                return
            self.on_reply(asked, msg)
            return
        if op == "progress":
            pct = msg.get("pct")
            pct = pct if isinstance(pct, int) else 0
            if pct > self.pct:
                self.progress_at = int(js.crisp.now())
                stage = msg.get("stage")
                self.stage = stage if stage in screens.ENGINE_STAGES else None
            elif msg.get("alive") is True:
                # all downloaded, the worker's CPU still at it (engine-worker.js ALIVE_MS):
                # a slow start, not a stalled one
                self.progress_at = int(js.crisp.now())
            self.pct = max(self.pct, pct)
        elif op == "ready":
            self.state, self.pct, self.slow = "ready", 100, False
            self.life.started(int(js.crisp.now()))
            log("engine ready in", msg.get("ms"), "ms")
        elif op == "died":
            log("engine worker died:", msg.get("error"))
            self.life.died("fatal", int(js.crisp.now()))
            return                  # the next UI tick restarts it (watch)
        elif op == "failed":
            if self.state == "failed":
                return
            self.state, self.slow = "failed", False
            log("engine failed:", msg.get("error"))     # the raw reason: the log only
            if msg.get("error") in ("build", "update"):
                self.stage = "update"     # a new version replaced this page's: reload
        self.on_status()


def restart_room(page, save):
    """The host `page`'s running engine worker died (ui/page/host/enginewatch.py): a new one
    restores the room from `save` (its last save, JSON text); the room's clock holds
    meanwhile. Each guest hears that the game restarts (`restarting`: its banner says so)
    and its connection closes: it rejoins its seat as after a reload of the host's page; a
    move no reply came for is not kept (the banner says to make it again)."""
    now = page.now()
    since = page.engine.life.dead_at
    page.engine.restart(now)
    try:
        saved = json.loads(save) if save else None
    except ValueError:
        saved = None
    if not isinstance(saved, dict) or page.client is None:
        log("engine restarted: no room to restore")
        page.render()
        return
    # the room's clock holds from when the worker stopped answering: no turn loses the time
    page.clock_.hold(since if isinstance(since, int) and since <= now else now)
    if page.net is not None:
        note = wire.encode(wire.message("restarting"))
        cids = list(page.net.conns)
        for cid in cids:
            page.net.send(cid, note)
        # closed a moment later: a close at once drops the note still in the data channel
        net = page.net
        js.setTimeout(create_proxy(lambda *a: [net.close(cid) for cid in cids]), CLOSE_AFTER_MS)
    page.engine.request({"op": "restore", "saved": saved, "pace": page.bot_pace,
                         "cheat": page.cheat, "now": page.clock()})
    page.client.engine_restarts()
    page.client.join(page.client.name or "?", None)
    log("engine restarted: the room restored from its last save")
    page.render()
