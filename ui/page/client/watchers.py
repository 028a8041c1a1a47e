"""Who watches the room, and who took whose seat (docs/protocol.md "Spectators"): what the
Client (ui/page/client/client.py) keeps of the room's `watchers` field, of a seat named anew
mid-game ("Cleo took Bea's seat" in the log) and of its own seat taken from a spectator's
place; the screens say it (ui/page/screens/watch_screens.py). Pure: runs on MicroPython, Pyodide
and CPython; the room's word is checked here (the wire is hostile).
"""

from ui.shared.limits import MAX_PLAYERS, NAME_MAX

MAX_WATCHERS = 8          # the room holds no more spectators (ui/worker/spectators.py)


def heard(client, kind, msg):
    """A trusted message of type `kind` from the room, before the Client takes it: a lobby's
    or a view's `watchers` are kept (`client.watchers`), a view's seat named anew is logged
    (`on_view`), and a `welcome` to a spectator mid-game keeps whose seat it took
    (`client.took`, `took`)."""
    if kind == "lobby":
        client.watchers = read_watchers(msg.get("watchers"))
    elif kind == "view":
        on_view(client, msg)
    elif kind == "welcome":
        client.took = took(client, msg.get("seat"))


def read_watchers(value):
    """The `watchers` of a lobby or a view as the Client keeps them: [{"name": text or None,
    "next": bool}], at most MAX_WATCHERS; anything malformed is left out."""
    out = []
    if not isinstance(value, list):
        return out
    for w in value[:MAX_WATCHERS]:
        if not isinstance(w, dict):
            continue
        name = w.get("name")
        out.append({"name": name[:NAME_MAX] if isinstance(name, str) and name else None,
                    "next": w.get("next") is True})
    return out


def on_view(client, msg):
    """A `view` arrived (before the Client takes its players): keep its watchers, and log a
    seat named anew mid-game ({"type": "took_seat", "seat", "name", "was"}: the host gave it
    to a spectator). Returns nothing."""
    client.watchers = read_watchers(msg.get("watchers"))
    new = msg.get("players")
    if client.view is None or client.screen != "table" or not isinstance(new, list):
        return
    old = client.players or []
    for p in new[:MAX_PLAYERS]:
        seat = p.get("seat") if isinstance(p, dict) else None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(old):
            continue
        was = old[seat].get("name") if isinstance(old[seat], dict) else None
        name = p.get("name")
        if isinstance(was, str) and isinstance(name, str) and name != was \
                and old[seat].get("seat") == seat:
            client.log.append({"type": "took_seat", "seat": seat, "name": name, "was": was})


def took(client, seat):
    """On a `welcome` to this page: {"was": the seat's name before, "round": the round} when
    a spectator was seated at a table mid-game (`approve`), else None."""
    if not client.spectator or not isinstance(client.view, dict) \
            or client.view.get("phase") not in ("peek", "play", "last_turns"):
        return None                       # (seated in a lobby or between games: no note)
    players = client.players or []
    if not isinstance(seat, int) or not 0 <= seat < len(players) \
            or not isinstance(players[seat], dict):
        return None
    was = players[seat].get("name")
    return {"was": was if isinstance(was, str) else None, "round": client.view.get("round")}
