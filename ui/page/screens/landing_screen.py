"""The landing screen (ui/page/screens/screens.py `build` places it): the card fan, the guided offer, the
host's saved game to resume, the name, play with friends, join by a code, solo, the rules.
Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from ui.page.screens import guided_screens
from ui.page.screens import netscreens
from ui.shared import roomcode
from ui.shared.limits import MAX_PLAYERS
from ui.page.screens.solo_button import solo_button
from ui.page.dom.vdom import h, isolate, keyed
from ui.page.screens.viewmodel import read
from ui.page.screens.widgets import (button, card_node, decor, has_name, name_input, rules_text,
                                     select)

def resume_box(model, ctx):
    """The host's saved game, offered on the landing: resume it, or abandon it."""
    saved = read(model, "resume")
    if not isinstance(saved, dict):
        return None
    names = ", ".join([isolate(n) for n in saved.get("names") or [] if n])
    return h("section", {"class": "card-box resume", "data-testid": "resume"},
             h("h2", None, ctx.t("resume_title")),
             h("p", {"class": "hint"}, ctx.t("resume_hint", names=names)),
             h("div", {"class": "row"},
               button(ctx, "resume-room", ctx.t("resume_room"),
                      ("intent", "resume_room", {}), "btn primary big"),
               button(ctx, "abandon-room", ctx.t("abandon_room"),
                      ("intent", "abandon_room", {}), "btn")))


def landing_tree(model, ui, ctx):
    ok = has_name(ui)
    bots = [(i, str(i)) for i in range(1, MAX_PLAYERS)]
    levels = [("easy", ctx.t("level_easy")), ("hard", ctx.t("level_hard")),
              ("expert", ctx.t("level_expert"))]
    # keyed: the resume offer coming or going never redraws the name field being typed in
    return h("main", {"class": "panel landing"},
             keyed(h("div", {"class": "hero"},
                     h("div", {"class": "fan"},
                       decor("Qh", "f1"), decor(None, "f2"), decor("7s", "f3")),
                     h("p", {"class": "tagline"}, ctx.t("tagline"))), "hero"),
             keyed(guided_screens.offer_box(model, ui, ctx), "guided"),
             keyed(resume_box(model, ctx), "resume"),
             keyed(save_refused(model, ctx), "refused"),
             keyed(name_input(ui, ctx), "name"),
             keyed(netscreens.friends_box(model, ctx, ok), "friends"),
             keyed(code_box(ui, ctx) if read(model, "webrtc", True) is not False else None,
                   "code"),
             keyed(h("section", {"class": "card-box"},
               h("h2", None, ctx.t("solo")),
               h("div", {"class": "row pickers"},
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("bots")),
                   select(ctx, "solo-bots", bots, ui.get("bots", 3), ("field", "bots"))),
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("level")),
                   select(ctx, "solo-level", levels, ui.get("level", "easy"), ("field", "level"))),
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("opt_target")),
                   select(ctx, "solo-target", [(v, str(v)) for v in (50, 100, 150)],
                          ui.get("target", 100), ("field", "target")))),
               solo_button(ctx, ok, ui.get("solo"), read(model, "engine_wait"),
                           read(model, "error"))), "solo"),
             keyed(h("details", {"class": "rules"},
                     h("summary", None, ctx.t("how_to_play")), rules_text(ctx, card_node)),
                   "rules"))


def code_box(ui, ctx):
    """Join a friend's room by its code (read out, typed in any case, with spaces or dashes:
    ui/shared/roomcode.py). The button opens that room's guest page."""
    code = roomcode.parse(ui.get("code"))
    typed = bool((ui.get("code") or "").strip())
    return h("section", {"class": "card-box join-code"},
             h("h2", None, ctx.t("have_code")),
             h("label", {"class": "field"}, h("span", None, ctx.t("room_code")),
               h("input", {"type": "text", "data-testid": "room-code", "maxlength": "400",
                           "autocomplete": "off", "autocapitalize": "characters",
                           "spellcheck": "false", "enterkeyhint": "go",
                           "placeholder": ctx.t("code_placeholder"),
                           "value": ui.get("code", ""),
                           "aria-describedby": "code-hint",
                           "data-act": ctx.act("room-code", ("field", "code"))})),
             h("small", {"class": "hint", "id": "code-hint"},
               ctx.t("code_bad") if (typed and code is None) else ctx.t("code_hint")),
             button(ctx, "join-code", ctx.t("join_code"),
                    ("local", "join_code") if code else None, "btn big"))


def save_refused(model, ctx):
    """The landing's note that the saved room was refused (damaged or changed) and dropped."""
    if not read(model, "refused"):
        return None
    return h("p", {"class": "hint note-warn", "data-testid": "save-refused", "role": "alert"},
             ctx.t("save_refused"))
