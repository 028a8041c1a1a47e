"""The engine worker (engine-worker.js: ui/worker/engine.py's Room on Pyodide), from the
host page (MicroPython, main thread): requests out in order, replies back with the op they
answer, the start's progress and its state (docs/protocol.md "Engine worker")."""
import json

import js
from pyscript.ffi import create_proxy

from ui.page import screens
from ui.page.browser import _str, log, now
from ui.shared import hostlife



class EngineLink:
    """The engine worker (engine-worker.js: ui/worker/engine.py's Room on Pyodide), from the page.

    `request(msg)` posts one request (a dict, ui/worker/engine.py); the worker answers in order, and
    `on_reply(request_op, reply)` gets each reply with the op it answers. `state`: "idle" |
    "loading" | "ready" | "failed"; `pct`: how far its start has come (0-100); `on_status()`
    is called when either changes; `stage`: the step the worker is at (ENGINE_STAGES: the
    downloads, the wasm's compile, Python's start, the engine's) or None."""

    def __init__(self, on_reply, on_status):
        self.on_reply, self.on_status = on_reply, on_status
        state = _str(js.crisp.engine.state)     # boot.js may have started it already
        self.state = state if state in ("idle", "loading") else "loading"
        self.pct = 0
        self.stage = None             # what it does now (ENGINE_STAGES), None before it says
        self.progress_at = None       # wall ms of the start or of its last progress
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
            self.progress_at = now()
        js.crisp.engine.start()         # (once: boot.js ignores a second start)

    def watch(self, now):
        """Called every UI tick: a start with no progress for hostlife.ENGINE_STALL_MS has
        failed (a wasm request aborted or stalled never settles Pyodide's promise)."""
        if hostlife.engine_stalled(self.state, self.progress_at, now):
            self.state = "failed"
            log("engine start: no progress for", hostlife.ENGINE_STALL_MS, "ms at", self.pct,
                "%: given up")
            self.on_status()

    def request(self, msg):
        self.start()
        self.sent.append(msg.get("op"))
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
            asked = self.sent.pop(0) if self.sent else None
            self.on_reply(asked, msg)
            return
        if op == "progress":
            pct = msg.get("pct")
            pct = pct if isinstance(pct, int) else 0
            if pct > self.pct:
                self.progress_at = now()
                stage = msg.get("stage")
                self.stage = stage if stage in screens.ENGINE_STAGES else None
            self.pct = max(self.pct, pct)
        elif op == "ready":
            self.state, self.pct = "ready", 100
            log("engine ready in", msg.get("ms"), "ms")
        elif op == "failed":
            if self.state == "failed":
                return
            self.state = "failed"
            log("engine failed:", msg.get("error"))     # the raw reason: the log only
        self.on_status()
