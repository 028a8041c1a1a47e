"""Quick reactions on the table's screen (docs/protocol.md "Quick reactions"): the bubble on a
seat while its reaction shows, and the picker a seated player sends one from. Both are gone
when this page turned reactions off (the menu's `reactions-toggle`: ui["reactions"] False).

Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from ui.page.screens.icons import icon
from ui.page.dom.vdom import h
from ui.page.screens.viewmodel import read
from ui.page.screens.widgets import button
from ui.shared.reactions import REACTIONS, SHOW_MS, is_icon, showing, words_key


def shown(model, ui, ctx):
    """{seat: (index, n)}: the reactions to show now (`ctx`'s clock) on each seat (`n`: how
    many came from that seat: a new one is drawn anew); {} when this page turned them off.
    Each goes when its time is up (the render's `ctx.wake_at` then, viewmodel.Ctx)."""
    if ui.get("reactions", True) is False:
        return {}
    got = read(model, "reactions", {}) or {}
    out = {}
    for seat, r in showing(got, ctx.instant()).items():
        out[int(seat)] = (r, got[seat]["n"])
        ctx.wake_at(got[seat]["at"] + SHOW_MS)
    return out


def drawn(ctx, index):
    """Reaction `index` as shown: its icon (named by its words for screen readers), or its
    phrase in the page's language."""
    if is_icon(index):
        return icon("react-" + REACTIONS[index])
    return ctx.t(words_key(index))


def bubble(ctx, info, seat):
    """The bubble on seat `seat` while its reaction shows (info["reactions"]: `shown`), or
    None. Decoration over the seat: it takes no tap."""
    got = (info.get("reactions") or {}).get(seat)
    if got is None:
        return None
    index, n = got
    a = {"class": "reaction " + ("face" if is_icon(index) else "phrase") + " a" + str(n % 2),
         "data-testid": "reaction-" + str(seat), "data-r": str(index)}
    if is_icon(index):
        a.update({"role": "img", "aria-label": ctx.t(words_key(index))})
    return h("span", a, drawn(ctx, index))


def picker(ui, ctx, live=True):
    """The seated player's reactions: a button that opens the choices, one button each
    (`react-<index>`: sends it and closes); None when this page turned reactions off. Not
    `live` (the game paused: the host silent or a handover under way, nobody to hear it):
    the button shows, disabled, and the choices are closed (nothing a player can
    tap that does nothing)."""
    if ui.get("reactions", True) is False:
        return None
    is_open = bool(ui.get("react_open")) and live
    label = ctx.t("react_close" if is_open else "react_open")
    toggle = button(ctx, "react-open", icon("react-laugh"),
                    ("local", "react_menu", not is_open) if live else None,
                    "btn small react-btn", {"aria-expanded": "true" if is_open else "false",
                                            "aria-label": label, "title": label})
    choices = None
    if is_open:
        choices = h("div", {"class": "react-picker", "data-testid": "react-picker",
                            "role": "group", "aria-label": ctx.t("react_open")},
                    [button(ctx, "react-" + str(i), drawn(ctx, i), ("local", "react", i),
                            "btn react-choice" + (" face" if is_icon(i) else ""),
                            {"aria-label": ctx.t(words_key(i)), "title": ctx.t(words_key(i))}
                            if is_icon(i) else None)
                     for i in range(len(REACTIONS))])
    return h("span", {"class": "react-box"}, toggle, choices)
