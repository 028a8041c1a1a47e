"""A seated page that was away while its host went finds its room again at the room's next
ids (docs/protocol.md "Back from away"): `Follow` (which id to look at, which seat tokens to
try there) and the follow record a guest keeps per room so that a reloaded tab can do the
same (`follow_record`, `check_follow_record`, `load_follow_record`, `reload_should_look`).
Pure and MicroPython-compatible; the ids and tokens come from ui/shared/handover.py."""

import json

from ui.shared.handover import (FOLLOW_EPOCHS, MAX_EPOCH, _is_seat, epoch_after, is_secret,
                                next_token, room_id_after)

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
