"""A full table: the host and 7 guests, 8 browser contexts, play a whole round by taps; every
message each guest received stays under 16 KB (docs/protocol.md "Room messages").

Stacked deck, dealer Hana (0), dealt one card at a time from seat 1:
    left   Ac 2c 3c 4c 5c 6c 7c 8c   (seats 1..7, 0)
    center 9c Tc Ad 2d 3d 4d 5d 6d
    right  7d 8d 9d Td Ah 2h 3h 4h
then the draws 5h 6h 7h 8h 9h Th As 2s: seat 1 draws 5h, discards it and calls crisp; the
last turns (seats 2..7, 0) each draw and discard. Totals: 0: 18, 1: 17 (+5, not lowest,
R7.3), 2: 20, 3: 13, 4: 16, 5: 9, 6: 12, 7: 15.
"""

import json
import time

from crisp_rooms import join_room, no_errors, open_room
from crisp_e2e import T, live, sel, shows

DEALT = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Ah 2h 3h 4h".split()
DRAWS = "5h 6h 7h 8h 9h Th As 2s".split()
NAMES = ["Hana", "Ana", "Bea", "Cid", "Dani", "Eli", "Fer", "Gus"]
POINTS = {0: 18, 1: 22, 2: 20, 3: 13, 4: 16, 5: 9, 6: 12, 7: 15}


def test_eight_players_play_a_whole_round(new_phone):
    t0 = time.monotonic()
    host, link = open_room(new_phone, "Hana", "?deck=" + ",".join(DEALT + DRAWS))
    hp = host.page
    guests = []
    for seat in range(1, 8):
        guests.append(join_room(new_phone, link, NAMES[seat], seat, (hp,)))
    pages = [hp] + [g.page for g in guests]
    for p in pages:
        p.wait_for_selector(sel("player-7"), timeout=T)
    live(hp, "start-game")
    for p in pages:
        live(p, "ready")
    # seat 1: draw, discard, crisp (R6, R10.1: within 3 s)
    live(pages[1], "deck")
    shows(pages[1], "held-card", DRAWS[0])
    live(pages[1], "discard-held")
    live(pages[1], "crisp", timeout=2500)
    # the last turns, clockwise from the caller's left (R6.2)
    for k, seat in enumerate([2, 3, 4, 5, 6, 7, 0]):
        p = pages[seat]
        live(p, "deck")
        shows(p, "held-card", DRAWS[k + 1])
        live(p, "discard-held")
    for p in pages:
        p.wait_for_selector(sel("round-results"), timeout=T)
        for seat, total in POINTS.items():
            assert p.inner_text(sel("score-%d" % seat)).strip() == str(total), (p.url, seat)
    played = time.monotonic() - t0

    sizes = []
    for seat, g in enumerate(guests, 1):
        wire = g.page.evaluate("window.__crispWire")
        assert wire and any('"round_over"' in t for t in wire), seat
        for text in wire:
            size = len(text.encode("utf-8"))
            assert size < 16 * 1024, (seat, size, text[:200])
            sizes.append(size)
            assert json.loads(text)["v"] == 1
    print("8 players: a round in %.0f s; guests got %d messages, largest %d bytes"
          % (played, len(sizes), max(sizes)))
    no_errors(host, *guests)
