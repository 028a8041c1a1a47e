"""Bots' names: a plain first name per language and a face, never a person's name at the table.

A bot is shown as its face and its first name ("🦊 Emma", "🐼 Mateo"), a name like a
player's so that the seats, the lobby, the events and the results read like a table of
people. The names are ordinary first names (nobody in particular); none is a card's name
(Jack, King, Queen would read as the cards).

    bot_name(lang, seat, taken)      the name for a new bot at `seat`
    name_bots(lang, bots, people)    every bot's name again, so that none collides
    first_name(name)                 a bot's name without its face (crisp_core/bot_faces.py)

Pure standard library (the room's engine uses it; CPython tests check it).
"""

import unicodedata

# FACES and first_name live in bot_faces.py (no unicodedata: the page uses them too); re-exported
# here for the room, the engine and the tests that import them from bot_names.
from crisp_core.bot_faces import FACES, first_name  # noqa: F401 (re-exported)

NAMES = {
    "en": ("Emma", "Oliver", "Lily", "Noah", "Grace", "Henry", "Ruby", "Oscar", "Ella", "Max",
           "Daisy", "Felix"),
    "es": ("Luc\u00eda", "Mateo", "Sof\u00eda", "Pablo", "Carmen", "Diego", "Elena", "Hugo",
           "Marta", "Javier", "Alba", "Bruno"),
}
DEFAULT_LANG = "en"


def _key(name):
    """What two names are compared by (as the room compares players' names: case-folded,
    NFKC, so "EMMA" and "emma" are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def _keys(name):
    """The keys a name takes up: the whole name's and its first name's."""
    return {_key(name), _key(first_name(name))}


def _names(lang):
    return NAMES.get(lang, NAMES[DEFAULT_LANG])


def bot_name(lang, seat, taken=()):
    """The name of a new bot at `seat` (an int >= 0) in language `lang` ("es", "en"; any
    other: English): its face, a space and a first name ("🦊 Emma"). `taken`: the names
    already at the table (people's and bots'); the name returned collides with none of
    them, compared case-folded and also by their first names (a person called "emma"
    takes "🦊 Emma"). The list is walked from the seat's own place, so each seat has its
    usual name; when every name is taken, a number is added ("🦊 Emma 2")."""
    names = _names(lang)
    used = set()
    for name in taken:
        used |= _keys(name)
    start = (seat - 1) % len(names) if isinstance(seat, int) and seat > 0 else 0
    for round_ in range(1, 100):
        for step in range(len(names)):
            i = (start + step) % len(names)
            first = names[i] if round_ == 1 else "%s %d" % (names[i], round_)
            if _key(first) not in used:
                return FACES[i % len(FACES)] + " " + first
    raise ValueError("no free name")           # (never: 9 seats at most)


def name_bots(lang, bots, people):
    """Every seat's bot name once the people at the table are `people` (their names).

    `bots`: one entry per seat, in seat order: the bot's current name, or None for a
    person's seat. Returns a list as long: None for people, for each bot its current name
    when that collides with no person and no earlier bot (so names stay put), else a new
    one (`bot_name`). A bot's old-style name ("Bot 2", saved by an older version) is kept
    the same way."""
    used = set()
    for name in people:
        used |= _keys(name)
    out = []
    for current in bots:                     # first the names that stay
        keep = current is not None and not (_keys(current) & used)
        out.append(current if keep else None)
        if keep:
            used |= _keys(current)
    taken = list(people) + [name for name in out if name is not None]
    for seat, current in enumerate(bots):    # then new names for those that collided
        if current is not None and out[seat] is None:
            out[seat] = bot_name(lang, seat, taken)
            taken.append(out[seat])
    return out
