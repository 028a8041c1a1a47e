"""Who hosts next, by the rule every page applies to the last players list the room sent
(docs/protocol.md "Host handover"), and whether the round can go on after it. Pure and
MicroPython-compatible, and free of the wire, so that the screens name the next host with the
same code as the handover itself (ui/shared/handover.py, which re-exports these).
"""


def _is_seat(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def humans(players, host):
    """The seats of the human players other than `host` that were connected, in seat order.
    `players`: the room's players list ([{seat, name, connected, bot}]); anything malformed
    is skipped."""
    seats = []
    for p in players or []:
        if not isinstance(p, dict):
            continue
        seat = p.get("seat")
        if not _is_seat(seat) or seat == host or p.get("bot") or p.get("connected") is not True:
            continue
        if seat not in seats:
            seats.append(seat)
    seats.sort()
    return seats


def successor(players, host=0):
    """The seat that hosts next: the lowest connected human seat other than `host`, or None
    when there is none (nobody left to host: the game ends)."""
    seats = humans(players, host)
    return seats[0] if seats else None


def can_continue(players, host=0):
    """True when the round in play can go on where it stopped after the handover (at least
    two human players remain to open the sealed room); False: it is dealt again."""
    return len(humans(players, host)) >= 2
