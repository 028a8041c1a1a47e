"""The table on a small phone, in a real browser, from hand-made models (screens_harness.py):
issue 20 items 2, 4 and 12 (the seats; announcements, results and the lobby are in
test_table_covers.py).

- Eight seats at 360 x 640 with long names: every seat (its name, its cards) on the first
  screen without scrolling, 8 characters of every name, every Queen target tappable; the
  peek's "7/8 ready" says who is not ready yet.
- An away seat says so in words; the card a seat holds covers none of its cards.
"""

import pytest

import screen_models as M
import screens_harness as H
from test_screens import (NAME_WIDTHS, console_errors, open_screens,
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


# The last-move line: cut (its words wider than its box), with its text. [(text)]
CUT_LINES = """() => [...document.querySelectorAll('#app [data-testid=last-move]')]
  .filter((e) => e.getBoundingClientRect().width > 0 && e.scrollWidth > e.clientWidth + 0.5)
  .map((e) => e.textContent)"""


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


def with_last_moves(n, seat, names):
    """Tables whose last move is a Jack, a King (one and two draws to come) or a Queen of the
    seat with the longest name but this one's (a Queen on the one with the next longest):
    the last-move lines of their own (ui/shared/lastline.py)."""
    mover, target = sorted((s for s in range(n) if s != seat),
                           key=lambda s: -len(names[s]))[:2]
    moves = (("jack", {"type": "jack", "seat": mover}),
             ("king-2", {"type": "king", "seat": mover, "pending": 2}),
             ("king-1", {"type": "king", "seat": mover, "pending": 1}),
             ("queen", {"type": "queen", "seat": mover, "pos": "right", "target": target,
                        "target_pos": "left"}))
    return [("last-" + what, M.table(n, seat, names, turn=mover,
                                     log=[{"type": "deal", "round": 2, "dealer": 0},
                                          {"type": "play", "turn": 1}, ev]))
            for what, ev in moves]


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


def show(page, model, lang, top=True):
    """Draw `model` in `lang` on the screens page, then (`top`) scroll to the page's top."""
    H.show(page, dict(model, _ui=dict(model.get("_ui") or {}, lang=lang)))
    if top:
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
    of the review's table show; every Queen target is tappable; no last-move line is cut,
    a Jack's, a King's and a Queen's among them."""
    phone = small_phone(new_phone, screens_pages)
    page = phone.page
    problems = []
    seen = []
    widths = []
    cut = []
    for seat in (0, 4):
        for lang in ("en", "es"):
            for name, model in (M.screens(8, seat, names) + with_icons(8, seat, names)
                                + with_last_moves(8, seat, names)):
                if name not in TABLE_STATES and not name.startswith(("icons-", "last-")):
                    continue
                show(page, model, lang)
                for text in page.evaluate(CUT_LINES):
                    cut.append((seat, lang, name, text))
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
    print("last-move lines cut: %d of %d screens %s" % (len(cut), len(seen), cut[:4]))
    problems += [("cut", c) for c in cut]
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


@pytest.mark.parametrize("width,height,n", [(360, 640, 3), (360, 640, 8), (700, 900, 8)])
def test_an_empty_discard_pile_says_its_name_once(new_phone, screens_pages, width, height, n):
    """A tester's find (stop 29): on an empty discard pile "Descarte" showed twice, inside the
    empty place and under it. It says it once: under it, or inside it on a crowded phone, whose
    labels under the piles are hidden."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    for lang, word in (("en", "Discard"), ("es", "Descarte")):
        model = M.table(n, 0, REVIEW[:n])
        show(page, dict(model, view=dict(model["view"], discard=[])), lang)
        said = page.inner_text("#app .centre .pilebox:has([data-testid=discard])")
        assert said.count(word) == 1, (lang, n, width, said)
    assert console_errors(phone) == [] and phone.errors == []
