"""The host page's lifecycle, pure: the lease of the tab that runs a room, which saved room to
resume, the room's clock, and what the room's outputs ask of the page.

MicroPython-compatible (the host page's main thread runs it there) and tested in CPython: no
`js`, no clock, no storage, no randomness of its own. Every function takes what it needs
(`now` in ms from the page's wall clock, saved records already parsed from JSON) and returns
plain values; the host page (ui/page/host/host_page.py) does the I/O (localStorage, timers, PeerJS).

Storage records (ui/page/saved_rooms.py reads and writes them):
  saved room   "crisp.room.<id>": Room.to_dict() (ui/worker/room.py), written by the page after
               every change the room reports
  lease        "crisp.live.<id>": {"tab": <tab id>, "at": <ms, wall clock>, "clock": <room ms>}
               refreshed every second by the tab that runs the room; `at` 0 lets it go
"""

from crisp_core.checks import is_hex, is_number
from ui.shared import roomcode, savedroom, wire

LEASE_MS = 5000           # a lease not refreshed for this long is stale: another tab may run it
LEASE_EVERY_MS = 1000     # how often the running tab refreshes its lease
# The room's clock is read at least every LEASE_EVERY_MS while its page runs (its UI tick, the
# lease; a background tab's timers still fire once a second). Wall time that passed with no
# reading for longer than GAP_MS is time the page could not run (a busy or suspended main
# thread, a phone asleep): the room's clock skips it, all but TICK_MS, so that no deadline
# runs while its host could not act on it (Clock.at).
GAP_MS = 3000
TICK_MS = 1000
ROOM_ID_PREFIX = "crisp-"

DEFAULT_OPTIONS = wire.DEFAULT_OPTIONS   # the lobby's options before the engine answers

# Room outputs that change nothing worth saving: answering a ping, refusing a message (a
# flood of refused messages must not become a flood of saves), a seat proof's challenge, a
# quick reaction (nothing of the game: docs/protocol.md "Quick reactions").
UNSAVED_KINDS = ("pong", "error", "challenge", "reaction")


def new_room_id(random_hex):
    """A room id ("crisp-" + a room code, ui/shared/roomcode.py: 50 random bits) from 16 random hex
    digits (64 bits; the page draws them with crypto.getRandomValues). Raises ValueError for
    anything else: a room id is also a PeerJS id, and a guessable one would let strangers
    take the room."""
    if not is_hex(random_hex, 16):
        raise ValueError("a room id needs 16 random hex digits")
    bits = int(random_hex, 16)
    return roomcode.room_id(roomcode.new_code(lambda k: bits >> (64 - k)))


def resumable(saved):
    """True for a saved room worth offering again: a room record (ui/shared/savedroom.py
    `summary`) whose game (if any) is readable and not over. Never raises, whatever `saved`
    holds."""
    room = savedroom.summary(saved)
    return room is not None and room["readable"] and not room["over"]


def summary(saved):
    """What the landing shows of a resumable saved room: {room, names, started, round}."""
    room = savedroom.summary(saved)
    return {key: room[key] for key in ("room", "names", "started", "round")}


def lease_free(lease, tab, now):
    """May tab `tab` run the room whose lease record is `lease` (a dict, or None) at `now`?
    Yes when nobody holds it, this tab holds it, it was let go (`at` 0) or it is stale (not
    refreshed for LEASE_MS, e.g. a crashed tab). A record that is not a dict counts as none."""
    if not isinstance(lease, dict):
        return True
    at = lease.get("at")
    return (lease.get("tab") in (None, tab) or not is_number(at)
            or abs(now - at) > LEASE_MS)


def own_room(room_id, saved, lease, now):
    """A room link (`?room=<room_id>`) opened in the browser that hosts that room: its saved
    room (`saved`: the parsed "crisp.room.<id>", or None) is here. Returns None when it is
    not (a guest: join as usual); "elsewhere" when a tab of this browser runs the room now
    (its `lease` is held: `lease_free` says no to any other tab); "resume" when no tab does
    (the page offers to resume hosting it). The host's seat is seat 0 of its room, never a
    second seat through its own link. Records that are not what they should be count as
    none."""
    if not isinstance(saved, dict) or saved.get("room_id") != room_id \
            or not isinstance(saved.get("seats"), list):
        return None
    return "resume" if lease_free(lease, "", now) else "elsewhere"


def lease_record(tab, at, clock):
    """The lease record tab `tab` writes: held at `at` (ms, wall clock; 0 lets it go),
    carrying the room's `clock` so that a resumed room goes on from the last second."""
    return {"tab": tab, "at": at, "clock": clock}


def lease_due(last_at, now):
    """True when the running tab should refresh its lease at `now`."""
    return now - last_at >= LEASE_EVERY_MS


def resume_clock(saved, lease):
    """The room clock (ms) a resumed room goes on from: the later of the saved room's `now`
    and the lease's `clock` (refreshed every second, so newer than a save when the last
    change was long ago). Never negative; ignores what is not a number."""
    room = savedroom.summary(saved)
    clock = room["clock"] if room is not None else 0
    held = lease.get("clock") if isinstance(lease, dict) else None
    if is_number(held) and held > clock:
        clock = held
    return int(clock)


def choose(wanted, saved, held=False):
    """What the host page does at start: ("resume", id) when the URL names a room (?host=,
    a reload of the tab that ran it) and it is saved and resumable, or another tab runs it
    now (`held`: its lease is not free; the page waits for it, and its room may not be
    saved yet: its engine may still be starting); ("offer", saved) when the last room this
    browser hosted is resumable (the landing offers it); ("landing", None) otherwise.
    `wanted`: the ?host= id or None; `saved`: the parsed record of `wanted`, or of the last
    room this browser hosted ("crisp.host.room"), or None."""
    if wanted is not None and held:
        return ("resume", wanted)
    if saved is not None and resumable(saved):
        if wanted is not None and wanted == saved.get("room_id"):
            return ("resume", wanted)
        return ("offer", saved)
    return ("landing", None)


class Clock:
    """The room's clock (docs/design.md "Time"): ms since the room was created, not
    counting the time its host page was away, nor the time the page waited for its engine
    to start (the room did not run meanwhile: a resumed game's deadlines must not run out
    while Pyodide starts), nor the time the page could not run (a gap of more than GAP_MS
    between two readings: all but TICK_MS of it is skipped, so every deadline moves by it
    and nobody loses time to a frozen host). `now` is the page's wall clock in ms. Starts
    held when `running` is False. `skipped`: the ms skipped so far (for the log)."""

    def __init__(self, now, start=0, running=True):
        self.epoch = now - start
        self.held = None if running else start
        self.seen = now
        self.skipped = 0

    def at(self, now):
        """The room's clock at wall-clock `now` (the held value while held). A reading after
        a gap (see the class doc) first moves the clock's start by the gap."""
        if self.held is not None:
            return self.held
        if now - self.seen > GAP_MS:
            gap = now - self.seen - TICK_MS
            self.epoch += gap
            self.skipped += gap
        if now > self.seen:
            self.seen = now
        return now - self.epoch

    def hold(self, now):
        """Stop the clock at its reading at `now` (no-op when held already)."""
        if self.held is None:
            self.held = self.at(now)

    def go(self, now):
        """Let a held clock run again from where it stopped (no-op when running)."""
        if self.held is not None:
            self.epoch = now - self.held
            self.held = None
            self.seen = now

    @property
    def running(self):
        return self.held is None


ENGINE_SLOW_MS = 20000    # an engine start with no progress for this long while it downloads
                          # is slow: the player is offered Retry, the page still waits
ENGINE_BUSY_MS = 60000    # ... the same once all is downloaded (the worker's CPU at it:
                          # compile, Python's start), with no sign of life for this long
ENGINE_GIVE_UP_MS = 180000   # ... with no progress at all for this long: failed


def engine_verdict(state, progress_at, now, stage=None):
    """What the host page makes of its engine's start: None (starting, or not starting at
    all), "slow" or "failed". `state`: EngineLink's ("loading" is the only one judged);
    `progress_at`: wall ms of the start or of its last progress (None: not started); `stage`:
    the step it is at (None or "download": its files still coming).

    A download with no new bytes cannot be told from a stalled one (Pyodide's wasm request
    held by a slow network, or hung for ever: Pyodide only warns and its promise never
    settles), and a request still pending may yet answer (seen failed at
    20 s, ready at 29 s). So after ENGINE_SLOW_MS without progress while downloading
    (ENGINE_BUSY_MS once all is downloaded: a long synchronous step such as the memory
    snapshot's restore on a slow phone holds the worker's signs of life back) the start is
    "slow": the player is told it takes long and offered Retry, while the page goes on
    waiting, and the next progress makes it None again. It is "failed" only after
    ENGINE_GIVE_UP_MS without any; a real failure (a download refused or cut, Python's
    error) the worker reports itself at once (engine-worker.js `failed`). Progress: a new
    percent, or a sign of life (bytes arrived, or the CPU still at it)."""
    if state != "loading" or not is_number(progress_at):
        return None
    quiet = now - progress_at
    if quiet >= ENGINE_GIVE_UP_MS:
        return "failed"
    return "slow" if quiet >= (ENGINE_SLOW_MS if stage in (None, "download")
                               else ENGINE_BUSY_MS) else None


def sort_out(out, local):
    """Sort the room's outputs for the page. `out`: [(conn, text, kind)], the engine's reply
    (`kind`: the message's type, as the room made it). Returns a dict:
      local    texts for the host's own screen (conn == `local`), in order
      remote   [(conn, text, kind)] to send over the data connections, in order (`kind`
               kept: the page acts on a `welcome` without reading its text)
      close    conns to close after their message was sent (they were `kicked`)
      changed  True when the room changed and should be saved (anything but pongs/errors)"""
    result = {"local": [], "remote": [], "close": [], "changed": False}
    for item in out:
        conn, text = item[0], item[1]
        kind = item[2] if len(item) > 2 else None
        if conn == local:
            result["local"].append(text)
        else:
            result["remote"].append((conn, text, kind))
            if kind == "kicked" and conn not in result["close"]:
                result["close"].append(conn)
        if kind not in UNSAVED_KINDS:
            result["changed"] = True
    return result


draft = savedroom.draft      # (the saved record of a room created while the engine starts)


def provisional(room_id, name):
    """The host's own screen for a room the engine has not answered for yet (it is still
    starting): the room's `welcome` and `lobby` messages (JSON text) for a room with the host
    alone, made by the wire (ui/shared/wire.py) as the room makes them. The room's own
    messages replace them once it runs."""
    welcome = wire.welcome(0, room_id, 0)
    welcome["token"] = None              # (the host's own seat: no token on the wire)
    return [wire.encode(welcome),
            wire.encode(wire.lobby([wire.player(0, name)], wire.DEFAULT_OPTIONS))]
