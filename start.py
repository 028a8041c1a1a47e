# The page's entry script (boot.js: <script type="mpy" src="./start.py">). The page itself is
# ui/main.py, imported from the page's zip, where tools/build.py put it compiled to MicroPython
# bytecode (.mpy) with the rest of ui/: a script given as source would be compiled on the
# page's main thread first (ui/main.py alone is ~1,000 lines).
#
# Imported in a task of its own, after the one in which PyScript started MicroPython and ran
# its own Python: no one task holds the page's main thread for all of it (ui/main.py, once
# imported, draws the page in a third task).
import js
from pyscript.ffi import create_proxy


def _import_page(*args):
    try:
        import ui.main  # noqa: F401  (it runs the page as it is imported)
    except Exception as e:
        try:
            js.crisp.failed("%s: %s" % (type(e).__name__, e))
        except Exception:
            pass
        raise


_IMPORT = create_proxy(_import_page)
js.setTimeout(_IMPORT, 0)
