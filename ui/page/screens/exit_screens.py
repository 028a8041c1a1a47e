"""The ways out (ui/page/screens/screens.py `build` places them): the room link opened in the browser
that hosts it, and the room gone. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from ui.page.i18n import i18n
from ui.page.dom.vdom import h
from ui.page.screens.viewmodel import read
from ui.page.screens.widgets import button

def own_room_tree(model, ui, ctx):
    """The room link opened in the browser that hosts the room: never a second seat. A tab
    runs the room ("elsewhere"): say so; none does ("resume"): offer to resume hosting."""
    own = read(model, "own")
    if own == "resume":
        return h("main", {"class": "panel own-room"},
                 h("h2", {"data-testid": "own-room"}, ctx.t("own_room_resume")),
                 h("p", None, button(ctx, "resume-hosting", ctx.t("resume_hosting"),
                                     ("intent", "resume_hosting", {}), "btn primary big")),
                 h("p", None, h("a", {"class": "btn", "href": "./", "data-testid": "back-home"},
                                ctx.t("back_to_start"))))
    return h("main", {"class": "panel own-room"},
             h("h2", {"data-testid": "own-room"}, ctx.t("own_room_elsewhere")))


def gone_tree(model, ui, ctx):
    err = read(model, "error")
    code = err.get("code") if isinstance(err, dict) else None
    status = read(model, "status", "")
    key = "gone_" + code if code and i18n.has(ctx.lang, "gone_" + code) else (
        "gone_host" if status == "host_gone" else "gone_generic")
    return h("main", {"class": "panel gone"},
             h("h2", {"data-testid": "gone"}, ctx.t(key)),
             h("p", None, h("a", {"class": "btn primary big", "href": "./",
                                  "data-testid": "back-home"}, ctx.t("back_to_start"))))
