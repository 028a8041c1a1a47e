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
import time

import pytest

from crisp_e2e import ROOT, engine_ready, serve, wait_ready
from crisp_e2e import T, live, sel
from test_smoke import wait_engine

# the page shell (tools/build.py SHELL_FILES) and what the build reads beside it
COPIED = ["index.html", "boot.js", "engine-worker.js", "awake.js", "store.js", "pagefiles.js",
          "start.py", "sw.js", "package.json"]


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


def settled(page):
    """Wait until the page's service worker registration has checked for a new sw.js and
    whatever it found has installed and taken over (no worker installing or waiting): what
    the browser does by itself after a navigation, in its own time (the engine now starts in
    about a second, so a test's next load can come before that)."""
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r && r.update())")
    deadline = time.monotonic() + T / 1000
    while not page.evaluate("navigator.serviceWorker.getRegistration()"
                            ".then((r) => !r || (!r.installing && !r.waiting))"):
        assert time.monotonic() < deadline, "the new service worker never took over"
        time.sleep(0.1)


@pytest.fixture
def deploy(tmp_path):
    src = source_copy(str(tmp_path))
    dist = os.path.join(str(tmp_path), "dist")
    a = build_into(src, dist)
    with serve(dist) as site:
        def again(protocol=None, engine=False):
            # a change in the game (a file of ui/), built into the served folder; with
            # `protocol`, the new build speaks that protocol version; with `engine`, its
            # engine changed too (a new host zip and snapshot)
            with open(os.path.join(src, "ui", "page", "screens", "cards.py"), "a", encoding="utf-8") as f:
                f.write("\n# deployed again\n")
            if engine:
                with open(os.path.join(src, "ui", "worker", "play.py"), "a",
                          encoding="utf-8") as f:
                    f.write("\nDEPLOYED_AGAIN = True\n")
            for rel in (("ui", "shared", "wire.py"),):     # the protocol's one VERSION
                if protocol is None:
                    break
                path = os.path.join(src, *rel)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                assert "\nVERSION = 1\n" in text, rel
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text.replace("\nVERSION = 1\n", "\nVERSION = %d\n" % protocol))
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

    b = again(engine=True)
    assert b != a
    # the open page goes on with its own build: a room opens on it
    page.fill(sel("player-name"), "Hana")
    live(page, "create-room")
    page.wait_for_selector(sel("room-link"), timeout=T)

    # every load after the deploy runs one build, page and engine alike: the first one
    # online (A from its cache, or B), and once B's service worker took over...
    page.goto(site.url("/"))
    assert wait_ready(page) == "micropython"
    seen = [tuple(builds(page))]
    settled(page)
    # ...the next, offline, runs B, whose engine its service worker had before it took over
    # (the old build's page never fetched B's engine): solo plays offline
    phone.context.set_offline(True)
    try:
        page.goto(site.url("/?seed=3&botpace=0.1"))
        assert wait_ready(page) == "micropython"
        page.fill(sel("player-name"), "Sol")
        page.select_option(sel("solo-bots"), "1")
        live(page, "play-solo")
        engine_ready(page)
        page.wait_for_selector(sel("card-1-left"), timeout=T)
        seen.append(tuple(page.evaluate("[crisp.build, crisp.engine.build]")))
    finally:
        phone.context.set_offline(False)
    print("loads after the deploy (page, engine), the second offline:", seen, "A =", a,
          "B =", b)
    assert seen[0][0] == seen[0][1] and seen[0][0] in (a, b), seen
    assert seen[-1] == (b, b), seen
    assert phone.errors == []


def test_a_guest_page_of_the_old_build_is_told_to_reload_not_shown_a_broken_table(
        new_phone, deploy):
    """Bea's phone kept build A (its service worker, its cache); build B, which speaks
    protocol 2, is deployed; Hana opens B and makes a room; Bea opens the link on her phone:
    her page runs A from its cache (one build: all of A), joins, and is told that Hana's game
    is a newer version, with a reload at hand. Before: each page dropped the other's
    messages (another `v`) and Bea's join did nothing, with nothing said."""
    site, a, again = deploy
    bea = new_phone(site=site)
    bp = bea.page
    bp.goto(site.url("/?room=crisp-0000000000"))
    assert wait_ready(bp) == "micropython"
    bp.wait_for_function("['page', 'engine'].includes(document.body.dataset.offline)",
                         timeout=120_000)
    b = again(protocol=2)
    host = new_phone(site=site)
    hp = host.page
    hp.goto(site.url("/"))
    assert wait_ready(hp) == "micropython"
    assert builds(hp) == [b, b]
    hp.fill(sel("player-name"), "Hana")
    live(hp, "create-room")
    link = hp.inner_text(sel("room-link")).strip()
    bp.goto(link)
    assert wait_ready(bp) == "micropython"
    assert bp.evaluate("crisp.build") == a                 # her phone's build, all of it
    bp.wait_for_selector(sel("connection"), state="detached", timeout=T)
    bp.fill(sel("player-name"), "Bea")
    live(bp, "join-room")
    bp.wait_for_selector(sel("version-clash", '[data-newer="host"]'), timeout=T)
    text = bp.inner_text(sel("version-clash"))
    print("Bea's page (build %s) joining Hana's (build %s): %r" % (a, b, text))
    assert "Hana" in text and "newer" in text
    assert bp.locator(sel("reload")).count() == 1
    assert hp.locator(sel("player-1")).count() == 0        # no seat half-made
    assert bea.errors == [] and host.errors == []
