"""The shape of an action, and the names that every part of Crisp shares (docs/protocol.md).

One home for: the three positions of a hand, the phases of a round, the sources of a draw,
and the schema of an action (its kind and the fields it may carry). The engine
(``crisp_core.game``), the room (``ui/worker/play.py``) and the scenario runner
(``crisp_core.scenario``) check an action's shape with :func:`check_shape`; the screens
(``ui/page/screens/render.py``, guests included) take the positions and phases from here.

Deliberately tiny and dependency-free: guests' pages run it on MicroPython, shipped alone
(tools/build.py puts this one file of ``crisp_core`` in the guest zip), so no imports,
no dataclasses, typing or enum here.
"""

#: A hand's positions, in hand order (R2.2: dealt left, center, right).
POSITIONS = ("left", "center", "right")
#: Where a draw comes from (R3.1, R10.3); "deck" is the default.
SOURCES = ("deck", "discard")
#: The phases of a round, in order (docs/scenarios.md "Output").
PHASES = ("peek", "play", "last_turns", "round_over", "game_over")
#: The phases in which turns are played (R3, R6.2).
PLAY_PHASES = ("play", "last_turns")
#: The phases after a round ends, when every hand is public (R6.2, R9.1).
END_PHASES = ("round_over", "game_over")
#: Time after a turn ends during which its player may still call crisp (R10.1), ms (the
#: engine's window, and the length of the bar that drains on that player's screen).
CALL_WINDOW_MS = 3000

#: Each action kind: (the fields it must carry, the fields it may carry) besides "do".
ACTIONS = {
    "ready": ((), ()),                                   # R2.4
    "draw": ((), ("from",)),                             # R3.1, R10.3
    "swap": (("pos",), ()),                              # R3.2
    "discard": ((), ()),                                 # R3.2, R4.2
    "jack": ((), ()),                                    # R4.4
    "queen": (("pos", "target", "target_pos"), ()),      # R4.5
    "king": ((), ()),                                    # R4.6
    "crisp": ((), ()),                                   # R6, R10.1
    "next_round": ((), ()),                              # after round_over (R2.1)
}


class ActionError(ValueError):
    """An action of the wrong shape; ``str(exc)`` says why in one short English line."""


def is_int(value):
    """True when ``value`` is an integer and not a bool (JSON's ``true`` is not a seat).

    The one such check of ``crisp_core``: the engine, the round check and the scenario
    runner take it from here."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_shape(action, players=None):
    """Check an action's shape and return it with its defaults filled in (a new dict).

    ``action``: a dict such as ``{"do": "draw", "from": "deck"}``. Checked: ``do`` is a
    known kind, every required field is there, no other field is, ``pos`` and
    ``target_pos`` are positions, ``from`` is a source, ``target`` is an integer (and, when
    ``players`` is given, a seat ``0 .. players-1``). Whether the action is legal now is
    the engine's question, not this one. Raises :class:`ActionError`.
    """
    if not isinstance(action, dict):
        raise ActionError("an action must be an object")
    kind = action.get("do")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise ActionError("unknown action")
    required, optional = ACTIONS[kind]
    for key in action:
        if key != "do" and key not in required and key not in optional:
            raise ActionError("field %s does not belong to %s" % (str(key)[:40], kind))
    for key in required:
        if key not in action:
            raise ActionError("%s needs %s" % (kind, key))
    out = dict(action)
    if kind == "draw":
        out["from"] = action.get("from", "deck")
        if out["from"] not in SOURCES:
            raise ActionError("from must be deck or discard")
    for key in ("pos", "target_pos"):
        if key in action and action[key] not in POSITIONS:
            raise ActionError("%s must be left, center or right" % key)
    if "target" in action:
        target = action["target"]
        if not is_int(target):
            raise ActionError("target must be a seat number")
        if players is not None and not 0 <= target < players:
            raise ActionError("target must be a seat at this table")
    return out
