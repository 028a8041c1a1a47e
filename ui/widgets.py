"""The pieces screens are drawn from: buttons, selects, cards, the top bar.

Each returns a tree node (ui/vdom.py) and registers what a live control does in `ctx`.
Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from ui import cards
from ui import i18n
from ui.vdom import h


def button(ctx, testid, label, spec=None, cls="btn", extra=None):
    """A button; live (with a data-act) only when it has a spec, disabled otherwise."""
    a = {"type": "button", "class": cls, "data-testid": testid}
    if spec is None:
        a["disabled"] = True
    else:
        a["data-act"] = ctx.act(testid, spec)
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
    `label`: its accessible name (a face's own name by default; a back has none by itself)."""
    a = {}
    for k in attrs:
        a[k] = attrs[k]
    tag = a.pop("tag", "div")
    if label:
        a["aria-label"] = label
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
        kids = [h("span", {"class": "corner"}, h("b", None, rank), h("i", None, suit)),
                h("span", {"class": "pip" + (" court" if card[0] in "JQK" else "")}, center),
                h("span", {"class": "corner flip"}, h("b", None, rank), h("i", None, suit))]
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
    return card_node(card, attrs, size, cls, label)


def lang_switch(ui, ctx):
    out = []
    for code in i18n.LANGS:
        cur = ui.get("lang") == code
        out.append(h("button", {"type": "button", "class": "lang" + (" on" if cur else ""),
                                "data-testid": "lang-" + code, "aria-pressed": "true" if cur else "false",
                                "aria-label": ctx.t("lang_" + code), "lang": code,
                                "data-act": ctx.act("lang-" + code, ("local", "lang", code))},
                     code.upper()))
    return h("div", {"class": "langs"}, out)


def topbar(ui, ctx, title=None):
    return h("header", {"class": "topbar"},
             h("div", {"class": "brand"}, h("span", {"class": "logo"}, "\u2660"),
               h("span", {"class": "title" + (" small" if title else "")},
                 title or ctx.t("app_name"))),
             lang_switch(ui, ctx))
