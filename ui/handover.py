"""Who hosts next when the host is gone, decided the same way on every page (issue 10, item 3;
docs/protocol.md "Host handover: the sealed room"). Pure and MicroPython-compatible: every
page runs it on what it last heard from the room, with nothing to tap or type.

- `successor(players, host)`: the lowest seat of a human player, other than the old host,
  connected in the last players list the room sent: every page got that same list, so every
  page names the same seat.
- `can_continue(players, host)`: the round in play can go on exactly where it stopped only
  if at least two human players remain (the sealed room opens with two players' shares,
  ui/seal.py); with one, the interrupted round is dealt again and finished rounds' scores
  stand.
- `room_id_after(room_id, epoch)`: the PeerJS id the room moves to on its `epoch`-th handover
  (the old id may stay reserved for the old host's token for minutes on our LAN signaling
  server); a peer that squats it first cannot pass the seat proof (docs/protocol.md).
- The successor proves itself before anyone hands it a share: the old host gives each
  holder g, with its share, `successor_key(token_s, room_id, g)` for every other holder s
  (from s's seat token, which g does not know). The page of s derives the same key from its
  own token; `successor_mac` over both nonces and g's PeerJS id then proves to g that the
  peer at the new room id is seat s, and g alone can check it (the key differs for every g:
  knowing it lets g pose as s to nobody but itself). A stranger at the new id gets no share.
"""

import hashlib
import hmac

MAX_EPOCH = 99


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


def room_id_after(room_id, epoch):
    """The room's PeerJS id after its `epoch`-th handover (1, 2, ...): `<room id>-h<epoch>`.
    Raises ValueError for an epoch outside 1..MAX_EPOCH."""
    if not _is_seat(epoch) or not 1 <= epoch <= MAX_EPOCH:
        raise ValueError("epoch must be 1 to %d" % MAX_EPOCH)
    base = room_id
    cut = base.rfind("-h")
    if cut > 0 and base[cut + 2:].isdigit():
        base = base[:cut]
    return base + "-h" + str(epoch)


def _mac(key, *fields):
    text = "".join([str(len(f)) + ":" + f + ";" for f in fields])
    return hmac.new(key.encode("utf-8"), text.encode("utf-8"), hashlib.sha256).hexdigest()


def successor_key(token, room_id, holder):
    """The key (64 hex) with which seat `token`'s page proves to holder seat `holder` that it
    is the successor: from that seat's token (its page derives it; the old host gives it to
    `holder` with its share)."""
    return _mac(token, "crisp-successor-key", room_id, str(holder))


def successor_mac(key, room_id, seat, holder_peer, holder_nonce, host_nonce):
    """The successor's proof (64 hex) to a holder: keyed by `successor_key`, over the room id,
    the successor's seat, the holder's PeerJS id and both nonces (32 hex each), so that it
    serves for no other exchange, holder or peer."""
    return _mac(key, "crisp-successor-proof", room_id, str(seat), holder_peer, holder_nonce,
                host_nonce)
