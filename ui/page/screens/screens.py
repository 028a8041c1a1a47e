"""The screens: `build`, which picks one for the model (landing_screen.py, join_screen.py,
lobby_screen.py, exit_screens.py, the table: table.py), and the notes over every screen.

`build(model, ui, ctx)` turns the Client model (docs/protocol.md) plus this screen's own small
state `ui` into a tree (ui/page/dom/vdom.py), collecting in `ctx` what each live element does; the table
itself is ui/page/screens/table.py. Names and every other text go into text nodes, so a name such as
`<img src=x onerror=alert(1)>` shows exactly as typed. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from crisp_core.actions import END_PHASES
from ui.page.i18n import i18n
from ui.page.screens import away_screens
from ui.page.screens import watch_screens
from ui.page.screens.banner import ENGINE_STAGES, connection_banner  # noqa: F401 (main.py's)
from ui.page.screens.exit_screens import gone_tree, own_room_tree
from ui.page.screens.invite import do_later, menu_invite, qr_style, room_link  # noqa: F401 (render's, base_page's)
from ui.page.screens.join_screen import join_tree, room_answered  # noqa: F401 (early's tests)
from ui.page.screens.landing_screen import landing_tree
from ui.page.screens.lobby_screen import lobby_tree
from ui.page.screens.table import table_tree
from ui.page.dom.vdom import h, keyed
from ui.page.screens.viewmodel import player_list, read, room_role, seat_name  # noqa: F401 (tests')
from ui.page.screens.widgets import topbar
from ui.page.screens.room_words import leave_question


def error_toast(model, ctx):
    err = read(model, "error")
    if not err or (read(model, "screen") == "join" and read(model, "name_error")):
        return None             # (a refused name is said on the join screen itself)
    code = err.get("code") if isinstance(err, dict) else None
    msg = ctx.t("err_" + code) if (code and i18n.has(ctx.lang, "err_" + code)) else None
    if msg is None:
        msg = (err.get("text") if isinstance(err, dict) else str(err)) or ctx.t("err_generic")
    return h("div", {"class": "toast", "data-testid": "error", "role": "alert"}, msg)


def build(model, ui, ctx):
    """The whole page for the model: a tree (one root node). Acts are collected in ctx."""
    screen = read(model, "screen", "landing")
    title = sub = None
    if screen == "join":
        body = join_tree(model, ui, ctx)
    elif screen == "lobby":
        body = lobby_tree(model, ui, ctx)
    elif screen == "table":
        body = table_tree(model, ui, ctx)
        view = read(model, "view", {}) or {}
        title = ctx.t("round_n", n=view.get("round", 1))
        target = (view.get("options") or {}).get("target")
        if target:
            sub = ctx.t("to_target", n=target)
    elif screen == "gone":
        body = gone_tree(model, ui, ctx)
    elif screen == "own_room":
        body = own_room_tree(model, ui, ctx)
    else:
        screen = "landing"
        body = landing_tree(model, ui, ctx)
    in_room = None
    if screen in ("lobby", "table"):
        in_room = room_role(model)
    # Keyed parts: the connection banner coming or going must not shift the screen's body
    # to another index (that redrew the join panel, and its name field lost focus and the
    # phone's keyboard as the player typed). A new screen is a new body.
    return h("div", {"class": "screen screen-" + screen, "data-screen": screen},
             keyed(topbar(ui, ctx, title, in_room, sub,
                          menu_invite(model, ui, ctx) if ui.get("menu_open") else None,
                          leave_question(model, ctx, in_room)), "top"),
             keyed(connection_banner(model, ctx, ui), "conn"),
             keyed(storage_note(ui, ctx), "store"),
             keyed(redealt_note(model, ctx) if screen == "table" else None, "redealt"),
             keyed(away_screens.away_note(model, ui, ctx), "away"),
             keyed(away_screens.notify_offer(model, ui, ctx), "notify"),
             keyed(away_screens.nudge_note(model, ui, ctx), "nudge"),
             keyed(watch_screens.took_note(model, ctx) if screen == "table" else None, "took"),
             keyed(watch_screens.watchers_line(model, ctx) if screen in ("lobby", "table")
                   else None, "watchers"),
             keyed(body, "body:" + screen),
             keyed(None if screen == "gone" else error_toast(model, ctx), "toast"))


def storage_note(ui, ctx):
    """One line on every screen while the browser keeps nothing (storage refused or full,
    ui/page/storage.py `state`): the game goes on, but a reload would lose the seat."""
    if ui.get("storage", "ok") == "ok":
        return None
    return h("p", {"class": "hint note-warn storage-note", "data-testid": "storage-note",
                   "role": "note"}, ctx.t("storage_note"))


def redealt_note(model, ctx):
    """Why the round starts over (a host handover that could not open the sealed room deals
    the interrupted round again, docs/protocol.md "Host handover"): while that round lasts."""
    n = read(model, "redealt")
    view = read(model, "view", {}) or {}
    if not isinstance(n, int) or view.get("round") != n or view.get("phase") not in (
            "peek", "play", "last_turns"):
        return None
    # the phone that went quiet by name (the Client's `old_host`: the seat that hosted
    # before the handover) when the page knows it; else that the game moved, naming nobody
    gone = read(model, "old_host")
    players = player_list(model)
    said = (ctx.t("redealt_named", n=n, name=seat_name(players, gone, ctx))
            if gone in players and players[gone].get("name") else ctx.t("redealt", n=n))
    return h("p", {"class": "hint note-warn", "data-testid": "redealt", "role": "note"}, said)


def opens_at_top(before, after):
    """Whether the page scrolls back to its top as it draws screen `after` where `before`
    was drawn (None: nothing yet): a new screen opens at its top, never at the scroll the
    last one had (the host's table opened 434 px down, where the landing was left, issue
    20.3); a screen drawn again keeps the player's scroll."""
    return before is not None and before != after


def scroll_key(screen, view):
    """What `opens_at_top` compares: the screen's name (str), and on the table the end of a
    round or of the game as a screen of its own ("table:end:3"), so that the results open at
    the page's top (a tester's solo results opened 193 px down, where the hand had been) and
    the next round's deal does too; a move keeps the player's scroll. `view`: the table's
    view (a dict) or anything else."""
    if screen == "table" and isinstance(view, dict) and view.get("phase") in END_PHASES:
        return "table:end:" + str(view.get("round"))
    return screen
