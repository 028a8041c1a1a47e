"""Hostile or broken peers and untrusted text, against the real host page (docs/protocol.md
"Room messages"): a raw PeerJS connection opened in a page (the vendored PeerJS, no Crisp
code) sends what no Crisp page would. Each gets one error, to it alone; the host raises
nothing, its saved state and every other screen stay as they were.
"""

import json
import time

from crisp_rooms import join_room, no_errors, open_room, signature, wait_signature
from crisp_e2e import T, live, sel, shows

DECK = ["2c", "3s", "7h", "9d", "Td", "Ah", "5h", "4c", "8s", "6d", "Jc", "Qs"]
XSS = "<img src=x onerror=alert(1)>"
MAL = "  <script>alert(2)</script> Mallory  "

# Records every byte crypto.getRandomValues hands out, as hex.
RANDOM_TAP = """
(() => {
  window.__crispRandom = [];
  const real = Crypto.prototype.getRandomValues;
  Crypto.prototype.getRandomValues = function (array) {
    const out = real.call(this, array);
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    window.__crispRandom.push(Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""));
    return out;
  };
})();
"""

RAW = """
async () => {
  const peer = new Peer({host: location.hostname, port: Number(location.port), path: "/peerjs",
                         key: "peerjs", secure: false, config: {iceServers: []}});
  await new Promise((resolve, reject) => {
    peer.on("open", resolve);
    peer.on("error", (e) => reject(new Error(e.type)));
  });
  window.__raw = {peer, conns: {}, inbox: {}, errors: []};
  peer.on("error", (e) => window.__raw.errors.push(e.type));
  window.__rawOpen = async (room, name, serialization) => {
    const conn = peer.connect(room, {reliable: true, serialization: serialization || "raw"});
    __raw.inbox[name] = [];
    conn.on("data", (d) => __raw.inbox[name].push(typeof d === "string" ? d : "<" + typeof d + ">"));
    await new Promise((resolve, reject) => {
      conn.on("open", resolve);
      conn.on("error", (e) => reject(new Error(String(e))));
      setTimeout(() => reject(new Error("no open in 20 s")), 20000);
    });
    __raw.conns[name] = conn;
  };
  return peer.id;
}
"""


# Opens a connection with other options than Crisp's pages use, sends the first chunk of a
# 1 MB binary message (or a ping) if it opens, and reports what happened within 6 s.
ODD_CONNECTION = """
async ([room, serialization, metadata]) => {
  const options = {reliable: true, serialization};
  if (metadata) options.metadata = metadata;
  const conn = __raw.peer.connect(room, options);
  const fate = {opened: false, closed: false, data: []};
  conn.on("open", () => {
    fate.opened = true;
    try {
      conn.send(serialization === "raw" ? '{"type":"ping","v":1,"t":1}'
                                        : {type: "ping", v: 1, t: 1, pad: "x".repeat(1 << 20)});
    } catch (e) {}
  });
  conn.on("close", () => { fate.closed = true; });
  conn.on("data", (d) => fate.data.push(String(d).slice(0, 80)));
  await new Promise((resolve) => setTimeout(resolve, 6000));
  return fate;
}
"""


class Raw:
    """A raw PeerJS page: connections by name, what each received."""

    def __init__(self, page, room):
        self.page, self.room = page, room

    def open(self, name, serialization="raw"):
        self.page.evaluate("([r, n, s]) => window.__rawOpen(r, n, s)",
                           [self.room, name, serialization])

    def send(self, name, text):
        self.page.evaluate("([n, t]) => __raw.conns[n].send(t)", [name, text])

    def inbox(self, name):
        """What connection `name` received, but the host page's beats (once a second to a
        seated connection: no answer to anything)."""
        return [json.loads(t) for t in self.page.evaluate("(n) => __raw.inbox[n]", name)
                if '"type":"beat"' not in t]

    def answer(self, name, text, timeout=10):
        """Send one text; return the first message that came back after it."""
        seen = len(self.inbox(name))
        self.send(name, text)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.inbox(name)
            if len(got) > seen:
                time.sleep(0.3)                         # anything else that follows
                return self.inbox(name)[seen:]
            time.sleep(0.05)
        raise AssertionError("no answer to %r" % text[:80])


def wire_kinds(page):
    """The types of the messages a Crisp guest page received, but its pongs and beats."""
    return [json.loads(t)["type"] for t in page.evaluate("window.__crispWire")
            if '"type":"pong"' not in t and '"type":"beat"' not in t]


def saved_room(page):
    """The room the host page saved, without its clock readings (time goes on)."""
    room = json.loads(page.evaluate(
        "() => { const k = Object.keys(localStorage).find((k) => k.startsWith('crisp.room.'));"
        " return localStorage.getItem(k); }"))
    room.pop("now")
    room["game"].pop("clock")
    return room


def code_drawn(code, drawn):
    """True when the room code is secrets.randbits(50) of 7 bytes the page drew (CPython's
    SystemRandom: the top 50 bits of the bytes, big-endian; ui/shared/roomcode.py: 5 bits a
    character, lowest first)."""
    from ui.shared import roomcode
    for i in range(0, len(drawn) - 13, 2):
        n = int(drawn[i:i + 14], 16) >> 6
        if roomcode.new_code(lambda k: n) == code:
            return True
    return False


def watch_dialogs(page, seen):
    page.on("dialog", lambda d: (seen.append(d.message), d.dismiss()))


def test_hostile_peers_are_refused_one_by_one_and_names_show_as_typed(new_phone):
    host, link = open_room(new_phone, "Hana", "?deck=" + ",".join(DECK), init=RANDOM_TAP)
    hp = host.page
    room = link.split("?room=")[1]
    # the room id comes from the browser's crypto source (crisp.randomHex on the page; the
    # seat tokens below are drawn in the engine worker, where Pyodide's secrets -> os.urandom
    # -> getentropy -> the worker's crypto.getRandomValues, which no init script can tap)
    drawn = hp.evaluate("window.__crispRandom.join('')")
    assert room.startswith("crisp-") and code_drawn(room[6:], drawn)
    dialogs = []
    watch_dialogs(hp, dialogs)

    # -- Ana types a hostile name into the join screen (names keep 20 characters)
    ana = join_room(new_phone, link, XSS, 1, (hp,))
    ap = ana.page
    watch_dialogs(ap, dialogs)
    ana_name = XSS[:20]

    # -- Mallory: a raw PeerJS page
    mal = new_phone()
    mp = mal.page
    mp.goto(mal.site.url("/build.json"))
    mp.add_script_tag(url=mal.site.url(mal.site.vendor("peerjs") + "/peerjs.min.js"))
    mp.evaluate(RAW)
    raw = Raw(mp, room)
    raw.open("m")
    # messages before joining: refused, no seat
    got = raw.answer("m", '{"type":"action","v":1,"action":{"do":"ready"}}')
    assert [(m["type"], m.get("code")) for m in got] == [("error", "not_joined")]
    # joins with a long hostile name: trimmed and cut to 20 characters
    got = raw.answer("m", json.dumps({"type": "join", "v": 1, "name": MAL}))
    assert got[0]["type"] == "welcome" and got[0]["seat"] == 2
    token = got[0]["token"]
    assert len(token) == 32 and all(c in "0123456789abcdef" for c in token)
    assert token not in room
    shown = MAL.strip()[:20]
    lobby = [m for m in raw.inbox("m") if m["type"] == "lobby"][-1]
    assert [p["name"] for p in lobby["players"]] == ["Hana", ana_name, shown]
    for p in (hp, ap):
        p.wait_for_selector(sel("player-2"), timeout=T)
        # every screen shows both names as typed: text, not markup
        assert p.inner_text(sel("player-1")).startswith(ana_name), p.inner_text(sel("player-1"))
        assert p.inner_text(sel("player-2")).startswith(shown), p.inner_text(sel("player-2"))
        assert p.locator("#app img, #app script").count() == 0
    live(hp, "start-game")
    shows(hp, "card-0-left", "7h")
    for p in (hp, ap):
        live(p, "ready")

    # the game is in its peek phase; Mallory has not confirmed yet
    views = [m for m in raw.inbox("m") if m["type"] == "view"]
    n = views[-1]["n"]
    seen = len(raw.inbox("m"))
    raw.answer("m", json.dumps({"type": "action", "v": 1, "action": {"do": "ready"}, "n": n}))
    # the play view comes back; the sealed room for a successor may come before or after it
    deadline = time.monotonic() + T / 1000
    while [m["view"]["phase"] for m in raw.inbox("m")[seen:] if m["type"] == "view"][-1:] \
            != ["play"]:
        assert time.monotonic() < deadline, raw.inbox("m")[seen:]
        time.sleep(0.05)
    live(ap, "deck")                                   # Ana's turn: she holds 6d
    shows(ap, "held-card", "6d")
    time.sleep(3.5)                                    # one-time reveals over
    for p in (hp, ap):
        assert p.locator("#app img, #app script").count() == 0
        assert shown in p.inner_text(sel("seat-2"))
        assert ana_name in p.inner_text(sel("seat-1"))

    before_saved = saved_room(hp)
    before = {"Hana": signature(hp), "Ana": signature(ap)}
    ana_wire = wire_kinds(ap)
    replay = json.dumps({"type": "action", "v": 1, "action": {"do": "ready"}, "n": n})
    guessed = json.dumps({"type": "join", "v": 1, "name": "Thief", "seat_id": "0" * 32,
                          "nonce": "1" * 32})
    cases = [
        ("malformed JSON", "{", "bad_message"),
        ("nested too deep", "[" * 5000, "bad_message"),
        ("not an object", "[1, 2, 3]", "bad_message"),
        ("no version", '{"type": "ping", "t": 1}', "bad_version"),
        ("wrong type of field", '{"type": "ping", "v": 1, "t": "soon"}', "bad_message"),
        ("wrong type of n", '{"type":"action","v":1,"action":{"do":"discard"},"n":"7"}',
         "bad_message"),
        ("unknown type", '{"type": "teleport", "v": 1}', "unknown_type"),
        ("unknown field", '{"type": "ping", "v": 1, "t": 1, "admin": true}', "bad_message"),
        ("an action for another seat",
         '{"type": "action", "v": 1, "seat": 1, "action": {"do": "discard"}}', "bad_message"),
        ("another seat inside the action",
         '{"type": "action", "v": 1, "action": {"do": "discard", "seat": 1}}', "bad_message"),
        ("out of turn", '{"type": "action", "v": 1, "action": {"do": "draw"}}',
         "not_your_turn"),
        ("a replayed action", replay, "stale"),
        ("a view never sent", json.dumps({"type": "action", "v": 1, "n": n + 999,
                                          "action": {"do": "draw"}}), "bad_message"),
        ("host-only: start", '{"type": "start", "v": 1}', "not_host"),
        ("host-only: options", '{"type": "options", "v": 1, "target": 50}', "not_host"),
        ("host-only: next round", '{"type": "action", "v": 1, "action": {"do": "next_round"}}',
         "not_host"),
        ("join again as someone else", '{"type": "join", "v": 1, "name": "Eve"}',
         "already_joined"),
        ("200 KB", '{"type": "ping", "v": 1, "t": 1, "pad": "' + "x" * 200_000 + '"}',
         "too_big"),
    ]
    for what, text, code in cases:
        got = raw.answer("m", text)
        assert [(m["type"], m.get("code")) for m in got] == [("error", code)], (what, got)
    # PeerJS's "binary" serialization cuts messages into chunks that the host's PeerJS puts
    # together again: the first chunks of messages that never end grew the host tab by GBs.
    # The host closes at once a connection not opened the way Crisp's pages open one (that
    # serialization, or any metadata): nothing it sends is read, nothing comes back.
    for serialization, metadata in (("binary", None), ("json", None), ("raw", {"x": 1})):
        fate = mp.evaluate(ODD_CONNECTION, [room, serialization, metadata])
        assert fate["data"] == [] and (not fate["opened"] or fate["closed"]), (
            serialization, metadata, fate)
        raw.answer("m", '{"type": "ping", "v": 1, "t": 1}')   # Mallory's seat stays here

    # a guessed seat from another connection: no seat has that id, no challenge, no seat
    raw.open("thief")
    got = raw.answer("thief", guessed)
    assert [(m["type"], m.get("code")) for m in got] == [("error", "no_seat")]
    # and the token itself, the old way: refused before anything is looked up
    got = raw.answer("thief", json.dumps({"type": "join", "v": 1, "name": "Thief",
                                          "token": token}))
    assert [(m["type"], m.get("code")) for m in got] == [("error", "bad_message")]
    # a flood: the bucket answers its first messages, then one rate_limited a second
    raw.open("flood")
    mp.evaluate("() => { for (let i = 0; i < 2000; i++) __raw.conns.flood.send("
                "'{\"type\":\"ping\",\"v\":1,\"t\":' + i + '}'); }")
    time.sleep(2)
    flood = raw.inbox("flood")
    pongs = [m for m in flood if m["type"] == "pong"]
    limited = [m for m in flood if m.get("code") == "rate_limited"]
    print("flood of 2000 pings: %d pongs, %d rate_limited errors" % (len(pongs), len(limited)))
    assert 40 <= len(pongs) <= 100 and 1 <= len(limited) <= 5

    # nothing changed: the host's saved state, every other screen, Ana's wire
    assert saved_room(hp) == before_saved
    wait_signature(hp, before["Hana"], timeout=5)
    wait_signature(ap, before["Ana"], timeout=5)
    assert wire_kinds(ap) == ana_wire
    # and the game goes on at once for the others
    live(ap, "discard-held")
    for p in (hp, ap):
        shows(p, "discard", "6d")
    assert [m for m in raw.inbox("m") if m["type"] == "view"][-1]["view"]["discard"] == ["6d"]

    for p in (hp, ap):
        assert p.locator("#app img").count() == 0
    assert dialogs == []
    no_errors(host, ana)
