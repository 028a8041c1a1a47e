"""The arithmetic of a bot's guesses: distributions of card values and of hand totals.

A distribution is a list of 11 probabilities indexed by points (index 0 unused for a card:
Ace 1 ... 9, and 10 for a Ten, Jack, Queen or King, R1.3); a total's distribution is indexed
by its points. ``crisp_core.bots`` builds its estimates from these; they know nothing of a
game or a seat. CPython only, like the bots (tools/pyzip.py GUEST_CORE_EXCLUDED).
"""

from .cards import value

#: The average card of a full deck, Ace 1 ... J/Q/K 10 (R1.3).
NAIVE_MEAN = 85.0 / 13


def point(points):
    """The distribution of a card known to be worth ``points`` (clamped to 1..10)."""
    dist = [0.0] * 11
    dist[max(1, min(10, int(points)))] = 1.0
    return dist


def point_mean(mean):
    """A two-point distribution with the given mean (easy bots' naive guess)."""
    low = int(mean)
    dist = [0.0] * 11
    dist[low] = 1.0 - (mean - low)
    dist[low + 1] = mean - low
    return dist


def mean(dist):
    """The expected points of ``dist``."""
    return sum(v * p for v, p in enumerate(dist))


def value_dist(pool):
    """The value distribution (index 1..10) of a card drawn from ``pool`` (counts by rank,
    ``{"A": 4, "T": 3, ...}``); a full deck's when ``pool`` is empty."""
    dist = [0.0] * 11
    count_all = 0
    for rank, count in pool.items():
        dist[value(rank + "c")] += count
        count_all += count
    if count_all == 0:
        dist = [0.0] + [1.0] * 9 + [4.0]
        count_all = 13
    return [weight / count_all for weight in dist]


def total(dists):
    """The distribution of the sum of independent card values."""
    offset = 0
    spread = []
    for dist in dists:
        if 1.0 in dist:
            offset += dist.index(1.0)  # a known card only shifts the total
        else:
            spread.append(dist)
    out = [0.0] * offset + [1.0]
    for dist in spread:
        nxt = [0.0] * (len(out) + len(dist) - 1)
        for a, pa in enumerate(out):
            if pa:
                for b, pb in enumerate(dist):
                    if pb:
                        nxt[a + b] += pa * pb
        out = nxt
    return out


def survival(dist):
    """``s[t]`` = P(total > t), for a total's distribution ``dist``."""
    out = [0.0] * len(dist)
    running = 0.0
    for t in range(len(dist) - 1, -1, -1):
        out[t] = running
        running += dist[t]
    return out


def min_dist(card, draw):
    """The distribution of min(card, drawn card), a drawn special leaving the card (R4.1).

    ``card``: the card's distribution; ``draw``: the chance of drawing each normal value
    (summing to less than 1 by the chance of a Jack, Queen or King)."""
    keep = 1.0 - sum(draw)
    out = [0.0] * 11
    card_above = 1.0          # P(card >= v)
    draw_above = 1.0 - keep   # P(a normal card >= v is drawn)
    for v in range(1, 11):
        # P(min = v) = P(min >= v) - P(min >= v + 1)
        at_least = card_above * (draw_above + keep)
        card_above -= card[v]
        draw_above -= draw[v]
        out[v] = at_least - card_above * (draw_above + keep)
    return out
