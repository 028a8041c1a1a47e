"""Card faces for the screens: how a card code (poker notation, R1.2) is shown.

What a card is and is worth comes from the engine's crisp_core/cards.py (`is_card`, `value`,
R1.2, R1.3), which every page has: imported as `crisp_core.cards`, so a guest's MicroPython
loads that one small file, not the engine (its zip has no crisp_core/__init__.py). Pure and
tiny so it runs on MicroPython (guests), Pyodide (host) and CPython (tests).
"""

from crisp_core.cards import is_card, value     # (the screens use them from here)

SUITS = {
    "c": ("\u2663", "black"),   # clubs
    "d": ("\u2666", "red"),     # diamonds
    "h": ("\u2665", "red"),     # hearts
    "s": ("\u2660", "black"),   # spades
}
RANKS = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}


def rank_label(code):
    """'T' is shown as 10, the rest as they are."""
    return RANKS.get(code[0], code[0])


def suit_symbol(code):
    return SUITS[code[1]][0]


def color(code):
    return SUITS[code[1]][1]


def label(code):
    """Short text for the event log and status line: 7♥, 10♠, Q♦."""
    if not is_card(code):
        return "?"
    return rank_label(code) + suit_symbol(code)


