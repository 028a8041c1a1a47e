"""The guest's join screen (ui/page/screens/screens.py `build` places it): looking for the room, then the
name and Join; the room's refusal of a name. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from ui.page.screens import away_screens, watch_screens
from ui.page.dom.vdom import h
from ui.page.screens.viewmodel import read
from ui.page.screens.widgets import decor, has_name, name_input, needs_name
from ui.page.screens.room_words import invitation

def join_tree(model, ui, ctx):
    ok = has_name(ui)
    status = read(model, "status", "")
    # after the tap (a reloaded page that takes its seat back by itself: `coming_back_tree`)
    busy = status in ("connecting", "looking") and bool(ui.get("joined"))
    if status in ("no_room", "no_webrtc", "bad_link"):
        # the banner above says why (no game here; this browser cannot play with friends)
        # and offers the way back, or solo: no form that could never work
        return h("main", {"class": "panel join"},
                 h("div", {"class": "hero"},
                   h("div", {"class": "fan"},
                     decor(None, "f1"), decor(None, "f2"), decor(None, "f3")),
                   h("h2", None, ctx.t(status + "_title"))))
    if read(model, "token") and read(model, "name_error") is None:
        return away_screens.coming_back_tree(ctx)    # its seat taken back by itself: no form
    if watch_screens.room_full(model):
        return watch_screens.room_full_tree(model, ui, ctx)   # watch, and play when there is room
    if not room_answered(model):
        # no form until the room answers: a name typed into a link that leads
        # nowhere was a join into nothing; the room's first answer brings the form
        return h("main", {"class": "panel join"},
                 h("div", {"class": "hero"},
                   h("div", {"class": "fan"},
                     decor(None, "f1"), decor("Ks", "f2"), decor(None, "f3")),
                   h("h2", {"data-testid": "looking-room"}, ctx.t("looking_room")),
                   h("p", {"class": "tagline"}, ctx.t("looking_hint"))))
    # who invites and who is there (room_words.invitation); the button asks for a name
    # where it is typed, as the landing's do (widgets.needs_name)
    title, with_whom = invitation(model, ctx)
    return h("main", {"class": "panel join"},
             h("div", {"class": "hero"},
               h("div", {"class": "fan"},
                 decor(None, "f1"), decor("Ks", "f2"), decor(None, "f3")),
               h("h2", {"data-testid": "invited"}, title),
               h("p", {"class": "tagline", "data-testid": "invited-with"}, with_whom)
               if with_whom else None,
               h("p", {"class": "tagline"}, ctx.t("tagline"))),
             name_input(ui, ctx),
             name_refusal(model, ctx),
             needs_name(ctx, ok, "join-room",
                        ctx.t("busy_joining") if busy else ctx.t("join_room"), "join",
                        "btn primary big"))


def room_answered(model):
    """Whether the room has answered this page (its lobby, `watching`, a seat, a refused
    name, its `bad_version`, or the host's page saying its table is being set up:
    ui/page/host/early.py): until
    then a guest's join screen has nothing to join. A page rejoining with its seat token
    joins by itself and shows the form busy."""
    return (read(model, "lobby") is not None or bool(read(model, "spectator", False))
            or read(model, "seat") is not None or bool(read(model, "token"))
            or read(model, "name_error") is not None
            or isinstance(read(model, "setup"), dict)    # the host's page: setting up
            or isinstance(read(model, "version_clash"), dict))   # another version's room


def name_refusal(model, ctx):
    """Why the room refused the name (taken, or nothing visible), until the next join."""
    code = read(model, "name_error")
    if code not in ("bad_name", "name_taken"):
        return None
    return h("p", {"class": "hint note-warn", "data-testid": "name-error", "role": "alert"},
             ctx.t("err_" + code))
