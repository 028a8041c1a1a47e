"""The portable shuffle and the committed seed (docs/protocol.md, "Verifiable shuffle").

Everything here is defined on bytes and SHA-256 only, so that any language (and MicroPython,
which guests run) computes the same deck from the same seed:

- A secret is 32 bytes, written as 64 lowercase hex digits; its commitment is
  ``SHA-256(secret bytes)`` in hex.
- A contribution is 16 bytes, written as 32 lowercase hex digits.
- The round's seed is ``SHA-256("crisp-seed-v1" || secret bytes || contribution bytes ...)``,
  the 13 ASCII bytes of the label first, then the contributions in increasing seat order
  (fixed lengths: no separators are needed). The label keeps the seed apart from the
  commitment: with no contribution at all the deck still cannot be read off the commitment.
- The stream: block ``k`` (k = 0, 1, ...) is ``SHA-256(seed || k as 8 bytes big-endian)``;
  the blocks are cut into 4-byte big-endian unsigned words, in order (8 words a block).
- ``uniform(n)``: the next word ``w`` with ``w < 2**32 - 2**32 % n`` (words at or above that
  limit are skipped, so that every result is equally likely), then ``w % n``.
- The deck: start from the 52 cards in canonical order (``cards.CANONICAL``); for ``i`` from
  51 down to 1, ``j = uniform(i + 1)`` and swap cards ``i`` and ``j`` (Fisher-Yates). The
  result is top first (index 0 is the top card, R2.2).

Pure standard library (``hashlib``), no global state; runs on CPython and MicroPython.
"""

import hashlib

from .cards import CANONICAL
from .checks import is_hex

SEED_LABEL = b"crisp-seed-v1"
SECRET_BYTES = 32
CONTRIBUTION_BYTES = 16
_WORD = 1 << 32


def sha256(data):
    """SHA-256 of ``data`` (bytes) as bytes. (MicroPython's hash objects give one digest.)"""
    return hashlib.sha256(data).digest()


def commitment(secret):
    """The commitment to ``secret`` (64 hex digits): SHA-256 of its 32 bytes, in hex.

    Raises ``ValueError`` when ``secret`` is not 32 bytes in lowercase hex.
    """
    if not is_hex(secret, 2 * SECRET_BYTES):
        raise ValueError("a secret is 64 lowercase hex digits")
    return sha256(bytes.fromhex(secret)).hex()


def derive_seed(secret, contributions):
    """The round's seed (32 bytes): SHA-256 over ``SEED_LABEL``, the secret, and then every
    contribution.

    ``secret``: 64 hex digits. ``contributions``: the 32-hex-digit contributions in increasing
    seat order (the caller sorts them; only the seats that contributed). Raises
    ``ValueError`` for a malformed secret or contribution.
    """
    if not is_hex(secret, 2 * SECRET_BYTES):
        raise ValueError("a secret is 64 lowercase hex digits")
    data = SEED_LABEL + bytes.fromhex(secret)
    for value in contributions:
        if not is_hex(value, 2 * CONTRIBUTION_BYTES):
            raise ValueError("a contribution is 32 lowercase hex digits")
        data += bytes.fromhex(value)
    return sha256(data)


class Stream:
    """The SHA-256 counter-mode stream of ``seed`` (bytes), read as 32-bit words."""

    def __init__(self, seed):
        self.seed = bytes(seed)
        self.counter = 0
        self.block = b""
        self.offset = 0

    def word(self):
        """The next 32-bit unsigned word (big-endian)."""
        if self.offset >= len(self.block):
            self.block = sha256(self.seed + self.counter.to_bytes(8, "big"))
            self.counter += 1
            self.offset = 0
        word = int.from_bytes(self.block[self.offset:self.offset + 4], "big")
        self.offset += 4
        return word

    def uniform(self, n):
        """An integer in ``0 .. n-1``, each equally likely (rejection sampling), n >= 1."""
        limit = _WORD - _WORD % n
        while True:
            word = self.word()
            if word < limit:
                return word % n


def deck_from_seed(seed):
    """The deck (52 card codes, top first) that ``seed`` (bytes) gives: Fisher-Yates over
    the canonical order, driven by :class:`Stream` (see the module's description)."""
    deck = list(CANONICAL)
    stream = Stream(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seeded_deck(seed, round_number):
    """A reproducible deck for a round with no commitment (solo games, tests, the scenario
    runner): :func:`deck_from_seed` of ``SHA-256("crisp:<seed>:<round>")`` (UTF-8)."""
    text = "crisp:%s:%d" % (seed, round_number)
    return deck_from_seed(sha256(text.encode("utf-8")))
