"""A deployment's own network servers for tools/build.py: the signaling server (`--signaling`)
and the ICE servers, STUN and TURN (`--ice`). Standard library only; pure (no I/O but
reading the ICE file in `load_ice`).

    signaling_config(mode, url, ice, turn)  the `signaling` object config.js carries (boot.js
                                       turns it into PeerJS options)
    connect_origins(mode, url)         what the page's CSP connect-src adds for it

`url` may name several signaling servers, comma-separated: past what one process holds, a
deployment runs several, and every page of a room picks the same one by the room id
(boot.js `serverFor`). `turn`: the page asks its signaling server for TURN credentials of its
own (GET <path>/turn, tools/serve.mjs --turn-secret) instead of carrying fixed ones.

Every input is checked: a bad URL or a bad ICE file is a BuildInputError with a message
that says what is wrong, and tools/build.py stops with it (no page is written that would
fail on a phone instead).
"""

import json
import re
from urllib.parse import urlsplit

# The PeerJS cloud: the hosted build's signaling when no --signaling is given (HTTPS for
# ids, a WebSocket), with PeerJS's own STUN/TURN when no --ice is given.
CLOUD_SIGNALING = ["https://0.peerjs.com", "wss://0.peerjs.com"]

# Plain http/ws is allowed only for a signaling server on this machine (a test, a laptop):
# a phone's browser would refuse anything else from an https page anyway.
LOOPBACK = ("127.0.0.1", "localhost", "::1")
HOST_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
                       r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$")
PATH = re.compile(r"^/[A-Za-z0-9._~/-]*$")
ICE_SCHEMES = ("stun", "stuns", "turn", "turns")
ICE_URL = re.compile(r"^(stuns?|turns?):(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?"
                     r"(\?transport=(udp|tcp))?$")
ICE_KEYS = ("urls", "username", "credential")
POLICIES = ("all", "relay")
MAX_ICE_SERVERS = 8
MAX_SIGNALING = 16
MAX_FIELD = 512


class BuildInputError(ValueError):
    """A --signaling URL or --ice file tools/build.py cannot use; str() says why."""


def parse_signaling(url):
    """The PeerJS client options of a signaling server URL `url`
    ("https://host[:port]/path"): {"host", "port", "path", "secure"}. http:// only for a
    loopback host. Raises BuildInputError for anything else (no scheme, a query, a
    fragment, credentials, a bad host name or port)."""
    if not isinstance(url, str) or not url or len(url) > MAX_FIELD:
        raise BuildInputError("--signaling: give the signaling server as https://host[:port]/path")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        raise BuildInputError("--signaling %r: %s" % (url, e))
    host = parts.hostname or ""
    if parts.scheme not in ("https", "http"):
        raise BuildInputError("--signaling %r: must start with https://" % url)
    if parts.scheme == "http" and host not in LOOPBACK:
        raise BuildInputError("--signaling %r: http:// only for this machine (127.0.0.1, "
                              "localhost); a deployment's signaling server needs https://" % url)
    if parts.username or parts.password or parts.query or parts.fragment or "@" in parts.netloc:
        raise BuildInputError("--signaling %r: no user, query or fragment: "
                              "https://host[:port]/path" % url)
    if not (HOST_NAME.match(host) or host == "::1"):
        raise BuildInputError("--signaling %r: %r is not a host name" % (url, host))
    if port == 0:
        raise BuildInputError("--signaling %r: port 0" % url)
    path = parts.path or "/"
    if not PATH.match(path):
        raise BuildInputError("--signaling %r: the path %r has characters a URL path "
                              "should not" % (url, path))
    secure = parts.scheme == "https"
    return {"host": host, "port": port or (443 if secure else 80), "path": path,
            "secure": secure}


def _ice_server(entry, i):
    where = "--ice: server %d" % (i + 1)
    if not isinstance(entry, dict):
        raise BuildInputError("%s: an RTCIceServer is an object with \"urls\"" % where)
    unknown = sorted(k for k in entry if k not in ICE_KEYS)
    if unknown:
        raise BuildInputError("%s: unknown keys %s (allowed: %s)" % (
            where, ", ".join(unknown), ", ".join(ICE_KEYS)))
    urls = entry.get("urls")
    urls = [urls] if isinstance(urls, str) else urls
    if not isinstance(urls, list) or not urls or len(urls) > MAX_ICE_SERVERS:
        raise BuildInputError("%s: \"urls\" is a URL or a list of 1-%d URLs" % (
            where, MAX_ICE_SERVERS))
    turn = False
    for u in urls:
        if not isinstance(u, str) or len(u) > MAX_FIELD or not ICE_URL.match(u):
            raise BuildInputError("%s: %r is not a stun:, stuns:, turn: or turns: URL "
                                  "(host[:port][?transport=udp|tcp])" % (where, u))
        scheme = u.split(":", 1)[0]
        if scheme.startswith("stun") and "?" in u:
            raise BuildInputError("%s: %r: a stun: URL takes no ?transport= (browsers "
                                  "refuse it)" % (where, u))
        turn = turn or scheme.startswith("turn")
    out = {"urls": list(urls)}
    for key in ("username", "credential"):
        value = entry.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value or len(value) > MAX_FIELD:
            raise BuildInputError("%s: %r must be a non-empty text" % (where, key))
        out[key] = value
    if turn and ("username" not in out or "credential" not in out):
        raise BuildInputError("%s: a TURN server needs \"username\" and \"credential\"" % where)
    return out


def parse_ice(data, test=False):
    """The RTCConfiguration part for `data`, the --ice file's JSON value: a list of
    RTCIceServer objects ({"urls", "username", "credential"}), or an object
    {"iceServers": [...], "iceTransportPolicy": "all" | "relay"}, the policy on a test
    build only (`test`: a real build that refused every direct path would only be slower).
    Returns {"iceServers": [...]} (+ "iceTransportPolicy"). Raises BuildInputError."""
    policy = None
    if isinstance(data, dict) and "urls" in data:
        raise BuildInputError("--ice: give a JSON list of RTCIceServer objects ([{\"urls\": "
                              "...}]), not one object")
    if isinstance(data, dict):
        unknown = sorted(k for k in data if k not in ("iceServers", "iceTransportPolicy"))
        if unknown:
            raise BuildInputError("--ice: unknown keys %s (allowed: iceServers, "
                                  "iceTransportPolicy)" % ", ".join(unknown))
        policy = data.get("iceTransportPolicy")
        data = data.get("iceServers")
        if policy is not None and policy not in POLICIES:
            raise BuildInputError("--ice: iceTransportPolicy is \"all\" or \"relay\"")
        if policy == "relay" and not test:
            raise BuildInputError("--ice: iceTransportPolicy \"relay\" is for test builds "
                                  "(--test) only")
    if not isinstance(data, list) or len(data) > MAX_ICE_SERVERS:
        raise BuildInputError("--ice: give a JSON list of at most %d RTCIceServer objects"
                              % MAX_ICE_SERVERS)
    config = {"iceServers": [_ice_server(entry, i) for i, entry in enumerate(data)]}
    if policy is not None:
        config["iceTransportPolicy"] = policy
    return config


def load_ice(path, test=False):
    """parse_ice of the JSON file at `path`; BuildInputError when it cannot be read or is
    not JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(65536)
    except OSError as e:
        raise BuildInputError("--ice %s: %s" % (path, e.strerror or e))
    try:
        data = json.loads(text)
    except ValueError as e:
        raise BuildInputError("--ice %s: not JSON: %s" % (path, e))
    return parse_ice(data, test)


def signaling_urls(url):
    """The signaling servers' URLs of --signaling `url` ("https://a/peerjs" or several,
    comma-separated), each checked (parse_signaling), none twice. Raises BuildInputError."""
    if not isinstance(url, str) or not url:
        raise BuildInputError("--signaling: give the signaling server as https://host[:port]/path")
    urls = [u.strip() for u in url.split(",")]
    if len(urls) > MAX_SIGNALING or len(set(urls)) != len(urls):
        raise BuildInputError("--signaling: at most %d servers, each once" % MAX_SIGNALING)
    for u in urls:
        parse_signaling(u)
    return urls


def signaling_config(mode, url=None, ice=None, turn=False):
    """config.js's `signaling` for a build: `mode` "local" (this origin's /peerjs, no STUN or
    TURN) or "hosted" (the PeerJS cloud, or the server(s) at `url`, signaling_urls); `ice`
    (parse_ice's) the ICE servers, in both modes; `turn` (--turn-from-signaling): the page
    asks its signaling server for TURN credentials. {"same_origin": bool, "path": str | None,
    "peer": PeerJS options (the first server's), "servers": [the servers' {host, port, path,
    secure}] (with several), "turn": True (only when asked)}. Raises BuildInputError for a `url` on a local
    build, or `turn` with the PeerJS cloud (it mints none)."""
    if mode == "local":
        if url is not None:
            raise BuildInputError("--signaling needs --hosted (a local build signals "
                                  "through its own server, tools/serve.mjs)")
        # LAN play: host candidates are enough; no STUN/TURN request leaves the network.
        peer = {"key": "peerjs", "config": ice or {"iceServers": []}}
        out = {"same_origin": True, "path": "/peerjs", "peer": peer}
        if turn:
            out["turn"] = True
        return out
    if turn and url is None:
        raise BuildInputError("--turn-from-signaling needs --signaling (the PeerJS cloud "
                              "mints no TURN credentials)")
    peer = {}
    out = {"same_origin": False, "path": None, "peer": peer}
    if turn:
        out["turn"] = True
    if url is not None:
        servers = [parse_signaling(u) for u in signaling_urls(url)]
        peer.update(servers[0], key="peerjs")
        if len(servers) > 1:
            out["servers"] = servers
    if ice is not None:
        peer["config"] = ice
    return out


def connect_origins(mode, url=None):
    """The origins a page's CSP connect-src allows beyond its own: the signaling server's,
    over HTTPS (ids) and its WebSocket. A local build signals to its own origin: none."""
    if mode != "hosted":
        return []
    if url is None:
        return list(CLOUD_SIGNALING)
    out = []
    for u in signaling_urls(url):
        o = parse_signaling(u)
        host = "[%s]" % o["host"] if ":" in o["host"] else o["host"]
        default = 443 if o["secure"] else 80
        netloc = host if o["port"] == default else "%s:%d" % (host, o["port"])
        schemes = ("https://", "wss://") if o["secure"] else ("http://", "ws://")
        for origin in (schemes[0] + netloc, schemes[1] + netloc):
            if origin not in out:
                out.append(origin)
    return out
