"""The event log's text: public events in plain words (es/en), newest first.

Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from ui.viewmodel import card_text, read, seat_name

LOG_LINES = 40


def event_text(ev, players, ctx):
    """One line for the event log, or None for events that are not shown."""
    ty = ev.get("type")
    seat = ev.get("seat")
    name = seat_name(players, seat, ctx) if seat is not None else ""

    def pos(p):
        return ctx.t("pos_" + str(p))

    if ty == "deal":
        return ctx.t("ev_deal", round=ev.get("round", 1),
                     name=seat_name(players, ev.get("dealer", 0), ctx))
    if ty == "ready":
        return ctx.t("ev_ready_auto" if ev.get("auto") else "ev_ready", name=name)
    if ty == "play":
        return ctx.t("ev_play", name=seat_name(players, ev.get("turn", 0), ctx))
    if ty == "turn":
        return ctx.t("ev_turn", name=name)
    if ty == "draw":
        if ev.get("from") == "discard":
            return ctx.t("ev_draw_discard", name=name, card=card_text(ev.get("card")))
        return ctx.t("ev_draw_deck", name=name)
    if ty == "recycle":
        return ctx.tn("ev_recycle", ev.get("count", 0), count=ev.get("count", 0))
    if ty == "swap":
        return ctx.t("ev_swap", name=name, pos=pos(ev.get("pos")), card=card_text(ev.get("card")))
    if ty == "discard":
        return ctx.t("ev_discard", name=name, card=card_text(ev.get("card")))
    if ty == "jack":
        return ctx.t("ev_jack", name=name)
    if ty == "queen":
        return ctx.t("ev_queen", name=name, pos=pos(ev.get("pos")),
                     target=seat_name(players, ev.get("target", 0), ctx),
                     target_pos=pos(ev.get("target_pos")))
    if ty == "king":
        return ctx.tn("ev_king", ev.get("pending", 2), name=name, n=ev.get("pending", 2))
    if ty == "timeout" and ev.get("away"):
        # the room ended the turn of a player who is away (not a slow one)
        line = ctx.t("ev_timeout_away", name=name)
        if ev.get("card"):
            line += ctx.t("ev_timeout_away_card", card=card_text(ev.get("card")))
        line += "."
        if ev.get("lost"):
            line += " " + ctx.tn("ev_timeout_lost", ev.get("lost"), n=ev.get("lost"))
        return line
    if ty == "timeout":
        line = ctx.t("ev_timeout", name=name)
        if ev.get("card"):
            line += " " + ctx.t("ev_timeout_card", card=card_text(ev.get("card")))
        if ev.get("lost"):
            line += " " + ctx.tn("ev_timeout_lost", ev.get("lost"), n=ev.get("lost"))
        return line
    if ty == "crisp":
        return ctx.t("ev_crisp", name=name)
    if ty == "round_over":
        return ctx.t("ev_round_over")
    if ty == "game_over":
        return ctx.t("ev_game_over", names=names_text(players, ev.get("winners") or [], ctx))
    return None


def names_text(players, seats, ctx):
    return ", ".join([seat_name(players, s, ctx) for s in seats])


def log_lines(model, players, ctx):
    """The readable log, newest first: [(text, kind)]."""
    return [(line, kind) for line, kind, i in log_entries(model, players, ctx)]


def log_entries(model, players, ctx):
    """The readable log, newest first: [(text, kind, index in the model's log)]. The index
    keys each line, so a new event is one new line (and one announcement), not a rewrite."""
    out = []
    log = read(model, "log", []) or []
    for i in range(len(log)):
        ev = log[i]
        if not isinstance(ev, dict) or "to" in ev:
            continue  # private events are not part of the public log
        line = event_text(ev, players, ctx)
        if line:
            out.append((line, ev.get("type"), i))
    out.reverse()
    return out[:LOG_LINES]
