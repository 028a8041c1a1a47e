"""What a host page answers its guests itself while its engine worker starts, so that they
join without waiting for it (docs/protocol.md "Engine worker").

The room lives in the engine worker, and what guests send before it runs waits there for it
(engine-worker.js). Unanswered, a guest's page would take the host for gone: its pings get no
pong and its join no welcome, and after ATTEMPT_MS (ui/page/net/link.py) it connects afresh, so
one person's join arrived many times. So the host page answers at once, from the main thread:

- a `ping` gets its `pong` (the host is there), and goes no further (`answered`);
- a `join` gets `setup`: {"type": "setup", "v": 1, "host": <the host's name>, "back": bool}
  (back: a reloaded host resuming its room), which the guest shows as "Hana is setting up the
  table…" ("Hana is back, setting up…") and waits on the same connection, however long the
  engine takes, until the room seats it.

Every other message still goes to the engine as it came: the room seats the join the moment
it runs.
Pure (no `js`), MicroPython-compatible.
"""

import json

from ui.shared.cleanname import clean_name
from ui.shared.gate import MAX_WAITING
from ui.shared.limits import NAME_MAX
from ui.shared.wire import BadMessage, encode, message

SETUP = "setup"


def _message(text):
    try:
        msg = json.loads(text)
    except (ValueError, TypeError):
        return None
    return msg if isinstance(msg, dict) else None


def answer(text, host_name, back=False, joined=False):
    """The host page's own answers (JSON texts, to send back on the same connection) to a
    guest's message `text` while the engine starts: [pong, setup] to a ping, [setup] to a
    join or a watch, [] to anything else or to what is not a message (the room answers
    that once it runs); `joined` (that connection has sent a join) changes nothing now. `host_name`: the host's
    name (str); `back`: the room was resumed after a reload."""
    msg = _message(text)
    if msg is None:
        return []
    kind = msg.get("type")
    if kind == "ping":
        t = msg.get("t")
        if not isinstance(t, (int, float)) or isinstance(t, bool):
            return []
        # (setup to every ping: the guest's join form shows on it: "no form
        # until the room answers"; a guest that has not joined waits for nothing)
        return [encode(message("pong", t=t))] + _setup(host_name, back)
    if kind in ("join", "watch"):
        return _setup(host_name, back)
    return []


def answered(text):
    """True when the host page's own answer (`answer`) is the whole answer to the guest's
    message `text` (a JSON text), so that it is not passed on to the engine: a ping. Its
    pong went out at once; the engine would answer it again once it runs, a whole engine
    start later, and the guest would take that second pong for a round trip of its link
    (seconds: "your connection is slow" at a reloaded host's every guest,
    ui/shared/linkspeed.py). False for anything else (the room answers it)."""
    msg = _message(text)
    if msg is None or msg.get("type") != "ping":
        return False
    t = msg.get("t")
    return isinstance(t, (int, float)) and not isinstance(t, bool)


def _setup(host_name, back):
    return [encode(message(SETUP, host=str(host_name or ""), back=bool(back)))]


def arriving(text):
    """The name a guest's `join` message `text` gives, for the host's lobby to show the
    friend as arriving while the engine starts, cleaned as the room will clean it
    (`clean_name`: no right-to-left override or zero-width character shows in the host's
    own lobby); None for anything else or a name with nothing visible."""
    msg = _message(text)
    if msg is None or msg.get("type") != "join":
        return None
    try:
        return clean_name(msg.get("name"))    # the room's own cleaning (ui/shared/cleanname.py)
    except BadMessage:
        return None


def setup_of(text):
    """The host page's `setup` message in `text` (JSON text, or the message already read) as
    {"host": name, "back": bool}, or None when it is anything else."""
    msg = text if isinstance(text, dict) else _message(text)
    if msg is None or msg.get("type") != SETUP or msg.get("v") != 1:
        return None
    name = msg.get("host")
    return {"host": name[:NAME_MAX] if isinstance(name, str) else "",
            "back": msg.get("back") is True}


def wait_on(client, link, setup, now):
    """A guest heard `setup` (setup_of's) from the host's page: the host is there, its table
    still being set up. The guest waits on this connection for its seat (`link.joining`
    re-arms the wait for a welcome; ui/page/net/link.py) and its banner names the host: a seated
    guest (a reloaded host's) the host it knows, not the message's name. Never a sign of an
    impostor: nothing of the room's state comes with it. But nothing proves it either: on a
    connection not proven yet (`client.trusted` False: a seated page's rejoin, before the
    seat proof) it only names the banner: it is no word from the host for the gone clock
    and re-arms no wait (a stranger holding the room id once the host's tab closed answers
    `setup` too, and held every seated page off the handover). A first join (trust on
    first use) waits as before."""
    known = None
    if client.seat is not None and 0 <= client.host_seat < len(client.players):
        host = client.players[client.host_seat]
        known = host.get("name") if isinstance(host, dict) else None
    client.setup = {"host": known if isinstance(known, str) and known else setup["host"],
                    "back": setup["back"]}
    if not client.trusted:
        return
    link.heard(now)
    if link.join_at is not None:      # (a setup before this page joined arms no wait)
        link.joining(now)


def still_arriving(joined, players):
    """The friends to show as arriving in the host's lobby while its engine starts: the names
    in `joined` ([(connection, name from its join: `arriving`)], in the order they came),
    each once, but for a name some seat in `players` (the lobby's [{"name"}]) already has
    (compared case-folded)."""
    seated = set()
    for p in players or []:
        if isinstance(p, dict) and isinstance(p.get("name"), str):
            seated.add(p["name"].lower())
    out = []
    for _conn, name in joined:
        key = name.lower()
        if key not in seated:
            seated.add(key)
            out.append(name)
    return out


def joined(pairs, conn, name):
    """`pairs` ([(connection, name)], the joins heard while the engine starts) with `conn`'s
    join saying `name`: one entry a connection (its last name, moved to the end), at most
    MAX_WAITING (the room's gate lets no more wait: ui/shared/gate.py), the oldest dropped."""
    out = [pair for pair in pairs if pair[0] != conn] + [(conn, name)]
    return out[-MAX_WAITING:]
