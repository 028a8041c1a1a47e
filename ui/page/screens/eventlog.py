"""The event log: public events in plain words (es/en), newest first, and its part of the
table screen (`log_node`).

Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from ui.page.screens.faces import shown_name
from ui.page.dom.memo import carried, kept
from ui.page.dom.vdom import h, isolate
from ui.page.screens.viewmodel import card_text, read, seat_name
from ui.shared.lastline import say

LOG_LINES = 40


def event_text(ev, players, ctx, me=None, short=False):
    """One line for the event log, or None for events that are not shown. `me`: this page's
    seat, whose own moves are told in the second person ("You drew from the deck.").
    `short`: a crowded table's last-move line (ui/shared/lastline.py: shorter words)."""
    ty = ev.get("type")
    seat = ev.get("seat")
    name = seat_name(players, seat, ctx) if seat is not None else ""
    mine = me is not None and seat == me

    def pos(p):
        return ctx.t("pos_" + str(p))

    def k(key):
        return key + "_you" if mine else key

    if ty == "deal":
        dealer = ev.get("dealer", 0)
        return ctx.t("ev_deal_you" if dealer == me else "ev_deal", round=ev.get("round", 1),
                     name=seat_name(players, dealer, ctx))
    if ty == "ready":
        return ctx.t(k("ev_ready_auto" if ev.get("auto") else "ev_ready"), name=name)
    if ty == "play":
        first = ev.get("turn", 0)
        return ctx.t("ev_play_you" if first == me else "ev_play",
                     name=seat_name(players, first, ctx))
    if ty == "turn":
        return ctx.t(k("ev_turn"), name=name)
    if ty == "draw":
        if ev.get("from") == "discard":
            return ctx.t(k("ev_draw_discard"), name=name, card=card_text(ev.get("card")))
        return ctx.t(k("ev_draw_deck"), name=name)
    if ty == "recycle":
        return ctx.tn("ev_recycle", ev.get("count", 0), count=ev.get("count", 0))
    if ty == "swap":
        return say(ctx, k("ev_swap"), short, name=name, pos=pos(ev.get("pos")),
                   card=card_text(ev.get("card")))
    if ty == "discard":
        return ctx.t(k("ev_discard"), name=name, card=card_text(ev.get("card")))
    if ty == "jack":
        return say(ctx, k("ev_jack"), short, name=name)
    if ty == "queen":
        key = "ev_queen_on_you" if (me is not None and ev.get("target") == me) else k("ev_queen")
        return say(ctx, key, short, name=name, pos=pos(ev.get("pos")),
                   target=seat_name(players, ev.get("target", 0), ctx),
                   target_pos=pos(ev.get("target_pos")))
    if ty == "king":
        return say(ctx, k("ev_king"), short, ev.get("pending", 2), name=name,
                   n=ev.get("pending", 2))
    if ty == "timeout" and ev.get("away"):
        # the room ended the turn of a player who is away (not a slow one)
        line = ctx.t(k("ev_timeout_away"), name=name)
        if ev.get("card"):
            line += ctx.t("ev_timeout_away_card", card=card_text(ev.get("card")))
        line += "."
        if ev.get("lost"):
            line += " " + ctx.tn("ev_timeout_lost", ev.get("lost"), n=ev.get("lost"))
        return line
    if ty == "timeout":
        line = ctx.t(k("ev_timeout"), name=name)
        if ev.get("card"):
            line += " " + ctx.t("ev_timeout_card", card=card_text(ev.get("card")))
        if ev.get("lost"):
            line += " " + ctx.tn("ev_timeout_lost", ev.get("lost"), n=ev.get("lost"))
        return line
    if ty == "crisp":
        return ctx.t(k("ev_crisp"), name=name)
    if ty == "took_seat" and isinstance(ev.get("name"), str) and isinstance(ev.get("was"), str):
        # the host gave an away or a bot's seat to a late friend (ui/page/client/watchers.py)
        # (`was` may be a bot's name: without its face where the page shows none)
        return ctx.t(k("ev_took_seat"), name=isolate(shown_name(ev["name"], ctx.faces)),
                     was=isolate(shown_name(ev["was"], ctx.faces)))
    if ty == "round_over":
        return ctx.t("ev_round_over")
    if ty == "game_over":
        winners = ev.get("winners") if isinstance(ev.get("winners"), list) else []
        return ctx.tn("ev_game_over", len(winners), names=names_text(players, winners, ctx))
    return None


def names_text(players, seats, ctx):
    return ", ".join([seat_name(players, s, ctx) for s in seats])


def log_lines(model, players, ctx):
    """The readable log, newest first: [(text, kind)]."""
    return [(line, kind) for line, kind, i in log_entries(model, players, ctx)]


def log_entries(model, players, ctx, since=0):
    """The readable log, newest first: [(text, kind, index in the model's log)], at most
    LOG_LINES of them, of the events from index `since` on (all by default). The index
    keys each line, so a new event is one new line (and one announcement), not a rewrite."""
    out = []
    me = read(model, "seat")
    log = read(model, "log", []) or []
    i = len(log) - 1
    while i >= since and len(out) < LOG_LINES:  # newest first: the older ones are not shown
        ev = log[i]
        i -= 1
        if not isinstance(ev, dict) or "to" in ev:
            continue  # private events are not part of the public log
        line = event_text(ev, players, ctx, me)
        if line:
            out.append((line, ev.get("type"), i + 1))
    return out


MOVE_KINDS = ("draw", "swap", "discard", "jack", "queen", "king", "timeout", "crisp", "recycle",
              "play", "deal")


def last_move(model, players, ctx, short=False):
    """The newest move of the round in words (a draw, swap, discard, special, call...), for the
    one line above the fold that tells what just happened; None before the first one.
    `short`: in a crowded table's shorter words (event_text). A King's chain (R4.6) is told
    whole once a step follows the King: the King and each step since (`king_chain`)."""
    me = read(model, "seat")
    log = read(model, "log", []) or []
    for i in range(len(log) - 1, -1, -1):
        ev = log[i]
        if isinstance(ev, dict) and "to" not in ev and ev.get("type") in MOVE_KINDS:
            chain = king_chain(log, i)
            if chain:
                return chain_text(chain, players, ctx, me)
            line = event_text(ev, players, ctx, me, short)
            if line:
                return line
    return None


CHAIN_STEPS = ("swap", "discard", "king", "jack", "queen")


def king_chain(log, i):
    """The King's chain the move `log[i]` ends, oldest first: the turn's first King and every
    step after it up to `i` (draws left out: each step says its card), or None when that move
    is no step after a King of the same turn (a King alone, a move of a turn with none)."""
    seat = log[i].get("seat")
    if log[i].get("type") not in CHAIN_STEPS or log[i].get("type") == "king":
        return None
    steps = []
    j = i
    while j >= 0:
        ev = log[j]
        j -= 1
        if not isinstance(ev, dict) or "to" in ev:
            continue
        kind = ev.get("type")
        if kind in ("turn", "play", "deal") or ev.get("seat") != seat:
            break
        if kind in CHAIN_STEPS:
            steps.insert(0, ev)
    while steps and steps[0].get("type") != "king":
        steps.pop(0)           # what came before the turn's first King is no part of it
    return steps if len(steps) > 1 else None


def chain_text(chain, players, ctx, me):
    """A King's chain in one line: who used it, then each step ("left card swapped (9h
    out); 7h discarded")."""
    seat = chain[0].get("seat")
    parts = []
    for ev in chain[1:]:
        kind = ev.get("type")
        if kind == "swap":
            parts.append(ctx.t("chain_swap", pos=ctx.t("pos_" + str(ev.get("pos"))),
                               card=card_text(ev.get("card"))))
        elif kind == "discard":
            parts.append(ctx.t("chain_discard", card=card_text(ev.get("card"))))
        else:
            parts.append(ctx.t("chain_" + kind))
    key = "ev_king_chain_you" if me is not None and seat == me else "ev_king_chain"
    return ctx.t(key, name=seat_name(players, seat, ctx), steps="; ".join(parts))


def queen_notice(model, players, ctx, short=False):
    """What a Queen took from this seat, told to its player (R4.5: the exchange is blind, so
    without a word they would only see another card back): the text while the Queen is the
    latest exchange of this seat's cards, until the turn after the Queen's is over; else None.
    `short`: the crowded table's shorter words (one line on a phone)."""
    me = read(model, "seat")
    log = read(model, "log", []) or []
    if me is None:
        return None
    turns = 0
    for i in range(len(log) - 1, -1, -1):
        ev = log[i]
        if not isinstance(ev, dict) or "to" in ev:
            continue
        ty = ev.get("type")
        if ty == "turn":
            turns += 1
            if turns > 1:
                return None
        elif ty == "queen" and ev.get("target") == me:
            return ctx.t("queen_notice_short" if short else "queen_notice",
                         name=seat_name(players, ev.get("seat"), ctx),
                         pos=ctx.t("pos_" + str(ev.get("target_pos"))),
                         their_pos=ctx.t("pos_" + str(ev.get("pos"))))
        elif ty in ("round_over", "deal"):
            return None
    return None


def log_key(model, players, ctx):
    """Everything the log's words are made of, cheap to compare: the language, the faces
    mode (ctx.faces), this page's seat, every seat's name and the model's log itself with its length (the Client appends
    events to that list, and replaces it when a round starts over or it is trimmed; its
    events never change once there). Equal keys: the same lines."""
    log = read(model, "log", []) or []
    names = tuple([(s, (players.get(s) or {}).get("name")) for s in sorted(players)])
    return (ctx.lang, ctx.faces, read(model, "seat"), names, log, len(log))


def log_node(model, players, ctx):
    """The round's event log, newest first: kept whole while its `log_key` is the same (a
    tick words no event again), and each line kept while its words are."""
    key = log_key(model, players, ctx)
    return kept(ctx, "log", key, _log_of, model, players, ctx, key)


def _log_of(model, players, ctx, key):
    return log_section(carried(ctx, "log-words", reworded, model, players, ctx, key)[3], ctx)


def reworded(last, model, players, ctx, key):
    """The log's entries (`log_entries`) for `log_key` `key`, from `last`, what this gave for
    the last render ((words key, log, its length, entries), or None): while the words' key
    (the key but its last two: the language, the faces mode, this seat, the names) and the
    log list are the same, only the events
    appended since are worded (a view words its one or two new events, not 40 lines again);
    else all. -> (words key, log, length, entries)."""
    words, log, count = key[:-2], key[-2], key[-1]
    if last is not None and last[0] == words and last[1] is log and last[2] <= count:
        entries = log_entries(model, players, ctx, last[2]) + last[3]
        entries = entries[:LOG_LINES]
    else:
        entries = log_entries(model, players, ctx)
    return (words, log, count, entries)


def log_line(line, kind, index, fresh):
    """One line of the log: its words, its event's type (a class), keyed by its event's
    index in the model's log; `fresh`: the newest (it slides in)."""
    li = h("li", {"class": "ev " + str(kind) + (" fresh" if fresh else "")}, line)
    li["key"] = index
    return li


def log_section(entries, ctx):
    """The log's section from log_entries' [(line, kind, index)], each line kept while its
    words are."""
    lines = []
    for line, kind, index in entries:
        fresh = not lines
        lines.append(kept(ctx, "log-" + str(index), (line, kind, fresh), log_line, line, kind,
                          index, fresh))
    # the live region is the section (a list keeps its list semantics inside it); the list
    # scrolls, so it takes keyboard focus
    return h("section", {"class": "log", "aria-labelledby": "log-title", "role": "log",
                         "aria-live": "polite"},
             h("h3", {"id": "log-title"}, ctx.t("log")),
             h("ol", {"data-testid": "event-log", "class": "events", "tabindex": "0",
                      "aria-labelledby": "log-title"}, lines))
