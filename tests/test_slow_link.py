"""A slow link, fair to its player (docs/protocol.md "Slow links"): a tap shows taken on its
own screen at once and settles with the room's answer (ui/page/client/taps.py); the link's round
trip from the pings (ui/shared/linkspeed.py), countdowns that end a round trip sooner on
that page, and a slow link said on its own screen and at its seat's place for the others,
with hysteresis. The decisions run on MicroPython too (the last test), but the room's
(CPYTHON_ONLY)."""

import json

from test_render_model import find, show, table_model, text_of
from ui.page.client import taps
from ui.page.i18n import i18n
from ui.page.client.client import Client
from ui.page.screens.viewmodel import Ctx
from ui.shared import linkspeed
from ui.shared.linkspeed import LEAD_MAX_MS, SLOW_OFF_MS, SLOW_ON_MS

CPYTHON_ONLY = ("test_the_room_tells_every_screen_when_a_seat_link_turns_slow_and_back",
                "test_a_two_second_blackout_never_makes_a_seat_away",
                "test_the_slow_link_tests_pass_on_micropython")

WELCOME = json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "a" * 32, "room": "r",
                      "host": 0})


def view_text(n, events=(), **kw):
    view = {"phase": "play", "round": 1, "turn": 1, "allowed": [{"do": "draw"}]}
    view.update(kw)
    return json.dumps({"type": "view", "v": 1, "n": n, "view": view, "events": list(events),
                       "players": []})


DREW = [{"type": "draw", "seat": 1, "from": "deck"}]


def seated_client():
    sent = []
    client = Client(sent.append)
    client.receive(WELCOME, 0)
    client.receive(view_text(1), 10)
    return client, sent


def pong(client, sent_at, now):
    return client.receive(json.dumps({"type": "pong", "v": 1, "t": sent_at}), now)


# ---- the link's round trip --------------------------------------------------------------

def test_the_round_trip_is_the_median_of_the_last_pongs_and_one_late_pong_moves_it_not():
    samples = []
    for rtt in (70, 74, 66):
        samples = linkspeed.add_sample(samples, rtt)
    assert linkspeed.estimate(samples) == 70
    samples = linkspeed.add_sample(samples, 2070)          # a 2 s blackout's pong
    assert linkspeed.estimate(samples) == 74 and len(samples) == linkspeed.SAMPLES
    samples = linkspeed.add_sample(samples, 300)
    samples = linkspeed.add_sample(samples, 310)           # the link really got slower
    assert linkspeed.estimate(samples) == 310
    assert linkspeed.estimate([]) is None
    assert linkspeed.estimate(linkspeed.add_sample([70], 900)) == 70   # two: the smaller
    for bad in (None, -5, "70", True, float("nan")):
        assert linkspeed.add_sample([70], bad) == [70]
    assert linkspeed.add_sample([], 10 ** 9) == [linkspeed.SAMPLE_MAX_MS]


def test_slow_has_hysteresis_so_a_link_near_the_line_does_not_flicker():
    assert not linkspeed.is_slow(False, SLOW_ON_MS - 1)
    assert linkspeed.is_slow(False, SLOW_ON_MS)
    assert linkspeed.is_slow(True, SLOW_OFF_MS)            # between the two: stays slow
    assert not linkspeed.is_slow(True, SLOW_OFF_MS - 1)
    assert not linkspeed.is_slow(False, SLOW_OFF_MS + 10)  # ... or stays not slow
    assert linkspeed.is_slow(True, None) and not linkspeed.is_slow(False, None)


def test_the_lead_is_a_slow_round_trip_capped_and_zero_unknown():
    assert linkspeed.one_way(250) == 125
    # the median round trip, half of it again (jitter, a view's slowest packet), the work
    assert linkspeed.lead(250) == 250 + 125 + linkspeed.LEAD_WORK_MS
    assert linkspeed.lead(251.9) == 251 + 125 + linkspeed.LEAD_WORK_MS   # whole ms
    # 3g through a relay: the view's and the tap's ways took up to 165 ms over a 318 ms
    # median round trip (e2e/test_slow_links.py, measured): the lead covers them
    assert linkspeed.lead(318) >= 318 + 165
    for bad in (None, -3, 0, "250", True, float("nan")):
        assert linkspeed.lead(bad) == 0
    assert linkspeed.lead(5000) == LEAD_MAX_MS
    assert linkspeed.lead(600) == LEAD_MAX_MS


def test_a_late_view_of_a_window_shown_gives_no_time_back():
    assert linkspeed.kept_lead(400, 1000, 2000, None) == 400          # a new window
    assert linkspeed.kept_lead(400, 1000, 2000, 2600) == 400          # ends 2600 as before
    assert linkspeed.kept_lead(400, 1900, 1000, 2600) == 400          # or sooner
    assert linkspeed.kept_lead(400, 2500, 1000, 2600) == 900          # 600 ms late: no later
    for bad in (None, "x", True, float("nan")):
        assert linkspeed.kept_lead(400, 2500, 1000, bad) == 400
        assert linkspeed.kept_lead(400, bad, 1000, 2600) == 400
    assert linkspeed.reported(240) == 240 and linkspeed.reported(240.7) == 240
    for bad in (None, -1, "240", True, linkspeed.RTT_MAX_MS + 1, float("inf")):
        assert linkspeed.reported(bad) is None


def test_a_guest_learns_its_round_trip_from_its_pongs_says_it_slow_and_reports_it():
    client, sent = seated_client()
    client.ping(1000)
    assert "rtt" not in json.loads(sent[-1])              # nothing known yet
    assert pong(client, 1000, 1300) is True               # 300 ms: slow, drawn
    assert client.rtt == 300 and client.slow
    client.ping(4000)
    assert json.loads(sent[-1])["rtt"] == 300
    assert pong(client, 4000, 4310) is False              # still slow: nothing to draw
    pong(client, 7000, 7290)
    pong(client, 10000, 10100)                            # one fast pong: the median 290
    assert client.rtt == 290 and client.slow
    pong(client, 13000, 13100)
    assert client.rtt == 100 and not client.slow          # below SLOW_OFF_MS: not slow
    pong(client, 16000, 18100)                            # one stall
    assert client.rtt == 100 and not client.slow


def test_a_reloaded_hosts_late_pongs_are_no_round_trips_and_never_make_the_link_slow():
    # A host reload: the guest's ping on its new connection waits in the host's starting
    # engine behind its rejoin; the host page answers it at once (a pong the unproven
    # connection ignores) and the engine answered it again a whole start later, after the
    # seat proof. Two reloads and the median was seconds: "your connection is slow" on
    # every guest, "slow connection" at their seats, for the next three pings.
    client, sent = seated_client()
    for t in (1000, 4000, 7000):
        pong(client, t, t + 20)
    assert client.rtt == 20
    now = 8000
    for _ in range(2):                                    # two reloads (the seat proof
        client.ping(now)                                  # aside): it waits with the rejoin
        assert client.receive(WELCOME, now + 1400)        # ... seated again
        pong(client, now, now + 1410)                     # the engine's late pong
        now += 3000
    assert client.rtt == 20 and not client.slow and client.view_lead == 0
    client.ping(now)
    assert json.loads(sent[-1])["rtt"] == 20
    pong(client, now, now + 30)
    pong(client, now, now + 2000)                         # a second pong for the same ping
    assert client.rtts == [20, 20, 30] and client.rtt == 20
    pong(client, now - 3000, now + 2100)                  # one for an older ping
    assert client.rtts == [20, 20, 30]


def test_a_views_countdowns_end_a_round_trip_sooner_on_a_guest_and_never_jump_meanwhile():
    client, sent = seated_client()
    assert client.view_lead == 0                          # no pong yet
    for t in (0, 3000, 6000):
        pong(client, t, t + 250)
    assert client.view_lead == 0                          # fixed for the view shown
    client.receive(view_text(2), 7000)
    assert client.view_lead == linkspeed.lead(250)
    pong(client, 9000, 9400)
    assert client.view_lead == linkspeed.lead(250)
    host = Client(lambda text: None, is_host=True)
    host.rtt = 250
    host.receive(view_text(1), 0)
    assert host.view_lead == 0                            # the host's own screen: none


def test_a_crisp_window_a_late_view_carries_ends_no_later_than_the_screen_showed():
    client, sent = seated_client()
    for t in (0, 3000, 6000):
        pong(client, t, t + 300)
    lead = linkspeed.lead(300)
    cw = {"seat": 1, "left": 3000}
    client.receive(view_text(2, crisp_window=cw, allowed=[{"do": "crisp"}]), 7000)
    assert client.view_lead == lead and client.crisp_end == 10000 - lead
    # the host's next view (1 s before the end) came 700 ms late: a lost packet sent again
    cw = {"seat": 1, "left": 1000}
    client.receive(view_text(3, crisp_window=cw, allowed=[{"do": "crisp"}]), 9700)
    assert client.crisp_end == 10000 - lead and client.view_lead == 9700 + 1000 - client.crisp_end
    # one that says the window ends sooner: sooner it is, with the link's own lead
    client.receive(view_text(4, crisp_window={"seat": 1, "left": 300}, allowed=[]), 9600)
    assert client.view_lead == lead and client.crisp_end == 9900 - lead
    client.receive(view_text(5), 10100)                   # the window over: a new one is new
    assert client.crisp_end is None and client.view_lead == lead
    client.receive(view_text(6, crisp_window={"seat": 1, "left": 3000}), 20000)
    assert client.view_lead == lead and client.crisp_end == 23000 - lead


def test_every_countdown_shown_ends_a_lead_sooner_the_crisp_bar_too():
    ctx = Ctx("en", now=0, elapsed=500)
    ctx.lead = 250
    assert ctx.left(3000) == 2250 and ctx.left(600) == 0 and ctx.left(None) is None
    m = table_model(3, seat=1, turn=2, crisp_window={"seat": 1, "left": 2600},
                    allowed=[{"do": "crisp"}])
    m.view_lead = 0
    tree, ctx = show(m, elapsed=1500)
    assert "2 s" in text_of(find(tree, "crisp"))          # 1.1 s left
    m.view_lead = 250
    tree, ctx = show_led(m, elapsed=1500)
    assert "1 s" in text_of(find(tree, "crisp"))          # 0.85 s left
    bar = find(tree, "crisp")
    assert "animation-delay:-650ms" in json.dumps(bar)    # the bar from 2350 ms, not 2600
    assert bar["attrs"]["data-ends"] == "850" and bar["attrs"].get("data-act")
    tree, ctx = show_led(m, elapsed=2400)                 # over here, 200 ms before the host
    assert find(tree, "crisp")["attrs"].get("disabled")   # no tap that would come too late
    assert "data-ends" not in find(tree, "crisp")["attrs"]
    timer = table_model(3, seat=1, turn=1, draw_left=30000,
                        options={"players": 3, "target": 100, "draw_seconds": 30,
                                 "draw_from_discard": False})
    timer.view_lead = 400
    tree, ctx = show_led(timer, elapsed=10000)
    assert find(tree, "turn-timer")["attrs"]["data-ms"] == "19600"
    # the start delay is the host's "not before": not shown sooner (the deck lights up when
    # the host's view of the start arrives, as it runs out here)
    ctx = Ctx("en", now=0, elapsed=1000)
    ctx.lead = 400
    assert ctx.left(2000, 1000, ahead=False) == 1000 and ctx.left(2000) == 600


def show_led(model, elapsed):
    """show(), with the model's view_lead as the render puts it on the Ctx (render.py)."""
    from ui.page.screens.screens import build
    from ui.page.screens.viewmodel import new_ui
    ctx = Ctx("en", now=0, elapsed=elapsed, base="http://x/")
    ctx.lead = model.view_lead
    return build(model, new_ui("en"), ctx), ctx


# ---- a tap shown taken ------------------------------------------------------------------

def test_a_tap_is_taken_until_the_next_view_an_error_or_the_timeout():
    client, sent = seated_client()
    client.act({"do": "draw", "from": "deck"}, 100)
    assert client.tapped == {"action": {"do": "draw", "from": "deck"}, "at": 100}
    assert json.loads(sent[-1])["action"] == {"do": "draw", "from": "deck"}
    assert client.tick(100 + taps.PENDING_MS - 1) is False
    client.receive(view_text(2), 300)                     # a view that moves nothing
    assert client.tapped is not None
    client.receive(view_text(3, DREW), 400)               # the room's answer
    assert client.tapped is None
    client.act({"do": "draw", "from": "deck"}, 500)
    assert client.receive(json.dumps({"type": "error", "v": 1, "code": "stale",
                                      "text": "x"}), 600) is True     # drawn settled
    assert client.tapped is None and client.error is None
    client.act({"do": "crisp"}, 700)
    client.receive(json.dumps({"type": "error", "v": 1, "code": "not_your_turn",
                               "text": "x"}), 800)
    assert client.tapped is None and client.error["code"] == "not_your_turn"   # why
    client.act({"do": "crisp"}, 1000)
    client.receive(json.dumps({"type": "pong", "v": 1, "t": 900}), 1100)
    client.receive(json.dumps({"type": "beat", "v": 1}), 1200)
    assert client.tapped is not None                      # a pong, a beat: no answer
    assert client.tick(1000 + taps.PENDING_MS) is True and client.tapped is None


def test_taps_decide_which_control_shows_taken_and_for_how_long():
    tapped = taps.taken({"do": "swap", "pos": "left"}, 1000)
    assert taps.is_tapped(tapped["action"], ("intent", "action", {"do": "swap", "pos": "left"}))
    assert not taps.is_tapped(tapped["action"], ("intent", "action", {"do": "swap",
                                                                      "pos": "right"}))
    assert not taps.is_tapped(None, ("intent", "action", {"do": "swap", "pos": "left"}))
    assert not taps.is_tapped(tapped["action"], ("local", "queen_start"))
    assert not taps.is_tapped(tapped["action"], None)
    ctx = Ctx("en", now=2000)
    assert taps.shown(tapped, ctx) == {"do": "swap", "pos": "left"}
    assert ctx.wake == 1000 + taps.PENDING_MS             # drawn settled then
    assert taps.shown(tapped, Ctx("en", now=1000 + taps.PENDING_MS)) is None
    assert taps.expired(tapped, 999) and not taps.expired(tapped, 1001)   # a clock set back
    assert taps.taken("draw", 0) is None and not taps.expired(None, 0)
    assert not taps.expired(taps.taken({"do": "ready"}, None), 10 ** 9)


def pending_ids(tree):
    from ui.page.dom.vdom import find_all
    return sorted(nd["attrs"].get("data-testid") for nd in find_all(
        tree, lambda nd: nd["attrs"].get("data-pending") == "true"))


def test_the_tapped_control_alone_is_drawn_taken_a_card_a_button_the_deck():
    m = table_model(3, seat=1, turn=1, held={"seat": 1, "card": "6d", "from": "deck"},
                    allowed=[{"do": "swap", "pos": ["left", "center", "right"]},
                             {"do": "discard"}])
    for action, testid in (({"do": "swap", "pos": "left"}, "card-1-left"),
                           ({"do": "discard"}, "discard-held")):
        m.tapped = taps.taken(action, 0)
        tree, ctx = show_tapped(m)
        assert pending_ids(tree) == [testid], (action, pending_ids(tree))
        node = find(tree, testid)
        assert node["attrs"]["aria-busy"] == "true" and "pending" in node["attrs"]["class"]
    m = table_model(3, seat=1, turn=1, allowed=[{"do": "draw"}])
    m.tapped = taps.taken({"do": "draw", "from": "deck"}, 0)
    tree, ctx = show_tapped(m)
    assert pending_ids(tree) == ["deck"]
    m.tapped = None
    tree, ctx = show_tapped(m)
    assert pending_ids(tree) == []


def show_tapped(model):
    """show(), with the model's tapped as the render puts it on the Ctx (render.py)."""
    from ui.page.screens.screens import build
    from ui.page.screens.viewmodel import new_ui
    ctx = Ctx("en", now=0, base="http://x/")
    ctx.tapped = taps.shown(getattr(model, "tapped", None), ctx)
    return build(model, new_ui("en"), ctx), ctx


# ---- a slow link said in words ----------------------------------------------------------

def test_a_slow_link_is_said_on_its_own_screen_and_at_its_seat_for_the_others():
    for lang in ("en", "es"):
        m = table_model(3, seat=1, turn=2)
        m.players[2]["slow"] = True                       # Cleo's link, as the room says
        m.slow = True                                     # and this page's own
        tree, ctx = show(m, lang=lang)
        assert text_of(find(tree, "slow-note")) == i18n.t(lang, "link_slow_me")
        assert text_of(find(tree, "slow-2")) == i18n.t(lang, "link_slow_seat")
        assert find(tree, "slow-0") is None and find(tree, "slow-1") is None
    assert i18n.t("es", "link_slow_me") != i18n.t("en", "link_slow_me")
    m = table_model(3, seat=0, turn=2)                    # the host's own screen
    m.slow = True
    m.players[1]["slow"] = True
    m.players[1]["connected"] = False                     # away says it all
    tree, ctx = show(m)
    assert find(tree, "slow-note") is None and find(tree, "slow-1") is None


# ---- the room ---------------------------------------------------------------------------

def test_the_room_tells_every_screen_when_a_seat_link_turns_slow_and_back():
    from roomnet import room_of_three
    net = room_of_three()
    net.host.host({"type": "start"})
    room = net.room

    def ping(rtt):
        before = len(net.received("b", "view"))
        net.raw("a", json.dumps({"type": "ping", "v": 1, "t": net.clock, "rtt": rtt}))
        return len(net.received("b", "view")) - before

    assert ping(100) == 0 and not room.seats[1].slow
    allowed_n = room.seats[1].allowed_n
    assert ping(SLOW_ON_MS + 30) == 1                     # every screen hears it once
    assert net.last("b", "view")["players"][1]["slow"] is True
    assert "slow" not in net.last("b", "view")["players"][2]
    assert room.seats[1].allowed_n == allowed_n           # no tap in flight goes stale
    assert ping(SLOW_OFF_MS + 10) == 0                    # hysteresis: still slow
    assert ping(SLOW_OFF_MS - 10) == 1
    assert "slow" not in net.last("b", "view")["players"][1]
    for bad in ("fast", -1, None, 10 ** 9, True):
        out = net.raw("a", json.dumps({"type": "ping", "v": 1, "t": 1, "rtt": bad}))
        assert [json.loads(t)["type"] for _, t in out] in (["pong"], ["error"])
        assert not room.seats[1].slow


def test_a_two_second_blackout_never_makes_a_seat_away():
    from roomnet import room_of_three
    from ui.page.net.link import HOST_GONE_MS, QUIET_MS
    from ui.worker.away import SILENT_MS
    assert SILENT_MS > 2000 + 3000 and QUIET_MS > 2000 + 1000 and HOST_GONE_MS > 2000
    net = room_of_three()
    net.host.host({"type": "start"})
    net.asleep.add("a")                                   # 2 s without a word from Ana
    net.later(2000)
    net.asleep.discard("a")
    net.later(3000)
    assert net.last("b", "view")["players"][1]["connected"] is True


def test_the_slow_link_tests_pass_on_micropython(tmp_path):
    import os

    from test_render_micropython import ROOT, run_tests_on_micropython, ui_files
    files = {"/tests/%s.py" % name: os.path.join(ROOT, "tests", name + ".py")
             for name in ("test_slow_link", "test_render_model")}
    files["/crisp_core/cards.py"] = os.path.join(ROOT, "crisp_core", "cards.py")
    files.update(ui_files("page", "shared"))
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_slow_link", files, CPYTHON_ONLY)
    assert failed == [], out
    assert ran == len([n for n in globals() if n.startswith("test_")]) - len(CPYTHON_ONLY), out
