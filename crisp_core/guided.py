"""The guided first round's deal: a stacked deck in which every step of a round happens.

The guided round (the landing's offer to a first-time visitor, ui/page/guided.py) is a solo
game of three seats: the player at seat 0, who deals (R2.1), and two easy bots at seats 1
and 2. Its deck comes in through the room's stacked-deck input (`Game.new(deck=...)`, the
engine's `create` request's `deck`): the cards below on top, the rest in canonical order.

What the stack makes happen, if the player does what the hints say (R-numbers: docs/rules.md):

- the peek (R2.4): a high left card (9h) and a low right card (4c) to remember; the center
  (8d) stays unseen;
- turn 1: the player draws Ah, a low card worth swapping in for the 9 (R3.2);
- turn 2: a Jack (R4.4): a look at the center card;
- turn 3: a Queen (R4.5): an exchange with a bot;
- turn 4: a King (R4.6), then two extra draws, 2d and 3h, low cards to swap in;
- then the crisp window (R10.1) with a hand low enough to win the call (R7.2), the bots'
  last turns (R6.2) and the reveal.

The bots are dealt high cards and draw only 7s to 10s between the player's turns, so they
draw exactly one card a turn (no King: the player's draws stay where the stack puts them),
never play a Jack, Queen or King, and an easy bot never thinks its hand low enough to call
(crisp_core/bots.py EASY_CRISP). Whatever the player does instead, the round goes on by
the rules: the hints follow the view, not this plan.
"""

from .cards import stacked_deck

PLAYERS = 3                 # the player (seat 0, the dealer) and two bots
HANDS = (("9h", "8d", "4c"),          # seat 0, the player: [left, center, right]
         ("Td", "9s", "Tc"),          # seat 1
         ("9d", "Th", "8s"))          # seat 2
#: Each turn's draws in turn order from seat 1 (the dealer's left, R2.5): (seat, cards).
DRAWS = ((1, ("7s",)), (2, ("8c",)), (0, ("Ah",)),
         (1, ("9c",)), (2, ("7h",)), (0, ("Jd",)),
         (1, ("8h",)), (2, ("7d",)), (0, ("Qs",)),
         (1, ("Ts",)), (2, ("7c",)), (0, ("Kc", "2d", "3h")),
         (1, ("6s",)), (2, ("6h",)))           # the bots' last turns after the player's call


def deck():
    """The guided round's stacked deck: a list of card codes, top first (the deal, R2.2: one
    card at a time from seat 1, three times round; then each turn's draws). Raises nothing;
    `crisp_core.cards.stacked_deck` accepts it (distinct cards)."""
    out = []
    for index in range(3):                       # R2.2: left, center, right passes
        for k in range(1, PLAYERS + 1):
            out.append(HANDS[k % PLAYERS][index])
    for _seat, cards in DRAWS:
        out.extend(cards)
    stacked_deck(out)                            # validates: distinct card codes
    return out
