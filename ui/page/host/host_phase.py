"""The host page's phase, and the decisions of its glue, pure (ui/page/host/host_page.py wires them).

Phases (docs/design.md "The page's modules and phases"):
  landing      no room: the landing (it may offer a saved room, or wait for the tab that
               holds one: `held`)
  creating     a new room asked of the engine (Create room, Play solo), not made yet
  lobby        the room's lobby (the engine said: not started)
  playing      the room's game is on
  restarting   solo: the next game asked; back in the lobby it starts by itself
  taking_over  a host handover: this page hosts the room from now on, the engine makes it
Each move is an entry of NEXT (phase: {event: next phase}; MOVES: the same as (phase, event)
-> next phase); an event a phase does not take leaves it as it is.

MicroPython-compatible (the page runs it) and tested in CPython (tests/test_page_phases.py).
"""
from ui.shared import hostlife

PHASES = ("landing", "creating", "lobby", "playing", "restarting", "taking_over")
# (phase, event) -> next phase. Events: create (a new room asked), resume_lobby /
# resume_game (a saved room restored), take_over, lobby / started (a reply of the engine for
# this room: its game not started / started), new_game_solo, forget (the room is left).
NEXT = {          # phase: {event: the phase it leads to}
    "landing": {"create": "creating", "resume_lobby": "lobby", "resume_game": "playing",
                "take_over": "taking_over"},
    "creating": {"lobby": "lobby", "started": "playing"},
    "lobby": {"started": "playing"},
    "playing": {"lobby": "lobby", "new_game_solo": "restarting"},
    "restarting": {"lobby": "lobby"},
    "taking_over": {"lobby": "lobby", "started": "playing"},
}
MOVES = dict([((phase, event), after) for phase in NEXT for event, after in NEXT[phase].items()])
STARTED = ("playing", "restarting", "taking_over")


def move(phase, event):
    """The phase after `event` in `phase` (MOVES; `forget` goes to the landing from any
    phase); an event the phase does not take leaves it unchanged."""
    if event == "forget":
        return "landing"
    return MOVES.get((phase, event), phase)


class HostPhase:
    """The host page's phase (PHASES) and what goes with it: `solo` (the room has no network:
    bots only), `held` (landing: the saved room to resume once its other tab lets it go, or
    None), `waits` (the player asked for something only the engine can do: the screen shows
    the engine's start meanwhile)."""

    def __init__(self):
        self.phase = "landing"
        self.solo = False
        self.held = None
        self.waits = False

    def to(self, event):
        """Apply `event` (MOVES); returns the new phase."""
        self.phase = move(self.phase, event)
        if self.phase == "landing":
            self.solo = False
        return self.phase

    def started(self):
        """The room's game has started (a guest who leaves now hands the room over)."""
        return self.phase in STARTED

    def heard(self, started, local):
        """The engine replied for this room (`started`: its game is on; `local`: it had
        messages for the host's own screen). Returns True when the next game should start
        now (solo, back in the lobby after `new_game_solo`)."""
        restart = self.phase == "restarting" and not started and local
        if started:
            self.to("started")
        elif self.phase != "restarting" or local:
            self.to("lobby")
        return restart


def reply_kind(asked, msg, room_id):
    """What one engine reply `msg` (a dict) to the request `asked` (its op) means for the
    page whose room is `room_id` (or None):
      "checked"         the answer on the saved room the landing offers
      "name_refused"    the room refused the host's name (back to the landing)
      "takeover_failed" a takeover could not make the room (nothing to deal again from)
      "unreadable"      a saved room the engine could not read: dropped
      "refused"         any other refusal (logged only)
      "stale"           about a room this page has left
      "room"            the room's outputs, to deliver"""
    refused = msg.get("op") == "refused"
    if asked == "check":
        return "checked"
    if refused and asked == "create" and not msg.get("failed"):
        return "name_refused"
    if refused and asked == "takeover":
        return "takeover_failed"
    if refused:
        # a save the engine cannot read is dropped; not one it never read (it failed to
        # start: the banner says so, and the save waits for a reload)
        if asked == "restore" and room_id is not None and not msg.get("failed"):
            return "unreadable"
        return "refused"
    if room_id is None or msg.get("room") != room_id:
        return "stale"
    return "room"


def engine_shown(state, pct, waits, slow, in_room):
    """The engine's start as the host's screen shows it (the model's `engine_wait`): its
    percent (0-100), -1 once it failed, or None (nothing shown). `state`, `pct`, `slow`:
    EngineLink's (`slow` and `failed` are hostlife.engine_verdict's, or the worker's own
    failure); `waits`: the player tapped something only the engine does (Start, Play solo,
    Add a bot, a resumed room); `in_room`: the page has a room (its lobby works without the
    engine). While the player waits, every step is shown; in a room's lobby that waits for
    nothing a start going well shows nothing, but one that is slow or failed is said the same
    way (a host sitting in the lobby is told before it taps Start)."""
    if state == "ready":
        return None
    if state == "failed":
        return -1 if waits or in_room else None
    return pct if waits or (in_room and slow) else None


def followers_of(msg):
    """The spectators to tell where the room went (the takeover reply's `follow`): the dicts
    of that list, none when it is not one."""
    follow = msg.get("follow")
    return [f for f in follow if isinstance(f, dict)] if isinstance(follow, list) else []


def alone(players, seat):
    """True when the host's seat `seat` is the only person's seat connected, and there are
    other persons (a host cut off from its players: a partition)."""
    others = [p for p in players or [] if isinstance(p, dict) and p.get("bot") is None
              and p.get("seat") != seat]
    return bool(others) and not any(p.get("connected") for p in others)


def probe_due(alone_since, probed_at, now, alone_ms, every_ms):
    """A host alone since `alone_since` (ms, or None) looks whether its room moved: once it
    has been alone `alone_ms`, and at most every `every_ms` (`probed_at`: the last look)."""
    return (alone_since is not None and now - alone_since >= alone_ms
            and now - probed_at >= every_ms)


class Landing:
    """The host page's model before it has a room (or while its room waits for the engine):
    the landing, offering to resume the last saved room (`resume`: hostlife.summary) when
    there is one. `engine_wait`: the engine's start in percent while the player waits for
    it (Play solo, a resumed room), else None; `engine_stage`: the step it is at (EngineLink
    `stage`), or None; `engine_slow`: no progress for a while (EngineLink `slow`)."""

    screen = "landing"

    def __init__(self, saved=None, status=None, engine_wait=None, refused=False, error=None,
                 engine_stage=None, engine_slow=False):
        self.status = status
        self.engine_wait = engine_wait
        self.engine_stage = engine_stage
        self.engine_slow = bool(engine_slow)
        self.refused = refused        # the saved room was refused (damaged or changed)
        self.error = error            # {code, text}: e.g. a name the room refused
        self.resume = hostlife.summary(saved) if saved is not None else None
