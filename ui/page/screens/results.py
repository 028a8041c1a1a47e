"""The results sheet at the end of a round or game: the standings, the podium, the check of
the deal, the rounds so far, and the room's tally of games won (also shown in the lobby).

Draws what `results_info` (ui/page/screens/results_model.py) decided. Pure: runs on MicroPython, Pyodide
and CPython (tests).
"""

from ui.page.screens import cards
from ui.page.screens.faces import mark
from ui.page.screens.icons import icon, medal
from ui.page.dom.vdom import h
from ui.page.screens.results_model import standings
from ui.page.screens.viewmodel import player_list, read, says_you, seat_name
from ui.page.screens.widgets import button, card_name, card_node


def progress_bar(r, ctx):
    """How far a total is toward the target that ends the game (R8.1)."""
    if not r["target"]:
        return None
    text = (ctx.t("target_reached", n=r["target"]) if r["left"] == 0
            else ctx.t("to_go", n=r["left"]))
    return h("div", {"class": "goal-bar" + (" full" if r["left"] == 0 else ""),
                     "data-testid": "progress-" + str(r["seat"]),
                     "data-progress": str(r["progress"])},
             h("span", {"class": "fill", "style": "width:" + str(r["progress"]) + "%",
                        "aria-hidden": "true"}),
             h("small", None, text))


def history_table(model, ranked, ctx):
    """Every finished round's points of this game, one row per player in standings order."""
    history = read(model, "history", []) or []
    if not history:
        return None
    heads = [h("th", {"scope": "col"}, ctx.t("round_short", n=k + 1)) for k in range(len(history))]
    rows = []
    for r in ranked:
        s = r["seat"]
        cells = []
        for rnd in history:
            p = rnd[s] if isinstance(rnd, list) and s < len(rnd) else None
            cells.append(h("td", {"class": "num"}, "" if p is None else str(p)))
        rows.append(h("tr", {"data-testid": "history-" + str(s)},
                      h("th", {"scope": "row", "class": "pname"},
                        who(r, ctx)),
                      cells, h("td", {"class": "num total"}, str(r["score"]))))
    return h("div", {"class": "history", "data-testid": "history"},
             h("h3", {"id": "history-title"}, ctx.t("history")),
             h("div", {"class": "scroll-x", "role": "region", "tabindex": "0",
                       "aria-labelledby": "history-title"},
               h("table", {"class": "results history-table"},
                 h("thead", None, h("tr", None, h("th", {"scope": "col"}, ctx.t("player")),
                                    heads, h("th", {"scope": "col"}, ctx.t("total")))),
                 h("tbody", None, rows))))


def who(r, ctx):
    """A result row's name (`r`: results_info's row, its "name" and "bot") in its own <bdi>,
    whole in its title; inside it, before the name, the robot where a bot's face would be
    when this page shows no faces (ui/page/screens/faces.py `mark`)."""
    return h("bdi", {"class": "who", "title": r["name"]}, mark(ctx, r.get("bot")), r["name"])


def you_badge(r, me, ctx):
    """The "you" mark on this player's own row, or None (also when its name is
    itself "you": `says_you`)."""
    if r["seat"] != me or says_you(r["name"]):        # ("You": no "You YOU")
        return None
    return h("span", {"class": "badge you", "data-testid": "you-" + str(r["seat"])},
             ctx.t("badge_you"))


def podium(ranked, ctx, me=None):
    """Game over: the first three places (ties share a step), lowest total first (R8.2);
    this player's step marked."""
    steps = [r for r in ranked if r["rank"] <= 3]
    return h("ol", {"class": "podium", "data-testid": "podium", "aria-label": ctx.t("podium")},
             [h("li", {"class": "step p" + str(r["rank"]),
                       "data-testid": "podium-" + str(r["seat"]), "data-rank": str(r["rank"])},
                medal(r["rank"]),
                who(r, ctx),
                you_badge(r, me, ctx),
                h("span", {"class": "score"}, str(r["score"])))
              for r in steps])


def tally(model, ctx):
    """The room's games won per player, kept across New game (Room: seat wins)."""
    players = player_list(model)
    games = read(model, "games", 0) or 0
    rows = [(p.get("wins") or 0, s, seat_name(players, s, ctx), p.get("bot"))
            for s, p in players.items() if isinstance(p.get("wins"), int)]
    rows.sort(key=lambda x: (-x[0], x[1]))
    return h("div", {"class": "tally", "data-testid": "tally"},
             h("h3", None, ctx.t("tally"), " ",
               h("small", None, ctx.tn("tally_games", games, n=games)) if games else None),
             h("ul", None, [h("li", {"data-testid": "tally-" + str(s)},
                                 h("bdi", None, mark(ctx, bot), name), h("b", None, str(w)))
                            for w, s, name, bot in rows]))


FAIR_WHATS = ("record", "uncommitted", "unproven", "alone", "again", "commitment", "contribution", "log", "deal",
              "peek", "draw", "jack", "queen", "discard", "recycle", "hands", "event")


def fair_tree(fair, info, ctx):
    """`round-verified` (quiet) or `round-mismatch` (loud, naming what did not match), and
    `save-record`: the round's record as a JSON download (docs/protocol.md "Verifiable
    shuffle")."""
    seats = info["seats"]
    skipped = [seats[s]["name"] for s in fair.get("skipped") or []
               if isinstance(s, int) and 0 <= s < len(seats)]
    save = button(ctx, "save-record", ctx.t("save_record"),
                  ("intent", "save_record", {"round": fair.get("round")}), "btn small")
    me_skipped = info["me"] in (fair.get("skipped") or [])
    if fair.get("ok"):
        # one line that says it held; a tap opens how it was checked
        return h("details", {"class": "fair ok", "data-testid": "round-verified"},
                 h("summary", {"data-testid": "fair-details"},
                   icon("check", "fair-mark"), " ", ctx.t("fair_ok_short"),
                   h("span", {"class": "fair-more"}, ctx.t("fair_details"))),
                 h("p", None, ctx.t("fair_ok")),
                 h("p", {"class": "hint"}, ctx.t("fair_skipped", names=", ".join(skipped)))
                 if skipped else None,
                 h("p", {"class": "hint", "data-testid": "fair-skipped-you"},
                   ctx.t("fair_skipped_you")) if me_skipped else None, save)
    if fair.get("what") == "test_deck":
        return h("div", {"class": "fair ok", "data-testid": "round-test-deck", "role": "status"},
                 h("p", None, ctx.t("fair_test_deck")))
    if fair.get("what") in ("uncommitted", "unproven", "alone"):
        # not checked: no commitment, no proof (or no round start), or no guest's number
        return h("div", {"class": "fair bad", "data-testid": "round-unchecked", "role": "alert",
                         "data-what": fair["what"]},
                 h("p", {"class": "fair-title"}, icon("warning", "fair-mark"), " ",
                   ctx.t("fair_what_" + fair["what"])), save)
    what = fair.get("what") if fair.get("what") in FAIR_WHATS else "event"
    saw = " ".join([c for c in fair.get("saw") or [] if isinstance(c, str)]) or "\u2014"
    expected = " ".join([c for c in fair.get("expected") or [] if isinstance(c, str)]) or "\u2014"
    return h("div", {"class": "fair bad", "data-testid": "round-mismatch", "role": "alert",
                     "data-what": what},
             h("p", {"class": "fair-title"},
               icon("warning", "fair-mark"), " ",
               ctx.t("fair_bad", n=fair.get("round"))),
             h("p", None, ctx.t("fair_what_" + what)),
             h("p", {"class": "fair-cards"}, ctx.t("fair_saw", saw=saw, expected=expected))
             if what not in ("record", "commitment", "log", "again") else None,
             save)


def end_tree(model, info, ui, ctx, tip=None):
    """The results sheet. It opens by itself for each new end of round; the player may put it
    down to a bar (its title, their points, the next-round button) to see the hands shown on
    the table, and bring it back. The test ids inside stay in the page either way. `tip`: the
    guided round's tip node (ui/page/screens/guided_screens.py) or None; it shows under the sheet's
    bar, open or down, since the sheet would cover it in the table's flow."""
    key = str(info["round"]) + ":" + str(info["phase"])
    if ui.get("sheet_key") != key:
        ui["sheet_key"] = key
        ui["sheet_open"] = True
    is_open = bool(ui.get("sheet_open"))
    ranked = standings(info["results"])
    table = standings_table(ranked, ctx, info["me"])
    parts = [sheet_bar(info, is_open, ctx), tip]
    parts.append(h("div", {"class": "sheet-body", "id": "sheet-body", "hidden": not is_open},
                   sheet_body(model, info, ranked, table, ctx)))
    # what comes next stays in reach at the sheet's foot, however long its body
    parts.append(h("div", {"class": "sheet-foot"}, end_buttons(info, ctx)))
    return h("section", {"class": "end sheet" + ("" if is_open else " down"),
                         "data-testid": "end-sheet", "aria-labelledby": "sheet-title"}, parts)


def result_row(r, ctx, me=None):
    """One seat's row of the results: rank, name ("you" on this player's own, and the
    caller's bonus), hand, points, total, progress toward the target."""
    pts = r["points"]
    note = None
    if r["caller"]:
        note = h("span", {"class": "bonus-why", "data-testid": "bonus-why"},
                 h("span", {"class": "badge caller"}, ctx.t("badge_crisp")), " ",
                 ctx.t("bonus_" + r["reason"]) if r["reason"] else "")
    hand_cards = [card_node(c, {}, "xs", "", card_name(ctx, c)) if cards.is_card(c)
                  else card_node(None, {}, "xs", "", ctx.t("face_down")) for c in r["hand"]]
    cls = ("winner" if r["winner"] else "") + (" mine" if r["seat"] == me else "")
    return h("tr", {"class": cls.strip(), "role": "row",
                    "data-testid": "result-" + str(r["seat"]), "data-rank": str(r["rank"])},
             h("td", {"class": "pname", "role": "cell"},
               h("span", {"class": "rank", "aria-label": ctx.t("rank_label", n=r["rank"])},
                 str(r["rank"])),
               who(r, ctx),
               you_badge(r, me, ctx), note),
             h("td", {"class": "mini", "role": "cell"}, hand_cards),
             h("td", {"class": "num", "role": "cell"}, "" if pts is None else str(pts)),
             h("td", {"class": "num total", "role": "cell",
                      "data-testid": "score-" + str(r["seat"])}, str(r["score"])),
             h("td", {"class": "goal", "role": "cell"}, progress_bar(r, ctx)))


def standings_table(ranked, ctx, me=None):
    """The round's results in standings order, this player's row (seat `me`) marked."""
    rows = [result_row(r, ctx, me) for r in ranked]
    # On a phone each result is two lines (CSS grid rows): the rank and name across the
    # sheet, then the hand, the points and the progress. The table's roles are written out:
    # a browser may drop a table's semantics when CSS changes its rows' display.
    heads = [ctx.t("player"), ctx.t("hand"), ctx.t("round_points"), ctx.t("total"),
             ctx.t("progress", n=ranked[0]["target"]) if ranked and ranked[0]["target"] else ""]
    return h("table", {"class": "results standings", "data-testid": "standings",
                       "role": "table"},
             h("thead", {"role": "rowgroup"},
               h("tr", {"role": "row"},
                 [h("th", {"role": "columnheader"}, words) for words in heads])),
             h("tbody", {"role": "rowgroup"}, rows))


def winner_names(info):
    """The winners' names, comma separated."""
    return ", ".join([info["seats"][s]["name"] for s in info["winners"] or []
                      if 0 <= s < len(info["seats"])])


def sheet_bar(info, is_open, ctx):
    """The sheet's bar: its title (with this player's points, or the winners, while it is
    down) and the button that puts it down or brings it back."""
    mine = None
    for r in info["results"]:
        if r["seat"] == info["me"]:
            mine = r
    title = ctx.t("game_over") if info["phase"] == "game_over" else ctx.t("round_results",
                                                                           n=info["round"])
    winners = info["winners"] or []
    if info["phase"] == "game_over":
        summary = ctx.tn("winners", len(winners), names=winner_names(info))
    else:
        summary = ctx.t("you_points", n=mine["score"]) if mine is not None else ""
    toggle = button(ctx, "toggle-results",
                    [icon("chevron-down" if is_open else "chevron-up", "chev"),
                     ctx.t("hide_results") if is_open else ctx.t("show_results")],
                    ("local", "sheet", not is_open), "btn sheet-toggle",
                    {"aria-expanded": "true" if is_open else "false",
                     "aria-controls": "sheet-body",
                     "title": ctx.t("hide_results_label") if is_open else None})
    return h("div", {"class": "sheet-bar"},
             h("h2", {"class": "sheet-title", "id": "sheet-title"}, title,
               h("small", None, summary) if (summary and not is_open) else None),
             toggle)


def sheet_body(model, info, ranked, table, ctx):
    """The sheet's body: the game's winners and podium (game over), the round's results,
    the check of the deal, the rounds so far, and (game over) the room's tally."""
    body = []
    if info["phase"] == "game_over":
        winners = info["winners"] or []
        names = winner_names(info)
        me_won = info["me"] in winners
        body.append(h("div", {"class": "game-over", "data-testid": "game-over"},
                       h("p", {"class": "winners", "data-testid": "winners",
                               "data-seats": ",".join([str(s) for s in winners]),
                               # a long name is cut in the line: whole in the tooltip
                               "title": ctx.tn("winners", len(winners), names=names)},
                         ctx.tn("winners", len(winners), names=names)),
                       h("p", {"class": "cheer"}, icon("star"), " ", ctx.t("you_won"), " ",
                         icon("star")) if me_won else None,
                       podium(ranked, ctx, info["me"])))
    body.append(h("div", {"class": "round-results", "data-testid": "round-results"},
                  h("h3", None, ctx.t("round_results", n=info["round"]))
                  if info["phase"] == "game_over" else None, table))
    if info.get("fair") is not None:
        body.append(fair_tree(info["fair"], info, ctx))
    body.append(history_table(model, ranked, ctx))
    if info["phase"] == "game_over":
        body.append(tally(model, ctx))
    return body


def end_buttons(info, ctx):
    """What comes after: the host's next round or new game, or what the others wait for;
    leave at game over."""
    parts = []
    nr = info["next_round"]
    if nr["show"]:
        parts.append(button(ctx, "next-round", ctx.t("next_round"), nr["spec"], "btn primary big"))
    elif info["phase"] == "round_over":
        parts.append(h("p", {"class": "hint", "data-testid": "wait-next-round"},
                       waiting(info, ctx, "wait_next_round")))
    if info["phase"] == "game_over":
        if info.get("new_game"):
            parts.append(button(ctx, "new-game", ctx.t("new_game"), ("intent", "new_game", {}),
                                "btn primary big"))
        else:
            parts.append(h("p", {"class": "hint", "data-testid": "wait-new-game"},
                           waiting(info, ctx, "wait_new_game")))
        parts.append(button(ctx, "leave", ctx.t("leave"), ("intent", "leave", {}), "btn"))
    return parts


def waiting(info, ctx, key):
    """What the others wait for (`key`: "wait_next_round" | "wait_new_game"), the host by
    name when known (info["host_name"], table_model.host_name), else "the host"."""
    name = info.get("host_name")
    return ctx.t(key + "_named", name=name) if name else ctx.t(key)
