"""Saving a bot (crisp_core.bots.Bot) with the room: its level, seat, memory, random state
and the search it has under way, as a JSON-safe dict, and back. CPython only, like the bots
(tools/pyzip.py GUEST_CORE_EXCLUDED).
"""

import base64
import random
import struct

from .bot_expert import checked_pending


def to_dict(bot):
    """The bot as a JSON-safe dict: level, seat, memory, random state, pending search."""
    return {"version": 1, "seat": bot.seat, "level": bot.level,
            "rng": _rng_state(bot.rng), "pace": bot.pace, "events_seen": bot.events_seen,
            "memo": bot.memo, "round": bot.round,
            "slots": [[list(slot) for slot in hand] for hand in bot.slots],
            "discard": list(bot.discard),
            "deck_known": list(bot.deck_known) if bot.deck_known is not None else None,
            "held": bot.held, "holding": bot.holding, "drew": bot.drew,
            "turn": bot.turn, "caller": bot.caller, "my_turns": bot.my_turns,
            "pending": bot.pending}


def from_dict(cls, data):
    """Rebuild a bot of class ``cls`` from :func:`to_dict` output (``pending`` may be
    missing: saved before the expert level). Raises ``ValueError`` if malformed."""
    if not isinstance(data, dict) or data.get("version") != 1:
        raise ValueError("not a saved Crisp bot")
    try:
        bot = cls(data["seat"], data["level"], _rng_from(data["rng"]), data.get("pace", 1.0))
        bot.events_seen = data["events_seen"]
        bot.memo = data["memo"]
        bot.round = data["round"]
        bot.slots = [[list(slot) for slot in hand] for hand in data["slots"]]
        bot.discard = list(data["discard"])
        bot.deck_known = (list(data["deck_known"]) if data["deck_known"] is not None
                          else None)
        for name in ("held", "holding", "drew", "turn", "caller", "my_turns"):
            setattr(bot, name, data[name])
        bot.pending = checked_pending(data.get("pending"))
    except (KeyError, TypeError, ValueError, struct.error) as exc:
        raise ValueError("saved bot is malformed: %s" % exc)
    return bot


def _rng_state(rng):
    version, internal, gauss = rng.getstate()
    packed = base64.b64encode(struct.pack("<%dI" % len(internal), *internal)).decode("ascii")
    return {"v": version, "s": packed, "g": gauss}


def _rng_from(data):
    raw = base64.b64decode(data["s"])
    internal = struct.unpack("<%dI" % (len(raw) // 4), raw)
    rng = random.Random()
    rng.setstate((data["v"], tuple(internal), data["g"]))
    return rng
