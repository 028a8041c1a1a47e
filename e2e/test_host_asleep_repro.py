"""Scratch repro for issue 23 fault 4 (not to land): host frozen 40 s, no ?hostgone."""
import time, json

from test_reconnect import table_of_three, timer_ms
from test_round import T, live, sel, shows

PROBE = """() => ({url: location.search, held: (document.querySelector('[data-testid="held-card"]')||{}).getAttribute ? document.querySelector('[data-testid="held-card"]').getAttribute('data-card') : null,
 handover: (document.querySelector('[data-testid="handover"]')||{}).innerText || null,
 conn: (document.querySelector('[data-testid="connection"]')||{}).innerText || null,
 status: (document.querySelector('[data-testid="status"]')||{}).innerText || null,
 timer: (document.querySelector('[data-testid="turn-timer"]')||{getAttribute:()=>null}).getAttribute('data-ms')})"""


def test_repro(new_phone):
    host, ana, bea, link = table_of_three(new_phone, draw_seconds=60)
    hp, ap, bp = host.page, ana.page, bea.page
    live(ap, "deck")
    shows(ap, "held-card", "6d")
    time.sleep(1)
    import os
    freeze = int(os.environ.get("FREEZE_S", "40"))
    hp.evaluate("(ms) => { setTimeout(() => { const t = Date.now(); while (Date.now() - t < ms)"
                " {} }, 0); }", freeze * 1000)
    held = {"wasm": [], "stdlib": []}
    release = {"wasm": int(os.environ.get("WASM_S", "0")), "stdlib": int(os.environ.get("STDLIB_S", "0"))}
    if release["wasm"]:
        ana.context.route("**/pyodide.asm.wasm", lambda r: held["wasm"].append(r))
        ana.context.route("**/python_stdlib.zip", lambda r: held["stdlib"].append(r))
    t0 = time.monotonic()
    woke = False
    while time.monotonic() - t0 < 110:
        line = {"t": round(time.monotonic() - t0, 1)}
        for n, p in (("A", ap), ("B", bp)):
            try:
                line[n] = p.evaluate(PROBE)
            except Exception as e:
                line[n] = str(e)[:80]
        bea_at = int(os.environ.get("BEA_BUSY_AT", "0"))
        if bea_at and not line.get("bb") and time.monotonic() - t0 > bea_at and not getattr(test_repro, "bb", False):
            test_repro.bb = True
            bp.evaluate("(ms) => { setTimeout(() => { const t = Date.now(); while (Date.now() - t < ms) {} }, 0); }", 7000)
            print("bea busy", flush=True)
        for k in held:
            if held[k] and time.monotonic() - t0 > release[k]:
                for r in held[k]:
                    r.continue_()
                held[k].clear()
                print("released", k, flush=True)
        if not woke and time.monotonic() - t0 > freeze:
            woke = True
            print("woke", flush=True)
        if woke:
            try:
                line["H"] = hp.evaluate(PROBE)
            except Exception as e:
                line["H"] = str(e)[:80]
        print(json.dumps(line), flush=True)
        time.sleep(1)
    for n, ph in (("Hana", host), ("Ana", ana), ("Bea", bea)):
        print("=== console", n)
        print("\n".join("%s %s" % (k, t) for k, t in ph.console))
    for n, p in (("Ana", ap), ("Bea", bp)):
        print("=== wire", n)
        for t in p.evaluate("window.__crispWire || []")[-80:]:
            print(t[:300])
