# The entry script of every page, on MicroPython (start.py imports it last): which page is
# this? (docs/design.md "The page's modules and phases")
#   host page (no ?room=): ui/page/host/host_page.py. The landing shows; Pyodide starts in the
#     engine worker meanwhile (ui/page/host/enginelink.py).
#   guest page (?room=<id>): ui/page/guest/guest_page.py. It never starts the engine worker, unless
#     it becomes the host in a host handover (ui/page/guest/guest_succession.py).
#   a room link opened in the browser that hosts the room: ui/page/own_room_page.py.
# When the page is usable, body[data-ready] is set to "micropython" (e2e tests wait for it);
# on a host page body[data-engine] follows the engine worker: loading | ready | failed.
# Test-only page parameters (tools/build.py --test): ?deck=, ?seed=, ?cheat= (host_page.py),
# ?hostgone= (guest_page.py), ?prof= (ui/page/prof.py); ?botpace=F on every build.
import sys

import js
from pyscript.ffi import create_proxy

from ui.page.browser import _str, now, say_failed, test_param
from ui.page.guest.guest_page import GuestPage
from ui.page.host.host_page import HostPage
from ui.page.own_room_page import OwnRoomPage, own_status

INTERPRETER = "micropython" if sys.implementation.name == "micropython" else "pyodide"


def main():
    room_id = _str(js.crisp.room) if js.crisp.guest else None
    own = own_status(room_id, now()) if room_id else None
    if own is not None:
        page = OwnRoomPage(room_id, own)
    else:
        page = GuestPage(room_id) if room_id else HostPage()
    js.document.body.dataset.ready = INTERPRETER
    js.crisp.loaded()           # the loading screen goes: the page shows
    if room_id is None:
        page.engine.start()     # the landing shows: Pyodide starts in its worker meanwhile
    return page


PAGE = None


def start(*args):
    """The page's start, in a task of its own after the one that imported these modules
    (start.py's, itself after PyScript's own start): no one task holds the main thread for
    all of it, so a phone stays responsive and its loading screen moves meanwhile."""
    global PAGE
    try:
        if test_param("prof"):
            from ui.page import prof     # a test build's profile (bench/page_bench.py --profile)
            prof.install()
        PAGE = main()
    except Exception as e:
        say_failed(e)
        raise


_START = create_proxy(start)
js.setTimeout(_START, 0)
