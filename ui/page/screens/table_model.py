"""The table's view-model: what the table shows and which controls are live, as plain data.

`table_info(model, ui, ctx)` decides it (only what `view["allowed"]` offers is ever live: the
guest UI has no rules logic); ui/page/screens/table.py draws it. Pure: runs on MicroPython, Pyodide and
CPython (tests).
"""

from crisp_core.actions import CALL_WINDOW_MS, END_PHASES, PLAY_PHASES, POSITIONS, is_int
from ui.page.screens import cards, idle_turn
from ui.page.screens.results_model import fair_alarm, fair_info, results_info
from ui.page.screens.status_line import status_sub, status_text
from ui.page.screens.viewmodel import (SECOND, allowed_map, pause_of, player_list, read, reveal_map,
                               says_you, seat_name)


def table_info(model, ui, ctx):
    """Everything the table shows, as plain data. `ctx` counts down the timers (`ctx.left`)."""
    view = read(model, "view", {}) or {}
    players = player_list(model)
    n = view.get("players") or len(view.get("hands") or []) or len(players)
    me = read(model, "seat", view.get("seat"))
    phase = view.get("phase", "peek")
    allowed = allowed_map(view)
    public = phase in END_PHASES
    # The game paused (the host silent, or a handover under way: the Client's `pause`):
    # the seat that went silent shows away, the countdowns stand still (ctx.left counts no
    # time past the pause), and nothing is live (a tap would reach nobody).
    paused = pause_of(model).since is not None
    if paused:
        allowed = {}
    spectator = bool(read(model, "spectator", False)) and read(model, "seat") is None
    asking = read(model, "ask")
    queen = queen_flow(ui, allowed, paused)
    seats = seat_rows(model, ui, ctx, view, players, n, me, queen, paused, spectator)
    info = {"me": me, "n": n, "phase": phase, "round": view.get("round", 1),
            "target": (view.get("options") or {}).get("target"),
            "seats": seats, "turn": view.get("turn"), "queen": queen,
            "pending": view.get("pending_draws", 0) or 0}
    info.update(pile_info(view, allowed, me))
    info.update(button_info(view, allowed, phase, queen))
    info.update(timer_info(view, allowed, phase, ctx, view.get("turn") == me))
    info["paused"] = paused
    info["spectator"] = spectator
    info["ask"] = asking if spectator and isinstance(asking, dict) else None
    info["timer_mine"] = info["turn"] == me
    info["last_turns_left"] = view.get("last_turns_left", 0)
    info["caller"] = view.get("caller")
    info["allowed"] = allowed
    info["status"] = status_text(info, players, ctx)
    info["status_sub"] = status_sub(info, players, ctx)
    info["results"] = results_info(view, players, ctx) if public else None
    info["fair"] = fair_info(model, view) if public else None
    info["fair_now"] = fair_alarm(model, view) if not public else None
    info["winners"] = view.get("winners") if phase == "game_over" else None
    is_host = bool(read(model, "is_host", False))
    info["next_round"] = {
        "show": phase == "round_over" and is_host,
        "spec": ("intent", "next_round", {}) if phase == "round_over" else None}
    # game over: the host starts a new game (same seats); everyone may leave
    info["new_game"] = phase == "game_over" and is_host
    info["host_name"] = host_name(model, players, ctx) if public else None
    return info


def host_name(model, players, ctx):
    """The name of the seat that hosts now (the model's `host_seat`: it moves with a host
    handover), isolated (viewmodel.seat_name), for the words the others wait with ("Waiting
    for Max to deal the next round…"); None when the page knows no host seat or no name."""
    seat = read(model, "host_seat")
    p = players.get(seat) if seat is not None else None
    return seat_name(players, seat, ctx) if p and p.get("name") else None


def queen_flow(ui, allowed, paused=False):
    """The Queen flow (ui["queen"]: {"pos"}), local until its last tap; it only lives while
    a Queen is offered (cleared otherwise). While the game is `paused` it is not live (None)
    but kept: the player's first tap is still there when the game goes on."""
    if paused:
        return None
    queen = ui.get("queen") if "queen" in allowed else None
    ui["queen"] = queen
    return queen


def seat_rows(model, ui, ctx, view, players, n, me, queen, paused, spectator):
    """One row per seat: who sits there, their badges, score, cards and what may be tapped
    (nothing while `paused`; then the seat that went silent shows away)."""
    phase = view.get("phase", "peek")
    hands = view.get("hands") or [[None, None, None] for _ in range(n)]
    scores = view.get("scores") or [0] * n
    ready = view.get("ready") or [True] * n
    allowed = {} if paused else allowed_map(view)
    reveals = reveal_map(model)
    moved = recent_moves(read(model, "log", []) or [])
    is_host = read(model, "is_host", False)
    # the seat whose page hosts: seat 0 until a host handover moves it (the room says so in
    # its `welcome`, `lobby` and `sealed` messages: ui/page/client/client.py `host_seat`)
    host = read(model, "host_seat", (read(model, "lobby", {}) or {}).get("host", 0))
    silent = pause_of(model).seat if paused else None
    seats = []
    for s in range(n):
        hand = hands[s] if s < len(hands) else [None, None, None]
        p = players.get(s) or {}
        row = {
            "seat": s, "name": seat_name(players, s, ctx), "me": s == me, "host": s == host,
            "turn": phase in PLAY_PHASES and view.get("turn") == s,
            "dealer": view.get("dealer") == s, "caller": view.get("caller") == s,
            "ready": bool(ready[s]) if s < len(ready) else True,
            "connected": p.get("connected", True) is not False and s != silent,
            "bot": p.get("bot"),
            "score": scores[s] if s < len(scores) else 0, "cards": [],
        }
        # another seat there whose link is slow says so at its place (its own page says
        # it to its player: table.slow_note)
        row["slow"] = p.get("slow") is True and row["connected"] and s != me
        # this player's own seat is marked "you", unless its name says it already
        row["you_badge"] = s == me and not says_you(p.get("name"))
        # The host may let a bot play an away person's seat until they are back.
        row["stand_in"] = None
        if (is_host and s != me and s != host and not row["connected"]
                and not row["bot"] and phase != "game_over" and not paused):
            row["stand_in"] = ("intent", "stand_in",
                               {"seat": s, "level": ui.get("bot_level", "easy")})
        # A turn its person holds: every place says how long it waited, the host may let a
        # bot play it (ui/page/screens/idle_turn.py)
        waited = p.get("waited")
        since = ctx.grown(waited) if is_int(waited) and waited >= 0 else 0
        row.update(idle_turn.idle_row(p, s, me, host, is_host, paused, phase, since,
                                      ui.get("bot_level", "easy")))
        # A spectator asking for this seat: the host may give it (docs/protocol.md "Spectators").
        row["asks"] = p.get("asks") if isinstance(p.get("asks"), str) else None
        row["approve"] = None
        if is_host and row["asks"] and phase != "game_over" and not paused:
            row["approve"] = ("intent", "approve", {"seat": s})
        # A spectator may ask for a seat played by a bot or whose person is away.
        row["take"] = None
        if (spectator and s != host and (row["bot"] or not row["connected"]) and not paused
                and phase != "game_over" and (ui.get("name") or "").strip()):
            row["take"] = ("local", "sit", s)
        row["cards"] = seat_cells(s, hand, me, allowed, queen, reveals, moved)
        seats.append(row)
    return seats


def seat_cells(s, hand, me, allowed, queen, reveals, moved):
    """Seat `s`'s three cards: the face when known (a public hand, or a reveal), and what a
    tap on each does (a swap or a Queen's pick on this seat, a Queen's target on another)."""
    qa = allowed.get("queen")
    out = []
    for i in range(3):
        posn = POSITIONS[i]
        face = hand[i] if (i < len(hand) and cards.is_card(hand[i])) else None
        if face is None:
            face = reveals.get((s, posn))
        c = {"pos": posn, "card": face, "spec": None, "picked": False, "target": False,
             "moved": moved.get((s, posn))}
        if s == me:
            if queen is not None:
                if posn in (qa.get("pos") or []):
                    c["spec"] = ("local", "queen_pos", posn)
                c["picked"] = queen.get("pos") == posn
            elif "swap" in allowed and posn in (allowed["swap"].get("pos") or []):
                c["spec"] = ("intent", "action", {"do": "swap", "pos": posn})
                c["target"] = True
        elif queen is not None and queen.get("pos") is not None:
            if s in (qa.get("targets") or []) and posn in (qa.get("target_pos") or []):
                c["spec"] = ("intent", "action", {"do": "queen", "pos": queen["pos"],
                                                  "target": s, "target_pos": posn})
                c["target"] = True
        out.append(c)
    return out


def pile_info(view, allowed, me):
    """The deck, the discard pile (each live when a draw from it is allowed) and the card
    held."""
    draw = allowed.get("draw")
    froms = (draw.get("from") or ["deck"]) if draw else []
    discard = view.get("discard") or []
    out = {"deck": {"count": view.get("deck_count", 0),
                    "spec": ("intent", "action", {"do": "draw", "from": "deck"})
                    if "deck" in froms else None},
           "discard": {"top": discard[-1] if discard else None, "count": len(discard),
                       "spec": ("intent", "action", {"do": "draw", "from": "discard"})
                       if "discard" in froms else None},
           "held": None}
    held = view.get("held")
    if held:
        hc = held.get("card")
        out["held"] = {"seat": held.get("seat"), "mine": held.get("seat") == me,
                       "from": held.get("from"), "card": hc if cards.is_card(hc) else None}
    return out


def button_info(view, allowed, phase, queen):
    """The buttons: Ready (peek), the special of the card held, discard it, crisp."""
    out = {"ready": {"show": phase == "peek",
                     "spec": ("intent", "action", {"do": "ready"})
                     if "ready" in allowed else None}}
    special = None
    for kind in ("king", "queen", "jack"):
        if kind in allowed:
            special = kind
    out["special"] = special
    if special == "queen":
        sspec = ("local", "queen_start") if queen is None else None
    elif special:
        sspec = ("intent", "action", {"do": special})
    else:
        sspec = None
    out["use_special"] = sspec
    out["discard_held"] = ("intent", "action", {"do": "discard"}) if "discard" in allowed else None
    return out


def timer_info(view, allowed, phase, ctx, mine=False):
    """The countdowns as of now (`ctx.left`: the ms left of each, counted from when the view
    arrived): the crisp window (its seconds; its bar drains by itself, table.crisp_button),
    the turn's timer (never above its limit), the start delay (`mine`: this seat's turn;
    nobody else's screen shows it), the peek. While one counts, the tick draws the table
    again (viewmodel.Ctx `wake`): every tick for the turn's ring, once a second for those
    shown in seconds only."""
    cw = view.get("crisp_window")
    mine_cw = bool(cw) and "crisp" in allowed
    left = ctx.left(cw.get("left"), SECOND) if mine_cw else None
    # the window over on this screen (it ends a lead sooner here): no tap the host would
    # take too late; `ends`: this page's clock time it ends at (data-ends, for measuring)
    out = {"crisp": {"spec": ("intent", "action", {"do": "crisp"})
                     if "crisp" in allowed and left != 0 else None,
                     "left": left, "ends": ctx.instant() + left if left else None,
                     # ms left as the view came, less this page's lead (its bar ends then)
                     "sent": _less(cw.get("left"), ctx.lead) if mine_cw else None,
                     # a longer window (the guided round's, held for its tip) drains
                     # over its own length
                     "window": max(CALL_WINDOW_MS, cw.get("left") or 0) if mine_cw
                     and is_int(cw.get("left")) else CALL_WINDOW_MS}}
    out["timer_total"] = ((view.get("options") or {}).get("draw_seconds") or 0) * 1000
    out["timer"] = ctx.left(view.get("draw_left")) if phase in PLAY_PHASES else None
    if out["timer"] is not None and out["timer_total"]:
        # during the start delay draw_left counts the delay too (R10.2's timer starts when
        # the player may start): never show more than the limit
        out["timer"] = min(out["timer"], out["timer_total"])
    # the start delay is no deadline but the moment the host lets this seat begin: its
    # view saying so arrives here as the delay, counted from the view, runs out (the deck
    # lights up then); ended sooner, the screen would say "go" before any tap may go
    out["start_in"] = ctx.left(view.get("start_in") or 0, SECOND, ahead=False) if mine else 0
    out["peek_left"] = ctx.left(view.get("peek_left"), SECOND) if phase == "peek" else None
    return out


def _less(ms, lead):
    """A view's `ms` (an int, else as it is) less `lead` (ms), never below 0."""
    if not isinstance(ms, int) or isinstance(ms, bool) or not isinstance(lead, int):
        return ms
    return ms - lead if ms > lead else 0


def recent_moves(log):
    """{(seat, pos): tag} for the cards moved by the latest swap/Queen (to animate them once).
    The tag alternates with the event's index so the same card moving twice animates twice."""
    out = {}
    tail = len(log) - 4 if len(log) > 4 else 0
    for i in range(len(log) - 1, tail - 1, -1):
        ev = log[i]
        if not isinstance(ev, dict):
            continue
        tag = "m" + str(i % 2)
        if ev.get("type") == "swap":
            out[(ev.get("seat"), ev.get("pos"))] = tag
            return out
        if ev.get("type") == "queen":
            out[(ev.get("seat"), ev.get("pos"))] = tag
            out[(ev.get("target"), ev.get("target_pos"))] = tag
            return out
        if ev.get("type") == "turn":
            return out
    return out
