"""The table's status line: whose turn it is and what is expected of this player, in words.

Pure: runs on MicroPython, Pyodide and CPython (tests).
"""

from crisp_core.actions import PLAY_PHASES
from ui.page.screens.viewmodel import SECOND, card_text, seat_name, secs


def waiting_names(names, ctx):
    """Who the table waits for: up to two names, then how many more
    ("Ana, Bea and 3 more"); `names` are already isolated for the page."""
    if len(names) <= 2:
        return ", ".join(names)
    return ctx.t("names_more", names=", ".join(names[:2]), n=len(names) - 2)


def status_text(info, players, ctx):
    """The one line telling whose turn it is and what is expected of this player. While the
    game is paused (`info["paused"]`: the host silent, or a handover under way) nothing is
    expected of anyone and nothing can be tapped: the line says so ("tap one of
    your cards" above disabled cards), until the round is over."""
    phase = info["phase"]
    me = info["me"]
    allowed = info["allowed"]
    if info.get("paused") and phase not in ("round_over", "game_over"):
        return ctx.t("st_paused")
    if phase == "peek":
        if "ready" in allowed:
            return ctx.t("st_peek")
        done = len([s for s in info["seats"] if s["ready"]])
        waiting = [s["name"] for s in info["seats"] if not s["ready"]]
        if not waiting:
            return ctx.t("st_peek_wait", k=done, n=info["n"])
        return ctx.t("st_peek_wait_who", names=waiting_names(waiting, ctx), k=done, n=info["n"])
    if phase == "round_over":
        return ctx.t("st_round_over", round=info["round"])
    if phase == "game_over":
        return ctx.t("st_game_over")
    q = info["queen"]
    if q is not None:
        return ctx.t("st_queen_own") if q.get("pos") is None else ctx.t("st_queen_target")
    held = info["held"]
    turn = info["turn"]
    if turn == me:
        if held and held["mine"]:
            card = card_text(held["card"])
            if held["from"] == "discard":
                return ctx.t("st_swap_taken", card=card)
            sp = info["special"]
            if sp == "king":
                # R4.3: it cannot be discarded; R4.6: its two draws join those still owed
                if info["pending"]:
                    return ctx.tn("st_king_more", info["pending"] + 2, n=info["pending"] + 2)
                return ctx.t("st_king")
            if sp == "jack":
                return ctx.t("st_jack")
            if sp == "queen":
                return ctx.t("st_queen")
            return ctx.t("st_swap_or_discard", card=card)
        if "draw" in allowed:
            both = info["discard"]["spec"] is not None
            if info["pending"]:
                return ctx.tn("st_extra_draw_both" if both else "st_extra_draw", info["pending"],
                              n=info["pending"])
            return ctx.t("st_draw_both" if both else "st_draw")
        if info["start_in"]:
            return ctx.t("st_your_turn_in", s=secs(info["start_in"]))
        return ctx.t("st_your_turn")
    if info["crisp"]["spec"] is not None:
        return ctx.t("st_crisp_offer")
    name = seat_name(players, turn, ctx) if turn is not None else ""
    if held and held["seat"] == turn:
        if held["from"] == "discard" and held["card"]:
            return ctx.t("st_other_took", name=name, card=card_text(held["card"]))
        return ctx.t("st_other_holds", name=name)
    if info["pending"]:
        return ctx.tn("st_other_extra", info["pending"], name=name, n=info["pending"])
    return ctx.t("st_other_turn", name=name)


def status_sub(info, players, ctx):
    """A second, quieter line: why the table waits for an away player's turn, the crisp call
    and the last turns, the peek timer."""
    away = away_turn(info, players, ctx)
    if away is not None:
        return away
    if info["phase"] == "last_turns" and info["caller"] is not None:
        key = "st_last_turns_you" if info["caller"] == info["me"] else "st_last_turns"
        return ctx.tn(key, info["last_turns_left"] or 0,
                      name=seat_name(players, info["caller"], ctx), n=info["last_turns_left"] or 0)
    if info["phase"] == "peek" and info["peek_left"] is not None:
        return ctx.t("st_peek_timer", s=secs(info["peek_left"]))
    return None


def away_turn(info, players, ctx):
    """Why the table waits, while it is the turn of a player whose phone does not answer
    (not this page's, the game not paused): "Pepe's phone is not answering: their turn is
    skipped in 12 s", the room's `skip_in` (ms, from the view's players, counted down with
    `ctx.left`, in whole seconds) or, when the room does not say it, the same without a time. None
    otherwise."""
    turn = info["turn"]
    if info["paused"] or info["phase"] not in PLAY_PHASES or turn is None or turn == info["me"]:
        return None
    seats = info["seats"]
    if not 0 <= turn < len(seats) or seats[turn]["connected"] or seats[turn]["bot"]:
        return None
    name = seat_name(players, turn, ctx)
    skip = (players.get(turn) or {}).get("skip_in")
    if isinstance(skip, int) and not isinstance(skip, bool) and skip > 0:
        left = ctx.left(skip, SECOND)
        if left:
            return ctx.t("st_away_turn", name=name, s=secs(left))
    return ctx.t("st_away_turn_soon", name=name)
