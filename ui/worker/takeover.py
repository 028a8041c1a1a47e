"""The successor's side of a host handover, in its engine worker (docs/protocol.md "Host
handover"): gathers a second share of the sealed room from a holder
that the successor proved itself to, opens the room (`Room.from_handover`), or, when it
cannot (no box, one person left, no second share in time), rebuilds it from what every page
knows with the interrupted round dealt again (`Room.from_public`).

Pure Python like ui/worker/room.py (no `js`, no clock, no I/O). The messages (JSON text, `v` 1):

    holder -> successor  {"type": "share_offer", "n": box n, "seat": its seat, "nonce": 32 hex}
    successor -> holder  {"type": "share_proof", "n", "nonce": 32 hex, "mac": 64 hex}
                         (handover.successor_mac, from the successor's own seat token)
    holder -> successor  {"type": "share", "n", "share": "x:y"}   only once the mac checks

A malformed one gets an `error` (`bad_message`); a `share` no proof asked for, an offer past
OFFERS_PER_CONN on one connection (or OFFERS_MAX in all) or for another box gets `error`
too and changes nothing.
"""

import json
import secrets

from ui.shared import handover, seal, spectator_moves, wire
from ui.shared.wire import SHARE_TYPES, is_hex, is_int
from ui.worker.room import Room

SHARE_WAIT_MS = 8000        # no second share after this long: the round is dealt again
MAX_AFTER_SEAL_MS = 600000  # the most a sealed room's clock is moved on at a takeover (10 min)
OFFERS_PER_CONN = 3         # share offers one connection may make
OFFERS_MAX = 48             # share offers all connections together may make


def share_kind(text):
    """The `type` of `text` when it is one of the share exchange's messages (ui/shared/wire.py
    BETWEEN), else None: the engine asks it of every message while a takeover waits (read
    whole, as every message; the version is the exchange's to refuse)."""
    try:
        msg = wire.parse(text)
    except wire.BadMessage as e:
        if e.code != "bad_version":
            return None
        msg = json.loads(text)
    kind = msg.get("type")
    return kind if kind in SHARE_TYPES else None


def _error(text):
    return ("error", wire.error("bad_message", text))


class Takeover:
    """One successor's takeover. `spec` (from the successor's page):
    {"room_id": the old id, "new_id", "epoch" (1, or more when a successor failed),
     "succession": the room's succession secret (`welcome`; new_id derives from it),
     "seat": this page's seat, "token": its seat token in the old room,
     "players": the last players list, "host": the old host's seat, "sealed": its Client's
     newest sealed room or None, "standby": the old host's `standby` {seat, tokens} or None,
     "public": {"options", "scores", "dealer", "round", "phase"} from its last view,
     "after_seal": ms the old host still spoke after that sealed room came (0 if absent;
     capped at MAX_AFTER_SEAL_MS)}.
    Raises ValueError when the spec cannot make a room (not this page's turn to host)."""

    def __init__(self, spec, now, make_bot=None, nonce=lambda: secrets.token_hex(16)):
        if not isinstance(spec, dict):
            raise ValueError("takeover: not an object")
        self.spec = spec
        self.room_id = spec.get("room_id")
        self.new_id = spec.get("new_id")
        self.seat = spec.get("seat")
        self.token = spec.get("token")
        for what, ok in (("room id", spectator_moves.is_peer_id(self.room_id)),
                         ("new id", spectator_moves.is_peer_id(self.new_id)),
                         ("seat", is_int(self.seat)),
                         ("token", isinstance(self.token, str) and 0 < len(self.token) <= 128)):
            if not ok:
                raise ValueError("takeover: " + what)
        epoch = spec.get("epoch")
        if not is_int(epoch) or not 1 <= epoch <= handover.MAX_EPOCH:
            epoch = handover.epoch_after(self.room_id)
        self.plan = handover.Handover(self.room_id, self.seat, spec.get("players"),
                                      spec.get("host"), spec.get("sealed"), epoch,
                                      spec.get("succession"))
        if self.plan.role != "host" or self.plan.new_id != self.new_id:
            raise ValueError("takeover: this seat is not the successor")
        after = spec.get("after_seal")
        # how long the old host spoke after the newest seal (ms): capped, 0 when unreadable
        self.after_seal = min(after, MAX_AFTER_SEAL_MS) if is_int(after) and after > 0 else 0
        self.make_bot = make_bot
        self.nonce = nonce
        self.started = now
        self.deadline = now + SHARE_WAIT_MS
        self.peers = {}             # conn -> PeerJS id (from `open`)
        self.asked = {}             # conn -> (holder seat, its nonce, our nonce)
        self.offers = {}            # conn -> offers made
        self.how = None             # "sealed" | "public" once the room is made

    def opened(self, conn, peer):
        """A data connection opened from PeerJS id `peer`."""
        if isinstance(peer, str):
            self.peers[conn] = peer

    def closed(self, conn):
        self.asked.pop(conn, None)

    def receive(self, conn, kind, text):
        """One share-exchange message (`kind`: share_kind(text)) from `conn`: the replies,
        typed [(conn, kind, message dict)]."""
        return [(conn,) + reply for reply in self._answer(conn, kind, text)]

    def _answer(self, conn, kind, text):
        try:
            msg = wire.parse(text)
        except wire.BadMessage as e:
            return [_error(e.text)]
        box = (self.plan.sealed or {}).get("box") or {}
        if wire.BETWEEN[kind]["from"] == "successor":
            return [_error("only the successor sends " + kind)]
        if kind == "share_offer":
            count = self.offers.get(conn, 0) + 1
            self.offers[conn] = count
            if count > OFFERS_PER_CONN or sum(self.offers.values()) > OFFERS_MAX:
                return [_error("too many share offers")]
            if not wire.fits(wire.BETWEEN, msg) or msg["seat"] == self.seat:
                return [_error("share_offer: seat, n and a 32-hex nonce")]
            seat, nonce, n = msg["seat"], msg["nonce"], msg["n"]
            if not self.plan.resume or n != box.get("n") or conn not in self.peers:
                return [_error("share_offer: not the box this room waits for")]
            mine = self.nonce()
            self.asked[conn] = (seat, nonce, mine)
            mac = self.plan.prove(self.token, seat, self.peers[conn], nonce, mine)
            return [("share_proof", wire.message("share_proof", n=n, nonce=mine, mac=mac))]
        # a share: only after our proof to this connection, and once
        if conn not in self.asked:
            return [_error("share: no share_offer answered on this connection")]
        del self.asked[conn]
        share = msg.get("share")
        if not wire.fits(wire.BETWEEN, msg) or len(share) > 200 or msg["n"] != box.get("n"):
            return [_error("share: n and a share text")]
        self.plan.take_share({"n": msg.get("n"), "share": share})
        return []

    def room(self, now):
        """The room once it can be made: from the sealed box when two shares open it, else
        (past `deadline`, or when it can never resume) from what every page knows. None
        meanwhile. Raises ValueError when neither works."""
        if self.plan.resume:
            check = {}
            state = self.plan.opened(lambda box, shares, room_id:
                                     seal.open_room(box, shares, room_id, check=check))
            if state is not None:
                self.how = "sealed"
                room = Room.from_handover(state, self.seat, now, new_id=self.new_id,
                                          make_bot=self.make_bot, after_seal=self.after_seal)
                # its proof that it opened the box (`watching` `opened`; docs/decisions.md "A page that says it hosts the room proves it")
                room.opened = {"n": self.plan.sealed["box"].get("n"), "check": check["opened"]}
                return room
            if now < self.deadline:
                return None
        self.how = "public"
        return self.public_room(now)

    def public_room(self, now):
        public = self.spec.get("public") or {}
        players = self.spec.get("players")
        standby = self.spec.get("standby") or {}
        tokens = standby.get("tokens") if standby.get("seat") == self.seat else None
        tokens = dict(tokens) if isinstance(tokens, dict) else {}
        tokens[str(self.seat)] = handover.next_token(self.token, self.room_id, self.seat)
        scores, dealer, number = public.get("scores"), public.get("dealer"), public.get("round")
        if not isinstance(players, list) or not is_int(dealer) or not is_int(number):
            raise ValueError("takeover: no round to deal again")
        if public.get("phase") in ("round_over", "game_over"):
            # the round had ended (its scores counted): the next one is dealt
            number, dealer = number + 1, (dealer + 1) % len(players)
        seats = sorted([p for p in players if isinstance(p, dict) and is_int(p.get("seat"))],
                       key=lambda p: p["seat"])
        if [p["seat"] for p in seats] != list(range(len(seats))):
            raise ValueError("takeover: players")
        room = Room.from_public(self.new_id, self.seat, seats, public.get("options"), scores,
                                dealer, number, now, tokens=tokens, make_bot=self.make_bot,
                                succession=self.spec.get("succession"))
        if standby.get("seat") == self.seat:
            room.followers = spectator_moves.watchers(standby.get("watchers"))
            if is_hex(standby.get("check"), 64):
                # the old host's own proof key for its designate: with no box to open, the
                # room at the next id proves with it that it is this room (comeback.py)
                room.opened = {"n": 0, "check": standby["check"]}
        return room

    def moved(self, room):
        """What the new host's page sends the old room's spectators, once its room runs:
        [{"peer": a spectator's PeerJS id, "text": its `moved` message}] (the new id, proven
        with that spectator's follow token by the old host: spectator_moves.moved_entries)."""
        out = []
        for w in spectator_moves.watchers(room.followers):
            text = spectator_moves.moved_for(w, self.new_id)
            if text is not None:
                out.append({"peer": w["peer"], "text": text})
        return out
