"""The Client's messages to the room (docs/protocol.md "Client"): joins and the seat proof
(docs/protocol.md "Rejoining: the seat proof"), watching, sitting, leaving, actions, the
host's messages and pings. Client (ui/page/client/client.py) is built on SendSide.

MicroPython-compatible (every page runs it), no I/O: `send(text)` (the Client's) delivers.
"""

import json

from ui.page.client import taps
from ui.shared import proof
from ui.shared.wire import is_hex, message, same


class SendSide:
    """What the Client sends (`send`, `nonce`, `page_id`, `name`, `token`, `n`, `view`), and
    the trust of the connection it sends on (`trusted`, `suspect`, `_ask`: the rejoin in
    progress, what the host's proof must match)."""

    def _send(self, msg):
        fields = dict(msg)
        # json.dumps, not wire.encode: what a player typed goes out ASCII-escaped, so a lone
        # surrogate in a name reaches the room as the escape it refuses (bad_name), never as
        # text that cannot be encoded
        self.send(json.dumps(message(fields.pop("type"), **fields)))

    def connected(self):
        """A new data connection to the room: nothing from it is trusted until it proves
        itself, unless this seat has no token yet (a first join trusts the peer at the room
        id) or this is the host's own screen."""
        self.trusted = self.is_host or self.token is None
        self.suspect = False
        self._ask = None

    def join(self, name, token=None, room=None, peer=""):
        """Ask for a seat. Without `token` (or on the host's own screen): a first join. With
        the seat's `token`: a rejoin that names the seat by its public id and a fresh nonce,
        never the token itself; `room` (the room id) and `peer` (this page's PeerJS id) are
        bound into the proofs. A rejoin needs `nonce` (the constructor's)."""
        self.name = name
        self.name_error = None
        if room:
            self.dialed = room       # the page's own room id: the fair-play checks key on it
        if token is None or self.is_host:
            if self.page_id is None and self.nonce is not None and not self.is_host:
                self.page_id = self.nonce()   # made once: a join again is the same person
            self._send({"type": "join", "name": name} if self.page_id is None or self.is_host
                       else {"type": "join", "name": name, "page": self.page_id})
            return
        if token != self.token:
            self.token = token
        self.trusted = False
        self._ask = {"token": token, "room": room or "", "peer": peer or "",
                     "seat_id": proof.seat_id(token), "nonce": self.nonce()}
        self._send({"type": "join", "name": name, "seat_id": self._ask["seat_id"],
                    "nonce": self._ask["nonce"]})

    def _unproven(self, kind, msg):
        """A message from a peer that has not proved it is the room: only the `challenge`
        answering our rejoin counts; anything else (a table, a lobby, `kicked`, an error)
        changes nothing and marks the peer `suspect`. Returns True when it proved itself."""
        ask = self._ask
        if kind == "pong":
            return False
        if kind == "challenge" and ask is not None and is_hex(msg.get("nonce"), 32):
            host_nonce = msg.get("nonce")
            mac = proof.host_mac(ask["token"], ask["room"], ask["peer"], ask["seat_id"],
                                 ask["nonce"], host_nonce)
            if same(msg.get("mac"), mac):
                self._ask = None
                self.trusted = True
                self._send({"type": "proof", "mac": proof.guest_mac(
                    ask["token"], ask["room"], ask["peer"], ask["seat_id"], ask["nonce"],
                    host_nonce)})
                return True
        self._ask = None
        self.suspect = True
        return False

    def watch(self):
        """Watch the room without a seat (public information only)."""
        self._send({"type": "watch"})

    def sit(self, name, seat=None):
        """A spectator asks for `seat` (away or played by a bot; the host approves), or with
        None for a seat in the next game."""
        self.error = None
        msg = {"type": "sit", "name": name}
        if seat is not None:
            msg["seat"] = seat
        self._send(msg)

    def leave(self):
        """Tell the room this player leaves (lobby: the seat frees up; table: a bot takes it)."""
        self._send({"type": "leave"})

    def act(self, action, now=None):
        """Send an engine action, e.g. {"do": "draw", "from": "deck"}, with the number of the
        view it answers (`n`: the room refuses it as stale if the table changed since). The
        move shows taken from now (`tapped`, ui/page/client/taps.py; `now`, ms: it settles by itself
        PENDING_MS later) until the room's answer: its next view or an error."""
        self.error = None
        msg = {"type": "action", "action": action}
        if self.view is not None:
            msg["n"] = self.n
        self.tapped = taps.taken(action, now)
        self._send(msg)

    def host(self, msg):
        """Send a host-only message, e.g. {"type": "start"} (the room refuses it from guests)."""
        self.error = None
        msg = dict(msg)
        self._send(msg)

    def ping(self, now):
        """A ping (`t`: this page's `now`, ms; the pong's gives `latency`), with this link's
        round trip as this page knows it (`rtt`, ms: ui/shared/linkspeed.py; once known):
        the room shows this seat's link slow to the others from it."""
        msg = {"type": "ping", "t": now}
        if self.rtt is not None:
            msg["rtt"] = self.rtt
        self._send(msg)
