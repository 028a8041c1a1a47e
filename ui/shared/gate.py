"""The host's door: data connections that have not joined yet (docs/protocol.md, "Idle and
hostile connections"). Pure (no `js`, no clock): every call takes `now` (ms).

Each open data connection costs the host's browser a WebRTC peer connection, and a browser
has only a few hundred. A connection must join (be seated: a first join, or a rejoin whose
seat proof checked out) within JOIN_MS or it is closed; at most MAX_WAITING wait at a time,
at most PER_PEER from one remote PeerJS id. When either is full the oldest waiting
connection of the peer holding the most goes, never the newcomer: a flood of idle
connections evicts itself, and a real guest's connection keeps its turn.
"""

JOIN_MS = 10000
MAX_WAITING = 16
PER_PEER = 3

# What the game's own pages open (ui/page/net/net.py CONNECT_OPTIONS): anything else is closed at once.
SERIALIZATION = "raw"


def acceptable(serialization, reliable, metadata):
    """True when a data connection was opened the way Crisp's pages open one: `serialization`
    "raw" (text as it is; PeerJS's "binary" buffers chunks of messages that never end),
    `reliable` true, and no `metadata` (None)."""
    return serialization == SERIALIZATION and reliable is True and metadata is None


class Gate:
    """Connections waiting to join: `admit` each new one, `joined`/`forget` when it is seated
    or closed, `expired(now)` on every tick. The methods that close return the connections
    to close (the caller closes them and forgets their state)."""

    def __init__(self, join_ms=JOIN_MS, limit=MAX_WAITING, per_peer=PER_PEER):
        self.join_ms = join_ms
        self.limit = limit
        self.per_peer = per_peer
        self.waiting = {}         # conn -> [opened at (ms), remote peer id, arrival number]
        self.count = 0

    def admit(self, conn, peer, now):
        """A new data connection from PeerJS id `peer` (any str; None if unknown).
        Returns the waiting connections to close to make room for it (oldest first)."""
        self.count += 1
        self.waiting[conn] = [now, peer, self.count]
        out = []
        mine = self._of(peer)
        while len(mine) > self.per_peer:
            out.append(self._evict(mine))
            mine = self._of(peer)
        while len(self.waiting) > self.limit:
            out.append(self._evict(self._largest()))
        return out

    def joined(self, conn):
        """`conn` is seated: it waits no more."""
        self.waiting.pop(conn, None)

    forget = joined

    def is_waiting(self, conn):
        return conn in self.waiting

    def expired(self, now):
        """The connections that did not join within join_ms of opening (no longer waiting)."""
        out = [c for c, w in self.waiting.items() if now - w[0] >= self.join_ms]
        for conn in out:
            del self.waiting[conn]
        return out

    def next_deadline(self):
        """When the oldest waiting connection runs out of time (ms), or None."""
        if not self.waiting:
            return None
        return min(w[0] for w in self.waiting.values()) + self.join_ms

    def clear(self):
        self.waiting = {}

    def _of(self, peer):
        return [c for c, w in self.waiting.items() if w[1] == peer]

    def _largest(self):
        counts = {}
        for w in self.waiting.values():
            counts[w[1]] = counts.get(w[1], 0) + 1
        top = max(counts.values())
        return [c for c, w in self.waiting.items() if counts[w[1]] == top]

    def _evict(self, conns):
        oldest = min(conns, key=lambda c: self.waiting[c][2])
        del self.waiting[oldest]
        return oldest


SPECTATORS_PER_PEER = 2       # spectator places one remote PeerJS id may hold


def spectator_to_evict(spectators, peers, conn, limit):
    """Which spectator place a new spectator `conn` takes (docs/decisions.md "Spectator places and follow tokens": `watch` takes
    a connection off the waiting list, so the door's per-peer cap no longer applied and one
    stranger held every place), or None for a free place or none to take. `spectators`:
    their conns, oldest first; `peers`: {conn: remote PeerJS id}; `limit`: the places
    (MAX_SPECTATORS). Its own peer holding SPECTATORS_PER_PEER already: its own oldest
    place. All `limit` taken: the oldest place of the peer holding the most, when that peer
    holds more than one; else None (the newcomer is refused)."""
    def peer_of(c):
        return peers.get(c) or "conn:" + str(c)
    held = {}
    for c in spectators:
        held.setdefault(peer_of(c), []).append(c)
    mine = held.get(peer_of(conn), [])
    if len(mine) >= SPECTATORS_PER_PEER:
        return mine[0]
    if len(spectators) < limit:
        return None
    most = max(held.values(), key=len) if held else []
    return most[0] if len(most) > 1 else None
