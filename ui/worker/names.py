"""Players' names as the room keeps them: cleaned (`clean_name`), compared case-folded
(`name_key`), the bots' names (a face and a first name, `bot_name`; the old form "Bot 3"
kept for bots) (docs/protocol.md "Room
messages", `join`). Room-only (the engine worker's Pyodide); pure Python.
"""

import unicodedata

from crisp_core import bot_names
from ui.shared.graphemes import ZWJ, cut_whole
from ui.shared.limits import NAME_MAX
from ui.shared.wire import BadMessage

MAX_NAME = NAME_MAX          # characters (ui/shared/limits.py: the screens' name field too)
MAX_MARKS = 3              # combining marks on one character of a name (Vietnamese needs 2)

# Code points that draw nothing but are not format characters (Cf): fillers and blanks that
# would make a name invisible, and the combining grapheme joiner.
INVISIBLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E,
                       0x180F, 0x2800, 0x3164, 0xFFA0])


def _is_emoji(ch):
    """A pictograph an emoji sequence joins (category So: \U0001F469, \u2764, ...)."""
    return unicodedata.category(ch) == "So"


def _emoji_before(chars):
    """True when `chars` ends with an emoji, maybe followed by its presentation selector
    (U+FE0F) or a skin tone (U+1F3FB..U+1F3FF): where a joiner may continue the sequence."""
    i = len(chars) - 1
    while i >= 0 and (chars[i] == "\ufe0f" or 0x1F3FB <= ord(chars[i]) <= 0x1F3FF):
        i -= 1
    return i >= 0 and _is_emoji(chars[i])


def clean_name(name):
    """A player's name as the room keeps and shows it (names are never trusted).

    `name`: what a `join` (or the host page) says. Returns it in NFC with: control, format
    (Cf), surrogate, private-use and unassigned characters dropped, but a zero-width joiner
    between two emoji (an emoji sequence such as a family); invisible fillers dropped; every
    run of whitespace one space, none at the ends; at most MAX_MARKS combining marks on one
    character; at most MAX_NAME (20) characters, cut only between whole characters
    (ui/shared/graphemes.py `cut_whole`). Raises BadMessage `bad_name` when it is not
    text or nothing visible is left.
    """
    if not isinstance(name, str):
        raise BadMessage("bad_name", "the name must be text")
    name = unicodedata.normalize("NFC", name[:MAX_NAME * 16])
    # a text ending in a joiner was cut inside an emoji sequence (the name field's maxlength
    # counts UTF-16 units): the part left of that sequence is not what was typed, it goes
    name = cut_whole(name, len(name))
    out = []
    marks = 0
    for i, ch in enumerate(name):
        kind = unicodedata.category(ch)
        if ch.isspace() or kind[0] == "Z":
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
        elif kind in ("Cc", "Cs", "Co", "Cn") or ord(ch) in INVISIBLE:
            continue
        elif kind == "Cf":
            if (ch == ZWJ and _emoji_before(out) and i + 1 < len(name)
                    and _is_emoji(name[i + 1])):
                out.append(ch)
        elif kind[0] == "M":
            # a mark on nothing (or on a space) is dropped; a tower of them is cut down
            if out and out[-1] not in (" ", ZWJ) and marks < MAX_MARKS:
                out.append(ch)
                marks += 1
        else:
            out.append(ch)
            marks = 0
    # a cut at 20 characters never leaves part of an emoji sequence or a letter's accents
    name = cut_whole(unicodedata.normalize("NFC", "".join(out)), MAX_NAME).strip(" " + ZWJ)
    if not any(not unicodedata.category(ch).startswith("M") and ch not in (" ", ZWJ)
               for ch in name):
        raise BadMessage("bad_name", "the name has nothing visible")
    return name


def name_key(name):
    """What two names are compared by: case-folded, NFKC (so "ANA", "ana" and "\uff21na"
    are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


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
