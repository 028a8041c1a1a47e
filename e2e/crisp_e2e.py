"""Helpers for Crisp's end-to-end tests (see conftest.py for the fixtures)."""

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = os.environ.get("CRISP_CHROMIUM", "/usr/bin/chromium")

# A host name that is not "localhost": pages served under it are NOT a secure context, like a
# phone opening http://192.168.x.y:8000 on the LAN. Chromium resolves it to 127.0.0.1, so no
# traffic leaves the machine.
LAN_HOST = "crisp-lan.test"

LAUNCH_ARGS = [
    "--allow-loopback-in-peer-connection",  # WebRTC on a loopback-only machine
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1",
]
if hasattr(os, "geteuid") and os.geteuid() == 0:
    LAUNCH_ARGS.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]", LAN_HOST}

# Every request URL seen by any phone of the session (for "nothing leaves localhost").
ALL_REQUESTS = []

# Records when ui/page/main.py marks the page ready (performance.now(), ms since navigation start).
READY_PROBE = """
(() => {
  const mark = () => {
    if (window.__crispReadyAt === undefined && document.body && document.body.dataset.ready)
      window.__crispReadyAt = performance.now();
  };
  new MutationObserver(mark).observe(document, {subtree: true, attributes: true,
                                                attributeFilter: ["data-ready"]});
})();
"""


def is_local(url):
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome-error"):
        return True
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname in LOCAL_HOSTS


class Site:
    def __init__(self, port, dist, log):
        self.port, self.dist, self.log = port, dist, log

    def url(self, path="/"):
        return f"http://127.0.0.1:{self.port}{path}"

    def vendor(self, name):
        """The URL path of a vendored package's folder in this build ("/vendor/peerjs-1.5.5")."""
        with open(os.path.join(self.dist, "build.json"), encoding="utf-8") as f:
            return "/" + json.load(f)["vendor"][name]

    def lan_url(self, path="/"):
        """The same page under a non-secure origin, as a phone on the LAN sees it."""
        return f"http://{LAN_HOST}:{self.port}{path}"


class Phone:
    """One player's device: its own browser context (cookies, storage, cache) and a page."""

    def __init__(self, context, page, site):
        self.context, self.page, self.site = context, page, site
        self.requests = []
        self.console = []   # (type, text)
        self.errors = []    # uncaught page errors

    def goto(self, path="/", lan=False, **kw):
        url = self.site.lan_url(path) if lan else self.site.url(path)
        self.page.goto(url, **kw)
        return self.page

    def wait_ready(self, timeout=60_000):
        return wait_ready(self.page, timeout)

    def ready_ms(self):
        return ready_ms(self.page)


def wait_ready(page, timeout=60_000):
    """Wait until the page's interpreter ran ui/page/main.py (body[data-ready]); return its value.

    Fails at once, with the message, when PyScript shows a Python error (.py-error) or the
    loading screen shows a load error, instead of waiting for the timeout."""
    try:
        page.wait_for_function(
            "!!(document.body && (document.body.dataset.ready"
            " || document.querySelector('.py-error')"
            " || document.querySelector('#loading.error')))",
            timeout=timeout)
    except Exception as e:
        raise AssertionError(f"page never became ready in {timeout} ms: {_page_state(page)}") from e
    ready = page.evaluate("document.body.dataset.ready")
    if not ready:
        raise AssertionError(f"page failed to start: {_page_state(page)}")
    return ready


# How long a host page's engine worker may take to start: on a quiet machine 2-6 s, on a
# loaded one (bench/stress_e2e.sh) far more. Tests wait for the page's own signal
# (body[data-engine]), then for what the engine does (a seat, a table) within their usual T.
ENGINE_T = 240_000


def engine_ready(page, timeout=ENGINE_T):
    """Wait until the host page's engine worker answered (body[data-engine] "ready" or
    "failed"); fail when it could not start."""
    page.wait_for_function("['ready', 'failed'].includes(document.body.dataset.engine)",
                           timeout=timeout)
    state = page.evaluate("document.body.dataset.engine")
    assert state == "ready", "the host's engine did not start: %s" % state


def _page_state(page):
    return page.evaluate("""() => {
      const error = document.querySelector('.py-error');
      const loading = document.getElementById('loading');
      return JSON.stringify({
        python_error: error ? error.innerText : null,
        loading: loading && !loading.hidden ? document.getElementById('loading-text').innerText : null,
        times: window.crisp ? window.crisp.times : null,
      });
    }""")


def ready_ms(page):
    return page.evaluate("window.__crispReadyAt")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served_build(folder, *build_args):
    """Build the site (`tools/build.py *build_args`) into `folder`/dist and serve it (`serve`);
    yields its Site."""
    dist = os.path.join(folder, "dist")
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build.py"), *build_args,
                    "--out", dist], check=True, cwd=ROOT)
    with serve(dist) as s:
        yield s


def stop(proc, wait_s=5):
    """Stop a child process we started (a subprocess.Popen), by its PID, never by name:
    terminate, then kill if it has not ended within `wait_s` seconds."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def serve(dist, *serve_args):
    """Serve the built `dist` with `node tools/serve.mjs *serve_args` (static files + PeerJS
    signaling at /peerjs) on a free port; yields its Site. The server is stopped by its PID
    at the end. LAN_HOST is one of its names (--allow-host): it answers only for its own."""
    port = free_port()
    log_path = os.path.join(os.path.dirname(dist), "serve-%d.log" % port)
    log = open(log_path, "w")
    proc = subprocess.Popen(
        ["node", os.path.join(ROOT, "tools", "serve.mjs"), "--port", str(port),
         "--host", "127.0.0.1", "--dir", dist, "--allow-host", LAN_HOST, *serve_args],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    s = Site(port, dist, log_path)
    with open(os.path.join(dist, "build.json"), "rb") as f:
        built = f.read()
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"serve.mjs exited with {proc.returncode}: "
                                   f"{open(log_path).read()}")
            try:
                # our server, not another one that took the port meanwhile: the same build
                with urllib.request.urlopen(s.url("/build.json"), timeout=2) as r:
                    if r.status == 200 and r.read() == built:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("serve.mjs did not answer within 30 s")
            time.sleep(0.1)
        yield s
    finally:
        stop(proc)
        log.close()


# Taps and waits every e2e test shares, and test_round's stacked round (its deck, read by the
# tests that replay it).

DECK = ["2c", "3s", "7h", "9d", "Td", "Ah", "5h", "4c", "8s",
        "6d", "Jc", "Qs", "Kd", "3h", "9c", "8d", "8c"]
CARD = re.compile(r"\b[A2-9TJQK][cdhs]\b")
# Records every message a data channel hands to PeerJS, before any page code sees it.
WIRE_TAP = """
(() => {
  window.__crispWire = [];
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, listener, options) {
    if (type === "message") {
      const inner = listener;
      listener = function (event) {
        window.__crispWire.push(typeof event.data === "string" ? event.data : "<binary>");
        return inner.apply(this, arguments);
      };
    }
    return add.call(this, type, listener, options);
  };
})();
"""

T = 30_000  # ms: generous waits for a loaded 2-core machine


def sel(testid, extra=""):
    """The CSS selector of the element with data-testid `testid`, then `extra`."""
    return '[data-testid="%s"]%s' % (testid, extra)


def live(page, testid, timeout=T):
    """Wait until the control is enabled (the room offers it), then tap it."""
    page.wait_for_selector(sel(testid, ":not([disabled])"), timeout=timeout)
    page.click(sel(testid, ":not([disabled])"))


def shows(page, testid, card, timeout=T):
    """Wait until the element `testid` shows the face of `card` (its data-card)."""
    page.wait_for_selector(sel(testid, '[data-card="%s"]' % card), timeout=timeout)


def face_down(page, testid):
    """Whether the card `testid` is face down (no data-card)."""
    return page.get_attribute(sel(testid), "data-card") is None


def phone_of(new_phone):
    # Reduced motion: the pulsing "hot" buttons hold still, so taps need no forcing.
    return new_phone(reduced_motion="reduce")


def join(new_phone, link, name):
    """A guest phone (reduced motion, the wire tap) at the room `link`, joined as `name`."""
    phone = phone_of(new_phone)
    phone.context.add_init_script(WIRE_TAP)
    page = phone.page
    page.goto(link)
    assert wait_ready(page) == "micropython"
    page.fill(sel("player-name"), name)
    live(page, "join-room")
    return phone
