"""A turn its person holds (docs/protocol.md "Room messages", `bot_turn`): what a seat's place
says once the room told every screen the turn has waited ("Bea has been thinking for 40 s"),
and, on the host's page, the offer to let a bot play that one turn; while a bot plays it,
every place says so ("A bot is playing this turn for Bea").

Pure; MicroPython-compatible (no dataclasses, typing, enum) and tested in CPython
(tests/test_idle_page.py)."""

from crisp_core.actions import is_int
from ui.page.screens.cues import PLAY
from ui.shared.limits import BOT_LEVELS

SECOND = 1000


def _ms(value):
    return value if is_int(value) and value >= 0 else None


def idle_row(p, seat, me, host, is_host, paused, phase, since_view, level):
    """What seat `seat`'s place shows of a waiting turn: {"waited_s": whole seconds the turn
    has waited (its players entry `p`'s `waited`, ms when the view came, plus `since_view`
    ms), or None; "turn_bot": the level of the bot playing this turn for its person, or
    None; "bot_turn": the host's intent ("intent", "bot_turn", {"seat", "level"}) offered on
    another person's waiting turn (never its own, never paused), or None}."""
    p = p if isinstance(p, dict) else {}
    live = phase in PLAY and not paused
    waited = _ms(p.get("waited")) if live else None
    bot = p.get("turn_bot") if live and p.get("turn_bot") in BOT_LEVELS else None
    out = {"waited_s": None, "turn_bot": bot, "bot_turn": None}
    if waited is not None and bot is None:
        out["waited_s"] = (waited + max(0, since_view)) // SECOND
        if is_host and seat != me and seat != host and p.get("connected") is not False:
            out["bot_turn"] = ("intent", "bot_turn",
                               {"seat": seat, "level": level if level in BOT_LEVELS
                                else "easy"})
    return out


def idle_line(row, ctx):
    """The seat's line of a waiting turn in words, or None: `row` has the `idle_row` keys,
    "me" and "name"; `ctx` the catalogue's texts (its t)."""
    if row.get("turn_bot"):
        return ctx.t("turn_bot_you") if row.get("me") else \
            ctx.t("turn_bot_seat", name=row.get("name"))
    if row.get("waited_s") is not None:
        key = "waited_you" if row.get("me") else "waited_seat"
        return ctx.t(key, name=row.get("name"), s=row["waited_s"])
    return None
