"""The door at a moved room's first id (browser only; ui/shared/door.py): a second Peer of the
page now hosting the room, registered at the room's first id with the first host's PeerJS
token (from the sealed box), that tells each page dialing the first link or code where the
room is now (`elsewhere`) and closes."""

import js

from ui.page.browser import Timer, log
from ui.page.net.net import _close, _destroy, _Handlers, _shape
from ui.page.net.webrtc import webrtc_ok
from ui.shared import door
from ui.shared.gate import acceptable

KEEP_MS = 10000     # a connection to the door closes after this long at most


class DoorNet:
    """A Peer at `first_id` with PeerJS `token` that answers every data connection with
    `text()` (door.elsewhere_text of the room's id now) once it opens, reads nothing it is
    sent and closes it after KEEP_MS at most. It tries to register once: if the id is held
    by someone else, or the Peer is later displaced (the first host back with its own token:
    its room is then its own again to follow) or loses the server, it stops for good, so it
    never takes the id back from the page it belongs to."""

    def __init__(self, first_id, token, text):
        self.first_id = first_id
        self.text = text
        self.handlers = _Handlers()
        self.peer = None
        self.closed = False
        if not webrtc_ok():
            self.closed = True
            return
        try:
            peer = js.crisp.newPeer(first_id, token)
        except Exception:
            self.closed = True
            return
        self.peer = peer
        self.handlers.on(peer, "open", lambda *a: log("door open at", first_id))
        self.handlers.on(peer, "connection", self._connection)
        self.handlers.on(peer, "call", _close)
        self.handlers.on(peer, "disconnected", lambda *a: self.stop())
        self.handlers.on(peer, "error", lambda *a: self.stop())

    def _connection(self, conn):
        if self.closed:
            _close(conn)
            return
        serialization, reliable, metadata = _shape(conn)
        if not acceptable(serialization, reliable, metadata):
            _close(conn)
            return

        def opened(*args):
            try:
                conn.send(self.text())
            except Exception:
                pass
        self.handlers.on(conn, "open", opened)
        closer = Timer(lambda: _close(conn))
        closer.at(KEEP_MS)
        self.handlers.proxies.append(closer)

    def stop(self):
        """For good: the Peer destroyed (its id freed for the token's owner)."""
        if self.closed:
            return
        self.closed = True
        log("door closed at", self.first_id)
        if self.peer is not None:
            _destroy(self.peer)


def keep_door(page, msg):
    """The engine's reply `msg` names a door (`door`: [first id, token], door.door_claim):
    open one at that id on `page` (a HostPage with `door_net`, `room_id`) unless it keeps one
    there already. The door says the page's room id as it is when someone dials."""
    claim = msg.get("door")
    if not isinstance(claim, list) or len(claim) != 2 or page.door_net is not None:
        return
    first, token = claim
    if door.door_claim(page.room_id or "", token) != [first, token]:
        return
    page.door_net = DoorNet(first, token, lambda: door.elsewhere_text(page.room_id))
