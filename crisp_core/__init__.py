"""Crisp's rules engine: pure standard-library Python, no I/O, no clock, no global randomness.

    from crisp_core import Game, IllegalAction, view_for, events_for

See ``docs/protocol.md`` for actions, events and views, and docs/rules.md for the rules cited as
``R4.5`` throughout.
"""

from .bots import LEVELS, Bot, think_ms
from .actions import END_PHASES, PHASES, PLAY_PHASES, POSITIONS, ActionError, check_shape
from .cards import CANONICAL, hand_points, is_card, value
from .game import Game, IllegalAction, normalize_options
from .views import allowed_for, events_for, shown_by, view_for

__all__ = [
    "Bot", "LEVELS", "think_ms",
    "ActionError", "END_PHASES", "PHASES", "PLAY_PHASES", "POSITIONS", "check_shape",
    "CANONICAL", "Game", "IllegalAction", "allowed_for", "events_for",
    "hand_points", "is_card", "normalize_options", "shown_by", "value", "view_for",
]
