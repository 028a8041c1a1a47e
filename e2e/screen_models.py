"""Hand-made Client models (JSON-able dicts of the Client's attributes, docs/protocol.md) for
every screen, for the screens page (screens_harness.py)."""

import random

NAMES = ["Ana", "Bob", "Cleo", "Dani", "Eva", "Fede", "Gus", "Hugo"]
LONG = ["Maximiliana", "Bartolomeo", "Cleopatra Q", "Dani el Rojo", "Evangelina",
        "Federico Gª", "Gustavo A.", "Hugo Sánchez"]
POS = ("left", "center", "right")
SUITS = "cdhs"
RANKS = "A23456789TJQK"


def players(n, names=NAMES, bots=(), away=()):
    return [{"seat": i, "name": names[i], "connected": i not in away,
             "bot": "easy" if i in bots else None} for i in range(n)]


def landing(name=""):
    return {"screen": "landing", "status": "ok", "_ui": {"name": name}}


def join(name="", status="ok", answered=True):
    """The join screen; `answered`: the room answered (a spectator's lobby): the form shows
    (before that, only "Looking for the room...": ui/page/screens/screens.py room_answered)."""
    model = {"screen": "join", "status": status, "room": "crisp-abc123",
             "_ui": {"name": name}}
    if answered:
        model["spectator"] = True
        model["lobby"] = lobby(2)["lobby"]
    return model


def lobby(n=3, seat=0, names=NAMES, bots=(2,)):
    lob = {"type": "lobby", "v": 1, "players": players(n, names, bots),
           "options": {"target": 100, "draw_seconds": 30, "draw_from_discard": False},
           "host": 0, "started": False}
    return {"screen": "lobby", "status": "ok", "seat": seat, "is_host": seat == 0,
            "room": "crisp-abc123", "lobby": lob, "players": lob["players"]}


def view(n, seat, **kw):
    v = {"seat": seat, "players": n,
         "options": {"players": n, "target": 100, "draw_seconds": 30,
                     "draw_from_discard": True},
         "phase": "play", "round": 2, "dealer": 0, "turn": seat, "caller": None,
         "hands": [[None, None, None] for _ in range(n)], "held": None, "pending_draws": 0,
         "deck_count": 31, "discard": ["7h", "2c"], "ready": [True] * n, "peek_left": None,
         "start_in": 0, "draw_left": 21000, "crisp_window": None, "last_turns_left": 0,
         "round_points": None, "scores": [(s * 7) % 23 for s in range(n)], "winners": None,
         "allowed": []}
    v.update(kw)
    return v


LOG = [{"type": "deal", "round": 2, "dealer": 0}, {"type": "play", "turn": 1},
       {"type": "draw", "seat": 1, "from": "deck"},
       {"type": "swap", "seat": 1, "pos": "center", "card": "9d"},
       {"type": "turn", "seat": 2}, {"type": "draw", "seat": 2, "from": "discard", "card": "9d"},
       {"type": "swap", "seat": 2, "pos": "left", "card": "Kh", "taken": "9d"},
       {"type": "turn", "seat": 0}]


def table(n=4, seat=1, names=NAMES, reveals=None, log=None, away=(), bots=(), ui=None, **kw):
    m = {"screen": "table", "status": "ok", "seat": seat, "is_host": seat == 0,
         "room": "crisp-abc123", "players": players(n, names, bots, away),
         "view": view(n, seat, **kw), "log": LOG if log is None else log,
         "reveals": reveals or {}}
    if ui:
        m["_ui"] = ui
    return m


def all_actions(n, seat):
    """Every control of the table live at once (not a real state: for measuring targets)."""
    return [{"do": "draw", "from": ["deck", "discard"]},
            {"do": "swap", "pos": list(POS)}, {"do": "discard"},
            {"do": "queen", "pos": list(POS), "targets": [s for s in range(n) if s != seat],
             "target_pos": list(POS)},
            {"do": "crisp"}]


def screens(n=4, seat=1, names=NAMES):
    """(name, model) of every screen and table state worth looking at."""
    me_right = {"%d:left" % seat: "Qh", "%d:right" % seat: "4s"}
    other = (seat + 1) % n
    history = [[(s * 5 + r * 3) % 19 for s in range(n)] for r in range(2)]  # rounds 1 and 2
    hands = [[random.Random(s).choice(RANKS) + SUITS[(s + i) % 4] for i in range(3)]
             for s in range(n)]
    out = [
        ("landing", landing()),
        ("landing-named", landing("Ana")),
        ("landing-resume", dict(landing("Ana"), resume={"room": "crisp-abc123", "started": True,
                                                        "names": names[:n], "round": 2})),
        ("join", join("Bea")),
        ("lobby-host", lobby(n, 0, names)),
        ("lobby-guest", lobby(n, seat if seat else 1, names)),
        ("peek", table(n, seat, names, reveals=me_right, phase="peek", turn=None,
                       ready=[s % 2 == 0 for s in range(n)], peek_left=14000, draw_left=None,
                       allowed=[{"do": "ready"}], log=LOG[:1])),
        ("my-turn", table(n, seat, names, allowed=[{"do": "draw", "from": ["deck", "discard"]}])),
        ("held", table(n, seat, names, held={"seat": seat, "from": "deck", "card": "5d"},
                       allowed=[{"do": "swap", "pos": list(POS)}, {"do": "discard"}])),
        ("queen-held", table(n, seat, names, held={"seat": seat, "from": "deck", "card": "Qc"},
                             allowed=[{"do": "queen", "pos": list(POS),
                                       "targets": [s for s in range(n) if s != seat],
                                       "target_pos": list(POS)}, {"do": "discard"}])),
        ("queen-target", table(n, seat, names, held={"seat": seat, "from": "deck", "card": "Qc"},
                               allowed=[{"do": "queen", "pos": list(POS),
                                         "targets": [s for s in range(n) if s != seat],
                                         "target_pos": list(POS)}, {"do": "discard"}],
                               ui={"queen": {"pos": "left"}})),
        ("other-holds", table(n, seat, names, turn=other,
                              held={"seat": other, "from": "deck", "card": None})),
        ("crisp-window", table(n, seat, names, turn=other,
                               crisp_window={"seat": seat, "left": 2400},
                               allowed=[{"do": "crisp"}])),
        ("last-turns", table(n, seat, names, phase="last_turns", turn=other, caller=seat,
                             last_turns_left=n - 1,
                             log=LOG + [{"type": "crisp", "seat": seat}])),
        ("round-over", dict(table(n, seat, names, phase="round_over", turn=None, caller=seat,
                                  hands=hands, draw_left=None,
                                  round_points=[sum(1 for _ in h) * 4 for h in hands],
                                  allowed=[{"do": "next_round"}] if seat == 0 else [],
                                  log=LOG + [{"type": "round_over"}]), history=history)),
        ("game-over", dict(table(n, seat, names, phase="game_over", turn=None, caller=None,
                                 hands=hands, draw_left=None, winners=[0],
                                 round_points=[12] * n, scores=[101 + s for s in range(n)],
                                 log=LOG + [{"type": "round_over"},
                                            {"type": "game_over", "winners": [0]}]),
                           history=history)),
        ("stand-in", table(n, 0, names, away=(1,), turn=1, bots=(n - 1,))),
        ("round-over-down", table(n, seat, names, phase="round_over", turn=None, caller=seat,
                                  hands=hands, draw_left=None,
                                  round_points=[sum(1 for _ in h) * 4 for h in hands],
                                  allowed=[{"do": "next_round"}] if seat == 0 else [],
                                  log=LOG + [{"type": "round_over"}],
                                  ui={"sheet_open": False, "sheet_key": "2:round_over"})),
        ("reconnecting", dict(table(n, seat, names), status="reconnecting")),
        ("error", dict(table(n, seat, names), error={"code": "not_your_turn", "text": "no"})),
        ("gone", {"screen": "gone", "status": "ok",
                  "error": {"code": "taken_over", "text": "taken over"}}),
    ]
    return out
