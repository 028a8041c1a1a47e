"""The room's limits, in one place for the room and the screens: ui/worker/room.py (the host's
engine worker, Pyodide) enforces them, the screens (every page, MicroPython) respect them
(the name field's maxlength, the lobby's seat count). Plain numbers: runs on either
interpreter; imports nothing, so a guest page loads it at no cost.
"""

NAME_MAX = 20       # characters of a player's name, after cleaning (docs/protocol.md `join`)
MAX_PLAYERS = 8     # seats at a table, bots included (the engine's `players`: 2 to 8)
BOT_LEVELS = ("easy", "hard", "expert")    # the levels a room's bots and stand-ins take
