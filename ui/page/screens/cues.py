"""What the table plays when new events arrive: cards flying from where they were to where they
go, the announcement of a turn or a call, and the sound and vibration that go with it.

Pure (no `js`): the page (ui/page/screens/render.py) finds the events that are new since its last render,
asks `flights` and `cue` what to play, and plays it. Runs on MicroPython, Pyodide and CPython.
"""

FLIGHT_MS = 400          # one card's flight: slow enough to follow, quick enough not to wait
MAX_STEPS = 3            # a backlog (a tab back from the background) plays its last steps only
ANNOUNCE_MS = 2400       # how long an announcement stays on screen

# Short tones per cue: (Hz, start ms, length ms). Rising for your turn, quick and high for a
# call, falling for the end of a round.
TONES = {
    "your_turn": ((660, 0, 110), (880, 120, 170)),
    "last_turn": ((660, 0, 110), (880, 120, 110), (1100, 240, 190)),
    "crisp": ((1320, 0, 80), (1320, 110, 80), (1760, 220, 220)),
    "round_over": ((784, 0, 150), (659, 160, 150), (523, 320, 260)),
    "game_over": ((523, 0, 150), (659, 160, 150), (784, 320, 150), (1047, 480, 320)),
}
# navigator.vibrate patterns (ms on, off, on...)
VIBRATIONS = {
    "your_turn": [90],
    "last_turn": [90, 60, 90],
    "crisp": [60, 40, 60, 40, 160],
    "round_over": [120],
    "game_over": [120, 80, 200],
}


def card_id(seat, pos):
    """The data-testid of a seat's card place."""
    return "card-" + str(seat) + "-" + str(pos)


def _moves(ev):
    """The card movements of one event, in steps: [[(from testid, to testid, card|None)]].
    A card is given only when the event made it public (the discard pile's cards)."""
    ty = ev.get("type")
    seat = ev.get("seat")
    if ty == "draw":
        if ev.get("from") == "discard":
            return [[("discard", "held-card", ev.get("card"))]]
        return [[("deck", "held-card", None)]]
    if ty == "swap":
        slot = card_id(seat, ev.get("pos"))
        return [[("held-card", slot, ev.get("taken")), (slot, "discard", ev.get("card"))]]
    if ty in ("discard", "jack", "king"):
        return [[("held-card", "discard", ev.get("card"))]]
    if ty == "queen":
        a = card_id(seat, ev.get("pos"))
        b = card_id(ev.get("target"), ev.get("target_pos"))
        return [[("held-card", "discard", ev.get("card"))], [(a, b, None), (b, a, None)]]
    if ty == "timeout" and ev.get("card"):
        # forced: the room drew the card for the player and discarded it (R10.2)
        src = "deck" if ev.get("forced") else "held-card"
        return [[(src, "discard", ev.get("card"))]]
    if ty == "recycle":
        return [[("discard", "deck", None)]]
    return []


def flights(events):
    """The flights for `events` (the public events new since the last render, oldest first):
    [{"from": testid, "to": testid, "card": code | None, "delay": ms}]. The movements of one
    event fly together (a swap: the drawn card into the hand and the replaced card onto the
    discard pile); events and the steps of a Queen follow each other, FLIGHT_MS apart. Only
    the last MAX_STEPS steps are kept."""
    steps = []
    for ev in events:
        if isinstance(ev, dict) and "to" not in ev:
            steps.extend(_moves(ev))
    steps = steps[-MAX_STEPS:]
    out = []
    for i in range(len(steps)):
        for src, dst, card in steps[i]:
            out.append({"from": src, "to": dst, "card": card, "delay": i * FLIGHT_MS})
    return out


DEAL_MS = 1800           # a whole deal, 8 seats' 24 cards included: under 2 s
DEAL_FLIGHT_MS = 320     # one dealt card's flight
DEAL_GAP_MS = 150        # between two dealt cards at a small table (fewer cards, same pace)


def deal_flights(players, dealer):
    """The flights of a deal (R2.2): one card at a time, clockwise from the player on the
    dealer's left, three times round the table, a player's first card to their left place,
    the second to the centre, the third to the right. Each flies face down (card None) from
    the dealer's seat ("seat-<dealer>"), DEAL_FLIGHT_MS long; they follow each other so the
    whole deal ends within DEAL_MS: [{"from", "to", "card", "delay" ms, "ms", "deal": True}].
    [] when `players` or `dealer` is not a seat count / seat (a view from a hostile host)."""
    if not isinstance(players, int) or not isinstance(dealer, int) or isinstance(players, bool) \
            or isinstance(dealer, bool) or not 2 <= players <= 8 or not 0 <= dealer < players:
        return []
    cards = 3 * players
    gap = min(DEAL_GAP_MS, (DEAL_MS - DEAL_FLIGHT_MS) // (cards - 1))
    out = []
    for r, pos in enumerate(("left", "center", "right")):
        for k in range(players):
            seat = (dealer + 1 + k) % players
            out.append({"from": "seat-" + str(dealer), "to": card_id(seat, pos), "card": None,
                        "delay": (r * players + k) * gap, "ms": DEAL_FLIGHT_MS, "deal": True})
    return out


def fresh_deal(view, me, last_phase):
    """Whether the table in `view` (a player's view dict) is a deal to play: the round's peek
    (R2.4) newly shown (`last_phase`, the phase this page showed before, was another one or
    none) and this seat (`me`, None for a spectator) not yet ready. A page reloaded in the
    peek before its player looked plays it again; one reloaded after does not."""
    if not isinstance(view, dict) or view.get("phase") != "peek" or last_phase == "peek":
        return False
    ready = view.get("ready")
    if isinstance(me, int) and isinstance(ready, list) and 0 <= me < len(ready):
        return not ready[me]
    return True


PLAY = ("play", "last_turns")


def my_turn(view, me):
    """Whether `view` (a player's view dict) is seat `me`'s turn in a phase of play."""
    return (isinstance(view, dict) and me is not None and view.get("turn") == me
            and view.get("phase") in PLAY)


def _may_draw(view):
    for entry in view.get("allowed") or []:
        if isinstance(entry, dict) and entry.get("do") == "draw":
            return True
    return False


def turn_cue(view, me, start_left=0):
    """The cue of seat `me`'s turn as the table is now, or None: {"kind": "your_turn" |
    "last_turn" (while the last turns are played, R6.2), "seat": me, "n": last turns left}
    only once the turn can be played: its start delay over (`start_left`, ms left of it as
    the table shows it, R10.1) and the room offering the draw (the deck answers a tap), or
    the turn under way (a card held, a King's next draw). The sound never sends a player to
    a deck that does not answer yet."""
    if not my_turn(view, me) or start_left:
        return None
    held = view.get("held")
    if not _may_draw(view) and not (isinstance(held, dict) and held.get("seat") == me):
        return None
    kind = "last_turn" if view.get("phase") == "last_turns" else "your_turn"
    return {"kind": kind, "seat": me, "n": view.get("last_turns_left") or 0}


def turn_began(events, me):
    """True when `events` begin a turn of seat `me` (its `turn`, or the round's `play` on
    its turn): its cue waits until the turn can be played (`turn_cue`)."""
    if me is None:
        return False
    for ev in events:
        if isinstance(ev, dict) and "to" not in ev and (
                (ev.get("type") == "turn" and ev.get("seat") == me)
                or (ev.get("type") == "play" and ev.get("turn") == me)):
            return True
    return False


def cue(events, me, view, start_left=0):
    """The one announcement for `events` (new since the last render), or None:
    {"kind": "crisp" | "game_over" | "round_over" | "last_turn" | "your_turn", "seat": s,
     "n": last turns left, "mine": (crisp) this seat's turn is the first last turn}. A call
    wins over the rest; the end of a game over the end of a round; then this seat's turn
    ("last_turn" while the last turns are played, R6.2). Each only while it is still true
    of the table now (`view`: a page back from the background gets a backlog of events and
    must not buzz for a turn gone by): a call while the last turns of that call are played,
    an end while the table shows it, a turn once it can be played (`turn_cue`, with
    `start_left` ms left of its start delay)."""
    kinds = {}
    for ev in events:
        if not isinstance(ev, dict) or "to" in ev:
            continue
        ty = ev.get("type")
        if ty == "crisp":
            kinds["crisp"] = ev.get("seat")
        elif ty in ("round_over", "game_over"):
            kinds[ty] = None
        elif ty == "turn" and me is not None and ev.get("seat") == me:
            kinds["turn"] = me
        elif ty == "play" and me is not None and ev.get("turn") == me:
            kinds["turn"] = me                      # the round's first turn is mine
    view = view if isinstance(view, dict) else {}
    phase = view.get("phase")
    left = view.get("last_turns_left") or 0
    if "crisp" in kinds and phase == "last_turns" and view.get("caller") == kinds["crisp"]:
        # "mine": the call made this seat's turn, already begun, one of the last turns
        return {"kind": "crisp", "seat": kinds["crisp"], "n": left,
                "mine": view.get("turn") == me and me is not None and kinds["crisp"] != me}
    for kind in ("game_over", "round_over"):
        if kind in kinds and phase == kind:
            return {"kind": kind, "seat": None, "n": 0}
    if "turn" in kinds:
        return turn_cue(view, me, start_left)
    return None


def new_events(log, last):
    """The events of `log` after the event object `last` (the newest one seen before), or []
    when `last` is not in it: a new round or a rejoin started the log over, and what it
    replays has happened already."""
    if last is None or not log:
        return []
    for i in range(len(log) - 1, -1, -1):
        if log[i] is last:
            return log[i + 1:]
    return []
