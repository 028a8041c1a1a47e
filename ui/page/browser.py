"""The page's browser glue (MicroPython, main thread): each call wrapped never to fail the
page. localStorage (ui/page/storage.py), window/document events, the console, the URL's
parameters (and the test build's), a file download, and one re-armable timer (Timer: the
page's timers and ui/page/net/net.py's alike)."""
import json

import js
from pyscript.ffi import create_proxy

from ui.page.storage import Storage


def _str(value):
    """A JS value as Python text, or None (null/undefined come back as other things)."""
    return value if isinstance(value, str) else None


_storage = Storage(js)         # localStorage, never failing the page (ui/page/storage.py)
storage = _storage
storage_get = _storage.get
storage_set = _storage.set
storage_remove = _storage.remove
storage_json = _storage.get_json


def say_failed(error):
    """Show `error` (an exception) on the loading screen, as the page could not start
    (boot.js `crisp.failed`); nothing when boot.js has none."""
    failed = getattr(js.crisp, "failed", None)
    if failed is not None:
        failed("%s: %s" % (type(error).__name__, error))


def now():
    """The wall clock, ms (Date.now()). Read through crisp.now(), which is never a whole
    number: MicroPython's FFI turns a JS whole number above 2**31 into a wrapped small
    int (Date.now() would run backwards every 24.8 days), a fraction into a float."""
    return int(js.crisp.now())


def random_hex(n):
    """`n` random bytes as 2n hex digits (boot.js crisp.randomHex: crypto.getRandomValues)."""
    return str(js.crisp.randomHex(n))


def on_page(target, event, fn):
    """Listen to a window/document event for the page's whole life."""
    proxy = create_proxy(lambda *a: fn())
    target.addEventListener(event, proxy)
    return proxy


def log(*parts):
    try:
        js.console.log("crisp: " + " ".join([str(p) for p in parts]))
    except Exception:
        pass


def param(name):
    try:
        return _str(js.URLSearchParams.new(js.location.search).get(name))
    except Exception:
        return None


def set_query(key, value, drop=None):
    """Set one parameter of the page's URL, `drop` another (a reload goes to the same room:
    ?room=<id> on a guest page, ?host=<id> on a host page)."""
    try:
        query = js.URLSearchParams.new(js.location.search)
        if drop is not None:
            query.delete(drop)
        query.set(key, value)
        js.history.replaceState(None, "", "?" + str(query.toString()))
    except Exception as e:
        log("could not set the URL:", e)


def go(url, replace=False):
    """Open `url` in this tab (`replace`: instead of this page in the history)."""
    if replace:
        js.location.replace(url)
    else:
        js.location.assign(url)


def download(name, text, mime="application/json"):
    """Offer `text` to the player as a file download named `name`."""
    blob = js.Blob.new(js.JSON.parse(json.dumps([text])), js.JSON.parse(json.dumps({"type": mime})))
    url = js.URL.createObjectURL(blob)
    link = js.document.createElement("a")
    link.href = url
    link.download = name
    js.document.body.appendChild(link)
    link.click()
    link.remove()
    js.setTimeout(create_proxy(lambda *a: js.URL.revokeObjectURL(url)), 10000)


def test_build():
    """True on a test build (`tools/build.py --test`, boot.js `crisp.test`) only."""
    try:
        return js.crisp.test is True
    except Exception:
        return False


def test_param(name):
    """A test-only page parameter (`?deck=`, `?seed=`): its text on a test build, None on any
    other build, so that nobody can stack or predict a real room's deck by getting its host
    to open a crafted link."""
    return param(name) if test_build() else None


class Timer:
    """One re-armable setTimeout with a single long-lived proxy: `at(ms)` (re)arms it to
    call `fn()` once in `ms` (5 at least), `next_task()` in the next task, `cancel()`
    disarms it; `handle` is None while disarmed."""

    def __init__(self, fn):
        self.fn = fn
        self.handle = None
        self.proxy = create_proxy(self._fire)

    def _fire(self, *args):
        self.handle = None
        self.fn()

    def at(self, delay_ms):
        self.cancel()
        self.handle = js.setTimeout(self.proxy, max(5, int(delay_ms)))

    def next_task(self):
        """(Re)arm it to call `fn()` in the next task (setTimeout 0: after what is queued,
        with no 5 ms wait): a screen to draw once the message that changed it is handled."""
        self.cancel()
        self.handle = js.setTimeout(self.proxy, 0)

    def cancel(self):
        if self.handle is not None:
            js.clearTimeout(self.handle)
            self.handle = None
