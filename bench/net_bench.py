"""The network between phones, measured (issue 21). Prints numbers; asserts nothing.

    .venv/bin/python -m bench.net_bench [--runs N]

- no WebRTC: ms from navigation start until the page says this browser cannot play with
  friends (`no-webrtc`), on a guest link and on the landing (RTCPeerConnection removed by an
  init script, as e2e/test_no_webrtc.py does);
- ICE blocked: ms from the guest page's navigation start until it says the network cannot
  reach the host (`unreachable`), with a relay-only build whose TURN server does not answer
  (as e2e/test_relay.py); the bound is ui/page/net/link.py UNREACHABLE_MS (+ one attempt);
- round-trip: a data channel's ping-pong (100-byte text, one at a time) between two
  RTCPeerConnections in Chromium, direct on loopback (host candidates) and through Debian's
  coturn on loopback (relay only): median and 95th percentile, ms.

Needs Debian's Chromium, node_modules, and coturn for the relay parts (tools/setup.sh).
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "e2e"))

from playwright.sync_api import sync_playwright  # noqa: E402

from crisp_e2e import CHROMIUM, LAUNCH_ARGS, PHONE, served_build  # noqa: E402
from turn_relay import coturn, ensure_coturn, free_udp_port  # noqa: E402
from ui.page.net.link import ATTEMPT_MS, UNREACHABLE_MS  # noqa: E402

NO_WEBRTC = "delete window.RTCPeerConnection; delete window.RTCDataChannel;"

# performance.now() when an element with this test id first shows: window.__seenAt[id]
SEEN = """
(() => {
  window.__seenAt = {};
  new MutationObserver(() => {
    for (const id of ["no-webrtc", "unreachable", "room-link"]) {
      if (window.__seenAt[id] === undefined && document.querySelector('[data-testid="' + id + '"]'))
        window.__seenAt[id] = performance.now();
    }
  }).observe(document, {subtree: true, childList: true});
})();
"""

RTT = """
async ([config, n]) => {
  const a = new RTCPeerConnection(config), b = new RTCPeerConnection(config);
  a.onicecandidate = (e) => { if (e.candidate) b.addIceCandidate(e.candidate); };
  b.onicecandidate = (e) => { if (e.candidate) a.addIceCandidate(e.candidate); };
  b.ondatachannel = (e) => { e.channel.onmessage = (m) => e.channel.send(m.data); };
  const ch = a.createDataChannel("bench", {ordered: true});
  const open = new Promise((resolve) => { ch.onopen = resolve; });
  await a.setLocalDescription(await a.createOffer());
  await b.setRemoteDescription(a.localDescription);
  await b.setLocalDescription(await b.createAnswer());
  await a.setRemoteDescription(b.localDescription);
  await open;
  const text = "x".repeat(100);
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await new Promise((resolve) => { ch.onmessage = resolve; ch.send(text); });
    times.push(performance.now() - t0);
  }
  const stats = await a.getStats();
  let kind = null;
  const byId = {};
  stats.forEach((s) => { byId[s.id] = s; });
  stats.forEach((s) => {
    if (s.type === "transport" && s.selectedCandidatePairId)
      kind = byId[byId[s.selectedCandidatePairId].localCandidateId].candidateType;
  });
  a.close(); b.close();
  return {times, kind};
}
"""


def line(name, values, unit="ms"):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    print("%-52s median %8.1f %s  p95 %8.1f  (n=%d)" % (name, statistics.median(values), unit,
                                                        p95, len(values)))


def seen_at(browser, url, testid, init=(), timeout=60_000):
    context = browser.new_context(**PHONE)
    for script in (SEEN,) + tuple(init):
        context.add_init_script(script)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("(id) => window.__seenAt && window.__seenAt[id] !== undefined",
                           arg=testid, timeout=timeout)
    ms = page.evaluate("(id) => window.__seenAt[id]", testid)
    return ms, context


def host_room(browser, site):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(site.url("/"))
    page.wait_for_function("document.body && document.body.dataset.ready", timeout=60_000)
    page.fill('[data-testid="player-name"]', "Hana")
    page.click('[data-testid="create-room"]')
    page.wait_for_selector('[data-testid="room-link"]', timeout=60_000)
    return context, page.inner_text('[data-testid="room-link"]').strip()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pings", type=int, default=300)
    args = ap.parse_args(argv)
    turnserver, why = ensure_coturn()
    tmp = tempfile.mkdtemp(prefix="crisp-net-bench-")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        with served_build(os.path.join(tmp, "plain"), "--test") as site:
            for name, path in (("guest link", "/?room=crisp-" + "7" * 32), ("landing", "/")):
                values = []
                for _ in range(args.runs):
                    ms, context = seen_at(browser, site.url(path), "no-webrtc", (NO_WEBRTC,))
                    values.append(ms)
                    context.close()
                line("no WebRTC, %s: navigation -> no-webrtc" % name, values)
        print("%-52s %s" % ("ICE blocked: bound (UNREACHABLE_MS + one attempt)",
                            "%d ms" % (UNREACHABLE_MS + ATTEMPT_MS)))
        if turnserver is None:
            print("relay parts skipped:", why)
            browser.close()
            return
        os.makedirs(os.path.join(tmp, "turn"))
        with coturn(os.path.join(tmp, "turn"), turnserver) as relay:
            dead = relay.ice()
            dead["iceServers"][0]["urls"] = "turn:127.0.0.1:%d" % free_udp_port()
            ice = os.path.join(tmp, "dead.json")
            with open(ice, "w") as f:
                json.dump(dead, f)
            with served_build(os.path.join(tmp, "blocked"), "--test", "--ice", ice) as blocked:
                values = []
                for _ in range(max(1, args.runs - 1)):
                    host, link = host_room(browser, blocked)
                    ms, context = seen_at(browser, link, "unreachable", timeout=60_000)
                    values.append(ms)
                    context.close()
                    host.close()
                line("ICE blocked: guest navigation -> unreachable", values)
            page = browser.new_page()
            page.goto("about:blank")
            direct = page.evaluate(RTT, [{"iceServers": []}, args.pings])
            relayed = page.evaluate(RTT, [{"iceServers": relay.ice()["iceServers"],
                                           "iceTransportPolicy": "relay"}, args.pings])
            line("round-trip, direct on loopback (%s)" % direct["kind"], direct["times"][10:])
            line("round-trip, through coturn on loopback (%s)" % relayed["kind"],
                 relayed["times"][10:])
            page.close()
        browser.close()


if __name__ == "__main__":
    t0 = time.monotonic()
    main()
    print("(%.0f s)" % (time.monotonic() - t0))
