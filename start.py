# The page's entry script (boot.js: <script type="mpy" src="./start.py">). The page itself is
# ui/page/main.py, imported from the page's archive, where tools/build.py put it compiled to
# MicroPython bytecode (.mpy) with the rest of ui/: a script given as source would be compiled
# on the page's main thread first (~12,000 lines in all). boot.js writes the
# archive's files into the file system when asked (crisp.pageFiles, pagefiles.js), then calls
# back: the imports start there.
#
# The page's modules are imported a few per task, each after the modules it imports, in tasks
# after the one in which PyScript started MicroPython and ran its own Python: a task imports
# modules until it has taken IMPORT_BUDGET_MS, so no one task holds the page's main thread for
# all of them (~100-250 ms on a phone's CPU; a laptop imports them in one or two tasks).
# ui/page/main.py comes last; once imported it draws the page in a task of its own.
import js
from pyscript.ffi import create_proxy

# ui/page/main.py's imports, each after those it imports itself: GENERATED, tools/build.py writes
# the order computed from the sources here (tools/startorder.py; tests/test_start.py)
MODULES = ()
IMPORT_BUDGET_MS = 30
_next = [0]


def _import_some(*args):
    """Import the next modules of MODULES until this task has taken IMPORT_BUDGET_MS (one at
    least), then go on in a task of its own; ui.page.main, last, runs the page as it is imported."""
    start = js.performance.now()
    try:
        while _next[0] < len(MODULES):
            __import__(MODULES[_next[0]])
            _next[0] += 1
            if js.performance.now() - start >= IMPORT_BUDGET_MS:
                break
    except Exception as e:
        try:
            js.crisp.failed("%s: %s" % (type(e).__name__, e))
        except Exception:
            pass
        raise
    if _next[0] < len(MODULES):
        js.setTimeout(_IMPORT, 0)


_IMPORT = create_proxy(_import_some)
# the modules' files first (boot.js writes them into the file system, then calls back)
js.crisp.pageFiles(_IMPORT)
