"""When a page (re)connects and what it tells the player: the policy of a guest's link to
the host, and the backoff both pages use. Pure (no `js`, no clock): every call takes `now`
(ms); the page does what `step` says and renders `status()`. MicroPython-compatible.

A guest never gives up while its page is open (docs/design.md "Persistence and reconnection"):
- the host answers every ping (every PING_MS); nothing heard for HOST_SILENT_MS means the
  connection is dead even if PeerJS never said `close` (it often does not);
- an attempt not open within ATTEMPT_MS has failed, and so has a connection whose `join`
  got no `welcome` within ATTEMPT_MS;
- retries back off along RETRY_MS, then every RETRY_MS[-1] forever;
- a page shown again or a network back (`woke`) checks at once instead of waiting;
- a page whose Peer lost the signaling server (`doubt`: often a phone changing networks,
  whose data channels die silently too) pings at once and, if nothing at all is heard
  within DOUBT_MS, counts the connection as dead without waiting HOST_SILENT_MS;
- a peer at the room id that cannot prove it is the host (`unverified`: the seat proof,
  docs/protocol.md) is dropped at once and the page keeps trying for the real one, saying
  "host_unverified" until the room seats it again;
- the host closes a connection that has not joined within 10 s (ui/shared/gate.py): while this page
  has sent no join (a player still typing a name) that close is expected, the page connects
  again at once and the player is told nothing;
- the host's absence is shown truthfully: once nothing has come from the host for QUIET_MS
  (`host_quiet`) its seat shows away and the timers paused; once it has been silent for
  `gone_ms` (HOST_GONE_MS, 30 s, by default) it counts as gone (`host_lost`) and the page
  offers the player `keep-waiting` or `leave`;
- a seated page that was away itself (`behind`: its Peer off the signaling server, or its
  own steps LATE_GAP_MS apart: a phone asleep, a frozen tab) does not know what happened at
  the table meanwhile: its players list may be old. While behind (from then until it hears
  the host, or for `gone_ms` + BEHIND_MS after it is back) it never takes the room over
  itself: it looks for the room at the next ids (docs/protocol.md "Back from away").
- the network's fault is not the host's: when the host answers our attempts
  through the signaling server (`answered`) but no data channel opens (ICE failed:
  `blocked`, or nothing open for UNREACHABLE_MS since the first such attempt began), the
  player is told "unreachable" (this network cannot reach the host's phone), not that the
  host is away; the page keeps trying and recovers by itself once a channel opens;
- a browser without WebRTC (`no_webrtc`) can never connect: the page stops trying and says
  so ("no_webrtc"), once.
"""

# what the player is told (Link.status, Link.signal) and its thresholds: ui/page/net/link_signal.py
from ui.page.net.link_signal import (BEAT_STALE_MS, BEHIND_MS, GONE_AFTER,  # noqa: F401
                                 QUIET_MS, LinkSignal)

PING_MS = 3000
HOST_SILENT_MS = 9000         # 3 pongs missed
ATTEMPT_MS = 8000
DOUBT_MS = 3500               # a doubted connection must be heard from within this
RETRY_MS = (250, 500, 1000, 2000, 3000)
HOST_GONE_MS = 30000          # no word from the host this long: it counts as gone
LATE_GAP_MS = 5000            # the page's own steps this far apart: it did not run meanwhile
AWAY_TRIES = 1                # a page back from away: its own attempts that failed before it
                              # takes its old room for gone (one: a holder's share must still
                              # reach a successor that waits SHARE_WAIT_MS for it)
UNREACHABLE_MS = 15000        # the host answers, and no channel opened for this long: the
                              # network between the phones blocks it
BEAT_MS = 1000                # the host's page sends every guest a `beat` this often, all at once
SILENT_MS = 5000              # a page never seated here, and nothing at the room id has answered
                              # for this long: said as "no_room" (a wrong or ended link), while
                              # the page keeps trying


def backoff(failures, ladder=RETRY_MS):
    """The wait (ms) before try number `failures` + 1 (failures >= 1): the ladder's step for
    it, then its last step forever. The one backoff of the pages (ui/page/net/net.py's PeerJS
    registration climbs a ladder of its own through it)."""
    i = failures - 1 if failures > 0 else 0
    return ladder[i] if i < len(ladder) else ladder[-1]


def beat_due(last_at, now):
    """True when the host's page sends its guests the next `beat` (`Link.beat`): none sent
    yet (`last_at` None) or BEAT_MS since the last (ms)."""
    return last_at is None or now - last_at >= BEAT_MS or now < last_at


def steady(status):
    """The signal of a page with no host to watch (the host's own screen, a page taking the
    room over): `status`, nothing paused, nothing lost (see `Link.signal`)."""
    return {"status": status, "paused_since": None, "gone_at": None, "lost": False,
            "behind": False}


class Link(LinkSignal):
    """A guest's connection to the host, as decisions (what the player is told of it:
    LinkSignal, ui/page/net/link_signal.py).

    The page reports what happens (`connecting`, `opened`, `heard`, `lost`, `woke`) and calls
    `step(now)` often (every UI tick); `step` returns what to do now, a list of:
      "drop"     close the current data connection (it is dead or never opened)
      "connect"  open a new one (make the Peer again first if it is gone)
      "ping"     send a ping
    `status()` is what the player is told: "ok", "host_paused" (seated, and the host has
    been silent for QUIET_MS: the game shows as paused, its countdowns stopped, until the
    host is heard again or the connection counts as dead), "connecting" (never had a seat yet),
    "reconnecting" (lost it, trying again, while this page itself is off the signaling
    server: `online` False; on it, a lost connection says "host_paused":
    netcheck.lost_channel_status), "host_gone" (the host is not there: waiting
    for it to come back; only said while this page itself reaches the signaling server),
    "host_unverified" (the peer at the room id could not prove it is the host) or
    "no_room" (never seated here and no host holds the room id: a mistyped or ended link;
    the page still retries, in case the host is only starting), "unreachable" (the host
    answers but no channel opens: this network blocks it; still trying), "no_webrtc"
    (this browser cannot play with friends; never trying) or "bad_link" (the link's room
    id cannot be a room's, roomcode.is_room_id: said at once, never trying). A page never
    seated here that has had no answer from the room id for SILENT_MS says "no_room" too
    (still trying: a host only starting answers later, and the page goes on at once).
    """

    def __init__(self, now, seated=False, gone_ms=HOST_GONE_MS):
        self.gone_ms = gone_ms
        self.host_heard = now     # the host's last sign of life (a reloaded page: its load)
        self.open = False
        self.seated = seated      # had (or, with a saved token, has) a seat in this room
        self.attempt_at = None    # when the current attempt began
        self.retry_at = now       # when to try next (None: not waiting to)
        self.failures = 0         # failed attempts since the room last seated this page
        self.missing = False      # the signaling server knows no host with the room id
        self.last_heard = None
        self.last_ping = None
        self.join_at = None       # when a join went out that no welcome answered yet
        self.online = True        # this page reaches the signaling server (netcheck.own_link_up)
        self.impostor = False     # the last peer at the room id failed the seat proof
        self.idle_closed = False  # the host closed our unjoined connection: reopening quietly
        self.doubt_at = None      # when the page doubted the open connection (`doubt`)
        self.quiet = False        # seated, open, and the host silent for QUIET_MS (`step`)
        self.late_at = None       # seated, and this page itself was away until then
        self.stepped = now        # the page's last `step`
        self.incapable = False    # this browser has no WebRTC: it never connects (`no_webrtc`)
        self.reach_since = None   # since when attempts the host answered fail to open
        self.ice_failed = False   # one of those failed outright (ICE failed)
        self.unreachable = False  # (`step`) the network blocks the channel to the host
        self.born = now           # when this page started looking for the room
        self.silent = False       # (`step`) never seated, nothing answered for SILENT_MS
        self.malformed = False    # the room id cannot be a room's: never connects (`bad_link`)
        self.beat_at = None       # when the host's last `beat` came (`beat`, `sign`)
        self.was_offline = False  # (`step`) this page's own link was down since it last
                                  # heard the host (`own_fault`)
        self.offline = False      # (`step`) ... and is down at the last step
        self.attempt_online = True  # the current attempt began while this page was online
        self.away_tries = 0       # attempts that failed since this page was back (`lost`)
        self.away_missing = False # ... and the signaling server said the room id is free

    # ---- what happened --------------------------------------------------------------------

    def connecting(self, now):
        """The page began an attempt to open a data connection at `now` (ms); it fails if
        not open within ATTEMPT_MS (`step`). Returns None, raises nothing."""
        self.attempt_at = now
        self.attempt_online = self.online     # (one made offline says nothing of the host)
        self.retry_at = None

    def opened(self, now):
        """The data connection opened at `now` (ms): the attempt succeeded, silence is judged
        from here, and what was said of the host's absence or the network (missing,
        unreachable, doubted) is cleared. Returns None, raises nothing."""
        self.open = True
        self.idle_closed = False
        self.attempt_at = None
        self.retry_at = None
        self.missing = False
        self.last_heard = now
        self.last_ping = None
        self.join_at = None
        self.doubt_at = None
        self.reach_since = None
        self.ice_failed = False
        self.unreachable = False

    def answered(self, now):
        """The host answered the current attempt through the signaling server (its page is
        there and runs): if no channel opens now, the network between the phones is why."""
        if self.attempt_at is not None and not self.open and self.reach_since is None:
            self.reach_since = self.attempt_at

    def blocked(self, now):
        """The current attempt's connection failed outright (ICE failed: no path between the
        phones was found). Unreachable at once, unless the signaling server says no host
        is at the room id."""
        if self.open:
            return
        self.ice_failed = True
        if self.reach_since is None:
            self.reach_since = self.attempt_at if self.attempt_at is not None else now

    def no_webrtc(self):
        """This browser cannot open data channels at all: stop trying for good."""
        self.incapable = True
        self.attempt_at = None
        self.retry_at = None

    def bad_link(self):
        """The link's room id cannot name a room (roomcode.is_room_id): never try."""
        self.malformed = True
        self.attempt_at = None
        self.retry_at = None

    def joining(self, now):
        """The page sent `join` on the open connection."""
        self.join_at = now

    def heard(self, now, seated=False):
        """A message from the host (seated: it was the welcome that answers a join)."""
        self.last_heard = now
        self.doubt_at = None
        self.host_heard = now
        self.late_at = None
        if seated or self.join_at is None:
            self.was_offline = False      # (not on the seat proof's challenge: not back yet)
        if seated:
            self.seated = True
            self.join_at = None
            self.failures = 0             # back in: the next loss starts the backoff over
            self.impostor = False

    def beat(self, now):
        """The host's `beat` (besides `heard`): the host's page sends it to every guest at
        the same moment, every BEAT_MS, so it arrives at about the same moment on every
        screen: the pause's one clock (`sign`)."""
        self.beat_at = now

    def refused(self):
        """The room answered the join with a refusal (the name): the connection is good, and
        nothing is pending until the player joins again (no retry with the same name)."""
        self.join_at = None

    def lost(self, now, missing=False, blocked=False):
        """The connection closed, an attempt failed, or (missing) the signaling server says
        no peer holds the room id (the host's page is closed or reloading); `blocked`: it
        closed because its ICE failed (`blocked`)."""
        if blocked:
            self.blocked(now)
        idle = self.open and self.join_at is None and not self.seated and not missing
        if self.late_at is not None:
            # back from away: what it learns of its old room since (`old_room_gone`)
            if not self.open and self.attempt_at is not None and self.attempt_online:
                self.away_tries += 1
            self.away_missing = self.away_missing or missing
        self.open = False
        self.doubt_at = None
        self.attempt_at = None
        self.join_at = None
        self.missing = missing
        if missing:
            self.impostor = False         # nobody holds the id now
            self.reach_since = None       # and nobody answers: the host is away
            self.ice_failed = False
            self.unreachable = False
        if idle:
            # An open connection on which we asked for nothing: the host closes those after
            # 10 s (ui/shared/gate.py). Not a failure; connect again at once, say nothing.
            self.idle_closed = True
            self.retry_at = now
            return
        self.idle_closed = False
        self.failures += 1
        self.retry_at = now + backoff(self.failures)

    def unverified(self, now):
        """The peer at the room id answered our rejoin without proving it knows our seat's
        token (an impostor, or a host that lost this seat): the page drops the connection;
        try again with backoff, telling the player "host_unverified"."""
        self.lost(now)
        self.impostor = True

    def old_room_gone(self):
        """True when this page, back from away (`late_at`), knows its old room is gone: since
        it was back, the signaling server said no peer holds the room id, or AWAY_TRIES
        attempts failed to open (within ATTEMPT_MS each: a host that runs answers one in a
        second or two; one begun before it was away counts, one begun offline does not; the
        channel that died while it was away is not an attempt). Only then may it look for the room elsewhere and
        offer its share there: a designate that registered the next id early while the host
        is fine gets nothing from a page that merely woke (docs/protocol.md "Back from
        away"). False once the host is heard (`heard` ends `late_at`)."""
        return self.late_at is not None and (self.away_missing
                                             or self.away_tries >= AWAY_TRIES)

    def woke(self, now):
        """The page is shown again, or the network is back: check at once."""
        if self.open:
            self.last_ping = None             # ping now; silence is judged from last_heard
        elif self.attempt_at is None:
            self.retry_at = now

    def doubt(self, now):
        """This page's Peer lost the signaling server: its network may have changed, and
        its data connection died without a word. Ping now; heard nothing within DOUBT_MS,
        the connection is dead (`step` drops it). Nothing to doubt while not open."""
        if self.open and self.doubt_at is None:
            self.doubt_at = now
            self.last_ping = None

    # ---- what to do -----------------------------------------------------------------------

    def step(self, now):
        """What the page must do at `now` (ms): a list of "drop", "connect", "ping" (each at
        most once, in that order; see the class), after judging silence, failed
        attempts and unanswered joins; it also updates what `status()` says (quiet,
        unreachable, silent, behind). [] for a browser without WebRTC or a bad link.
        Raises nothing."""
        if self.incapable or self.malformed:
            return []
        todo = []
        if self.seated and (not self.online or now - self.stepped >= LATE_GAP_MS):
            self.late_at = now                # away itself: offline, or did not run
            self.away_tries, self.away_missing = 0, False
        self.stepped = now
        if not self.online:
            self.was_offline = self.offline = True
        elif self.offline:
            self.offline = False
            self.failures = 0                 # attempts made offline say nothing of the host
        if self.open and self.last_heard is not None and now - self.last_heard >= HOST_SILENT_MS:
            self.lost(now)
            todo.append("drop")
        if self.open and self.doubt_at is not None and now - self.doubt_at >= DOUBT_MS:
            self.lost(now)                    # doubted, and not a word since
            todo.append("drop")
        if self.attempt_at is not None and now - self.attempt_at >= ATTEMPT_MS:
            self.lost(now)
            todo.append("drop")
        if self.open and self.join_at is not None and now - self.join_at >= ATTEMPT_MS:
            self.lost(now)                    # open, but the room never seated us on it
            todo.append("drop")
        if not self.open and self.attempt_at is None and self.retry_at is not None \
                and now >= self.retry_at:
            self.connecting(now)
            todo.append("connect")
        if self.open and (self.last_ping is None or now - self.last_ping >= PING_MS):
            self.last_ping = now
            todo.append("ping")
        self.quiet = (self.open and self.seated and self.join_at is None
                      and self.last_heard is not None and now - self.last_heard >= QUIET_MS)
        self.unreachable = (not self.open and self.online and not self.missing
                            and self.reach_since is not None
                            and (self.ice_failed or now - self.reach_since >= UNREACHABLE_MS))
        self.silent = (not self.seated and not self.open and self.reach_since is None
                       and self.last_heard is None and now - self.born >= SILENT_MS)
        return todo
