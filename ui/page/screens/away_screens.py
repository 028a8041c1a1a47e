"""The table's lines for a player who was away or is elsewhere (ui/page/screens/screens.py `build` places
them above the table): "while you were away" with what was missed (ui/page/screens/away.py), the
offer of a system notice of one's turn, the nudge of a turn that waits, and a reloaded page's
"coming back to the table". Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from ui.page.screens import away
from ui.page.dom.vdom import h
from ui.page.screens.viewmodel import card_text, player_list, read, seat_name
from ui.page.screens.widgets import button


def away_note(model, ui, ctx):
    """The "while you were away" note (ui["away"]: away.away_summary's, with "at", the ms it
    came) on the table for SUMMARY_MS or until OK (`away-ok`); None otherwise."""
    summary = ui.get("away")
    if not isinstance(summary, dict) or read(model, "screen") != "table" \
            or not ctx.within(summary.get("at") or 0, away.SUMMARY_MS):
        return None
    players = player_list(model)
    lines = away.summary_lines(summary, read(model, "seat"),
                               lambda seat: seat_name(players, seat, ctx), ctx, card_text)
    if not lines:
        return None
    return h("div", {"class": "banner away-note", "data-testid": "away-summary",
                     "role": "status"},
             h("strong", None, ctx.t("away_title")), " ",
             h("span", {"data-testid": "away-lines"}, "; ".join(lines) + "."), " ",
             button(ctx, "away-ok", ctx.t("away_ok"), ("local", "away_ok", None),
                    "btn small"))


def notify_offer(model, ui, ctx):
    """The one offer of a system notice when it is this player's turn (ui["notify_offer"],
    set by the page once, at a table where this page has a seat and the browser can ask):
    two buttons, `notify-yes` (the browser then asks) and `notify-no`."""
    if not ui.get("notify_offer") or read(model, "screen") != "table" \
            or read(model, "seat") is None:
        return None
    return h("div", {"class": "banner notify-offer", "data-testid": "notify-offer",
                     "role": "status"},
             h("span", None, ctx.t("notify_offer")), " ",
             button(ctx, "notify-yes", ctx.t("notify_yes"), ("local", "notify", True),
                    "btn small primary"), " ",
             button(ctx, "notify-no", ctx.t("notify_no"), ("local", "notify", False),
                    "btn small"))


def nudge_note(model, ui, ctx):
    """"Still your turn" while this seat's turn has waited past NUDGE_MS (ui["nudge"]: the
    turn's key, from the page's Backlog, while it lasts)."""
    if not ui.get("nudge") or read(model, "screen") != "table":
        return None
    return h("p", {"class": "hint note-warn nudge", "data-testid": "nudge", "role": "status"},
             ctx.t("nudge_you"))


def coming_back_tree(ctx):
    """A reloaded page taking its seat back: no form, no alarm, "coming back to the table"."""
    return h("main", {"class": "panel join"},
             h("div", {"class": "hero"},
               h("h2", {"data-testid": "coming-back"}, ctx.t("coming_back")),
               h("p", {"class": "tagline"}, ctx.t("coming_back_hint"))))
