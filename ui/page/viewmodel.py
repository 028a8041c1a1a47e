"""What the screens show, as plain data: the table's view-model and the model read defensively.

`table_info(model, ui, ctx)` decides what the table shows and which controls are live (only
what `view["allowed"]` offers is ever live: the guest UI has no rules logic); `results_info`
the end of a round. `Ctx` is what one render needs besides the model (language, clock, and the
acts it collects); `new_ui` this screen's own small state. Pure: runs on MicroPython, Pyodide
and CPython (tests).
"""

from crisp_core.actions import END_PHASES, PLAY_PHASES, POSITIONS
from ui.page import cards
from ui.page import i18n
from ui.page.client import left_ms
from ui.page.presence import Pause
from ui.page.vdom import isolate


class Ctx:
    """What one render needs besides the model: language, clock, and the acts it collects."""

    def __init__(self, lang="en", now=0, elapsed=0, can_share=False, base=""):
        self.lang = lang
        self.base = base            # this page's URL without query (for the room link)
        self.now = now              # ms, this page's clock
        self.elapsed = elapsed      # ms since the current view arrived
        self.can_share = can_share  # navigator.share exists
        self.acts = {}
        self.memo = None            # a vdom.Memo: parts kept from the last render (the page's)
        self.later = []             # work the page does after this render, each in a task
                                    # of its own, then renders again (screens.do_later)

    def t(self, key, **kw):
        return i18n.t(self.lang, key, **kw)

    def tn(self, key, how_many, **kw):
        return i18n.tn(self.lang, key, how_many, **kw)

    def act(self, name, spec):
        self.acts[name] = spec
        return name


# ---------------------------------------------------------------------------------------------
# Reading the model (the Client object; every field read defensively)

def new_ui(lang="en", name=""):
    """This screen's own state: what is typed and picked before it becomes an intent."""
    return {"lang": lang, "name": name, "bots": 3, "level": "easy", "target": 100,
            "bot_level": "easy",
            "queen": None, "copied_at": None, "copy_failed_at": None, "log_open": False}


def read(model, attr, default=None):
    """model.attr, or `default` when the model is None or the attribute is missing or None."""
    if model is None:
        return default
    v = getattr(model, attr, default)
    return default if v is None else v


def pause_of(model):
    """The model's pause (ui/page/presence.py `Pause`; a model without one: nothing paused)."""
    pause = read(model, "pause")
    return pause if pause is not None else Pause()


def player_list(model):
    """Per-seat player info {seat: {"name", "connected", "bot", "seat"}} from the view
    message's players, else the lobby's."""
    out = {}
    for src in (read(model, "players"), (read(model, "lobby", {}) or {}).get("players")):
        if not src:
            continue
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for i, p in items:
            if not isinstance(p, dict):
                continue
            seat = p.get("seat", i)
            if seat not in out:
                out[seat] = p
    return out


def seat_name(players, seat, ctx):
    p = players.get(seat)
    name = p.get("name") if p else None
    if not name:
        return ctx.t("seat_n", n=seat + 1)
    return isolate(name)            # shown in its own <bdi> (ui/page/vdom.py)


def allowed_map(view):
    out = {}
    for a in (view or {}).get("allowed") or []:
        if isinstance(a, dict) and "do" in a:
            out[a["do"]] = a
    return out


def reveal_map(model):
    """{(seat, pos): card} of the cards shown once right now (values may carry a time)."""
    out = {}
    rev = read(model, "reveals", {}) or {}
    for k in rev:
        v = rev[k]
        if isinstance(v, (list, tuple)):
            v = v[0] if v else None
        elif isinstance(v, dict):
            v = v.get("card")
        if isinstance(k, str) and ":" in k:
            s, p = k.split(":", 1)
            k = (int(s), p)
        else:
            k = (k[0], k[1])
        if cards.is_card(v):
            out[k] = v
    return out


def secs(ms):
    """Whole seconds to show for a countdown (rounded up: 0.2 s left shows 1)."""
    return (int(ms) + 999) // 1000


def clock(ms):
    s = secs(ms)
    return str(s // 60) + ":" + ("0" if s % 60 < 10 else "") + str(s % 60)


def card_text(code):
    """A card code as the status line and the log show it (\"10♥\"); \"?\" for none."""
    return cards.label(code) if code else "?"


def awake_wanted(model):
    """True while a round is being played on this page's table (phases peek, play,
    last_turns): the page then holds the Screen Wake Lock (awake.js), else lets it go."""
    if read(model, "screen") != "table":
        return False
    view = read(model, "view", {}) or {}
    return view.get("phase") == "peek" or view.get("phase") in PLAY_PHASES


# ---------------------------------------------------------------------------------------------
# The table: what to show and what is live (pure)

def table_info(model, ui, ctx):
    """Everything the table shows, as plain data. `ctx.elapsed` counts down the timers."""
    view = read(model, "view", {}) or {}
    players = player_list(model)
    n = view.get("players") or len(view.get("hands") or []) or len(players)
    me = read(model, "seat", view.get("seat"))
    phase = view.get("phase", "peek")
    allowed = allowed_map(view)
    public = phase in END_PHASES
    # The game paused (the host silent, or a handover under way: the Client's `pause`):
    # the seat that went silent shows away, the countdowns stand still (ctx.elapsed counts no
    # time past the pause), and nothing is live (a tap would reach nobody).
    paused = pause_of(model).since is not None
    if paused:
        allowed = {}
    spectator = bool(read(model, "spectator", False)) and read(model, "seat") is None
    asking = read(model, "ask")
    queen = queen_flow(ui, allowed)
    seats = seat_rows(model, ui, ctx, view, players, n, me, queen, paused, spectator)
    info = {"me": me, "n": n, "phase": phase, "round": view.get("round", 1),
            "target": (view.get("options") or {}).get("target"),
            "seats": seats, "turn": view.get("turn"), "queen": queen,
            "pending": view.get("pending_draws", 0) or 0}
    info.update(pile_info(view, allowed, me))
    info.update(button_info(view, allowed, phase, queen))
    info.update(timer_info(view, allowed, phase, ctx.elapsed))
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
    return info


def queen_flow(ui, allowed):
    """The Queen flow (ui["queen"]: {"pos"}), local until its last tap; it only lives while
    a Queen is offered (cleared otherwise)."""
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
    # its `welcome`, `lobby` and `sealed` messages: ui/page/client.py `host_seat`)
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
        # The host may let a bot play an away person's seat until they are back.
        row["stand_in"] = None
        if (is_host and s != me and s != host and not row["connected"]
                and not row["bot"] and phase != "game_over" and not paused):
            row["stand_in"] = ("intent", "stand_in",
                               {"seat": s, "level": ui.get("bot_level", "easy")})
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


def timer_info(view, allowed, phase, elapsed):
    """The countdowns as of `elapsed` ms after the view arrived: the crisp window, the
    turn's timer (never above its limit), the start delay, the peek."""
    cw = view.get("crisp_window")
    out = {"crisp": {"spec": ("intent", "action", {"do": "crisp"}) if "crisp" in allowed else None,
                     "left": left_ms(cw.get("left"), elapsed)
                     if (cw and "crisp" in allowed) else None,
                     "window": 3000}}
    out["timer_total"] = ((view.get("options") or {}).get("draw_seconds") or 0) * 1000
    out["timer"] = left_ms(view.get("draw_left"), elapsed) if phase in PLAY_PHASES else None
    if out["timer"] is not None and out["timer_total"]:
        # during the start delay draw_left counts the delay too (R10.2's timer starts when
        # the player may start): never show more than the limit
        out["timer"] = min(out["timer"], out["timer_total"])
    out["start_in"] = left_ms(view.get("start_in") or 0, elapsed)
    out["peek_left"] = left_ms(view.get("peek_left"), elapsed) if phase == "peek" else None
    return out


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


def waiting_names(names, ctx):
    """Who the table waits for (issue 20.2): up to two names, then how many more
    ("Ana, Bea and 3 more"); `names` are already isolated for the page."""
    if len(names) <= 2:
        return ", ".join(names)
    return ctx.t("names_more", names=", ".join(names[:2]), n=len(names) - 2)


def status_text(info, players, ctx):
    """The one line telling whose turn it is and what is expected of this player."""
    phase = info["phase"]
    me = info["me"]
    allowed = info["allowed"]
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
    """A second, quieter line: the crisp call and the last turns, the peek timer."""
    if info["phase"] == "last_turns" and info["caller"] is not None:
        key = "st_last_turns_you" if info["caller"] == info["me"] else "st_last_turns"
        return ctx.tn(key, info["last_turns_left"] or 0,
                      name=seat_name(players, info["caller"], ctx), n=info["last_turns_left"] or 0)
    if info["phase"] == "peek" and info["peek_left"] is not None:
        return ctx.t("st_peek_timer", s=secs(info["peek_left"]))
    return None


def fair_info(model, view):
    """The check of this round's committed shuffle (the client's `verdict`) once the round is
    over, or None (a solo game, a stacked test deck, or the proof not here yet)."""
    verdict = read(model, "verdict")
    if not isinstance(verdict, dict) or verdict.get("round") != view.get("round"):
        return None
    return verdict


def fair_alarm(model, view):
    """What of this round's check is said at once, during play (ui/page/fairplay.py): "again"
    (the host dealt it again), "uncommitted" (not checked), or None."""
    verdict = fair_info(model, view)
    what = verdict.get("what") if verdict is not None else None
    return what if what in ("again", "uncommitted") else None


def results_info(view, players, ctx):
    """The end of a round, per seat in seat order: the hand and its total (R7.1), the round's
    points, the caller's bonus and why (R7.2: strictly the lowest, -5; R7.3: otherwise +5,
    "tie" or "not"), the running total (R7.4), the place in the standings (`rank`: 1 + the
    number of lower totals, so ties share a place; lowest wins, R8.2), and how far the total
    is from the target (`progress` in % of it, capped at 100; `left`: points to go)."""
    hands = view.get("hands") or []
    pts = view.get("round_points") or []
    scores = view.get("scores") or []
    caller = view.get("caller")
    winners = view.get("winners") or []
    target = (view.get("options") or {}).get("target") or 0
    totals = []
    for s in range(len(hands)):
        total = 0
        for c in hands[s] or []:
            if cards.is_card(c):
                total += cards.value(c)
        totals.append(total)
    rows = []
    for s in range(len(hands)):
        total = totals[s]
        p = pts[s] if s < len(pts) else None
        score = scores[s] if s < len(scores) else 0
        bonus = (p - total) if (p is not None and s == caller) else 0
        reason = None
        if s == caller and p is not None:
            others = [totals[o] for o in range(len(totals)) if o != s]
            if bonus < 0:
                reason = "lowest"
            elif others and min(others) == total:
                reason = "tie"
            else:
                reason = "not"
        rank = 1 + len([x for x in scores if x < score])
        rows.append({"seat": s, "name": seat_name(players, s, ctx), "hand": hands[s] or [],
                     "hand_total": total, "points": p, "bonus": bonus, "reason": reason,
                     "caller": s == caller, "score": score, "winner": s in winners,
                     "rank": rank, "target": target,
                     "progress": min(100, score * 100 // target) if target > 0 else 0,
                     "left": max(0, target - score) if target > 0 else None})
    return rows


def standings(rows):
    """The result rows ranked: lowest total first (R8.2), seat order among equals."""
    return sorted(rows, key=lambda r: (r["score"], r["seat"]))
