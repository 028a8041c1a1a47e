"""Saving the room: `to_dict`, `from_dict` and `check_saved`, the one reader and writer of a
saved room's layout (the host's localStorage, the sealed box of a handover: maybe truncated
or tampered with). The page reads what it needs of a save through ui/shared/savedroom.py
(`summary`), never the layout itself. Room-only (the engine worker); pure Python.
"""

import secrets

from crisp_core import Bot, Game, bot_names, is_card, normalize_options
from crisp_core.actions import POSITIONS
from ui.shared import comeback, door, handover, spectator_moves
from ui.shared.savedroom import SAVED_FIELDS, SAVED_OPTIONAL, SEAT_FIELDS
from ui.shared.wire import BOT_LEVELS, DEFAULT_OPTIONS, BadMessage, is_int
from ui.worker import fairdeal
from ui.worker.names import clean_name
from ui.worker.outbox import LOG_KEEP
from ui.worker.seats import MAX_SEATS, Seat


def to_dict(room):
    """The whole room, JSON-safe (connections are not saved: everyone rejoins)."""
    return {"room_id": room.room_id, "host": room.host, "seed": room.seed, "deck": room.deck,
            "options": dict(room.options), "seats": [s.to_dict() for s in room.seats],
            "game": room.game.to_dict() if room.game is not None else None,
            "log": list(room.log), "peeks": {str(k): v for k, v in room.peeks.items()},
            "now": room.now, "history": [list(r) for r in room.history],
            "games": room.games, "fair": room.deal.state, "deals": room.deal.deals,
            "succession": room.succession,
            "seal_n": room.seal_n, "seal_checks": dict(room.seal_checks),
            "opened": room.opened, "derived": sorted(room.derived),
            "standby_check": room.standby_check, "lang": room.lang, "deck_once": room.deck_once,
            "guided": room.guided, "door": room.door}


def from_dict(cls, d, make_token=secrets.token_hex, make_bot=None, load_bot=Bot.from_dict):
    """The room saved by `to_dict` (the host's localStorage: maybe truncated or tampered
    with). Raises ValueError with a short English reason unless it is whole and
    consistent: `check_saved` (room), `Game.from_dict` (the game). Names are cleaned as a
    `join`'s are. Its bots come back with their memory (`load_bot`, a saved bot's
    `to_dict` -> bot; a bot state that does not load, or is another seat's, gives a fresh
    bot); `make_bot` makes the bots added from now on (and one for a seat saved without
    its bot's state)."""
    check_saved(d)
    try:
        game = Game.from_dict(d["game"]) if d["game"] is not None else None
        names = [clean_name(s["name"]) for s in d["seats"]]
    except BadMessage as e:
        raise ValueError("saved room: a seat's name: " + e.text)
    if game is not None:
        if game.players != len(d["seats"]):
            raise ValueError("saved room: the game has %d seats, the room %d"
                             % (game.players, len(d["seats"])))
        if any(game.options[key] != d["options"][key] for key in DEFAULT_OPTIONS):
            raise ValueError("saved room: the game's options are not the room's")
    try:
        room = cls(d["room_id"], names[0], seed=d["seed"], deck=d["deck"],
                   make_token=make_token, make_bot=make_bot,
                   succession=d.get("succession"))   # (checked: check_saved)
    except BadMessage as e:
        raise ValueError("saved room: the host's name: " + e.text)
    room.options = dict(d["options"])
    room.deck_once = d.get("deck_once") is True
    room.guided = d.get("guided") is True
    room.door = d.get("door")                 # (checked: check_saved)
    lang = d.get("lang")
    room.lang = lang if isinstance(lang, str) and lang in bot_names.NAMES else "en"
    room.seats = [_seat(d, i, names[i], game is not None, make_bot, load_bot)
                  for i in range(len(d["seats"]))]
    room.host = d.get("host", 0)
    room.game = game
    people = [i for i, s in enumerate(room.seats) if s.bot is None and i != room.host]
    for key, value in comeback.saved_keep(d, people).items():
        setattr(room, key, value)            # seal_n, seal_checks, opened, derived, standby_check
    room.log = list(d["log"]) if game is not None else []
    room.peeks = {int(k): v for k, v in d["peeks"].items()} if game is not None else {}
    room.now = max(d["now"], game.clock if game is not None else 0)
    history = d.get("history")
    if isinstance(history, list) and all(
            isinstance(r, list) and all(is_int(p) for p in r) for r in history):
        room.history = [list(r) for r in history]
    games = d.get("games", 0)
    room.games = games if is_int(games) and games >= 0 else 0
    # checked there: None when malformed
    room.deal.restore(fairdeal.load(d.get("fair")), d.get("deals"))
    return room


def _seat(d, i, name, started, make_bot, load_bot):
    """Seat `i` of the checked save `d`, named `name`, with its bot (`load_bot` of its saved
    state, or a fresh `make_bot` one); a person's seat other than the host's is away."""
    s = d["seats"][i]
    seat = Seat(name, s["token"], bot=s["bot"])
    seat.n = s["n"]
    seat.stand_in = s["stand_in"] if started else None
    wins = s.get("wins", 0)
    seat.wins = wins if is_int(wins) and wins >= 0 else 0
    level = seat.bot or seat.stand_in
    if s["agent"] is not None and level is not None:
        try:
            agent = load_bot(s["agent"])
            if getattr(agent, "seat", i) == i:
                seat.agent = agent
                seat.plan = s["plan"]
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):
            seat.agent = None
    if seat.agent is None and level is not None and make_bot is not None:
        seat.agent = make_bot(level, i)
    if seat.agent is None:
        seat.stand_in = None
    if i != d.get("host", 0) and seat.bot is None:
        seat.away_since = d["now"]    # away until it rejoins
    return seat


def check_saved(d):
    """Raise ValueError (a short English reason) unless `d` has the shape of a saved room
    (`Room.to_dict`): its fields and no other; a room id PeerJS takes; an integer seed; a
    stacked deck of distinct cards or none; the lobby options; 1 to 8 seats, the host's seat
    (`host`: 0 unless the room was handed over) and every other person with a distinct token
    (text), bots without one and of a known level, a stand-in only on a person's seat other
    than the host's, bot plans with a time; the round's log and peeks as
    events; a clock; the succession secret (32 hex; a save without one gets a fresh one);
    the door token (32 hex, or none).
    The game itself is checked by `Game.from_dict`."""
    def bad(what):
        raise ValueError("saved room: " + what)

    if not isinstance(d, dict):
        bad("not an object")
    for key in SAVED_FIELDS:
        if key not in d:
            bad("missing " + key)
    for key in d:
        if key not in SAVED_FIELDS and key not in SAVED_OPTIONAL:
            bad("unknown field " + str(key)[:40])
    if not spectator_moves.is_peer_id(d["room_id"]):
        bad("room id")
    if not is_int(d["seed"]):
        bad("seed")
    if "succession" in d and not handover.is_secret(d["succession"]):
        bad("succession secret")
    if d.get("door") is not None and not door.is_door_token(d["door"]):
        bad("door token")
    deck = d["deck"]
    if deck is not None and (not isinstance(deck, list) or len(deck) > 52
                             or not all(is_card(c) for c in deck)
                             or len(set(deck)) != len(deck)):
        bad("stacked deck")
    options = d["options"]
    if not isinstance(options, dict) or set(options) != set(DEFAULT_OPTIONS):
        bad("options")
    try:
        normalize_options(dict(options, players=2))
    except ValueError as e:
        bad("options: " + str(e))
    seats = d["seats"]
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        bad("1 to 8 seats")
    host = d.get("host", 0)
    if not is_int(host) or not 0 <= host < len(seats):
        bad("host")
    tokens = set()
    for i, s in enumerate(seats):
        what = _bad_seat(s, i, host, tokens)
        if what is not None:
            bad("seat %d%s" % (i, what))
    # (after a handover the seat that hosts need not be seat 0: checked above, as a person)
    log = d["log"]
    if not isinstance(log, list) or len(log) > LOG_KEEP or not all(
            is_event(e, len(seats)) for e in log):
        bad("log")
    peeks = d["peeks"]
    if not isinstance(peeks, dict):
        bad("peeks")
    for key, event in peeks.items():
        if (not key.isdigit() or not 0 <= int(key) < len(seats)
                or not is_event(event, len(seats))
                or event["type"] != "reveal" or event["to"] != int(key)):
            bad("peeks")
    if not is_int(d["now"]) or d["now"] < 0:
        bad("clock")


def _bad_seat(s, i, host, tokens):
    """What is wrong with saved seat `s` (number `i`; `host`: the host's seat; `tokens`: the
    people's tokens seen so far, this one's added): "" (the seat itself), ": token", ...; None
    when it is right."""
    if not isinstance(s, dict) or not set(SEAT_FIELDS) <= set(s) <= set(SEAT_FIELDS) | {"wins"}:
        return ""
    if s["bot"] is None:
        token = s["token"]
        if not isinstance(token, str) or not 0 < len(token) <= 128 or token in tokens:
            return ": token"
        tokens.add(token)
        if s["stand_in"] is not None and (i == host or s["stand_in"] not in BOT_LEVELS):
            return ": stand-in"
    elif i == host or s["bot"] not in BOT_LEVELS or s["token"] is not None \
            or s["stand_in"] is not None:
        return ": bot"
    if not is_int(s["n"]) or s["n"] < 0:
        return ": view count"
    if s["agent"] is not None and not isinstance(s["agent"], dict):
        return ": bot state"
    plan = s["plan"]
    if plan is not None and (not isinstance(plan, dict) or set(plan) != {"at", "action"}
                             or not is_int(plan["at"]) or not isinstance(plan["action"], dict)):
        return ": bot plan"
    return None


# Each event type and the fields it always has (docs/protocol.md "Events").
EVENT_TYPES = {
    "deal": ("round", "dealer"), "reveal": ("to", "reason", "cards"), "ready": ("seat", "auto"),
    "play": ("turn",), "draw": ("seat", "from"), "recycle": ("count",),
    "swap": ("seat", "pos", "card"), "discard": ("seat", "card"), "jack": ("seat", "card"),
    "queen": ("seat", "card", "pos", "target", "target_pos"), "king": ("seat", "card", "pending"),
    "timeout": ("seat", "card", "forced", "lost"), "turn": ("seat",), "crisp": ("seat",),
    "round_over": ("hands", "round_points", "scores"), "game_over": ("winners",),
}


def is_event(e, players):
    """True when `e` has the shape of an engine event (docs/protocol.md "Events") at a table
    of `players` seats: a known type, and every field of its kind with a fitting value."""
    def seat(v):
        return is_int(v) and 0 <= v < players

    def card(v):
        return v is None or is_card(v)

    def count(v):
        return is_int(v) and 0 <= v <= 1000

    def ints(v):
        return isinstance(v, list) and len(v) == players and all(is_int(x) for x in v)

    def shown(v):
        return isinstance(v, list) and len(v) <= 3 and all(
            isinstance(c, dict) and set(c) == {"seat", "pos", "card"} and seat(c["seat"])
            and c["pos"] in POSITIONS + ("held",) and is_card(c["card"]) for c in v)

    fields = {
        "seat": seat, "to": seat, "turn": seat, "dealer": seat, "target": seat,
        "pos": lambda v: v in POSITIONS, "target_pos": lambda v: v in POSITIONS,
        "card": card, "taken": is_card, "cards": shown,
        "from": lambda v: v in ("deck", "discard"),
        "reason": lambda v: v in ("peek", "draw", "jack", "queen"),
        "auto": lambda v: isinstance(v, bool), "forced": lambda v: isinstance(v, bool),
        "away": lambda v: isinstance(v, bool),
        "round": count, "count": count, "pending": count, "lost": count,
        "hands": lambda v: isinstance(v, list) and len(v) == players and all(
            isinstance(h, list) and len(h) == 3 and all(is_card(c) for c in h) for h in v),
        "round_points": ints, "scores": ints,
        "winners": lambda v: isinstance(v, list) and len(v) <= players and all(
            seat(x) for x in v),
    }
    if not isinstance(e, dict) or not isinstance(e.get("type"), str) \
            or e["type"] not in EVENT_TYPES:
        return False
    if any(key not in e for key in EVENT_TYPES[e["type"]]):
        return False
    for key, value in e.items():
        if key != "type" and (key not in fields or not fields[key](value)):
            return False
    return True
