"""Smoke test of the hosted build (GitHub Pages) as Pages serves it: under a sub-path.

`tools/build.py --hosted` is built into `<tmp>/root/<repo>/` and served by a plain static
server (no PeerJS server: the hosted build signals through the PeerJS cloud) at
`http://127.0.0.1:<port>/<repo>/`. Every request the browser makes outside that server is
blocked and recorded, websockets included. The host page must load and a solo game must
play (one tab, no network) with nothing blocked and nothing asked of the server outside
`/<repo>/`; a guest page must load on MicroPython, its only outside requests being the
PeerJS cloud's.

The Pages workflow (.github/workflows/pages.yml) runs this file alone, with the unit tests,
before it deploys: `./test.sh tests e2e/test_hosted.py`. It needs no `site` fixture (no
node server): only the build, this file's server and Debian's Chromium.
"""

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
from urllib.parse import urlsplit

import pytest

from crisp_e2e import PHONE, READY_PROBE, ROOT, engine_ready, wait_ready

T = 30_000
# The repository's name is the sub-path GitHub Pages serves a project site under.
REPO = os.environ.get("GITHUB_REPOSITORY", "owner/crisp").split("/")[-1] or "crisp"
# The PeerJS cloud, where a hosted guest page looks for its host (unreachable here: blocked).
PEERJS_CLOUD = {"0.peerjs.com"}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """Static files, as GitHub Pages serves them (index.html for a folder), logging every
    path asked for in `served` and every answer that is not 200/304 in `missing`."""

    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".mjs": "text/javascript",
                             ".js": "text/javascript", ".toml": "text/plain",
                             ".zip": "application/zip"})

    def __init__(self, *args, served=None, missing=None, **kw):
        self.served, self.missing = served, missing
        super().__init__(*args, **kw)

    def send_response(self, code, message=None):
        self.served.append(self.path)
        if code not in (200, 304) and not (code == 301 and self.path == "/" + REPO):
            self.missing.append((code, self.path))
        super().send_response(code, message)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The hosted build served under /<repo>/: yields (base URL, served paths, misses)."""
    root = tmp_path_factory.mktemp("pages") / "root"
    out = root / REPO
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build.py"), "--hosted",
                    "--out", str(out)], check=True, cwd=ROOT)
    served, missing = [], []
    handler = functools.partial(_Quiet, directory=str(root), served=served, missing=missing)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with open(out / "build.json", encoding="utf-8") as f:
            assert json.load(f)["mode"] == "hosted"
        yield "http://127.0.0.1:%d/%s/" % (server.server_address[1], REPO), served, missing
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def sealed(browser, pages):
    """new(path) -> (page, blocked, errors): a phone whose every request outside the local
    server is blocked (aborted) and recorded in `blocked`, websockets too."""
    base = pages[0]
    origin = base[:base.index("/", len("http://"))]
    contexts = []

    def new(path=""):
        context = browser.new_context(**PHONE)
        contexts.append(context)
        context.add_init_script(READY_PROBE)
        blocked, errors = [], []

        def route(r):
            if r.request.url.startswith(origin + "/"):
                r.continue_()
            else:
                blocked.append(r.request.url)
                r.abort("blockedbyclient")

        def route_ws(ws):
            blocked.append(ws.url)
            ws.close()

        context.route("**/*", route)
        context.route_web_socket(re.compile(".*"), route_ws)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + path)
        return page, blocked, errors

    yield new
    for context in contexts:
        context.close()


def sel(testid, extra=""):
    return '[data-testid="%s"]%s' % (testid, extra)


def test_the_hosted_host_page_plays_solo_under_a_sub_path_with_no_network(sealed, pages):
    page, blocked, errors = sealed("?botpace=0.1")
    assert wait_ready(page) == "micropython"
    # the cloud signaling of the hosted build: PeerJS defaults, no local /peerjs
    assert page.evaluate("window.crisp.mode") == "hosted"
    assert page.evaluate("window.crisp.peerOptions.path || '/'") != "/peerjs"

    page.fill(sel("player-name"), "Sol")
    page.select_option(sel("solo-bots"), "1")
    page.click(sel("play-solo"))
    engine_ready(page)      # the table waits for the engine, however slow
    page.click(sel("ready", ":not([disabled])"), timeout=T)
    # the bot (seat 1) plays first, then two turns of ours: draw, then discard what we drew
    for _ in range(2):
        page.click(sel("deck", ":not([disabled])"), timeout=T)
        page.wait_for_selector(sel("held-card", "[data-card]"), timeout=T)
        held = page.get_attribute(sel("held-card"), "data-card")
        if held[0] == "K":
            page.click(sel("use-special", ":not([disabled])"), timeout=T)
        else:
            page.click(sel("discard-held", ":not([disabled])"), timeout=T)
        page.wait_for_selector(sel("held-card", "[data-card]"), state="detached", timeout=T)
    log = page.inner_text(sel("event-log"))
    # the bot at seat 1 (crisp_core/bot_names.py), its face shown only where the browser
    # draws colour emoji (boot.js's check: <html data-faces>, ui/page/screens/faces.py)
    faces = page.evaluate("document.documentElement.dataset.faces")
    assert faces in ("colour", "none"), faces
    assert ("\U0001F98A Emma" if faces == "colour" else "Emma") in log, log
    assert ("\U0001F98A" in log) == (faces == "colour"), log

    _, served, missing = pages
    assert blocked == [], "a solo game reached outside the server: %s" % blocked
    assert missing == [], "asked for what the build does not hold: %s" % missing
    outside = [p for p in served if not p.startswith("/%s/" % REPO)]
    assert outside == [], "asked for paths outside /%s/: %s" % (REPO, outside)
    assert errors == [], errors


def test_the_hosted_guest_page_loads_under_a_sub_path(sealed, pages):
    page, blocked, errors = sealed("?room=crisp-" + "0" * 32)
    assert wait_ready(page) == "micropython"
    # a guest page: it looks for its room (no join form until the room answers, issue 20.7)
    page.wait_for_selector(sel("connection"), timeout=T)
    # it looks for its host through the PeerJS cloud (blocked here, so the seal is tight and
    # recorded); that is its only way out: never a CDN, never anything else
    for _ in range(200):
        if blocked:
            break
        page.wait_for_timeout(100)
    hosts = {urlsplit(url).hostname for url in blocked}
    assert hosts and hosts <= PEERJS_CLOUD, blocked
    _, served, missing = pages
    assert missing == [], missing
    assert [p for p in served if not p.startswith("/%s/" % REPO)] == []
    assert errors == [], errors
