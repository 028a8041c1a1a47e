"""The guided first round: which hint the player sees now, and whether the landing offers it.

The guided round is a solo game against two easy bots (`SOLO`) dealt from a stacked deck
(crisp_core/guided.py) so that each step of a round comes up: the peek, a draw, a swap or a
discard, a Jack, a Queen, a King, the crisp window and the reveal. The hints follow whatever
happens at the table (`step` reads the player's view, not the plan): a player who does
something else still gets the hint for what is in front of them, and the guide ends after
the first round's reveal. The bots are the ordinary easy bots; the deal gives them high
cards so that they never end the round before the player has seen every step.

    step(view, ui)          the hint's key for this moment, or None
    offer(stored, name)     whether the landing offers the guided round (first visit)
    STORE_KEY               where the page remembers that it was played or skipped

Pure: runs on MicroPython, Pyodide and CPython (tests/test_guided.py). The texts are in
ui/page/i18n/i18n_guided.py ("guide_" + step).
"""

STORE_KEY = "crisp.guided"        # "seen" (played) | "skipped": never offered again
SOLO = {"bots": 2, "level": "easy", "target": 50}
STEPS = ("peek", "wait", "soon", "draw", "extra_draw", "swap", "jack", "queen", "queen_own",
         "queen_target", "king", "crisp", "missed", "called", "last_turns", "reveal")
ENDS = ("swap", "discard", "jack", "queen", "king")    # the events that end a turn (R3.3)
SPECIAL = {"J": "jack", "Q": "queen", "K": "king"}


def offer(stored, name=None):
    """True when the landing should offer the guided round: `stored` (the value kept under
    STORE_KEY, None when there is none or storage failed) says it was neither played nor
    skipped, and no player's name is kept (`name`: "crisp.name"; someone who has played
    before is no first-time visitor)."""
    return stored not in ("seen", "skipped") and not name


def _allowed(view):
    out = {}
    for entry in view.get("allowed") or []:
        if isinstance(entry, dict) and "do" in entry:
            out[entry["do"]] = entry
    return out


def window_missed(view, log):
    """Whether the player's last crisp window closed with no call (R10.1): in `log` (the
    round's events so far, oldest first, as the Client keeps them) the newest event of the
    player's own since their turn began is the one that ended it, and no call came since.
    False before their first turn, during it, after a turn that timed out (no window), or once
    anyone called."""
    me = view.get("seat")
    for ev in reversed(log if isinstance(log, list) else []):
        if not isinstance(ev, dict) or "to" in ev:
            continue
        kind = ev.get("type")
        if kind in ("crisp", "deal", "play"):
            return False
        if ev.get("seat") == me and kind in ENDS + ("turn", "timeout"):
            return kind in ENDS
    return False


def step(view, ui=None, log=None):
    """The step of the guided round the player is at, one of STEPS, or None (no hint: no
    view, a spectator's view, or a round after the first: the guide is over).

    `view`: the player's view (docs/protocol.md; crisp_core/views.py); `ui`: the screen's
    own state (its "queen": the Queen's two taps, ui/page/screens/intents.py); `log`: the
    round's events the page has (a window that closed with no call is told: `missed`,
    `window_missed`). The rules the hints
    teach: R2.4 (peek), R3 (draw; swap or discard), R4.4-R4.6 (Jack, Queen, King), R6 and
    R10.1 (the crisp window, the last turns), R7 (the reveal and its scores)."""
    if not isinstance(view, dict) or not isinstance(view.get("seat"), int):
        return None
    if view.get("round", 1) != 1:
        return None
    me = view["seat"]
    phase = view.get("phase")
    allowed = _allowed(view)
    if phase in ("round_over", "game_over"):
        return "reveal"
    if phase == "peek":
        return "peek" if "ready" in allowed else "wait"
    if "crisp" in allowed and view.get("turn") != me:
        return "crisp"                           # my turn just ended: the 3 s window
    held = view.get("held")
    if isinstance(held, dict) and held.get("seat") == me and held.get("card"):
        kind = SPECIAL.get(str(held["card"])[0])
        if kind == "queen":
            queen = (ui or {}).get("queen")
            if isinstance(queen, dict):
                return "queen_target" if queen.get("pos") else "queen_own"
        if kind is not None and kind in allowed:
            return kind
        return "swap"
    if "draw" not in allowed and view.get("turn") == me and phase in ("play", "last_turns") \
            and view.get("start_in"):
        return "soon"                            # my turn, the deck answers once R10.1's wait ends
    if "draw" in allowed:
        return "extra_draw" if view.get("pending_draws") else "draw"
    if phase == "last_turns":
        return "called" if view.get("caller") == me else "last_turns"
    if phase == "play" and view.get("caller") is None and window_missed(view, log):
        return "missed"                          # the window closed: nobody called
    return "wait"
