"""Every text the player reads, in Spanish and English: the one catalogue of the page.

    t(lang, key, **values)        "{name}" placeholders filled with str.format
    tn(lang, key, how_many, **values)  plural: key + "_one" when how_many == 1, key + "_other" otherwise
    pick(navigator_language)      "es" for any Spanish locale, else "en"

The texts themselves are in parts by what they are about, each with both languages side by
side (ui/page/i18n/i18n_lobby.py, i18n_table.py, i18n_events.py, i18n_connection.py,
i18n_guided.py, i18n_rules.py, i18n_reactions.py, i18n_away.py); this module puts them
together in ``EN`` and ``ES`` and is the only lookup the screens use.

Player names are inserted into these strings, and the strings always become text nodes
(never HTML), so a name shows exactly as typed. Runs on MicroPython, Pyodide and CPython.
"""

from ui.page.i18n import (i18n_away, i18n_connection, i18n_events, i18n_guided, i18n_lobby,
                          i18n_reactions, i18n_rules, i18n_table)

LANGS = ("es", "en")
DEFAULT = "en"

PARTS = (i18n_lobby, i18n_table, i18n_events, i18n_connection, i18n_guided, i18n_rules,
         i18n_reactions, i18n_away)
EN = {}
ES = {}
for _part in PARTS:
    EN.update(_part.EN)
    ES.update(_part.ES)
CATALOG = {"en": EN, "es": ES}


def pick(language):
    """The page language for a navigator.language (or a stored choice) such as 'es-AR'."""
    lang = str(language or "").lower()
    for code in LANGS:
        if lang == code or lang.startswith(code + "-") or lang.startswith(code + "_"):
            return code
    return DEFAULT


def has(lang, key):
    """Whether ``lang``'s catalogue (English for an unknown language) has ``key``."""
    return key in CATALOG.get(lang, EN)


def t(lang, key, **values):
    """The text ``key`` in ``lang``, ``{name}`` placeholders filled from ``values``; English
    when ``lang`` lacks it, the key itself when no language has it; never raises (a value
    missing for a placeholder leaves the text unfilled)."""
    table = CATALOG.get(lang, EN)
    text = table.get(key)
    if text is None:
        text = EN.get(key, key)
    if values:
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def tn(lang, key, how_many, **values):
    """The plural text: ``key + "_one"`` when ``how_many`` is 1, ``key + "_other"`` else."""
    return t(lang, key + ("_one" if how_many == 1 else "_other"), **values)
