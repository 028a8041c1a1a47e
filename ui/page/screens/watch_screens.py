"""What the screens say of who watches the room (docs/protocol.md "Spectators"; the Client
keeps it: ui/page/client/watchers.py), es/en: "Cleo is watching" for everyone, the seat taker's
"You took Bea's seat: these cards are unknown to you", a full room's offer to watch and to
play in the next game, and the host's "Zoe is waiting for a seat" with `make-room`. Pure
(ui/page/dom/vdom.py trees), placed by ui/page/screens/screens.py.
"""

from ui.page.screens.faces import shown_name
from ui.page.dom.vdom import h, isolate
from ui.page.screens.viewmodel import read
from ui.page.screens.widgets import button, has_name, name_input
from ui.shared.limits import MAX_PLAYERS


def watchers_line(model, ctx):
    """One line for everyone at the table and in the lobby: who watches ("Cleo is watching",
    "Someone is watching"; in a lobby "Someone has opened the invitation"), who waits for a
    seat (but in the host's lobby, where the make-room box says it: `make_room_box`); None
    while there is nothing to say."""
    people = read(model, "watchers", []) or []
    if not people:
        return None
    parts = []
    named = [isolate(w["name"]) for w in people if w.get("name") and not w.get("next")]
    waiting = [isolate(w["name"]) for w in people if w.get("name") and w.get("next")]
    unnamed = len([w for w in people if not w.get("name")])
    if named:
        parts.append(ctx.tn("w_watching", len(named), names=", ".join(named)))
    if unnamed:
        # in a lobby there is no game to watch: every friend's page opens the link as a
        # spectator before she types her name ("Someone has opened the invitation")
        key = "w_opened" if read(model, "screen") == "lobby" else "w_someone"
        parts.append(ctx.tn(key, unnamed, n=unnamed))
    if waiting and not host_lobby(model):
        key = "w_waiting_lobby" if read(model, "screen") == "lobby" else "w_waiting_next"
        parts.append(ctx.tn(key, len(waiting), names=", ".join(waiting)))
    if not parts:
        return None
    return h("p", {"class": "hint words-note watchers", "data-testid": "watchers",
                   "role": "status"}, " \u00b7 ".join(parts))


def host_lobby(model):
    """Whether this is the host's lobby, where `make_room_box` says who waits for a seat."""
    return bool(read(model, "is_host", False)) and read(model, "screen") == "lobby"


def took_note(model, ctx):
    """The seat taker's note while the round it sat down in lasts: whose seat, and that it
    has never seen these cards (nor its peek); the seat's points go on."""
    took_it = read(model, "took")
    view = read(model, "view", {}) or {}
    if not isinstance(took_it, dict) or view.get("round") != took_it.get("round") \
            or view.get("phase") not in ("peek", "play", "last_turns"):
        return None
    was = took_it.get("was")
    # (`was`: often a bot's name, without its face where the page shows none)
    text = (ctx.t("took_seat_me", name=isolate(shown_name(was, ctx.faces))) if was
            else ctx.t("took_seat_me_any"))
    return h("p", {"class": "hint note-warn words-note", "data-testid": "took-seat",
                   "role": "note"}, text)


def room_full(model):
    """Whether a guest watching a lobby finds it full (MAX_PLAYERS seats, bots included)."""
    lobby = read(model, "lobby") or {}
    return (bool(read(model, "spectator", False)) and read(model, "seat") is None
            and not lobby.get("started") and len(lobby.get("players") or []) >= MAX_PLAYERS)


def invite_hint(model):
    """The invitation's hint, true to the lobby: "invite_hint" (send the link: they join
    from their phone), or "invite_full" once it holds MAX_PLAYERS seats (a friend who opens
    the link watches and waits for a seat: `room_full_tree`)."""
    lobby = read(model, "lobby") or {}
    players = lobby.get("players") if isinstance(lobby, dict) else None
    full = isinstance(players, list) and len(players) >= MAX_PLAYERS
    return "invite_full" if full else "invite_hint"


def room_full_tree(model, ui, ctx):
    """The join screen of a full room: it says so before any name is typed, offers to watch
    (the game shows here once it starts) and to play as soon as a seat frees up or in the
    next game (`wait-seat`, a `sit` without seat); once asked, `seat-asked`."""
    ask = read(model, "ask")
    if isinstance(ask, dict):
        body = [h("p", {"class": "hint", "data-testid": "seat-asked"},
                  ctx.t("asked_free_seat"))]
    else:
        ok = has_name(ui)
        body = [name_input(ui, ctx),
                button(ctx, "wait-seat", ctx.t("wait_seat"),
                       ("local", "sit", None) if ok else None, "btn primary big")]
    return h("main", {"class": "panel join"},
             h("div", {"class": "hero"},
               h("h2", {"data-testid": "room-full"}, ctx.t("room_full_title")),
               h("p", {"class": "tagline"}, ctx.t("room_full_offer"))),
             body)


def make_room(lobby):
    """What the host's lobby says to friends waiting for a seat, true to the room's state:
    (key, seat) with `lobby` the room's lobby ({"players": [{"seat", "bot"...}], "host"}).
    ("w_waiting_full", the last bot's seat): the room is full and a bot may leave for them
    (`make-room` removes that bot: the first friend waiting takes its seat);
    ("w_waiting_people", None): full of people, no bot to remove: they play when someone
    leaves or in the next game; ("w_waiting_lobby", None): a seat is free (the room seats
    them in it at once: the lobby only says who waits)."""
    lobby = lobby if isinstance(lobby, dict) else {}
    players = [p for p in lobby.get("players") or [] if isinstance(p, dict)]
    if len(players) < MAX_PLAYERS:
        return "w_waiting_lobby", None
    host = lobby.get("host", 0)
    bots = [p.get("seat") for p in players if p.get("bot") and p.get("seat") != host
            and isinstance(p.get("seat"), int) and not isinstance(p.get("seat"), bool)]
    if not bots:
        return "w_waiting_people", None
    return "w_waiting_full", bots[-1]


def make_room_box(model, ctx):
    """The host's lobby, when friends wait for a seat: who, and how they get one
    (`make_room`); `make-room` when a bot may leave for them; None otherwise."""
    people = [w for w in read(model, "watchers", []) or [] if w.get("next") and w.get("name")]
    if not people or not host_lobby(model):
        return None
    key, bot = make_room(read(model, "lobby"))
    names = ", ".join([isolate(w["name"]) for w in people])
    return h("section", {"class": "card-box words-note waiting-friends",
                         "data-testid": "friends-waiting", "role": "status"},
             h("p", None, ctx.tn(key, len(people), names=names)),
             button(ctx, "make-room", ctx.t("make_room"),
                    ("intent", "remove", {"seat": bot}), "btn primary")
             if bot is not None else None)
