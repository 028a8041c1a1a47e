"""The engine benchmark inside Pyodide, in headless Chromium, beside the CPython numbers.

    python3 bench/pyodide_bench.py [--seconds S]
    python3 bench/pyodide_bench.py --bots [--games G] [--dist D]   the expert bot's decisions
                                            (bench/bot_bench.py) side by side; D: a build

Needs a local build (``python3 tools/build.py``), node with the npm packages installed, Debian
Chromium at /usr/bin/chromium and the Python ``playwright`` package (``./test.sh`` sets all of
that up). Starts ``tools/serve.mjs`` on a free port, loads the vendored Pyodide in a blank page
of that origin, copies ``crisp_core`` and ``bench/engine_bench.py`` into its file system and
runs the same measurements as ``bench/engine_bench.py``. Prints numbers; asserts nothing.
"""

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import bot_bench, engine_bench  # noqa: E402

PAGE_SCRIPT = """
async ({files, seconds, games, dir}) => {
  const t0 = performance.now();
  const { loadPyodide } = await import('./' + dir + '/pyodide.mjs');
  const pyodide = await loadPyodide({ indexURL: new URL('./' + dir + '/', location.href).href });
  const started = performance.now() - t0;
  pyodide.FS.mkdirTree('/bench/crisp_core');
  for (const [path, text] of Object.entries(files)) pyodide.FS.writeFile('/bench/' + path, text);
  const out = await pyodide.runPythonAsync(`
import sys, json
sys.path.insert(0, '/bench')
import engine_bench, bot_bench
json.dumps(bot_bench.run(games=${games}) if ${games} else engine_bench.run(${seconds}))
`);
  return { started_ms: started, results: JSON.parse(out), version: pyodide.version };
}
"""


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _files():
    files = {name: open(os.path.join(ROOT, "bench", name)).read()
             for name in ("engine_bench.py", "bot_bench.py")}
    core = os.path.join(ROOT, "crisp_core")
    for name in sorted(os.listdir(core)):
        if name.endswith(".py"):
            files["crisp_core/" + name] = open(os.path.join(core, name)).read()
    return files


@contextlib.contextmanager
def local_site(dist=None):
    """Serve the local build (``dist``, default dist/) with ``tools/serve.mjs`` on a free
    port; yields its base URL."""
    port = _free_port()
    server = subprocess.Popen(["node", os.path.join(ROOT, "tools", "serve.mjs"), "--port",
                               str(port), "--host", "127.0.0.1"]
                              + (["--dir", dist] if dist else []), stdout=subprocess.DEVNULL)
    try:
        base = "http://127.0.0.1:%d/" % port
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "build.json", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


def run_in_pyodide(seconds, games=0, dist=None):
    """Start the local server and Chromium; return the dict the page computed (the bots'
    bench of ``games`` games a table when ``games``, else the engine's); ``dist``: the build
    to serve (dist/)."""
    from playwright.sync_api import sync_playwright

    with local_site(dist) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=[
            "--no-sandbox", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--disable-sync"])
        page = browser.new_page()
        page.goto(base + "build.json")
        folder = json.loads(page.inner_text("body"))["vendor"]["pyodide"]
        result = page.evaluate(PAGE_SCRIPT, {"files": _files(), "seconds": seconds,
                                             "games": games, "dir": folder})
        browser.close()
    return result


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 2.0
    if "--bots" in argv:
        return bots(int(argv[argv.index("--games") + 1]) if "--games" in argv else 3,
                    argv[argv.index("--dist") + 1] if "--dist" in argv else None)
    cpython = engine_bench.run(seconds)
    browser = run_in_pyodide(seconds)
    print("%-34s %14s %14s" % ("measure", "CPython", "Pyodide " + browser["version"]))
    for key, value in cpython.items():
        print("%-34s %14s %14s" % (key, value, browser["results"][key]))
    print("%-34s %14s %14.0f" % ("pyodide_start_ms (cold profile)", "-", browser["started_ms"]))
    print(json.dumps({"cpython": cpython, "pyodide": browser}))


def bots(games, dist=None):
    """The expert bot's bench in CPython and in Pyodide, side by side, per table size."""
    cpython = bot_bench.run(games=games)
    browser = run_in_pyodide(0, games, dist)
    print("%-16s %-8s %12s %14s" % ("measure", "players", "CPython", "Pyodide " + browser["version"]))
    for players, figures in cpython.items():
        for key, value in figures.items():
            print("%-16s %-8s %12s %14s" % (key, players, value,
                                            browser["results"][players][key]))
    print(json.dumps({"cpython": cpython, "pyodide": browser}))


if __name__ == "__main__":
    main()
