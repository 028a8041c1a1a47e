"""The wire: every message the pages and the room exchange, declared once (docs/protocol.md
"Room messages", "Host handover", "Verifiable shuffle"), and the one decoder and encoder.

MicroPython-compatible (guests' pages read the room's messages through it; the room, in the
engine worker, checks what it receives through it): plain dicts and functions, `json`.

Each message type has a row: its fields (required and optional, each with a check), who sends
it and in which phase of the room it is taken:
  TO_ROOM    a page to the room: `from` "any" (any connection, the host's screen too),
             "seated" (a connection with a seat: `not_joined` otherwise), "watcher" (a
             spectator: `not_watching`) or "host" (the host's own screen only: `not_host`);
             `phase` None, "lobby" (no game and no deal waiting: `started`), "game" (a
             game started: `not_started`) or "over" (the game is over: `not_over`)
  FROM_ROOM  the room to a page (the Client reads them)
  BETWEEN    page to page in a host handover: holder <-> successor, new host -> spectator
A check is a function value -> bool; a field whose check is None takes any value (its
handler judges it, e.g. a name is cleaned, an option is the engine's to refuse).
"""

import json

from crisp_core.checks import is_hex, is_int, is_number, same  # noqa: F401 (the shared checks)
from ui.shared.limits import BOT_LEVELS, MAX_PLAYERS  # noqa: F401 (BOT_LEVELS: theirs too)
from ui.shared.reactions import is_reaction

VERSION = 1
MAX_TEXT = 16 * 1024       # bytes (UTF-8), both ways
MAX_BRACKETS = 64          # [ and { in one incoming message (real ones have a handful)
DEFAULT_OPTIONS = {"target": 100, "draw_seconds": None, "draw_from_discard": False}


class BadMessage(Exception):
    """A message refused before it reaches the engine; becomes one `error` to its sender.
    `code`: the error code (docs/protocol.md), `text`: one short English line."""

    def __init__(self, code, text):
        super().__init__(text)          # (MicroPython has no Exception.__init__)
        self.code = code
        self.text = text


def is_seat(x):
    """Whether `x` may be a seat number: an int from 0 to MAX_PLAYERS - 1."""
    return is_int(x) and 0 <= x < MAX_PLAYERS


def _hex32(x):
    return is_hex(x, 32)


def _hex64(x):
    return is_hex(x, 64)


def _text(x):
    return isinstance(x, str)


def _dict(x):
    return isinstance(x, dict)


def _list(x):
    return isinstance(x, list)


def _bool(x):
    return isinstance(x, bool)


def _level(x):
    return x in BOT_LEVELS


def _seat_or_none(x):
    return x is None or is_int(x)


def _row(sender, phase, required=None, optional=None):
    return {"from": sender, "phase": phase, "required": required or {},
            "optional": optional or {}}


TO_ROOM = {
    "join": _row("any", None, {"name": None}, {"seat_id": _hex32, "nonce": _hex32,
                                                 "page": _hex32}),
    "proof": _row("any", None, {"mac": None}),
    "action": _row("seated", "game", {"action": _dict}, {"n": None}),
    "ping": _row("any", None, {"t": is_number}, {"rtt": is_number}),
    "sync": _row("seated", None),
    "watch": _row("any", None),
    "sit": _row("watcher", None, {"name": None}, {"seat": _seat_or_none}),
    "leave": _row("any", None),
    "contribute": _row("seated", None, {"round": is_int, "value": _hex32}),
    "options": _row("host", "lobby", None,
                    {"target": None, "draw_seconds": None, "draw_from_discard": None}),
    "start": _row("host", "lobby"),
    "next_round": _row("host", "game"),
    "add_bot": _row("host", "lobby", {"level": _level}),
    "remove": _row("host", "lobby", {"seat": is_int}),
    "stand_in": _row("host", "game", {"seat": is_int, "level": _level}),
    "bot_turn": _row("host", "game", {"seat": is_int, "level": _level}),
    "new_game": _row("host", "over"),
    "approve": _row("host", "game", {"seat": is_int}),
    "react": _row("seated", "game", {"r": is_reaction}),
    "guide_read": _row("host", "game"),
}

FROM_ROOM = {
    "welcome": _row("room", None, {"seat": is_seat, "room": _text, "host": is_seat},
                    {"token": _hex32, "succession": _hex32, "redealt": is_int}),
    "challenge": _row("room", None, {"nonce": _hex32, "mac": _hex64}),
    "lobby": _row("room", None, {"players": _list, "options": _dict, "host": is_seat,
                                 "started": _bool, "games": is_int}, {"watchers": _list}),
    "view": _row("room", "game", {"n": is_int, "view": _dict, "events": _list,
                                  "players": _list},
                 {"history": _list, "games": is_int, "replay": _bool, "watchers": _list}),
    "error": _row("room", None, {"code": _text, "text": _text},
                  {"protocol": is_int, "host_name": _text}),     # (those two: bad_version)
    "pong": _row("room", None, {"t": is_number}, {"n": is_int}),
    "kicked": _row("room", None, {"code": _text, "text": _text}),
    "watching": _row("room", None, {"room": _text, "ask": None, "host": is_seat,
                                    "follow": _hex32, "next": _list}, {"opened": _dict}),
    "host_leaving": _row("room", "game", {"host": is_seat}, {"n": is_int, "share": _text}),
    "commit": _row("room", None, {"round": is_int, "deal": is_int, "commitment": _hex64}),
    "fair": _row("room", "game", {"round": is_int, "deal": is_int, "commitment": _hex64,
                                  "contributions": _list, "skipped": _list,
                                  "dealer": is_seat, "options": _dict, "scores": _list,
                                  "start": is_int, "players": _list}),
    "proof": _row("room", "game", {"round": is_int, "secret": _text, "part": is_int,
                                   "parts": is_int, "actions": _list}),
    "sealed": _row("room", "game", {"box": _dict, "share": _text, "host": is_seat,
                                    "keys": _dict}),
    "standby": _row("room", "game", {"seat": is_seat, "tokens": _dict, "watchers": _list,
                                     "check": _hex64}),
    "reaction": _row("room", "game", {"seat": is_seat, "r": is_reaction}),
    # the host's page, not the room: its engine restarts (ui/page/host/enginewatch.py)
    "restarting": _row("host page", "game"),
    # the host's page, not the room: every guest's one clock for a pause (ui/page/net/link.py)
    "beat": _row("host page", None),
    # the door at a moved room's first id, not the room: where the room is now (door.py)
    "elsewhere": _row("host page", None, {"room": _text}),
    # the host's page, not the room: its engine still starts (ui/page/host/early.py)
    "setup": _row("host page", None, {"host": _text, "back": _bool}),
}

BETWEEN = {
    "share_offer": _row("holder", "game", {"n": is_int, "seat": is_seat, "nonce": _hex32}),
    "share_proof": _row("successor", "game", {"n": is_int, "nonce": _hex32, "mac": _hex64}),
    "share": _row("holder", "game", {"n": is_int, "share": _text}),
    "moved": _row("new host", None, {"room": _text, "mac": _hex64}),
}

SHARE_TYPES = ("share_offer", "share_proof", "share")


def parse(text, limit=MAX_TEXT):
    """Decode one incoming text into a message dict with a text `type` and `v` VERSION.
    Raises BadMessage: `too_big` (over `limit` bytes), `bad_message` (not a JSON object, no
    type, nested more than MAX_BRACKETS deep), `bad_version`."""
    if not isinstance(text, str):
        raise BadMessage("bad_message", "messages are JSON text")
    if len(text) > limit or len(text.encode("utf-8")) > limit:
        raise BadMessage("too_big", "message larger than 16 KB")
    # A guest's message nests two levels at most; refusing deep nesting before parsing keeps
    # a crafted "[[[[..." from running the parser's recursion out (fatal on a small stack).
    if text.count("[") + text.count("{") > MAX_BRACKETS:
        raise BadMessage("bad_message", "message nested too deeply")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("bad_message", "not JSON")
    if not isinstance(msg, dict):
        raise BadMessage("bad_message", "a message is a JSON object")
    if not isinstance(msg.get("type"), str):
        raise BadMessage("bad_message", "missing type")
    version = msg.get("v")
    if not is_int(version) or version != VERSION:
        raise BadMessage("bad_version", "protocol version must be 1")
    return msg


def read(text, any_version=False):
    """A message as a page reads it: a JSON object with `v` VERSION (of any `v` with
    `any_version`: a page reads another version's `bad_version` error, `current`), or None
    (`parse` without its limits: the room's views nest deeper than a guest's messages). Its
    `type` is the reader's to judge (a peer that sends no real type may be an impostor:
    ui/page/client/client.py)."""
    if not isinstance(text, str):
        return None
    try:
        msg = json.loads(text)
    except ValueError:
        return None
    if not isinstance(msg, dict) or not (any_version or current(msg)):
        return None
    return msg


def current(msg):
    """True when message `msg` (a dict) is of this protocol version (`v` VERSION)."""
    return msg.get("v") == VERSION and not isinstance(msg.get("v"), bool)


def row_of(table, msg):
    """The row of `msg`'s type in `table`; BadMessage `unknown_type` when it has none."""
    row = table.get(msg.get("type"))
    if row is None:
        raise BadMessage("unknown_type", "unknown message type")
    return row


def check_fields(row, msg):
    """Refuse `msg` (BadMessage `bad_message`) when a required field of its row is missing,
    a field is not its row's, or a field's check fails."""
    required, optional = row["required"], row["optional"]
    for key in required:
        if key not in msg:
            raise BadMessage("bad_message", "missing field: " + key)
    for key in msg:
        if key in ("type", "v"):
            continue
        if key in required:
            check = required[key]
        elif key in optional:
            check = optional[key]
        else:
            raise BadMessage("bad_message", "unknown field: " + str(key)[:40])
        if check is not None and not check(msg[key]):
            raise BadMessage("bad_message", "bad field: " + key)
    return msg


def fits(table, msg):
    """True when `msg` (a dict) is a message of `table` with its row's fields."""
    try:
        check_fields(row_of(table, msg), msg)
    except BadMessage:
        return False
    return True


def message(kind, **fields):
    """A message of type `kind` as a dict: {"type", "v": VERSION, **fields}."""
    msg = {"type": kind, "v": VERSION}
    msg.update(fields)
    return msg


def welcome(seat, room, host, succession=None, token=None):
    """A `welcome` to the person at `seat` of room `room` whose page at seat `host` hosts:
    with the room's succession secret (none in the host page's provisional welcome) and the
    seat's token only when the seat is new."""
    msg = message("welcome", seat=seat, room=room, host=host)
    if succession is not None:
        msg["succession"] = succession
    if token is not None:
        msg["token"] = token
    return msg


def player(seat, name, bot=None, connected=True, wins=0):
    """One seat of a `players` list (`lobby`, `view`)."""
    return {"seat": seat, "name": name, "bot": bot, "connected": connected, "wins": wins}


def lobby(players, options, host=0, started=False, games=0, watchers=None):
    """A `lobby` message (`watchers`: the room's spectators, docs/protocol.md "Spectators";
    left out when there are none)."""
    msg = message("lobby", players=players, options=dict(options), host=host,
                  started=started, games=games)
    if watchers:
        msg["watchers"] = watchers
    return msg


def error(code, text):
    """An `error` message (its text cut to 200 characters)."""
    return message("error", code=code, text=text[:200])


def kicked(code, text):
    return message("kicked", code=code, text=text)


class Encoded(dict):
    """A message whose wire text is known already (the room encoded it to measure it against
    MAX_TEXT: `encoded`): `encode` returns that text instead of encoding it again."""
    text = None


def encoded(msg):
    """`msg` as an Encoded message: encoded now, once."""
    out = Encoded(msg)
    out.text = _dumps(msg)
    return out


def encode(msg):
    """`msg` (a dict) as the compact JSON text that goes on the wire (an Encoded message's
    own text)."""
    if isinstance(msg, Encoded) and msg.text is not None:
        return msg.text
    return _dumps(msg)


def _dumps(msg):
    # ensure_ascii=False: the text carries characters as they are (MicroPython's json decodes
    # a "\\ud83d\\ude00" escape pair as two broken characters, so an emoji escaped by
    # CPython's default would arrive garbled on every guest page).
    try:
        return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
    except TypeError:                   # MicroPython's json.dumps takes no ensure_ascii
        return json.dumps(msg, separators=(",", ":"))


def size(msg):
    """The UTF-8 size in bytes of an Encoded message's text (MAX_TEXT is a size in bytes)."""
    return len(encode(msg).encode("utf-8"))


def texts(out):
    """The room's outputs, [(conn, msg)] or typed [(conn, kind, msg)], as [(conn, text)]: each
    message encoded once however many connections it goes to (a lobby sent to every seat
    is one text)."""
    return [(item[0], item[1]) for item in encode_all(out)]


def encode_all(out):
    """The room's outputs, [(conn, msg)] or typed [(conn, kind, msg)], as [(conn, text,
    kind)]: each message encoded once however many connections it goes to."""
    done = {}
    result = []
    for item in out:
        msg = item[-1]
        key = id(msg)
        if key not in done:
            done[key] = encode(msg)
        result.append((item[0], done[key], msg.get("type")))
    return result
