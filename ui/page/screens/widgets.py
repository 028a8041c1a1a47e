"""The pieces screens are drawn from: buttons, selects, cards, the top bar.

Each returns a tree node (ui/page/dom/vdom.py) and registers what a live control does in `ctx`.
Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from ui.page.screens import cards
from ui.page.i18n import i18n
from ui.page.client import taps
from ui.page.screens.icons import icon
from ui.page.screens.rules import rules_text  # noqa: F401 (the landing's and the menu's)
from ui.page.dom.memo import kept
from ui.page.dom.vdom import h
from ui.shared.limits import NAME_MAX


def button(ctx, testid, label, spec=None, cls="btn", extra=None):
    """A button; live (with a data-act) only when it has a spec, disabled otherwise."""
    a = {"type": "button", "class": cls, "data-testid": testid}
    if spec is None:
        a["disabled"] = True
    else:
        a["data-act"] = ctx.act(testid, spec)
        taps.mark(a, ctx, spec)         # the move just sent: pressed until the room answers
    if extra:
        for k in extra:
            a[k] = extra[k]
    return h("button", a, label)


def select(ctx, testid, options, current, spec=None, label=None):
    """A <select>; options [(value, text)]; read-only (disabled) without a spec."""
    a = {"data-testid": testid, "value": str(current)}
    if spec is None:
        a["disabled"] = True
    else:
        a["data-act"] = ctx.act(testid, spec)
    if label:
        a["aria-label"] = label
    return h("select", a, [h("option", {"value": str(v)}, t) for v, t in options])


def card_name(ctx, code):
    """A card in words, for screen readers: "Queen of hearts", "10 of spades"."""
    r = code[0]
    rank = ctx.t("rank_" + r) if r in "AJQK" else cards.rank_label(code)
    return ctx.t("card_name", rank=rank, suit=ctx.t("suit_" + code[1]))


def place_label(ctx, what, card):
    """ "your left card, face down", "Ana's right card, 7 of clubs" (a face only when shown)."""
    return ctx.t("card_is", what=what,
                 card=card_name(ctx, card) if cards.is_card(card) else ctx.t("face_down"))


def card_node(card, attrs, size, cls="", label=None):
    """A card: its face (with data-card) only when `card` is a visible code, else its back.
    `label`: its accessible name (a face's own name by default; a back has none by itself).
    A face's drawing ("7♣" in its corners) is hidden from screen readers and its name given
    as its title, not aria-label: a name that does not contain the visible text is an axe
    violation (label-content-name-mismatch), and the name says it better in words."""
    a = {}
    for k in attrs:
        a[k] = attrs[k]
    tag = a.pop("tag", "div")
    if label:
        a["title" if cards.is_card(card) else "aria-label"] = label
        if tag != "button":
            a["role"] = "img"
    if cards.is_card(card):
        rank = cards.rank_label(card)
        suit = cards.suit_symbol(card)
        a["class"] = "card " + size + " face " + cards.color(card) + " " + cls
        a["data-card"] = card
        if not label:
            a["aria-label"] = rank + suit
        center = rank if card[0] in "JQK" else suit
        if size == "xs":
            center = rank + suit
        # the drawing is hidden from screen readers: the card's name says it in words
        kids = [h("span", {"class": "corner", "aria-hidden": "true"},
                  h("b", None, rank), h("i", None, suit)),
                h("span", {"class": "pip" + (" court" if card[0] in "JQK" else ""),
                           "aria-hidden": "true"}, center),
                h("span", {"class": "corner flip", "aria-hidden": "true"},
                  h("b", None, rank), h("i", None, suit))]
    else:
        a["class"] = "card " + size + " back " + cls
        kids = []
    return h(tag, a, kids)


def decor(card, cls):
    """A card drawn as decoration (the landing's fan): a face, but no data-card, which only
    game cards carry."""
    node = card_node(card, {"aria-hidden": "true"}, "md", cls)
    node["attrs"].pop("data-card", None)
    return node


def card_button(ctx, testid, card, size, spec, cls="", label=None):
    attrs = {"tag": "button", "type": "button", "data-testid": testid}
    if spec is None:
        attrs["disabled"] = True
    else:
        attrs["data-act"] = ctx.act(testid, spec)
        cls = cls + " live"
        if taps.is_tapped(getattr(ctx, "tapped", None), spec):
            cls = cls + " pending"      # the card lifts until the room answers
            attrs["aria-busy"] = attrs["data-pending"] = "true"
    return card_node(card, attrs, size, cls, label)


def lang_switch(ui, ctx):
    out = []
    for code in i18n.LANGS:
        cur = ui.get("lang") == code
        out.append(h("button", {"type": "button", "class": "lang" + (" on" if cur else ""),
                                "data-testid": "lang-" + code, "aria-pressed": "true" if cur else "false",
                                "aria-label": code.upper() + ", " + ctx.t("lang_" + code),
                                "lang": code,
                                "data-act": ctx.act("lang-" + code, ("local", "lang", code))},
                     code.upper()))
    return h("div", {"class": "langs"}, out)




def topbar(ui, ctx, title=None, in_room=False, sub=None, invite=None, ask=None):
    """The bar on top of every screen: the game's name (or `title`, the round, with `sub`
    under it, the game's target: two short lines fit a 360 px phone where one long line was
    cut; the whole is the title's tooltip), the language buttons, and the menu (`menu`): the
    rules, sound on or off, the language, and leaving the room (`menu-leave`, asked twice)
    when `in_room` ("host" | "guest" | "solo": viewmodel.room_role; the host's leaving
    closes the room, a solo game's ends it; `ask`: the question's words when the page knows
    better, room_words.leave_question). Closed, it is kept from the last render while
    its words are the same (memo.kept)."""
    if ui.get("menu_open"):
        return _topbar(ui, ctx, title, in_room, sub, invite, ask)
    return kept(ctx, "topbar", (ctx.lang, ui.get("lang"), title, sub), _topbar, ui, ctx, title,
                in_room, sub)


def _topbar(ui, ctx, title, in_room, sub, invite=None, ask=None):
    is_open = bool(ui.get("menu_open"))
    if title:
        words = h("span", {"class": "title small",
                           "title": title + (" \u00b7 " + sub if sub else "")},
                  h("span", {"class": "title-main"}, title),
                  h("span", {"class": "title-sub"}, sub) if sub else None)
    else:
        words = h("span", {"class": "title"}, ctx.t("app_name"))
    return h("header", {"class": "topbar"},
             h("div", {"class": "brand"}, h("span", {"class": "logo"}, icon("spade")), words),
             lang_switch(ui, ctx),
             button(ctx, "menu", [icon("menu"), " ",
                                  h("span", {"class": "menu-word"}, ctx.t("menu"))],
                    ("local", "menu", not is_open), "btn menu-btn",
                    {"aria-expanded": "true" if is_open else "false",
                     "aria-controls": "menu-panel"}),
             menu_panel(ui, ctx, in_room, invite, ask) if is_open else None)


def menu_panel(ui, ctx, in_room, invite=None, ask_text=None):
    sound = ui.get("sound", True) is not False
    react = ui.get("reactions", True) is not False
    asking = bool(ui.get("leave_ask"))
    leave = None
    if in_room:
        if asking:
            ask = ask_text or ctx.t({"host": "leave_ask_host",
                                     "solo": "leave_ask_solo"}.get(in_room, "leave_ask"))
            leave = h("div", {"class": "leave-ask", "role": "group", "aria-label": ask},
                      h("p", None, ask),
                      h("div", {"class": "row"},
                        button(ctx, "menu-leave-confirm", ctx.t("leave"),
                               ("intent", "leave", {}), "btn danger"),
                        button(ctx, "menu-leave-cancel", ctx.t("cancel"),
                               ("local", "leave_ask", False), "btn")))
        else:
            leave = button(ctx, "menu-leave",
                           ctx.t("leave_solo" if in_room == "solo" else "leave_room"),
                           ("local", "leave_ask", True), "btn")
    return h("div", {"class": "menu-panel", "id": "menu-panel", "data-testid": "menu-panel",
                     "role": "region", "aria-label": ctx.t("menu")},
             h("div", {"class": "menu-row"},
               button(ctx, "sound-toggle",
                      [icon("sound-on" if sound else "sound-off"), " ",
                       ctx.t("sound_on") if sound else ctx.t("sound_off")],
                      ("local", "sound", not sound), "btn sound",
                      {"aria-pressed": "true" if sound else "false"}),
               button(ctx, "reactions-toggle",
                      ctx.t("reactions_on") if react else ctx.t("reactions_off"),
                      ("local", "reactions", not react), "btn reactions",
                      {"aria-pressed": "true" if react else "false"}),
               h("label", {"class": "field inline"}, h("span", None, ctx.t("language")),
                 select(ctx, "menu-lang", [(c, ctx.t("lang_" + c)) for c in i18n.LANGS],
                        ui.get("lang", "en"), ("field", "lang")))),
             invite,
             leave,
             h("section", {"class": "menu-rules", "data-testid": "menu-rules"},
               h("h2", None, ctx.t("how_to_play")), rules_text(ctx, card_node)),
             button(ctx, "menu-close", ctx.t("close"), ("local", "menu", False), "btn"))


def name_input(ui, ctx):
    """The player's name field (ui["name"], at most NAME_MAX characters), with a hint under
    it while it is empty; after a tap that needed the name (ui["name_ask"]: intents.submit)
    the field is marked invalid and the hint is an alert (`data-ask`), said and shown at
    once beside the field the page has just focused."""
    ask = bool(ui.get("name_ask")) and not has_name(ui)
    return h("label", {"class": "field"},
             # how long a name may be, said before it is typed
             h("span", None, ctx.t("your_name"), " ",
               h("small", {"class": "name-max", "data-testid": "name-max"},
                 ctx.t("name_max", n=NAME_MAX))),
             h("input", {"type": "text", "data-testid": "player-name", "maxlength": str(NAME_MAX),
                         "autocomplete": "nickname", "enterkeyhint": "go",
                         "placeholder": ctx.t("name_placeholder"), "value": ui.get("name", ""),
                         "aria-describedby": None if has_name(ui) else "name-hint",
                         "aria-invalid": "true" if ask else None,
                         "data-act": ctx.act("player-name", ("field", "name"))}),
             # after the input: the hint coming or going never redraws the field being typed in
             None if has_name(ui) else h("small", {"class": "hint name-hint", "id": "name-hint",
                                                   "data-testid": "name-hint",
                                                   "role": "alert" if ask else None,
                                                   "data-ask": "true" if ask else None},
                                         ctx.t("name_needed")))


def needs_name(ctx, ok, testid, label, arg, cls):
    """A button that needs the typed name (`ok`: one is typed): always live, its tap
    `("local", "submit", arg)` (intents.submit: without a name it asks for one and brings
    the field into view); while no name is typed it points at the hint (aria-describedby)."""
    return button(ctx, testid, label, ("local", "submit", arg), cls,
                  None if ok else {"aria-describedby": "name-hint"})


def has_name(ui):
    """Whether the player typed a name (not only spaces)."""
    return bool((ui.get("name") or "").strip())


def leave_button(ctx):
    """`leave` where the menu's is not enough (a spectator's bar, the host-gone panel): the
    room hears it first when there is one, then the page forgets the room and opens the
    landing (ui/page/base_page.py `Page.leave`, as the menu's `menu-leave-confirm`)."""
    return button(ctx, "leave", ctx.t("leave"), ("intent", "leave", {}), "btn leave")
