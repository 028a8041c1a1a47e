"""The value checks every reader of untrusted data shares: the engine's saves and actions, the
room's and the pages' messages (ui/shared/wire.py re-exports them), the seat proof, the
committed shuffle. One definition each (is_int's is crisp_core/actions.py's, taken here).

Pure and MicroPython-compatible (guests' pages load it with crisp_core/actions.py).
"""

from .actions import is_int  # noqa: F401 (the one is_int: crisp_core/actions.py)

HEX = "0123456789abcdef"


def is_number(value):
    """True for a finite int or float that is not a bool (no NaN, no infinity)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and value == value and value not in (float("inf"), float("-inf")))


def is_hex(text, digits):
    """True when `text` is a str of exactly `digits` lowercase hex digits (a 16-byte value is
    32 digits)."""
    if not isinstance(text, str) or len(text) != digits:
        return False
    for ch in text:
        if ch not in HEX:
            return False
    return True


def same(a, b):
    """Compare two str in time that does not depend on where they differ (no early exit: a
    MAC or a token compared so tells an attacker nothing). False when either is not a str.
    (MicroPython has no `hmac.compare_digest`.)"""
    if not isinstance(a, str) or not isinstance(b, str):
        return False
    x = a.encode("utf-8")
    y = b.encode("utf-8")
    diff = len(x) ^ len(y)
    for i in range(min(len(x), len(y))):
        diff |= x[i] ^ y[i]
    return diff == 0
