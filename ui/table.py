"""The table screen: seats, piles, status, actions, the event log, and the results sheet.

Draws what `table_info` (ui/viewmodel.py) decided. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from crisp_core.actions import END_PHASES, PLAY_PHASES
from ui import cards
from ui.eventlog import log_entries
from ui.vdom import h
from ui.viewmodel import clock, player_list, secs, table_info
from ui.widgets import button, card_button, card_name, card_node, place_label


def seat_badges(row, info, ctx):
    out = []
    if row.get("host"):
        # the real host, marked by the room's word: a guest named "Hana (host)" gets no badge
        # (a crown, named for screen readers: the seat's head has room for a few badges only)
        out.append(h("span", {"class": "badge host", "data-testid": "host-badge",
                              "title": ctx.t("badge_host"), "role": "img",
                              "aria-label": ctx.t("badge_host")}, ctx.t("host_short")))
    if row["dealer"]:
        out.append(h("span", {"class": "badge dealer", "title": ctx.t("dealer")}, ctx.t("dealer_short")))
    if row["bot"]:
        out.append(h("span", {"class": "badge bot"}, ctx.t("badge_bot")))
    if row["caller"]:
        out.append(h("span", {"class": "badge caller"}, ctx.t("badge_crisp")))
    if info["phase"] == "peek" and row["ready"]:
        out.append(h("span", {"class": "badge ready"}, "\u2713"))
    return out


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
    return h("div", {"class": cls, "data-testid": "seat-" + str(row["seat"]), "role": "group",
                     "aria-label": ctx.t("seat_label", name=row["name"], n=row["score"])},
             h("div", {"class": "seat-head"},
               h("span", {"class": "dot " + ("on" if row["connected"] else "off")}),
               h("span", {"class": "pname"}, row["name"]),
               seat_badges(row, info, ctx),
               h("span", {"class": "score", "title": ctx.t("total")}, str(row["score"]))),
             h("div", {"class": "hand"}, seat_cards(ctx, row, "sm"),
               h("span", {"class": "holding", "title": ctx.t("holding"), "role": "img",
                          "aria-label": ctx.t("holding")}) if holding else None),
             button(ctx, "stand-in-" + str(row["seat"]), ctx.t("stand_in"), row["stand_in"],
                    "btn small stand-in") if row.get("stand_in") else None)


def table_tree(model, ui, ctx):
    info = table_info(model, ui, ctx)
    me = info["me"]
    n = info["n"]
    rows = info["seats"]
    others = []
    if me is not None and 0 <= me < n:
        for k in range(1, n):
            others.append(rows[(me + k) % n])
        mine = rows[me]
    else:
        others = rows
        mine = None

    # Centre: deck, discard, held card
    deck = info["deck"]
    dspec = deck["spec"]
    deck_node = h("button", {"type": "button", "class": "pile deck" + (" live" if dspec else ""),
                             "data-testid": "deck", "disabled": dspec is None,
                             "data-act": ctx.act("deck", dspec) if dspec else None,
                             "aria-label": ctx.tn("deck_label", deck["count"], n=deck["count"])},
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
        disc_node = h("button", a)
    held = info["held"]
    if held:
        hcls = "held" + (" mine" if held["mine"] else "")
        held_label = ctx.t("your_card") if held["mine"] else ctx.t("their_card",
                                                                  name=rows[held["seat"]]["name"]
                                                                  if held["seat"] is not None
                                                                  and held["seat"] < n else "")
        held_node = card_node(held["card"], {"data-testid": "held-card"}, "md", hcls,
                              place_label(ctx, held_label, held["card"]))
    else:
        held_node = h("div", {"class": "card md slot empty held", "data-testid": "held-card",
                              "role": "img", "aria-label": ctx.t("held_empty")})
        held_label = ""
    centre = h("section", {"class": "centre"},
               h("div", {"class": "pilebox"}, deck_node, h("small", None, ctx.t("deck"))),
               h("div", {"class": "pilebox"}, disc_node, h("small", None, ctx.t("discard_pile"))),
               h("div", {"class": "pilebox heldbox"}, held_node, h("small", None, held_label)))

    # Status, timer
    timer = info["timer"]
    timer_node = None
    if timer is not None:
        total = info["timer_total"] or 1
        frac = timer * 100 // total if total else 0
        timer_node = h("div", {"class": "timer" + (" urgent" if timer < 10000 else "")
                               + (" mine" if info["timer_mine"] else ""),
                               "data-testid": "turn-timer", "data-ms": str(timer),
                               "role": "timer", "aria-label": ctx.t("time_left", t=clock(timer)),
                               "style": "--p:" + str(frac) + "%"},
                       h("span", None, clock(timer)))
    status_node = h("div", {"class": "statusbar" + (" yours" if info["turn"] == me
                                                    and info["phase"] in PLAY_PHASES else "")},
                    h("div", {"class": "status", "data-testid": "status", "role": "status",
                              "aria-live": "polite"}, info["status"]),
                    h("div", {"class": "sub"}, info["status_sub"]) if info["status_sub"] else None,
                    timer_node)

    # Actions
    sp = info["special"]
    special_label = ctx.t("use_" + sp) if sp else ctx.t("use_special")
    crisp = info["crisp"]
    crisp_kids = [h("span", {"class": "crisp-word"}, ctx.t("crisp"))]
    if crisp["left"] is not None:
        crisp_kids.append(h("span", {"class": "crisp-left"}, str(secs(crisp["left"])) + " s"))
        frac = crisp["left"] * 100 // crisp["window"]
        crisp_extra = {"style": "--p:" + str(frac if frac < 100 else 100) + "%"}
    else:
        crisp_extra = None
    if info["ready"]["show"]:
        actions = h("div", {"class": "actions peek"},
                    button(ctx, "ready", ctx.t("ready"), info["ready"]["spec"], "btn primary big"))
    else:
        if info["queen"] is not None:
            special = button(ctx, "cancel-special", ctx.t("cancel"), ("local", "queen_cancel"),
                             "btn cancel")
        else:
            special = button(ctx, "use-special", special_label, info["use_special"],
                             "btn special" + (" hot" if info["use_special"] else ""))
        holding = info["held"] is not None and info["held"]["mine"]
        # no card in my hand (e.g. a Jack used, the crisp window open): no leftover
        # "Use special" / "Discard" buttons greyed out
        actions = h("div", {"class": "actions"}, special if holding else None,
                    button(ctx, "discard-held", ctx.t("discard_held"), info["discard_held"],
                           "btn" + (" hot" if info["discard_held"] else ""))
                    if holding else None,
                    button(ctx, "crisp", crisp_kids, crisp["spec"],
                           "btn crisp" + (" hot" if crisp["spec"] else ""), crisp_extra))

    # Me
    my_node = None
    if mine is not None:
        cls = "seat me" + (" turn" if mine["turn"] else "") + (" called" if mine["caller"] else "")
        my_node = h("section", {"class": cls, "data-testid": "seat-" + str(mine["seat"])},
                    h("div", {"class": "hand"}, seat_cards(ctx, mine, "lg")),
                    h("div", {"class": "seat-head"},
                      h("span", {"class": "pname"}, mine["name"]),
                      h("span", {"class": "badge you"}, ctx.t("badge_you")),
                      seat_badges(mine, info, ctx),
                      h("span", {"class": "score", "title": ctx.t("total")},
                        ctx.t("points_n", n=mine["score"]))))

    # Log
    lines = []
    for line, kind, index in log_entries(model, player_list(model), ctx):
        li = h("li", {"class": "ev " + str(kind) + ("" if lines else " fresh")}, line)
        li["key"] = index
        lines.append(li)
    log_node = h("section", {"class": "log", "aria-labelledby": "log-title"},
                 h("h3", {"id": "log-title"}, ctx.t("log")),
                 h("ol", {"data-testid": "event-log", "class": "events", "role": "log",
                          "aria-live": "polite"}, lines))

    # End of round / game
    end = end_tree(info, ui, ctx) if info["results"] is not None else None

    grid_cls = "opponents n" + str(len(others)) + (" many" if len(others) >= 4 else "")
    return h("main", {"class": "table phase-" + str(info["phase"])
                      + (" crowded" if len(others) >= 4 else "")
                      + (" sheet-down" if end is not None and not ui.get("sheet_open") else "")},
             h("section", {"class": grid_cls}, [opponent_node(ctx, r, info) for r in others]),
             centre, status_node, my_node,
             None if info["phase"] in END_PHASES else actions, end, log_node)


FAIR_WHATS = ("record", "commitment", "contribution", "log", "deal", "peek", "draw", "jack",
              "queen", "discard", "recycle", "hands", "event")


def fair_tree(fair, info, ctx):
    """`round-verified` (quiet) or `round-mismatch` (loud, naming what did not match), and
    `save-record`: the round's record as a JSON download (docs/protocol.md "Verifiable
    shuffle")."""
    seats = info["seats"]
    skipped = [seats[s]["name"] for s in fair.get("skipped") or []
               if isinstance(s, int) and 0 <= s < len(seats)]
    save = button(ctx, "save-record", ctx.t("save_record"),
                  ("intent", "save_record", {"round": fair.get("round")}), "btn small")
    if fair.get("ok"):
        return h("div", {"class": "fair ok", "data-testid": "round-verified", "role": "status"},
                 h("p", None, h("span", {"class": "fair-mark", "aria-hidden": "true"}, "\u2713"),
                   " ", ctx.t("fair_ok")),
                 h("p", {"class": "hint"}, ctx.t("fair_skipped", names=", ".join(skipped)))
                 if skipped else None, save)
    what = fair.get("what") if fair.get("what") in FAIR_WHATS else "event"
    saw = " ".join([c for c in fair.get("saw") or [] if isinstance(c, str)]) or "\u2014"
    expected = " ".join([c for c in fair.get("expected") or [] if isinstance(c, str)]) or "\u2014"
    return h("div", {"class": "fair bad", "data-testid": "round-mismatch", "role": "alert",
                     "data-what": what},
             h("p", {"class": "fair-title"},
               h("span", {"class": "fair-mark", "aria-hidden": "true"}, "\u26a0"), " ",
               ctx.t("fair_bad", n=fair.get("round"))),
             h("p", None, ctx.t("fair_what_" + what)),
             h("p", {"class": "fair-cards"}, ctx.t("fair_saw", saw=saw, expected=expected))
             if what not in ("record", "commitment", "log") else None,
             save)


def end_tree(info, ui, ctx):
    """The results sheet. It opens by itself for each new end of round; the player may put it
    down to a bar (its title, their points, the next-round button) to see the hands shown on
    the table, and bring it back. The test ids inside stay in the page either way."""
    key = str(info["round"]) + ":" + str(info["phase"])
    if ui.get("sheet_key") != key:
        ui["sheet_key"] = key
        ui["sheet_open"] = True
    is_open = bool(ui.get("sheet_open"))
    rows = []
    for r in info["results"]:
        pts = r["points"]
        note = None
        if r["caller"]:
            note = h("span", {"class": "badge caller"},
                     ctx.t("badge_crisp") + " " + ("\u22125" if r["bonus"] < 0 else "+5"))
        hand_cards = [card_node(c, {}, "xs", "", card_name(ctx, c)) if cards.is_card(c)
                      else card_node(None, {}, "xs", "", ctx.t("face_down")) for c in r["hand"]]
        rows.append(h("tr", {"class": "winner" if r["winner"] else "",
                             "data-testid": "result-" + str(r["seat"])},
                      h("td", {"class": "pname"}, r["name"], note),
                      h("td", {"class": "mini"}, hand_cards),
                      h("td", {"class": "num"}, "" if pts is None else str(pts)),
                      h("td", {"class": "num total", "data-testid": "score-" + str(r["seat"])},
                        str(r["score"]))))
    table = h("table", {"class": "results"},
              h("thead", None, h("tr", None, h("th", None, ctx.t("player")), h("th", None, ctx.t("hand")),
                                 h("th", None, ctx.t("round_points")), h("th", None, ctx.t("total")))),
              h("tbody", None, rows))
    parts = []
    mine = None
    for r in info["results"]:
        if r["seat"] == info["me"]:
            mine = r
    title = ctx.t("game_over") if info["phase"] == "game_over" else ctx.t("round_results",
                                                                           n=info["round"])
    winners = info["winners"] or []
    names = ", ".join([info["seats"][s]["name"] for s in winners if 0 <= s < len(info["seats"])])
    if info["phase"] == "game_over":
        summary = ctx.tn("winners", len(winners), names=names)
    else:
        summary = ctx.t("you_points", n=mine["score"]) if mine is not None else ""
    toggle = button(ctx, "toggle-results",
                    [h("span", {"class": "chev", "aria-hidden": "true"},
                       "\u25be" if is_open else "\u25b4"),
                     ctx.t("hide_results") if is_open else ctx.t("show_results")],
                    ("local", "sheet", not is_open), "btn sheet-toggle",
                    {"aria-expanded": "true" if is_open else "false",
                     "aria-controls": "sheet-body",
                     "title": ctx.t("hide_results_label") if is_open else None})
    parts.append(h("div", {"class": "sheet-bar"},
                   h("h2", {"class": "sheet-title", "id": "sheet-title"}, title,
                     h("small", None, summary) if (summary and not is_open) else None),
                   toggle))
    body = []
    if info["phase"] == "game_over":
        me_won = info["me"] in winners
        body.append(h("div", {"class": "game-over", "data-testid": "game-over"},
                       h("p", {"class": "winners", "data-testid": "winners",
                               "data-seats": ",".join([str(s) for s in winners])},
                         ctx.tn("winners", len(winners), names=names)),
                       h("p", {"class": "cheer"}, ctx.t("you_won")) if me_won else None))
    body.append(h("div", {"class": "round-results", "data-testid": "round-results"},
                  h("h3", None, ctx.t("round_results", n=info["round"]))
                  if info["phase"] == "game_over" else None, table))
    if info.get("fair") is not None:
        body.append(fair_tree(info["fair"], info, ctx))
    parts.append(h("div", {"class": "sheet-body", "id": "sheet-body", "hidden": not is_open},
                   body))
    nr = info["next_round"]
    if nr["show"]:
        parts.append(button(ctx, "next-round", ctx.t("next_round"), nr["spec"], "btn primary big"))
    elif info["phase"] == "round_over":
        parts.append(h("p", {"class": "hint"}, ctx.t("wait_next_round")))
    if info["phase"] == "game_over":
        if info.get("new_game"):
            parts.append(button(ctx, "new-game", ctx.t("new_game"), ("intent", "new_game", {}),
                                "btn primary big"))
        else:
            parts.append(h("p", {"class": "hint", "data-testid": "wait-new-game"},
                           ctx.t("wait_new_game")))
        parts.append(button(ctx, "leave", ctx.t("leave"), ("intent", "leave", {}), "btn"))
    return h("section", {"class": "end sheet" + ("" if is_open else " down"),
                         "data-testid": "end-sheet", "aria-labelledby": "sheet-title"}, parts)
