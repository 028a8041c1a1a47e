"""Solo play: one tab, no network, against bots, to the end of the game (target 50).

The player taps through a whole game against 3 hard bots: the landing's solo pickers, the
peek, draws, swaps, discards, the King, crisp calls, next round. The host page's test-only
`?botpace=0.1` makes the bots think 10x faster (default play keeps a person's pace); the
engine's own waits (R10.1: 2 s before the next player may start) stay. At every end of round
the screen must add up: each round's points are its hand's total (R7.1) with the caller's
-5 or +5 (R7.2, R7.3), each total the last total plus the round's points (R7.4); at the end,
the winners are the lowest totals (R8.2) and someone reached the target (R8.1).
No PeerJS Peer is ever made and nothing goes to the signaling server. Game over is no dead
end: New game starts another with the same bots, and Leave (at its end) opens the landing
with the room forgotten. The bots' faces (issue 20): boot.js's canvas check says whether this
machine draws colour emoji (`<html data-faces>`, what fontconfig lists); where it does not,
no bot's name on the table, in the log, the results, the podium or the tally has its face,
and the results, the podium and the tally show the robot in its place.
"""

import re
import shutil
import subprocess
import time

from crisp_core.bot_faces import FACES, first_name
from crisp_e2e import engine_ready, wait_ready
from crisp_e2e import T, sel

RANKS = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
POSITIONS = ("left", "center", "right")
# The bots' names by seat in English (crisp_core/bot_names.py: a face and a first name)
BOTS = [None, "\U0001F98A Emma", "\U0001F43C Oliver", "\U0001F438 Lily"]

# Every bot's name the page shows: the lobby's and the table's seats, the log, the status, the
# results, the podium, the winners and the tally (`names`), and the robots standing for a face (`robots`:
# ui/page/screens/faces.py `mark`) by test id of the row that holds them.
NAMES_SHOWN = """() => {
  const names = [...document.querySelectorAll('.pname, .who, [data-testid="event-log"], '
    + '[data-testid="status"], [data-testid="winners"], [data-testid="tally"]')]
    .map((e) => e.innerText);
  const robots = {};
  for (const svg of document.querySelectorAll('svg.icon-bot.face')) {
    const row = svg.closest('[data-testid]');
    const id = row ? row.getAttribute('data-testid') : '';
    robots[id] = (robots[id] || 0) + 1;
  }
  return {names, robots};
}"""


def colour_fonts():
    """True when fontconfig lists a colour font (an emoji font: Chromium draws faces with it),
    False when it lists none, None when this machine has no fc-list."""
    if shutil.which("fc-list") is None:
        return None
    out = subprocess.run(["fc-list", ":color=true", "family"], capture_output=True, text=True,
                         timeout=30)
    return bool(out.stdout.strip())


def faces_of(page, timings):
    """The page's <html data-faces> (boot.js's canvas check), checked against this machine's
    fonts; its time (crisp.times.faces, ms) recorded."""
    faces = page.evaluate("document.documentElement.dataset.faces")
    fonts = colour_fonts()
    assert faces == {True: "colour", False: "none", None: faces}[fonts], (faces, fonts)
    assert faces in ("colour", "none"), faces
    timings["boot.js colour-emoji check (canvas, ms)"] = [page.evaluate("crisp.times.faces")]
    return faces


def as_shown(name, faces):
    """A bot's name as a page with `faces` ("colour" | "none") shows it."""
    return name if faces == "colour" else first_name(name)


def check_faces(page, faces, bots):
    """No bot's name on screen has its face where faces are "none"; the robot stands for it
    (one) in each row of the lobby, the results, the podium, the tally and the rounds so far
    that the page shows for a seat in `bots`, and nowhere else (none where "colour").
    Returns those rows' test ids."""
    seen = page.evaluate(NAMES_SHOWN)
    text = "\n".join(seen["names"])
    if faces == "none":
        assert not [f for f in FACES if f in text], text
    rows = ["%s-%d" % (r, s) for r in ("player", "result", "podium", "tally", "history")
            for s in bots]
    there = [row for row in rows if page.locator(sel(row)).count()]   # (a podium: 3 places)
    for row in there:
        assert seen["robots"].get(row, 0) == (1 if faces == "none" else 0), (row, seen)
    assert set(seen["robots"]) <= set(there), seen
    return there


# Counts the PeerJS Peers the page makes (boot.js: window.crisp.newPeer).
COUNT_PEERS = """() => {
  window.__crispPeers = 0;
  const make = window.crisp.newPeer;
  window.crisp.newPeer = (id) => { window.__crispPeers += 1; return make(id); };
}"""

# One look at the page: what is live, what is shown.
STATE = """() => {
  const q = (t, extra) => document.querySelector('[data-testid="' + t + '"]' + (extra || ''));
  const live = (t) => !!q(t, ':not([disabled])');
  const held = q('held-card');
  return {over: !!q('game-over'), results: !!q('round-results'), next: live('next-round'),
          ready: live('ready'), deck: live('deck'), special: live('use-special'),
          discard: live('discard-held'), crisp: live('crisp'), swap: live('card-0-left'),
          held: held && held.getAttribute('data-card'),
          status: q('status') ? q('status').innerText : null};
}"""

# The end-of-round table as the player sees it.
RESULTS = """(n) => {
  const rows = [];
  for (let s = 0; s < n; s++) {
    const row = document.querySelector('[data-testid="result-' + s + '"]');
    const cells = row.querySelectorAll('td');
    const you = cells[0].querySelector('.badge.you');      // this player's own row's mark
    const name = cells[0].innerText.replace(you ? you.innerText : '\u0000', '').trim();
    rows.push({name, caller: !!row.querySelector('.badge.caller'),
               hand: [...row.querySelectorAll('[data-card]')].map((c) => c.getAttribute('data-card')),
               points: Number(cells[2].innerText),
               score: Number(document.querySelector('[data-testid="score-' + s + '"]').innerText),
               table: ['left', 'center', 'right'].map((p) => document.querySelector(
                 '[data-testid="card-' + s + '-' + p + '"]').getAttribute('data-card'))});
  }
  return rows;
}"""


def value(card):
    return RANKS.get(card[0]) or int(card[0])


def tap(page, testid, timeout=2000):
    """Tap a control if it is (still) live; False when it went away meanwhile."""
    try:
        page.click(sel(testid, ":not([disabled])"), timeout=timeout)
        return True
    except Exception:
        return False


def play_my_part(page, st, me, turns):
    """One step of a plain player in seat `me`: ready, draw, swap a low card into the left
    (R3.2), use a King (R4.3), discard the rest; call crisp from its `turns["call"]`-th
    chance in the round (R6). Returns True when it did something."""
    if st["ready"]:
        return tap(page, "ready")
    if st["held"] and (st["special"] or st["discard"] or st["swap"]):
        card = st["held"]
        if card[0] == "K" and st["special"]:
            return tap(page, "use-special")
        if card[0] not in "JQK" and value(card) <= 3 and st["swap"]:
            return tap(page, "card-%d-left" % me)
        return tap(page, "discard-held")
    if st["deck"]:
        if tap(page, "deck"):
            page.wait_for_selector(sel("held-card", "[data-card]"), timeout=T)
            return True
        return False
    if st["crisp"]:
        turns["offers"] += 1
        if turns["offers"] >= turns["call"]:
            return tap(page, "crisp", timeout=1000)
    return False


def check_round(rows, before, target):
    """The end-of-round screen adds up (R7); returns the totals."""
    totals = [sum(value(c) for c in row["hand"]) for row in rows]
    callers = [s for s, row in enumerate(rows) if row["caller"]]
    assert len(callers) <= 1, rows
    for s, row in enumerate(rows):
        assert len(row["hand"]) == 3 and row["table"] == row["hand"], row   # hands are public
        expected = totals[s]
        if s in callers:
            lowest = all(totals[s] < t for o, t in enumerate(totals) if o != s)
            expected += -5 if lowest else 5                                  # R7.2, R7.3
        assert row["points"] == expected, (s, rows)
        assert row["score"] == before[s] + row["points"], (s, before, rows)  # R7.4
    assert max(before) < target
    return [row["score"] for row in rows]


def test_a_solo_game_against_three_bots_to_the_end(new_phone, timings):
    phone = new_phone(reduced_motion="reduce")
    page = phone.page
    page.goto(phone.site.url("/?seed=5&botpace=0.1"))
    assert wait_ready(page) == "micropython"
    faces = faces_of(page, timings)
    bots = [None] + [as_shown(name, faces) for name in BOTS[1:]]
    page.evaluate(COUNT_PEERS)
    started = time.monotonic()

    page.fill(sel("player-name"), "Sol")
    page.select_option(sel("solo-bots"), "3")
    page.select_option(sel("solo-level"), "hard")
    page.select_option(sel("solo-target"), "50")
    page.click(sel("play-solo"))
    engine_ready(page)      # the table waits for the engine, however slow
    page.wait_for_selector(sel("card-3-left"), timeout=T)       # at once: the table, 4 seats
    assert page.locator(sel("card-4-left")).count() == 0
    for seat in (1, 2, 3):                  # a face and a first name (crisp_core/bot_names.py)
        assert bots[seat] in page.inner_text(sel("seat-%d" % seat))    # (no face: "none")
    check_faces(page, faces, (1, 2, 3))

    scores = [0, 0, 0, 0]
    rounds = 0
    turns = {"offers": 0, "call": 3}
    seen_bots = set()
    deadline = time.monotonic() + 600
    while True:
        assert time.monotonic() < deadline, "the game did not end in 10 minutes"
        st = page.evaluate(STATE)
        if st["results"]:
            page.wait_for_selector(sel("round-results"), timeout=T)
            rows = page.evaluate(RESULTS, 4)
            scores = check_round(rows, scores, 50)
            rounds += 1
            if st["over"] or page.locator(sel("game-over")).count():
                break
            assert max(scores) < 50
            log = page.inner_text(sel("event-log"))
            seen_bots |= {s for s in (1, 2, 3) if bots[s] in log}
            check_faces(page, faces, (1, 2, 3))
            tap(page, "next-round", timeout=T)
            page.wait_for_selector(sel("round-results"), state="detached", timeout=T)
            turns = {"offers": 0, "call": 2 + rounds % 2}
            continue
        if not play_my_part(page, st, 0, turns):
            page.wait_for_timeout(100)

    # -- game over (R8): the winners are the lowest totals, someone reached the target
    page.wait_for_selector(sel("game-over"), timeout=T)
    assert max(scores) >= 50
    low = min(scores)
    winners = [s for s in range(4) if scores[s] == low]
    assert page.get_attribute(sel("winners"), "data-seats") == ",".join(map(str, winners))
    names = ["Sol"] + bots[1:]
    text = page.inner_text(sel("winners"))
    for s in range(4):
        assert (names[s] in text) == (s in winners), (text, scores)
    assert page.locator(sel("next-round")).count() == 0
    for s in range(4):                                # the table shows the same totals
        shown = page.inner_text(sel("seat-%d" % s) + " .score")
        assert re.search(r"-?\d+", shown).group() == str(scores[s]), (s, shown, scores)
    assert seen_bots == {1, 2, 3}                     # every bot's moves were in the log
    there = check_faces(page, faces, (1, 2, 3))       # the results, the podium, the tally
    assert {"result-1", "result-2", "result-3"} <= set(there), there
    assert [row for row in there if row.startswith("podium-")], there     # a bot's place
    wall = (time.monotonic() - started) * 1000
    timings["solo game to 50 against 3 hard bots (wall, ?botpace=0.1)"] = [wall]
    print("solo game: %d rounds, scores %s, %.1f s" % (rounds, scores, wall / 1000))

    # -- game over is no dead end: a new game with the same bots, scores back to 0
    assert page.locator(sel("leave")).count() == 1
    assert tap(page, "new-game", timeout=T)
    page.wait_for_selector(sel("end-sheet"), state="detached", timeout=T)
    page.wait_for_selector(sel("ready", ":not([disabled])"), timeout=T)
    for s in range(4):
        assert re.search(r"-?\d+", page.inner_text(sel("seat-%d" % s) + " .score")).group() == "0"
    assert bots[3] in page.inner_text(sel("seat-3"))

    # -- one tab, no network: no Peer, nothing to the signaling server
    assert page.evaluate("window.__crispPeers") == 0
    assert not [u for u in phone.requests if u.startswith("ws")
                or ("/peerjs" in u and "/vendor/peerjs-" not in u)]
    assert phone.errors == [], phone.errors
    # ... played out too; then Leave: this page forgets the room and shows the landing
    turns = {"offers": 0, "call": 2}
    while True:
        assert time.monotonic() < deadline + 300, "the second game did not end"
        st = page.evaluate(STATE)
        if st["over"] or page.locator(sel("game-over")).count():
            break
        if st["next"]:
            tap(page, "next-round")
            turns = {"offers": 0, "call": 2}
        elif not play_my_part(page, st, 0, turns):
            page.wait_for_timeout(100)
    assert page.locator(sel("new-game")).count() == 1
    assert tap(page, "leave", timeout=T)
    page.wait_for_selector(sel("play-solo"), timeout=T)
    assert "?" not in page.url
    assert page.evaluate("() => Object.keys(localStorage).filter("
                         "(k) => k.startsWith('crisp.room.') || k.startsWith('crisp.live.'))") == []
    assert page.locator(sel("resume")).count() == 0
    assert phone.errors == [], phone.errors


# As if this machine drew colour emoji: boot.js's canvas comes back orange, so the page says
# "colour" and its Python shows the bots' faces (the other way round from this machine's).
COLOUR_CANVAS = """
  const real = CanvasRenderingContext2D.prototype.getImageData;
  CanvasRenderingContext2D.prototype.getImageData = function (...args) {
    const image = real.apply(this, args);
    for (let i = 0; i < image.data.length; i += 4) image.data.set([240, 140, 40, 255], i);
    return image;
  };"""


def test_a_reloaded_solo_game_comes_back_without_a_network(new_phone):
    """Nothing lost when a phone's browser reloads a solo tab: the same table, no Peer made.
    (Its canvas draws in colour, COLOUR_CANVAS: the bot's face shows, before and after.)"""
    phone = new_phone(reduced_motion="reduce")
    page = phone.page
    page.add_init_script(COLOUR_CANVAS)
    page.add_init_script("""
      window.__crispPeers = 0;
      const watch = setInterval(() => {
        if (!window.crisp || !window.crisp.newPeer || window.crisp.__counted) return;
        const make = window.crisp.newPeer;
        window.crisp.newPeer = (id) => { window.__crispPeers += 1; return make(id); };
        window.crisp.__counted = true;
        clearInterval(watch);
      }, 1);""")
    page.goto(phone.site.url("/?seed=7&botpace=0.1"))
    assert wait_ready(page) == "micropython"
    page.fill(sel("player-name"), "Sol")
    page.select_option(sel("solo-bots"), "1")
    page.click(sel("play-solo"))
    engine_ready(page)      # the table waits for the engine, however slow
    page.click(sel("ready"), timeout=T)
    # the bot (seat 1) plays first; then it is our turn and nothing moves until we draw
    page.wait_for_selector(sel("deck") + ":not([disabled])", timeout=T)
    before = (page.inner_text(sel("deck")), page.inner_text(sel("discard")))
    assert page.evaluate("document.documentElement.dataset.faces") == "colour"
    assert BOTS[1] in page.inner_text(sel("seat-1"))            # "🦊 Emma": with its face
    assert "host=" in page.url
    page.reload()
    assert wait_ready(page) == "micropython"
    page.wait_for_selector(sel("deck") + ":not([disabled])", timeout=T)
    assert (page.inner_text(sel("deck")), page.inner_text(sel("discard"))) == before
    assert BOTS[1] in page.inner_text(sel("seat-1"))
    assert page.query_selector(sel("play-solo")) is None
    assert page.evaluate("window.__crispPeers") == 0


# Every status object the engine worker posts ({op: "progress" | "ready" | "failed"}),
# recorded beside boot.js's own handler.
ENGINE_TAP = """
(() => {
  window.__engineStatus = [];
  window.__bannerTexts = [];
  new MutationObserver(() => {
    const b = document.querySelector('[data-testid="engine-progress"]');
    const text = b && b.innerText;
    if (text && !window.__bannerTexts.includes(text)) window.__bannerTexts.push(text);
  }).observe(document, {subtree: true, childList: true, characterData: true});
  const Real = window.Worker;
  window.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        if (e.data && typeof e.data === "object")
          window.__engineStatus.push({op: e.data.op, pct: e.data.pct, stage: e.data.stage});
      });
    }
  };
})();
"""


def test_the_engine_start_reports_fine_truthful_progress(new_phone):
    """A tester's report: under load Play solo waited about 10 s at "5%". The engine worker
    now reports the bytes of its downloads as the fetch streams deliver them, then the
    compile, Python's start and the engine's: the progress never goes down, moves through
    many values and every step in order before `ready`, and the banner says each step."""
    phone = new_phone(reduced_motion="reduce")
    page = phone.page
    page.context.add_init_script(ENGINE_TAP)
    page.goto(phone.site.url("/?seed=5"))
    assert wait_ready(page) == "micropython"
    page.fill(sel("player-name"), "Sol")
    page.click(sel("play-solo"))              # while the engine starts: its banner shows
    while page.evaluate("!window.__engineStatus.some((s) => s.op === 'ready')"):
        assert page.evaluate("!window.__engineStatus.some((s) => s.op === 'failed')")
        time.sleep(0.05)
    # all the texts the banner showed, recorded on the page as they changed (polling them from
    # here saw one under stress-ng: the start from the snapshot is quicker than the polls)
    texts = set(page.evaluate("window.__bannerTexts"))
    status = page.evaluate("window.__engineStatus")
    progress = [s for s in status if s["op"] == "progress"]
    pcts = [s["pct"] for s in progress]
    print("engine progress:", [(s["pct"], s["stage"]) for s in progress])
    print("banner:", sorted(texts))
    assert pcts == sorted(pcts) and all(0 <= p < 100 for p in pcts)
    assert len(set(pcts)) >= 8                  # not one long wait at one number
    stages = []
    for s in progress:
        if not stages or stages[-1] != s["stage"]:
            stages.append(s["stage"])
    assert stages == ["download", "compile", "python", "engine"] or \
        stages == ["download", "python", "engine"], stages
    downloading = [s["pct"] for s in progress if s["stage"] == "download"]
    assert len(set(downloading)) >= 5           # the bytes, not one step
    assert status[-1]["op"] == "ready"
    page.wait_for_selector(sel("card-3-left"), timeout=T)
    assert len(texts) >= 2, texts               # the player saw it move
