"""The host page's own limit on what each guest connection sends, before anything reaches
the engine worker (docs/protocol.md "Idle and hostile connections"). The room in the worker
limits each connection too (ui/worker/seats.py `allow`), but every text it reads has crossed
to the worker first: a flood, unlimited on the page, queues there and lags the room's
replies past the watchdog's 4 s (ui/page/host/enginewatch.py), which restarts the engine (every
guest's connection closed) and gives up after three restarts in 120 s. So the page drops
what no person sends: a text over wire.MAX_TEXT, or more texts or bytes a second than a
token bucket per connection lets through (looser than the room's: what a person sends, and
what the room would take, always passes); a connection that keeps flooding is closed.
Pure (no `js`: every call takes `now`, ms); MicroPython-compatible.
"""

from ui.shared.wire import MAX_TEXT

TEXT_BURST = 60          # texts a connection may send at once ...
TEXTS_PER_S = 20         # ... and per second after that (the room takes 40, then 10 a second)
BYTE_BURST = 64 * 1024   # bytes (UTF-8, as wire.MAX_TEXT counts them) at once ...
BYTES_PER_S = 32 * 1024  # ... and per second after that
CLOSE_AFTER = 4000       # texts dropped on one connection: it is closed (the room still
                         # answers the first of a flood, then `rate_limited` once a second)


def _size(text):
    try:
        return len(text.encode("utf-8"))
    except (AttributeError, UnicodeError):
        return MAX_TEXT + 1


class TextLimit:
    """Per connection (`cid`, any key): `take(cid, text, now)` says what to do with a text
    that arrived on it: "pass" (forward it to the worker), "drop" (over a limit: it goes
    nowhere, no answer), "too_big" (over MAX_TEXT: answer `error` `too_big` from the page,
    forward nothing) or "close" (it kept flooding: close the connection; what it sends
    until then is dropped). `forget(cid)` once it closed."""

    def __init__(self):
        self.conns = {}          # cid -> [texts left, bytes left, last refill ms, dropped]

    def take(self, cid, text, now):
        state = self.conns.get(cid)
        if state is None:
            state = self.conns[cid] = [float(TEXT_BURST), float(BYTE_BURST), now, 0]
        passed = max(0, now - state[2])
        state[2] = now
        state[0] = min(float(TEXT_BURST), state[0] + passed * TEXTS_PER_S / 1000.0)
        state[1] = min(float(BYTE_BURST), state[1] + passed * BYTES_PER_S / 1000.0)
        size = _size(text) if text is not None else 0
        if state[3] >= CLOSE_AFTER:
            return "close"
        if size <= MAX_TEXT and state[0] >= 1 and state[1] >= size:
            state[0] -= 1
            state[1] -= size
            return "pass"
        state[3] += 1
        if state[3] >= CLOSE_AFTER:
            return "close"
        if size > MAX_TEXT and state[0] >= 1:
            # told so, as the room would tell it (its answer costs a text of the bucket);
            # it never crosses to the worker
            state[0] -= 1
            return "too_big"
        return "drop"

    def forget(self, cid):
        """`cid` closed: its bucket goes."""
        self.conns.pop(cid, None)
