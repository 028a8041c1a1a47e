"""How the table feels to play (issue 11), through the real page: a host (Pyodide) and two
guests (MicroPython) playing test_round's stacked round by taps.

- Every card movement flies from where the card was to where it goes (a `flight` element
  placed over its source and animated onto its destination), except with reduced motion.
- Your own moves are told as "you"; the last move is one line next to the status; the
  player whose card a Queen took is told.
- A Jack's reveal stays past the crisp window's 3 s, while the crisp button works.
- The end of the round: standings ranked lowest first, the call's -5 explained, the
  round's points in the history table, progress toward the target.
- A call, your turn, your last turn and the end of the round are announced on screen, with
  short tones (Web Audio) and a vibration, recorded here through stubs; a player who turned
  sounds off in the menu gets neither, and the page remembers it.
"""

from crisp_e2e import wait_ready
from crisp_rooms import join_room, open_room
from test_screens import axe_violations
from crisp_e2e import DECK, T, face_down, live, sel, shows

# Web Audio and navigator.vibrate stubs that record what the page plays.
SOUND_STUBS = """
(() => {
  window.__crispTones = [];
  window.__crispVibes = [];
  class FakeAudio {
    constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
    createOscillator() {
      const o = {type: "", frequency: {value: 0}, connect() {}, stop() {},
                 start() { window.__crispTones.push(o.frequency.value); }};
      return o;
    }
    createGain() {
      return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect() {}};
    }
    resume() { return Promise.resolve(); }
  }
  window.AudioContext = FakeAudio;
  Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true,
    value: (p) => { window.__crispVibes.push(Array.isArray(p) ? p : [p]); return true; }});
})();
"""

# Records every card in flight as it appears: where it starts, where its animation ends
# (start + --dx/--dy, size * --sx/--sy), where its source and destination are, its delay and
# length (ms), and whether its destination is hidden until it lands.
FLIGHTS = """
(() => {
  window.__crispFlights = [];
  const rect = (e) => { const b = e.getBoundingClientRect();
                        return [b.left, b.top, b.width, b.height]; };
  new MutationObserver((muts) => {
    for (const m of muts) for (const n of m.addedNodes) {
      if (n.nodeType !== 1 || n.getAttribute("data-testid") !== "flight") continue;
      const q = (id) => document.querySelector('#app [data-testid="' + id + '"]');
      const cs = getComputedStyle(n);
      const v = (k) => parseFloat(cs.getPropertyValue(k));
      const src = q(n.dataset.from), dst = q(n.dataset.to);
      window.__crispFlights.push({
        from: n.dataset.from, to: n.dataset.to, card: n.getAttribute("data-card"),
        start: rect(n), src: src && rect(src), dst: dst && rect(dst),
        dx: v("--dx"), dy: v("--dy"), sx: v("--sx"), sy: v("--sy"),
        animation: cs.animationName, ms: parseFloat(cs.animationDuration) * 1000,
        delay: parseFloat(cs.animationDelay) * 1000,
        hidden: !!dst && getComputedStyle(dst).visibility === "hidden"});
    }
  }).observe(document, {childList: true, subtree: true});
})();
"""

ANNOUNCE = {"Hana": "Ana called CRISP!", "Ana": "You called CRISP!", "Bea": "Ana called CRISP!"}


STUBS = (SOUND_STUBS, FLIGHTS)


def flights(page, frm=None, to=None):
    return [f for f in page.evaluate("window.__crispFlights")
            if (frm is None or f["from"] == frm) and (to is None or f["to"] == to)]


def wait_flight(page, frm, to):
    page.wait_for_function(
        "([a, b]) => window.__crispFlights.some((f) => f.from === a && f.to === b)",
        arg=[frm, to], timeout=T)
    return flights(page, frm, to)[-1]


def check_path(f):
    """The flight starts over its source and its animation ends over its destination."""
    sx, sy, sw, sh = f["src"]
    dx, dy, dw, dh = f["dst"]
    x, y, w, h = f["start"]
    assert abs(x - sx) < 2 and abs(y - sy) < 2 and abs(w - sw) < 2 and abs(h - sh) < 2, f
    assert abs(x + f["dx"] - dx) < 2 and abs(y + f["dy"] - dy) < 2, f
    assert abs(w * f["sx"] - dw) < 2 and abs(h * f["sy"] - dh) < 2, f
    assert f["animation"] == "crisp-fly" and 300 <= f["ms"] <= 450, f
    assert (f["src"][0], f["src"][1]) != (f["dst"][0], f["dst"][1]), f   # it does travel


def text(page, testid):
    return page.inner_text(sel(testid)).strip()


def tones(page):
    return page.evaluate("window.__crispTones")


def vibes(page):
    return page.evaluate("window.__crispVibes")


def test_moves_fly_are_told_as_you_and_the_call_is_felt(new_phone):
    host, link = open_room(new_phone, "Hana", "?deck=" + ",".join(DECK), init=STUBS,
                           motion=True)
    hp = host.page
    ana = join_room(new_phone, link, "Ana", 1, tap=False, init=STUBS, motion=True)
    ap = ana.page
    # Bea asked for reduced motion
    bea = join_room(new_phone, link, "Bea", 2, (hp, ap), tap=False, init=STUBS)
    bp = bea.page
    axe = {"lobby (host)": axe_violations(hp), "lobby (guest)": axe_violations(ap)}

    # -- Bea turns sounds off in the menu (on every screen); the page remembers it
    live(bp, "menu")
    bp.wait_for_selector(sel("menu-panel"), timeout=T)
    assert "three face-down cards" in text(bp, "menu-rules")
    assert bp.get_attribute(sel("sound-toggle"), "aria-pressed") == "true"
    live(bp, "sound-toggle")
    bp.wait_for_selector(sel("sound-toggle", '[aria-pressed="false"]'), timeout=T)
    assert bp.evaluate("localStorage.getItem('crisp.sound')") == "off"
    live(bp, "menu-close")

    live(hp, "start-game")
    shows(ap, "card-1-left", "2c")
    for page in (hp, ap, bp):
        live(page, "ready")
    ap.wait_for_selector(sel("card-1-left", ":not([data-card])"), timeout=T)

    # -- Ana's turn: announced to her, with its tones and a vibration
    ap.wait_for_selector(sel("announce", '[data-kind="your_turn"]'), timeout=T)
    assert text(ap, "announce") == "Your turn!"
    ap.wait_for_function("window.__crispTones.length >= 2", timeout=T)
    assert tones(ap)[:2] == [660, 880] and vibes(ap)[0] == [90]

    # -- Ana draws 6d: the card flies from the deck to the drawn card's place
    live(ap, "deck")
    shows(ap, "held-card", "6d")
    check_path(wait_flight(ap, "deck", "held-card"))
    check_path(wait_flight(hp, "deck", "held-card"))          # everyone sees it go
    # ... and swaps it into her center: it goes into her hand, her old card onto the pile
    live(ap, "card-1-center")
    for page in (hp, ap):
        into = wait_flight(page, "held-card", "card-1-center")
        out = wait_flight(page, "card-1-center", "discard")
        check_path(into)
        check_path(out)
        assert out["card"] == "9d"                             # the discard is public
    for page in (hp, ap, bp):
        shows(page, "discard", "9d")
    assert text(ap, "last-move") == "You swapped your center card; 9\u2666 discarded."
    assert text(hp, "last-move") == "Ana swapped their center card; 9\u2666 discarded."
    assert "You drew from the deck." in text(ap, "event-log")
    assert flights(bp) == []                                  # reduced motion: nothing flies

    # -- Bea's Jack: her center stays shown past the 3 s crisp window, crisp live meanwhile
    live(bp, "deck")
    shows(bp, "held-card", "Jc")
    live(bp, "use-special")
    shows(bp, "card-2-center", "Td")
    bp.wait_for_selector(sel("reveal-note"), timeout=T)
    assert "10\u2666" in text(bp, "reveal-note")
    assert bp.is_enabled(sel("crisp"))                         # both at once
    axe["table: a Jack's reveal, crisp live"] = axe_violations(bp)
    bp.wait_for_selector(sel("crisp", "[disabled]"), timeout=T)   # the window closes...
    bp.wait_for_timeout(1500)
    shows(bp, "card-2-center", "Td")                           # ... and the card is still up
    assert face_down(ap, "card-2-center")

    # -- Hana's Queen: her left for Ana's right; the cards trade places; Ana is told
    live(hp, "deck")
    shows(hp, "held-card", "Qs")
    live(hp, "use-special")
    live(hp, "card-0-left")
    live(hp, "card-1-right")
    shows(ap, "card-1-right", "7h")
    for page in (hp, ap):
        check_path(wait_flight(page, "card-0-left", "card-1-right"))
        check_path(wait_flight(page, "card-1-right", "card-0-left"))
    ap.wait_for_selector(sel("queen-notice"), timeout=T)
    assert text(ap, "queen-notice") == ("Hana took your right card with a Queen and gave "
                                        "you their left card.")
    assert bp.locator(sel("queen-notice")).count() == 0
    # the next turn began: Bea's Jack card turned back
    bp.wait_for_selector(sel("card-2-center", ":not([data-card])"), timeout=T)
    assert bp.locator(sel("reveal-note")).count() == 0

    # -- Ana: the King, two extra draws, then the call: announced to everyone, felt
    live(ap, "deck")
    shows(ap, "held-card", "Kd")
    live(ap, "use-special")
    live(ap, "deck")
    shows(ap, "held-card", "3h")
    live(ap, "card-1-right")
    live(ap, "deck")
    shows(ap, "held-card", "9c")
    live(ap, "discard-held")
    before = {"Hana": len(tones(hp)), "Bea": len(tones(bp))}
    live(ap, "crisp", timeout=2500)
    for name, page in (("Hana", hp), ("Ana", ap), ("Bea", bp)):
        page.wait_for_selector(sel("announce", '[data-kind="crisp"]'), timeout=T)
        assert text(page, "announce").startswith(ANNOUNCE[name]), name
    assert "Your last turn" in text(bp, "announce")             # Bea plays next
    assert "2 last turns" in text(hp, "announce")
    hp.wait_for_function("window.__crispTones.includes(1760)", timeout=T)
    assert tones(hp)[before["Hana"]:before["Hana"] + 3] == [1320, 1320, 1760]
    assert [60, 40, 60, 40, 160] in vibes(hp)
    assert "You called crisp!" in text(ap, "event-log")

    # -- the last turns; Hana's is announced as her last
    live(bp, "deck")
    shows(bp, "held-card", "8d")
    live(bp, "discard-held")
    hp.wait_for_selector(sel("announce", '[data-kind="last_turn"]'), timeout=T)
    assert text(hp, "announce") == "Your last turn!"
    live(hp, "deck")
    shows(hp, "held-card", "8c")
    live(hp, "discard-held")
    for page in (hp, ap, bp):
        page.wait_for_selector(sel("round-results"), timeout=T)
    axe["results"] = axe_violations(ap)
    assert axe == {k: [] for k in axe}                  # axe-core: no serious or critical one
    hp.wait_for_function("window.__crispTones.includes(523)", timeout=T)   # the round's end
    # -- ranked standings (lowest first), the call's -5 explained, the round in the history
    for page in (hp, ap, bp):
        order = page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid="standings"] tbody tr')].map((r) => r.getAttribute('data-testid'))""")
        assert order == ["result-1", "result-0", "result-2"], order     # 6, 14, 17
        assert "\u22125: the lowest hand, strictly" in text(page, "bonus-why")
        assert page.inner_text(sel("history-1")).split() == ["Ana", "6", "6"]
        assert text(page, "progress-2") == "83 from the end"                   # the target is 100
    # Bea turned sounds off before the game: not a tone, not a vibration
    assert tones(bp) == [] and vibes(bp) == [] and before["Bea"] == 0

    for phone in (host, ana, bea):
        assert phone.errors == [], phone.errors


def test_a_friend_joins_by_the_room_code_and_a_localhost_link_is_flagged(new_phone):
    """Issue 11.7: the lobby shows a short code; typed on another phone's landing (any case,
    spaces) it opens that room's guest page, which joins. A room opened at 127.0.0.1 warns
    its host that phones cannot open its link; one opened at the LAN address does not."""
    host, link = open_room(new_phone, "Hana")
    hp = host.page
    hp.wait_for_selector(sel("lobby-code"), timeout=T)
    code = text(hp, "lobby-code")
    assert len(code) == 11 and code[5] == "-"
    warning = text(hp, "link-warning")       # in player words (issue 20.13): no ./serve.sh
    assert "only opens on this computer" in warning and "serve.sh" not in warning

    guest = new_phone(reduced_motion="reduce")
    gp = guest.page
    gp.goto(guest.site.lan_url("/"))
    assert wait_ready(gp) == "micropython"                 # the landing is the host page
    assert gp.is_disabled(sel("join-code"))
    # the name typed on the landing, then the code: the room's join screen keeps the name
    gp.fill(sel("player-name"), "Ana")
    gp.fill(sel("room-code"), code.lower().replace("-", " "))
    live(gp, "join-code")
    gp.wait_for_url("**/?room=*", timeout=T)
    assert gp.url.split("?room=")[1] == link.split("?room=")[1]
    assert wait_ready(gp) == "micropython"             # the guest page of that room
    gp.wait_for_selector(sel("connection"), state="detached", timeout=T)
    gp.wait_for_selector(sel("invited-with"), timeout=T)
    # the invitation says who invites and who is there
    assert text(gp, "invited") == "Hana invites you to a game of Crisp"
    assert "Hana" in text(gp, "invited-with")
    assert gp.input_value(sel("player-name")) == "Ana"
    live(gp, "join-room")
    hp.wait_for_selector(sel("player-1"), timeout=T)
    gp.wait_for_selector(sel("lobby-code"), timeout=T)
    assert text(gp, "lobby-code") == code
    assert gp.locator(sel("link-warning")).count() == 0    # a guest is not the one to fix it
    # the menu's Leave (asked twice) takes the guest back to the landing
    live(gp, "menu")
    live(gp, "menu-leave")
    live(gp, "menu-leave-confirm")
    gp.wait_for_selector(sel("create-room"), timeout=T)
    assert "room=" not in gp.url

    lan, _ = open_room(new_phone, "Bea", lan=True)
    lp = lan.page
    lp.wait_for_selector(sel("lobby-code"), timeout=T)
    assert lp.locator(sel("link-warning")).count() == 0
    for phone in (host, guest, lan):
        assert phone.errors == [], phone.errors


# Every text and progress value the loading screen shows, as it changes.
LOADING = """
(() => {
  window.__crispLoading = [];
  const look = () => {
    const l = document.getElementById('loading');
    // (the parser may hand over a task between #loading and its bar: a loaded machine)
    if (!l || !l.querySelector('progress')) return;
    const t = (id) => (document.getElementById(id) || {}).textContent || '';
    const v = [t('loading-title'), t('loading-text'), t('loading-detail'),
               Number(l.querySelector('progress').value), l.hidden];
    const last = window.__crispLoading[window.__crispLoading.length - 1];
    if (!last || JSON.stringify(last) !== JSON.stringify(v)) window.__crispLoading.push(v);
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true,
                                                 characterData: true, attributes: true});
})();
"""


def test_the_loading_screen_names_the_game_what_is_loading_and_real_progress(new_phone):
    """Issue 11.8: the host's loading screen names the game and the part being loaded, and
    its bar follows the bytes that arrived (the build's sizes): it only goes up, passes
    through the parts, and is near full before the page starts."""
    phone = new_phone(reduced_motion="reduce")
    phone.context.add_init_script(LOADING)
    page = phone.page
    page.goto(phone.site.url("/"))
    assert wait_ready(page) == "micropython"
    seen = page.evaluate("window.__crispLoading")
    assert seen and all(s[0] == "Crisp" for s in seen)
    texts = [s[1] for s in seen]
    # every page, the host's too, starts MicroPython (the host's engine loads in its worker)
    # in player words (issue 20.13): the parts of the game, never the software's names
    assert "Loading the table\u2026" in texts, texts
    assert "Loading the cards\u2026" in texts or "Setting the table\u2026" in texts, texts
    assert not [t for t in texts if "Python" in t or "MB" in t], texts
    values = [s[3] for s in seen if not s[4]]
    assert values == sorted(values) and values[-1] >= 90, values      # real, monotonic
    assert len(set(values)) >= 3, values                               # it moved
    details = [s[2] for s in seen if s[2]]
    assert details and all(d.endswith("%") for d in details), details
    assert details[-1] == "100%", details                  # MicroPython + zip, all arrived
    assert phone.errors == [], phone.errors
