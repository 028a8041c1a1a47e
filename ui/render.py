"""The screens: landing, join, lobby, table, end of round and game.

Two layers, so the decisions are tested in CPython without a browser:

- Pure functions (no `js`): `build(model, ui, env)` turns the Client model (docs/protocol.md)
  plus this screen's own small state `ui` into a tree of plain dicts (tag, attrs, kids) and a
  table of what each live element does (`acts`). `table_info` decides what the table shows and
  which controls are live; `handle` turns a tap into intents and changes of `ui` (the Queen
  flow, the landing pickers). Only what `view["allowed"]` offers is ever made live: the
  guest UI has no rules logic.
- `Screen`: the thin DOM part. It patches the real DOM from the tree (only what changed, so
  calling `update` on every message and every 250 ms tick is cheap), and listens for
  click/input/change on the root (one listener each, delegated through `data-act`).

Names and every other text go into text nodes (never innerHTML), so a name such as
`<img src=x onerror=alert(1)>` shows exactly as typed. Every name is shown isolated from the
text around it (`<bdi>`), so a right-to-left name never reorders a sentence: `seat_name`
wraps it in FSI/PDI marks (U+2068/U+2069), which a text node turns into a `<bdi>` element
and an attribute (aria-label) keeps as they are. Runs on MicroPython and Pyodide: plain
classes and dicts only.
"""

from ui import cards
from ui import i18n
from ui import qr

POSITIONS = ("left", "center", "right")
PLAY_PHASES = ("play", "last_turns")
END_PHASES = ("round_over", "game_over")
MAX_PLAYERS = 8
LOG_LINES = 40
NAME_MAX = 20
COPIED_MS = 2000
ERROR_MS = 5000


# ---------------------------------------------------------------------------------------------
# A tiny virtual DOM: plain dicts. Text children are {"tag": "#text", "text": s}.

def h(tag, attrs=None, *children):
    kids = []
    for c in children:
        _flatten(c, kids)
    if attrs:
        for k in attrs:
            v = attrs[k]
            if isinstance(v, str) and FSI in v:
                # an attribute is spoken (aria-label), not laid out: no isolate marks
                attrs[k] = v.replace(FSI, "").replace(PDI, "")
    return {"tag": tag, "attrs": attrs or {}, "kids": kids}


FSI = "\u2068"      # first strong isolate ... (seat_name wraps every name in these two)
PDI = "\u2069"      # ... pop directional isolate
BIDI_CONTROLS = ("\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d",
                 "\u202e", "\u2066", "\u2067", "\u2068", "\u2069")


def _flatten(c, out):
    if c is None or c is False:
        return
    if isinstance(c, (list, tuple)):
        for x in c:
            _flatten(x, out)
    elif isinstance(c, dict):
        out.append(c)
    else:
        text = str(c)
        if FSI in text:
            _isolates(text, out)
        else:
            out.append({"tag": "#text", "text": text})


def _isolates(text, out):
    """A text holding names (FSI name PDI): the names become <bdi> elements."""
    while text:
        start = text.find(FSI)
        end = text.find(PDI, start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            out.append({"tag": "#text", "text": text})
            return
        if start:
            out.append({"tag": "#text", "text": text[:start]})
        out.append({"tag": "bdi", "attrs": {},
                    "kids": [{"tag": "#text", "text": text[start + 1:end]}]})
        text = text[end + 1:]


def isolate(name):
    """A name to show inside other text: no bidi controls of its own, wrapped in FSI/PDI
    (shown as a <bdi> element; see the module's docstring)."""
    name = str(name)
    for ch in BIDI_CONTROLS:
        if ch in name:
            name = name.replace(ch, "")
    return FSI + name + PDI


def text_of(node):
    """All the text under a node, as a page would show it (for tests and aria labels)."""
    if node["tag"] == "#text":
        return node["text"]
    return "".join([text_of(k) for k in node["kids"]])


def find(node, testid):
    """The first node with this data-testid, or None (tests use it like a page locator)."""
    if node["tag"] == "#text":
        return None
    if node["attrs"].get("data-testid") == testid:
        return node
    for k in node["kids"]:
        r = find(k, testid)
        if r is not None:
            return r
    return None


def find_all(node, pred, out=None):
    if out is None:
        out = []
    if node["tag"] != "#text":
        if pred(node):
            out.append(node)
        for k in node["kids"]:
            find_all(k, pred, out)
    return out


class Ctx:
    """What one render needs besides the model: language, clock, and the acts it collects."""

    def __init__(self, lang="en", now=0, elapsed=0, can_share=False, base=""):
        self.lang = lang
        self.base = base            # this page's URL without query (for the room link)
        self.now = now              # ms, this page's clock
        self.elapsed = elapsed      # ms since the current view arrived
        self.can_share = can_share  # navigator.share exists
        self.acts = {}

    def t(self, key, **kw):
        return i18n.t(self.lang, key, **kw)

    def tn(self, key, how_many, **kw):
        return i18n.tn(self.lang, key, how_many, **kw)

    def act(self, name, spec):
        self.acts[name] = spec
        return name


def button(ctx, testid, label, spec=None, cls="btn", extra=None):
    """A button; live (with a data-act) only when it has a spec, disabled otherwise."""
    a = {"type": "button", "class": cls, "data-testid": testid}
    if spec is None:
        a["disabled"] = True
    else:
        a["data-act"] = ctx.act(testid, spec)
    if extra:
        for k in extra:
            a[k] = extra[k]
    return h("button", a, label)


# ---------------------------------------------------------------------------------------------
# Reading the model (the Client object; every field read defensively)

def new_ui(lang="en", name=""):
    """This screen's own state: what is typed and picked before it becomes an intent."""
    return {"lang": lang, "name": name, "bots": 3, "level": "easy", "target": 100,
            "bot_level": "easy",
            "queen": None, "copied_at": None, "log_open": False}


def _get(model, attr, default=None):
    if model is None:
        return default
    v = getattr(model, attr, default)
    return default if v is None else v


def player_list(model):
    """Per-seat player info {seat: {"name", "connected", "bot", "seat"}} from the view
    message's players, else the lobby's."""
    out = {}
    for src in (_get(model, "players"), (_get(model, "lobby", {}) or {}).get("players")):
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
    return isolate(name)


def allowed_map(view):
    out = {}
    for a in (view or {}).get("allowed") or []:
        if isinstance(a, dict) and "do" in a:
            out[a["do"]] = a
    return out


def reveal_map(model):
    """{(seat, pos): card} of the cards shown once right now (values may carry a time)."""
    out = {}
    rev = _get(model, "reveals", {}) or {}
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


def left_ms(value, elapsed):
    """A remaining time from the view, counted down since the view arrived; None stays None."""
    if value is None:
        return None
    r = value - elapsed
    return r if r > 0 else 0


def secs(ms):
    """Whole seconds to show for a countdown (rounded up: 0.2 s left shows 1)."""
    return (int(ms) + 999) // 1000


def clock(ms):
    s = secs(ms)
    return str(s // 60) + ":" + ("0" if s % 60 < 10 else "") + str(s % 60)


# ---------------------------------------------------------------------------------------------
# Event log: public events in plain words

def card_text(code):
    return cards.label(code) if code else "?"


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
    log = _get(model, "log", []) or []
    for i in range(len(log)):
        ev = log[i]
        if not isinstance(ev, dict) or "to" in ev:
            continue  # private events are not part of the public log
        line = event_text(ev, players, ctx)
        if line:
            out.append((line, ev.get("type"), i))
    out.reverse()
    return out[:LOG_LINES]


# ---------------------------------------------------------------------------------------------
# The table: what to show and what is live (pure)

def table_info(model, ui, ctx):
    """Everything the table shows, as plain data. `ctx.elapsed` counts down the timers."""
    view = _get(model, "view", {}) or {}
    players = player_list(model)
    n = view.get("players") or len(view.get("hands") or []) or len(players)
    me = _get(model, "seat", view.get("seat"))
    phase = view.get("phase", "peek")
    allowed = allowed_map(view)
    reveals = reveal_map(model)
    turn = view.get("turn")
    hands = view.get("hands") or [[None, None, None] for _ in range(n)]
    held = view.get("held")
    scores = view.get("scores") or [0] * n
    ready = view.get("ready") or [True] * n
    public = phase in END_PHASES
    log = _get(model, "log", []) or []

    # The Queen flow is local until its last tap; it only lives while a Queen is offered.
    queen = ui.get("queen") if "queen" in allowed else None
    if queen is not None:
        ui["queen"] = queen
    else:
        ui["queen"] = None
    qa = allowed.get("queen")

    moved = recent_moves(log)
    host = (_get(model, "lobby", {}) or {}).get("host", 0)     # the room: always seat 0

    seats = []
    for s in range(n):
        hand = hands[s] if s < len(hands) else [None, None, None]
        p = players.get(s) or {}
        row = {
            "seat": s, "name": seat_name(players, s, ctx), "me": s == me, "host": s == host,
            "turn": phase in PLAY_PHASES and turn == s,
            "dealer": view.get("dealer") == s, "caller": view.get("caller") == s,
            "ready": bool(ready[s]) if s < len(ready) else True,
            "connected": p.get("connected", True) is not False, "bot": p.get("bot"),
            "score": scores[s] if s < len(scores) else 0, "cards": [],
        }
        # The host may let a bot play an away person's seat until they are back.
        row["stand_in"] = None
        if (_get(model, "is_host", False) and s != me and s != 0 and not row["connected"]
                and not row["bot"] and phase != "game_over"):
            row["stand_in"] = ("intent", "stand_in",
                               {"seat": s, "level": ui.get("bot_level", "easy")})
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
            row["cards"].append(c)
        seats.append(row)

    draw = allowed.get("draw")
    froms = (draw.get("from") or ["deck"]) if draw else []
    discard = view.get("discard") or []
    info = {
        "me": me, "n": n, "phase": phase, "round": view.get("round", 1),
        "target": (view.get("options") or {}).get("target"),
        "seats": seats, "turn": turn,
        "deck": {"count": view.get("deck_count", 0),
                 "spec": ("intent", "action", {"do": "draw", "from": "deck"})
                 if "deck" in froms else None},
        "discard": {"top": discard[-1] if discard else None, "count": len(discard),
                    "spec": ("intent", "action", {"do": "draw", "from": "discard"})
                    if "discard" in froms else None},
        "held": None, "queen": queen, "special": None,
        "pending": view.get("pending_draws", 0) or 0,
    }
    if held:
        hc = held.get("card")
        info["held"] = {"seat": held.get("seat"), "mine": held.get("seat") == me,
                        "from": held.get("from"), "card": hc if cards.is_card(hc) else None}

    # Buttons
    info["ready"] = {"show": phase == "peek",
                     "spec": ("intent", "action", {"do": "ready"}) if "ready" in allowed else None}
    special = None
    for kind in ("king", "queen", "jack"):
        if kind in allowed:
            special = kind
    info["special"] = special
    if special == "queen":
        sspec = ("local", "queen_start") if queen is None else None
    elif special:
        sspec = ("intent", "action", {"do": special})
    else:
        sspec = None
    info["use_special"] = sspec
    info["discard_held"] = ("intent", "action", {"do": "discard"}) if "discard" in allowed else None
    cw = view.get("crisp_window")
    info["crisp"] = {"spec": ("intent", "action", {"do": "crisp"}) if "crisp" in allowed else None,
                     "left": left_ms(cw.get("left"), ctx.elapsed)
                     if (cw and "crisp" in allowed) else None,
                     "window": 3000}
    info["timer_total"] = ((view.get("options") or {}).get("draw_seconds") or 0) * 1000
    info["timer"] = left_ms(view.get("draw_left"), ctx.elapsed) if phase in PLAY_PHASES else None
    if info["timer"] is not None and info["timer_total"]:
        # during the start delay draw_left counts the delay too (R10.2's timer starts when
        # the player may start): never show more than the limit
        info["timer"] = min(info["timer"], info["timer_total"])
    info["timer_mine"] = turn == me
    info["start_in"] = left_ms(view.get("start_in") or 0, ctx.elapsed)
    info["peek_left"] = left_ms(view.get("peek_left"), ctx.elapsed) if phase == "peek" else None
    info["last_turns_left"] = view.get("last_turns_left", 0)
    info["caller"] = view.get("caller")
    info["allowed"] = allowed
    info["status"] = status_text(info, players, ctx)
    info["status_sub"] = status_sub(info, players, ctx)
    info["results"] = results_info(view, players, ctx) if public else None
    info["winners"] = view.get("winners") if phase == "game_over" else None
    info["next_round"] = {
        "show": phase == "round_over" and bool(_get(model, "is_host", False)),
        "spec": ("intent", "next_round", {}) if phase == "round_over" else None}
    # game over: the host starts a new game (same seats); everyone may leave
    info["new_game"] = phase == "game_over" and bool(_get(model, "is_host", False))
    return info


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


def status_text(info, players, ctx):
    """The one line telling whose turn it is and what is expected of this player."""
    phase = info["phase"]
    me = info["me"]
    allowed = info["allowed"]
    if phase == "peek":
        if "ready" in allowed:
            return ctx.t("st_peek")
        done = len([s for s in info["seats"] if s["ready"]])
        return ctx.t("st_peek_wait", k=done, n=info["n"])
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
        return ctx.tn("st_last_turns", info["last_turns_left"] or 0,
                      name=seat_name(players, info["caller"], ctx), n=info["last_turns_left"] or 0)
    if info["phase"] == "peek" and info["peek_left"] is not None:
        return ctx.t("st_peek_timer", s=secs(info["peek_left"]))
    return None


def results_info(view, players, ctx):
    hands = view.get("hands") or []
    pts = view.get("round_points") or []
    scores = view.get("scores") or []
    caller = view.get("caller")
    winners = view.get("winners") or []
    rows = []
    for s in range(len(hands)):
        hand = hands[s] or []
        total = 0
        for c in hand:
            if cards.is_card(c):
                total += cards.value(c)
        p = pts[s] if s < len(pts) else None
        rows.append({"seat": s, "name": seat_name(players, s, ctx), "hand": hand,
                     "hand_total": total, "points": p,
                     "bonus": (p - total) if (p is not None and s == caller) else 0,
                     "caller": s == caller, "score": scores[s] if s < len(scores) else 0,
                     "winner": s in winners})
    return rows


# ---------------------------------------------------------------------------------------------
# Trees

def card_name(ctx, code):
    """A card in words, for screen readers: "Queen of hearts", "10 of spades"."""
    r = code[0]
    rank = ctx.t("rank_" + r) if r in "AJQK" else cards.rank_label(code)
    return ctx.t("card_name", rank=rank, suit=ctx.t("suit_" + code[1]))


def place_label(ctx, what, card):
    """ "your left card, face down", "Ana's right card, 7 of clubs" (a face only when shown)."""
    return ctx.t("card_is", what=what,
                 card=card_name(ctx, card) if cards.is_card(card) else ctx.t("face_down"))


def card_node(card, attrs, size, cls="", label=None):
    """A card: its face (with data-card) only when `card` is a visible code, else its back.
    `label`: its accessible name (a face's own name by default; a back has none by itself)."""
    a = {}
    for k in attrs:
        a[k] = attrs[k]
    tag = a.pop("tag", "div")
    if label:
        a["aria-label"] = label
        if tag != "button":
            a["role"] = "img"
    if cards.is_card(card):
        rank = cards.rank_label(card)
        suit = cards.suit_symbol(card)
        a["class"] = "card " + size + " face " + cards.color(card) + " " + cls
        a["data-card"] = card
        if not label:
            a["aria-label"] = rank + suit
        center = rank if card[0] in "JQK" else suit
        if size == "xs":
            center = rank + suit
        kids = [h("span", {"class": "corner"}, h("b", None, rank), h("i", None, suit)),
                h("span", {"class": "pip" + (" court" if card[0] in "JQK" else "")}, center),
                h("span", {"class": "corner flip"}, h("b", None, rank), h("i", None, suit))]
    else:
        a["class"] = "card " + size + " back " + cls
        kids = []
    return h(tag, a, kids)


def decor(card, cls):
    """A card drawn as decoration (the landing's fan): a face, but no data-card, which only
    game cards carry."""
    node = card_node(card, {"aria-hidden": "true"}, "md", cls)
    node["attrs"].pop("data-card", None)
    return node


def card_button(ctx, testid, card, size, spec, cls="", label=None):
    attrs = {"tag": "button", "type": "button", "data-testid": testid}
    if spec is None:
        attrs["disabled"] = True
    else:
        attrs["data-act"] = ctx.act(testid, spec)
        cls = cls + " live"
    return card_node(card, attrs, size, cls, label)


def lang_switch(ui, ctx):
    out = []
    for code in i18n.LANGS:
        cur = ui.get("lang") == code
        out.append(h("button", {"type": "button", "class": "lang" + (" on" if cur else ""),
                                "data-testid": "lang-" + code, "aria-pressed": "true" if cur else "false",
                                "aria-label": ctx.t("lang_" + code), "lang": code,
                                "data-act": ctx.act("lang-" + code, ("local", "lang", code))},
                     code.upper()))
    return h("div", {"class": "langs"}, out)


def topbar(ui, ctx, title=None):
    return h("header", {"class": "topbar"},
             h("div", {"class": "brand"}, h("span", {"class": "logo"}, "\u2660"),
               h("span", {"class": "title" + (" small" if title else "")},
                 title or ctx.t("app_name"))),
             lang_switch(ui, ctx))


def connection_banner(model, ctx):
    st = _get(model, "status", "ok")
    if _get(model, "is_host", False) and st in ("connecting", "reconnecting"):
        # The host is the room: play goes on over the open data channels while only its
        # signaling server is out of reach. Say what that means, discreetly.
        return h("div", {"class": "banner host-note", "data-testid": "connection",
                         "role": "status"}, ctx.t("conn_host_offline"))
    if st == "no_room":
        # A mistyped or ended link: say so, and offer the way back (the page keeps trying).
        return h("div", {"class": "banner host_gone", "data-testid": "connection",
                         "role": "status"}, ctx.t("conn_no_room"), " ",
                 button(ctx, "leave", ctx.t("back_to_start"), ("intent", "leave", {}), "btn"))
    if st in ("connecting", "reconnecting", "host_gone"):
        return h("div", {"class": "banner " + st, "data-testid": "connection", "role": "status"},
                 ctx.t("conn_" + st))
    return None


def error_toast(model, ctx):
    err = _get(model, "error")
    if not err or (_get(model, "screen") == "join" and _get(model, "name_error")):
        return None             # (a refused name is said on the join screen itself)
    code = err.get("code") if isinstance(err, dict) else None
    msg = ctx.t("err_" + code) if (code and i18n.has(ctx.lang, "err_" + code)) else None
    if msg is None:
        msg = (err.get("text") if isinstance(err, dict) else str(err)) or ctx.t("err_generic")
    return h("div", {"class": "toast", "data-testid": "error", "role": "alert"}, msg)


def build(model, ui, ctx):
    """The whole page for the model: a tree (one root node). Acts are collected in ctx."""
    screen = _get(model, "screen", "landing")
    title = None
    if screen == "join":
        body = join_tree(model, ui, ctx)
    elif screen == "lobby":
        body = lobby_tree(model, ui, ctx)
    elif screen == "table":
        body = table_tree(model, ui, ctx)
        view = _get(model, "view", {}) or {}
        title = ctx.t("round_n", n=view.get("round", 1))
        target = (view.get("options") or {}).get("target")
        if target:
            title += " \u00b7 " + ctx.t("to_target", n=target)
    elif screen == "gone":
        body = gone_tree(model, ui, ctx)
    else:
        screen = "landing"
        body = landing_tree(model, ui, ctx)
    # Keyed parts: the connection banner coming or going must not shift the screen's body
    # to another index (that redrew the join panel, and its name field lost focus and the
    # phone's keyboard as the player typed). A new screen is a new body.
    return h("div", {"class": "screen screen-" + screen, "data-screen": screen},
             keyed(topbar(ui, ctx, title), "top"), keyed(connection_banner(model, ctx), "conn"),
             keyed(body, "body:" + screen),
             keyed(None if screen == "gone" else error_toast(model, ctx), "toast"))


def keyed(node, key):
    """Mark a node with a key: the patcher matches keyed siblings by key, not by index."""
    if node is not None:
        node["key"] = key
    return node


def name_input(ui, ctx):
    return h("label", {"class": "field"},
             h("span", None, ctx.t("your_name")),
             h("input", {"type": "text", "data-testid": "player-name", "maxlength": str(NAME_MAX),
                         "autocomplete": "nickname", "enterkeyhint": "go",
                         "placeholder": ctx.t("name_placeholder"), "value": ui.get("name", ""),
                         "aria-describedby": None if has_name(ui) else "name-hint",
                         "data-act": ctx.act("player-name", ("field", "name"))}),
             # after the input: the hint coming or going never redraws the field being typed in
             None if has_name(ui) else h("small", {"class": "hint name-hint", "id": "name-hint",
                                                   "data-testid": "name-hint"},
                                         ctx.t("name_needed")))


def has_name(ui):
    return bool((ui.get("name") or "").strip())


def select(ctx, testid, options, current, spec=None, label=None):
    """A <select>; options [(value, text)]; read-only (disabled) without a spec."""
    a = {"data-testid": testid, "value": str(current)}
    if spec is None:
        a["disabled"] = True
    else:
        a["data-act"] = ctx.act(testid, spec)
    if label:
        a["aria-label"] = label
    return h("select", a, [h("option", {"value": str(v)}, t) for v, t in options])


def resume_box(model, ctx):
    """The host's saved game, offered on the landing: resume it, or abandon it."""
    saved = _get(model, "resume")
    if not isinstance(saved, dict):
        return None
    names = ", ".join([isolate(n) for n in saved.get("names") or [] if n])
    return h("section", {"class": "card-box resume", "data-testid": "resume"},
             h("h2", None, ctx.t("resume_title")),
             h("p", {"class": "hint"}, ctx.t("resume_hint", names=names)),
             h("div", {"class": "row"},
               button(ctx, "resume-room", ctx.t("resume_room"),
                      ("intent", "resume_room", {}), "btn primary big"),
               button(ctx, "abandon-room", ctx.t("abandon_room"),
                      ("intent", "abandon_room", {}), "btn")))


def landing_tree(model, ui, ctx):
    ok = has_name(ui)
    bots = [(i, str(i)) for i in range(1, MAX_PLAYERS)]
    levels = [("easy", ctx.t("level_easy")), ("hard", ctx.t("level_hard"))]
    # keyed: the resume offer coming or going never redraws the name field being typed in
    return h("main", {"class": "panel landing"},
             keyed(h("div", {"class": "hero"},
                     h("div", {"class": "fan"},
                       decor("Qh", "f1"), decor(None, "f2"), decor("7s", "f3")),
                     h("p", {"class": "tagline"}, ctx.t("tagline"))), "hero"),
             keyed(resume_box(model, ctx), "resume"),
             keyed(save_refused(model, ctx), "refused"),
             keyed(name_input(ui, ctx), "name"),
             keyed(h("section", {"class": "card-box"},
               h("h2", None, ctx.t("with_friends")),
               h("p", {"class": "hint"}, ctx.t("with_friends_hint")),
               button(ctx, "create-room", ctx.t("create_room"),
                      ("local", "submit", "create_room") if ok else None, "btn primary big")),
                   "friends"),
             keyed(h("section", {"class": "card-box"},
               h("h2", None, ctx.t("solo")),
               h("div", {"class": "row pickers"},
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("bots")),
                   select(ctx, "solo-bots", bots, ui.get("bots", 3), ("field", "bots"))),
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("level")),
                   select(ctx, "solo-level", levels, ui.get("level", "easy"), ("field", "level"))),
                 h("label", {"class": "field inline"}, h("span", None, ctx.t("opt_target")),
                   select(ctx, "solo-target", [(v, str(v)) for v in (50, 100, 150)],
                          ui.get("target", 100), ("field", "target")))),
               button(ctx, "play-solo", ctx.t("play_solo"),
                      ("local", "submit", "play_solo") if ok else None, "btn big")), "solo"),
             keyed(h("details", {"class": "rules"},
                     h("summary", None, ctx.t("how_to_play")),
                     [h("p", None, ctx.t(k)) for k in ("rules_1", "rules_2", "rules_3", "rules_4")]),
                   "rules"))


def join_tree(model, ui, ctx):
    ok = has_name(ui)
    status = _get(model, "status", "")
    # after the tap, or when a reloaded page takes its seat back by itself (it has a token)
    busy = status == "connecting" and bool(ui.get("joined") or _get(model, "token"))
    return h("main", {"class": "panel join"},
             h("div", {"class": "hero"},
               h("div", {"class": "fan"},
                 decor(None, "f1"), decor("Ks", "f2"), decor(None, "f3")),
               h("h2", None, ctx.t("invited")),
               h("p", {"class": "tagline"}, ctx.t("tagline"))),
             name_input(ui, ctx),
             name_refusal(model, ctx),
             button(ctx, "join-room", ctx.t("busy_joining") if busy else ctx.t("join_room"),
                    ("local", "submit", "join") if ok else None, "btn primary big"))


def name_refusal(model, ctx):
    """Why the room refused the name (taken, or nothing visible), until the next join."""
    code = _get(model, "name_error")
    if code not in ("bad_name", "name_taken"):
        return None
    return h("p", {"class": "hint note-warn", "data-testid": "name-error", "role": "alert"},
             ctx.t("err_" + code))


def save_refused(model, ctx):
    """The landing's note that the saved room was refused (damaged or changed) and dropped."""
    if not _get(model, "refused"):
        return None
    return h("p", {"class": "hint note-warn", "data-testid": "save-refused", "role": "alert"},
             ctx.t("save_refused"))


def lobby_tree(model, ui, ctx):
    lobby = _get(model, "lobby", {}) or {}
    players = player_list(model)
    seats = sorted(players.keys())
    is_host = bool(_get(model, "is_host", False))
    me = _get(model, "seat")
    host = lobby.get("host", 0)
    opts = lobby.get("options") or {}
    link = room_link(model, ctx.base)
    count = len(seats)

    rows = []
    for s in seats:
        p = players[s]
        badges = []
        if s == host:
            badges.append(h("span", {"class": "badge host"}, ctx.t("badge_host")))
        if p.get("bot"):
            badges.append(h("span", {"class": "badge bot"},
                            ctx.t("badge_bot_" + str(p.get("bot")))
                            if i18n.has(ctx.lang, "badge_bot_" + str(p.get("bot")))
                            else ctx.t("badge_bot")))
        if s == me:
            badges.append(h("span", {"class": "badge you"}, ctx.t("badge_you")))
        on = p.get("connected", True) is not False
        remove = None
        if is_host and p.get("bot") and s != host:
            remove = button(ctx, "remove-" + str(s), ctx.t("remove_bot"),
                            ("intent", "remove", {"seat": s}), "btn small remove")
        rows.append(h("li", {"class": "player" + ("" if on else " away"),
                             "data-testid": "player-" + str(s)},
                      h("span", {"class": "dot " + ("on" if on else "off"),
                                 "title": ctx.t("connected" if on else "disconnected")}),
                      h("span", {"class": "pname"}, seat_name(players, s, ctx)),
                      badges, remove))

    link_box = None
    if link:
        copied = ui.get("copied_at") is not None and ctx.now - ui["copied_at"] < COPIED_MS
        qr_css = qr_style(link)
        link_box = h("section", {"class": "card-box share"},
                     h("h2", None, ctx.t("invite")),
                     h("p", {"class": "hint"}, ctx.t("invite_hint")),
                     h("div", {"class": "share-body" + (" with-qr" if qr_css else "")},
                       h("div", {"class": "share-text"},
                         h("div", {"class": "link", "data-testid": "room-link"}, link),
                         h("div", {"class": "row"},
                           button(ctx, "copy-link",
                                  ctx.t("copied") if copied else ctx.t("copy_link"),
                                  ("local", "copy"), "btn"),
                           button(ctx, "share-link", ctx.t("share_link"),
                                  ("intent", "share_link", {}), "btn")
                           if ctx.can_share else None)),
                       h("div", {"class": "qr", "data-testid": "room-qr", "role": "img",
                                 "aria-label": ctx.t("qr_label"), "style": qr_css})
                       if qr_css else None))

    def opt(key, spec_ok):
        return ("field", "opt", key) if spec_ok else None

    targets = [(v, str(v)) for v in (50, 100, 150)]
    draw_secs = [("none", ctx.t("no_timer"))] + [(v, ctx.t("n_seconds", n=v)) for v in (30, 45, 60)]
    ds = opts.get("draw_seconds")
    chk = {"type": "checkbox", "data-testid": "opt-draw-from-discard",
           "checked": bool(opts.get("draw_from_discard"))}
    if is_host:
        chk["data-act"] = ctx.act("opt-draw-from-discard", ("field", "opt", "draw_from_discard"))
    else:
        chk["disabled"] = True
    options_box = h("section", {"class": "card-box options" + ("" if is_host else " readonly")},
                    h("h2", None, ctx.t("options")),
                    h("label", {"class": "field inline"}, h("span", None, ctx.t("opt_target")),
                      select(ctx, "opt-target", targets, opts.get("target", 100),
                             opt("target", is_host))),
                    h("label", {"class": "field inline"}, h("span", None, ctx.t("opt_draw_seconds")),
                      select(ctx, "opt-draw-seconds", draw_secs, "none" if ds is None else ds,
                             opt("draw_seconds", is_host))),
                    h("label", {"class": "field check"}, h("input", chk),
                      h("span", None, ctx.t("opt_draw_from_discard"))),
                    None if is_host else h("p", {"class": "hint"}, ctx.t("options_readonly")))

    if is_host:
        can_start = 2 <= count <= MAX_PLAYERS
        bots = h("div", {"class": "row add-bot"},
                 select(ctx, "bot-level", [("easy", ctx.t("level_easy")),
                                           ("hard", ctx.t("level_hard"))],
                        ui.get("bot_level", "easy"), ("field", "bot_level"), ctx.t("level")),
                 button(ctx, "add-bot", ctx.t("add_bot"),
                        ("local", "add_bot") if count < MAX_PLAYERS else None, "btn"))
        start = h("div", {"class": "start"},
                  button(ctx, "start-game", ctx.t("start_game"),
                         ("intent", "start", {}) if can_start else None, "btn primary big"),
                  None if can_start else h("p", {"class": "hint"}, ctx.t("need_two")))
    else:
        bots = None
        start = h("p", {"class": "waiting", "data-testid": "lobby-waiting"},
                  ctx.t("wait_host", name=seat_name(players, host, ctx)))

    return h("main", {"class": "panel lobby"},
             link_box,
             h("section", {"class": "card-box"},
               h("h2", None, ctx.t("players_n", n=count, max=MAX_PLAYERS)),
               h("ul", {"class": "players", "data-testid": "player-list"}, rows),
               bots),
             options_box, start)


_QR_CACHE = {}


def qr_style(link):
    """A CSS background drawing the QR code of `link` (an inline SVG: no download), cached:
    the link of a room never changes. None when the link is too long for a QR code here."""
    if link in _QR_CACHE:
        return _QR_CACHE[link]
    try:
        rows = qr.matrix(link, "M")
    except ValueError:
        rows = None
    style = None
    if rows:
        n = len(rows)
        w = str(n + 8)
        svg = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='-4 -4 " + w + " " + w
               + "' shape-rendering='crispEdges'><rect x='-4' y='-4' width='" + w
               + "' height='" + w + "' fill='#fff'/><path fill='#000' d='"
               + qr.svg_path(rows) + "'/></svg>")
        svg = svg.replace("#", "%23").replace("<", "%3C").replace(">", "%3E")
        style = 'background-image: url("data:image/svg+xml,' + svg + '")'
    _QR_CACHE[link] = style
    return style


def room_link(model, base=""):
    """The link guests open: the model's own if it has one, else this page + ?room=<id>
    (boot.js makes any page with ?room= a guest page)."""
    for attr in ("link", "room_link"):
        v = _get(model, attr)
        if v and isinstance(v, str):
            return v
    room = _get(model, "room")
    if room and base:
        return base + "?room=" + str(room)
    return None


def gone_tree(model, ui, ctx):
    err = _get(model, "error")
    code = err.get("code") if isinstance(err, dict) else None
    status = _get(model, "status", "")
    key = "gone_" + code if code and i18n.has(ctx.lang, "gone_" + code) else (
        "gone_host" if status == "host_gone" else "gone_generic")
    return h("main", {"class": "panel gone"},
             h("h2", {"data-testid": "gone"}, ctx.t(key)),
             h("p", None, h("a", {"class": "btn primary big", "href": "./",
                                  "data-testid": "back-home"}, ctx.t("back_home"))))


# ---- table

def seat_badges(row, info, ctx):
    out = []
    if row.get("host"):
        # the real host, marked by the room's word: a guest named "Hana (host)" gets no badge
        out.append(h("span", {"class": "badge host", "data-testid": "host-badge"},
                     ctx.t("badge_host")))
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


# ---------------------------------------------------------------------------------------------
# Taps -> intents (pure)

def parse_option(key, value):
    if key == "target":
        return int(value)
    if key == "draw_seconds":
        return None if value in (None, "", "none") else int(value)
    if key == "draw_from_discard":
        return bool(value)
    return value


def handle(ui, spec, value, model, now=0):
    """Apply a tap/edit to `ui`; return the intents [(name, payload)] to emit."""
    kind = spec[0]
    if kind == "intent":
        return [(spec[1], spec[2])]
    if kind == "local":
        op = spec[1]
        arg = spec[2] if len(spec) > 2 else None
        if op == "submit":
            name = (ui.get("name") or "").strip()[:NAME_MAX]
            if not name:
                return []
            if arg == "play_solo":
                return [("play_solo", {"name": name, "bots": int(ui.get("bots", 3)),
                                       "level": ui.get("level", "easy"),
                                       "target": int(ui.get("target", 100))})]
            if arg == "join":
                ui["joined"] = True
                return [("join", {"name": name})]
            return [("create_room", {"name": name})]
        if op == "queen_start":
            ui["queen"] = {"pos": None}
        elif op == "queen_pos":
            ui["queen"] = {"pos": arg}
        elif op == "queen_cancel":
            ui["queen"] = None
        elif op == "sheet":
            ui["sheet_open"] = bool(arg)
        elif op == "lang":
            ui["lang"] = arg
            return [("lang", arg)]
        elif op == "copy":
            ui["copied_at"] = now
            return [("copy_link", {})]
        elif op == "add_bot":
            return [("add_bot", {"level": ui.get("bot_level", "easy")})]
        return []
    if kind == "field":
        op = spec[1]
        if op == "name":
            ui["name"] = str(value or "")[:NAME_MAX]
        elif op == "bots":
            n = int(value)
            ui["bots"] = 1 if n < 1 else (MAX_PLAYERS - 1 if n > MAX_PLAYERS - 1 else n)
        elif op in ("level", "bot_level"):
            ui[op] = "hard" if value == "hard" else "easy"
        elif op == "target":
            n = int(value)
            ui["target"] = n if n in (50, 100, 150) else 100
        elif op == "opt":
            lobby = _get(model, "lobby", {}) or {}
            cur = lobby.get("options") or {}
            opts = {"target": cur.get("target", 100), "draw_seconds": cur.get("draw_seconds"),
                    "draw_from_discard": bool(cur.get("draw_from_discard", False))}
            opts[spec[2]] = parse_option(spec[2], value)
            return [("options", opts)]
        return []
    return []


# ---------------------------------------------------------------------------------------------
# The DOM part (browser only)

class Screen:
    """Renders the Client model into `root` and turns taps into `on_intent(name, payload)`."""

    def __init__(self, root, on_intent):
        import js
        from pyscript.ffi import create_proxy
        try:
            from pyscript.ffi import is_none
        except ImportError:
            def is_none(x):
                return x is None
        self._none = is_none
        self.js = js
        self.root = root
        self.on_intent = on_intent
        self.model = None
        self.tree = None
        self.acts = {}
        self._view_key = None
        self._view_at = 0
        self._err_key = None
        self._err_at = 0
        self._rendering = False     # a render is building or patching right now
        self._again = False         # another render was asked for meanwhile
        self.can_share = self._truthy(lambda: js.Reflect.has(js.navigator, "share"))
        try:
            self.base = str(js.location.origin) + str(js.location.pathname)
        except Exception:
            self.base = ""
        lang = i18n.pick(self._stored("crisp.lang") or self._navigator_lang())
        self.ui = new_ui(lang, self._stored("crisp.name") or "")
        self._set_doc_lang(lang)
        self._proxies = []
        for kind in ("click", "input", "change"):
            p = create_proxy(self._on_event)
            self._proxies.append(p)
            root.addEventListener(kind, p)
        self.root.textContent = ""  # the shell's loading text, if any, goes

    # -- small browser helpers (never fail the render)
    def _truthy(self, f):
        try:
            return bool(f())
        except Exception:
            return False

    def _navigator_lang(self):
        try:
            return str(self.js.navigator.language or "")
        except Exception:
            return ""

    def _stored(self, key):
        try:
            v = self.js.localStorage.getItem(key)
            return v if isinstance(v, str) else None
        except Exception:
            return None

    def _store(self, key, value):
        try:
            self.js.localStorage.setItem(key, value)
        except Exception:
            pass

    def _set_doc_lang(self, lang):
        try:
            self.js.document.documentElement.setAttribute("lang", lang)
            self.js.document.title = i18n.t(lang, "page_title")
        except Exception:
            pass

    def _now(self):
        return int(self.js.Date.now())

    # -- rendering
    def update(self, model=None):
        if model is not None:
            self.model = model
        self.render()

    def render(self):
        """Bring the DOM up to the model. Never re-entered: a render asked for while one is
        patching (by an event the patch itself fired, e.g. the `change` Chromium sends when a
        focused, edited field is removed, or by a callback it caused) runs once this one is
        done, from the tree the DOM really has. Patching from a tree the DOM had already left
        behind is what made `replaceChild` fail ("not a child of this node")."""
        if self._rendering:
            self._again = True
            return
        self._rendering = True
        try:
            rounds = 0
            self._again = True
            while self._again and rounds < 3:
                self._again = False
                rounds += 1
                self._render_once()
        finally:
            self._rendering = False

    def _render_once(self):
        now = self._now()
        model = self.model
        # Remaining times in a view count from when it arrived: noted here, on this page's
        # clock, the first time a view object is seen (update runs on every message).
        view = _get(model, "view")
        key = id(view) if view is not None else None
        if key != self._view_key:
            self._view_key = key
            self._view_at = now
        view_at = self._view_at
        # errors show for a few seconds
        err = _get(model, "error")
        ek = id(err) if err is not None else None
        if ek != self._err_key:
            self._err_key = ek
            self._err_at = now
        ctx = Ctx(self.ui.get("lang", "en"), now, now - view_at, self.can_share, self.base)
        shown = model
        if err is not None and now - self._err_at > ERROR_MS and _get(model, "screen") != "gone":
            shown = _NoError(model)
        tree = build(shown, self.ui, ctx)
        self.acts = ctx.acts
        if self.tree is not None:
            try:
                self._patch(self.root, self.tree, tree)
                self.tree = tree
                return
            except Exception as e:
                # Something else moved our nodes (a browser translating the page, an
                # extension): the last tree no longer describes the DOM. Draw afresh.
                self._warn("patch failed, drawing afresh: " + str(e))
        self.tree = None
        self.root.textContent = ""
        self.root.appendChild(self._create(tree))
        self.tree = tree

    def _warn(self, text):
        try:
            self.js.console.warn("crisp ui: " + text)
        except Exception:
            pass

    def _create(self, v):
        doc = self.js.document
        if v["tag"] == "#text":
            el = doc.createTextNode(v["text"])
        else:
            el = doc.createElement(v["tag"])
            attrs = v["attrs"]
            for k in attrs:
                if k not in ("value", "checked"):
                    self._set(el, k, attrs[k])
            for kid in v["kids"]:
                el.appendChild(self._create(kid))
            for k in ("value", "checked"):
                if k in attrs:
                    self._set(el, k, attrs[k])
        v["el"] = el
        return el

    def _set(self, el, k, val):
        if k == "value":
            el.value = "" if val is None else str(val)
        elif k == "checked":
            el.checked = bool(val)
        elif val is None or val is False:
            el.removeAttribute(k)
        elif val is True:
            el.setAttribute(k, "")
        elif k == "style":
            # through the CSSOM: the page's Content-Security-Policy allows no inline style
            # attributes (style-src has no 'unsafe-inline')
            el.style.cssText = str(val)
        else:
            el.setAttribute(k, str(val))

    def _patch_keyed(self, el, ok, nk):
        """Children that carry a "key" (the event log's lines): matched by key, so a line
        added at the top is one insertion (one announcement for a screen reader), not every
        line rewritten. Only what moved is moved; the order is known from the old tree."""
        wanted = {}
        for n in nk:
            wanted[n["key"]] = True
        by_key = {}
        cur = []                       # old children still in the DOM, in DOM order
        for o in ok:
            if o["key"] in wanted and o["key"] not in by_key:
                by_key[o["key"]] = o
                cur.append(o)
            else:
                el.removeChild(o["el"])
        for i in range(len(nk)):
            n = nk[i]
            o = by_key.pop(n["key"], None)
            if o is not None and o["tag"] == n["tag"]:
                self._patch(el, o, n)
                if i < len(cur) and cur[i] is o:
                    continue           # already in place
                j = _index_of(cur, o)
                cur.pop(j)
            else:
                if o is not None:
                    el.removeChild(o["el"])
                    cur.pop(_index_of(cur, o))
                self._create(n)
            if i < len(cur):
                el.insertBefore(n["el"], cur[i]["el"])
            else:
                el.appendChild(n["el"])
            cur.insert(i, n)

    def _sync(self, el, k, val):
        """A field shows the model's value, also after the player changed it and the room
        did not follow (a refused option): compared with the live DOM, not the last tree.
        Written only when it differs, so typing is never disturbed."""
        if k == "value":
            want = "" if val is None else str(val)
            if str(el.value) != want:
                el.value = want
        elif bool(el.checked) != bool(val):
            el.checked = bool(val)

    def _patch(self, parent, old, new):
        el = old["el"]
        if old["tag"] != new["tag"]:
            fresh = self._create(new)
            parent.replaceChild(fresh, el)
            return
        new["el"] = el
        if new["tag"] == "#text":
            if old["text"] != new["text"]:
                el.data = new["text"]
            return
        ok = old["kids"]
        nk = new["kids"]
        if _keyed(ok) and _keyed(nk):
            self._patch_keyed(el, ok, nk)
        else:
            i = 0
            while i < len(nk):
                if i < len(ok):
                    self._patch(el, ok[i], nk[i])
                else:
                    el.appendChild(self._create(nk[i]))
                i += 1
            while i < len(ok):
                el.removeChild(ok[i]["el"])
                i += 1
        oa = old["attrs"]
        na = new["attrs"]
        for k in na:
            if k == "value" or k == "checked":
                self._sync(el, k, na[k])
            elif k not in oa or oa[k] != na[k]:
                self._set(el, k, na[k])
        for k in oa:
            if k not in na:
                if k == "value":
                    el.value = ""
                elif k == "checked":
                    el.checked = False
                else:
                    el.removeAttribute(k)

    # -- input
    def _on_event(self, event):
        if self._rendering:
            return  # fired by our own DOM writes (a removed field's change/blur): not a tap
        try:
            self._handle_event(event)
        except Exception as e:  # a bad tap must never kill the page
            try:
                self.js.console.error("crisp ui: " + str(e))
            except Exception:
                pass

    def _handle_event(self, event):
        el = event.target
        if self._none(el) or not hasattr(el, "closest"):
            return  # e.g. a text node
        el = el.closest("[data-act]")
        if self._none(el):
            return
        name = el.getAttribute("data-act")
        spec = None if self._none(name) else self.acts.get(str(name))
        if spec is None:
            return
        kind = str(event.type)
        if spec[0] == "field":
            # text fields on every keystroke ("input"); selects and checkboxes once ("change")
            typed = str(el.type) == "text"
            if kind != ("input" if typed else "change"):
                return
            if str(el.type) == "checkbox":
                value = bool(el.checked)
            else:
                value = str(el.value)
        else:
            if kind != "click":
                return
            value = None
        intents = handle(self.ui, spec, value, self.model, self._now())
        for name, payload in intents:
            if name == "lang":
                self._store("crisp.lang", payload)
                self._set_doc_lang(payload)
            elif name in ("create_room", "join", "play_solo"):
                self._store("crisp.name", payload["name"])
        self.render()
        for name, payload in intents:
            self.on_intent(name, payload)


def _keyed(kids):
    if not kids:
        return False
    for k in kids:
        if "key" not in k:
            return False
    return True


def _index_of(nodes, node):
    for i in range(len(nodes)):
        if nodes[i] is node:
            return i
    return -1


class _NoError:
    """The model seen without its (old) error: the toast goes after a few seconds."""

    def __init__(self, model):
        self._m = model

    def __getattr__(self, name):
        if name == "error":
            return None
        return getattr(self._m, name)
