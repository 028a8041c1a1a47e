"""The rules screen's part: the whole rules of Crisp in player words (es/en), as headings and
paragraphs (ui/page/i18n/i18n_rules.py), shown by the landing's "How to play" and by the menu.
Every rule of docs/rules.md a player meets at the table is there: the one look, the unseen
center card, the Queen's one look, the 3 s to call crisp, ties, the options. Pure (a
ui/page/dom/vdom.py tree).
"""

from ui.page.dom.vdom import h

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


def rules_text(ctx):
    """The rules as a list of nodes: a heading (h3) and its paragraphs per section."""
    out = []
    for head, paragraphs in SECTIONS:
        out.append(h("h3", {"class": "rules-h"}, ctx.t(head)))
        for key in paragraphs:
            out.append(h("p", {"data-rule": key}, ctx.t(key)))
    return out
