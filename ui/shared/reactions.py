"""Quick reactions: the fixed list a player picks from (docs/protocol.md "Quick reactions").

The wire carries an index into REACTIONS, never text: nothing a player sends is free text,
so there is nothing to moderate. An entry is a face drawn as an icon (ui/page/screens/icons.py
`react-<name>`: an SVG drawing, as every icon of the page, never an emoji character, which
a device without an emoji font shows as an empty box) or a set phrase; each has its words
in ui/page/i18n/i18n_reactions.py (`react_<name>`, es and en: a phrase's text, an icon's name).
The room lets each seat send BURST at once and PER_S a second after that
(ui/worker/reactions.py); every screen shows a reaction on its sender's seat for SHOW_MS.

MicroPython-compatible (every page reads it) and pure.
"""

from crisp_core.checks import is_int

ICONS = ("thumb", "laugh", "wow", "grimace")   # thumbs up, laughing, open mouth, grimace
PHRASES = ("nice", "hurry", "crisp", "gg")     # "Nice!", "Hurry up", "Crisp?!", "Good game"
REACTIONS = ICONS + PHRASES
SHOW_MS = 2000            # how long a reaction shows on its sender's seat
BURST = 3                 # reactions a seat may send at once ...
PER_S = 1                 # ... and a second after that


def is_reaction(x):
    """Whether `x` may be a reaction: an int index into REACTIONS (not a bool)."""
    return is_int(x) and 0 <= x < len(REACTIONS)


def is_icon(index):
    """Whether reaction `index` (is_reaction) is drawn as an icon; else it is a phrase."""
    return index < len(ICONS)


def words_key(index):
    """The i18n key of reaction `index`'s words (a phrase's text, an icon's name):
    "react_nice"."""
    return "react_" + REACTIONS[index]


def showing(received, now):
    """The reactions to show at `now` (ms): {seat: index} of `received` ({seat: {"r", "at"}},
    the Client's `reactions`) that came less than SHOW_MS ago."""
    out = {}
    for seat in received or {}:
        got = received[seat]
        if 0 <= now - got["at"] < SHOW_MS:
            out[seat] = got["r"]
    return out
