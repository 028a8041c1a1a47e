"""Issue 20 item 1 through the real pages: in a host handover every screen agrees with itself
at every moment.

Hana hosts Ana, Bea and a bot; her tab closes mid-game. Each remaining page records, with a
MutationObserver, every state of what it shows that matters here: the connection banner
(its test id and words), the seat wearing the host's crown (`host-badge`) and whether it
shows away, whether Hana's seat shows away, and which table controls are live. A screen
contradicts itself when:
- its banner says the host is not answering (or gone, or the connection is lost) while the
  crowned seat shows there;
- its banner names a new host while the crown is on another seat, or on a seat shown away,
  or Hana's seat shows there;
- no banner shows, yet the crowned seat shows away;
- a table control is live under a banner that says the game cannot go on (a tap that does
  nothing);
- once the room moves (a handover banner has shown), Hana's seat shows there (she is gone);
- once the game has gone on under the new host (no banner, the crown on a seat there), any
  banner shows again: nobody else left, so "Ana's phone is not answering" or "reconnecting"
  is false (issue 20.1: Bea saw both for ~0.5 s while Ana's page took over).

And the first banner each guest sees is "Game paused: Hana's phone is not answering" with its
countdown (their own network is fine: not "reconnecting"); the countdown is one clock: both
screens show the same seconds at every moment (the host's beat, ui/page/net/link.py `Link.sign`);
while paused the instruction line says the game is paused; once the game goes on every screen
names the new host for a few seconds ("Ahora la partida sigue en el móvil de Ana" on Bea's, in Spanish).

Printed: the seconds of contradictory screens per page, the banners' words in order, and the
countdowns' largest difference between the two screens."""

import re
import time

from crisp_rooms import no_errors
from test_handover import going_on, three_at_the_table
from crisp_e2e import T, sel

# Records what the screen shows, each time it changes (however briefly), with its time.
WATCH_SCREEN = """
() => {
  window.__screens = [];
  const table = () => document.querySelector('#app main.table');
  const state = () => {
    const b = document.querySelector('#app [data-testid="handover"], #app [data-testid="host-gone"],'
      + ' #app [data-testid="connection"], #app [data-testid="host-unverified"]');
    const seats = [...document.querySelectorAll('#app [data-testid^="seat-"]')];
    const crowned = seats.filter(e => e.querySelector('[data-testid="host-badge"]'));
    const c = crowned.length === 1 ? crowned[0] : null;
    const hana = seats.find(e => (e.querySelector('.pname') || {}).textContent === 'Hana');
    const t = table();
    const st = document.querySelector('#app [data-testid="status"]');
    const note = document.querySelector('#app [data-testid="new-host"]');
    return {banner: b ? b.dataset.testid : null, text: b ? b.innerText : null,
            status: st ? st.textContent : null, note: note ? note.innerText : null,
            looks_live: t ? t.querySelectorAll('.live').length : 0,
            table: !!t, crowns: crowned.length,
            crown: c ? (c.querySelector('.pname') || {}).textContent : null,
            crown_away: c ? c.classList.contains('away') : null,
            crown_me: c ? c.classList.contains('me') : null,
            hana_away: hana ? hana.classList.contains('away') : null,
            live: t ? [...t.querySelectorAll('[data-act]:not([disabled])')]
              .map(e => e.dataset.testid).filter(id => id !== 'leave').join() : ''};
  };
  const seen = () => {
    const s = state();
    const last = window.__screens[window.__screens.length - 1];
    const same = last && Object.keys(s).every(k => s[k] === last[k]);
    if (!same) { s.at = Date.now(); window.__screens.push(s); }
  };
  seen();
  new MutationObserver(seen).observe(document.body, {subtree: true, childList: true,
                                                     characterData: true, attributes: true});
  // when each message from the host came (the wire tap, polled every 20 ms), beats apart:
  // what the countdown counted from before the host's beat (each page's own last word)
  window.__words = [];
  let got = (window.__crispWire || []).length;
  setInterval(() => {
    const wire = window.__crispWire || [];
    for (; got < wire.length; got++) {
      window.__words.push({at: Date.now(), beat: wire[got].includes('"type":"beat"')});
    }
  }, 20);
}
"""

ABSENT = ("connection", "host-gone", "host-unverified")
PAUSED = ("The game is paused: nothing to tap until it goes on.",           # st_paused
          "La partida est\u00e1 en pausa: no hay nada que tocar hasta que siga.")

# How many pongs the page has received (the wire tap, crisp_e2e.WIRE_TAP).
PONGS = """() => (window.__crispWire || []).filter(t => t.includes('"pong"')).length"""

# The game going on under its new host: no banner, Hana's seat away, the crown on a seat there.
SETTLED = """() => {
  const s = window.__screens[window.__screens.length - 1];
  return s.banner === null && s.hana_away === true && s.crowns === 1 && !s.crown_away;
}"""


def contradiction(s, moved=False, settled=False):
    """Why the screen state `s` (WATCH_SCREEN) contradicts itself, or None; `moved`: a
    handover banner has shown on this page before it; `settled`: the game has gone on under
    the new host since (`going_on_under`)."""
    if not s["table"]:
        return None
    if settled and s["banner"] is not None:
        return "the game went on under its new host, yet the banner says %r" % s["text"]
    if moved and s["hana_away"] is False:
        return "the room moved, yet the old host shows there"
    if s["crowns"] != 1:
        return "%d crowns" % s["crowns"]
    if s["banner"] in ABSENT:
        if not s["crown_away"] and not s["crown_me"]:
            return "the host is said absent, its seat shows there"
        if s["live"] or s["looks_live"]:
            return "the game is paused, yet %s is live" % (s["live"] or ".live")
        if s["status"] is not None and s["status"] not in PAUSED:
            return "the game is paused, yet the prompt says %r" % s["status"]
        return None
    if s["banner"] == "handover":
        me = s["crown_me"]
        if not me and (s["crown"] not in s["text"] or s["crown_away"]):
            return "the new host named is not the crowned seat shown there"
        if s["hana_away"] is False:
            return "the old host shows there"
        if s["live"] or s["looks_live"]:
            return "the game moves, yet %s is live" % (s["live"] or ".live")
        if s["status"] is not None and s["status"] not in PAUSED:
            return "the game moves, yet the prompt says %r" % s["status"]
        return None
    if s["banner"] is None and s["crown_away"]:
        return "no banner, yet the host's seat shows away"
    return None


def going_on_under(s):
    """The screen state `s` shows the game going on under a new host: the table, no banner,
    one crown, on a seat shown there that is not Hana's."""
    return (s["table"] and s["banner"] is None and s["crowns"] == 1 and s["crown"] != "Hana"
            and not s["crown_away"])


def contradictory_seconds(states, end_ms):
    """The seconds during which the screen contradicted itself, and the reasons seen."""
    total = 0
    why = []
    moved = settled = False
    for i, s in enumerate(states):
        until = states[i + 1]["at"] if i + 1 < len(states) else end_ms
        moved = moved or s["banner"] == "handover"
        reason = contradiction(s, moved, settled)
        settled = settled or (moved and going_on_under(s))
        if reason is not None:
            total += until - s["at"]
            if reason not in why:
                why.append(reason)
    return total / 1000, why


def countdown(s):
    """The seconds the screen state `s` counts down to the handover, or None."""
    if s["banner"] != "connection" or not s["text"]:
        return None
    found = re.search(r"(\d+) s\b", s["text"])
    return int(found.group(1)) if found else None


def deadline(states):
    """The moment (ms, the page's clock) a screen's countdown runs out, as its states show
    it: each time the seconds shown drop to v, the deadline is v s on (a screen draws every
    250 ms, so each drop is seen up to that late: the earliest estimate is the closest).
    None when it showed no countdown."""
    out = None
    prev = None
    for s in states:
        v = countdown(s)
        if v is not None and prev is not None and v < prev:
            est = s["at"] + v * 1000
            out = est if out is None else min(out, est)
        prev = v
    return out


def countdown_spread(a, b):
    """How far apart (s) two screens' countdowns run out (their states, WATCH_SCREEN; one
    browser: one clock), or None when one never counted down."""
    x, y = deadline(a), deadline(b)
    return None if x is None or y is None else abs(x - y) / 1000


def last_word_before_pause(states, words, beat):
    """When the host's last message (a beat when `beat`, else any other) came to a page,
    before its screen first showed the pause (ms), or None."""
    paused = next((s["at"] for s in states if countdown(s) is not None), None)
    if paused is None:
        return None
    times = [w["at"] for w in words if w["beat"] == beat and w["at"] < paused]
    return times[-1] if times else None


def read_for(states, end_ms, words):
    """How long (s) the screen showed `words` in its new-host note (the marks that isolate
    a name, FSI and PDI, apart)."""
    total = 0
    for i, s in enumerate(states):
        until = states[i + 1]["at"] if i + 1 < len(states) else end_ms
        if (s["note"] or "").replace("\u2068", "").replace("\u2069", "") == words:
            total += until - s["at"]
    return total / 1000


# The host counts as gone after this long here (?hostgone=): the countdown shows from the
# pause (QUIET_MS, 4.5 s) on, long enough to see it drop a few times on both screens.
COUNTDOWN_GONE_MS = 10000


def test_every_screen_agrees_with_itself_through_a_host_handover(new_phone):
    host, ana, bea, _ = three_at_the_table(new_phone, COUNTDOWN_GONE_MS, bot=True)
    hp, ap, bp = host.page, ana.page, bea.page
    bp.click(sel("lang-es"))                   # Bea reads Spanish
    bp.wait_for_selector(sel("lang-es", "[aria-pressed=true]"), timeout=T)
    for p in (ap, bp):
        p.evaluate(WATCH_SCREEN)
    hp.close()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all("-h1-" in p.url for p in (ap, bp)) and going_on(ap, 1) and going_on(bp, 1) \
                and ap.locator(sel("deck", ":not([disabled])")).count():
            break
        time.sleep(0.1)
    ap.wait_for_selector(sel("deck", ":not([disabled])"), timeout=T)   # Ana's turn, as before
    for p in (ap, bp):           # the screens settled under the new host: Hana's seat away
        try:
            p.wait_for_function(SETTLED, timeout=10_000)
        except Exception:
            pass                 # (what it shows meanwhile is counted all the same)
    # ... and stay so: the signaling server answers an offer it could not deliver (Bea's
    # tries at Hana's id) about 5 s later (`peer-unavailable`), which once dropped Bea's
    # good connection to Ana. Watch on for three of the new host's pongs (3 s apart).
    pongs = bp.evaluate(PONGS)
    bp.wait_for_function("n => (%s)() >= n + 3" % PONGS, arg=pongs, timeout=T)
    # the new host named on Bea's screen, long enough to read it
    bp.wait_for_function("() => !document.querySelector('[data-testid=\"new-host\"]')",
                         timeout=T)
    results, firsts, timelines, ends, words_at = {}, {}, {}, {}, {}
    for name, p in (("Ana", ap), ("Bea", bp)):
        states = timelines[name] = p.evaluate("window.__screens")
        words_at[name] = p.evaluate("window.__words")
        end = ends[name] = p.evaluate("Date.now()")
        secs, why = contradictory_seconds(states, end)
        results[name] = secs
        words = []
        for s in states:
            if s["text"] != (words[-1] if words else None):
                words.append(s["text"])
        print("%s: %.1f s of contradictory screens %s; banners: %s" % (name, secs, why, words))
        firsts[name] = next((w for w in words if w is not None), None)
    # Issue 20.1: each guest's own link is up, so the first thing said is the host's silence
    # with its countdown, not "Connection lost: reconnecting" (netcheck.lost_channel_status).
    for name, first in firsts.items():
        assert first is not None and "Hana" in first and ("not answering" in first
                                                          or "no responde" in first), (name, first)
    # and what comes at zero: Ana takes over (Bea reads Spanish; Ana's own page: "you")
    assert "then you take over" in firsts["Ana"], firsts["Ana"]
    assert "pasa al m\u00f3vil de Ana" in firsts["Bea"].replace("\u2068", "").replace(
        "\u2069", ""), firsts["Bea"]
    # One clock: the same seconds on both screens at every moment (before the host's beat,
    # each counted from its own last pong: 1-2 s apart, issue 20.1)
    spread = countdown_spread(timelines["Ana"], timelines["Bea"])
    own = [last_word_before_pause(timelines[n], words_at[n], False) for n in ("Ana", "Bea")]
    beats = [last_word_before_pause(timelines[n], words_at[n], True) for n in ("Ana", "Bea")]
    print("the host's last words (beats apart) and last beats, ms on each screen:", own, beats)
    if None not in own and None not in beats:
        print("the host's last word came %.2f s apart to the two screens (what each counted "
              "from before the beat), its last beat %.2f s apart"
              % (abs(own[0] - own[1]) / 1000, abs(beats[0] - beats[1]) / 1000))
    for name, p in (("Ana", ap), ("Bea", bp)):          # the host's beats reached both
        assert p.evaluate("(window.__crispWire || []).some(t => t.includes('\"beat\"'))"), name
    print("countdowns: %s s apart" % spread)
    assert spread is not None and spread <= 0.5, spread
    # Bea (Spanish) reads who hosts now, for long enough to read it (NEW_HOST_MS: 6 s)
    seen = read_for(timelines["Bea"], ends["Bea"], "Ahora la partida sigue en el m\u00f3vil de Ana.")
    print("Bea read the new host's name for %.1f s" % seen)
    assert seen >= 3, [s["note"] for s in timelines["Bea"]]
    # Before the one presence signal: 4.1 s (Ana) and 2.2 s (Bea) of contradictory screens;
    # then Bea 0.45-0.7 s as counted here (the welcome drawn before its view, with Hana shown
    # there; a late peer-unavailable for Hana's id dropping Bea's connection to Ana: "Ana's
    # phone is not answering", "reconnecting"). None now.
    assert all(secs == 0 for secs in results.values()), results
    no_errors(ana, bea)
