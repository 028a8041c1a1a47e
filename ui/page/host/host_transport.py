"""The host page's transport (MicroPython, main thread): the room's PeerJS id (HostNet,
ui/page/net/net_host.py), its guests' connections to the engine's room and back, registering the id
again with backoff, and telling a takeover's spectators where the room went. A part of
HostPage (ui/page/host/host_page.py), which holds `net`, `engine`, `client`, `room_id`."""
from ui.page.host import early
from ui.page.browser import log, now, random_hex, set_query
from ui.page.net.link import backoff, beat_due
from ui.page.net.net_host import HostNet
from ui.page.host.textlimit import TextLimit
from ui.page.net.webrtc import incapable
from ui.shared import wire

BEAT_TEXT = wire.encode(wire.message("beat"))
TOO_BIG_TEXT = wire.encode(wire.error("too_big", "message larger than 16 KB"))


class HostTransport:
    """HostPage's network side. State: `net` (HostNet or None: no room, or solo),
    `failures` (tries to register the room id that failed in a row), `retry_at` (wall ms of
    the next try, or None), `followers` (after a takeover: the spectators to tell)."""

    def init_transport(self):
        self.net = None
        self.failures = 0
        self.retry_at = None
        self.followers = []
        self.limit = TextLimit()      # each guest connection's texts, before the worker
        self.door_net = None          # after a takeover: the door at the room's first id
        self.beat_at = None           # when the last `beat` went out (`beat`)
        self.seated = []              # the connections the room welcomed (they get beats)
        self.early = None             # (host name, resumed) said to guests while the engine
        self.early_joined = []        # starts (ui/page/host/early.py), and who joined meanwhile
                                      # ([connection, the name its join gave], in order)

    def start_net(self):
        room_id = self.room_id
        # The room's PeerJS token, kept across reloads: the LAN signaling server keeps the
        # room id reserved for it, so that a reloaded host page gets its id back first.
        token = self.saves.peer_token(room_id, lambda: random_hex(16))
        self.net = HostNet(room_id, self.net_open, self.conn_open, self.conn_text,
                           self.conn_close, self.net_error, token=token)
        self.name_room_in_url(room_id)

    def stop_net(self):
        if self.net is not None:
            self.net.shutdown()
        if self.door_net is not None:
            self.door_net.stop()

    def name_room_in_url(self, room_id):
        """The URL names the room (?host=<id>, no ?room= of a guest that took over): a
        reload of this tab resumes it."""
        set_query("host", room_id, drop="room")

    def retry_net(self, now):
        """Called every UI tick: register the room id again once its backoff is over."""
        if self.net is not None and self.retry_at is not None and now >= self.retry_at:
            self.retry_at = None
            self.net.ensure()

    def net_open(self):
        log("room open:", self.room_id)
        self.failures = 0
        self.retry_at = None
        self.client.set_status("ok")
        self.tell_followers()
        self.render()

    def tell_followers(self):
        """After a takeover: tell the old room's spectators where the room is now (`moved`),
        once this page holds the new id (never before: a spectator must not learn the next
        id while someone else could still take it)."""
        if not self.followers or self.net is None or not self.net.open:
            return
        followers, self.followers = self.followers, []
        for f in followers:
            if isinstance(f.get("peer"), str) and isinstance(f.get("text"), str):
                self.net.tell(f["peer"], f["text"])
        log("told", len(followers), "spectators where the room is")

    def net_error(self, kind):
        log("peer error:", kind)
        if self.net.open or incapable(kind, self.client):
            return      # a guest's connection failed: the room id is ours; or no WebRTC here
        # Not registered (the id still held by our own reloaded page, or the server lost):
        # try again with backoff, for as long as the page is open.
        self.failures += 1
        self.retry_at = self.now() + backoff(self.failures)
        self.client.set_status("connecting")
        self.render()

    def beat(self, now):
        """Called every UI tick: while the room runs, every BEAT_MS one `beat` to every
        connection the room welcomed, at once (ui/page/net/link.py `Link.sign`: the moment every
        guest's pause and countdown count from, the same on every screen)."""
        if self.net is None or self.engine.state != "ready" or not beat_due(self.beat_at, now):
            return
        self.beat_at = now
        self.seated = [cid for cid in self.seated if cid in self.net.conns]
        for cid in self.seated:
            self.net.send(cid, BEAT_TEXT)

    def send_remote(self, todo):
        """The room's messages for its guests (hostlife.sort_out's "remote"), sent before the
        host's own screen reads its view: every guest's screen waits on them. A connection
        the room sent its `welcome` is a seated guest's from then on, and gets the beats."""
        if self.net is None:
            return
        for conn, text, kind in todo["remote"]:
            self.net.send(conn, text)
            if kind == "welcome" and conn not in self.seated:
                self.seated.append(conn)

    def deliver(self, todo, dropped):
        """After `send_remote`: the connections the room closes (hostlife.sort_out's
        "close") and those the door dropped (not seated within 10 s, or pushed out by newer
        ones: ui/shared/gate.py)."""
        if self.net is None:
            return
        for conn in todo["close"]:
            self.net.close(conn)
        for conn in dropped or []:
            self.net.close(conn)
        if not self.net.open:
            self.client.set_status("connecting")

    def conn_open(self, cid, peer):
        self.engine.request({"op": "open", "conn": cid, "peer": peer, "now": self.clock()})

    def conn_text(self, cid, text):
        verdict = self.limit.take(cid, text, now())
        if verdict == "too_big" and self.net is not None:
            self.net.send(cid, TOO_BIG_TEXT)
        if verdict != "pass":
            # a flood or an oversized text: nothing of it reaches the worker (ui/page/host/textlimit.py)
            if verdict == "close" and self.net is not None:
                log("connection", cid, "floods the room: closed")
                self.net.close(cid)
                self.conn_close(cid)          # (a close of our own: the room forgets it too)
            return
        if self.engine.state != "ready" and self.net is not None:
            # the room waits in the engine worker: this page answers pings and joins itself
            # (ui/page/host/early.py), so that a guest waits on its connection however long it takes
            name, back = self.early or ("?", False)
            friend = early.arriving(text)
            if friend is not None:
                # the lobby: "Gina is arriving…" (one name a connection, the last it gave;
                # as many as the room's gate lets wait)
                self.early_joined = early.joined(self.early_joined, cid, friend)
                self.render_soon()
            joined = any(c == cid for c, _ in self.early_joined)
            for reply in early.answer(text, name, back, joined):
                self.net.send(cid, reply)
            if early.answered(text):
                return                        # (a ping: answered once, here)
        self.engine.request({"op": "receive", "conn": cid, "text": text, "now": self.clock()})

    def arriving(self):
        """The names of the friends whose join waits for the engine (early.still_arriving),
        for the host's lobby; none once the engine runs (the room seats them)."""
        if self.engine.state == "ready":
            self.early_joined = []
            return []
        return early.still_arriving(self.early_joined, self.client.players
                                    if self.client is not None else [])

    def conn_close(self, cid):
        self.limit.forget(cid)
        if any(c == cid for c, _ in self.early_joined):
            self.early_joined = [pair for pair in self.early_joined if pair[0] != cid]
            self.render_soon()
        self.engine.request({"op": "close", "conn": cid, "now": self.clock()})
