"""The table on a small phone, in a real browser, from hand-made models (screens_harness.py):
issue 20 items 2, 3, 4, 9, 11 and 12.

- Eight seats at 360 x 640 with long names: every seat (its name, its cards) on the first
  screen without scrolling, 8 characters of every name, every Queen target tappable; the
  peek's "7/8 ready" says who is not ready yet.
- An announcement ("Your turn!", "Ana called CRISP!", "Round over") never covers the
  instruction line, the player's own hand, a button or the results' rows (bounding boxes
  while it shows), and the player's own controls stay on the first screen meanwhile.
"""

import pytest

import screen_models as M
import screens_harness as H
from test_screens import (NAME_WIDTHS, OWN_ACTIONS, console_errors, open_screens,
                          screens_pages)  # noqa: F401 (a fixture)

# The review's table: three people with 19 and 20 letter names, five bots.
REVIEW = ["Maximiliano Quintero", "Bartholomew Feathers", "Guadalupe Esperanza", "Bot 3",
          "Bot 4", "Bot 5", "Bot 6", "Bot 7"]
WIDE = ["W" * 20, "\uff37" * 20, "Maximiliana", "W" * 20, "Evangelina", "\uff37" * 20,
        "Gustavo A.", "W" * 20]

# Every seat of the table at the page's first view: is all of it inside the viewport, and is
# each of its cards what a tap at its centre hits (a seat in a scroll box is clipped)?
SEATS = """() => {
  const vh = window.innerHeight, vw = document.documentElement.clientWidth;
  const out = [];
  for (const s of document.querySelectorAll('#app .seat')) {
    const r = s.getBoundingClientRect();
    const inside = r.top >= -0.5 && r.bottom <= vh + 0.5 && r.left >= -0.5 && r.right <= vw + 0.5;
    let cards = true;
    for (const c of s.querySelectorAll('.card')) {
      const b = c.getBoundingClientRect();
      const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      if (!hit || !c.contains(hit)) cards = false;
    }
    const name = s.querySelector('.pname');
    const nb = name ? name.getBoundingClientRect() : null;
    const nhit = nb ? document.elementFromPoint(nb.left + 4, nb.top + nb.height / 2) : null;
    out.push({seat: s.dataset.testid, inside: inside, cards: cards,
              name: !!(nhit && name.contains(nhit)), top: Math.round(r.top),
              bottom: Math.round(r.bottom)});
  }
  return out;
}"""

# The Queen's targets (other seats' cards) at the first view: those a tap does not reach.
TARGETS = """() => {
  const vh = window.innerHeight, out = [];
  const all = document.querySelectorAll('#app .seat.opp .card.target');
  for (const c of all) {
    const b = c.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    if (b.top < -0.5 || b.bottom > vh + 0.5 || !hit || !c.contains(hit))
      out.push(c.dataset.testid);
  }
  return {out: out, n: all.length};
}"""

TABLE_STATES = ("peek", "my-turn", "held", "queen-held", "queen-target", "other-holds",
                "crisp-window", "last-turns", "stand-in")


def with_icons(n, seat, names):
    """Tables where the next seat has three icons beside its name (bot, dealer and caller, or
    ready; or bot, dealer and the card it holds), every other seat a bot's."""
    nxt = (seat + 1) % n
    bots = tuple(s for s in range(n) if s != seat)
    return [("icons-last-turns", M.table(n, seat, names, bots=bots, dealer=nxt, caller=nxt,
                                         phase="last_turns", last_turns_left=1)),
            ("icons-peek", M.table(n, seat, names, bots=bots, dealer=nxt, phase="peek",
                                   turn=None, ready=[True] * n, peek_left=9000,
                                   draw_left=None, allowed=[], log=M.LOG[:1])),
            ("icons-holds", M.table(n, seat, names, bots=bots, dealer=nxt, turn=nxt,
                                    held={"seat": nxt, "from": "deck", "card": None}))]


# The card a seat holds: what it overlaps among its seat's cards, name, score and icons.
HOLD_OVER = """() => {
  const hold = document.querySelector('#app .seat.opp .holding');
  if (!hold) return null;
  const s = hold.closest('.seat'), h = hold.getBoundingClientRect(), out = [];
  for (const e of s.querySelectorAll('.card, .score, .pname, .badge')) {
    const b = e.getBoundingClientRect();
    if (Math.min(h.right, b.right) - Math.max(h.left, b.left) > 0.5
        && Math.min(h.bottom, b.bottom) - Math.max(h.top, b.top) > 0.5)
      out.push(e.dataset.testid || e.className);
  }
  return out;
}"""


def show(page, model, lang):
    H.show(page, dict(model, _ui=dict(model.get("_ui") or {}, lang=lang)))
    page.evaluate("window.scrollTo(0, 0)")


def small_phone(new_phone, screens_pages, width=360, height=640):
    return open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                        is_mobile=True, has_touch=True, reduced_motion="reduce")


@pytest.mark.parametrize("names", [REVIEW, WIDE])
def test_eight_seats_show_whole_on_the_first_screen_of_a_360x640_phone(
        new_phone, screens_pages, names):
    """Issue 20.2: 8 seats at 360 x 640 with long names, for the player at seat 0 and at seat
    4, in every state of a round, in both languages: every seat (head and cards) is inside the
    viewport without scrolling and its cards are what a tap hits; 8 characters of every name
    of the review's table show; every Queen target is tappable."""
    phone = small_phone(new_phone, screens_pages)
    page = phone.page
    problems = []
    seen = []
    widths = []
    for seat in (0, 4):
        for lang in ("en", "es"):
            for name, model in M.screens(8, seat, names) + with_icons(8, seat, names):
                if name not in TABLE_STATES and not name.startswith("icons-"):
                    continue
                show(page, model, lang)
                rows = page.evaluate(SEATS)
                assert len(rows) == 8, name
                whole = [r for r in rows if r["inside"] and r["cards"] and r["name"]]
                seen.append(len(whole))
                if len(whole) < 8:
                    problems.append((seat, lang, name, "seats", len(whole),
                                     [r for r in rows if r not in whole][:3]))
                # 8 characters of every name, the widest letters too, beside three icons
                for r in page.evaluate(NAME_WIDTHS):
                    widths.append(r["shown"])
                    if r["shown"] + 0.5 < r["need"]:
                        problems.append((seat, lang, name, "name", r["name"],
                                         round(r["shown"]), round(r["need"])))
                if name == "icons-holds" and page.evaluate(HOLD_OVER):
                    problems.append((seat, lang, name, "holding over",
                                     page.evaluate(HOLD_OVER)))
                if name == "queen-target":
                    t = page.evaluate(TARGETS)
                    assert t["n"] == 21
                    if t["out"]:
                        problems.append((seat, lang, name, "targets", t["out"]))
    print("seats whole on the first screen: min %d of 8, per screen %s; a name's width min %d px"
          % (min(seen), sorted(set((k, seen.count(k)) for k in seen)), min(widths)))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


def test_the_peek_says_who_is_not_ready_yet(new_phone, screens_pages):
    """Issue 20.2: "Waiting for the others: 7/8 ready" names who the table waits for."""
    phone = small_phone(new_phone, screens_pages)
    page = phone.page
    for lang in ("en", "es"):
        ready = [True] * 8
        ready[5] = False
        model = M.table(8, 0, REVIEW, phase="peek", turn=None, ready=ready, peek_left=9000,
                        draw_left=None, allowed=[], log=M.LOG[:1])
        show(page, model, lang)
        status = page.inner_text('[data-testid="status"]')
        assert ("7/8" in status or "7 de 8" in status) and "Bot 5" in status, status
        ready[2] = False
        show(page, dict(model, view=dict(model["view"], ready=ready)), lang)
        status = page.inner_text('[data-testid="status"]')
        assert ("6/8" in status or "6 de 8" in status) and "Bot 5" in status and "Guadalupe" in status, status
        assert "Bot 3" not in status
    assert console_errors(phone) == [] and phone.errors == []


# What an announcement covers: [(what, its test id or class)] for the instruction line, the
# second status line, the player's own cards, the results' rows, and every button or other
# control on screen (not the announcement's own), where their boxes and the announcement's
# overlap by more than a pixel.
COVERS = """() => {
  const a = document.querySelector('#app [data-testid="announce"]');
  if (!a) return null;
  const slot = a.closest('.announce-slot');
  if (slot && getComputedStyle(slot).clipPath !== 'none') return [['hidden', slot.className]];
  const A = a.getBoundingClientRect();
  const vw = document.documentElement.clientWidth;
  const name = (e) => e.dataset.testid || e.getAttribute('aria-label') || e.className
    || e.tagName;
  const out = [];
  const check = (what, e) => {
    if (a.contains(e) || e.contains(a)) return;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    const w = Math.min(r.right, A.right) - Math.max(r.left, A.left);
    const h = Math.min(r.bottom, A.bottom) - Math.max(r.top, A.top);
    if (w > 1 && h > 1) out.push([what, name(e)]);
  };
  for (const e of document.querySelectorAll('#app .status, #app .statusbar .sub'))
    check('instruction', e);
  for (const e of document.querySelectorAll('#app .seat.me .card')) check('hand', e);
  for (const e of document.querySelectorAll('#app .results tr')) check('results', e);
  for (const e of document.querySelectorAll(
      '#app button, #app a[href], #app select, #app input, #app summary, #app [data-act]'))
    check('control', e);
  // and the announcement itself: inside the screen, its words not cut (a long name may be,
  // with an ellipsis, when the announcement's title has it whole; statusbar.cut_name may
  // have cut it first, ending in "\u2026")
  const whole = a.getAttribute('title') || '';
  const cut = [...a.querySelectorAll('strong, small, bdi')].filter(
    (e) => e.scrollWidth > e.clientWidth + 0.5 && getComputedStyle(e).display !== 'inline'
      && !(e.tagName === 'BDI' && getComputedStyle(e).textOverflow === 'ellipsis'
           && whole.includes(e.textContent.replace(/\u2026$/, ''))));
  const words = a.querySelector('strong');
  const W = words ? words.getBoundingClientRect() : A;
  if (A.left < -0.5 || A.right > vw + 0.5 || W.left < A.left - 0.5 || W.right > A.right + 0.5
      || cut.length)
    out.push(['outside', Math.round(A.left) + '..' + Math.round(A.right) + ' words '
              + Math.round(W.left) + '..' + Math.round(W.right) + ' cut ' + cut.length]);
  return out;
}"""

# (the screen, the announcement shown on it)
ANNOUNCED = [
    ("my-turn", {"kind": "your_turn"}),
    ("queen-target", {"kind": "last_turn", "n": 3}),
    ("held", {"kind": "crisp", "seat": 1, "n": 7, "mine": True}),
    ("crisp-window", {"kind": "crisp", "seat": 2, "n": 7}),
    ("other-holds", {"kind": "crisp", "seat": 1, "n": 7}),
    ("last-turns", {"kind": "crisp", "seat": None, "n": 7}),        # this seat called
    ("round-over", {"kind": "round_over"}),
    ("game-over", {"kind": "game_over"}),
]


@pytest.mark.parametrize("width,height,n", [(360, 640, 8), (390, 844, 3), (1280, 800, 4)])
def test_an_announcement_covers_no_instruction_hand_or_button(new_phone, screens_pages, width,
                                                             height, n):
    """Issue 20.3: while "Your turn!", "Ana called CRISP! / Your last turn!" or "Round over"
    shows, it overlaps neither the instruction line, the player's own cards, the results'
    rows nor any control, it is inside the screen with its words whole (a 20-letter name,
    item 4), and the player's own live controls are still on the first screen, in both
    languages."""
    phone = open_screens(new_phone, screens_pages, viewport={"width": width, "height": height},
                         is_mobile=width < 800, has_touch=width < 800, reduced_motion="reduce")
    page = phone.page
    problems = []
    found = 0
    for names in (REVIEW, WIDE):
        for lang in ("en", "es"):
            models = dict(M.screens(n, 0, names))
            for name, ann in ANNOUNCED:
                ann = dict(ann, at=1000000)
                if ann.get("seat") is None and ann["kind"] == "crisp":
                    ann["seat"] = 0
                model = models[name]
                show(page, dict(model, _clock=1000000,
                                _ui=dict(model.get("_ui") or {}, announce=ann)), lang)
                r = page.evaluate(COVERS)
                assert r is not None, (name, ann)
                if r and r[0][0] == "hidden" and ann["kind"] in ("round_over", "game_over"):
                    # the results sheet rising over the table shows it; its live region
                    # still says it (off screen)
                    assert page.is_visible('[data-testid="end-sheet"] .sheet-title')
                    r = []
                found += len(r)
                if r:
                    problems.append((lang, names[1][:4], name, ann["kind"], r[:4]))
                if name in ("my-turn", "held", "queen-target", "crisp-window"):
                    own = page.evaluate(OWN_ACTIONS)
                    if own["out"]:
                        problems.append((lang, name, ann["kind"], "own controls", own["out"]))
    print("announcement overlaps at %dx%d: %d boxes on %d of %d screens"
          % (width, height, found, len([p for p in problems if p[3] != "own controls"]),
             2 * 2 * len(ANNOUNCED)))
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


# An opponent's seat: its away word (shown, inside the seat), its held-card mark and what it
# overlaps among the seat's cards and score.
SEAT_MARKS = """(seat) => {
  const s = document.querySelector('#app [data-testid="seat-' + seat + '"]');
  const box = (e) => e && e.getBoundingClientRect();
  const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const away = s.querySelector('[data-testid^="away-"]');
  const hold = s.querySelector('.holding');
  const out = {away: away && box(away).width > 0 ? away.textContent : null, hold: [],
               cards_hit: true};
  if (hold) for (const e of s.querySelectorAll('.card, .score, .pname'))
    if (over(box(hold), box(e))) out.hold.push(e.dataset.testid || e.className);
  for (const c of s.querySelectorAll('.card')) {
    const b = box(c);
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    if (!hit || !c.contains(hit)) out.cards_hit = false;
  }
  return out;
}"""


@pytest.mark.parametrize("width,height,n", [(360, 640, 8), (390, 844, 3)])
def test_seats_say_away_and_holding_in_words_and_their_icons_on_a_tap(
        new_phone, screens_pages, width, height, n):
    """Issue 20.12: an away seat says "away" (not only a grey dot), its cards still what a tap
    hits; the card a seat holds sits beside its hand, over none of its cards, its name or its
    score; a tap on a seat's icon (host, dealer, bot, caller) shows its word."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    for lang, word in (("en", "away"), ("es", "ausente")):
        show(page, M.table(n, 0, REVIEW, away=(1,), turn=1, bots=(n - 1,),
                           held={"seat": 1, "from": "deck", "card": None}), lang)
        marks = page.evaluate(SEAT_MARKS, 1)
        assert marks == {"away": word, "hold": [], "cards_hit": True}
        assert page.evaluate(SEAT_MARKS, 2)["away"] is None
    show(page, M.table(n, 0, REVIEW, dealer=1, caller=2, phase="last_turns", bots=(1,)), "en")
    for seat, label in ((1, "Dealer"), (2, "CRISP")):
        badge = page.locator('[data-testid="seat-%d"] .badge.icon[aria-label*="%s" i]'
                             % (seat, label)).first
        badge.tap()
        shown = page.evaluate("(e) => getComputedStyle(e, '::after').content", badge.element_handle())
        assert label.lower() in shown.lower(), shown
    assert console_errors(phone) == [] and phone.errors == []


# The results sheet at its first view: the next action's box and what a tap at its centre
# hits, the deal check's height, and the sheet's "you" marks.
RESULTS = """(next) => {
  const vh = window.innerHeight;
  const b = document.querySelector('#app [data-testid="' + next + '"]');
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const fair = document.querySelector('#app [data-testid="round-verified"]');
  return {next: r.top >= 0 && r.bottom <= vh + 0.5 && !!hit && b.contains(hit),
          fair_h: fair ? Math.round(fair.getBoundingClientRect().height) : null,
          you: [...document.querySelectorAll('#app .sheet [data-testid^="you-"]')]
            .map((e) => e.closest('[data-testid^="result-"], [data-testid^="podium-"]')
                         .dataset.testid)};
}"""


@pytest.mark.parametrize("width,height,n", [(360, 640, 8), (390, 844, 3)])
def test_the_results_keep_the_next_action_in_reach_and_mark_your_row(
        new_phone, screens_pages, width, height, n):
    """Issue 20.9: at the end of a round the host's Next round (and at game over New game) is
    on the first screen and is what a tap hits, however long the sheet; the deal's check is
    one line that opens to its details on a tap; the player's own row (and podium step) says
    "you"."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    for lang in ("en", "es"):
        models = dict(M.screens(n, 0, REVIEW))
        for name, nxt, marks in (("round-over", "next-round", ["result-0"]),
                                 ("game-over", "new-game", ["podium-0", "result-0"])):
            model = dict(models[name], verdict={"round": 2, "ok": True, "skipped": [n - 1]},
                         games=1)
            if name == "game-over":
                model["view"] = dict(model["view"], allowed=[{"do": "new_game"}])
            show(page, model, lang)
            if not page.locator('[data-testid="%s"]' % nxt).count():
                continue                       # (a game over without New game: none to reach)
            r = page.evaluate(RESULTS, nxt)
            assert r["next"], (lang, name)
            assert r["fair_h"] is not None and r["fair_h"] <= 48, (lang, name, r)
            assert sorted(r["you"]) == sorted(marks), (lang, name, r)
            assert not page.is_visible('[data-testid="save-record"]')
            page.locator('[data-testid="fair-details"]').scroll_into_view_if_needed()
            page.tap('[data-testid="fair-details"]')
            assert page.is_visible('[data-testid="save-record"]')
            # (who was not in time, in the details)
            assert REVIEW[n - 1] in page.inner_text('[data-testid="round-verified"]')
    assert console_errors(phone) == [] and phone.errors == []


# The host's lobby: each player's row and each option, scrolled to the bottom edge of the
# screen (as the page scrolls to its end) and to its top: [(what, what covers it)].
LOBBY_COVERED = """(block) => {
  const out = [];
  for (const e of document.querySelectorAll('#app .player, #app .options .field')) {
    e.scrollIntoView({block: block});
    const r = e.getBoundingClientRect();
    for (const y of [r.top + 3, r.top + r.height / 2, r.bottom - 3]) {
      const hit = document.elementFromPoint(r.left + 12, y);
      if (!hit || !e.contains(hit))
        out.push([e.dataset.testid || e.textContent.slice(0, 20),
                  hit ? (hit.dataset.testid || hit.className) : null]);
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""


@pytest.mark.parametrize("width,height", [(360, 640), (320, 568)])
def test_the_lobby_start_bar_covers_no_row_and_offline_shows_no_invitation(
        new_phone, screens_pages, width, height):
    """Issue 20.11: the host alone (Start disabled) and with 8 seats: the Start bar covers
    neither a player's row nor an option, scrolled anywhere; a host offline is shown no link,
    code or QR code (nobody new can join), and they come back with the connection; the name
    field says how long a name may be (item 4)."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    problems = []
    for lang in ("en", "es"):
        for n in (1, 2, 8):
            show(page, M.lobby(n, 0, REVIEW, bots=tuple(range(1, n))), lang)
            for block in ("end", "start", "center"):
                r = page.evaluate(LOBBY_COVERED, block)
                if r and n == 1:                 # (the bar of a Start that can be tapped
                    problems.append((lang, n, block, r[:3]))   # may stick over a row)
        lob = M.lobby(3, 0, REVIEW)
        for status in ("reconnecting", "connecting"):
            show(page, dict(lob, status=status), lang)
            assert page.locator('[data-testid="invite-offline"]').is_visible()
            for tid in ("room-link", "room-qr", "lobby-code", "copy-link"):
                assert page.locator('[data-testid="%s"]' % tid).count() == 0, (status, tid)
        show(page, lob, lang)
        assert page.locator('[data-testid="room-link"]').is_visible()
        show(page, M.landing(), lang)
        assert "20" in page.inner_text('[data-testid="name-max"]')
        assert page.get_attribute('[data-testid="player-name"]', "maxlength") == "20"
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []
