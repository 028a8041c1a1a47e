"""Issue 23, fault 1: one page runs one build, also across a deploy. A folder is served; a
page runs build A (its service worker has kept every file, the engine's too); build B is
built into the same folder under the open page. The open page goes on with build A; the
next load runs one build (its screens' and its engine's ids are the same), and a later one
runs B. Before: `sw.js` took over the open page (skipWaiting, clients.claim) and answered
the unversioned `engine-worker.js` and `config.js` with B's copies, so one page ran A's
screens with B's engine.

Printed: which builds the loads after the deploy ran (page, engine)."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from crisp_e2e import ROOT, serve, wait_ready
from test_round import T, live, sel
from test_smoke import wait_engine

COPIED = ["index.html", "boot.js", "engine-worker.js", "awake.js", "store.js", "start.py",
          "sw.js", "package.json"]


def source_copy(folder):
    """A copy of the repository's sources that builds (node_modules and .venv linked)."""
    src = os.path.join(folder, "src")
    for d in ("ui", "crisp_core", "tools"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(src, d),
                        ignore=shutil.ignore_patterns("__pycache__"))
    for name in COPIED:
        shutil.copy(os.path.join(ROOT, name), os.path.join(src, name))
    for link in ("node_modules", ".venv"):
        os.symlink(os.path.realpath(os.path.join(ROOT, link)), os.path.join(src, link))
    return src


def build_into(src, dist):
    subprocess.run([sys.executable, os.path.join(src, "tools", "build.py"), "--test",
                    "--out", dist], check=True, cwd=src, capture_output=True)
    with open(os.path.join(dist, "build.json"), encoding="utf-8") as f:
        return json.load(f)["build"]


def builds(page):
    """(the page's build id, its engine's) once the engine runs."""
    wait_engine(page)
    return page.evaluate("[crisp.build, crisp.engine.build]")


@pytest.fixture
def deploy(tmp_path):
    src = source_copy(str(tmp_path))
    dist = os.path.join(str(tmp_path), "dist")
    a = build_into(src, dist)
    with serve(dist) as site:
        def again():
            # a change in the game (a file of ui/), built into the served folder
            with open(os.path.join(src, "ui", "cards.py"), "a", encoding="utf-8") as f:
                f.write("\n# deployed again\n")
            return build_into(src, dist)
        yield site, a, again


def test_a_deploy_under_an_open_page_never_mixes_two_builds(new_phone, deploy):
    site, a, again = deploy
    phone = new_phone(site=site)
    page = phone.page
    page.goto(site.url("/"))
    assert wait_ready(page) == "micropython"
    assert builds(page) == [a, a]
    page.wait_for_function("document.body.dataset.offline === 'engine'", timeout=120_000)

    b = again()
    assert b != a
    # the open page goes on with its own build: a room opens on it
    page.fill(sel("player-name"), "Hana")
    live(page, "create-room")
    page.wait_for_selector(sel("room-link"), timeout=T)

    # every load after the deploy runs one build, page and engine alike; B by the second
    seen = []
    for _ in range(3):
        page.goto(site.url("/"))
        assert wait_ready(page) == "micropython"
        page_build, engine_build = builds(page)
        seen.append((page_build, engine_build))
        assert page_build == engine_build, seen
        assert page_build in (a, b), seen
        if page_build == b:
            break
    print("loads after the deploy (page, engine):", seen, "A =", a, "B =", b)
    assert seen[-1] == (b, b), seen
    assert phone.errors == []
