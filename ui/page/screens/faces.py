"""Bots' faces on this page: shown where the browser draws colour emoji, left out where it has
no colour-emoji font (a bot read "▯ Lucía", an empty box for its face).

boot.js draws one face (the fox) on a small canvas at the page's start and puts what it saw
on `<html data-faces="colour|none">`; the page reads it once (`mode`, ui/page/screens/render.py) into
the render's Ctx (`ctx.faces`). Where faces are "none" a bot is shown by its first name
(`shown_name`: the event log, the announcements, the table's seats) and, where its face would
be, the SVG robot (`mark`: the lobby, the results, the podium, the tally). Where "colour":
as the room names it ("🦊 Emma"). Pure: runs on MicroPython, Pyodide and CPython.
"""

from crisp_core.bot_faces import first_name
from ui.page.screens.icons import icon

COLOUR = "colour"       # the browser draws colour emoji: bots' faces shown
NONE = "none"           # it does not (a box or nothing): faces left out, the robot instead


def mode(flag):
    """The faces mode from boot.js's flag (the text of `<html data-faces>`, or None when the
    attribute is missing): COLOUR for "colour", NONE for anything else (missing, empty,
    unknown): without a sure colour drawing a face could be an empty box, and a first name
    is always readable."""
    return COLOUR if flag == COLOUR else NONE


def shown_name(name, faces):
    """`name` (a seat's name as the room has it) as this page shows it: without a bot's face
    ("🦊 Emma" -> "Emma", crisp_core/bot_faces.py) when `faces` is NONE, as it is when
    COLOUR. A name without a face (a person's) is the same in both modes."""
    return first_name(name) if faces == NONE else name


def mark(ctx, bot):
    """What stands where a bot's face would be, before its name: the robot icon (icons.py
    "bot", aria-hidden: the name and the bot badge say who it is) when `ctx.faces` is NONE
    and the seat is a bot's (`bot` truthy: its level); None otherwise (COLOUR: the face is in
    the name itself; a person has no face)."""
    if bot and getattr(ctx, "faces", COLOUR) == NONE:
        return icon("bot", "face")
    return None
