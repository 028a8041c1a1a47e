"""Where a text may be cut: only between whole characters as a reader sees them (a letter with
its accents, an emoji sequence, a flag). The room cuts players' names with it
(ui/worker/names.py), the screens cut a name that does not fit (ui/page/screens/statusbar.py
`cut_name`). Runs on either interpreter: MicroPython (the page) has no unicodedata, so there a
mark is one of MARKS' ranges (combining blocks, Hebrew, Arabic, Devanagari marks); the room's
names are NFC, so most accents are part of their letter anyway.
"""

try:
    import unicodedata
except ImportError:         # MicroPython
    unicodedata = None

ZWJ = "\u200d"
# The combining marks the page knows without unicodedata (inclusive ranges of code points; every
# assigned one in them is category M, tests/test_graphemes.py)
MARKS = ((0x0300, 0x036F), (0x0483, 0x0489), (0x0591, 0x05BD), (0x0610, 0x061A),
         (0x064B, 0x065F), (0x0670, 0x0670), (0x06D6, 0x06DC), (0x0900, 0x0903),
         (0x093A, 0x093C), (0x093E, 0x094F), (0x0951, 0x0957), (0x0962, 0x0963),
         (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF), (0x3099, 0x309A),
         (0xFE20, 0xFE2F))


def is_mark(ch):
    """True when `ch` (one character) is a combining mark (category M; on MicroPython, one of
    MARKS)."""
    if unicodedata is not None:
        return unicodedata.category(ch)[0] == "M"
    o = ord(ch)
    for low, high in MARKS:
        if low <= o <= high:
            return True
    return False


def _extends(ch):
    """True when `ch` belongs to the character before it: a combining mark (category M),
    a joiner, a variation selector, a skin tone, a tag character (a subdivision flag's)."""
    o = ord(ch)
    return (is_mark(ch) or ch == ZWJ or 0xFE00 <= o <= 0xFE0F
            or 0x1F3FB <= o <= 0x1F3FF or 0xE0020 <= o <= 0xE007F)


def _regional(ch):
    """True for a regional indicator: half a flag (U+1F1E6..U+1F1FF)."""
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


# Characters about twice a letter's width (East Asian wide and fullwidth forms, emoji):
# inclusive ranges of code points
WIDE = ((0x1100, 0x115F), (0x2E80, 0x303E), (0x3041, 0x33FF), (0x3400, 0x4DBF),
        (0x4E00, 0x9FFF), (0xA000, 0xA4CF), (0xAC00, 0xD7A3), (0xF900, 0xFAFF),
        (0xFE30, 0xFE4F), (0xFF00, 0xFF60), (0xFFE0, 0xFFE6), (0x1F300, 0x1F64F),
        (0x1F680, 0x1F6FF), (0x1F900, 0x1F9FF), (0x20000, 0x3FFFD))


def char_units(ch, before=""):
    """How wide `ch` (one character, after `before`: the one before it, or "") reads, in
    letters: 0 for what joins the character before it (a mark, a joiner, a selector, a skin
    tone) and for what a joiner joins to it (an emoji sequence is one picture), 2 for a wide
    or fullwidth character or an emoji (WIDE), 1.5 for "W" (the widest Latin letter), else 1."""
    if _extends(ch) or before == ZWJ:
        return 0
    o = ord(ch)
    for low, high in WIDE:
        if low <= o <= high:
            return 2
    return 1.5 if ch == "W" else 1


def width_units(text):
    """`text`'s width in letters (the sum of char_units): what a cut to a width counts."""
    total = 0
    before = ""
    for ch in text:
        total += char_units(ch, before)
        before = ch
    return total


def prefix_within(text, units):
    """How many code points of `text`'s start fit in `units` letters (char_units), what
    joins the last of them included: an int for cut_whole."""
    used = n = 0
    before = ""
    for ch in text:
        used += char_units(ch, before)
        if used > units:
            break
        n += 1
        before = ch
    return n


def cut_whole(text, limit):
    """`text` (str) cut to at most `limit` code points, only where no character a reader sees
    as one is split: not before a mark, selector or skin tone, not after a joiner, not between
    a flag's two halves. Five joined families cut at 20 keep two whole families, never a third
    turned into a smaller one. A text that ends in a joiner was cut mid-sequence before it came
    (a browser's maxlength counts UTF-16 units): a sequence of two or more emoji left
    there is dropped whole (one emoji left before the joiner is kept, its joiner goes later)."""
    i = min(len(text), limit)
    while 0 < i < len(text) and (_extends(text[i]) or text[i - 1] == ZWJ):
        i -= 1
    if 0 < i < len(text) and _regional(text[i]) and _regional(text[i - 1]):
        start = i
        while start > 0 and _regional(text[start - 1]):
            start -= 1
        i -= (i - start) % 2
    text = text[:i]
    if text.endswith(ZWJ):
        j = len(text) - 1
        while j > 0 and (text[j - 1] == ZWJ or _extends(text[j])):
            j -= 1
        if ZWJ in text[j:-1]:      # two or more emoji joined: a different one if kept
            text = text[:j]
    return text
