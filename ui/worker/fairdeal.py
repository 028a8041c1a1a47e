"""The fair deal: each round dealt from a committed shuffle (docs/protocol.md "Verifiable
shuffle"). `FairDeal` owns the round's commitment (`state`: its secret, the seats asked for a
contribution, the contributions, the deadline, what every seat was told), commits, collects
the guests' contributions, deals, proves at the round's end and replays all that to a
(re)joining seat. Room-only (the engine worker); pure Python, randomness from `secrets`.
"""

import secrets

from crisp_core import Game, shuffle
from crisp_core.cards import value as card_value
from ui.shared import wire
from ui.shared.wire import is_hex, is_int, is_number
from ui.worker import outbox

CONTRIBUTE_MS = 3000          # how long the deal waits for guests' contributions at most
PROOF_ACTIONS = 150           # a round's inputs per `proof` message (each one stays < 16 KB)
CHEATS = ("hand", "deck")     # test builds only (?cheat=): what a cheating host changes


def load(data):
    """The saved state of a committed shuffle (`FairDeal.state`, in `Room.to_dict()["fair"]`),
    checked; None when absent or malformed (an old save, a broken one: the round goes on
    without a proof)."""
    if not isinstance(data, dict):
        return None
    try:
        ok = (is_hex(data["secret"], 2 * shuffle.SECRET_BYTES)
              and is_int(data["round"]) and is_int(data["deal"]) and data["deal"] >= 1
              and is_number(data["deadline"])
              and isinstance(data["asked"], list) and all(is_int(i) for i in data["asked"])
              and isinstance(data["contributions"], list)
              and all(isinstance(c, list) and len(c) == 2 and is_int(c[0])
                      and is_hex(c[1], 2 * shuffle.CONTRIBUTION_BYTES)
                      for c in data["contributions"])
              and isinstance(data["dealt"], bool)
              and (data["info"] is None or isinstance(data["info"], dict)))
    except (KeyError, TypeError):
        return None
    if not ok or (data["dealt"] and data["info"] is None):
        return None
    fair = dict(data)
    fair["commitment"] = shuffle.commitment(fair["secret"])
    return fair


class FairDeal:
    """The committed shuffle of one room. `room`: the Room it deals for (its seats, game,
    options and outbox). `state`: None, or the commitment of this round (or of the next
    deal while it waits for contributions: `dealt` False). `deals`: how many commitments
    this room has made, new games included: each commitment's `deal` number, never used
    twice in a room (a page answers each number once)."""

    def __init__(self, room):
        self.room = room
        self.state = None
        self.deals = 0
        self.cheat = None         # test builds only: "hand" | "deck", a host that cheats

    def reset(self):
        """A new game: no commitment (the count of deals goes on)."""
        self.state = None

    def restore(self, state, deals):
        """A saved room's fair deal (`state` checked by `load`, `deals` its saved count: a
        number, else 0): the count never falls below the commitment's own number."""
        self.state = state
        self.deals = deals if is_int(deals) and deals >= 0 else 0
        if state is not None:
            self.deals = max(self.deals, state["deal"])

    def waiting_deal(self):
        """True while a deal waits for contributions (the lobby is closed meanwhile)."""
        return self.state is not None and self.state.get("dealt") is False

    def wanted(self):
        """A round is dealt from a committed shuffle when someone can check it: a person in
        a seat other than the host's. Solo games (bots only) and a stacked test deck (`deck`,
        the test page's ?deck=, which is no shuffle at all) deal as before, with no
        commitment."""
        room = self.room
        return room.deck is None and any(
            index != room.host and seat.bot is None for index, seat in enumerate(room.seats))

    def waiting(self):
        """The seats whose contribution the deal still waits for: those asked, not answered,
        and still here (a guest that closed or went silent is skipped at once)."""
        fair = self.state
        seats = self.room.seats
        given = [item[0] for item in fair["contributions"]]
        out = []
        for index in fair["asked"]:
            seat = seats[index] if index < len(seats) else None
            if (index not in given and seat is not None and seat.conn is not None
                    and seat.away_since is None and seat.stand_in is None):
                out.append(index)
        return out

    def begin(self, now):
        """Before a deal: draw a fresh secret (`secrets`, 256 bits), send every seat its
        commitment, and ask each person seated (not the host, not bots) for a contribution.
        The deal goes once all have answered or after CONTRIBUTE_MS (`due`)."""
        if self.waiting_deal():
            return []                            # already waiting for contributions
        room = self.room
        secret = secrets.token_hex(shuffle.SECRET_BYTES)
        number = 1 if room.game is None else room.game.round + 1
        self.deals += 1
        asked = [index for index, seat in enumerate(room.seats)
                 if index != room.host and seat.bot is None and seat.stand_in is None
                 and seat.conn is not None and seat.away_since is None]
        self.state = {"round": number, "deal": self.deals, "secret": secret,
                      "commitment": shuffle.commitment(secret), "asked": asked,
                      "contributions": [], "deadline": now + CONTRIBUTE_MS, "dealt": False,
                      "info": None}
        msg = wire.message("commit", round=number, deal=self.deals,
                           commitment=self.state["commitment"])
        out = [(seat.conn, msg) for seat in room.seats if seat.conn is not None]
        if not self.waiting():
            out += self.deal(now)
        return out

    def contribute(self, seat, msg, now):
        """Seat `seat`'s contribution to the next deal (`contribute`: 16 random bytes in hex,
        checked by the wire), once per deal. A late one (the deal went without it) or one
        from a seat not asked changes nothing."""
        fair = self.state
        if (not self.waiting_deal() or msg["round"] != fair["round"]
                or seat not in fair["asked"]
                or seat in [item[0] for item in fair["contributions"]]):
            return []
        fair["contributions"].append([seat, msg["value"]])
        fair["contributions"].sort()
        self.room.unsaved = True      # no output yet, but a restart must not forget it
        if not self.waiting():
            return self.deal(now)
        return []

    def due(self, now):
        """True when the waiting deal should go now (all answered, or CONTRIBUTE_MS past)."""
        return self.waiting_deal() and (now >= self.state["deadline"] or not self.waiting())

    def deal(self, now):
        """Deal the round from the committed shuffle: the seed is SHA-256 over the secret
        and the contributions in seat order, the deck the portable shuffle of that seed
        (crisp_core.shuffle). Every seat hears first (`fair`) who contributed and who was
        skipped, and the round's start (all a page needs to replay it with the engine)."""
        room = self.room
        fair = self.state
        fair["dealt"] = True
        values = [item[1] for item in fair["contributions"]]
        order = shuffle.deck_from_seed(shuffle.derive_seed(fair["secret"], values))
        if room.game is None:
            options = dict(room.options)
            options["players"] = len(room.seats)
            room.game = Game.new(options, seed=room.seed, order=order, dealer=0, now=now)
            events = room.game.deal_events()
        else:
            events = room.game.next_round(now, deck=order)
        game = room.game
        given = [item[0] for item in fair["contributions"]]
        fair["info"] = {
            "round": game.round, "deal": fair["deal"], "commitment": fair["commitment"],
            "contributions": [list(item) for item in fair["contributions"]],
            "skipped": [index for index in fair["asked"] if index not in given],
            "dealer": game.dealer, "options": dict(game.options),
            "scores": list(game.scores), "start": game.clock,
            "players": [seat.name for seat in room.seats]}
        msg = wire.message("fair", **fair["info"])
        out = [(seat.conn, msg) for seat in room.seats if seat.conn is not None]
        out += outbox.broadcast(room) if game.round == 1 else []
        return out + outbox.after_change(room, events, now)

    def dealt(self):
        """True when this round was dealt from a commitment."""
        return (self.state is not None and bool(self.state.get("dealt"))
                and self.room.game is not None)

    def proof(self, events):
        """At the end of a round dealt from a commitment (`events` hold its round_over):
        reveal the secret and the round's inputs in order with their times (the engine's
        journal), to every seat, before the views that end the round (so that a page never
        sees the end of a round before its proof)."""
        if not self.dealt() or not any(e.get("type") == "round_over" for e in events):
            return []
        msgs = self.proof_messages()
        return [(seat.conn, msg) for seat in self.room.seats if seat.conn is not None
                for msg in msgs]

    def proof_messages(self):
        """The round's `proof` parts: PROOF_ACTIONS inputs each."""
        actions = [list(entry) for entry in self.room.game.journal]
        parts = max(1, (len(actions) + PROOF_ACTIONS - 1) // PROOF_ACTIONS)
        return [wire.message("proof", round=self.state["round"], secret=self.state["secret"],
                             part=i, parts=parts,
                             actions=actions[i * PROOF_ACTIONS:(i + 1) * PROOF_ACTIONS])
                for i in range(parts)]

    def replay(self):
        """What a (re)joining seat gets about the round's commitment before its view: the
        `fair` message, then the proof once the round is over (a page checks the round when
        it has both the proof and the round's end; a round that ends with no proof here is
        not checked)."""
        game = self.room.game
        if not self.dealt() or self.state["round"] != game.round:
            return []
        before = [wire.message("fair", **self.state["info"])]
        if game.phase in ("round_over", "game_over"):
            before += self.proof_messages()
        return before

    def cheat_now(self):
        """Test builds only (`?cheat=`): a host that cheats after committing, to show that
        every guest notices. "hand": once play starts, the host's own center card is
        exchanged for the best card left in the deck; "deck": the deck is reversed."""
        fair = self.state
        game = self.room.game
        if (self.cheat not in CHEATS or not self.dealt() or game.phase != "play"
                or fair.get("cheated") == game.round or not game.deck):
            return
        fair["cheated"] = game.round
        if self.cheat == "deck":
            game.deck.reverse()
            return
        values = [card_value(card) for card in game.deck]
        best = values.index(min(values))
        host = self.room.host
        game.hands[host][1], game.deck[best] = game.deck[best], game.hands[host][1]
