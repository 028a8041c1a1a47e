"""The page's Content-Security-Policy (tools/pageshell.py `content_security_policy`) holds for a
whole round: a host (Pyodide) and a guest (MicroPython) load, create and join a room over
PeerJS, show the QR code, the draw timer, cards flying (the guest's page), the results, and
no `securitypolicyviolation`
fires on either page (nor a CSP message in their consoles).
"""

import re

from crisp_e2e import engine_ready, wait_ready
from crisp_e2e import T, live, sel, shows

# Deal (dealer Hana, seat 0): Ana (1) 2c 9d 5h, Hana (0) 7h Ah 8s. Ana draws 6d into her
# center and calls crisp; Hana's last turn draws 8c and discards it.
DECK = ["2c", "7h", "9d", "Ah", "5h", "8s", "6d", "8c"]

LISTEN = """
(() => {
  window.__csp = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    window.__csp.push([e.effectiveDirective, e.blockedURI, e.sourceFile, e.lineNumber,
                       e.sample].join(" "));
  });
})();
"""


def phone(new_phone, motion="reduce"):
    p = new_phone(reduced_motion=motion)
    p.context.add_init_script(LISTEN)
    return p


def violations(p):
    found = list(p.page.evaluate("window.__csp"))
    found += [text for kind, text in p.console if "Content Security Policy" in text]
    return found


def test_a_round_under_the_content_security_policy(new_phone, site):
    host = phone(new_phone)
    hp = host.page
    hp.goto(site.url("/?deck=" + ",".join(DECK)))
    assert wait_ready(hp) == "micropython"
    policy = hp.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert "default-src 'self'" in policy and "object-src 'none'" in policy
    assert "'unsafe-inline'" not in policy and re.search(r"connect-src 'self';", policy)
    hp.fill(sel("player-name"), "Hana")
    live(hp, "create-room")
    hp.wait_for_selector(sel("room-qr"), timeout=T)              # a data: image, by CSSOM
    engine_ready(hp)          # guests' seats and bots wait for the engine
    assert "data:image/svg+xml" in hp.evaluate(
        "getComputedStyle(document.querySelector('[data-testid=\"room-qr\"]')).backgroundImage")
    link = hp.inner_text(sel("room-link")).strip()
    hp.select_option(sel("opt-draw-seconds"), "30")               # the timer's style

    guest = phone(new_phone, "no-preference")         # cards fly on this one (their style)
    ap = guest.page
    ap.goto(link)
    assert wait_ready(ap) == "micropython"
    ap.wait_for_selector(sel("connection"), state="detached", timeout=T)
    ap.fill(sel("player-name"), "Ana")
    live(ap, "join-room")
    hp.wait_for_selector(sel("player-1"), timeout=T)

    live(hp, "start-game")
    for page in (hp, ap):
        live(page, "ready")
    live(ap, "deck")
    shows(ap, "held-card", "6d")
    ap.wait_for_selector(sel("turn-timer"), timeout=T)
    assert "--p" in ap.get_attribute(sel("turn-timer"), "style")
    live(ap, "card-1-center")
    live(ap, "crisp", timeout=2500)
    live(hp, "deck")
    shows(hp, "held-card", "8c")
    live(hp, "discard-held")
    for page in (hp, ap):
        page.wait_for_selector(sel("round-results"), timeout=T)

    for p in (host, guest):
        assert violations(p) == [], (p.page.url, violations(p))
        assert p.errors == [], p.errors
