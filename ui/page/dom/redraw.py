"""Whether the page's 250 ms tick must draw the screen again.

Every message, tap and engine reply that changes the model draws the screen itself; the tick
is there for what changes with time alone (a countdown, a note shown for a few seconds, a
reveal turned back) and for what the tick's own work changes (the guest's link to the host,
the host's engine and room). A screen whose render said it does not change with the clock
by now (viewmodel.Ctx `wake`) and whose model is as it was at that render looks the same: at
a table of 8 the tick used to rebuild the whole table 4 times a second on every phone, about
a third of a guest's Python time, for nothing. (Cards in flight land on the tick without a
render: Screen.land.)

"As it was" is `stamp`: a shallow fingerprint of the model's attributes and the page's own
`ui` state, compared between the last render and the tick. Pure: runs on MicroPython,
Pyodide and CPython (tests).
"""

# The Client's attributes no screen reads: they change with every message (a beat, a pong;
# the sealed room and the standby tokens a host handover keeps, which come after every move)
# while nothing shown does. tests/test_redraw.py checks that no screen module reads them.
UNSHOWN = ("last_heard", "last_type", "latency", "synced_at", "rtts", "rtt", "pong_t",
           "pongs_from", "sealed", "standby")

_PLAIN = (bool, int, float, str)
SHORT = 16          # a tuple this long or shorter is stamped by its items


def _value(v, depth):
    """A value's part of the stamp: plain values themselves; a short tuple (it cannot change:
    a page sets a new one each tick, the host's friends arriving) by its items; a list, dict
    or longer tuple by its identity and length (each message that changes one replaces it or
    changes its length, and draws the screen itself anyway); an object (the Client's Pause)
    by its own attributes, `depth` levels down; anything else by its identity."""
    if v is None or isinstance(v, _PLAIN):
        return v
    if isinstance(v, tuple) and len(v) <= SHORT:
        return tuple([_value(x, 0) for x in v])
    if isinstance(v, (list, tuple, dict)):
        return (id(v), len(v))
    attrs = getattr(v, "__dict__", None)
    if depth > 0 and isinstance(attrs, dict):
        return _attrs(attrs, depth - 1)
    return id(v)


def _attrs(attrs, depth, skip=()):
    """{name: its part of the stamp} (a dict: equal whatever the order its names came in)."""
    out = {}
    for name in attrs:
        if name not in skip:
            out[name] = _value(attrs[name], depth)
    return out


def stamp(model, ui):
    """A fingerprint of what the screens can read: the model (the Client, or a page's own
    model object; its attributes but UNSHOWN, plain values by value, containers by identity
    and length, objects one level down) and `ui` (the screen's own state dict, the same way).
    Equal stamps: nothing the tick's work could have changed is different."""
    attrs = getattr(model, "__dict__", None)
    shown = _attrs(attrs, 1, UNSHOWN) if isinstance(attrs, dict) else _value(model, 0)
    return (id(model), shown, _attrs(ui if isinstance(ui, dict) else {}, 1))


def draws_at_once(model):
    """True when the message the page just read (the Client's `last_type`) is a `view`: a
    move every player waits to see, drawn in the task that read it (no wait for another
    task, nor for a frame painted in between). Anything else (a pong, a seal, a
    welcome) is drawn in a task of its own, once for a burst of them."""
    return getattr(model, "last_type", None) == "view"


# The host's messages that say only that it is there (its beat, each second; the answer to
# this page's ping) or that a handover keeps unshown (the sealed room, sent after every move,
# and the standby tokens: a guest drew its whole table once more for each, about as long as
# for the move's view): what they change that shows (the link's status, the pause) is in the
# stamp. Never a message that changes a container in place (a reaction replaces an entry of
# the same dict: the stamp does not see it).
QUIET = ("beat", "pong", "sealed", "standby")


def quiet(kind):
    """True when a message of type `kind` from the room draws the screen only when the stamp
    says something shown changed (Screen.due), as the tick does."""
    return kind in QUIET


def counting(wake, drawn_at):
    """True when a render at `drawn_at` (ms) showed something that changes with every tick
    (`wake` at or before it: a countdown running): the next tick draws it whatever else
    changed, so that render needs no stamp (Screen keeps None)."""
    return wake is not None and drawn_at is not None and wake <= drawn_at


def due(wake, now, busy, last, stamp_of, drawn_at=None):
    """True when the tick must render at `now` (ms): what the last render showed changes with
    the clock by then (`wake`, ms, viewmodel.Ctx; None: never), the clock went back since
    that render (`drawn_at`, ms: the phone's clock set back, so every `wake` counts from a
    time to come), the page has work pending (`busy`: deferred jobs, the storage note), or
    the model changed since (`last`: the stamp at the last render, None when it kept none;
    `stamp_of()`: the stamp now, called only when nothing else has decided: a stamp is a walk
    of the whole model, ~0.4 ms on a phone's MicroPython, and a countdown draws anyway)."""
    back = drawn_at is not None and now < drawn_at
    if (wake is not None and now >= wake) or back or busy or last is None:
        return True
    return last != stamp_of()
