"""The last move's one line at a crowded table: which words it says.

At 5 seats or more a phone's status bar has one line of about 250 px for the last move; the
log's words for a swap, a Jack, a Queen or a King do not fit there with a long name, and the
line was cut with "...". There those moves are told in their short words ("lm_" keys, es/en)
and the names cut (statusbar.cut_name); the whole line is the line's title (a long press) and
stays in the log below.

Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

# the log's keys whose words are too long for a crowded table's line, and their short keys
# (a plural key gets its "_one"/"_other" after it, as ctx.tn adds)
SHORT_KEYS = {"ev_swap": "lm_swap", "ev_swap_you": "lm_swap_you", "ev_jack": "lm_jack",
              "ev_jack_you": "lm_jack_you", "ev_queen": "lm_queen",
              "ev_queen_you": "lm_queen_you", "ev_queen_on_you": "lm_queen_on_you",
              "ev_king": "lm_king", "ev_king_you": "lm_king_you"}

# seats from which a table is crowded: the page's crowded layout (two opponents a row,
# ui/page/screens/table.py), its status bar's shorter notes and this line's short words
CROWDED = 5
NAME_CHARS = 10      # characters of a name the short line shows (then "...")


def short_line(n):
    """True when a table of `n` seats tells its last move in the short words."""
    return isinstance(n, int) and n >= CROWDED


def line_key(key, short):
    """The i18n key for the log's `key` in the last move's line: its short "lm_" key when
    `short` and the key has one, else `key`."""
    if short and key in SHORT_KEYS:
        return SHORT_KEYS[key]
    return key


def say(ctx, key, short, count=None, **values):
    """The words of the log's text `key` (ctx: the page's context, its t/tn), in the short
    words of a crowded table's line when `short` (line_key); `count`: a plural's number
    (ctx.tn), None for a plain text; `values`: the text's placeholders."""
    if count is None:
        return ctx.t(line_key(key, short), **values)
    return ctx.tn(line_key(key, short), count, **values)
