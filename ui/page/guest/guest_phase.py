"""The guest page's phase, and the decisions of its glue, pure (ui/page/guest/guest_page.py and
ui/page/guest/guest_succession.py wire them; docs/design.md "The page's modules and phases").

Phases, each with the data only it has (`GuestPhase.data`):
  joining       not seated by the room since this page loaded (a new page, a reload)
  seated        seated; the host is heard
  host_quiet    seated; the host is silent (its seat shows away, the countdowns paused)
  handing_over  the host went: this page moves to the successor's new id (`plan`: the
                handover.Handover, `handed`: what it started from; docs/protocol.md
                "Host handover")
  looking       looking for the room at its next ids (`follow`: follow.Follow, `looker`,
                `looked_at`; `reload`: a reloaded page's one look, else a page that was away
                while its host went; docs/protocol.md "Back from away")
  moving        found it: rejoining there (`candidates`: the seat tokens still to try,
                `moved_at`; `reload` as above)
  gone          nobody could host (the host-gone panel, for good), or the room is gone
Each move is an entry of NEXT (phase: {event: next phase}; MOVES: the same as (phase, event)
-> next phase); an event a phase does not take leaves it as it is.

MicroPython-compatible (guests run it) and tested in CPython (tests/test_page_phases.py).
"""
from ui.shared import follow, handover

PHASES = ("joining", "seated", "host_quiet", "handing_over", "looking", "moving", "gone")
SEATED = ("seated", "host_quiet")
# (phase, event) -> next phase. Events: welcome (the room seated this page), quiet / heard
# (the host silent / heard again), hand_over (the host went: a plan to follow), nobody (no
# one can host), look (start looking for the room), found, nothing (a reload's look found
# nothing), timeout (the room found does not seat this page), closed (the room is gone).
NEXT = {          # phase: {event: the phase it leads to}
    "joining": {"welcome": "seated", "look": "looking"},
    "seated": {"quiet": "host_quiet", "hand_over": "handing_over", "nobody": "gone",
               "look": "looking"},
    "host_quiet": {"heard": "seated", "hand_over": "handing_over", "nobody": "gone",
                   "look": "looking"},
    "handing_over": {"hand_over": "handing_over", "nobody": "gone", "welcome": "seated"},
    "looking": {"heard": "seated", "welcome": "seated", "found": "moving", "nothing": "joining",
                "hand_over": "handing_over", "nobody": "gone"},
    "moving": {"welcome": "seated", "timeout": "joining", "look": "looking",
               "hand_over": "handing_over", "nobody": "gone"},
    "gone": {},
}
MOVES = dict([((phase, event), after) for phase in NEXT for event, after in NEXT[phase].items()])


def move(phase, event):
    """The phase after `event` in `phase` (MOVES; `closed` goes to gone from any phase); an
    event the phase does not take leaves it unchanged."""
    if event == "closed":
        return "gone"
    return MOVES.get((phase, event), phase)


class GuestPhase:
    """A guest page's phase (PHASES), the data of that phase (`data`, a dict: reset on every
    move), and what lasts across phases: `seen` (the room seated this page since it loaded),
    `reload_looked` (a reloaded page looks for its room once), `early` (this page started
    the engine early: it hosts next)."""

    def __init__(self):
        self.phase = "joining"
        self.data = {}
        self.seen = False
        self.reload_looked = False
        self.early = False

    def to(self, event, data=None):
        """Apply `event` (MOVES) with the new phase's `data`; returns whether it moved."""
        if event != "closed" and (self.phase, event) not in MOVES:
            return False
        self.phase = move(self.phase, event)
        looker = self.data.get("looker")
        if looker is not None and not looker.done:
            looker.stop()                     # a look belongs to its phase: it ends with it
        self.data = data if data is not None else {}
        return True

    def welcomed(self):
        """The room seated this page: it knows the room now (no reload look, and it may
        take part in a handover); a move or a look in progress is over."""
        self.seen = self.reload_looked = True
        self.to("welcome")

    def get(self, key, default=None):
        return self.data.get(key, default)

    def reloading(self):
        """A reloaded page's look (or the move it found) is under way: the page says
        "looking for the room", not that the host is gone."""
        return self.phase in ("looking", "moving") and bool(self.data.get("reload"))

    def step(self, now, f):
        """What the page does now, from plain facts `f` (a dict): gone_ms (the host's gone
        time), successor_ms, missing / open / failures / registered (the link to the room
        id), quiet / lost / leaving / behind (the host silent, gone, leaving; this page
        behind), old_gone (this page, back from away, knows its old room is gone:
        Link.old_room_gone), saved_follow (the reloaded page's follow record, or None), can_hand_over,
        next_is_me (this seat hosts next). Returns a list of: "next_successor" (the successor
        never hosted: hand over to the next), "look" (look for the room now), "looking" (say
        so, nothing else this step), "start_engine", "hand_over"."""
        late = f["gone_ms"] + f["successor_ms"]
        if self.phase == "handing_over" and f["missing"] and not f["open"] \
                and now - self.data["handed"]["at"] >= late:
            # Nobody holds the new id (the successor's page went too: a page that takes over
            # registers it at once, before its engine runs): the next person hosts.
            return ["next_successor"]
        if not self.reload_looked and follow.reload_should_look(
                f["saved_follow"], self.seen, f["missing"], f["failures"], f["registered"]):
            # A reloaded page whose room id does not answer: the room may have moved while
            # its tab was gone. It looks at the next ids (never takes the room over).
            self.reload_looked = True
            self.to("look", {"reload": True})
        if self.phase == "moving" and self.data.get("reload") \
                and now - self.data["moved_at"] > late:
            self.to("timeout")                # the room it found does not seat it
        if self.reloading():
            return (["look"] if self.phase == "looking" else []) + ["looking"]
        if self.phase in ("handing_over", "gone") or not f["can_hand_over"]:
            return []
        if f["behind"] and f["lost"] and f["registered"]:
            # Away itself (asleep, frozen, offline) while the host went: what it last heard
            # may be old. It never takes the room over: it looks for it, once its old room
            # is known gone (`old_gone`: else its host may be fine, and the peer at the next
            # id a designate that registered it early, waiting for this page's share).
            return ["look"] if f["old_gone"] else []
        if self.phase == "looking":
            self.to("heard")                  # the host is back: no look from here
        if f["behind"]:
            return []
        todo = []
        if f["quiet"] and not self.early and f["next_is_me"]:
            # This page would host next: Pyodide starts now, while the host may still come
            # back, so that a takeover waits seconds less.
            self.early = True
            todo.append("start_engine")
        if f["lost"] or f["leaving"]:
            todo.append("hand_over")
        return todo

    def host_heard(self):
        """The old host spoke, proven (ui/page/guest/guest_page.py `heard`): a look of a page back
        from away stops at once (its looker with it), before it can offer a share or move
        the page to whatever holds a next id. A reloaded page's look goes on (it is not
        seated here yet)."""
        if self.phase == "looking" and not self.data.get("reload"):
            self.to("heard")

    def link(self, quiet):
        """Follow the host's silence while seated (`quiet`: the link says so)."""
        if self.phase in SEATED:
            self.to("quiet" if quiet else "heard")


def can_hand_over(seen, seat, token, view, screen, host_seat):
    """A seated player at a game in play (the lobby simply waits for its host), seated by the
    room since this page loaded (a reloaded page knows only its stored record: it looks for
    the room, never takes it over)."""
    return (seen and seat is not None and token is not None and view is not None
            and screen == "table" and seat != host_seat)


def handover_name(players, seat):
    """The name of `seat` in a players list, or "?"."""
    for p in players or []:
        if isinstance(p, dict) and p.get("seat") == seat:
            return str(p.get("name") or "?")
    return "?"


def without(players, seat):
    """A players list with `seat` marked not connected (a successor that never hosted)."""
    out = []
    for p in players:
        if isinstance(p, dict) and p.get("seat") == seat:
            p = dict(p)
            p["connected"] = False
        out.append(p)
    return out


def after_seal(sealed, heard):
    """How long (ms) the old host still spoke after this page's newest sealed box came
    (`sealed["at"]`; `heard`: when the host was last heard): the room's clock ran on that
    long past the box's own reading, so a turn's timer goes on from where it was when the
    host went silent, not from the last seal. 0 when either is unknown."""
    if not isinstance(sealed, dict) or not isinstance(sealed.get("at"), int) \
            or not isinstance(heard, int):
        return 0
    return max(0, heard - sealed["at"])


def takeover_spec(handed, plan_id, seat, sealed, standby, since_seal, view):
    """What the engine worker needs to make the room at `plan_id` (ui/worker/takeover.py):
    the handover's start (`handed`), this seat, its sealed box and standby, how long the
    host spoke after the box (`since_seal`), and the public part of the last view."""
    view = view if isinstance(view, dict) else {}
    return {"room_id": handed["room"], "new_id": plan_id, "epoch": handed["epoch"],
            "succession": handed["succession"], "seat": seat, "token": handed["token"],
            "players": handed["players"], "host": handed["host"], "sealed": sealed,
            "standby": standby, "after_seal": since_seal,
            "public": {"options": view.get("options"), "scores": view.get("scores"),
                       "dealer": view.get("dealer"), "round": view.get("round"),
                       "phase": view.get("phase")}}
