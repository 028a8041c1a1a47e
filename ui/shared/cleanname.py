"""A player's name as the room keeps it (`clean_name`, docs/protocol.md `join`), on either
interpreter: the room (the engine worker's Pyodide) reads Unicode categories from
unicodedata; the host page (MicroPython, which has none) cleans the names of friends it shows
arriving while its engine starts with the same function, its categories from the small tables
below (every code point in them is of that category: tests/test_attacks_succession.py), and
no NFC (the room makes it NFC once it runs). Names are never trusted.
"""

try:
    import unicodedata
except ImportError:         # MicroPython
    unicodedata = None

from ui.shared.graphemes import ZWJ, cut_whole, is_mark
from ui.shared.limits import NAME_MAX
from ui.shared.wire import BadMessage

MAX_NAME = NAME_MAX          # characters (ui/shared/limits.py: the screens' name field too)
MAX_MARKS = 3              # combining marks on one character of a name (Vietnamese needs 2)

# Code points that draw nothing but are not format characters (Cf): fillers and blanks that
# would make a name invisible, and the combining grapheme joiner.
INVISIBLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E,
                       0x180F, 0x2800, 0x3164, 0xFFA0])

# Without unicodedata: the format characters (Cf) a name may carry to hide or turn text (soft
# hyphen, Arabic marks, zero-widths, joiners, bidi embeddings, overrides and isolates, word
# joiner, invisible operators, BOM, annotation marks, tags), the spaces (Z), and pictographs
# (So, a few Sm: where a joiner may join an emoji sequence); inclusive ranges.
FORMAT = ((0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
          (0x070F, 0x070F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064),
          (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD),
          (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F))
SPACES = ((0x0020, 0x0020), (0x00A0, 0x00A0), (0x1680, 0x1680), (0x2000, 0x200A),
          (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000))
PICTOGRAPHS = ((0x2600, 0x26FF), (0x2700, 0x2767), (0x1F300, 0x1F3FA), (0x1F400, 0x1F64F),
               (0x1F680, 0x1F6FF), (0x1F900, 0x1F9FF))


def _within(o, ranges):
    for low, high in ranges:
        if low <= o <= high:
            return True
    return False


def category(ch):
    """`ch`'s Unicode general category (two letters: "Lu", "Cf", ...): unicodedata's, or on
    MicroPython what the tables know ("Cc", "Cs", "Co", "Cf", "Zs", "Mn", "So"; any other
    character reads as a letter, "Lo")."""
    if unicodedata is not None:
        return unicodedata.category(ch)
    o = ord(ch)
    if o < 0x20 or 0x7F <= o <= 0x9F:
        return "Cc"
    if 0xD800 <= o <= 0xDFFF:
        return "Cs"
    if 0xE000 <= o <= 0xF8FF or o >= 0xF0000:
        return "Co"
    if _within(o, FORMAT):
        return "Cf"
    if _within(o, SPACES):
        return "Zs"
    if is_mark(ch):
        return "Mn"
    if _within(o, PICTOGRAPHS):
        return "So"
    return "Lo"


def _nfc(text):
    return unicodedata.normalize("NFC", text) if unicodedata is not None else text


def _is_emoji(ch):
    """A pictograph an emoji sequence joins (category So: \U0001F469, \u2764, ...)."""
    return category(ch) == "So"


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
    name = _nfc(name[:MAX_NAME * 16])
    # a text ending in a joiner was cut inside an emoji sequence (the name field's maxlength
    # counts UTF-16 units): the part left of that sequence is not what was typed, it goes
    name = cut_whole(name, len(name))
    out = []
    marks = 0
    for i, ch in enumerate(name):
        kind = category(ch)
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
    name = cut_whole(_nfc("".join(out)), MAX_NAME).strip(" " + ZWJ)
    if not any(not category(ch).startswith("M") and ch not in (" ", ZWJ) for ch in name):
        raise BadMessage("bad_name", "the name has nothing visible")
    return name
