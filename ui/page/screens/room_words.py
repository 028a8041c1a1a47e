"""Who the room's words are about: the host named wherever the page knows its name (the lobby's
banners, the host-gone panel, a round dealt again), the host's presence dot agreeing with
those banners, the invitation's host and players, and the lobby's two-tap removal of a
person. Pure decisions for the screens (ui/page/screens/banner.py, lobby_screen.py, join_screen.py,
screens.py); runs on MicroPython, Pyodide and CPython (tests).
"""

from ui.page.screens.viewmodel import pause_of, player_list, read, seat_name
from ui.shared.successor import successor

# The host's own words for a silent or gone host: each has a "<key>_named" twin with {name}
# (ui/page/i18n/i18n_connection.py); the plain one is said only when no name is known.
NAMED = ("conn_host_paused", "conn_host_paused_lobby", "conn_host_gone", "host_gone_title",
         "redealt")


def host_seat_of(model):
    """The seat that hosts the room as the page knows it (the lobby's `host`, else the
    Client's `host_seat`), or None."""
    lobby = read(model, "lobby", {}) or {}
    seat = read(model, "host_seat")
    if seat is None:
        seat = lobby.get("host")
    return seat if isinstance(seat, int) else None


def host_name(model, ctx, seat=None):
    """The shown name of the host (`seat`, else the room's host seat), or None when the
    page knows no name for it (an empty name, an unknown seat)."""
    seat = host_seat_of(model) if seat is None else seat
    players = player_list(model)
    if seat is None or seat not in players or not players[seat].get("name"):
        return None
    return seat_name(players, seat, ctx)


def host_said(model, ctx, key, seat=None, **values):
    """The text `key` about the host, with its name (`key` + "_named") when the page knows
    it, else the plain text (which names nobody). `seat`: the host meant, when it is not the
    room's current one (a round dealt again names the host before the handover)."""
    name = host_name(model, ctx, seat) if key in NAMED else None
    if name is None:
        return ctx.t(key, **values)
    values["name"] = name
    return ctx.t(key + "_named", **values)


def left_words(model, ctx, told, base, name):
    """A handover's words (`base`: "handover" for its banner, "new_host" for the note once it
    went through; `told`: the Client's `handover` or `new_host`, {"me", "left", ...}) for the
    room moving to `name` (None on the new host's own page): after the old host said it
    leaves (`left`: its seat), told as a leave, "Fay left: Eva hosts now"; else the plain
    base words ("Eva is the new host"). None when the old host's name is not known and
    the plain words should be said (the caller's)."""
    left = told.get("left") if isinstance(told, dict) else None
    old = host_name(model, ctx, left) if isinstance(left, int) else None
    if old is None:
        return None
    if told.get("me"):
        return ctx.t(base + "_left_me", old=old)
    return ctx.t(base + "_left_other", old=old, name=name or "?")


def host_quiet(model):
    """Whether the page's banner says the host is not answering (silent, away, counted as
    gone): then its presence dot shows away too, whatever the last players list said."""
    if read(model, "host_lost", False):
        return True
    if read(model, "status") in ("host_paused", "host_gone"):
        return True
    return pause_of(model).since is not None


def dot_on(model, seat, player):
    """A seat's presence dot in the lobby: on when its player is connected, except the
    host's while the banner says the host is quiet (`host_quiet`)."""
    if player.get("connected", True) is False:
        return False
    return not (seat == host_seat_of(model) and host_quiet(model))


def invitation(model, ctx):
    """The invitation's two lines for a guest who has the room's lobby (or its table): who
    invites ("Fay invites you to a game of Crisp") and who is in the room already; without
    a known host, the plain invitation and no list. Returns (title, players_line or None)."""
    name = host_name(model, ctx)
    if name is None:
        return ctx.t("invited"), None
    players = player_list(model)
    names = [seat_name(players, s, ctx) for s in sorted(players.keys())]
    return ctx.t("invited_by", name=name), ctx.t("invited_with", names=", ".join(names))


def asks_removal(ui, seat, name):
    """Whether the host's first tap on Remove asked about this row (`seat` with `name`):
    the question is tied to the name too, so that when the seats move down (someone left)
    it never stands on another player's row."""
    ask = ui.get("remove_ask")
    return isinstance(ask, dict) and ask.get("seat") == seat and ask.get("name") == name


REMOVE_OPS = ("remove_ask", "remove_yes", "remove_cancel")


def remove_tap(ui, op, arg, model):
    """The lobby's Remove flow (("local", op, arg) taps, `op` in REMOVE_OPS): "remove_ask"
    {seat, name} asks on that row, "remove_cancel" takes the question back, "remove_yes"
    {seat, name} sends `remove` only while it is the question asked and that seat still
    holds that name in `model`'s players (a tap on a screen drawn before the seats moved
    down removes nobody else). Returns the intents."""
    if op == "remove_ask":
        ui["remove_ask"] = {"seat": arg.get("seat"), "name": arg.get("name")} \
            if isinstance(arg, dict) else None
        return []
    if op == "remove_yes":
        asked = isinstance(arg, dict) and asks_removal(ui, arg.get("seat"), arg.get("name"))
        seated = player_list(model).get(arg.get("seat")) if asked else None
        asked = seated is not None and seated.get("name") == arg.get("name")
        ui["remove_ask"] = None
        return [("remove", {"seat": arg.get("seat")})] if asked else []
    ui["remove_ask"] = None
    return []


def leave_question(model, ctx, in_room):
    """The menu's question before the host's page leaves, saying what will happen: in the
    lobby the room closes for everyone (its page is the room); at the table the game goes
    on at the seat that hosts next (`successor`, the handover's own rule, as every page names
    it: "Eva hosts it from now on"), or, with nobody to host, it ends for everyone. None for
    any other page (its own question)."""
    if in_room != "host" or read(model, "screen") != "table":
        return None
    players = read(model, "players", []) or []
    nxt = successor(players, read(model, "host_seat", 0))
    if nxt is None:
        return ctx.t("leave_ask_host_end")
    return ctx.t("leave_ask_host_next", name=seat_name(player_list(model), nxt, ctx))


def silent_words(model, ctx, seat, name, left):
    """The paused table's banner while the host (`seat`, called `name`) is silent, `left`
    seconds before it counts as gone: and what comes then, the seat that takes over as
    every page names it (`successor`: "then Bob takes over", "then you take over"
    on its own page); with nobody to take over, the plain countdown."""
    players = read(model, "players", []) or []
    nxt = successor(players, seat)
    if nxt is None:
        return ctx.t("conn_host_silent", name=name, s=left)
    if nxt == read(model, "seat"):
        return ctx.t("conn_host_silent_me", name=name, s=left)
    return ctx.t("conn_host_silent_next", name=name, s=left,
                 next=seat_name(player_list(model), nxt, ctx))
