"""Playwright (Python, sync API) fixtures for Crisp's end-to-end tests.

Fixtures
    site         session: a local test build (tools/build.py --test) in a temp folder, served by
                 `node tools/serve.mjs` (static files + PeerJS signaling at /peerjs) on a free
                 port; yields a Site with .url(path) and .lan_url(path). Stopped by its PID.
    browser      session: Debian's Chromium (/usr/bin/chromium, or $CRISP_CHROMIUM).
    open_site    session: the same build served by a second serve.mjs whose signaling server
                 keeps no id reserved (`--reserve-ms 0`, as the PeerJS cloud server): for the
                 tests of what happens when someone else holds a room id.
    new_phone    function: new_phone(path=None, site=None) -> Phone, a fresh context (390x844, touch,
                 microphone permission for loopback WebRTC) with one page; every request and
                 websocket URL is recorded in phone.requests (and in the session's
                 ALL_REQUESTS). Contexts are closed at the end of the test.
    timings      session: dict name -> list of ms; printed (median) in the terminal summary.
    relay        session: Debian's coturn on loopback (e2e/turn_relay.py), one for the whole
                 session; skips with the reason when it cannot be installed (not root).

Helpers (in crisp_e2e.py, import them from there)
    served_build(folder, *build_args)  a context manager: builds the site with tools/build.py
                      and those arguments into folder/dist, serves it (`serve`) and yields its
                      Site (what `site` does with "--test"); for tests of other builds
                      (e2e/test_build_params.py).
    serve(dist, *serve_args)  a context manager: serves a built `dist` with tools/serve.mjs
                      (and those arguments) on a free port; yields its Site.
    wait_ready(page)  waits until ui/page/main.py set body[data-ready]; returns its value
                      ("micropython" on every page; a host page's engine worker sets
                      body[data-engine], see test_smoke.wait_engine).
    ready_ms(page)    ms from navigation start to body[data-ready] (recorded by an init script).
    is_local(url)     True for loopback http(s)/ws(s) URLs and data:/blob:/about: ones.

Pages: `/` is the host/landing page (MicroPython, its engine on Pyodide in a worker),
`/?room=<id>` a guest page (MicroPython).
Test-only page parameters on the host page: `?deck=Ah,5c,...`, `?seed=N` (docs/design.md); only a
test build honours them, which is why `site` is one.
"""

import os

import pytest
from playwright.sync_api import sync_playwright

from crisp_e2e import (CHROMIUM, LAUNCH_ARGS, PHONE, READY_PROBE, ALL_REQUESTS, Phone, serve,
                       served_build)


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    # Build into a private folder: tests never disturb the dist/ someone is serving.
    with served_build(str(tmp_path_factory.mktemp("crisp")), "--test") as s:
        yield s


@pytest.fixture(scope="session")
def open_site(site):
    with serve(site.dist, "--reserve-ms", "0") as s:
        yield s


@pytest.fixture(scope="session")
def relay(tmp_path_factory):
    from turn_relay import coturn, ensure_coturn
    turnserver, why = ensure_coturn()
    if turnserver is None:
        pytest.skip(why)
    with coturn(str(tmp_path_factory.mktemp("coturn")), turnserver) as r:
        yield r


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance):
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} not found: apt-get install -y chromium (test.sh does it)")
    b = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
    yield b
    b.close()


@pytest.fixture
def new_phone(browser, site):
    contexts = []
    default_site = site

    def make(path=None, lan=False, site=None, **context_kw):
        options = {**PHONE, "permissions": ["microphone"], **context_kw}
        context = browser.new_context(**options)
        context.add_init_script(READY_PROBE)
        contexts.append(context)
        page = context.new_page()
        phone = Phone(context, page, site or default_site)

        def on_request(request):
            phone.requests.append(request.url)
            ALL_REQUESTS.append(request.url)

        def on_websocket(ws):
            phone.requests.append(ws.url)
            ALL_REQUESTS.append(ws.url)

        context.on("request", on_request)
        page.on("websocket", on_websocket)
        page.on("console", lambda m: phone.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: phone.errors.append(str(e)))
        if path is not None:
            phone.goto(path, lan=lan)
        return phone

    yield make
    for c in contexts:
        try:
            c.close()
        except Exception:
            pass


@pytest.fixture(scope="session")
def timings():
    return _TIMINGS


_TIMINGS = {}


def pytest_terminal_summary(terminalreporter):
    if not _TIMINGS:
        return
    terminalreporter.section("crisp timings in ms (pages: navigation start to body[data-ready])")
    for name, values in _TIMINGS.items():
        vals = sorted(values)
        median = vals[len(vals) // 2]
        terminalreporter.write_line(
            f"{name}: median {median:.0f} ms over {len(vals)} "
            f"({', '.join(f'{v:.0f}' for v in values)})")
