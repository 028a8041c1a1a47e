"""The guided first round on screen: the landing's offer (first visit) and the tip bubble at
the table (ui/page/guided.py decides which tip; this only draws it). Pure: runs on
MicroPython, Pyodide and CPython (tests/test_guided.py).
"""

from ui.page import guided
from ui.page.screens.solo_button import progress_button
from ui.page.dom.vdom import h
from ui.page.screens.viewmodel import read
from ui.page.screens.widgets import button


def offer_box(model, ui, ctx):
    """The landing's offer of a guided round, while `ui["guided_offer"]` (a first visit:
    guided.offer) and no saved game is offered instead; None otherwise. Once its Play is
    tapped (`ui["guided"]`) it stays, its button saying how far the game has come
    (solo_button.progress_button), until the table follows."""
    tapped = bool(ui.get("guided"))
    if not (ui.get("guided_offer") or tapped) or isinstance(read(model, "resume"), dict):
        return None
    play = progress_button(ctx, "guided-play", ctx.t("guided_play"), ("local", "guided_play"),
                           "btn primary big", tapped, read(model, "engine_wait"),
                           read(model, "error"))
    return h("section", {"class": "card-box guided-offer", "data-testid": "guided-offer"},
             h("h2", None, ctx.t("guided_title")),
             h("p", {"class": "hint"}, ctx.t("guided_offer")),
             h("div", {"class": "row"}, play,
               None if tapped else button(ctx, "guided-no", ctx.t("guided_no"),
                                          ("local", "guided_skip"), "btn")))


def tip(model, ui, ctx):
    """The tip bubble at the table while the guided round is on (`ui["guided"]`): the step's
    text (`data-step`: the step, guided.STEPS) and a button to skip the tips (at the
    reveal: to close them). None when there is no tip now."""
    if not ui.get("guided") or read(model, "screen") != "table":
        return None
    key = guided.step(read(model, "view"), ui, read(model, "log"))
    if key is None:
        return None
    last = key == "reveal"
    # the crisp window waits for its tip (ui/worker/guide.py): "Play on" ends it, no call
    play_on = button(ctx, "guide-read", ctx.t("guide_read"), ("intent", "guide_read", {}),
                     "btn small primary") if key == "crisp" else None
    return h("aside", {"class": "guide", "data-testid": "guide", "data-step": key,
                       "role": "status", "aria-live": "polite"},
             h("p", None, h("strong", None, ctx.t("guide_label") + ": "),
               ctx.t("guide_" + key)),
             play_on,
             button(ctx, "guide-done" if last else "guide-skip",
                    ctx.t("guide_done") if last else ctx.t("guide_skip"),
                    ("local", "guided_skip"), "btn small"))
