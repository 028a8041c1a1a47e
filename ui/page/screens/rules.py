"""The rules screen's part: the whole rules of Crisp in player words (es/en), as headings and
paragraphs (ui/page/i18n/i18n_rules.py), shown by the landing's "How to play" and by the menu.
Every rule of docs/rules.md a player meets at the table is there: the one look, the unseen
center card, the Queen's one look, the 3 s to call crisp, ties, the options. Pure (a
ui/page/dom/vdom.py tree).
"""

from ui.page.dom.vdom import h
from ui.page.screens.icons import icon

# (heading key or None, [paragraph keys]) in the order a player meets them
SECTIONS = (
    ("rules_goal_h", ("rules_goal",)),
    ("rules_values_h", ("rules_values",)),
    ("rules_deal_h", ("rules_deal",)),
    ("rules_turn_h", ("rules_turn",)),
    ("rules_specials_h", ("rules_jack", "rules_queen", "rules_king", "rules_memory",
                          "rules_deck")),
    ("rules_crisp_h", ("rules_crisp",)),
    ("rules_score_h", ("rules_score", "rules_end")),
    ("rules_options_h", ("rules_timer", "rules_discard")),
)


# The picture above the words: a hand as the table draws it, each card with its caption
# (left and right: seen once at the deal; the center: unseen until a Jack, R2.4, R4.4)
PICTURE = (("9h", "rules_pic_left"), (None, "rules_pic_center"), ("4c", "rules_pic_right"))
# The seat icons of the table (ui/page/screens/table.py seat_badges), each with its word
LEGEND = (("host", "tip_host"), ("dealer", "tip_dealer"), ("bot", "tip_bot"),
          ("caller", "tip_caller"))
FIGURE_KEYS = ("rules_pic_h", "rules_pic_left", "rules_pic_center", "rules_pic_right",
               "rules_legend_h")


def picture(ctx, draw_card):
    """A hand of three cards drawn as the table draws them (`draw_card`: widgets.card_node,
    passed in: widgets shows these rules), each with what its player knows of it, and the
    seat icons' legend. A vdom node."""
    hand = [h("figure", {"class": "rules-card"}, _drawn(draw_card(card, {}, "sm")),
              h("figcaption", None, ctx.t(key))) for card, key in PICTURE]
    legend = [h("li", None, icon(name), " " + ctx.t(key)) for name, key in LEGEND]
    return h("div", {"class": "rules-picture", "data-testid": "rules-picture"},
             h("h3", {"class": "rules-h"}, ctx.t("rules_pic_h")),
             h("div", {"class": "rules-hand"}, hand),
             h("p", {"class": "rules-legend-h"}, ctx.t("rules_legend_h")),
             h("ul", {"class": "rules-legend", "data-testid": "icon-legend"}, legend))


def _drawn(node):
    """A card of the picture: drawn as the table's, but no card of the table (no data-card,
    which the table's cards carry), and hidden from screen readers: its caption says it
    (an aria-label on a plain div is not allowed, axe's aria-prohibited-attr)."""
    node["attrs"].pop("data-card", None)
    node["attrs"].pop("aria-label", None)
    node["attrs"]["aria-hidden"] = "true"
    return node


def rules_text(ctx, draw_card=None):
    """The rules as a list of nodes: the picture (a hand, the seat icons: with `draw_card`,
    the page's card drawing, widgets.card_node), then a heading (h3) and its paragraphs per
    section."""
    out = [picture(ctx, draw_card)] if draw_card is not None else []
    for head, paragraphs in SECTIONS:
        out.append(h("h3", {"class": "rules-h"}, ctx.t(head)))
        for key in paragraphs:
            out.append(h("p", {"data-rule": key}, ctx.t(key)))
    return out
