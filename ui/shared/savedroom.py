"""What the host page may know of a saved room without knowing its layout: the room writes
and checks its saves (ui/worker/saves.py: `to_dict`, `from_dict`, `check_saved`); the page
and ui/shared/hostlife.py read them only through `summary` and write only a `draft`.

The layout's field names are declared here, once, for both. MicroPython-compatible (the host
page's main thread); never raises, whatever a record holds.
"""

from crisp_core.checks import is_int, is_number

# A saved room (ui/worker/saves.py `to_dict`): its fields, those older saves may lack, and a
# seat's.
SAVED_FIELDS = ("room_id", "seed", "deck", "options", "seats", "game", "log", "peeks", "now")
SAVED_OPTIONAL = ("fair", "deals", "history", "games", "host", "succession",
                  "seal_n", "seal_checks", "opened", "derived", "standby_check",
                  "lang", "deck_once", "guided", "door")   # comeback.saved_keep
SEAT_FIELDS = ("name", "token", "bot", "n", "stand_in", "agent", "plan")


def summary(saved):
    """What the page needs of a saved room (`saved`: a parsed record, maybe hostile):
    {"room": its id or None, "names": each seat's name (None when unreadable), "host": the
    host's seat (0 unless handed over; 0 when unreadable), "host_name" (or "?"),
    "host_token": the host seat's token or None, "succession": the room's succession secret
    or None, "started": a game is on, "round": its round or None, "over": the game is over,
    "clock": the saved room clock in ms (0 when unreadable), "draft": made while the engine
    started (`draft`), "readable": its game is an object or none}. None when `saved` is not
    a room record (no text id, no seats)."""
    if not isinstance(saved, dict):
        return None
    seats = saved.get("seats")
    room = saved.get("room_id")
    if not isinstance(room, str) or not isinstance(seats, list) or not seats:
        return None
    game = saved.get("game")
    readable = game is None or isinstance(game, dict)
    game = game if isinstance(game, dict) else None
    host = saved.get("host", 0)
    host = host if is_int(host) and 0 <= host < len(seats) else 0
    me = seats[host] if isinstance(seats[host], dict) else {}
    name = me.get("name")
    clock = saved.get("now")
    return {"room": room,
            "names": [s.get("name") if isinstance(s, dict) else None for s in seats],
            "host": host, "host_name": name if isinstance(name, str) and name else "?",
            "host_token": me.get("token") if isinstance(me.get("token"), str) else None,
            "succession": saved.get("succession"),
            "started": bool(game), "round": game.get("round") if game else None,
            "over": game is not None and game.get("phase") == "game_over",
            "clock": clock if is_number(clock) and clock > 0 else 0,
            "draft": saved.get("draft") is True, "readable": readable}


def draft(room_id, name, seed=None, deck=None, lang=None):
    """The saved record of a room created while the engine still starts: enough to create
    the same room again (same id: its link may be shared already) if the page reloads or
    closes before the engine saved the room itself. `lang`: the host's language, which the
    bots are named in ("es", "en"; checked by the engine). ui/worker/engine.py's `restore`
    creates a fresh room from it (`draft_fields`)."""
    return {"room_id": room_id, "draft": True, "seats": [{"name": name}], "game": None,
            "seed": seed, "deck": deck, "now": 0, "lang": lang}


def draft_fields(saved):
    """A draft's (room id, host name, seed, deck, lang), for the engine to create the room
    again."""
    return (saved["room_id"], saved["seats"][0]["name"], saved.get("seed"), saved.get("deck"),
            saved.get("lang"))
