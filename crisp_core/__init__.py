"""Crisp's rules engine: pure standard-library Python, no I/O, no clock, no global randomness.

    from crisp_core import Game, IllegalAction, view_for, events_for

See ``docs/protocol.md`` for actions, events and views, and docs/rules.md for the rules cited as
``R4.5`` throughout. The engine, the portable shuffle (``crisp_core.shuffle``) and the round
check (``crisp_core.verify``) also run on MicroPython (guests' pages); the bots
(``crisp_core.bots``: ``Bot``, ``LEVELS``, ``think_ms``) need CPython's ``random.Random`` and
are imported only when asked for.
"""

from . import shuffle
from .actions import END_PHASES, PHASES, PLAY_PHASES, POSITIONS, ActionError, check_shape
from .cards import CANONICAL, hand_points, is_card, value
from .game import Game, IllegalAction, normalize_options
from .views import allowed_for, events_for, public_events, shown_by, spectator_view, view_for

_BOT_NAMES = ("Bot", "LEVELS", "think_ms")

__all__ = [
    "Bot", "LEVELS", "think_ms", "shuffle",
    "ActionError", "END_PHASES", "PHASES", "PLAY_PHASES", "POSITIONS", "check_shape",
    "CANONICAL", "Game", "IllegalAction", "allowed_for", "events_for",
    "hand_points", "is_card", "normalize_options", "public_events", "shown_by",
    "spectator_view", "value", "view_for",
]


def __getattr__(name):
    """``from crisp_core import Bot`` (and ``LEVELS``, ``think_ms``): the bots, loaded on
    first use (PEP 562) so that importing the engine never pulls in ``random``. (MicroPython
    then finds no submodule by ``from crisp_core import verify``: use ``import
    crisp_core.verify as verify`` there.)"""
    if name in _BOT_NAMES:
        from . import bots
        return getattr(bots, name)
    raise AttributeError("module 'crisp_core' has no attribute %r" % name)
