"""An in-memory network for room tests: one Room, several Clients, a fake clock.

Texts go through the same entry points the page uses (`room.receive`, `client.receive`), and
every text each connection receives is kept in `net.inbox[conn]` for leak checks.
"""

import json
import random
import re
import secrets

import pytest

from ui.page.client.client import Client
from ui.worker.room import LOCAL, Room

PING_MS = 3000
CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")


class RecordingRoom(Room):
    """A Room that also keeps every engine event it records, unfiltered (for leak checks)."""

    def __init__(self, *args, **kwargs):
        self.all_events = []
        Room.__init__(self, *args, **kwargs)

    def _record(self, events):
        self.all_events.extend(events)
        Room._record(self, events)


class Net:
    def __init__(self, deck=None, seed=7, host="Host", make_bot=None):
        self.clock = 1000
        self.room = RecordingRoom("room-test", host, seed=seed, deck=deck, make_bot=make_bot)
        self.inbox = {}
        self.clients = {}
        self.knowledge = {}       # seat -> cards it may have seen so far (from engine events)
        self.leaks = []
        self.asleep = set()       # guests whose heartbeat stopped (a phone gone to sleep)
        self.host = self._client(LOCAL, is_host=True)

    def _client(self, conn, is_host=False):
        def send(text, conn=conn):
            self.deliver(self.room.receive(conn, text, self.clock))
        client = Client(send, is_host=is_host, nonce=lambda: secrets.token_hex(16))
        self.clients[conn] = client
        self.inbox.setdefault(conn, [])
        return client

    def guest(self, conn, name, token=None):
        """A guest page on a new connection `conn` (PeerJS id "peer-<conn>"): a first join, or
        with `token` a rejoin through the seat proof."""
        client = self._client(conn)
        self.deliver(self.room.open(conn, self.clock, peer="peer-" + conn))
        client.connected()
        client.join(name, token, room=self.room.room_id, peer="peer-" + conn)
        return client

    def raw(self, conn, text):
        """A text from `conn` straight to the room; returns what the room answered."""
        out = self.room.receive(conn, text, self.clock)
        self.deliver(out)
        return out

    def close(self, conn):
        self.deliver(self.room.close(conn, self.clock))

    def at(self, ms):
        """Move the clock to `ms`, every 3 s at most, with the room ticking at every step and
        each seated guest not in `self.asleep` pinging, as the page's heartbeat does."""
        assert ms >= self.clock
        while True:
            self.clock = min(ms, self.clock + PING_MS)
            for conn, client in list(self.clients.items()):
                if conn != LOCAL and conn not in self.asleep and conn in self.room.conns:
                    client.ping(self.clock)
            self.deliver(self.room.tick(self.clock))
            if self.clock >= ms:
                return

    def later(self, ms):
        self.at(self.clock + ms)

    def deliver(self, out):
        for conn, text in out:
            assert isinstance(text, str)
            assert len(text.encode("utf-8")) < 16 * 1024
            self.inbox.setdefault(conn, []).append(text)
            self._check_leaks(conn, text)
            client = self.clients.get(conn)
            if client is not None:
                client.receive(text, self.clock)

    # ---- what each seat may know -------------------------------------------------------

    def _learn(self):
        """Fold the engine events recorded so far into each seat's knowledge (R9.1)."""
        game = self.room.game
        n = len(self.room.seats)
        for seat in range(n):
            self.knowledge.setdefault(seat, set())
        events, self.room.all_events = self.room.all_events, []
        for event in events:
            if event.get("type") == "deal":       # a new round: new cards, nothing known
                for seat in range(n):
                    self.knowledge[seat] = set()
            cards = set(CARD.findall(json.dumps(event)))
            if "to" in event:
                self.knowledge[event["to"]] |= cards
            else:
                for seat in range(n):
                    self.knowledge[seat] |= cards
        if game is not None:
            for seat in range(n):
                self.knowledge[seat] |= set(game.discard)

    def _check_leaks(self, conn, text):
        seat = self.room.conns.get(conn)
        if seat is not None:
            self.check_seat(seat, text, conn)

    def check_seat(self, seat, text, who=None):
        """Note a leak if `text`, given to `seat` now, holds a card that seat may not know."""
        game = self.room.game
        if game is None:
            return
        conn = who
        self._learn()
        shown = set(CARD.findall(text))
        unknown = shown - self.knowledge[seat]
        hidden = set(game.deck)
        if game.held is not None and game.held_from == "deck" and game.turn != seat:
            hidden.add(game.held)
        if game.phase not in ("round_over", "game_over"):
            for other, hand in enumerate(game.hands):
                if other != seat:
                    hidden |= set(hand) - self.knowledge[seat]
            hidden.add(game.hands[seat][1])   # own center: never shown, except by a Jack
            hidden -= self.knowledge[seat]
        if unknown or shown & hidden:
            self.leaks.append((conn, seat, sorted(unknown | (shown & hidden)), text))

    # ---- helpers -----------------------------------------------------------------------

    def received(self, conn, kind=None):
        msgs = [json.loads(t) for t in self.inbox.get(conn, [])]
        return [m for m in msgs if kind is None or m["type"] == kind]

    def last(self, conn, kind):
        msgs = self.received(conn, kind)
        return msgs[-1] if msgs else None

    def snapshot(self):
        return json.dumps(self.room.to_dict(), sort_keys=True)

    def act(self, conn, action):
        self.clients[conn].act(action)
        client = self.clients[conn]
        assert client.error is None, (conn, action, client.error)


# ---- rooms and play shared by the room tests ------------------------------------------------

def room_of_three(**kwargs):
    """A Net (built with `kwargs`) whose lobby holds the host ("Host", seat 0) and two guests:
    "a" (Ana, seat 1) and "b" (Bea, seat 2)."""
    net = Net(**kwargs)
    net.host.join("Host")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    return net


def engine_bots():
    """A Room's `make_bot(level, seat)` that makes the engine's bots (crisp_core.bots), each
    seeded by its seat. Skips the calling test when crisp_core.bots is missing."""
    bots = pytest.importorskip("crisp_core.bots")

    def make_bot(level, seat):
        return bots.Bot(seat, level, random.Random(seat))
    return make_bot


def play_out(net, people, done, crisp_after=None, swap="left", moves=20000):
    """The people in `people` (conns) play until `done()` is true, one move at a time: the
    first of them who may act gets ready; or, the host, deals the next round; or calls crisp
    once more than `crisp_after` turns were drawn (never when None); or draws from the deck
    on its turn; or uses a King; or discards; or swaps into `swap`. When none of them may act
    the clock moves to the room's next wake-up. Raises AssertionError when it is still not
    done after `moves` moves, or when nothing is left to wait for."""
    turns = 0
    for _ in range(moves):
        if done():
            return
        acted = False
        for conn in people:
            client = net.clients[conn]
            view = client.view
            if view is None:
                continue
            if client.allowed("ready"):
                net.act(conn, {"do": "ready"})
            elif conn == LOCAL and client.allowed("next_round"):
                client.host({"type": "next_round"})
            elif crisp_after is not None and turns > crisp_after and client.allowed("crisp"):
                net.act(conn, {"do": "crisp"})
            elif client.allowed("draw") and view["turn"] == client.seat:
                turns += 1
                net.act(conn, {"do": "draw", "from": "deck"})
            elif client.allowed("king"):
                net.act(conn, {"do": "king"})
            elif client.allowed("discard"):
                net.act(conn, {"do": "discard"})
            elif client.allowed("swap"):
                net.act(conn, {"do": "swap", "pos": swap})
            else:
                continue
            acted = True
            break
        if not acted:
            wake = net.room.next_wakeup()
            assert wake is not None, net.host.view
            net.at(max(wake, net.clock))
    raise AssertionError("the play did not end: %r" % (net.host.view,))
