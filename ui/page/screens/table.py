"""The table screen: seats, piles, the status bar (ui/page/screens/statusbar.py), actions, the event
log (the results sheet over it is ui/page/screens/results.py).

Draws what `table_info` (ui/page/screens/table_model.py) decided. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from crisp_core.actions import END_PHASES, is_int
from ui.page.screens import guided_screens
from ui.page.screens import idle_turn, reaction_view
from ui.page.client import taps
from ui.page.screens.eventlog import log_node
from ui.page.screens.icons import icon
from ui.page.screens.results import end_tree
from ui.page.screens.statusbar import announce_node, reveal_button, reveal_shown, status_node
from ui.page.dom.memo import kept
from ui.page.dom.vdom import h, keyed
from ui.page.screens.table_model import table_info
from ui.page.screens.viewmodel import player_list, read, secs
from ui.shared.lastline import CROWDED
from ui.page.screens.widgets import (button, card_button, card_name, card_node, leave_button,
                             name_input, place_label)


def icon_badge(cls, label, testid=None):
    """A badge drawn as an icon (a name stays readable beside it): the SVG icon
    `cls` (ui/page/screens/icons.py), its word `label` its accessible name and its tooltip."""
    # a tap (focus) shows its word beside it on a phone, where no tooltip shows
    a = {"class": "badge icon " + cls, "title": label, "role": "img", "aria-label": label,
         "tabindex": "0"}
    if testid:
        a["data-testid"] = testid
    return h("span", a, icon(cls))


def seat_badges(row, info, ctx):
    out = []
    if row.get("host"):
        # the real host, marked by the room's word: a guest named "Hana (host)" gets no badge
        # (a crown, named for screen readers: the seat's head has room for a few badges only)
        out.append(icon_badge("host", ctx.t("tip_host"), "host-badge"))
    if row["dealer"]:
        out.append(icon_badge("dealer", ctx.t("tip_dealer")))
    if row["bot"]:
        out.append(icon_badge("bot", ctx.t("tip_bot")))
    if row["caller"]:
        out.append(icon_badge("caller", ctx.t("tip_caller")))
    if info["phase"] == "peek" and row["ready"]:
        out.append(icon_badge("check", ctx.t("tip_ready")))
    return out


def name_node(name):
    """A player's name in a seat: cut with an ellipsis when the seat is narrow, whole on a
    long press (CSS :active) or a hover (its title)."""
    return h("span", {"class": "pname", "title": name}, name)


def seat_cards(ctx, row, size):
    out = []
    for c in row["cards"]:
        pos = ctx.t("pos_" + c["pos"])
        what = (ctx.t("my_card", pos=pos) if row["me"]
                else ctx.t("their_pos_card", name=row["name"], pos=pos))
        cls = "slot-" + c["pos"]
        if c["picked"]:
            cls += " picked"
        if c["target"]:
            cls += " target"
        if c["moved"]:
            cls += " moved " + c["moved"]
        out.append(card_button(ctx, "card-" + str(row["seat"]) + "-" + c["pos"], c["card"], size,
                               c["spec"], cls, place_label(ctx, what, c["card"])))
    return out


def opponent_node(ctx, row, info):
    cls = "seat opp"
    if row["turn"]:
        cls += " turn"
    if not row["connected"]:
        cls += " away"
    if row["caller"]:
        cls += " called"
    held = info["held"]
    holding = held is not None and held["seat"] == row["seat"]
    seat = str(row["seat"])
    return h("div", {"class": cls, "data-testid": "seat-" + seat, "role": "group",
                     "aria-label": ctx.t("seat_label", name=row["name"], n=row["score"])},
             kept(ctx, "opp-head-" + seat, head_key(ctx, row, info), opponent_head, ctx, row,
                  info),
             kept(ctx, "opp-hand-" + seat, (ctx.lang, row["seat"], row["name"], row["cards"],
                                            holding, row["connected"], row["slow"],
                                            ctx.tapped),
                  opponent_hand, ctx, row, holding),
             button(ctx, "stand-in-" + str(row["seat"]), ctx.t("stand_in"), row["stand_in"],
                    "btn small stand-in") if row.get("stand_in") else None,
             idle_node(ctx, row),
             button(ctx, "bot-turn-" + seat, ctx.t("bot_turn"), row["bot_turn"],
                    "btn small bot-turn") if row.get("bot_turn") else None,
             h("small", {"class": "asks"}, ctx.t("asks_seat", name=row["asks"]))
             if row.get("asks") and not row.get("approve") else None,
             button(ctx, "approve-" + str(row["seat"]), ctx.t("approve_seat", name=row["asks"]),
                    row["approve"], "btn small approve") if row.get("approve") else None,
             button(ctx, "take-seat-" + str(row["seat"]), ctx.t("take_seat"), row["take"],
                    "btn small take-seat") if row.get("take") else None,
             reaction_view.bubble(ctx, info, row["seat"]))   # last: nothing before it moves


def idle_node(ctx, row):
    """A waiting turn's line at its seat's place (idle_turn.idle_line), or None."""
    text = idle_turn.idle_line(row, ctx)
    if text is None:
        return None
    return h("small", {"class": "waited", "data-testid": "waited-" + str(row["seat"]),
                       "role": "status"}, text)


def head_key(ctx, row, info):
    """What a seat's head (opponent_head, my_seat_head) is made of, but the reactions'
    picker."""
    return (ctx.lang, row["name"], row["score"], row.get("host"), row["dealer"], row["bot"],
            row["caller"], info["phase"] == "peek" and row["ready"], row["you_badge"])


def opponent_head(ctx, row, info):
    """Another seat's head: its name, badges and score."""
    return h("div", {"class": "seat-head"},
             # an away seat says so in words; a seat that is there needs no
             # mark, and its name gets the room
             name_node(row["name"]),
             h("span", {"class": "badges"}, seat_badges(row, info, ctx)),
             h("span", {"class": "score", "title": ctx.t("total")}, str(row["score"])))


def opponent_hand(ctx, row, holding):
    """Another seat's cards, the mark of the card it holds (`holding`) and its away word."""
    return h("div", {"class": "hand"}, seat_cards(ctx, row, "sm"),
             h("span", {"class": "holding", "title": ctx.t("holding"), "role": "img",
                        "aria-label": ctx.t("holding")}) if holding else None,
             h("span", {"class": "away-label", "data-testid": "away-" + str(row["seat"])},
               ctx.t("host_away_seat")) if not row["connected"] else None,
             h("span", {"class": "slow-label", "data-testid": "slow-" + str(row["seat"])},
               ctx.t("link_slow_seat")) if row.get("slow") else None)


def kept_opponent(ctx, row, info):
    """opponent_node, kept from the last render while its seat's row (and its quick
    reaction) is the same (a tap changes one seat or two; the others are neither
    rebuilt nor walked); a seat that changed keeps its head or its hand while that part's
    inputs are the same (the turn moving on changes a seat's class alone)."""
    held = info["held"]
    holding = held is not None and held["seat"] == row["seat"]
    return kept(ctx, "opp-" + str(row["seat"]), (ctx.lang, row, holding, info["phase"],
                                                 info["reactions"].get(row["seat"]), ctx.tapped),
                opponent_node, ctx, row, info)


def kept_centre(info, ctx):
    """centre_node, kept while the piles and the card held are the same."""
    held = info["held"]
    holder = None
    if held and held["seat"] is not None and held["seat"] < info["n"]:
        holder = info["seats"][held["seat"]]["name"]
    return kept(ctx, "centre", (ctx.lang, info["deck"], info["discard"], held, holder,
                                ctx.tapped),
                centre_node, info, ctx)


def spectator_bar(model, info, ui, ctx):
    """A spectator's bar: it watches (public information only); with a name it may ask for a
    seat that is away or played by a bot (`take-seat-<seat>` on that seat) or for a seat in
    the next game; `leave` is always there."""
    ask = info["ask"]
    if ask is not None:
        note = h("p", {"class": "hint", "data-testid": "seat-asked"},
                 ctx.t("asked_seat") if ask.get("seat") is not None else ctx.t("asked_next_game"))
        return h("section", {"class": "card-box spectator", "data-testid": "spectator"},
                 h("p", None, ctx.t("spectating")), note, leave_button(ctx))
    named = bool((ui.get("name") or "").strip())
    return h("section", {"class": "card-box spectator", "data-testid": "spectator"},
             h("p", None, ctx.t("spectating")),
             h("p", {"class": "hint"}, ctx.t("spectator_name_hint")),
             name_input(ui, ctx),
             h("div", {"class": "row"},
               button(ctx, "sit-next-game", ctx.t("sit_next_game"),
                      ("local", "sit", None) if named else None, "btn"),
               leave_button(ctx)))


def table_tree(model, ui, ctx):
    """The table screen for the model: the opponents, the announcement, the spectator's bar,
    the centre, the guided round's tip (ui/page/screens/guided_screens.py), the status, this seat,
    the actions, the results sheet and the event log."""
    info = table_info(model, ui, ctx)
    info["reactions"] = reaction_view.shown(model, ui, ctx)   # {seat: (index, n)}
    others, mine = seat_order(info)
    players = player_list(model)
    centre = kept_centre(info, ctx)
    # The announcement of a call, this seat's turn, the end of a round (ui/page/screens/cues.py):
    # a line of the status bar, in the page's flow, so that it never covers the instruction,
    # the hand or a button; its live region is always there, so that it is heard
    # a Jack's or Queen's reveal: its words in the status bar, its Hide button in the actions'
    # row beside crisp (a row of the status bar pushed crisp off a crowded phone's screen)
    # the guided round's tip: at the reveal it sits in the results sheet, which would cover it
    tip = guided_screens.tip(model, ui, ctx)
    reveal = reveal_shown(model, info, ctx, tip is not None)
    has_actions = not (info["phase"] in END_PHASES or info["spectator"])
    in_actions = bool(reveal) and has_actions and not (info["held"] is not None
                                                       and info["held"]["mine"])
    status = status_node(model, info, players, ctx,
                         h("div", {"class": "announce-slot", "aria-live": "assertive"},
                           announce_node(ui, info, ctx)), reveal, not in_actions)
    actions = actions_node(info, ctx, reveal_button(ctx) if in_actions else None)
    mine_react = (ui.get("reactions"), ui.get("react_open"), info["paused"],
                  info["reactions"].get(mine["seat"]) if mine is not None else None)
    my_node = kept(ctx, "my-seat", (ctx.lang, mine, info["phase"], mine_react, ctx.tapped),
                   my_seat_node, mine, info, ctx, ui)
    log = log_node(model, players, ctx)
    slow = slow_note(model, ctx)
    # End of round / game
    end = end_tree(model, info, ui, ctx, tip) if info["results"] is not None else None
    grid_cls = "opponents n" + str(len(others)) + (" many" if len(others) >= CROWDED - 1 else "")
    # 5 to 8 players: on a short phone the opponents' seats scroll in their own box (CSS),
    # which a keyboard reaches too, and which says what it holds
    grid_attrs = {"class": grid_cls}
    if len(others) >= CROWDED - 1:
        grid_attrs.update({"tabindex": "0", "role": "region",
                           "aria-label": ctx.t("opponents")})
    return h("main", {"class": "table phase-" + str(info["phase"])
                      + (" crowded" if len(others) >= CROWDED - 1 else "")
                      + (" sheet-down" if end is not None and not ui.get("sheet_open") else "")},
             h("section", grid_attrs, [kept_opponent(ctx, r, info) for r in others]),
             spectator_bar(model, info, ui, ctx) if info["spectator"] else None,
             centre, tip if end is None else None, status, slow, my_node,
             actions if has_actions else None, end, log)


def slow_note(model, ctx):
    """"Your connection is slow" on a guest's own screen while its link to the host is
    (the Client's `slow`, ui/shared/linkspeed.py), else None."""
    if not read(model, "slow", False) or read(model, "is_host", False):
        return None
    return h("p", {"class": "slow-note", "data-testid": "slow-note", "role": "status"},
             ctx.t("link_slow_me"))


def seat_order(info):
    """(the other seats in play order after this one, this seat's row or None)."""
    me = info["me"]
    n = info["n"]
    rows = info["seats"]
    if me is not None and 0 <= me < n:
        return [rows[(me + k) % n] for k in range(1, n)], rows[me]
    return rows, None


def centre_node(info, ctx):
    """The centre of the table: the deck, the discard pile and the card held."""
    deck = info["deck"]
    dspec = deck["spec"]
    deck_node = h("button", taps.mark(
        {"type": "button", "class": "pile deck" + (" live" if dspec else ""),
         "data-testid": "deck", "disabled": dspec is None,
         "data-act": ctx.act("deck", dspec) if dspec else None,
         "aria-label": ctx.tn("deck_label", deck["count"], n=deck["count"])}, ctx, dspec),
                  card_node(None, {"aria-hidden": "true"}, "md",
                            "stack" if deck["count"] > 1 else ""),
                  h("span", {"class": "count", "data-testid": "deck-count"}, str(deck["count"])))
    disc = info["discard"]
    if disc["top"]:
        disc_node = card_button(ctx, "discard", disc["top"], "md", disc["spec"],
                                "pile top d" + str(disc["count"] % 2),
                                ctx.t("discard_label", card=card_name(ctx, disc["top"])))
    else:
        a = {"type": "button", "class": "card md slot empty pile", "data-testid": "discard",
             "disabled": True, "aria-label": ctx.t("discard_empty")}
        # the empty place says what it is for (its label below is hidden on a crowded table)
        disc_node = h("button", a, h("span", {"class": "slot-label"}, ctx.t("discard_pile")))
    held_node, held_label = held_card_node(info, ctx)
    return h("section", {"class": "centre"},
             h("div", {"class": "pilebox"}, deck_node, h("small", None, ctx.t("deck"))),
             h("div", {"class": "pilebox"}, disc_node, h("small", None, ctx.t("discard_pile"))),
             h("div", {"class": "pilebox heldbox"}, held_node, h("small", None, held_label)))


def held_card_node(info, ctx):
    """(the held card's place, the words under it)."""
    held = info["held"]
    rows = info["seats"]
    if not held:
        return h("div", {"class": "card md slot empty held", "data-testid": "held-card",
                         "role": "img", "aria-label": ctx.t("held_empty")}), ""
    hcls = "held" + (" mine" if held["mine"] else "")
    held_label = ctx.t("your_card") if held["mine"] else ctx.t("their_card",
                                                              name=rows[held["seat"]]["name"]
                                                              if held["seat"] is not None
                                                              and held["seat"] < info["n"]
                                                              else "")
    return card_node(held["card"], {"data-testid": "held-card"}, "md", hcls,
                     place_label(ctx, held_label, held["card"])), held_label


def crisp_button(info, ctx):
    """The crisp button, with the seconds of its window left while it is open and a bar that
    drains as they go (crisp_bar)."""
    crisp = info["crisp"]
    crisp_kids = [h("span", {"class": "crisp-word"}, ctx.t("crisp"))]
    if crisp["left"] is not None:
        crisp_kids.append(h("span", {"class": "crisp-left"},
                            ctx.t("crisp_left", n=secs(crisp["left"]))))
        crisp_kids.insert(0, crisp_bar(crisp["left"], crisp["sent"], crisp["window"]))
    return button(ctx, "crisp", crisp_kids, crisp["spec"],
                  "btn crisp" + (" hot" if crisp["spec"] else ""),
                  {"data-ends": str(crisp["ends"])} if crisp.get("ends") else None)


def crisp_bar(left, sent, window):
    """The Crisp window's time as a bar that drains (ms: `left` now, `sent` as the view came,
    of `window`): a CSS animation of a transform, which the browser's compositor runs with no
    render of ours (the page draws the window once a second, for its seconds). Its timing
    comes from the view alone, so it reads the same at every render of that view and the
    animation runs on; a new view's is a new element (keyed by `sent`), whose animation
    starts over from the time that view gives. With reduced motion (no animation) the bar
    stands at `--f`, the part left at this render."""
    sent = sent if is_int(sent) else left
    sent = max(0, min(window, sent))
    fill = h("span", {"class": "crisp-fill",
                      "style": "--f:%s;animation-duration:%dms;animation-delay:-%dms"
                               % (_fraction(left, window), window, window - sent)})
    return h("span", {"class": "crisp-bar", "aria-hidden": "true"}, [keyed(fill, sent)])


def _fraction(part, whole):
    """part / whole as a short decimal in 0..1 (a CSS number: "0.73")."""
    if whole <= 0:
        return "0"
    f = max(0, min(whole, part)) * 100 // whole
    return "1" if f >= 100 else "0" if f <= 0 else "0.%02d" % f


def actions_node(info, ctx, extra=None):
    """The action buttons: Ready while peeking; else the special, discard and crisp (always
    the row's last place, so that its word never fills a narrow first one), or `extra` (the
    reveal's Hide) and crisp."""
    if info["ready"]["show"]:
        return h("div", {"class": "actions peek"},
                 button(ctx, "ready", ctx.t("ready"), info["ready"]["spec"], "btn primary big"))
    sp = info["special"]
    special_label = ctx.t("use_" + sp) if sp else ctx.t("use_special")
    if info["queen"] is not None:
        special = button(ctx, "cancel-special", ctx.t("cancel"), ("local", "queen_cancel"),
                         "btn cancel")
    else:
        special = button(ctx, "use-special", special_label, info["use_special"],
                         "btn special" + (" hot" if info["use_special"] else ""))
    holding = info["held"] is not None and info["held"]["mine"]
    # no card in my hand (e.g. a Jack used, the crisp window open): no leftover
    # "Use special" / "Discard" buttons greyed out; and "Use special" only for a special
    has_special = info["queen"] is not None or info["use_special"] is not None
    return h("div", {"class": "actions"}, extra,
             special if (holding and has_special) else None,
             button(ctx, "discard-held", ctx.t("discard_held"), info["discard_held"],
                    "btn" + (" hot" if info["discard_held"] else ""))
             if holding else None,
             crisp_button(info, ctx))


def my_seat_node(mine, info, ctx, ui=None):
    """This player's own seat: the hand, large, under its head (with the quick reactions'
    picker, ui/page/screens/reaction_view.py); None for a spectator."""
    if mine is None:
        return None
    cls = "seat me" + (" turn" if mine["turn"] else "") + (" called" if mine["caller"] else "")
    ui = ui or {}
    return h("section", {"class": cls, "data-testid": "seat-" + str(mine["seat"])},
             kept(ctx, "my-hand", (ctx.lang, mine["seat"], mine["cards"], ctx.tapped), my_hand, ctx, mine),
             idle_node(ctx, mine),
             kept(ctx, "my-head", (head_key(ctx, mine, info), ui.get("reactions"),
                                   ui.get("react_open"), info["paused"]),
                  my_seat_head, ctx, mine, info, ui),
             reaction_view.bubble(ctx, info, mine["seat"]))   # last: nothing before it moves


def my_hand(ctx, mine):
    """This player's cards, large."""
    return h("div", {"class": "hand"}, seat_cards(ctx, mine, "lg"))


def my_seat_head(ctx, mine, info, ui):
    """This player's seat's head: the name, the "you" badge, badges, points, the reactions'
    picker."""
    return h("div", {"class": "seat-head"},
             name_node(mine["name"]),
             h("span", {"class": "badge you"}, ctx.t("badge_you"))
             if mine["you_badge"] else None,
             h("span", {"class": "badges"}, seat_badges(mine, info, ctx)),
             h("span", {"class": "score", "title": ctx.t("total")},
               ctx.t("points_n", n=mine["score"])),
             reaction_view.picker(ui, ctx, not info["paused"]))
