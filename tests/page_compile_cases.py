"""The pages' entry script (ui/page/main.py, which imports `js` and runs only in a browser)
compiled by MicroPython itself: a syntax MicroPython does not take fails here, not first in
an e2e test. Run on MicroPython by tests/test_handover.py."""


def test_the_entry_script_compiles():
    with open("/ui/page/main.py") as f:
        compile(f.read(), "main.py", "exec")
