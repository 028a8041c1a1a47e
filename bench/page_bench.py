"""How long each page takes to become usable, and how many bytes it downloads.

    python3 tools/build.py && .venv/bin/python bench/page_bench.py [--runs 3]

Starts ``tools/serve.mjs`` (gzip on, as for LAN play) on a free port and opens the host page
(Pyodide) and a guest page (``?room=...``, MicroPython) in fresh browser contexts of headless
Debian Chromium, cold (nothing cached), ``--runs`` times each. Prints the median time from
navigation start to ``body[data-ready]`` (ms) and the bytes received over the wire (encoded,
as counted by the browser). Prints numbers; asserts nothing.
"""

import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))

from crisp_e2e import LAUNCH_ARGS, PHONE, READY_PROBE  # noqa: E402
from pyodide_bench import local_site  # noqa: E402  (same folder)


def measure(browser, url):
    """One cold load of ``url``: (ms to ready, bytes received, requests)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.add_init_script(READY_PROBE)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    received = {"bytes": 0, "requests": 0}

    def finished(params):
        received["bytes"] += params.get("encodedDataLength", 0)
        received["requests"] += 1

    cdp.on("Network.loadingFinished", finished)
    page.goto(url)
    page.wait_for_function("window.__crispReadyAt !== undefined", timeout=120_000)
    ready = page.evaluate("window.__crispReadyAt")
    page.wait_for_timeout(300)  # let late responses be counted
    context.close()
    return ready, received["bytes"], received["requests"]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 3
    from playwright.sync_api import sync_playwright

    with local_site() as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        pages = (("host (Pyodide)", base),
                 ("guest (MicroPython)", base + "?room=crisp-" + "0" * 32))
        print("%-22s %12s %14s %9s" % ("page", "ready ms", "bytes (wire)", "requests"))
        for name, url in pages:
            samples = [measure(browser, url) for _ in range(runs)]
            print("%-22s %12.0f %14d %9d" % (
                name, statistics.median(s[0] for s in samples),
                statistics.median(s[1] for s in samples),
                statistics.median(s[2] for s in samples)))
        browser.close()

if __name__ == "__main__":
    main()
