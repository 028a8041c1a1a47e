"""The table screen: seats, piles, status, actions, the event log, and the results sheet.

Draws what `table_info` (ui/page/viewmodel.py) decided. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from crisp_core.actions import END_PHASES, PLAY_PHASES
from ui.page import cards
from ui.page.icons import icon, medal
from ui.page.cues import ANNOUNCE_MS
from ui.page.eventlog import last_move, log_entries, queen_notice
from ui.page.vdom import h
from ui.page.viewmodel import (card_text, clock, player_list, read, seat_name, secs, standings,
                          table_info)
from ui.page.widgets import button, card_button, card_name, card_node, place_label


def icon_badge(cls, label, testid=None):
    """A badge drawn as an icon (a name stays readable beside it, issue 11.5): the SVG icon
    `cls` (ui/page/icons.py), its word `label` its accessible name and its tooltip."""
    a = {"class": "badge icon " + cls, "title": label, "role": "img", "aria-label": label}
    if testid:
        a["data-testid"] = testid
    return h("span", a, icon(cls))


def seat_badges(row, info, ctx):
    out = []
    if row.get("host"):
        # the real host, marked by the room's word: a guest named "Hana (host)" gets no badge
        # (a crown, named for screen readers: the seat's head has room for a few badges only)
        out.append(icon_badge("host", ctx.t("badge_host"), "host-badge"))
    if row["dealer"]:
        out.append(icon_badge("dealer", ctx.t("dealer")))
    if row["bot"]:
        out.append(icon_badge("bot", ctx.t("badge_bot")))
    if row["caller"]:
        out.append(icon_badge("caller", ctx.t("badge_crisp")))
    if info["phase"] == "peek" and row["ready"]:
        out.append(icon_badge("check", ctx.t("ready")))
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
    return h("div", {"class": cls, "data-testid": "seat-" + str(row["seat"]), "role": "group",
                     "aria-label": ctx.t("seat_label", name=row["name"], n=row["score"])},
             h("div", {"class": "seat-head"},
               h("span", {"class": "dot " + ("on" if row["connected"] else "off")}),
               name_node(row["name"]),
               h("span", {"class": "badges"}, seat_badges(row, info, ctx)),
               h("span", {"class": "score", "title": ctx.t("total")}, str(row["score"]))),
             h("div", {"class": "hand"}, seat_cards(ctx, row, "sm"),
               h("span", {"class": "holding", "title": ctx.t("holding"), "role": "img",
                          "aria-label": ctx.t("holding")}) if holding else None),
             button(ctx, "stand-in-" + str(row["seat"]), ctx.t("stand_in"), row["stand_in"],
                    "btn small stand-in") if row.get("stand_in") else None,
             h("small", {"class": "asks"}, ctx.t("asks_seat", name=row["asks"]))
             if row.get("asks") and not row.get("approve") else None,
             button(ctx, "approve-" + str(row["seat"]), ctx.t("approve_seat", name=row["asks"]),
                    row["approve"], "btn small approve") if row.get("approve") else None,
             button(ctx, "take-seat-" + str(row["seat"]), ctx.t("take_seat"), row["take"],
                    "btn small take-seat") if row.get("take") else None)


def spectator_bar(model, info, ui, ctx):
    """A spectator's bar: it watches (public information only); with a name it may ask for a
    seat that is away or played by a bot (`take-seat-<seat>` on that seat) or for a seat in
    the next game; `leave` is always there."""
    from ui.page.screens import leave_button, name_input    # (screens imports this module)
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
        # the empty place says what it is for (its label below is hidden on a crowded table)
        disc_node = h("button", a, h("span", {"class": "slot-label"}, ctx.t("discard_pile")))
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
        paused = info.get("paused")
        timer_node = h("div", {"class": "timer" + (" urgent" if timer < 10000 and not paused
                                                   else "")
                               + (" mine" if info["timer_mine"] else "")
                               + (" paused" if paused else ""),
                               "data-testid": "turn-timer", "data-ms": str(timer),
                               "data-paused": "true" if paused else None,
                               "role": "timer", "aria-label": ctx.t("time_left", t=clock(timer)),
                               "style": "--p:" + str(frac) + "%"},
                       h("span", None, ctx.t("paused") if paused else clock(timer)))
    players = player_list(model)
    moved = last_move(model, players, ctx) if info["phase"] in PLAY_PHASES else None
    notice = queen_notice(model, players, ctx) if info["phase"] in PLAY_PHASES else None
    status_node = h("div", {"class": "statusbar" + (" yours" if info["turn"] == me
                                                    and info["phase"] in PLAY_PHASES else "")},
                    h("div", {"class": "status", "data-testid": "status", "role": "status",
                              "aria-live": "polite"}, info["status"]),
                    h("div", {"class": "sub"}, info["status_sub"]) if info["status_sub"] else None,
                    timer_node,
                    h("div", {"class": "last-move", "data-testid": "last-move",
                              "title": ctx.t("last_move")}, icon("last-move"), moved)
                    if moved else None,
                    h("div", {"class": "notice queen-notice", "data-testid": "queen-notice",
                              "role": "status"}, notice) if notice else None,
                    reveal_note(model, info, ctx), fair_alarm_node(info, ctx))

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
        # "Use special" / "Discard" buttons greyed out; and "Use special" only for a special
        has_special = info["queen"] is not None or info["use_special"] is not None
        actions = h("div", {"class": "actions"}, special if (holding and has_special) else None,
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
                      name_node(mine["name"]),
                      h("span", {"class": "badge you"}, ctx.t("badge_you")),
                      h("span", {"class": "badges"}, seat_badges(mine, info, ctx)),
                      h("span", {"class": "score", "title": ctx.t("total")},
                        ctx.t("points_n", n=mine["score"]))))

    # Log
    lines = []
    for line, kind, index in log_entries(model, players, ctx):
        li = h("li", {"class": "ev " + str(kind) + ("" if lines else " fresh")}, line)
        li["key"] = index
        lines.append(li)
    # the live region is the section (a list keeps its list semantics inside it); the list
    # scrolls, so it takes keyboard focus
    log_node = h("section", {"class": "log", "aria-labelledby": "log-title", "role": "log",
                             "aria-live": "polite"},
                 h("h3", {"id": "log-title"}, ctx.t("log")),
                 h("ol", {"data-testid": "event-log", "class": "events", "tabindex": "0",
                          "aria-labelledby": "log-title"}, lines))

    # End of round / game
    end = end_tree(model, info, ui, ctx) if info["results"] is not None else None

    # The announcement of a call, this seat's turn, the end of a round (ui/page/cues.py)
    # (its live region is always there, so that it is heard and nothing after it moves)
    ann = h("div", {"class": "announce-slot", "aria-live": "assertive"},
            announce_node(ui, info, ctx))

    grid_cls = "opponents n" + str(len(others)) + (" many" if len(others) >= 4 else "")
    # 5 to 8 players: on a short phone the opponents' seats scroll in their own box (CSS),
    # which a keyboard reaches too, and which says what it holds
    grid_attrs = {"class": grid_cls}
    if len(others) >= 4:
        grid_attrs.update({"tabindex": "0", "role": "region",
                           "aria-label": ctx.t("opponents")})
    return h("main", {"class": "table phase-" + str(info["phase"])
                      + (" crowded" if len(others) >= 4 else "")
                      + (" sheet-down" if end is not None and not ui.get("sheet_open") else "")},
             h("section", grid_attrs, [opponent_node(ctx, r, info) for r in others]),
             ann, spectator_bar(model, info, ui, ctx) if info["spectator"] else None,
             centre, status_node, my_node,
             None if info["phase"] in END_PHASES or info["spectator"] else actions, end,
             log_node)


def announce_node(ui, info, ctx):
    """The splash for the latest cue (ui["announce"], set by the page when the events
    arrive): "Ana called CRISP!" with the last turns to come, "Your turn!", "Your last turn!",
    "Round over". Shown for ANNOUNCE_MS, in an assertive live region, so it is heard too."""
    ann = ui.get("announce")
    if not ann or ctx.now - (ann.get("at") or 0) >= ANNOUNCE_MS:
        return None
    kind = ann.get("kind")
    sub = None
    if kind == "crisp":
        seat = ann.get("seat")
        if seat == info["me"]:
            text = ctx.t("ann_crisp_you")
        else:
            name = info["seats"][seat]["name"] if (isinstance(seat, int)
                                                    and 0 <= seat < info["n"]) else ""
            text = ctx.t("ann_crisp", name=name)
        if ann.get("mine"):
            sub = ctx.t("ann_your_last_turn")
        elif ann.get("n"):
            sub = ctx.tn("ann_last_turns", ann["n"], n=ann["n"])
    elif kind in ("your_turn", "last_turn", "round_over", "game_over"):
        text = ctx.t("ann_" + ("your_last_turn" if kind == "last_turn" else kind))
    else:
        return None
    return h("div", {"class": "announce " + kind, "data-testid": "announce",
                     "data-kind": kind},
             h("strong", None, text), h("small", None, sub) if sub else None)


def reveal_note(model, info, ctx):
    """My cards a Jack or a Queen shows until the next turn (Client.reveal_until "turn"): one
    line saying which, and a button to turn them back now. It sits beside the status, never
    over the actions, so the crisp button stays in reach (issue 11.2)."""
    me = info["me"]
    until = read(model, "reveal_until", {}) or {}
    shown = []
    for c in (info["seats"][me]["cards"] if me is not None and 0 <= me < info["n"] else []):
        if until.get((me, c["pos"])) == "turn" and cards.is_card(c["card"]):
            shown.append(ctx.t("reveal_note", pos=ctx.t("pos_" + c["pos"]),
                               card=card_text(c["card"])))
    if not shown:
        return None
    return h("div", {"class": "notice reveal-note", "data-testid": "reveal-note",
                     "role": "status"},
             h("span", None, " ".join(shown)),
             button(ctx, "reveal-dismiss", ctx.t("reveal_dismiss"),
                    ("intent", "dismiss_reveal", {}), "btn small",
                    {"title": ctx.t("reveal_dismiss_label")}))


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
                        h("bdi", {"class": "who", "title": r["name"]}, r["name"])),
                      cells, h("td", {"class": "num total"}, str(r["score"]))))
    return h("div", {"class": "history", "data-testid": "history"},
             h("h3", {"id": "history-title"}, ctx.t("history")),
             h("div", {"class": "scroll-x", "role": "region", "tabindex": "0",
                       "aria-labelledby": "history-title"},
               h("table", {"class": "results history-table"},
                 h("thead", None, h("tr", None, h("th", {"scope": "col"}, ctx.t("player")),
                                    heads, h("th", {"scope": "col"}, ctx.t("total")))),
                 h("tbody", None, rows))))


def podium(ranked, ctx):
    """Game over: the first three places (ties share a step), lowest total first (R8.2)."""
    steps = [r for r in ranked if r["rank"] <= 3]
    return h("ol", {"class": "podium", "data-testid": "podium", "aria-label": ctx.t("podium")},
             [h("li", {"class": "step p" + str(r["rank"]),
                       "data-testid": "podium-" + str(r["seat"]), "data-rank": str(r["rank"])},
                medal(r["rank"]),
                h("bdi", {"class": "who", "title": r["name"]}, r["name"]),
                h("span", {"class": "score"}, str(r["score"])))
              for r in steps])


def tally(model, ctx):
    """The room's games won per player, kept across New game (Room: seat wins)."""
    players = player_list(model)
    games = read(model, "games", 0) or 0
    rows = [(p.get("wins") or 0, s, seat_name(players, s, ctx)) for s, p in players.items()
            if isinstance(p.get("wins"), int)]
    rows.sort(key=lambda x: (-x[0], x[1]))
    return h("div", {"class": "tally", "data-testid": "tally"},
             h("h3", None, ctx.t("tally"), " ",
               h("small", None, ctx.tn("tally_games", games, n=games)) if games else None),
             h("ul", None, [h("li", {"data-testid": "tally-" + str(s)},
                                 h("bdi", None, name), h("b", None, str(w)))
                            for w, s, name in rows]))


FAIR_WHATS = ("record", "uncommitted", "again", "commitment", "contribution", "log", "deal",
              "peek", "draw", "jack", "queen", "discard", "recycle", "hands", "event")


def fair_alarm_node(info, ctx):
    """Said at once during play (ui/page/fairplay.py): the host dealt this round again, or dealt
    it with no commitment (`fair-alarm`, loud)."""
    what = info.get("fair_now")
    if what is None:
        return None
    return h("div", {"class": "notice fair-alarm", "data-testid": "fair-alarm",
                     "data-what": what, "role": "alert"},
             icon("warning", "fair-mark"), " ", ctx.t("fair_what_" + what))


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
        return h("div", {"class": "fair ok", "data-testid": "round-verified", "role": "status"},
                 h("p", None, icon("check", "fair-mark"),
                   " ", ctx.t("fair_ok")),
                 h("p", {"class": "hint"}, ctx.t("fair_skipped", names=", ".join(skipped)))
                 if skipped else None,
                 h("p", {"class": "hint", "data-testid": "fair-skipped-you"},
                   ctx.t("fair_skipped_you")) if me_skipped else None, save)
    if fair.get("what") == "test_deck":
        return h("div", {"class": "fair ok", "data-testid": "round-test-deck", "role": "status"},
                 h("p", None, ctx.t("fair_test_deck")))
    if fair.get("what") == "uncommitted":
        return h("div", {"class": "fair bad", "data-testid": "round-unchecked", "role": "alert",
                         "data-what": "uncommitted"},
                 h("p", {"class": "fair-title"}, icon("warning", "fair-mark"), " ",
                   ctx.t("fair_what_uncommitted")), save)
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


def end_tree(model, info, ui, ctx):
    """The results sheet. It opens by itself for each new end of round; the player may put it
    down to a bar (its title, their points, the next-round button) to see the hands shown on
    the table, and bring it back. The test ids inside stay in the page either way."""
    key = str(info["round"]) + ":" + str(info["phase"])
    if ui.get("sheet_key") != key:
        ui["sheet_key"] = key
        ui["sheet_open"] = True
    is_open = bool(ui.get("sheet_open"))
    ranked = standings(info["results"])
    rows = []
    for r in ranked:
        pts = r["points"]
        note = None
        if r["caller"]:
            note = h("span", {"class": "bonus-why", "data-testid": "bonus-why"},
                     h("span", {"class": "badge caller"}, ctx.t("badge_crisp")), " ",
                     ctx.t("bonus_" + r["reason"]) if r["reason"] else "")
        hand_cards = [card_node(c, {}, "xs", "", card_name(ctx, c)) if cards.is_card(c)
                      else card_node(None, {}, "xs", "", ctx.t("face_down")) for c in r["hand"]]
        rows.append(h("tr", {"class": "winner" if r["winner"] else "", "role": "row",
                             "data-testid": "result-" + str(r["seat"]),
                             "data-rank": str(r["rank"])},
                      h("td", {"class": "pname", "role": "cell"},
                        h("span", {"class": "rank", "aria-label": ctx.t("rank_label", n=r["rank"])},
                          str(r["rank"])),
                        h("bdi", {"class": "who", "title": r["name"]}, r["name"]), note),
                      h("td", {"class": "mini", "role": "cell"}, hand_cards),
                      h("td", {"class": "num", "role": "cell"}, "" if pts is None else str(pts)),
                      h("td", {"class": "num total", "role": "cell",
                               "data-testid": "score-" + str(r["seat"])}, str(r["score"])),
                      h("td", {"class": "goal", "role": "cell"}, progress_bar(r, ctx))))
    # On a phone each result is two lines (CSS grid rows): the rank and name across the
    # sheet, then the hand, the points and the progress. The table's roles are written out:
    # a browser may drop a table's semantics when CSS changes its rows' display.
    heads = [ctx.t("player"), ctx.t("hand"), ctx.t("round_points"), ctx.t("total"),
             ctx.t("progress", n=ranked[0]["target"]) if ranked and ranked[0]["target"] else ""]
    table = h("table", {"class": "results standings", "data-testid": "standings",
                        "role": "table"},
              h("thead", {"role": "rowgroup"},
                h("tr", {"role": "row"},
                  [h("th", {"role": "columnheader"}, words) for words in heads])),
              h("tbody", {"role": "rowgroup"}, rows))
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
                    [icon("chevron-down" if is_open else "chevron-up", "chev"),
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
                               "data-seats": ",".join([str(s) for s in winners]),
                               # a long name is cut in the line: whole in the tooltip
                               "title": ctx.tn("winners", len(winners), names=names)},
                         ctx.tn("winners", len(winners), names=names)),
                       h("p", {"class": "cheer"}, icon("star"), " ", ctx.t("you_won"), " ",
                         icon("star")) if me_won else None,
                       podium(ranked, ctx)))
    body.append(h("div", {"class": "round-results", "data-testid": "round-results"},
                  h("h3", None, ctx.t("round_results", n=info["round"]))
                  if info["phase"] == "game_over" else None, table))
    if info.get("fair") is not None:
        body.append(fair_tree(info["fair"], info, ctx))
    body.append(history_table(model, ranked, ctx))
    if info["phase"] == "game_over":
        body.append(tally(model, ctx))
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
