"""Who hosts next when the host is gone, decided the same way on every page (issue 10, item 3;
docs/protocol.md "Host handover"). Pure and MicroPython-compatible: every
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
import json

from crisp_core.checks import is_hex, same
from ui.shared import wire

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

    Made when the host counts as gone (ui/page/link.py `host_lost`), from what this page last
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
        self.resume = (self.sealed is not None and can_continue(players, host)
                       and self.successor is not None)
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
    and deals the round again without one (issue 23, fault 4). The Handover when this page
    holds a share for the first next id and names another seat the successor (role "guest",
    `resume`, its `new_id` is `new_id`), else None: a page whose old list names itself never
    offers (and never takes the room over from here). Its share still goes only to a peer
    that proves it is that successor (`share_for`)."""
    try:
        plan = Handover(room_id, seat, players, host, sealed, 1, secret)
    except (ValueError, TypeError):
        return None
    if plan.role != "guest" or not plan.resume or plan.new_id != new_id:
        return None
    return plan


FOLLOW_EPOCHS = 3       # a page back from away looks this many ids ahead for its room
FOLLOW_TOKENS = 8       # the seat tokens it tries at one id, at most


class Follow:
    """A seated page that was away while its host went (a phone asleep, a tab frozen, its
    network gone) looking for its room at the next ids, instead of taking the room over
    itself from an out-of-date players list (docs/protocol.md "Back from away"). Pure.

    Made from what the page last heard: the `room_id` it was seated in, its `seat` and seat
    `token` there, the old `host` seat, the room's succession `secret` (`welcome`) and the
    `players` list. Raises ValueError without a valid secret.

    - `current()`: the id to look at now (`room_id_after` for the next FOLLOW_EPOCHS
      epochs, the nearest first), or None once every one was found empty (`missing`).
    - `missing()`: nobody holds the current id: move on to the next one.
    - `tokens(host)`: the peer at the current id says (`watching`) that seat `host` hosts it:
      this seat's candidate tokens there, the likeliest first, at most FOLLOW_TOKENS (empty
      when `host` cannot be that room's host: this page's own seat, or the old host one
      handover on). At the next epoch the token is `next_token(token, room_id, host)`;
      further on, the room got there through handovers this page never saw: successors that
      never hosted (the same old room, the next epoch) or rooms hosted in turn by a person
      of `players` (each hop `next_token` from the id it left), every such path tried.
      A wrong one costs a `no_seat`: the seat proof names the seat by a hash and never sends
      the token.
    """

    def __init__(self, room_id, seat, token, host, secret, players):
        first = epoch_after(room_id)
        self.room_id = room_id
        self.seat = seat
        self.token = token
        self.host = host
        self.first = first
        self.ids = [room_id_after(room_id, e, secret)
                    for e in range(first, min(first + FOLLOW_EPOCHS, MAX_EPOCH + 1))]
        self.i = 0
        people = []
        for p in players or []:
            s = p.get("seat") if isinstance(p, dict) else None
            if _is_seat(s) and s != seat and not p.get("bot") and s not in people:
                people.append(s)
        people.sort()
        self.people = people

    def current(self):
        return self.ids[self.i] if self.i < len(self.ids) else None

    def missing(self):
        self.i += 1
        return self.current()

    def restart(self):
        """Look from the nearest id again (a later round of looking)."""
        self.i = 0

    def tokens(self, host):
        if not _is_seat(host) or host == self.seat or self.i >= len(self.ids) \
                or (self.i == 0 and host == self.host) or not isinstance(self.token, str):
            return []
        target = self.first + self.i
        found = []
        # (the id it left, its token there, the epoch it moves at, that room's host, the rooms
        # hosted on the way): walked an epoch at a time, the fewest hosted rooms first
        paths = [(self.room_id, self.token, self.first, self.host, 0)]
        while paths and len(found) < FOLLOW_TOKENS:
            later = []
            for from_id, token, epoch, last, hops in paths:
                if epoch == target:
                    t = next_token(token, from_id, host)
                    if t not in found:
                        found.append(t)
                    continue
                # a successor at `epoch` that never hosted: the next one, from the same room
                later.append((from_id, token, epoch + 1, last, hops))
                for h in self.people:
                    if h != last:             # a room hosted at `epoch` by h, handed on
                        later.append((self.ids[epoch - self.first],
                                      next_token(token, from_id, h), epoch + 1, h, hops + 1))
            later.sort(key=lambda p: p[4])
            paths = later
        return found[:FOLLOW_TOKENS]


# ---- spectators follow the room (docs/protocol.md "Spectators follow a handover") ---------

FOLLOW_HEX = 32         # a spectator's follow token: 16 random bytes, as hex
MAX_WATCHERS = 8        # spectators a room keeps for its next host to tell (MAX_SPECTATORS)
MOVED_TEXT = 400        # a `moved` message is shorter than this


def is_peer_id(text):
    """True when `text` looks like a PeerJS id (letters, digits, single - or _ between; at
    most 64): a spectator's, or a room's."""
    if not isinstance(text, str) or not 0 < len(text) <= 64:
        return False
    prev = "-"
    for c in text:
        sep = c in "-_"
        if not sep and not (c.isalpha() or c.isdigit()) or ord(c) > 127:
            return False
        if sep and prev in "-_":
            return False
        prev = c
    return prev not in "-_"


def next_ids(room_id, secret, epochs=FOLLOW_EPOCHS):
    """The room's real next ids from `room_id` (`room_id_after` for the next `epochs`
    epochs, the nearest first); [] without a valid secret."""
    first = epoch_after(room_id)
    out = []
    for e in range(first, min(first + epochs, MAX_EPOCH + 1)):
        try:
            out.append(room_id_after(room_id, e, secret))
        except ValueError:
            return []
    return out


def id_mark(new_id):
    """What a spectator is told of a next id (`watching` `next`): a hash of it (32 hex),
    enough to recognise the id in a `moved`, not to find it (its tag is 80 unguessable
    bits), so that it cannot squat it first."""
    return _mac("crisp-next-id", str(new_id))[:32]


def id_marks(items):
    """The well-formed marks of a `watching`'s `next` (FOLLOW_EPOCHS at most), else []."""
    if not isinstance(items, list):
        return []
    return [m for m in items[:FOLLOW_EPOCHS] if is_hex(m, 32)]


def moved_entries(follow, room_id, secret):
    """The `moved` proofs the host computes itself for one spectator, for each of the room's
    real next ids: [[new id, moved_mac]]. These, not the follow token, go into the sealed
    room and the designate's `standby`: a successor can forward only the true next id."""
    return [[new_id, moved_mac(follow, room_id, new_id)]
            for new_id in next_ids(room_id, secret)]


def watchers(items):
    """The well-formed entries of a list of spectators to tell after a handover:
    [{"peer": PeerJS id, "moved": [[next id, 64 hex], ...] (FOLLOW_EPOCHS at most)}], at most
    MAX_WATCHERS, no peer twice; anything else is dropped."""
    out = []
    peers = []
    for w in items if isinstance(items, list) else []:
        if len(out) >= MAX_WATCHERS:
            break
        if not isinstance(w, dict) or set(w) != {"peer", "moved"} \
                or not isinstance(w["moved"], list):
            continue
        moved = [[m[0], m[1]] for m in w["moved"][:FOLLOW_EPOCHS]
                 if isinstance(m, list) and len(m) == 2 and is_peer_id(m[0])
                 and is_hex(m[1], 64)]
        if is_peer_id(w["peer"]) and moved and w["peer"] not in peers:
            peers.append(w["peer"])
            out.append({"peer": w["peer"], "moved": moved})
    return out


def moved_mac(follow, old_id, new_id):
    """The proof (64 hex) that the room a spectator watched at `old_id` moved to `new_id`:
    keyed by that spectator's follow token (`watching`), which only the room knows."""
    return _mac(follow, "crisp-moved", old_id, new_id)


def moved_text(new_id, mac):
    """The `moved` message (JSON text) for `new_id` with its proof `mac`."""
    return wire.encode(wire.message("moved", room=new_id, mac=mac))


def moved_message(follow, old_id, new_id):
    """The `moved` message the room's host computes for a spectator of the room at
    `old_id` (a test's, or `moved_entries`')."""
    return moved_text(new_id, moved_mac(follow, old_id, new_id))


def moved_for(watcher, new_id):
    """The `moved` text a new host at `new_id` sends one spectator (an entry of `watchers`),
    or None when the old host computed none for that id."""
    for entry in watcher.get("moved") or []:
        if entry[0] == new_id:
            return moved_text(new_id, entry[1])
    return None


def check_moved(text, follow, old_id, marks):
    """The new room id a `moved` message (JSON text from an incoming connection) proves,
    else None: exactly {type "moved", v 1, room, mac}; `room` a PeerJS id of the same room
    (`<base>-h<k>-<tag>`, k after `old_id`'s epoch), one of the next ids the room told this
    spectator of (`marks`: `watching` `next`, id_mark of each) and `mac` = moved_mac(follow,
    old_id, room). Anything else, a wrong mac, a missing follow token: None (the page closes
    that connection and changes nothing)."""
    if not is_hex(follow, FOLLOW_HEX) or not isinstance(text, str) or len(text) > MOVED_TEXT:
        return None
    msg = wire.read(text)
    if msg is None or msg.get("type") != "moved" or not wire.fits(wire.BETWEEN, msg) \
            or set(msg) != {"type", "v", "room", "mac"}:
        return None
    new_id, mac = msg["room"], msg["mac"]
    if not is_peer_id(new_id) or new_id == old_id:
        return None
    base, epoch = _split(new_id)
    if base != _split(old_id)[0] or epoch < epoch_after(old_id):
        return None
    if id_mark(new_id) not in id_marks(marks):
        return None
    if not same(mac, moved_mac(follow, old_id, new_id)):
        return None
    return new_id


# ---- a reloaded page follows the room (docs/protocol.md "Back from away") ------------------

RECORD_KEYS = ("v", "secret", "seat", "host", "players")
PLAYER_KEYS = ("seat", "bot", "connected")


def follow_record(secret, seat, host, players):
    """What a seated guest page keeps per room (`crisp.follow.<room id>`, next to its seat
    token) so that after a reload it can still find the room at its next ids: {"v": 1,
    "secret": the succession secret, "seat": its seat, "host": the host's seat, "players":
    [{"seat", "bot", "connected"}]} (the players list reduced to what Follow and successor
    read). None when there is nothing worth keeping (no secret, no seat)."""
    reduced = []
    for p in players or []:
        if isinstance(p, dict) and _is_seat(p.get("seat")):
            reduced.append({"seat": p["seat"], "bot": bool(p.get("bot")),
                            "connected": p.get("connected") is True})
    record = {"v": 1, "secret": secret, "seat": seat, "host": host, "players": reduced}
    return record if check_follow_record(record) is not None else None


def _seat_below(x, top):
    return _is_seat(x) and x < top


def check_follow_record(blob, max_players=8):
    """The follow record `blob` (a dict read back from storage: every page of the origin can
    write it, so it may be hostile) if every field is right, else None, whole: exactly the
    keys RECORD_KEYS; v 1; the secret SECRET_HEX lowercase hex; seat and host distinct ints
    below `max_players` (ui/shared/limits.py MAX_PLAYERS); players a list of 1 to `max_players`
    entries with exactly PLAYER_KEYS, distinct seats below `max_players`, bot and connected
    booleans, the page's own seat a person among them."""
    if not isinstance(blob, dict) or len(blob) != len(RECORD_KEYS):
        return None
    for key in RECORD_KEYS:
        if key not in blob:
            return None
    if not _is_seat(blob["v"]) or blob["v"] != 1 or not is_secret(blob["secret"]):
        return None
    seat, host, players = blob["seat"], blob["host"], blob["players"]
    if not _seat_below(seat, max_players) or not _seat_below(host, max_players) \
            or seat == host:
        return None
    if not isinstance(players, list) or not 0 < len(players) <= max_players:
        return None
    seats = []
    for p in players:
        if not isinstance(p, dict) or len(p) != len(PLAYER_KEYS):
            return None
        for key in PLAYER_KEYS:
            if key not in p:
                return None
        if not _seat_below(p["seat"], max_players) or p["seat"] in seats \
                or not isinstance(p["bot"], bool) or not isinstance(p["connected"], bool):
            return None
        if p["seat"] == seat and p["bot"]:
            return None
        seats.append(p["seat"])
    if seat not in seats:
        return None
    return blob


FOLLOW_TEXT = 1000      # a stored follow record is shorter than this (8 seats: ~460)


def load_follow_record(text, max_players=8):
    """The follow record stored as JSON `text` (crisp.follow.<room id>), checked by
    check_follow_record, else None: also for text that is not a str, longer than
    FOLLOW_TEXT (never parsed: a hostile page may have stored megabytes) or not JSON."""
    if not isinstance(text, str) or len(text) > FOLLOW_TEXT:
        return None
    try:
        blob = json.loads(text)
    except ValueError:
        return None
    return check_follow_record(blob, max_players)


def reload_should_look(record, seen, missing, failures, online=True):
    """A reloaded page's choice when its room id does not answer: True to look for the room
    at its next ids (a handover may have moved it while the tab was gone), False for the
    plain "no room" / host-gone path. Looks only with a valid saved follow `record`
    (check_follow_record), while the page has not `seen` the room since the reload (a page
    the room welcomed knows more and follows the usual way), reaches the signaling server
    (`online`), and the old id is known empty (`missing`: peer-unavailable) or failed
    GONE_AFTER (3) times in a row (`failures`)."""
    if record is None or seen or not online:
        return False
    return bool(missing) or (_is_seat(failures) and failures >= 3)

