"""Players' names as the room keeps them: cleaned (`clean_name`), compared case-folded
(`name_key`), the bots' names (a face and a first name, `bot_name`; the old form "Bot 3"
kept for bots) (docs/protocol.md "Room
messages", `join`). Room-only (the engine worker's Pyodide); pure Python.
"""

import unicodedata

from crisp_core import bot_names
# the cleaning itself is shared: the host page cleans arriving names with it too
from ui.shared.cleanname import MAX_MARKS, MAX_NAME, clean_name  # noqa: F401
from ui.shared.wire import BadMessage

# Letters of other scripts (and Latin lookalikes) that read as a Latin letter in a name, as
# `name_key` sees them (case-folded, NFKC): a seat named "H\u0430na" (Cyrillic \u0430) beside
# "Hana" is one name read twice. The common ones only: Cyrillic and Greek letters whose
# small or capital form draws as a Latin one.
CONFUSABLES = {
    "\u0430": "a", "\u0432": "b", "\u0435": "e", "\u0451": "\u00eb", "\u043a": "k",
    "\u043c": "m", "\u043d": "h", "\u043e": "o", "\u0440": "p", "\u0441": "c",
    "\u0442": "t", "\u0443": "y", "\u0445": "x", "\u0455": "s", "\u0456": "i",
    "\u0457": "\u00ef", "\u0458": "j", "\u04bb": "h", "\u04cf": "l", "\u0501": "d",
    "\u051b": "q", "\u051d": "w", "\u0261": "g", "\u0251": "a", "\u0131": "i",
    "\u03b1": "a", "\u03b2": "b", "\u03b5": "e", "\u03b7": "h", "\u03b9": "i",
    "\u03ba": "k", "\u03bc": "m", "\u03bd": "n", "\u03bf": "o", "\u03c1": "p",
    "\u03c4": "t", "\u03c5": "y", "\u03c7": "x", "\u03b6": "z",
}


def name_key(name):
    """What two names are compared by: case-folded, NFKC (so "ANA", "ana" and "\uff21na"
    are one name), and each letter that reads as a Latin one taken as it (CONFUSABLES: a
    skeleton, so "H\u0430na" with a Cyrillic \u0430 is "Hana")."""
    key = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join([CONFUSABLES.get(ch, ch) for ch in key])


def bot_name(room):
    """The name of a bot about to take the room's next seat: a face and a first name in the
    room's language ("\U0001F98A Emma", crisp_core/bot_names.py), none of the table's."""
    return bot_names.bot_name(room.lang, len(room.seats), [s.name for s in room.seats])


def rename_bots(room):
    """After someone sat down: every bot whose name a person at the table now has (compared
    as `name_key`, and by the bot's first name) takes another; the others keep theirs.
    The person keeps the name they chose (crisp_core.bot_names.name_bots)."""
    bots = [s.name if s.bot is not None else None for s in room.seats]
    people = [s.name for s in room.seats if s.bot is None]
    for seat, name in zip(room.seats, bot_names.name_bots(room.lang, bots, people)):
        if name is not None:
            seat.name = name


def is_bot_name(name):
    """True for a name of the bots' old form ("Bot 3", "bot  12", any case: rooms saved
    before bots had first names still have them), which people may not take."""
    key = name_key(name)
    return key.startswith("bot") and key[3:].strip().isdigit()


def check_name(name):
    """`clean_name`, and no name a bot goes by (`Bot 3`): BadMessage `name_taken`."""
    name = clean_name(name)
    if is_bot_name(name):
        raise BadMessage("name_taken", "that name is taken by the bots: pick another one")
    return name
