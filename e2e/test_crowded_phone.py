"""A crowded table (5 to 8 seats), a small one (2 to 4) and the guided round on a small phone,
in a real browser, from hand-made models (screens_harness.py): first-time players' tries
(issue 20).

- The small cards' corner mark and middle figure do not overlap (a held Queen); the empty
  discard pile's word is inside its place; the crisp word has room in its button; a Jack's or
  Queen's reveal note leaves crisp and its Hide button on the first screen.
- The guided first round at 360 x 640: its tip, the hand and Ready (then the deck) on the
  first screen.
- 2 to 4 seats at 360 x 640 (solo's default table is 4): every seat, the hand and the
  player's own buttons on the first screen.
"""

import pytest

import screen_models as M
from test_screens import OWN_ACTIONS, console_errors  # noqa: F401
from test_screens import screens_pages  # noqa: F401 (a fixture)
from test_table_fit import SEATS, TABLE_STATES, show, small_phone

PLAY = [{"type": "deal", "round": 2, "dealer": 0}, {"type": "play", "turn": 1}]


def revealing(model, seat, card="Qs"):
    """`model` with `seat`'s centre card `card` shown until the next turn (a Jack's or a
    Queen's reveal: the card face up and its note)."""
    return dict(model, reveals={"%d:center" % seat: card},
                reveal_until={"%d:center" % seat: "turn"})


def eight_seat_screens(names, seat):
    """(lang, name, model) of each of M.screens' `names` at 8 seats with long names, seen
    from `seat`, in Spanish then English."""
    for lang in ("es", "en"):
        for name, model in M.screens(8, seat, M.LONG):
            if name in names:
                yield lang, name, model

# Inside the piles and the player's own hand: each face's corner mark against its middle
# figure; the empty discard pile's word against its place; the crisp word against its
# button's edges (px of room each side). [(what, test id, detail)]
SMALL_CARDS = """() => {
  const out = [];
  const text = (e) => { const r = document.createRange(); r.selectNodeContents(e);
                        return r.getBoundingClientRect(); };
  const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  for (const c of document.querySelectorAll('#app .centre .card.face, #app .seat.me .card.face')) {
    const corner = c.querySelector('.corner'), pip = c.querySelector('.pip');
    if (corner && pip && over(text(corner.querySelector('b')), text(pip)))
      out.push(['corner', c.dataset.testid || c.className, c.dataset.card]);
  }
  for (const l of document.querySelectorAll('#app .slot-label')) {
    if (!l.getClientRects().length) continue;      // not shown (the label under it says it)
    const box = l.parentElement, b = box.getBoundingClientRect(), t = text(l);
    const edge = parseFloat(getComputedStyle(box).borderLeftWidth) || 0;
    if (t.left < b.left + edge - 0.5 || t.right > b.right - edge + 0.5)
      out.push(['label', box.dataset.testid, Math.round(t.width) + ' in ' + Math.round(b.width)]);
  }
  const crisp = document.querySelector('#app [data-testid=crisp]');
  if (crisp) {
    const b = crisp.getBoundingClientRect(), t = text(crisp.querySelector('.crisp-word'));
    const room = Math.min(t.left - b.left, b.right - t.right);
    if (room < 10) out.push(['crisp', 'crisp', Math.round(room)]);
  }
  return out;
}"""


# px below the fold (bottom - innerHeight, > 0 when cut or out of view) of the player's own
# live controls and the guided round's tip: {test id: px}.
FOLD = """() => {
  const vh = window.innerHeight, out = {};
  const live = document.querySelectorAll('#app .actions [data-act], #app .centre [data-act],'
    + ' #app .seat.me [data-act], #app [data-testid=guide]');
  for (const e of live) {
    if (e.disabled) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    const below = Math.round(r.bottom - vh);
    if (below > 0) out[e.dataset.testid || e.className] = below;
  }
  return out;
}"""


@pytest.mark.parametrize("width,height", [(360, 640), (360, 740)])
def test_small_cards_the_empty_discard_and_crisp_read_whole_at_eight_seats(
        new_phone, screens_pages, width, height):
    """A first-time player's try (8 seats, Spanish, a small phone): the empty discard pile's
    word ran past its place, a held Queen's figure sat over its corner mark, the crisp word
    filled its button edge to edge, and a Queen's reveal note pushed crisp half below the
    fold. Now none of these, in both languages, in every state of this player's turn, with
    the discard pile empty and not; with a reveal shown, crisp and Hide are on the first
    screen."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    problems = []
    folds = []
    seat = 4
    for lang, name, model in eight_seat_screens(("my-turn", "held", "queen-held",
                                                 "queen-target", "crisp-window",
                                                 "other-holds"), seat):
        for discard in (["7h", "Qd"], []):
            shown = dict(model, view=dict(model["view"], discard=discard))
            show(page, shown, lang)
            for p in page.evaluate(SMALL_CARDS):
                problems.append((lang, name, discard[-1:]) + tuple(p))
    for lang in ("es", "en"):
        # a Queen's (and a Jack's) reveal: the card and its note until the next turn
        for what, ev in (("queen", {"type": "queen", "seat": seat, "pos": "center",
                                    "target": 5, "target_pos": "left"}),
                         ("jack", {"type": "jack", "seat": seat})):
            model = revealing(M.table(8, seat, M.LONG, turn=5,
                                      crisp_window={"seat": seat, "left": 2400},
                                      allowed=[{"do": "crisp"}],
                                      log=PLAY + [ev, {"type": "turn", "seat": 5}]), seat)
            show(page, model, lang)
            assert page.locator('#app [data-testid="reveal-note"]').is_visible()
            own = page.evaluate(OWN_ACTIONS)
            assert own["n"] >= 2
            below = page.evaluate(FOLD)
            folds.append((lang, what, below))
            if own["out"]:                   # (crisp and Hide among them)
                problems.append((lang, what, "reveal", own["out"], below))
            for p in page.evaluate(SMALL_CARDS):
                problems.append((lang, what, "reveal") + tuple(p))
    print("px below the fold with a reveal note, %dx%d: %s" % (width, height, folds))
    for p in problems:
        print(p)
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


# The guided round's tip: inside the screen at the first view.
GUIDE = """() => {
  const g = document.querySelector('#app [data-testid=guide]');
  if (!g) return null;
  const r = g.getBoundingClientRect();
  return r.top >= -0.5 && r.bottom <= window.innerHeight + 0.5;
}"""


def test_the_guided_round_keeps_its_tip_the_hand_and_ready_on_a_360x640_screen(
        new_phone, screens_pages):
    """A first-time player's try: the guided round's first screen (landing, then the guided
    round, at 360 x 640) put Ready below the fold under the tip; later, a held card's,
    a held Queen's and the crisp window's buttons sat up to 30 px below it. At every step
    of the round that waits on a tap (the peek, a draw, a card held to swap or discard, a
    Jack, a Queen and its target, a King, the crisp window, with a Jack's reveal too), in both
    languages: the tip is
    on the first screen and so is every live control of their own."""
    phone = small_phone(new_phone, screens_pages)
    page = phone.page
    problems = []
    folds = []
    steps = dict(M.screens(3, 0, M.LONG))
    for card, do in (("Jd", "jack"), ("Kd", "king")):
        steps[do + "-held"] = M.table(3, 0, M.LONG, held={"seat": 0, "from": "deck", "card": card},
                                      allowed=[{"do": do}, {"do": "discard"}])
    # the crisp window after a Jack: its reveal shows too (a tester's guided round: Hide and
    # crisp half below the fold)
    steps["crisp-after-jack"] = revealing(
        M.table(3, 0, M.LONG, turn=1, crisp_window={"seat": 0, "left": 2400},
                allowed=[{"do": "crisp"}],
                log=PLAY + [{"type": "jack", "seat": 0}, {"type": "turn", "seat": 1}]), 0, "8d")
    for lang in ("es", "en"):
        for name, model in steps.items():
            if name not in ("peek", "my-turn", "held", "jack-held", "queen-held", "queen-target",
                            "king-held", "crisp-window", "crisp-after-jack"):
                continue
            model = dict(model, view=dict(model["view"], round=1),
                         _ui=dict(model.get("_ui") or {}, guided=True))
            show(page, model, lang)
            own = page.evaluate(OWN_ACTIONS)
            assert own["n"] > 0, name
            below = page.evaluate(FOLD)
            folds.append((lang, name, below))
            if not page.evaluate(GUIDE):
                problems.append((lang, name, "tip"))
            if own["out"]:
                problems.append((lang, name, own["out"]))
    print("guided round, px below the fold at 360x640: %s" % folds)
    for p in problems:
        print(p)
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []


NOTED = ("my-turn", "held", "queen-held", "queen-target", "crisp-window", "last-turns")


def noted(model, seat, reveal):
    """`model` after a Queen took this seat's left card (the Queen's notice shows), and with
    `reveal` this seat's centre card shown until the next turn (its reveal note too)."""
    queen = {"type": "queen", "seat": (seat - 1) % len(model["players"]), "pos": "right",
             "target": seat,
             "target_pos": "left"}
    model = dict(model, log=list(model["log"]) + [queen, {"type": "turn", "seat": seat}])
    return revealing(model, seat) if reveal else model


@pytest.mark.parametrize("width,height", [(360, 640)])
def test_a_queen_notice_and_a_reveal_note_leave_the_buttons_on_the_first_screen(
        new_phone, screens_pages, width, height):
    """A first-time player's try (8 seats, a small phone): the Queen's notice ("Bot 3 took
    your left card with a Queen...") and a reveal note at once pushed the King/Queen/crisp
    buttons below the fold. In every state of this player's turn, with the notice and with
    the notice and a reveal note, in both languages: every live control of their own is on
    the first screen (px below the fold: none)."""
    phone = small_phone(new_phone, screens_pages, width, height)
    page = phone.page
    problems = []
    folds = []
    seat = 4
    for lang, name, model in eight_seat_screens(NOTED, seat):
        for reveal in (False, True):
            show(page, noted(model, seat, reveal), lang)
            assert page.locator('#app [data-testid="queen-notice"]').is_visible(), name
            below = page.evaluate(FOLD)
            own = page.evaluate(OWN_ACTIONS)
            if below:
                folds.append((lang, name, reveal, below))
            if own["out"]:
                problems.append((lang, name, reveal, own["out"]))
    print("px below the fold with a Queen's notice, %dx%d: %d screens %s"
          % (width, height, len(folds), folds[:6]))
    for p in problems:
        print(p)
    assert problems == [] and folds == []
    assert console_errors(phone) == [] and phone.errors == []


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_small_table_shows_every_seat_the_hand_and_the_buttons_on_a_360x640_screen(
        new_phone, screens_pages, n):
    """Two testers' solo games (4 seats: the player and three bots, Spanish, 360 x 640): in
    the memorise step Ready sat at 654-706 px, below the fold, with the bottom of the
    player's own row; tapping it scrolled the page. With 2 to 4 seats, long names, in every
    state of a round, for the player at seat 0 and at the last seat, in both languages:
    every seat is whole on the first screen, and every live control of the player's own is
    inside it and is what a tap at its centre hits, with a reveal's note, a Queen's notice or
    both shown too; the smaller cards' corner mark and middle figure do not overlap."""
    phone = small_phone(new_phone, screens_pages)
    page = phone.page
    problems = []
    bottoms = {}
    for seat in (0, n - 1):
        # and a tester's solo game (4 seats, es): after a Queen, its note ("Tu carta de la
        # izquierda es 4♣: se vuelve a tapar…") put Hide and crisp at 622-670 px; so a Jack's
        # and a Queen's reveal note in the crisp window, and a Queen's notice (with a note
        # too) in each state of this player's turn
        screens = [(name, model) for name, model in M.screens(n, seat, M.LONG)
                   if name in TABLE_STATES]
        for what, ev in (("queen", {"type": "queen", "seat": seat, "pos": "center",
                                    "target": (seat + 1) % n, "target_pos": "left"}),
                         ("jack", {"type": "jack", "seat": seat})):
            screens.append(("reveal-" + what, revealing(
                M.table(n, seat, M.LONG, turn=(seat + 1) % n,
                        crisp_window={"seat": seat, "left": 2400}, allowed=[{"do": "crisp"}],
                        log=PLAY + [ev, {"type": "turn", "seat": (seat + 1) % n}]), seat)))
        for name, model in list(screens):
            if name in NOTED:
                screens += [("notice-" + name, noted(model, seat, False)),
                            ("notice-note-" + name, noted(model, seat, True))]
        for lang in ("es", "en"):
            for name, model in screens:
                show(page, model, lang)
                seats = page.evaluate(SEATS)
                own = page.evaluate(OWN_ACTIONS)
                me = [s for s in seats if s["seat"] == "seat-%d" % seat]
                bottoms[(seat, lang, name)] = me[0]["bottom"] if me else None
                cut = [s["seat"] for s in seats if not s["inside"]]
                if cut or own["out"]:
                    problems.append((seat, lang, name, cut, own["out"]))
                for p in page.evaluate(SMALL_CARDS):
                    problems.append((seat, lang, name) + tuple(p))
    print("%d seats at 360x640, the player's own row's bottom (px): max %s" % (
        n, max(b for b in bottoms.values() if b is not None)))
    for p in problems:
        print(p)
    assert problems == []
    assert console_errors(phone) == [] and phone.errors == []
