"""What every screen runs: the model of one seat, fed by the room's messages.

MicroPython-compatible (guests run it there): plain classes and dicts; no
dataclasses, typing or enum. No clock of its own: every call that needs time takes `now` (ms).
Contract: docs/protocol.md ("Client").

The page renders the attributes below and calls `join`, `act`, `host` on the player's intents.
"""

from ui.page.client import client_reactions, fairplay, taps, watchers
from ui.page.client.client_page import PageSide
from ui.page.client.client_reveals import REVEAL_MS, RevealSide  # noqa: F401 (REVEAL_MS: tests read it here)
from ui.page.client.client_handover import HandoverSide
from ui.page.client.client_send import SendSide
from ui.page.client.client_view import SYNC_RETRY_MS, ViewSide, count  # noqa: F401 (tests read it here)
from ui.page.client.presence import Pause, left_ms  # noqa: F401 (left_ms: tests read it here)
from ui.shared import spectator_moves
from ui.shared import wire
from ui.shared.wire import VERSION, is_hex, is_int, is_seat  # VERSION: the protocol's one

SETTLE_MS = 1000      # a welcome waits this long at most for its view to be drawn with it


# Each message type from the room (ui/shared/wire.py FROM_ROOM) -> the Client method that reads
# it (msg, now) -> True when the model changed.
RECEIVERS = {
    "welcome": "_on_welcome", "restarting": "_on_restarting", "sealed": "_on_sealed", "host_leaving": "_on_host_leaving",
    "standby": "_on_standby", "watching": "_on_watching", "lobby": "_on_lobby",
    "view": "_on_view", "commit": "_on_fair", "fair": "_on_fair", "proof": "_on_fair",
    "error": "_on_error", "kicked": "_on_kicked", "pong": "_on_pong", "reaction": "_on_reaction",
}


class Client(PageSide, SendSide, RevealSide, ViewSide, HandoverSide,
             client_reactions.ReactSide):
    """One seat's view of the room: what it reads from the room's messages here; the views
    (ViewSide, client_view.py); what a host handover needs kept (HandoverSide,
    client_handover.py); what it sends (SendSide, client_send.py), its one-time reveals
    (RevealSide, client_reveals.py), its quick reactions (ReactSide, client_reactions.py),
    what the page sets (PageSide).

    Attributes (the model the page renders):
      screen   "join" | "lobby" | "table" | "gone"
      seat, token, room, is_host, name
      lobby    the last lobby message (players, options, host, started) or None
      view     the last view (docs/protocol.md), or None; view_at: the `now` it arrived at
               (its remaining times, e.g. draw_left, count from then)
      players  [{seat, name, connected, bot, wins}] (wins: games won in this room)
      history  each finished round's points of this game, per seat ([[int]]); games: the
               games played to the end in this room
      log      the public events of this round, newest last
      reveals  {(seat, pos): card} shown once right now; reveal_until {(seat, pos): ms | None |
               "turn"} (None: the peek, shown until this seat is ready; "turn": a Jack's or
               a Queen's reveal, shown until the next turn begins or `dismiss_reveals`)
      error    the last {code, text} from the room, or None; kicked: {code, text} or None
      name_error  "bad_name" | "name_taken" when the room refused this page's join for its
               name (the join screen says so until the next join), else None
      status   "connecting" | "ok" | "reconnecting" | "host_gone" | "host_unverified" |
               "host_paused" | "no_room" | "looking" (`set_link`: ui/page/net/link.py's signal)
      pause    the game paused (ui/page/client/presence.py `Pause`: since, seat, gone_at): the host
               silent, or a host handover under way; every countdown stops at `pause.since`
               (presence.elapsed_ms) and the seat `pause.seat` shows away
      host_lost  the host counts as gone (ui/page/net/link.py `host_lost`); behind: this page was
               away itself (it only follows the room, never takes it over)
      n        the counter of the last view; latency: ms of the last ping round trip
      rtt, slow  the link's round trip (ms, the median of the last pongs', `rtts`: each
               ping's first pong, none for a ping sent before the last welcome) and
               whether it is slow (ui/shared/linkspeed.py); view_lead: ms this view's
               countdowns end sooner on this page (a slow round trip, linkspeed.lead; 0 on
               the host's screen); crisp_end: when the crisp window shown here ends
      tapped   the move sent and not answered yet, drawn taken (ui/page/client/taps.py), or None
      last_type  the `type` of the last message received from the room, read from the
               parsed message (None when it was malformed or not from a trusted peer)
      trusted  the peer on this connection is the room: the host's own screen, a guest's
               first join (trust on first use), or a host that proved it knows this seat's
               token (docs/protocol.md "Rejoining: the seat proof"). Until then every
               message but a `challenge` is ignored.
      suspect  True once the peer on this connection failed to prove itself (the page drops
               the connection and says `host_unverified`); the page clears it
      spectator True while this page watches without a seat (a late friend, docs/protocol.md
               "Spectators"); ask: its request {seat (None: next game), name}; watchers, took
      verdict  the check of the last round dealt from a committed shuffle, or None:
               {"round": r, "ok": bool, "what", "detail", "saw", "expected"} (docs/protocol.md
               "Verifiable shuffle"); record: that round's record (JSON-safe), to save

    `nonce()` returns 32 fresh random hex digits (a guest page: crypto.getRandomValues).
    `entropy()` (default: `nonce`) gives this page's contribution to each committed shuffle,
    also 32 random hex digits. The host's own screen contributes nothing but still checks the
    rounds.
    """

    def __init__(self, send, is_host=False, nonce=None, entropy=None, test_build=False):
        self.send = send
        self.test_build = test_build is True   # a test build: a round with no commitment
                                               # is its stacked ?deck=, said as such
        self.nonce = nonce
        self.page_id = None       # this page's id in its first joins (`page`: one person)
        self.is_host = is_host
        self.trusted = True
        self.suspect = False
        self._ask = None          # the rejoin in progress: what the host's proof must match
        self.entropy = entropy if entropy is not None else nonce
        self.fair = {}          # round -> what this page saw of that round's commitment
        self.dialed = None      # the room id this page joined (its own, never the host's word)
        self.committed = {}     # room id -> the highest round this page answered a commit of
        self.pending = None     # (room, deal, round, commitment, welcomes): answered, its
                                # round not ended yet (ui/page/client/fairplay.py)
        self.welcomes = 0       # welcomes this page got (each a (re)join)
        self._segment = True    # the next view starts a new segment of observed events
        self.verdict = None
        self.record = None
        self.screen = "join"
        self.seat = None
        self.token = None
        self.room = None
        self.name = None
        self.lobby = None
        self.view = None
        self.view_at = 0
        self.players = []
        self.history = []
        self.games = 0
        self.log = []
        self.reveals = {}
        self.reveal_until = {}
        self.error = None
        self.kicked = None
        self.name_error = None
        self.status = "connecting"
        self.pause = Pause()
        self.n = 0
        self.latency = None
        self.rtts = []            # the last pongs' round trips (ui/shared/linkspeed.py)
        self.rtt = None           # ... their median, ms, once one came
        self.pong_t = None        # the ping (its `t`) of the last of them: each counts once
        self.pongs_from = None    # ... and none for a ping sent before the last welcome
        self.slow = False         # this page's link to the host is slow (with hysteresis)
        self.view_lead = 0        # ms: this view's countdowns end this much sooner here
        self.crisp_end = None     # ms, this page's clock: the crisp window shown ends then
        self.tapped = None        # the move sent and not answered yet (ui/page/client/taps.py)
        self.last_heard = None
        self.fresh = True         # the next view starts over (after a welcome): no gap to see
        self.synced_at = None     # when this page last asked for `sync`
        self.last_type = None
        self.spectator = False
        self.ask = None
        self.sealed = None        # the newest sealed room and this seat's share (host handover)
        self.standby = None       # {seat, tokens, watchers}: the old host's for this designate
        self.follow, self.next_ids = None, []   # `watching`'s follow token, next ids' marks
        self.handover = None      # the page's handover in progress: {"name", "me"} (shown)
        self.host_seat = 0        # the seat whose page hosts (lobby `host`, `sealed` `host`)
        self.succession = None    # the room's succession secret (`welcome`): its next ids
        self.host_leaving = False  # the host said it leaves the game (`host_leaving`)
        self.restarting = False   # the host's game restarts (`restarting`) until a welcome
        self.redealt = None       # the round a host handover dealt again (`welcome` redealt)
        self.version_clash = None  # the room speaks another protocol version: {host, name}
        self.players_at_leave = None  # the players list when it said so
        self.left_host = None     # the seat of a host that said it leaves (its handover says so)
        self.welcomed_at = None   # a welcome came, its view or lobby not yet (`settling`)
        self._batch = 0
        self._reveal_batch = {}

    # ---- from the room ------------------------------------------------------------------

    def receive(self, text, now):
        """One message from the room (JSON text). Returns True when the model changed
        (re-render). A malformed message is ignored (returns False): the room is trusted,
        the wire is not."""
        return self.take(wire.read(text, any_version=True), now)

    def take(self, msg, now):
        """One message from the room already read (`wire.read(text, any_version=True)`: a
        dict, or None for a text that was none): as `receive`, for a page that reads each
        text once. A message of another version is read only for a version clash."""
        self.last_type = None
        if msg is None:
            return False
        kind = msg.get("type")
        if not self.trusted:
            # (a version clash too: an unproven peer cannot say the host's game is another
            # version; a first join's connection is trusted on first use and may)
            return self._unproven(kind, msg) if wire.current(msg) else False
        if not wire.current(msg):
            return self._clash(msg)             # another build's room?
        self.last_heard = now
        self.status = "ok"                 # a message from the room: it is there
        if self.pause.since is not None:
            # The host was silent (its page may not have run): the countdowns we show were
            # stopped; ask for the table as it is now, with fresh remaining times.
            self.pause.end()
            if self.view is not None and kind != "view":
                self._resync(now)
        self.last_type = kind if isinstance(kind, str) else None
        handler = RECEIVERS.get(kind) if isinstance(kind, str) else None
        watchers.heard(self, kind, msg)     # who watches, whose seat was taken (before it)
        return getattr(self, handler)(msg, now) if handler is not None else False

    def _on_welcome(self, msg, now):
        """`welcome` from the room: True when the model changed."""
        seat = msg.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            return False
        self.seat = seat
        if is_hex(msg.get("token"), 32):    # a first join's, or after a handover the fresh
            self.token = msg.get("token")    # one for a derived token (docs/protocol.md)
            # welcomed: from now on it proves its seat with the token; a later first join of
            # this page (after it left) is a new person, its page id opens nothing
            self.page_id = None
        if msg.get("room") != self.room:
            # Seated in another room (a handover's new id): the old room's sealed box and
            # standby tokens never open or seat anyone here; the new host sends its own,
            # whose numbers (from 1 again) must not lose to the old box's.
            self.sealed = None
            self.standby = None
        self.room = msg.get("room")
        if is_seat(msg.get("host")):
            self.host_seat = msg.get("host")     # moves with a host handover
        if is_hex(msg.get("succession"), 32):
            self.succession = msg.get("succession")   # the room's next ids (handover)
        self.spectator = False
        self.ask = None
        self.welcomed_at = now
        self.pongs_from = now     # a ping that waited behind this rejoin is no round trip
        # A (re)seat: the views that follow start over (the room replays the round's log).
        self.fresh = True
        self._segment = True
        self.welcomes += 1        # the fair-play checks: was this page away since it answered?
        self.log = []
        return self._seated(msg)

    def _on_restarting(self, msg, now):
        """`restarting`: the host's engine restarts (ui/page/host/enginewatch.py); this connection
        closes and the page rejoins its seat."""
        self.restarting = True
        return True

    def _seated(self, msg):
        """What a `welcome` clears and says besides the seat: errors, the one-time reveals,
        a restart's banner; `redealt` (a handover dealt this round again: the screens say
        why). True (the model changed)."""
        self._clear_reveals()
        self.version_clash = None           # a trusted room seated this page: no clash
        self.error = None
        self.name_error = None
        self.restarting = False
        redealt = msg.get("redealt")
        self.redealt = redealt if is_int(redealt) else None
        return True

    def _clash(self, msg):
        """A room of another protocol version refused this page's message (`error`
        `bad_version`, readable whatever its `v`: docs/decisions.md "One page runs one build"): `version_clash` says
        whose page is newer ({"host": its version, "name": the host's name}), the screens say
        who must reload. True when `msg` was that."""
        version = msg.get("protocol", msg.get("v"))
        if msg.get("type") != "error" or msg.get("code") != "bad_version" \
                or not is_int(version) or version == VERSION:
            return False
        name = msg.get("host_name")
        self.version_clash = {"host": version,
                              "name": name[:40] if isinstance(name, str) else None}
        return True

    def _on_watching(self, msg, now):
        """`watching` from the room: True when the model changed."""
        self.spectator = True
        # its follow token and the marks of the room's real next ids: a `moved` needs both
        self.follow = msg.get("follow") if is_hex(msg.get("follow"), 32) else None
        self.next_ids = spectator_moves.id_marks(msg.get("next"))
        ask = msg.get("ask")
        self.ask = ask if isinstance(ask, dict) else None
        self.room = msg.get("room") if isinstance(msg.get("room"), str) else self.room
        if is_seat(msg.get("host")):
            self.host_seat = msg.get("host")     # the crown; it moves with a handover
        return True

    def _on_lobby(self, msg, now):
        """`lobby` from the room: True when the model changed."""
        self.lobby = msg
        self.welcomed_at = None
        self.players = msg.get("players") or []
        if is_seat(msg.get("host")):
            self.host_seat = msg.get("host")
        self.games = count(msg.get("games"), self.games)
        if self.spectator and self.seat is None:
            # watching a lobby: the player may still type a name and join it
            if not msg.get("started") and self.screen == "table":
                self.screen = "join"
                self.view = None
            return True
        if not msg.get("started") and self.screen != "gone":
            self.screen = "lobby"
            # back in the lobby (a new game after game over): the old game is gone
            self.view = None
            self.log = []
            self.history = []
            self._clear_reveals()
            fairplay.reset(self)
        return True

    def _on_fair(self, msg, now):
        """`commit`, `fair`, `proof` from the room: True when the model changed."""
        return self._fair_message(msg["type"], msg)

    def _on_error(self, msg, now):
        """`error` from the room: True when the model changed. A move shown taken
        (`tapped`) goes back: refused, it says why (the error), or stale (nothing to say)."""
        tapped, self.tapped = self.tapped, None
        if msg.get("code") == "stale":
            # A tap that crossed a new view (a double tap, a timer): the fresh view is on
            # its way or here already, and shows what happened; nothing to tell.
            return tapped is not None
        self.error = {"code": msg.get("code"), "text": msg.get("text")}
        if self.seat is None and msg.get("code") in ("bad_name", "name_taken"):
            self.name_error = msg.get("code")
        return True

    def _on_kicked(self, msg, now):
        """`kicked` from the room: True when the model changed."""
        self.welcomed_at = None
        self.kicked = {"code": msg.get("code"), "text": msg.get("text")}
        self.error = self.kicked
        self.screen = "gone"
        if msg.get("code") in ("removed", "replaced", "left"):
            self.token = None     # the seat is gone: a later visit joins afresh
        return True

    # ---- the committed shuffle (docs/protocol.md "Verifiable shuffle"; ui/page/client/fairplay.py) ------

    def _fair_message(self, kind, msg):
        """`commit`, `fair` or `proof` from the room: ui/page/client/fairplay.py checks them."""
        return fairplay.receive(self, kind, msg)

    def tick(self, now):
        """The clock's work at `now` (ms): the reveals whose time is up turned back, a move
        the room never answered shown settled (taps.PENDING_MS). True when one was."""
        changed = RevealSide.tick(self, now)
        if taps.expired(self.tapped, now):
            self.tapped = None
            changed = True
        return changed

    # ---- helpers for screens -------------------------------------------------------------

    def settling(self, now):
        """True from a `welcome` until the view or lobby the room sends right after it (the
        seat's table; at most SETTLE_MS after the welcome, `now` ms): a guest page draws the
        two together. Drawn alone, the welcome showed the table of before it under no banner
        (a host handover's new host's room: the old host shown there)."""
        return self.welcomed_at is not None and 0 <= now - self.welcomed_at < SETTLE_MS

    def allowed(self, kind):
        """The `allowed` entry of this kind in the current view, or None."""
        if self.view is None:
            return None
        for entry in self.view.get("allowed") or []:
            if entry.get("do") == kind:
                return entry
        return None

