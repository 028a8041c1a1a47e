"""Which room message a tap's intent sends (ui/page/screens/intents.py names the intents; the room's
messages: docs/protocol.md "Room messages"). Pure: the page sends what this returns.

MicroPython-compatible and tested in CPython (tests/test_page_logic.py)."""

OPTION_KEYS = ("target", "draw_seconds", "draw_from_discard")


def host_message(name, payload):
    """The host message (a dict for Client.host) that the intent `name` with `payload` (a
    dict) sends, or None when the intent is not a host command. Only the keys a command
    takes go into it: anything else in the payload stays behind."""
    payload = payload if isinstance(payload, dict) else {}
    if name in ("start", "next_round", "new_game", "guide_read"):
        return {"type": name}
    if name == "options":
        msg = {"type": "options"}
        for key in OPTION_KEYS:
            if key in payload:
                msg[key] = payload[key]
        return msg
    if name == "add_bot":
        return {"type": "add_bot", "level": payload.get("level", "easy")}
    if name in ("remove", "approve"):
        return {"type": name, "seat": payload.get("seat")}
    if name in ("stand_in", "bot_turn"):
        return {"type": name, "seat": payload.get("seat"),
                "level": payload.get("level", "easy")}
    return None


def solo_messages(payload):
    """The host messages that set a solo room up (the landing's Play solo: `bots` 1-7 bots,
    3 by default, at `level`; a `target` of 50, 100 or 150), before its `start`."""
    payload = payload if isinstance(payload, dict) else {}
    bots = payload.get("bots", 3)
    bots = bots if isinstance(bots, int) and not isinstance(bots, bool) and 1 <= bots <= 7 else 3
    out = [{"type": "add_bot", "level": payload.get("level", "easy")} for _ in range(bots)]
    if payload.get("target") in (50, 100, 150):
        out.append({"type": "options", "target": payload["target"]})
    return out
