"""boot.js `offline.keep`: what the page and its engine worker fetched reaches the service
worker, whichever is ready first. A reloaded host tab (?host=<room>) starts its engine beside
MicroPython, so the engine can be ready before the page is usable and has registered the
service worker; its files must still be kept (body[data-offline]="engine": solo offline).
The object is cut out of boot.js and run in node against a fake service worker."""

import json
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A fake browser: a secure context whose service worker registers at once and records what
# it is told to keep; `order` says which of the page and the engine is ready first.
HARNESS = """
const posted = [];
const registration = { active: { postMessage: (m) => posted.push([m.id, m.urls]) } };
globalThis.window = { isSecureContext: true };
globalThis.navigator = { serviceWorker: {
  register: () => Promise.resolve(registration),
  ready: Promise.resolve(registration),
  addEventListener: () => {},
} };
globalThis.performance = { getEntriesByType: () => [{ name: "/page.js" }] };
globalThis.document = { body: { dataset: {} } };
%s
const steps = {
  engine: () => offline.keep(["/engine.wasm"], "engine"),
  page: () => offline.start(),
};
for (const step of %s) steps[step]();
setTimeout(() => console.log(JSON.stringify(posted)), 10);
"""


def run_keep(tmp_path, order):
    source = open(os.path.join(ROOT, "boot.js"), encoding="utf-8").read()
    found = re.search(r"\nconst offline = \{[\s\S]*?\n\};\n", source)
    assert found, "boot.js has no offline object"
    if shutil.which("node") is None:
        pytest.skip("node is missing")
    script = tmp_path / "keep.mjs"
    script.write_text(HARNESS % (found.group(0), json.dumps(order)))
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_page_then_the_engine_keeps_both_in_that_order(tmp_path):
    assert run_keep(tmp_path, ["page", "engine"]) == [["page", ["/page.js"]],
                                                      ["engine", ["/engine.wasm"]]]


def test_an_engine_ready_before_the_page_registered_its_service_worker_is_kept_after(tmp_path):
    # (before: its list was dropped, and data-offline never said "engine")
    assert run_keep(tmp_path, ["engine", "page"]) == [["page", ["/page.js"]],
                                                      ["engine", ["/engine.wasm"]]]
