"""A tap reaches every screen fast (issue 22.5): the parts of a screen that did not change are
kept from the last render (ui/page/dom/vdom.py `Memo`, `kept`) and the patcher skips them; a tap
that is a move is sent before the tap is drawn (ui/page/screens/intents.py `sends_first`). What each
screen shows stays exactly what a drawing from nothing shows."""

import json

from bench.render_bench import game_views
from ui.page.screens import eventlog, screens
from ui.page.client.client import Client
from ui.page.screens.intents import sends_first
from ui.page.dom.memo import Memo, carried, kept
from ui.page.dom.redraw import draws_at_once
from ui.page.dom.vdom import Patcher, find, fresh as fresh_copy, h, text_of
from ui.page.screens.viewmodel import Ctx, new_ui

from test_render_dom import Element, _walk, by_testid, fakejs, fresh, new_screen  # noqa: F401

WELCOME = json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "t", "room": "r"})


def render(memo, make_key, calls):
    ctx = Ctx("en")
    ctx.memo = memo
    memo.begin()

    def make(word):
        calls.append(word)
        return h("p", {"data-act": ctx.act("say", ("intent", "say", {"w": word}))}, word)

    return ctx, kept(ctx, "slot", make_key, make, make_key)


def test_a_kept_part_is_the_same_node_with_its_acts_while_its_key_is_equal():
    memo, calls = Memo(), []
    ctx1, a = render(memo, "hi", calls)
    ctx2, b = render(memo, "hi", calls)
    assert b is a and calls == ["hi"]
    assert ctx2.acts == ctx1.acts == {"say": ("intent", "say", {"w": "hi"})}
    ctx3, c = render(memo, "ho", calls)
    assert c is not a and text_of(c) == "ho" and calls == ["hi", "ho"]
    assert ctx3.acts["say"] == ("intent", "say", {"w": "ho"})


def test_a_part_not_asked_for_in_a_render_is_forgotten():
    memo, calls = Memo(), []
    render(memo, "hi", calls)
    memo.begin()                     # a render without the slot (another screen)
    render(memo, "hi", calls)
    assert calls == ["hi", "hi"]


def test_the_parts_inside_a_kept_part_are_kept_with_it():
    # the log kept whole on a tick (its lines not asked for), then one new line: only the
    # new line is made, the others are the nodes they were
    memo, made = Memo(), []

    def line(word):
        made.append(word)
        return h("li", None, word)

    def outer(words, ctx):
        return h("ol", None, [kept(ctx, "line-" + w, w, line, w) for w in words])

    def draw(words):
        ctx = Ctx("en")
        ctx.memo = memo
        memo.begin()
        return kept(ctx, "log", tuple(words), outer, words, ctx)

    first = draw(["a", "b"])
    assert draw(["a", "b"]) is first            # the tick: kept whole
    third = draw(["a", "b", "c"])
    assert made == ["a", "b", "c"]
    assert third["kids"][0] is first["kids"][0] and third["kids"][1] is first["kids"][1]


def test_without_a_memo_every_part_is_made():
    calls = []
    ctx = Ctx("en")
    a = kept(ctx, "slot", 1, lambda: calls.append(1) or h("p", None, "x"))
    b = kept(ctx, "slot", 1, lambda: calls.append(1) or h("p", None, "x"))
    assert a is not b and calls == [1, 1]


def test_a_carried_value_is_handed_to_the_next_render_also_inside_a_kept_part():
    memo, seen = Memo(), []

    def count(last, step):
        seen.append(last)
        return (last or 0) + step

    def draw(key, step):
        ctx = Ctx("en")
        ctx.memo = memo
        memo.begin()
        return kept(ctx, "part", key,
                    lambda: h("p", None, str(carried(ctx, "n", count, step))))

    assert text_of(draw("a", 1)) == "1"
    assert text_of(draw("a", 5)) == "1"          # the part kept whole: nothing carried
    assert text_of(draw("b", 2)) == "3"          # its value from two renders ago
    assert seen == [None, 1]
    memo.begin()                                 # a render without the part
    assert text_of(draw("c", 4)) == "4" and seen[-1] is None
    assert carried(Ctx("en"), "n", count, 7) == 7    # no memo: from nothing


def test_a_view_words_only_the_events_new_since_the_last_render(fakejs, monkeypatch):
    # the log's 40 lines were worded again on every view; now only the events appended
    # since the last render, while the language, this seat and the names are the same
    # (play checks that each screen is what a drawing from nothing shows)
    asked = []
    real = eventlog.log_entries

    def entries(model, players, ctx, since=0):
        asked.append((ctx.memo, since, len(model.log)))
        return real(model, players, ctx, since)

    monkeypatch.setattr(eventlog, "log_entries", entries)
    screen, _ = play(fakejs, 3, 30)        # (its fresh drawings word all: other memos)
    mine = [(since, count) for memo, since, count in asked if memo is screen.memo]
    assert len(mine) >= 15 and [s for s, c in mine].count(0) <= 2, mine   # (the first views)
    assert all(0 < count - since <= 4 for since, count in mine[1:]), mine
    del asked[:]
    screen.ui["lang"] = "es"                     # another language: every line worded anew
    screen.update(screen.model)
    assert [(s, c) for m, s, c in asked if m is screen.memo] == [(0, len(screen.model.log))]
    assert screen.root.canon() == fresh(fakejs, screen, screen.model)


def patches_as_drawn(doc, patcher, trees):
    """Draw `trees[0]`, patch it to each next tree in turn, and after each patch compare the
    page with that tree drawn afresh (a copy: no node shared with the memo)."""
    root = doc.createElement("div")
    root.appendChild(patcher.create(trees[0]))
    for old, new in zip(trees, trees[1:]):
        patcher.patch(root, old, new)
        drawn = doc.createElement("div")
        drawn.appendChild(patcher.create(fresh_copy(new)))
        assert root.canon() == drawn.canon()


def test_a_kept_part_that_moved_among_its_siblings_is_drawn_where_it_now_is(fakejs):
    doc = fakejs.document
    patcher = Patcher(doc)
    memo = Memo()
    trees = []
    for order in (["a", "b", "c"], ["b", "c"], ["c", "a", "b"], ["a"], ["a", "b", "c"]):
        ctx = Ctx("en")
        ctx.memo = memo
        memo.begin()
        kids = [kept(ctx, "k-" + w, w, lambda w=w: h("li", {"class": w}, w)) for w in order]
        trees.append(h("ol", None, kids))
    patches_as_drawn(doc, patcher, trees)


def test_a_kept_part_whose_part_around_it_was_made_anew_elsewhere_is_drawn_right(fakejs):
    # the seats' heads are kept while the seats around them are made anew each render, and
    # the seats change places (another seat's old place): one node never stands for two
    # elements, and a copy drawn once is the part itself again the render after
    doc = fakejs.document
    patcher = Patcher(doc)
    memo = Memo()
    trees = []
    orders = (["a", "b", "c"], ["c", "a", "b"], ["c", "a", "b"], ["b", "c"], ["a", "b", "c"],
              ["a", "b", "c"])
    heads = []
    for k, order in enumerate(orders):
        ctx = Ctx("en")
        ctx.memo = memo
        memo.begin()
        seats = [h("div", {"class": w + str(k)},
                   kept(ctx, "head-" + w, w, lambda w=w: h("b", {"class": w}, w)),
                   h("i", None, str(k))) for w in order]
        heads.append([seat["kids"][0] for seat in seats])
        trees.append(h("ol", None, seats))
    patches_as_drawn(doc, patcher, trees)
    # the last two renders have the same order: the heads drawn are the kept nodes again
    assert [seat["kids"][0] for seat in trees[-1]["kids"]] == heads[-1]
    assert all(a is b for a, b in zip(heads[-1], [s["kids"][0] for s in trees[-1]["kids"]]))


def play(fakejs, players, count, lang="en"):
    """A guest's Screen taking a real game's views and the ticks between them; after each,
    its page is what a drawing from nothing shows. -> (screen, the elements of every seat
    after each view)."""
    screen = new_screen(fakejs)
    screen.ui["lang"] = lang
    client = Client(lambda text: None)
    client.receive(WELCOME, 0)
    seats = []
    for text in game_views(players, count)[:count]:
        fakejs.clock += 700
        client.receive(text, fakejs.clock)
        screen.update(client)
        assert fakejs.errors == [] and screen.root.canon() == fresh(fakejs, screen, client)
        seats.append({s: by_testid(screen.root, "seat-%d" % s) for s in range(players)})
        fakejs.clock += 250
        screen.update(client)        # the 250 ms tick
        assert fakejs.errors == [] and screen.root.canon() == fresh(fakejs, screen, client)
    return screen, seats


def test_a_real_game_draws_each_screen_as_a_fresh_drawing_at_3_and_8_players(fakejs):
    for players in (3, 8):
        play(fakejs, players, 60)


def test_a_seat_nobody_moved_in_keeps_its_elements(fakejs):
    # at 8 players a move changes a seat or two: the others' elements are the same ones
    screen, seats = play(fakejs, 8, 40)
    same = [sum(1 for s in now if now[s] is before[s]) for before, now in zip(seats, seats[1:])]
    assert max(same) >= 6 and sorted(same)[len(same) // 2] >= 5, same


def test_a_seat_whose_turn_came_or_went_keeps_its_head_and_hand_nodes(fakejs):
    # the turn moving on changes two seats' class alone: their heads and hands are the
    # last render's nodes (not made again, and the patcher skips them); a seat whose cards
    # changed makes its hand again and keeps its head. (The game differs run by run: the
    # room's committed shuffle takes fresh randomness. So every hand that draws the same is
    # checked to be the same node, rather than counting how often that happens.)
    screen = new_screen(fakejs)
    client = Client(lambda text: None)
    client.receive(WELCOME, 0)
    before, turned, dealt = None, 0, 0
    for text in game_views(8, 40)[:40]:
        fakejs.clock += 700
        client.receive(text, fakejs.clock)
        screen.update(client)
        assert screen.root.canon() == fresh(fakejs, screen, client)
        now = {s: find(screen.tree, "seat-%d" % s) for s in range(8)}
        for s in range(8):
            old, new = (before or {}).get(s), now[s]
            if s == 1 or old is None or new is None or new is old:
                continue
            if old["attrs"]["class"] != new["attrs"]["class"]:
                assert new["kids"][0] is old["kids"][0]             # the head
                turned += 1
                if new["kids"][1] == old["kids"][1]:                # and a hand the same
                    assert new["kids"][1] is old["kids"][1]
                    dealt += 1
        before = now
    # (over 40 runs: 12 to 18 seats' turns came or went, 3 to 5 of them with the same hand;
    # one earlier run had 6 and 1)
    assert turned >= 4 and dealt >= 1, (turned, dealt)


def test_a_language_switch_redraws_every_kept_part(fakejs):
    screen, _ = play(fakejs, 3, 10)
    client = screen.model
    screen.ui["lang"] = "es"
    screen.update(client)
    assert screen.root.canon() == fresh(fakejs, screen, client)
    log = by_testid(screen.root, "event-log")
    ctx = Ctx("es")
    assert log.textContent.startswith(
        eventlog.log_entries(client, screens.player_list(client), ctx)[0][0]
        .replace("\u2068", "").replace("\u2069", ""))


def test_the_top_bar_is_kept_while_closed_and_drawn_anew_when_its_menu_opens(fakejs):
    screen, _ = play(fakejs, 3, 6)
    client = screen.model
    bar = by_testid(screen.root, "menu")
    screen.update(client)
    assert by_testid(screen.root, "menu") is bar               # a tick: the same elements
    for is_open in (True, False):
        screen.ui["menu_open"] = is_open
        screen.update(client)
        assert screen.root.canon() == fresh(fakejs, screen, client)
        assert (by_testid(screen.root, "menu-panel") is not None) is is_open


def test_the_log_shows_the_newest_lines_first_at_most_log_lines():
    client = Client(lambda text: None)
    client.receive(WELCOME, 0)
    for text in game_views(3, 120):
        client.receive(text, 0)
    ctx = Ctx("en")
    players = screens.player_list(client)
    every = [(eventlog.event_text(ev, players, ctx, 1), ev.get("type"), i)
             for i, ev in enumerate(client.log) if isinstance(ev, dict) and "to" not in ev]
    every = [e for e in every if e[0]]
    assert len(every) > eventlog.LOG_LINES
    assert eventlog.log_entries(client, players, ctx) == every[::-1][:eventlog.LOG_LINES]


def test_a_tick_words_no_event_again_and_a_new_event_or_name_words_the_log_anew(
        fakejs, monkeypatch):
    # the log's key (eventlog.log_key) is cheap to compare: a tick keeps the log whole
    # without wording its 40 lines again; a new event, a renamed seat or another language
    # makes a new key
    screen, _ = play(fakejs, 3, 12)
    client = screen.model
    worded = []
    real = eventlog.log_entries
    monkeypatch.setattr(eventlog, "log_entries", lambda *a: worded.append(1) or real(*a))
    screen.update(client)                         # a tick: nothing new
    assert worded == []
    ctx, players = Ctx("en"), screens.player_list(client)
    key = eventlog.log_key(client, players, ctx)
    assert eventlog.log_key(client, players, ctx) == key
    client.log.append({"type": "turn", "seat": 0})          # (the Client appends in place)
    assert eventlog.log_key(client, players, ctx) != key
    client.log.pop()
    assert eventlog.log_key(client, players, ctx) == key
    renamed = dict(players)
    renamed[0] = dict(players[0], name="Zoe")
    assert eventlog.log_key(client, renamed, ctx) != key
    assert eventlog.log_key(client, players, Ctx("es")) != key
    for text in game_views(3, 14)[12:14]:         # the next views: words again, as drawn
        fakejs.clock += 700
        client.receive(text, fakejs.clock)
        screen.update(client)
        assert screen.root.canon() == fresh(fakejs, screen, client)
    assert worded


def test_a_tick_words_no_last_move_again_and_keeps_the_status_lines(fakejs, monkeypatch):
    # the status bar's last move and Queen's notice are worded once per change of the log
    # (statusbar.log_words), and its lines are kept while the words are the same
    from ui.page.screens import statusbar
    screen, _ = play(fakejs, 8, 16)
    client = screen.model
    worded = []
    real = statusbar.last_move
    monkeypatch.setattr(statusbar, "last_move", lambda *a: worded.append(1) or real(*a))
    says = find(screen.tree, "status")
    fakejs.clock += 250
    screen.update(client)                         # a tick: nothing worded, the same lines
    assert worded == [] and find(screen.tree, "status") is says
    for text in game_views(8, 18)[16:18]:         # the next views: worded again, as drawn
        fakejs.clock += 700
        client.receive(text, fakejs.clock)
        screen.update(client)
        assert screen.root.canon() == fresh(fakejs, screen, client)
    assert worded


def test_a_guest_page_draws_a_view_in_the_task_that_read_it_anything_else_later():
    client = Client(lambda text: None)
    client.receive(WELCOME, 0)
    assert not draws_at_once(client)               # a welcome: drawn with what follows
    texts = game_views(3, 4)
    client.receive(texts[-1], 10)
    assert draws_at_once(client)                   # a move: drawn at once
    client.receive(json.dumps({"type": "pong", "v": 1, "t": 5}), 20)
    assert not draws_at_once(client)
    client.receive("not json", 30)
    assert not draws_at_once(client)
    assert not draws_at_once(None)


def test_a_move_is_sent_at_once_anything_else_drawn_first():
    assert sends_first([("action", {"do": "draw", "from": "deck"})])
    assert not sends_first([])
    assert not sends_first([("create_room", {"name": "Ana"})])
    assert not sends_first([("action", {"do": "ready"}), ("lang", "es")])


def test_a_tap_on_the_deck_sends_the_draw_first_then_shows_it_taken_until_the_answer(fakejs):
    # a guest's tap: the move goes out first, then the deck is drawn pressed in this very
    # task (before the host's answer, whatever the link); the answering view settles it
    texts = game_views(3, 60)
    mine = next(i for i, t in enumerate(texts) if any(
        a.get("do") == "draw" for a in json.loads(t).get("view", {}).get("allowed") or []))
    screen = new_screen(fakejs)
    sent = []
    client = Client(sent.append)
    client.receive(WELCOME, 0)
    for text in texts[:mine + 1]:
        client.receive(text, fakejs.clock)
        screen.update(client)
    assert by_testid(screen.root, "deck").getAttribute("data-pending") is None
    order = []

    def intent(name, payload):
        order.append(("intent", name))
        client.act(payload, fakejs.clock)

    screen.on_intent = intent
    draw = screen.render

    def render():
        order.append(("render",))
        draw()

    screen.render = render
    by_testid(screen.root, "deck").click()
    assert order == [("intent", "action"), ("render",)], order     # sent, then drawn
    assert json.loads(sent[-1])["type"] == "action"
    deck = by_testid(screen.root, "deck")
    assert deck.getAttribute("data-pending") == "true" and "pending" in deck.getAttribute("class")
    assert deck.getAttribute("aria-busy") == "true"
    client.receive(texts[mine + 1], fakejs.clock + 300)         # the room's answer
    screen.update(client)
    assert client.tapped is None
    for el in _walk(screen.root):
        if hasattr(el, "getAttribute"):
            assert el.getAttribute("data-pending") is None         # nothing left pending
    del order[:]
    screen.on_intent = lambda name, payload: order.append(("intent", name))
    by_testid(screen.root, "menu").click()                # a tap of this screen's own
    assert order == [("render",)] and screen.ui["menu_open"], order
