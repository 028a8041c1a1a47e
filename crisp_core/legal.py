"""What the rules allow: the lobby's options (R10) and which action a seat may take now.

The engine's questions "may this seat do this now?" and "what may it do?", asked of a
:class:`crisp_core.game.Game` without changing it: :func:`check` (one action, refused with
:class:`IllegalAction`) and :func:`legal_actions` (every concrete action). The state machine
itself, and what an allowed action does, are in ``crisp_core.game``, which re-exports
:class:`IllegalAction`, :func:`normalize_options` and the refusal codes. Plain functions, no
imports beyond ``crisp_core``: guests run it on MicroPython (the round check).
"""

from . import cards
from .actions import PLAY_PHASES, POSITIONS, ActionError, check_shape, is_int

TARGETS = (50, 100, 150)
DRAW_SECONDS = (None, 30, 45, 60)
#: The codes of a refusal (IllegalAction.code), as the room sends them (docs/protocol.md).
ILLEGAL = "illegal"                # not allowed now
NOT_YOUR_TURN = "not_your_turn"    # a turn action (R3) from a seat whose turn it is not
BAD_ACTION = "bad_message"         # not an action at all (crisp_core.actions.check_shape)


class IllegalAction(Exception):
    """An action that is malformed or not allowed now; the game state is unchanged.

    ``str(exc)`` is a short English reason. ``events`` holds the events of deadlines that
    fired (at or before ``now``) before the action was refused: those still happened.
    ``code`` says what kind of refusal it is, as the room's ``error`` message names it:
    ``"not_your_turn"`` (a turn action from another seat, or outside play),
    ``"bad_message"`` (an action of the wrong shape) or ``"illegal"`` (anything else).
    """

    def __init__(self, reason, events=None, code=ILLEGAL):
        super().__init__(reason)        # (MicroPython has no Exception.__init__)
        self.reason = reason
        self.events = events or []
        self.code = code


def normalize_options(options):
    """Return the lobby options (R10) as a complete dict, defaults filled in.

    ``options``: dict with ``players`` (2-8, required), ``target`` (50/100/150, default 100),
    ``draw_seconds`` (None/30/45/60, default None), ``draw_from_discard`` (bool, default
    False). Raises ``ValueError`` for an unknown key or a value out of range.
    """
    if not isinstance(options, dict):
        raise ValueError("options must be an object")
    unknown = set(options) - {"players", "target", "draw_seconds", "draw_from_discard"}
    if unknown:
        raise ValueError("unknown option: %s" % sorted(unknown)[0])
    players = options.get("players")
    if not is_int(players) or not 2 <= players <= 8:
        raise ValueError("players must be 2 to 8")
    target = options.get("target", 100)
    if not is_int(target) or target not in TARGETS:
        raise ValueError("target must be 50, 100 or 150")
    draw_seconds = options.get("draw_seconds")
    if draw_seconds is not None and (not is_int(draw_seconds) or draw_seconds not in DRAW_SECONDS):
        raise ValueError("draw_seconds must be null, 30, 45 or 60")
    from_discard = options.get("draw_from_discard", False)
    if not isinstance(from_discard, bool):
        raise ValueError("draw_from_discard must be true or false")
    return {"players": players, "target": target, "draw_seconds": draw_seconds,
            "draw_from_discard": from_discard}


def check(game, seat, action, now):
    """Validate ``action`` for ``seat`` of ``game`` at ``now`` (ms): its shape
    (crisp_core.actions), then whether it is allowed; return it normalized (a new dict) or
    raise :class:`IllegalAction` (code ``bad_message`` for a wrong shape)."""
    try:
        action = check_shape(action)
    except ActionError as exc:
        raise IllegalAction(str(exc), code=BAD_ACTION)
    return allowed(game, seat, action, now)


def legal_actions(game, seat, now):
    """Every concrete action ``seat`` may take at ``now`` (ms), as a list of dicts.

    Does not fire deadlines: call ``game.advance`` first. Queen actions are expanded to
    every (pos, target, target_pos). ``next_round`` is listed for every seat in
    ``round_over``; the room decides who may ask for it.
    """
    legal = []
    for action in _candidates(game, seat):      # well-formed: no shape check needed
        try:
            legal.append(allowed(game, seat, action, now))
        except IllegalAction:
            pass
    return legal


def allowed(game, seat, action, now):
    """Whether a well-formed ``action`` (from ``check_shape``) is allowed for ``seat`` at
    ``now`` (ms): R2.4 (ready), R6 and R10.1 (crisp), R3-R4 and R10.3 (a turn's actions).
    Returns it normalized; raises :class:`IllegalAction` with the reason and code."""
    kind = action["do"]
    if kind == "next_round":
        if game.phase != "round_over":
            raise IllegalAction("the round is not over")
        return {"do": kind}
    if not is_int(seat) or not 0 <= seat < game.players:
        raise IllegalAction("no such seat")
    if kind == "ready":
        if game.phase != "peek":
            raise IllegalAction("not in the peek phase")
        if game.ready[seat]:
            raise IllegalAction("already ready")
        return {"do": kind}
    if kind == "crisp":
        return _check_crisp(game, seat, now)
    # what is left is a turn action (R3): only the turn's seat may take it
    if game.phase not in PLAY_PHASES:
        raise IllegalAction("no turn is being played", code=NOT_YOUR_TURN)
    if seat != game.turn:
        raise IllegalAction("not your turn", code=NOT_YOUR_TURN)
    if kind == "draw":
        return _check_draw(game, action, now)
    return _check_held(game, seat, action)


def _check_held(game, seat, action):
    """What may be done with the card in hand (R3.2, R4): swap, discard, or a special's
    use; ``action`` is a turn action by the turn's seat."""
    kind = action["do"]
    held = game.held
    if held is None:
        raise IllegalAction("draw a card first")
    from_deck = game.held_from == "deck"
    rank = held[0]
    if kind == "swap":
        pos = action["pos"]
        if from_deck and cards.is_special(held):
            raise IllegalAction("a Jack, Queen or King from the deck cannot be swapped in")
        return {"do": kind, "pos": pos}
    if kind == "discard":
        if not from_deck:
            raise IllegalAction("a card taken from the discard must be swapped in")
        if rank == "K":
            raise IllegalAction("a King must be used")
        return {"do": kind}
    wanted = {"jack": "J", "queen": "Q", "king": "K"}[kind]
    if not from_deck or rank != wanted:
        raise IllegalAction("you do not hold a %s from the deck" % kind)
    if kind != "queen":
        return {"do": kind}
    pos, target, target_pos = action["pos"], action["target"], action["target_pos"]
    if not 0 <= target < game.players:
        raise IllegalAction("no such target seat")
    if target == seat:
        raise IllegalAction("a Queen exchanges with another player")
    return {"do": kind, "pos": pos, "target": target, "target_pos": target_pos}


def _check_crisp(game, seat, now):
    if game.phase == "last_turns" or game.caller is not None:
        raise IllegalAction("crisp has already been called")
    if game.phase != "play":
        raise IllegalAction("no turn is being played")
    window = game.window
    if window is None or window[0] != seat or now >= window[1]:
        raise IllegalAction("you may call crisp only just after your turn")
    return {"do": "crisp"}


def _check_draw(game, action, now):
    source = action["from"]
    if game.held is not None:
        raise IllegalAction("resolve the card you hold first")
    if game.drew and game.pending_draws == 0:
        raise IllegalAction("no draw left this turn")
    if not game.drew and now < game.start_at:
        raise IllegalAction("wait: the previous player may still call crisp")
    if source == "discard":
        if not game.options["draw_from_discard"]:
            raise IllegalAction("drawing from the discard is off")
        if not game.discard:
            raise IllegalAction("the discard pile is empty")
    return {"do": "draw", "from": source}


def _candidates(game, seat):
    """Every action that might be allowed for ``seat`` now, well-formed, before the check."""
    if game.phase == "peek":
        return [{"do": "ready"}]
    if game.phase in ("round_over",):
        return [{"do": "next_round"}]
    if game.phase == "game_over":
        return []
    out = [{"do": "crisp"}]
    if seat != game.turn:
        return out
    if game.held is None:
        return out + [{"do": "draw", "from": "deck"}, {"do": "draw", "from": "discard"}]
    out += [{"do": "swap", "pos": pos} for pos in POSITIONS]
    out += [{"do": "discard"}, {"do": "jack"}, {"do": "king"}]
    if game.held[0] == "Q":
        for target in range(game.players):
            if target != seat:
                out += [{"do": "queen", "pos": pos, "target": target, "target_pos": tpos}
                        for pos in POSITIONS for tpos in POSITIONS]
    return out
