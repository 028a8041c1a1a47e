"""Per-seat views and event filtering: the only door from the engine to a player (R9).

A view is a projection of the game for one seat: it holds what that seat may know at this
moment and nothing else. Cards shown "once" never appear in a view; they travel as private
``reveal`` events, which :func:`events_for` lets through only to their seat.
"""

from .actions import END_PHASES, PLAY_PHASES, POSITIONS


def view_for(game, seat, now):
    """The view of ``game`` for ``seat`` at ``now`` (ms), a JSON-safe dict (docs/protocol.md).

    Face-down cards are ``None``; every hand is public once the round is over (R6.2, R9.1).
    The held card is shown to its holder, and to everyone when it came from the discard.
    Remaining times are in ms from ``now``. ``allowed`` lists what the seat may do, grouped
    for a UI (from :meth:`Game.legal_actions`). Does not fire deadlines: call ``advance``
    first. Raises ``ValueError`` for a seat that is not at the table.
    """
    n = game.players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ValueError("no such seat")
    return _project(game, seat, now)


def spectator_view(game, now):
    """The view of ``game`` for a spectator at ``now`` (ms): public information only (R9).

    The same shape as :func:`view_for` with ``seat`` None: every face-down card is ``None``
    (all hands are public once the round is over, R6.2), the held card is shown only when it
    came from the discard pile, and ``allowed`` is empty (a spectator does nothing).
    """
    return _project(game, None, now)


def _project(game, seat, now):
    """The view for ``seat`` (an index, or None for a spectator)."""
    n = game.players
    over = game.phase in END_PHASES
    if over:
        hands = [list(hand) for hand in game.hands]
    else:
        hands = [[None, None, None] for _ in range(n)]
    held = None
    if game.held is not None:
        visible = game.turn == seat or game.held_from == "discard"
        held = {"seat": game.turn, "from": game.held_from,
                "card": game.held if visible else None}
    playing = game.phase in PLAY_PHASES
    start_in = 0
    if playing and not game.drew:
        start_in = max(0, game.start_at - now)
    window = None
    if game.window is not None and now < game.window[1]:
        window = {"seat": game.window[0], "left": game.window[1] - now}
    last_turns_left = 0
    if game.phase == "last_turns":
        last_turns_left = (game.caller - game.turn) % n
    return {
        "seat": seat,
        "players": n,
        "options": dict(game.options),
        "phase": game.phase,
        "round": game.round,
        "dealer": game.dealer,
        "turn": game.turn if playing else None,
        "caller": game.caller,
        "hands": hands,
        "held": held,
        "pending_draws": game.pending_draws,
        "deck_count": len(game.deck),
        "discard": list(game.discard),
        "ready": list(game.ready),
        "peek_left": (max(0, game.peek_deadline - now)
                      if game.phase == "peek" and game.peek_deadline is not None else None),
        "start_in": start_in,
        "draw_left": (max(0, game.draw_deadline - now)
                      if playing and game.draw_deadline is not None else None),
        "crisp_window": window,
        "last_turns_left": last_turns_left,
        "round_points": list(game.round_points) if game.round_points is not None else None,
        "scores": list(game.scores),
        "winners": list(game.winners) if game.winners is not None else None,
        "allowed": allowed_for(game, seat, now) if seat is not None else [],
    }


def allowed_for(game, seat, now):
    """What ``seat`` may do now, grouped for a UI: one entry per action kind with its choices.

    ``draw`` lists its sources, ``swap`` its positions, ``queen`` its own positions, target
    seats and target positions (every combination of them is legal when listed).
    """
    grouped = []
    by_kind = {}
    for action in game.legal_actions(seat, now):
        kind = action["do"]
        entry = by_kind.get(kind)
        if entry is None:
            entry = {"do": kind}
            by_kind[kind] = entry
            grouped.append(entry)
        if kind == "draw":
            entry.setdefault("from", []).append(action["from"])
        elif kind == "swap":
            entry.setdefault("pos", []).append(action["pos"])
        elif kind == "queen":
            for key, value in (("pos", action["pos"]), ("targets", action["target"]),
                               ("target_pos", action["target_pos"])):
                values = entry.setdefault(key, [])
                if value not in values:
                    values.append(value)
    for entry in grouped:
        if entry["do"] == "queen":
            entry["pos"] = [pos for pos in POSITIONS if pos in entry["pos"]]
            entry["target_pos"] = [pos for pos in POSITIONS if pos in entry["target_pos"]]
            entry["targets"].sort()
    return grouped


def events_for(events, seat):
    """The events ``seat`` may receive: public ones, and private ones addressed to it.

    ``events``: a list of event dicts from the engine. Returns a new list, order kept.
    """
    return [event for event in events if event.get("to", seat) == seat]


def public_events(events):
    """The events a spectator may receive: the public ones (no ``to``), order kept."""
    return [event for event in events if "to" not in event]


def shown_by(events):
    """Cards shown privately by ``events``: ``{seat: [card, ...]}`` in the order shown."""
    shown = {}
    for event in events:
        if event.get("type") == "reveal":
            for item in event["cards"]:
                shown.setdefault(event["to"], []).append(item["card"])
    return shown
