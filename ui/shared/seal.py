"""The room's state sealed for the players: the groundwork of the host handover (docs/protocol.md
"Host handover").

While a game is played, the host can give every player the same sealed copy of the room
(`seal_room`): its state (`Room.to_dict()`: hands, deck, tokens, bots) compressed and then
encrypted under a fresh random 256-bit key, and to each human guest its own share of that key
(Shamir's secret sharing, threshold 2, over the prime field of 2**521 - 1). One share alone
says nothing about the key, so no single player can read a hidden card before the handover;
any two players' shares open it (`open_room`), so the room can go on when the host is gone
and at least two human players remain. What a player holds is ciphertext and one share: never
encoded or compressed plain text.

The box: `data` = the compressed state XOR a keystream of HMAC-SHA-256(enc key, nonce ||
block counter) blocks (a PRF in counter mode), `tag` = HMAC-SHA-256(mac key, label, room id,
`n`, nonce, data) (encrypt then MAC), each as hex; the enc and mac keys are HMAC-SHA-256(key, label). The
tag binds the box to its room and its number `n` (the host numbers its seals: the newest box
wins), and tells a wrong share from a right one: `open_room` tries pairs of shares until one
opens the box, so a player sending a false share cannot stop the others.

Runs where the room runs (CPython tests, Pyodide on the host page or its worker): `zlib`,
`hmac`, `hashlib`, `secrets`, big integers. Randomness comes from the caller (`randbytes(n)`,
`secrets.token_bytes` by default), never from global state.
"""

import binascii
import hashlib
import hmac
import json
import secrets
import zlib

PRIME = (1 << 521) - 1        # a Mersenne prime: the field of the key's shares
KEY_BYTES = 32
NONCE_BYTES = 16
THRESHOLD = 2                 # shares needed to open the box: two players, never one
LABEL = b"crisp-seal-v1"


class SealError(ValueError):
    """A box that does not open: too few shares, wrong shares, or a box altered or not of
    this room."""


def _mac(key, *parts):
    """HMAC-SHA-256 over length-prefixed parts (bytes or text)."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for part in parts:
        if isinstance(part, str):
            part = part.encode("utf-8")
        mac.update(len(part).to_bytes(4, "big"))
        mac.update(part)
    return mac.digest()


def _keystream_xor(key, nonce, data):
    out = bytearray(len(data))
    for block in range((len(data) + 31) // 32):
        pad = _mac(key, nonce, block.to_bytes(8, "big"))
        start = block * 32
        for i, byte in enumerate(data[start:start + 32]):
            out[start + i] = byte ^ pad[i]
    return bytes(out)


def _keys(key):
    return _mac(key, LABEL, "enc"), _mac(key, LABEL, "mac")


def encrypt(key, plain, room_id, n, nonce):
    """The box for `plain` (bytes) under `key` (32 bytes): {"n", "nonce", "data", "tag"}
    (base64 text). `n`: the seal's number; `nonce`: NONCE_BYTES fresh random bytes."""
    enc, mac = _keys(key)
    data = _keystream_xor(enc, nonce, plain)
    tag = _mac(mac, LABEL, room_id, str(n), nonce, data)
    return {"n": n, "nonce": _b64(nonce), "data": _b64(data), "tag": _b64(tag)}


def decrypt(key, box, room_id):
    """The bytes sealed in `box` under `key`; raises SealError when the tag does not check
    (a wrong key, or a box altered, renumbered or of another room)."""
    try:
        nonce, data, tag = _unb64(box["nonce"]), _unb64(box["data"]), _unb64(box["tag"])
        n = box["n"]
    except (KeyError, TypeError, ValueError):
        raise SealError("not a sealed box")
    enc, mac = _keys(key)
    if not hmac.compare_digest(_mac(mac, LABEL, room_id, str(n), nonce, data), tag):
        raise SealError("the box does not open with this key")
    return _keystream_xor(enc, nonce, data)


# ---- the key's shares (Shamir, threshold 2) ----------------------------------------------

def split(secret, xs, randbytes, threshold=THRESHOLD):
    """Shares of `secret` (an int, 0 <= secret < PRIME) for the points `xs` (distinct ints
    >= 1): {x: y}. Any `threshold` of them give the secret back (`combine`); fewer say
    nothing about it. Raises ValueError for too few points or a bad point."""
    if len(set(xs)) != len(xs) or any(not 1 <= x < PRIME for x in xs):
        raise ValueError("points must be distinct and at least 1")
    if len(xs) < threshold:
        raise ValueError("fewer holders than the threshold")
    coefficients = [secret] + [int.from_bytes(randbytes(66), "big") % PRIME
                               for _ in range(threshold - 1)]
    shares = {}
    for x in xs:
        y = 0
        for c in reversed(coefficients):
            y = (y * x + c) % PRIME
        shares[x] = y
    return shares


def combine(shares):
    """The secret from `threshold` shares {x: y} (Lagrange at 0 over the prime field)."""
    secret = 0
    points = list(shares.items())
    for i, (xi, yi) in enumerate(points):
        num, den = 1, 1
        for j, (xj, _) in enumerate(points):
            if i != j:
                num = num * (-xj) % PRIME
                den = den * (xi - xj) % PRIME
        secret = (secret + yi * num * pow(den, PRIME - 2, PRIME)) % PRIME
    return secret


def share_text(x, y):
    """A share as the text a player holds: "<x>:<y in hex>"."""
    return "%d:%x" % (x, y)


def parse_share(text):
    """(x, y) from `share_text`; raises SealError for anything else."""
    try:
        x, y = text.split(":")
        x, y = int(x), int(y, 16)
    except (AttributeError, ValueError):
        raise SealError("not a share")
    if not 1 <= x <= 64 or not 0 <= y < PRIME:
        raise SealError("not a share")
    return x, y


# ---- the room sealed --------------------------------------------------------------------

def opened_check(key):
    """What only the holder of the box's key has (64 hex, from the key: never the key): the
    old host keeps it per box in its save; the successor that opened the box with two shares
    proves with it that it did (ui/handover.py `opened_mac`, docs/decisions.md "A page that says it hosts the room proves it")."""
    return binascii.hexlify(_mac(key, LABEL, "opened")).decode("ascii")


def seal_room(state, room_id, n, holders, randbytes=secrets.token_bytes, check=None):
    """Seal `state` (a JSON-safe dict: `Room.to_dict()`) for the seats `holders` (the human
    guests' seat numbers, at least THRESHOLD of them). Returns (box, shares): the box every
    player gets, and {seat: share text} of which each seat gets only its own. `check` (a
    dict, optional) gets "opened": the box's `opened_check`. Raises ValueError with fewer
    than THRESHOLD holders (one player alone would hold the key: the round cannot be
    sealed, and is dealt again after a handover)."""
    key = randbytes(KEY_BYTES)
    if isinstance(check, dict):
        check["opened"] = opened_check(key)
    plain = zlib.compress(json.dumps(state, separators=(",", ":")).encode("utf-8"), 9)
    box = encrypt(key, plain, room_id, n, randbytes(NONCE_BYTES))
    points = split(int.from_bytes(key, "big"), [seat + 1 for seat in holders], randbytes)
    return box, {x - 1: share_text(x, y) for x, y in points.items()}


def open_room(box, shares, room_id, check=None):
    """The state sealed in `box` from the players' share texts (a list; any order, some may
    be false): tries pairs until one opens the box. `check` (a dict, optional) gets
    "opened": the box's `opened_check`. Raises SealError when none does."""
    points = {}
    for text in shares:
        try:
            x, y = parse_share(text)
        except SealError:
            continue
        points.setdefault(x, []).append(y)
    xs = sorted(points)
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            for yi in points[xs[i]]:
                for yj in points[xs[j]]:
                    secret = combine({xs[i]: yi, xs[j]: yj})
                    if secret >= 1 << (8 * KEY_BYTES):
                        continue
                    key = secret.to_bytes(KEY_BYTES, "big")
                    try:
                        plain = decrypt(key, box, room_id)
                    except SealError:
                        continue
                    if isinstance(check, dict):
                        check["opened"] = opened_check(key)
                    return json.loads(zlib.decompress(plain).decode("utf-8"))
    raise SealError("these shares do not open the box")


def _b64(data):
    # Hex, not base64: a long run of hex digits holds no word boundary, so a scan of the wire
    # for card codes (`\b[A2-9TJQK][cdhs]\b`, the e2e leak checks) never finds one in a box
    # by chance ("+Ah/" could appear in base64).
    return binascii.hexlify(data).decode("ascii")


def _unb64(text):
    if not isinstance(text, str) or len(text) % 2:
        raise ValueError("not hex")
    return binascii.unhexlify(text.encode("ascii"))
