"""What a page can tell the player about the network between phones. Pure: no
`js`, no clock (every call takes `now`, ms); MicroPython-compatible.

- Playing with friends needs WebRTC data channels (RTCPeerConnection, RTCDataChannel).
  A browser without them (Debian's WebKitGTK, some in-app web views, locked-down
  browsers) cannot play with friends at all: the page says so once, names a browser that
  can (`capable_browser`), and offers solo, which needs no network. It never retries.
- A host whose guest could not open a data channel to it (the connection arrived through
  the signaling server, then never opened: ICE failed, a network that blocks phones from
  reaching each other) says so for FRIEND_NOTE_MS (`friend_note`).
- A seated guest whose data channel to the host is lost tells whose fault it is
  (`lost_channel_status`): its own network when its own link is down, else the
  host's phone (the game paused, the countdown to the handover running).
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


def own_link_up(registered, on_line):
    """True while this page itself reaches the signaling server: its Peer is registered
    (`registered` is True) and the browser does not say it is offline (`on_line`:
    navigator.onLine; None when the browser has no such flag). Any other value: False."""
    return registered is True and on_line in (True, None)


def lost_channel_status(seated, own_up):
    """What a guest with no open data channel to the host says, when nothing more precise is
    known (no host_gone, unreachable, no_room...): never seated here, "connecting"; seated and
    its own link up (`own_link_up`), "host_paused": the host's phone is not answering (the
    game paused, counting down to the handover); seated and its own link down,
    "reconnecting": this phone's own network is what was lost."""
    if not seated:
        return "connecting"
    return "host_paused" if own_up else "reconnecting"


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


FRIEND_PEERS = 32       # the peers FriendNote remembers as having got through, at most


class FriendNote:
    """The host's note that a friend could not connect. `failed(now, peer)` when a guest's
    data connection closed without ever opening (PeerJS id `peer`, the host's page saw it
    arrive); `showing(now)` is True for FRIEND_NOTE_MS after the last such failure, unless
    that guest's connection has opened since (`opened(peer)`: the network let it through).
    A failure of a peer that has had a connection open to this host is no note at all: it
    is a stale attempt (a guest retries after ATTEMPT_MS, and the attempt it gave up on is
    judged UNREACHABLE_MS after it arrived, when the later one is long open: after a host
    handover the new host read "A friend couldn't connect" about 45 s on). The last
    FRIEND_PEERS such peers are remembered (a hostile page may dial with many ids)."""

    def __init__(self):
        self.failed_at = None
        self.peer = None
        self.through = []             # peers whose connection opened, oldest first

    def failed(self, now, peer=None):
        if peer is not None and peer in self.through:
            return
        self.failed_at = now
        self.peer = peer

    def opened(self, peer=None):
        if peer is not None and peer not in self.through:
            self.through.append(peer)
            if len(self.through) > FRIEND_PEERS:
                self.through.pop(0)
        if self.failed_at is not None and peer == self.peer:
            self.failed_at = None

    def showing(self, now):
        return self.failed_at is not None and 0 <= now - self.failed_at < FRIEND_NOTE_MS
