"""A Firefox phone beside the Chromium ones, and a private network for the two to meet on.

Firefox on this machine offers no loopback ICE candidate, so a Firefox page cannot open a data
channel to a Chromium page over 127.0.0.1 as the Chromium-only tests do. `private_net()` makes
a network namespace of the test's own with one address on a veth pair inside it (both ends
in the namespace: nothing is routed out of it), and everything of the test runs in it: the
signaling/static server (`serve_in`), Chromium (`chromium_in`: a launcher Playwright runs) and
Firefox (`FirefoxPhone`). The namespace is removed at the end; every process is stopped by its
PID.

`FirefoxPhone` drives Debian's firefox-esr through e2e/firefox_phone.mjs (puppeteer-core over
WebDriver BiDi) and offers the few Playwright page methods the tests use (`goto`,
`wait_for_selector`, `click`, `fill`, `inner_text`, `get_attribute`, `evaluate`,
`wait_for_function`), so helpers written for Playwright pages drive it too.
"""

import contextlib
import json
import os
import queue
import shutil
import subprocess
import threading
import time

from crisp_e2e import ROOT, free_port, stop

FIREFOX = os.environ.get("CRISP_FIREFOX", "/usr/bin/firefox-esr")
NET_ADDRESS = "198.18.0.1"     # RFC 2544's benchmarking range, inside the namespace only
NET_PREFIX = 24


def can_run():
    """None when this machine can run the Firefox test, else the reason it cannot."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "a network namespace of the test's own needs root"
    if shutil.which("ip") is None:
        return "no `ip` (iproute2)"
    if not os.path.exists(FIREFOX):
        return "%s is missing (apt-get install firefox-esr: ./test.sh does it)" % FIREFOX
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "puppeteer-core")):
        return "node_modules/puppeteer-core is missing (npm ci)"
    return None


def _ip(*args, ns=None):
    cmd = (["ip", "netns", "exec", ns] if ns else []) + ["ip", *args]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


def _drop_stale():
    """Remove the namespaces that killed runs of this test left (crisp-e2e-<pid> whose
    process is gone): a run stopped mid-test never reaches its own clean-up."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for line in listed.splitlines():
        name = line.split(" ")[0]
        pid = name[len("crisp-e2e-"):]
        if name.startswith("crisp-e2e-") and pid.isdigit() \
                and (int(pid) == os.getpid() or not os.path.exists("/proc/" + pid)):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)


@contextlib.contextmanager
def private_net():
    """A network namespace with lo and a veth pair up, NET_ADDRESS on one end; yields its
    name. Removed at the end."""
    ns = "crisp-e2e-%d" % os.getpid()
    _drop_stale()
    _ip("netns", "add", ns)
    try:
        _ip("link", "set", "lo", "up", ns=ns)
        _ip("link", "add", "crisp0", "type", "veth", "peer", "name", "crisp1", ns=ns)
        _ip("addr", "add", "%s/%d" % (NET_ADDRESS, NET_PREFIX), "dev", "crisp0", ns=ns)
        _ip("link", "set", "crisp0", "up", ns=ns)
        _ip("link", "set", "crisp1", "up", ns=ns)
        yield ns
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


class NetSite:
    """A build served inside the namespace: .url(path) on NET_ADDRESS."""

    def __init__(self, port, dist):
        self.port, self.dist = port, dist

    def url(self, path="/"):
        return "http://%s:%d%s" % (NET_ADDRESS, self.port, path)


@contextlib.contextmanager
def serve_in(ns, dist):
    """Serve the built `dist` with tools/serve.mjs inside namespace `ns` on NET_ADDRESS;
    yields its NetSite once the server says it serves (30 s at most)."""
    port = free_port()
    log_path = os.path.join(os.path.dirname(dist), "serve-ns-%d.log" % port)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            ["ip", "netns", "exec", ns, "node", os.path.join(ROOT, "tools", "serve.mjs"),
             "--port", str(port), "--host", NET_ADDRESS, "--dir", dist],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while "Crisp: serving" not in open(log_path).read():
            if proc.poll() is not None:
                raise RuntimeError("serve.mjs exited: " + open(log_path).read())
            if time.monotonic() > deadline:
                raise RuntimeError("serve.mjs did not start within 30 s")
            time.sleep(0.1)
        yield NetSite(port, dist)
    finally:
        stop(proc)


def chromium_in(ns, chromium, folder):
    """The path of a launcher (written into `folder`) that runs `chromium` inside namespace
    `ns` with the arguments it is given: Playwright's executable_path."""
    path = os.path.join(folder, "chromium-in-%s" % ns)
    with open(path, "w") as f:
        f.write('#!/bin/sh\nexec ip netns exec %s %s "$@"\n' % (ns, chromium))
    os.chmod(path, 0o755)
    return path


class FirefoxPhone:
    """A Firefox page inside namespace `ns`, with Playwright-like methods (timeouts in ms).
    Console lines and uncaught page errors are kept in .console and .errors. `close()` stops
    Firefox and the bridge (by PID)."""

    def __init__(self, ns, size="390x844", start_timeout=120):
        self.console, self.errors, self.version = [], [], None
        self._replies = queue.Queue()
        self._next = 0
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", ns, "node", os.path.join(ROOT, "e2e", "firefox_phone.mjs"),
             FIREFOX, size],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        ready = self._replies.get(timeout=start_timeout)
        if ready.get("event") != "ready":
            raise RuntimeError("Firefox did not start: %s %s" % (ready, self.proc.stderr.read()))
        self.version = ready["version"]

    def _read(self):
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("event") == "console":
                self.console.append(msg["text"])
            elif msg.get("event") == "pageerror":
                self.errors.append(msg["text"])
            else:
                self._replies.put(msg)
        self._replies.put({"event": "exit"})

    def call(self, op, *args, timeout_s=120):
        """Run one op of e2e/firefox_phone.mjs; its value, or AssertionError with its error."""
        self._next += 1
        self.proc.stdin.write(json.dumps({"id": self._next, "op": op, "args": args}) + "\n")
        self.proc.stdin.flush()
        reply = self._replies.get(timeout=timeout_s)
        if reply.get("id") != self._next:
            raise AssertionError("Firefox bridge: %s" % reply)
        if not reply["ok"]:
            raise AssertionError("Firefox %s%r: %s" % (op, args, reply["error"]))
        return reply["value"]

    def goto(self, url):
        return self.call("goto", url)

    def wait_for_selector(self, selector, timeout=30_000):
        return self.call("wait_for_selector", selector, timeout)

    def click(self, selector, timeout=30_000):
        return self.call("click", selector, timeout)

    def fill(self, selector, text, timeout=30_000):
        return self.call("fill", selector, text, timeout)

    def inner_text(self, selector):
        return self.call("inner_text", selector)

    def get_attribute(self, selector, name):
        return self.call("get_attribute", selector, name)

    def evaluate(self, source):
        return self.call("evaluate", source)

    def wait_for_function(self, source, timeout=30_000):
        return self.call("wait_for_function", source, timeout)

    def close(self):
        try:
            if self.proc.poll() is None:
                self.call("close", timeout_s=30)
        except Exception:
            pass
        finally:
            stop(self.proc, wait_s=10)
