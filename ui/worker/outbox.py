"""The room's outbox: what each connection is sent after a change (docs/protocol.md "Room
messages": `view`, `lobby`). Each seat gets its own view (crisp_core.views) with the events it
may see, a (re)joining seat the round's replay, spectators the public projection, everyone
the lobby before the game; the room's bots are asked for their next move from the same view.
Also the round's record (the log a replay is cut from, the standings' history, the games
won). Functions of the Room (ui/worker/room.py); outputs are [(conn, message dict)].
Room-only (the engine worker); pure Python.
"""

from crisp_core import bot_expert, events_for, public_events, spectator_view, view_for
from ui.shared import wire
from ui.shared.wire import MAX_TEXT
from ui.worker import away, guide, idle

LOG_REPLAY = 40               # public events of the round replayed to a (re)joining seat
LOG_KEEP = 300                # events of the round the room keeps for replays


def after_change(room, events, now):
    """Record `events` (the engine's), then send every seat its view with the events it may
    receive, and the round's proof when it ended (FairDeal)."""
    room._record(events)
    guide.hold(room, events, now)           # the guided round's window waits for its tip
    idle.end_turns(room)          # a bot that played one turn for a person stops once it passed
    room.deal.cheat_now()
    return room.deal.proof(events) + views(room, events, now)


def views(room, events, now, replay_to=None, only=None, people=False):
    """Every seat's view (only seat `only`'s when given), with its share of `events`; seat
    `replay_to` gets the round's replay instead (and before it the round's `fair`, and its
    proof once the round is over). Bots plan from the view they get; spectators get the public view. `people`:
    only the connected seats and the spectators (nothing moved at the table, e.g. who
    watches changed: `watchers_changed`), the bots left to their plans."""
    out = []
    table = players(room)
    for index, seat in enumerate(room.seats):
        if only is not None and index != only:
            continue
        if people and seat.conn is None:
            continue
        mine = replay(room, index, now) if index == replay_to else events_for(events, index)
        if seat.conn is None and seat.agent is None:
            continue
        if index == replay_to and seat.conn is not None:
            out += [(seat.conn, msg) for msg in room.deal.replay()]
        view = seat_view(room, index, now)
        shown = idle.person_view(seat, view)  # (a bot plays this turn: nothing to tap)
        seat.n += 1
        if shown["allowed"] != seat.allowed:
            seat.allowed = shown["allowed"]   # what it may do changed with this view
            seat.allowed_n = seat.n
        msg = view_message(room, seat.n, shown, mine, table, replay=index == replay_to)
        if seat.conn is not None:
            out.append((seat.conn, msg))
        if seat.agent is not None:
            seat.plan = plan(room, index, view, mine, now)
    if room.spectators:
        msg = spectator_message(room, table, public_events(events))
        out += [(conn, msg) for conn in room.spectators]
    return out


def slicing(room):
    """The playouts of one slice of a bot's search at this table (about 20 ms in the engine
    worker at most: crisp_core.bot_expert.SLICE, bench/bot_bench.py)."""
    return bot_expert.slice_for(len(room.seats))


def seat_view(room, index, now):
    """Seat `index`'s view at `now`: only the host may start the next round."""
    view = view_for(room.game, index, now)
    if index != room.host:
        view["allowed"] = [a for a in view["allowed"] if a.get("do") != "next_round"]
    return view


def plan(room, index, view, events, now):
    """Ask seat `index`'s bot for its next move. A bot that fails (its memory came from a
    tampered save and does not fit the table) is replaced by a fresh one, which starts
    from what the seat was shown this round: a bot never takes the room down. With
    `room.sliced_bots` (the engine worker's) a searching bot thinks a slice at a time
    (`slicing`): its plan is then `{"at": now, "action": {"do": "think"}}` until it is
    done, and the room's ticks go on with it (play.run_bots), serving every message between."""
    seat = room.seats[index]
    try:
        if room.sliced_bots and hasattr(seat.agent, "think"):
            return seat.agent.plan(view, events, now, slicing=slicing(room))
        return seat.agent.plan(view, events, now)
    except Exception:
        seat.agent = None
        level = seat.bot or seat.stand_in or (seat.turn_bot or (None,))[0]
        if room.make_bot is None or level is None:
            return None
        seat.agent = room.make_bot(level, index)
        try:
            return seat.agent.plan(view, events_for(room.log, index), now)
        except Exception:
            return None


def _under_limit(make, events):
    """The message `make(events)` encoded, always under MAX_TEXT: the oldest events go first
    when it is not."""
    while True:
        msg = wire.encoded(make(events))
        if wire.size(msg) < MAX_TEXT or not events:
            return msg
        events = events[max(1, len(events) // 4):]


def spectator_message(room, table, events):
    """A view message for spectators: the spectator projection (public information only,
    crisp_core.spectator_view) and public events."""
    view = spectator_view(room.game, room.now)
    extra = watching(room)
    return _under_limit(lambda some: wire.message("view", n=0, view=view, events=some,
                                                  players=table, **extra), events)


def watchers(room):
    """The room's spectators as every screen may show them (docs/protocol.md "Spectators"):
    [{"name": the name it asked with, or None before it asked, "next": True when it waits
    for a seat in the next game (or, in a full lobby, for a seat to free up)}], in the order
    they came; at most MAX_SPECTATORS (the room holds no more)."""
    out = []
    for watcher in room.spectators.values():
        ask = watcher["ask"]
        out.append({"name": ask["name"] if ask is not None else None,
                    "next": ask is not None and ask["seat"] is None})
    return out


def watching(room):
    """The `watchers` field of a lobby or a view: {} while nobody watches (left out)."""
    return {"watchers": watchers(room)} if room.spectators else {}


def replay(room, index, now):
    """What a (re)joining seat gets: the round's last public events, and its peek again
    while it has not confirmed it (the peek is shown until the seat is ready, R2.4)."""
    public = [e for e in events_for(room.log, index) if "to" not in e][-LOG_REPLAY:]
    peek = room.peeks.get(index)
    if peek is not None:
        view = view_for(room.game, index, now)
        if view.get("phase") == "peek" and not view["ready"][index]:
            public.append(peek)
    return public


def view_message(room, n, view, events, table, replay=False):
    """One view message, always under 16 KB: the oldest events go first if it is not.
    `replay`: its events are the round's replay (a (re)joined or resynced seat): the
    client starts its log over."""
    extra = {"replay": True} if replay else {}
    extra.update(watching(room))
    return _under_limit(lambda some: wire.message(
        "view", n=n, view=view, events=some, players=table, history=room.history,
        games=room.games, **extra), events)


def watchers_changed(room, but=None):
    """Who watches changed (a spectator came or went): every screen but `but`'s hears it,
    the lobby again or, at the table, a view that moves nothing."""
    return [(conn, msg) for conn, msg in people_changed(room) if conn != but]


def people_changed(room):
    """Something of the people changed, nothing at the table (who watches, a seat's link
    slow or no longer): every screen hears it, the lobby again or, at the table, a view that
    moves nothing (what each seat may do is the same: no tap in flight goes stale)."""
    if room.game is not None:
        return views(room, [], room.now, people=True)
    return broadcast(room)


def broadcast(room, replay_to=None):
    """Send the lobby to everyone, or, once started, every seat its view."""
    if room.game is not None:
        return views(room, [], room.now, replay_to=replay_to)
    msg = lobby(room)
    return ([(seat.conn, msg) for seat in room.seats if seat.conn is not None]
            + [(conn, msg) for conn in room.spectators])


def players(room):
    """Each seat's name, bot level, presence and games won; `slow`: True for a seat there
    whose link is slow (seats.ping); `asks`: the name of a
    spectator asking for that seat (docs/protocol.md "Spectators"), when one does;
    `skip_in`: for an away seat the game waits for, the ms until the room plays its part
    (its peek confirmed, its turn timed out: away.forfeit_at, R2.4, R10.2); `waited`: for
    the turn of a person here that waited IDLE_TURN_MS, how long (ms, idle.offered);
    `turn_bot`: the level of the bot the host let play this turn for the person here."""
    table = [wire.player(i, s.name, s.bot or s.stand_in,
                         s.bot is not None or (s.conn is not None and s.away_since is None),
                         s.wins)
             for i, s in enumerate(room.seats)]
    for i, entry in enumerate(table):
        if entry["connected"] and room.seats[i].slow and room.seats[i].conn is not None:
            entry["slow"] = True      # its link is slow: every screen says so at its place
        due = away.forfeit_at(room, i) if not entry["connected"] and i != room.host else None
        if due is not None:
            entry["skip_in"] = max(0, due - room.now)
        idle_ms = idle.offered(room, i, room.now)
        if idle_ms is not None:
            entry["waited"] = idle_ms
        if room.seats[i].turn_bot is not None:
            entry["turn_bot"] = room.seats[i].turn_bot[0]
    for watcher in room.spectators.values():
        ask = watcher["ask"]
        if ask is not None and ask["seat"] is not None and ask["seat"] < len(table) \
                and "asks" not in table[ask["seat"]]:
            table[ask["seat"]]["asks"] = ask["name"]
    return table


def lobby(room):
    """The `lobby` message: seats, options, the host's seat, started, games played."""
    return wire.lobby(players(room), room.options, room.host, room.game is not None,
                      room.games, watchers(room))


def record(room, events):
    """Keep the round's record: its log (cut to LOG_KEEP; a deal starts it over), each
    seat's peek, the finished rounds' points and the games won."""
    for event in events:
        if event.get("type") == "deal":
            room.log = []
            room.peeks = {}
        room.log.append(event)
        if event.get("type") == "round_over":
            room.history.append(list(event.get("round_points") or []))
        elif event.get("type") == "game_over":
            room.games += 1
            for w in event.get("winners") or []:
                if 0 <= w < len(room.seats):
                    room.seats[w].wins += 1
        if event.get("type") == "reveal" and event.get("reason") == "peek":
            room.peeks[event["to"]] = event
    if len(room.log) > LOG_KEEP:
        room.log = room.log[-LOG_KEEP:]
