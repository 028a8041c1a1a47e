"""The 250 ms tick draws the screen only when something on it can have changed (issue 22.5,
ui/page/dom/redraw.py): a render says when what it showed changes with the clock (viewmodel.Ctx
`wake`), and the model's stamp says whether anything else changed since.

The pure tests here run on MicroPython too (tests/test_render_micropython.py), the
interpreter guests run; CPYTHON_ONLY are the ones that read the sources or use the Client's
room helpers."""

from ui.page.dom import redraw
from ui.page.screens.cues import ANNOUNCE_MS
from ui.page.screens.invite import COPIED_MS
from ui.page.client.presence import Pause
from ui.page.dom.vdom import find_all
from ui.page.screens.viewmodel import SECOND, Ctx, new_ui, secs
from ui.shared.reactions import SHOW_MS

from test_render_model import FakeClient, lobby_model, paused, show, table_model

CPYTHON_ONLY = ("test_no_screen_reads_what_the_stamp_leaves_out",
                "test_a_beat_changes_nothing_shown_and_a_silent_host_does",
                "test_the_tick_draws_a_screen_only_when_it_would_change",
                "test_the_sealed_room_and_standby_after_a_move_change_nothing_shown")


def wake(model, ui=None, now=0, elapsed=0):
    """When the screen drawn at `now` changes with the clock (ms), or None."""
    _, ctx = show(model, ui, now=now, elapsed=elapsed)
    return ctx.wake


def test_ctx_notes_when_what_it_answers_changes_and_only_while_it_can():
    ctx = Ctx(now=5000, elapsed=1000)
    assert ctx.left(None) is None and ctx.left(800) == 0 and ctx.wake is None
    assert ctx.until(5000) == 0 and ctx.until(4000) == 0 and ctx.wake is None
    assert ctx.within(3000, 2000) is False and ctx.before(5000) is False   # gone by now
    assert ctx.instant() == 5000 and ctx.wake is None
    assert ctx.within(4000, 2000) is True and ctx.wake == 6000      # a note: when it goes
    assert ctx.before(5500) is True and ctx.wake == 5500            # the earliest counts
    assert ctx.left(1500) == 500 and ctx.wake == 5000               # a countdown: now
    for read in (lambda c: c.now, lambda c: c.elapsed, lambda c: c.until(5001),
                 lambda c: c.left(1001), lambda c: c.wake_at(5000)):
        ctx = Ctx(now=5000, elapsed=1000)
        read(ctx)
        assert ctx.wake == 5000
    # shown in whole seconds (viewmodel.secs, rounded up): drawn again when the second
    # shown changes, not every tick
    for left, at in ((3000, 6000), (2500, 5500), (2001, 5001), (1, 5001)):
        ctx = Ctx(now=5000, elapsed=0)
        assert ctx.left(left, SECOND) == left and ctx.wake == at
        gone = at - 5000        # ms until then: the second shown changes then, not before
        assert secs(left - gone) == secs(left) - 1 and secs(left - gone + 1) == secs(left)
    ctx = Ctx(now=5000)
    assert ctx.until(6500, SECOND) == 1500 and ctx.wake == 5500


def test_a_table_where_nothing_counts_down_never_changes_with_the_clock():
    assert wake(table_model(4, seat=1, turn=2)) is None
    assert wake(table_model(4, seat=1, turn=1, allowed=[{"do": "draw", "from": "deck"}])) is None
    assert wake(lobby_model(3), now=10 ** 7) is None
    # a countdown that ran out stands at 0: nothing more to count
    assert wake(table_model(4, seat=1, turn=1, draw_left=3000,
                            options={"draw_seconds": 30, "target": 100}), elapsed=3000) is None


def test_every_countdown_is_drawn_when_what_it_shows_changes_and_every_note_at_its_time():
    draw = {"draw_seconds": 30, "target": 100}
    # the turn's timer is a ring: every tick
    assert wake(table_model(4, seat=1, turn=1, draw_left=20000, options=draw),
                now=700, elapsed=500) == 700
    # the peek and the start delay say whole seconds: when the next one shows (7.5 s left
    # shows 8 until 7 s are left: in 500 ms)
    assert wake(table_model(4, seat=1, phase="peek", peek_left=8000), now=700, elapsed=500) == 1200
    assert wake(table_model(4, seat=1, turn=1, start_in=2000), now=700, elapsed=500) == 1200
    # another seat's start delay is on nobody else's screen: it wakes no one
    assert wake(table_model(4, seat=1, turn=2, start_in=2000), now=700, elapsed=500) is None
    # the Crisp window says its seconds (its bar drains by itself): 2.5 s left shows 3 until
    # 2 s are left
    window = table_model(3, seat=1, turn=2, crisp_window={"seat": 1, "left": 2600},
                         allowed=[{"do": "crisp"}])
    assert wake(window, now=700, elapsed=100) == 1200
    assert wake(window, now=700, elapsed=2600) is None
    # the host silent: "Ana's phone is not answering ... 12 s"
    m = table_model(4, seat=1, turn=2)
    m.host_seat, m.status = 0, "host_gone"
    m.pause = paused(1000, 0, gone_at=16000)
    assert wake(m, now=4000) == 5000 and wake(m, now=16000) is None    # 12 s, then 11 s
    # "Ana is the new host" until 16 s
    m = table_model(4, seat=2)
    m.host_seat = 1
    m.new_host = {"seat": 1, "me": False, "until": 16000}
    assert wake(m, now=10000) == 16000 and wake(m, now=16000) is None
    # a reaction on a seat for 2 s
    m = table_model(4, seat=1, turn=2)
    m.reactions = {2: {"r": 5, "at": 1000, "n": 1}, 3: {"r": 1, "at": 1200, "n": 1}}
    assert wake(m, now=1500) == 1000 + SHOW_MS and wake(m, now=5000) is None
    # the announcement ("Your turn!"), and the lobby's "Copied!"
    ui = new_ui()
    ui["announce"] = {"kind": "your_turn", "at": 1000}
    assert wake(table_model(4, seat=1, turn=1), ui, now=1500) == 1000 + ANNOUNCE_MS
    assert wake(table_model(4, seat=1, turn=1), ui, now=1000 + ANNOUNCE_MS) is None
    ui = new_ui()
    ui["copied_at"] = 1000
    assert wake(lobby_model(3), ui, now=1500) == 1000 + COPIED_MS
    assert wake(lobby_model(3), ui, now=9000) is None


def test_the_crisp_bar_reads_the_same_at_every_render_of_a_view_and_anew_for_the_next():
    def fill(model, elapsed):
        tree, _ = show(model, now=elapsed, elapsed=elapsed)
        found = find_all(tree, lambda nd: nd["attrs"].get("class") == "crisp-fill")
        return found[0] if found else None

    window = table_model(3, seat=1, turn=2, crisp_window={"seat": 1, "left": 2600},
                         allowed=[{"do": "crisp"}])
    first, later = fill(window, 100), fill(window, 1300)
    # its timing is the view's (3 s long, 400 ms gone as it came): the browser's animation of
    # it runs on between the page's renders; only the part shown without motion moves
    assert first["key"] == later["key"] == 2600
    assert first["attrs"]["style"] == "--f:0.83;animation-duration:3000ms;animation-delay:-400ms"
    assert later["attrs"]["style"] == "--f:0.43;animation-duration:3000ms;animation-delay:-400ms"
    # the next view is another element (an animation of its own, from that view's time)
    window.view = dict(window.view, crisp_window={"seat": 1, "left": 1000})
    assert fill(window, 0)["key"] == 1000 and "delay:-2000ms" in fill(window, 0)["attrs"]["style"]
    # run out (until the next view closes it): empty; not this seat's window: no bar
    assert fill(window, 1000)["attrs"]["style"].startswith("--f:0;")
    other = table_model(3, seat=1, turn=2, crisp_window={"seat": 0, "left": 2600})
    assert fill(other, 0) is None


def test_the_stamp_changes_with_what_a_screen_can_read_and_not_with_the_last_word_heard():
    m = table_model(4, seat=1, turn=2)
    m.pause = Pause()
    ui = new_ui()
    first = redraw.stamp(m, ui)
    assert redraw.stamp(m, ui) == first
    m.last_heard, m.latency, m.last_type = 123, 40, "beat"      # no screen reads these
    assert redraw.stamp(m, ui) == first
    changes = (lambda: setattr(m, "status", "host_paused"),
               lambda: m.pause.begin(5000, 0),                 # an object's own attributes
               lambda: m.log.append({"type": "turn", "seat": 2}),
               lambda: setattr(m, "view", dict(m.view)),
               lambda: setattr(m, "host_lost", True),
               lambda: ui.__setitem__("log_open", True),
               lambda: ui.__setitem__("keep_waiting", 1))
    for change in changes:
        before = redraw.stamp(m, ui)
        change()
        assert redraw.stamp(m, ui) != before
    # a page that sets a new tuple of the same names each tick (the host's friends arriving)
    m.arriving = ("Gina",)
    before = redraw.stamp(m, ui)
    m.arriving = tuple(["Gi" + "na"])
    assert redraw.stamp(m, ui) == before
    m.arriving = ("Gina", "Hana")
    assert redraw.stamp(m, ui) != before
    # another model (a page that took over the screen) is another stamp
    assert redraw.stamp(FakeClient(), ui) != redraw.stamp(FakeClient(), ui)
    assert redraw.stamp(None, ui) == redraw.stamp(None, ui)


def test_the_tick_renders_when_the_clock_says_when_busy_or_changed():
    same, other = (lambda: ("a",)), (lambda: ("b",))
    assert not redraw.due(None, 5000, False, ("a",), same)
    assert not redraw.due(5250, 5000, False, ("a",), same)      # a note still shown
    assert redraw.due(5000, 5000, False, ("a",), same)          # ... gone now
    assert redraw.due(None, 5000, True, ("a",), same)
    assert redraw.due(None, 5000, False, ("a",), other)
    assert redraw.due(None, 5000, False, None, same)            # never drawn yet, or no stamp
    # the phone's clock set back: a note's end counts from a time to come, draw now
    assert not redraw.due(9000, 5000, False, ("a",), same, 4000)
    assert redraw.due(9000, 5000, False, ("a",), same, 6000)
    assert redraw.quiet("beat") and redraw.quiet("pong")
    assert not redraw.quiet("view") and not redraw.quiet("lobby") and not redraw.quiet(None)


def test_a_countdown_draws_every_tick_without_walking_the_model():
    walks = []

    def stamp_of():
        walks.append(1)
        return ("a",)

    # a render whose screen counts (wake at or before its time) keeps no stamp ...
    assert redraw.counting(4000, 4000) and redraw.counting(3000, 4000)
    assert not redraw.counting(4250, 4000) and not redraw.counting(None, 4000)
    assert not redraw.counting(4000, None)
    # ... and the tick after it draws without one; the stamp is taken only when the clock,
    # the pending work and the missing stamp have not decided
    assert redraw.due(4000, 4250, False, None, stamp_of)
    assert redraw.due(4000, 4250, False, ("a",), stamp_of)
    assert redraw.due(None, 4250, True, ("a",), stamp_of)
    assert walks == []
    assert not redraw.due(None, 4250, False, ("a",), stamp_of) and walks == [1]


def test_no_screen_reads_what_the_stamp_leaves_out():
    # the screens (everything ui/page/screens/screens.py imports, and on, but the Client's own
    # modules, which keep them) never read an UNSHOWN attribute: a change the stamp does not
    # see changes nothing on screen
    import ast
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seen, todo = set(), ["ui.page.screens.screens"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name.startswith("ui.page.client.client"):
            continue
        path = os.path.join(root, *name.split(".")) + ".py"
        tree = ast.parse(open(path).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ui."):
                sub = [node.module + "." + a.name for a in node.names]
                todo.extend(m for m in sub + [node.module]
                            if os.path.isfile(os.path.join(root, *m.split(".")) + ".py"))
            if isinstance(node, ast.Constant) and node.value in redraw.UNSHOWN:
                raise AssertionError("%s reads %r" % (name, node.value))
            if isinstance(node, ast.Attribute) and node.attr in redraw.UNSHOWN:
                raise AssertionError("%s reads .%s" % (name, node.attr))
    assert "ui.page.screens.table" in seen and "ui.page.client.client" in seen and "ui.page.screens.banner" in seen and len(seen) > 30


def test_a_beat_changes_nothing_shown_and_a_silent_host_does():
    from test_client import msg, seated, view_msg
    client, _ = seated()
    client.receive(view_msg(1), 100)
    ui = new_ui()
    before = redraw.stamp(client, ui)
    client.receive(msg("beat"), 1100)
    client.receive(msg("pong", t=1000, n=1), 1200)
    assert client.last_type == "pong" and redraw.stamp(client, ui) == before
    client.set_link({"status": "host_paused", "paused_since": 1200, "gone_at": 16200,
                     "lost": False, "behind": False})
    assert redraw.stamp(client, ui) != before


def test_the_sealed_room_and_standby_after_a_move_change_nothing_shown():
    # the room sends each seat its sealed box after every move: a guest drew its whole
    # table again for it (and its tick once more), as long as for the move's view itself
    from test_client import msg, seated, view_msg
    client, _ = seated()
    client.receive(view_msg(1), 100)
    ui = new_ui()
    before = redraw.stamp(client, ui)
    client.receive(msg("sealed", box={"n": 3, "iv": "00", "ct": "11"}, share="s3", host=0,
                       keys={}), 1100)
    assert client.last_type == "sealed" and client.sealed["box"]["n"] == 3
    assert redraw.quiet("sealed") and redraw.stamp(client, ui) == before
    client.receive(msg("standby", seat=1, tokens={"0": "cd" * 16}), 1200)
    assert client.standby is not None and redraw.quiet("standby")
    assert redraw.stamp(client, ui) == before
    assert not redraw.quiet("view") and not redraw.quiet("lobby")


def test_the_tick_draws_a_screen_only_when_it_would_change(monkeypatch):
    from test_render_dom import fakejs, new_screen
    fake = fakejs.__wrapped__(monkeypatch)
    screen = new_screen(fake)
    m = table_model(4, seat=1, turn=2)
    m.pause = Pause()
    screen.update(m)
    assert not screen.due(m)
    m.status = "host_paused"                                   # the link's word changed
    assert screen.due(m)
    screen.update(m)
    assert not screen.due(m)
    m.view = dict(m.view, draw_left=20000, options={"draw_seconds": 30, "target": 100},
                  turn=1)
    m.view_at = fake.clock
    screen.update(m)
    assert screen.due(m)                                       # the draw timer counts
    assert screen._stamp is None                               # (so no stamp is kept)
    fake.clock += 60000
    screen.update(m)                                           # ... down to 0
    assert screen._stamp is not None and not screen.due(m)
    m.error = {"code": "illegal", "text": "Not now"}
    screen.update(m)
    assert not screen.due(m)
    fake.clock += 5001
    assert screen.due(m)                                       # its toast goes after 5 s
    screen.update(m)
    assert not screen.due(m)
    fake.clock -= 60000                                        # the phone's clock set back
    assert screen.due(m)
