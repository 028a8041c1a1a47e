"""A player's own move, shown taken before the host answers: the tap that sent an `action`
is kept on the Client (`tapped`) and the control it came from is drawn pressed (a button) or
lifted (a card, the deck) from the next frame on, whatever the link. It settles when the
room answers: its next view with events (the move done, drawn as it is: nothing drawn twice,
nothing jumps back; a view that moves nothing is no answer), or an error (the move refused goes back; the error's toast says why), or, so
that nothing stays pending forever, PENDING_MS after the tap.

Pure (no clock: every call that needs time takes it, ms). MicroPython-compatible.
"""

PENDING_MS = 5000     # a tap the room has not answered this long is shown settled again


def taken(action, now):
    """The tapped state of a move just sent: {"action": the action (a dict), "at": `now`,
    ms}; None for an action that is not a dict (nothing to show)."""
    if not isinstance(action, dict):
        return None
    return {"action": dict(action), "at": now if isinstance(now, (int, float)) else None}


def expired(tapped, now):
    """True when `tapped` (taken's, or None) has waited PENDING_MS by `now` (ms) or the clock
    went back past it; a tap without a time (no clock given) never expires here (the next
    view or error settles it)."""
    if tapped is None:
        return False
    at = tapped.get("at")
    if not isinstance(at, (int, float)) or not isinstance(now, (int, float)):
        return False
    return now - at >= PENDING_MS or now < at


def shown(tapped, ctx):
    """The action to draw as taken in this render (its payload), or None: `tapped` until
    PENDING_MS after it (ctx.before notes that end: the tick draws it settled then)."""
    if tapped is None:
        return None
    at = tapped.get("at")
    if isinstance(at, (int, float)) and not ctx.before(at + PENDING_MS):
        return None
    return tapped.get("action")


def is_tapped(tapped_action, spec):
    """True when the control whose tap spec is `spec` (("intent", "action", payload), as the
    screens build them) sent the pending `tapped_action` (ctx.tapped)."""
    if tapped_action is None or not isinstance(spec, tuple) or len(spec) < 3:
        return False
    return spec[0] == "intent" and spec[1] == "action" and spec[2] == tapped_action


def mark(attrs, ctx, spec):
    """Mark a control's `attrs` (a dict, changed in place) as the one tapped when its `spec`
    sent the pending move (ctx.tapped): class "pending" (style.css: pressed, lifted),
    aria-busy and data-pending. Returns `attrs`."""
    if is_tapped(getattr(ctx, "tapped", None), spec):
        attrs["class"] = ((attrs.get("class") or "") + " pending").strip()
        attrs["aria-busy"] = "true"
        attrs["data-pending"] = "true"
    return attrs
