"""Bots' faces: the emoji in front of a bot's first name ("🦊 Emma"), and a name split into
its face and the rest.

    FACES               one face per first name of crisp_core/bot_names.py (the same place)
    split_face(name)    ("🦊", "Emma") for "🦊 Emma"; ("", name) for any other name
    first_name(name)    a bot's name without its face

Kept apart from bot_names.py (which needs `unicodedata` to compare names) so that the page's
MicroPython can show a bot without its face where the browser has no colour-emoji font
(ui/page/screens/faces.py). Pure: no imports; runs on MicroPython, Pyodide and CPython.
"""

#: One face per name (the same place in the list): simple animal faces, no skin tones.
#: Each is one code point, drawn in colour by an emoji font and as an empty box without one.
FACES = ("\U0001F98A", "\U0001F43C", "\U0001F438", "\U0001F419", "\U0001F989", "\U0001F42F",
         "\U0001F428", "\U0001F427", "\U0001F435", "\U0001F981", "\U0001F430", "\U0001F43B")


def split_face(name):
    """`name` (text) as (face, rest): a bot's name "🦊 Emma" gives ("🦊", "Emma"), its face
    being one of FACES followed by one space; any other name (a person's, an old-style
    "Bot 2") gives ("", name) unchanged. Never raises: a non-text `name` gives ("", name)."""
    if isinstance(name, str):
        for face in FACES:
            if name.startswith(face + " "):
                return face, name[len(face) + 1:]
    return "", name


def first_name(name):
    """`name` without a bot's face in front ("🦊 Emma" -> "Emma"); any other name as it is
    (`split_face`)."""
    return split_face(name)[1]
