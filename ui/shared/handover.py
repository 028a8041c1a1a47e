"""Who hosts next when the host is gone, decided the same way on every page (docs/protocol.md
"Host handover"). Pure and MicroPython-compatible: every
page runs it on what it last heard from the room, with nothing to tap or type.

- `successor(players, host)`: the lowest seat of a human player, other than the old host,
  connected in the last players list the room sent: every page got that same list, so every
  page names the same seat.
- `can_continue(players, host)`: the round in play can go on exactly where it stopped only
  if at least two human players remain (the sealed room opens with two players' shares,
  ui/shared/seal.py); with one, the interrupted round is dealt again and finished rounds' scores
  stand.
- `room_id_after(room_id, epoch, secret)`: the PeerJS id the room moves to on its
  `epoch`-th handover (the old id may stay reserved for the old host's token for minutes on
  our LAN signaling server), derived with the room's succession secret, which only seated
  people get (`welcome`): a stranger with the link cannot name it to squat it first, and a
  peer that squats it anyway cannot pass the seat proof (docs/protocol.md).
- The successor proves itself before anyone hands it a share: the old host gives each
  holder g, with its share, `successor_key(token_s, room_id, g)` for every other holder s
  (from s's seat token, which g does not know). The page of s derives the same key from its
  own token; `successor_mac` over both nonces and g's PeerJS id then proves to g that the
  peer at the new room id is seat s, and g alone can check it (the key differs for every g:
  knowing it lets g pose as s to nobody but itself). A stranger at the new id gets no share.
"""

import hashlib
import hmac

from crisp_core.checks import is_hex, same
from ui.shared import wire
from ui.shared.successor import _is_seat, can_continue, humans, successor  # noqa: F401 (theirs)

MAX_EPOCH = 99


SECRET_HEX = 32       # the room's succession secret: 16 random bytes, as hex
TAG_HEX = 20          # the unguessable part of a next id: 80 bits of an HMAC


def is_secret(secret):
    """True when `secret` is a succession secret: SECRET_HEX lowercase hex digits."""
    return is_hex(secret, SECRET_HEX)


def _split(room_id):
    """(base id, epoch) of a room id: `<base>-h<k>-<tag>` -> (base, k); any other -> (id, 0)."""
    if not isinstance(room_id, str):
        return room_id, 0
    parts = room_id.split("-")
    if len(parts) >= 3:
        mark, tag = parts[-2], parts[-1]
        if (len(mark) >= 2 and mark[0] == "h" and mark[1:].isdigit()
                and is_hex(tag, TAG_HEX)):
            return "-".join(parts[:-2]), int(mark[1:])
    return room_id, 0


def room_id_after(room_id, epoch, secret):
    """The room's PeerJS id after its `epoch`-th handover (1, 2, ...):
    `<base id>-h<epoch>-<tag>`, the tag TAG_HEX hex digits of an HMAC keyed by the room's
    succession `secret` (SECRET_HEX hex: the room sends it in `welcome` to seated people
    only) over the base id and the epoch. Whoever knows only the room id (the link, a
    spectator) cannot name it, so cannot squat it first. Raises ValueError for an epoch
    outside 1..MAX_EPOCH, a malformed secret or an id longer than 64."""
    if not _is_seat(epoch) or not 1 <= epoch <= MAX_EPOCH:
        raise ValueError("epoch must be 1 to %d" % MAX_EPOCH)
    if not is_secret(secret):
        raise ValueError("no succession secret")
    base = _split(room_id)[0]
    if not isinstance(base, str) or not base:
        raise ValueError("room id")
    tag = _mac(secret, "crisp-room-after", base, str(epoch))[:TAG_HEX]
    new_id = base + "-h" + str(epoch) + "-" + tag
    if len(new_id) > 64:
        raise ValueError("room id too long")
    return new_id


def epoch_after(room_id):
    """The epoch of the next handover of the room now at PeerJS id `room_id`: 1 for a room
    never handed over, k + 1 for one at `<id>-h<k>-<tag>` (chained handovers)."""
    return _split(room_id)[1] + 1


def next_token(token, room_id, successor):
    """A seat's token in the room handed over from `room_id` to seat `successor`'s page (32
    hex): every page derives its own from its token, the successor every seat's from the
    sealed state (or the `standby` tokens the old host gave it alone). Bound to the successor
    seat, so that tokens a page was given as the designated successor serve in no room
    hosted by anyone else."""
    return _mac(token, "crisp-next-token", room_id, str(successor))[:32]


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


class Handover:
    """One page's part in a handover, as decisions (pure; the page does what it says).

    Made when the host counts as gone (ui/page/net/link.py `host_lost`), from what this page last
    heard: `room_id`, its `seat`, the room's `players` list, the old `host` seat, `sealed`
    (the Client's newest sealed room, or None), the handover's `epoch` (1 for the first) and
    the room's succession `secret` (`welcome`). Raises ValueError without a valid secret.

    - `role`: "host" (this page is the successor: it opens the room on `new_id`, from the
      sealed box and a second share when `resume` is True, else dealing the round again),
      "guest" (it connects to `new_id` and rejoins its seat through the seat proof), or
      "none" (nobody can host: the game ends; the page offers `leave`).
    - A guest hands its share over only to a peer that proved it is the successor:
      `challenge(nonce)` -> its nonce to send; `share_for(mac, host_nonce, my_peer)` -> the
      `{"n", "share"}` to send, or None when the proof is wrong (an impostor at the new id).
    - The successor answers each holder with `prove(token, holder, holder_peer,
      holder_nonce, host_nonce)` and gathers shares with `take_share(msg)` until `opened()`
      gives the room's state (ui/shared/seal.py), or None while it cannot yet.
    """

    def __init__(self, room_id, seat, players, host, sealed, epoch=1, secret=None):
        self.room_id = room_id
        self.seat = seat
        self.host = host
        self.sealed = sealed if isinstance(sealed, dict) else None
        self.successor = successor(players, host)
        self.new_id = room_id_after(room_id, epoch, secret)
        # the host's own share, which its deliberate leave gave the successor alone
        # (`host_leaving`; the Client keeps it as the box's "left"): with it the successor
        # opens the box by itself, so the round goes on even with one person left
        left = self.sealed.get("left") if self.sealed is not None else None
        left = left if isinstance(left, str) and len(left) <= 200 else None
        self.resume = (self.sealed is not None and self.successor is not None
                       and (can_continue(players, host)
                            or (left is not None and self.successor == seat)))
        if self.successor is None:
            self.role = "none"
        elif self.successor == seat:
            self.role = "host"
        else:
            self.role = "guest"
        self.nonce = None
        self.shares = []
        if self.role == "host" and self.sealed is not None:
            self.shares.append(self.sealed.get("share"))
            if left is not None and left not in self.shares:
                self.shares.append(left)

    # ---- a guest: hand the share only to the proven successor ----------------------------

    def challenge(self, nonce):
        """Remember this page's fresh nonce (32 hex) for the successor's proof; returns it."""
        self.nonce = nonce
        return nonce

    def share_for(self, mac, host_nonce, my_peer):
        """The share message for the successor once its `mac` checks out, else None."""
        if self.role != "guest" or self.sealed is None or self.nonce is None:
            return None
        key = (self.sealed.get("keys") or {}).get(str(self.successor))
        if not isinstance(key, str) or not isinstance(mac, str) or not isinstance(host_nonce, str):
            return None
        expected = successor_mac(key, self.room_id, self.successor, my_peer, self.nonce,
                                 host_nonce)
        self.nonce = None                   # one answer for one challenge
        if not same(mac, expected):
            return None
        box = self.sealed.get("box") or {}
        return {"n": box.get("n"), "share": self.sealed.get("share")}

    def answer(self, msg, my_peer):
        """What this holder sends back on the connection to the new id for `msg`, a message
        read there (wire.read: a dict, or None): (True, the `share` message text) for the
        successor's `share_proof` whose mac checks out, (True, None) for a `share_proof`
        that does not (an impostor at the new id gets nothing), (False, None) for any other
        message (it is the Client's: Client.take). The page reads each text once."""
        if not isinstance(msg, dict) or msg.get("type") != "share_proof":
            return False, None
        if not wire.fits(wire.BETWEEN, msg):
            return True, None
        share = self.share_for(msg["mac"], msg["nonce"], my_peer)
        if share is None:
            return True, None
        return True, wire.encode(wire.message("share", n=share["n"], share=share["share"]))

    # ---- the successor -------------------------------------------------------------------

    def prove(self, token, holder, holder_peer, holder_nonce, host_nonce):
        """The successor's proof to seat `holder` (from its own seat `token`)."""
        return successor_mac(successor_key(token, self.room_id, holder), self.room_id,
                             self.seat, holder_peer, holder_nonce, host_nonce)

    def take_share(self, msg):
        """A holder's share message: kept when it is for this page's box."""
        if self.role != "host" or self.sealed is None or not isinstance(msg, dict):
            return
        box = self.sealed.get("box") or {}
        if msg.get("n") == box.get("n") and isinstance(msg.get("share"), str) \
                and msg["share"] not in self.shares and len(self.shares) < 16:
            self.shares.append(msg["share"])

    def opened(self, open_room):
        """The room's state once the shares open the box, else None. `open_room` is
        ui/shared/seal.py's (passed in: guests' MicroPython pages never import the sealing code)."""
        if not self.resume or self.role != "host" or len(self.shares) < 2:
            return None
        try:
            return open_room(self.sealed["box"], self.shares, self.room_id)
        except ValueError:
            return None


def holder_plan(room_id, seat, players, host, sealed, new_id, secret):
    """The Handover of a holder that was away while its host went (a page that looks for
    the room instead of handing it over, `Link.behind`): its share may still open the
    sealed room at `new_id` for the successor, which waits SHARE_WAIT_MS for a second share
    and deals the round again without one (docs/decisions.md "Faults the page survives"). The Handover when this page
    holds a share for the first next id (epoch_after: a room already handed over goes on
    from its epoch) and names another seat the successor (role "guest",
    `resume`, its `new_id` is `new_id`), else None: a page whose old list names itself never
    offers (and never takes the room over from here). Its share still goes only to a peer
    that proves it is that successor (`share_for`)."""
    try:
        plan = Handover(room_id, seat, players, host, sealed, epoch_after(room_id), secret)
    except (ValueError, TypeError):
        return None
    if plan.role != "guest" or not plan.resume or plan.new_id != new_id:
        return None
    return plan


FOLLOW_EPOCHS = 3       # a page back from away (and a spectator) looks this many ids ahead
