"""Proving a seat token without sending it: the rejoin handshake (docs/protocol.md,
"Rejoining: the seat proof").

After the first `welcome` a seat token never crosses the wire again. A rejoining guest names
its seat by `seat_id(token)` (a one-way public id) and a fresh nonce; the host answers with
its own nonce and `host_mac`, the guest checks it (the peer at the room id knows the token:
it is the host) and answers `guest_mac`, the host checks that and seats it. Each MAC is
HMAC-SHA-256 keyed by the token over a direction label, the room id, the guest's PeerJS id
(as the host sees it: the signaling server vouches for it), the seat id and both nonces, so
one side's MAC never serves as the other's, nor in another room, for another peer or
another exchange.

Pure and MicroPython-compatible (guests run it there: `hashlib.sha256` and `hmac.new` exist,
`hmac.compare_digest` and `secrets` do not). Nonces come from the caller (the room:
`secrets`; a guest page: `crypto.getRandomValues`).
"""

import binascii
import hashlib
import hmac

from crisp_core.checks import is_hex, same  # noqa: F401 (proof.is_hex, proof.same: the shared ones)

NONCE_HEX = 32            # 128-bit nonces, as hex
MAC_HEX = 64              # HMAC-SHA-256, as hex
SEAT_ID_HEX = 32
HOST = "crisp-host-proof"
GUEST = "crisp-guest-proof"


def seat_id(token):
    """The public id of a seat token (32 hex): names the seat, tells nothing of the token."""
    digest = hashlib.sha256(("crisp-seat-id\n" + token).encode("utf-8")).digest()
    return binascii.hexlify(digest).decode()[:SEAT_ID_HEX]


def _mac(label, token, room, peer, seat, guest_nonce, host_nonce):
    # Each field length-prefixed: no two different tuples give the same text.
    fields = [label, room, peer, seat, guest_nonce, host_nonce]
    text = "".join([str(len(f)) + ":" + f + ";" for f in fields])
    return hmac.new(token.encode("utf-8"), text.encode("utf-8"), hashlib.sha256).hexdigest()


def host_mac(token, room, peer, seat, guest_nonce, host_nonce):
    """The host's proof (64 hex) that it knows `token`: sent in `challenge`.
    `peer`: the guest's PeerJS id; `seat`: seat_id(token); nonces: 32 hex each."""
    return _mac(HOST, token, room, peer, seat, guest_nonce, host_nonce)


def guest_mac(token, room, peer, seat, guest_nonce, host_nonce):
    """The guest's proof (64 hex) that it knows `token`: sent in `proof`, only after the
    host's proof checked out."""
    return _mac(GUEST, token, room, peer, seat, guest_nonce, host_nonce)
