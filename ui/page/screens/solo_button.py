"""The landing's buttons that start a game on the engine and answer their own tap: Play solo,
and the guided first round's Play (ui/page/screens/guided_screens.py). From the tap on, the button itself says in player words that the
game is being got ready ("Shuffling the deck… 42 %", a bar filling it), until the table
follows the moment the engine runs; never a technical word. `solo_state` decides,
`progress_button` draws (`solo_button`: Play solo's). Pure: runs on MicroPython (the page)
and CPython (tests).
"""

from ui.page.dom.vdom import h
from ui.page.screens.widgets import button


def solo_state(tapped, wait, error=None):
    """What the Play solo button shows: (i18n key, percent or None, busy).
    `tapped`: the player tapped it on this landing (ui "solo"); `wait`: the engine's start
    in percent while the page waits for it (the model's engine_wait: None when it is not
    waited for or already runs, -1 when it failed); `error`: the landing's error (a name
    the room refused, ...). Tapped and the engine still starting: "solo_busy" with its
    percent; tapped and the engine ready (the table on its way): "solo_busy" without one;
    not tapped, failed (the banner says so, with Retry) or refused: "play_solo"."""
    if not tapped or error or (wait is not None and wait < 0):
        return ("play_solo", None, False)
    if wait is None:
        return ("solo_busy", None, True)
    return ("solo_busy", max(0, min(99, int(wait))), True)


def progress_button(ctx, testid, label, action, cls, tapped, wait, error=None, extra=None):
    """A landing button that starts a game on the engine and answers its own tap (Play solo,
    the guided round's Play): `label` (text) and `action` (None: not live) until tapped;
    from the tap on (solo_state: `tapped`, `wait`, `error`) disabled, aria-busy, its label
    the progress in player words over a bar filling it. `testid`: its data-testid; `cls`:
    its classes ("btn big", ...; "busy" is added while busy); `extra`: attributes of the
    button while not busy."""
    key, pct, busy = solo_state(tapped, wait, error)
    if not busy:
        return button(ctx, testid, label, action, cls, extra)
    text = ctx.t(key) if pct is None else ctx.t("solo_busy_pct", pct=pct)
    return button(ctx, testid,
                  [h("span", {"class": "solo-bar", "aria-hidden": "true",
                              "style": "width: %d%%" % (pct if pct is not None else 100)}),
                   h("span", {"class": "solo-label"}, text)],
                  None, cls + " busy", {"aria-busy": "true", "data-busy": "true"})


def solo_button(ctx, ok, tapped, wait, error=None):
    """The Play solo button (`play-solo`, a progress_button): always live; while no name is
    typed (`ok` False) a tap asks for the name (intents.submit) and the button points at
    the hint (aria-describedby, as widgets.needs_name)."""
    return progress_button(ctx, "play-solo", ctx.t("play_solo"),
                           ("local", "submit", "play_solo"), "btn big",
                           tapped, wait, error, None if ok else {"aria-describedby": "name-hint"})
