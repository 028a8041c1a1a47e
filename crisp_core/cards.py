"""Cards and decks (docs/rules.md R1, R2.2).

Cards are poker-notation strings: a rank from ``A23456789TJQK`` and a suit from ``cdhs``
(``"Ah"``, ``"Tc"``). A deck is a list of cards, top card first.
"""

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SPECIAL_RANKS = "JQK"

#: The 52 cards in canonical order: suits c d h s, each A 2 ... 9 T J Q K (docs/scenarios.md).
CANONICAL = tuple(rank + suit for suit in SUITS for rank in RANKS)
_CARD_SET = frozenset(CANONICAL)


def is_card(code):
    """Return True when ``code`` is a string naming one of the 52 cards (R1.2)."""
    return isinstance(code, str) and code in _CARD_SET


def value(card):
    """Points of a card in a hand (R1.3): Ace 1, 2-9 face value, T/J/Q/K 10.

    ``card`` is a card code; raises ``ValueError`` for anything else.
    """
    if not is_card(card):
        raise ValueError("not a card: %r" % (card,))
    rank = card[0]
    if rank == "A":
        return 1
    if rank in "TJQK":
        return 10
    return int(rank)


def is_special(card):
    """True for a Jack, Queen or King (R4)."""
    return card[0] in SPECIAL_RANKS


def stacked_deck(top):
    """A full deck whose first cards are ``top`` (top first), the rest in canonical order.

    ``top`` is a list of distinct card codes; raises ``ValueError`` for an unknown or
    repeated card (docs/scenarios.md ``deck``).
    """
    seen = set()
    for card in top:
        if not is_card(card):
            raise ValueError("not a card: %r" % (card,))
        if card in seen:
            raise ValueError("card appears twice: %s" % card)
        seen.add(card)
    return list(top) + [card for card in CANONICAL if card not in seen]


def hand_points(hand):
    """Total of a hand of three cards (R7.1)."""
    return sum(value(card) for card in hand)
