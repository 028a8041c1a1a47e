"""What a page can tell the player about the network between phones (issue 21). Pure: no
`js`, no clock (every call takes `now`, ms); MicroPython-compatible.

- Playing with friends needs WebRTC data channels (RTCPeerConnection, RTCDataChannel).
  A browser without them (Debian's WebKitGTK, some in-app web views, locked-down
  browsers) cannot play with friends at all: the page says so once, names a browser that
  can (`capable_browser`), and offers solo, which needs no network. It never retries.
- A host whose guest could not open a data channel to it (the connection arrived through
  the signaling server, then never opened: ICE failed, a network that blocks phones from
  reaching each other) says so for FRIEND_NOTE_MS (`friend_note`).
"""

INCOMPATIBLE = "browser-incompatible"      # PeerJS's error type for a browser without WebRTC
FRIEND_NOTE_MS = 30000
UNAVAILABLE_TEXT = "Could not connect to peer "   # PeerJS's peer-unavailable message, + the id


def unavailable_concerns(message, dialing, is_open):
    """Whether a PeerJS `peer-unavailable` error on a guest's Peer says that the room id its
    current attempt dials (`dialing`) has nobody there. The signaling server says it about
    5 s after an offer it could not deliver (the PeerJS server's expire_timeout), so it may
    be about an earlier attempt: one naming another id (the old host's, after a handover
    moved the room: it once dropped the good connection to the new host) or arriving while
    the attempt is open (`is_open`: the host answered since) says nothing of this one.
    `message`: the error's text, "Could not connect to peer <id>"; any other text (another
    PeerJS version) counts for an attempt not open, as before."""
    if is_open:
        return False
    if isinstance(message, str) and message.startswith(UNAVAILABLE_TEXT):
        return message[len(UNAVAILABLE_TEXT):].strip() == dialing
    return True


def capable_browser(user_agent):
    """The i18n key naming a browser that plays with friends on this device, from its user
    agent text (any value; None and garbage give the general answer): "browser_safari" on
    an iPhone or iPad (every iOS browser is Safari's engine: an in-app view lacks what
    Safari has), "browser_chrome" on Android, else "browser_any" (Firefox or Chrome)."""
    ua = user_agent.lower() if isinstance(user_agent, str) else ""
    if "iphone" in ua or "ipad" in ua or "ipod" in ua:
        return "browser_safari"
    if "android" in ua:
        return "browser_chrome"
    return "browser_any"


def can_play_with_friends(has_peer_connection, has_data_channel):
    """True when the browser has both RTCPeerConnection and RTCDataChannel (booleans, as
    boot.js found them: `crisp.webrtc`): what PeerJS's data connections need."""
    return has_peer_connection is True and has_data_channel is True


class FriendNote:
    """The host's note that a friend could not connect. `failed(now, peer)` when a guest's
    data connection closed without ever opening (PeerJS id `peer`, the host's page saw it
    arrive); `showing(now)` is True for FRIEND_NOTE_MS after the last such failure, unless
    that guest's connection has opened since (`opened(peer)`: the network let it through)."""

    def __init__(self):
        self.failed_at = None
        self.peer = None

    def failed(self, now, peer=None):
        self.failed_at = now
        self.peer = peer

    def opened(self, peer=None):
        if self.failed_at is not None and peer == self.peer:
            self.failed_at = None

    def showing(self, now):
        return self.failed_at is not None and 0 <= now - self.failed_at < FRIEND_NOTE_MS
