"""Card faces for the screens: how a card code (poker notation, R1.2) is shown.

Pure and tiny so it runs on MicroPython (guests), Pyodide (host) and CPython (tests).
"""

SUITS = {
    "c": ("\u2663", "black"),   # clubs
    "d": ("\u2666", "red"),     # diamonds
    "h": ("\u2665", "red"),     # hearts
    "s": ("\u2660", "black"),   # spades
}
RANKS = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}
VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def is_card(code):
    return (isinstance(code, str) and len(code) == 2
            and code[0] in "A23456789TJQK" and code[1] in SUITS)


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


def value(code):
    """R1.3: Ace 1, 2-9 face value, 10/J/Q/K 10."""
    r = code[0]
    if r in VALUES:
        return VALUES[r]
    return int(r)


def special(code):
    """'jack', 'queen', 'king' or None."""
    return {"J": "jack", "Q": "queen", "K": "king"}.get(code[0]) if is_card(code) else None
