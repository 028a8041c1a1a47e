"""The room's first link after a host handover (docs/protocol.md "The first link after a
handover"): the room's first id (the link and the code friends already have) stays reserved
on the signaling server for its first host's PeerJS token, so only that token can answer
there; the token travels in the sealed box alone, so only a successor that opened the box
(two shares) holds it. That successor's page keeps a door at the first id that tells each
page dialing it where the room is now (`elsewhere`); the page dialing checks that it names a
later id of the same room. Pure and MicroPython-compatible."""

from crisp_core.checks import is_hex
from ui.shared import wire
from ui.shared.handover import _split, epoch_after
from ui.shared.spectator_moves import is_peer_id

DOOR_HEX = 32           # a PeerJS token as the pages make it: 16 random bytes, as hex
ELSEWHERE_TEXT = 200    # an `elsewhere` message is shorter than this


def first_id(room_id):
    """The room's first id (the link's, the code's): `room_id` without its handovers'
    `-h<k>-<tag>`."""
    return _split(room_id)[0]


def is_door_token(token):
    """True when `token` may be a room's door token (DOOR_HEX lowercase hex)."""
    return is_hex(token, DOOR_HEX)


def door_claim(room_id, token):
    """[first id, token] for the page now hosting the room at `room_id` with the room's door
    `token` (the first host's PeerJS token, from the sealed box): the door it keeps at the
    room's first id. None when the room has not moved (its host holds that id itself) or
    there is no valid token."""
    if not is_door_token(token) or not is_peer_id(room_id):
        return None
    first = first_id(room_id)
    if first == room_id or not is_peer_id(first):
        return None
    return [first, token]


def elsewhere_text(room_id):
    """The door's message to a page that dialed the first id: the room is at `room_id` now."""
    return wire.encode(wire.message("elsewhere", room=room_id))


def check_elsewhere(msg, dialed):
    """The room id an `elsewhere` message (a dict, from the peer at the id this page
    `dialed`) names, else None: exactly {type "elsewhere", v 1, room}; `room` a PeerJS id
    of the same room (`<base>-h<k>-<tag>`, k past `dialed`'s epoch), so a door can only send
    a page forward along its own room's ids, never to another room, never back."""
    if not isinstance(msg, dict) or msg.get("type") != "elsewhere" \
            or set(msg) != {"type", "v", "room"} or not wire.current(msg):
        return None
    room = msg["room"]
    if not is_peer_id(room) or room == dialed or len(room) > ELSEWHERE_TEXT:
        return None
    base, epoch = _split(room)
    if base != first_id(dialed) or epoch < epoch_after(dialed):
        return None
    return room
