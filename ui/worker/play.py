"""The play in the host's room: an action from a seat or a bot, checked and applied through the
engine, and what falls due on the engine's clock (docs/protocol.md "Room").

Functions of the Room (ui/worker/room.py); outputs are [(conn, message dict)]. Pure Python like
the room: no `js`, no clock, no I/O; `now` is ms on the host's clock.
"""

import random

from crisp_core import Bot, IllegalAction
from crisp_core.actions import ActionError, check_shape
from ui.shared import wire
from ui.shared.wire import BadMessage
from ui.worker import away, idle, outbox
from ui.worker.seats import LOCAL


def bot_maker(seed, pace=1.0):
    """A `make_bot` for Room: crisp_core bots, each with its own `random.Random` seeded from
    the room's seed and its seat (never the global random). `pace` scales their think times
    (1: a person's pace; the host page's test-only `?botpace=`)."""
    def make_bot(level, seat):
        return Bot(seat, level, random.Random("crisp-bot:%s:%d" % (seed, seat)), pace)
    return make_bot


def check_action(action, players):
    """Check an action's shape (crisp_core.actions, with `target` a seat of this room) and
    return it; legality is the engine's job. Raises BadMessage `bad_message`."""
    try:
        check_shape(action, players)
    except ActionError as e:
        raise BadMessage("bad_message", str(e))
    return action


def act(room, conn, msg, now):
    """An engine action from a seat (`action`), for the view `n` it answers."""
    action = msg["action"]
    seat = room.conns[conn]
    check_action(action, len(room.seats))
    if "n" in msg:
        _fresh(room.seats[seat], msg["n"])
    idle.refuse_person(room.seats[seat])
    if action["do"] == "next_round" and conn != LOCAL:
        raise BadMessage("not_host", "only the host starts the next round")
    return room.apply(seat, action, now)


def _fresh(seat, n):
    """An action names the view it answers (`n`): one from before what this seat may do
    last changed is stale (a late tap, a replayed message) and is refused."""
    if not wire.is_int(n) or not 0 <= n <= seat.n:
        raise BadMessage("bad_message", "n must be the number of a view you received")
    if n < seat.allowed_n:
        raise BadMessage("stale", "the table has changed since that view")


def apply(room, seat, action, now):
    """Fire what is due, then apply one checked action for `seat` through the engine."""
    out = room.advance(now)
    if (action["do"] == "next_round" and room.game.phase == "round_over"
            and room.deal.wanted()):
        return out + room.deal.begin(now)   # commit first, deal once contributions are in
    try:
        events = room.game.apply(seat, action, now)
    except IllegalAction as e:
        out.append((room.seats[seat].conn, wire.error(e.code, str(e))))
        return out
    room.moved = (seat, now)
    return out + outbox.after_change(room, events, now)


def advance(room, now, changed=False):
    """Fire what is due at `now` (the engine's deadlines, away players' parts) and send
    views when anything moved (a passed deadline may change only what a seat may do)."""
    deadline = room.game.next_deadline()
    events = room.game.advance(now) + away.forfeits(room, now)
    if changed or events or (deadline is not None and deadline <= now):
        return outbox.after_change(room, events, now)
    return []


def think(room, index, now):
    """One more slice of seat `index`'s search (outbox.slicing playouts): its next plan.
    A bot with no search under way (a fresh one after a reload) plans afresh from the
    seat's view; a bot that fails is replaced (outbox.plan)."""
    seat = room.seats[index]
    try:
        plan = seat.agent.think(now, outbox.slicing(room))
    except Exception:
        plan = None
    if plan is None and seat.agent is not None:
        view = outbox.seat_view(room, index, now)
        plan = outbox.plan(room, index, view, [], now)
    return plan


def run_bots(room, now):
    """Apply the bots' plans due at `now`, each through the same checks as a person's action;
    a plan of the wrong shape is dropped; a bot still thinking (`think`) thinks one more
    slice (`think`). The outputs for connected seats."""
    out = []
    for index, seat in enumerate(room.seats):
        plan = seat.plan
        if plan is None or plan["at"] > now or room.game is None:
            continue
        seat.plan = None
        if isinstance(plan["action"], dict) and plan["action"].get("do") == "think":
            seat.plan = think(room, index, now)
            continue
        try:
            action = check_action(plan["action"], len(room.seats))
        except BadMessage:
            continue
        out += [o for o in room.apply(index, action, now) if o[0] is not None]
    return out
