"""The guided first round (ui/page/guided.py, crisp_core/guided.py): the stacked deal makes
every step come up when the player follows the tips, the tip for each view, the landing's
offer and the skip. The round is played through the real room with its real easy bots."""

import pytest

from crisp_core import Game, guided as deal
from crisp_core.cards import stacked_deck
from roomnet import Net
from ui.page import guided
from ui.page.i18n import i18n
from ui.page.screens.guided_screens import offer_box, tip
from ui.page.screens.intents import local_tap
from ui.page.screens.viewmodel import Ctx, new_ui
from ui.worker.room import LOCAL, bot_maker

ALL_STEPS = ("peek", "draw", "swap", "jack", "queen", "queen_own", "queen_target", "king",
             "extra_draw", "crisp", "called", "reveal")


def test_the_guided_deck_deals_the_planned_hands_and_is_a_valid_stack():
    cards = deal.deck()
    game = Game.new({"players": 3, "target": 50}, seed=1, deck=cards, dealer=0, now=0)
    assert [list(h) for h in game.hands] == [list(h) for h in deal.HANDS]
    assert len(set(cards)) == len(cards)


def allowed(view):
    return {a["do"]: a for a in view.get("allowed") or []}


def follow_the_tips(net, ui, seen):
    """The player does what the tip says (ui/page/guided.py): returns False when there is
    nothing to do now."""
    view = net.host.view
    key = guided.step(view, ui)
    if key is not None and (not seen or seen[-1] != key):
        seen.append(key)
    can = allowed(view or {})
    held = (view or {}).get("held") or {}
    if key == "peek":
        net.act(LOCAL, {"do": "ready"})
    elif key in ("draw", "extra_draw"):
        net.act(LOCAL, {"do": "draw", "from": "deck"})
    elif key == "swap":
        card = held["card"]
        if card[0] in "A23" and "swap" in can:
            # the known high card: the left 9 first, then the center (the Queen gave the
            # 8 away for an unknown card), then the right 4
            pos = ("left", "center", "right")[len(ui["swapped"])]
            ui["swapped"].append(pos)
            net.act(LOCAL, {"do": "swap", "pos": pos})
        else:
            net.act(LOCAL, {"do": "discard"})
    elif key in ("jack", "king"):
        net.act(LOCAL, {"do": key})
    elif key == "queen":
        local_tap(ui, "queen_start", None, 0)
    elif key == "queen_own":
        local_tap(ui, "queen_pos", "center", 0)
    elif key == "queen_target":
        ui["queen"] = None
        net.act(LOCAL, {"do": "queen", "pos": "center", "target": 1, "target_pos": "left"})
    elif key == "crisp" and "crisp" in can and len(ui["swapped"]) == 3:
        net.act(LOCAL, {"do": "crisp"})
    else:
        return False
    return True


def test_following_the_tips_the_guided_round_shows_every_step_and_the_player_wins_the_call():
    net = Net(deck=deal.deck(), make_bot=bot_maker(3, 0.05), host="Sol")
    net.host.join("Sol")
    for msg in [{"type": "add_bot", "level": guided.SOLO["level"]}] * guided.SOLO["bots"]:
        net.host.host(msg)
    net.host.host({"type": "start"})
    ui = {"queen": None, "swapped": []}
    seen = []
    for _ in range(5000):
        if net.host.view and net.host.view["phase"] == "round_over":
            break
        if not follow_the_tips(net, ui, seen):
            net.later(100)
    follow_the_tips(net, ui, seen)
    view = net.host.view
    assert view["phase"] == "round_over", seen
    order = [s for s in seen if s in ALL_STEPS]
    assert order == ["peek", "draw", "swap", "crisp", "draw", "jack", "crisp", "draw",
                     "queen", "queen_own", "queen_target", "crisp", "draw", "king",
                     "extra_draw", "swap", "extra_draw", "swap", "crisp", "called",
                     "reveal"], seen
    assert "wait" in seen
    assert view["caller"] == 0
    totals = [sum(min(10, "A23456789TJQK".index(c[0]) + 1) for c in hand)
              for hand in view["hands"]]
    assert totals[0] < min(totals[1:]), (totals, view["hands"])
    # after the first round, no more tips: the guide is over
    assert guided.step(dict(view, round=2), ui) is None


def view(**kw):
    base = {"seat": 0, "round": 1, "phase": "play", "turn": 1, "allowed": [], "held": None,
            "pending_draws": 0, "caller": None}
    base.update(kw)
    return base


@pytest.mark.parametrize("v, ui, key", [
    (view(phase="peek", allowed=[{"do": "ready"}]), None, "peek"),
    (view(phase="peek"), None, "wait"),
    (view(turn=0, allowed=[{"do": "draw", "from": ["deck"]}]), None, "draw"),
    # my turn in R10.1's wait (the deck does not answer yet): said so, not "the others play"
    (view(turn=0, start_in=1900), None, "soon"),
    (view(turn=0, start_in=1900, phase="last_turns", caller=2), None, "soon"),
    (view(turn=0, pending_draws=1, allowed=[{"do": "draw", "from": ["deck"]}]), None,
     "extra_draw"),
    (view(turn=0, held={"seat": 0, "card": "5h"}, allowed=[{"do": "discard"}]), None, "swap"),
    (view(turn=0, held={"seat": 0, "card": "Jd"}, allowed=[{"do": "jack"}]), None, "jack"),
    (view(turn=0, held={"seat": 0, "card": "Kd"}, allowed=[{"do": "king"}]), None, "king"),
    (view(turn=0, held={"seat": 0, "card": "Qd"}, allowed=[{"do": "queen"}]), None, "queen"),
    (view(turn=0, held={"seat": 0, "card": "Qd"}), {"queen": {"pos": None}}, "queen_own"),
    (view(turn=0, held={"seat": 0, "card": "Qd"}), {"queen": {"pos": "left"}}, "queen_target"),
    (view(turn=0, held={"seat": 0, "card": "Jd"}, allowed=[{"do": "discard"}]), None, "swap"),
    (view(turn=1, allowed=[{"do": "crisp"}]), None, "crisp"),
    (view(turn=1, held={"seat": 1, "card": None}), None, "wait"),
    (view(phase="last_turns", caller=0, turn=1), None, "called"),
    (view(phase="last_turns", caller=2, turn=1), None, "last_turns"),
    (view(phase="round_over"), None, "reveal"),
    (view(phase="game_over"), None, "reveal"),
    (view(phase="round_over", round=2), None, None),
    (view(seat=None), None, None),
    (None, None, None),
    ("junk", None, None),
])
def test_the_tip_for_each_moment(v, ui, key):
    assert guided.step(v, ui) == key


def test_every_step_has_a_tip_in_both_languages():
    for lang in ("es", "en"):
        for key in guided.STEPS:
            assert i18n.has(lang, "guide_" + key), (lang, key)
    assert i18n.t("es", "guide_peek") != i18n.t("en", "guide_peek")


class Model:
    def __init__(self, **kw):
        self.screen = "landing"
        self.resume = None
        self.view = None
        self.__dict__.update(kw)


def find(node, testid):
    if isinstance(node, dict):
        attrs = node.get("attrs") or node.get("a") or {}
    else:
        attrs = getattr(node, "attrs", None) or getattr(node, "props", None) or {}
    if isinstance(attrs, dict) and attrs.get("data-testid") == testid:
        return node
    kids = (node.get("children") or node.get("kids")) if isinstance(node, dict) \
        else getattr(node, "children", None)
    for kid in kids or []:
        found = find(kid, testid)
        if found is not None:
            return found
    return None


def test_the_landing_offers_the_guided_round_on_a_first_visit_only():
    assert guided.offer(None) and guided.offer("") and guided.offer("junk")
    assert not guided.offer("seen") and not guided.offer("skipped")
    assert not guided.offer(None, "Sol")           # a name kept: played here before
    ui = new_ui("en", "")
    ctx = Ctx("en", 0)
    assert offer_box(Model(), ui, ctx) is None             # not offered unless first visit
    ui["guided_offer"] = True
    assert offer_box(Model(), ui, ctx) is not None
    assert offer_box(Model(resume={"room_id": "x"}), ui, ctx) is None   # a saved game first


def test_the_guided_tap_starts_solo_against_two_easy_bots_without_a_name_and_skip_stops_tips():
    ui = new_ui("es", "")
    ui["guided_offer"] = True
    out = local_tap(ui, "guided_play", None, 0)
    assert out == [("play_guided", {"name": "T\u00fa", "bots": 2, "level": "easy",
                                    "target": 50})]
    assert ui["guided"] is True and ui["guided_offer"] is False
    ctx = Ctx("es", 0)
    table = Model(screen="table", view=view(phase="peek", allowed=[{"do": "ready"}]))
    assert tip(table, ui, ctx) is not None
    assert local_tap(ui, "guided_skip", None, 0) == [("guided_skip", None)]
    assert ui["guided"] is False
    assert tip(table, ui, ctx) is None
    ui["name"] = "Sol"
    assert local_tap(ui, "guided_play", None, 0)[0][1]["name"] == "Sol"


def test_the_stacked_deal_is_the_first_rounds_only_and_a_save_keeps_that():
    import json
    from ui.worker.engine import Engine

    def ask(engine, **request):
        return json.loads(engine.handle(json.dumps(request)))

    def join_and_start(engine):
        ask(engine, op="receive", conn="local", now=10,
            text=json.dumps({"type": "join", "v": 1, "name": "Sol"}))
        for _ in range(2):
            ask(engine, op="receive", conn="local", now=20,
                text=json.dumps({"type": "add_bot", "v": 1, "level": "easy"}))
        return ask(engine, op="receive", conn="local", now=30,
                   text=json.dumps({"type": "start", "v": 1}))

    room_id = "crisp-" + "c" * 32
    engine = Engine()
    ask(engine, op="create", room_id=room_id, name="Sol", seed=5, deck=deal.deck(),
        deck_once=True, pace=0.1, now=0)
    assert engine.room.deck_once is True
    saved = json.loads(json.dumps(engine.room.to_dict()))
    again = Engine()                                   # reloaded before the start: kept
    assert ask(again, op="restore", saved=saved, pace=0.1, now=5)["op"] == "out"
    assert again.room.deck_once is True
    reply = join_and_start(engine)
    assert json.loads(reply["save"])["deck"] is None
    game = engine.room.game
    assert [list(h) for h in game.hands] == [list(h) for h in deal.HANDS]
    assert game.stack is None and engine.room.deck is None and not engine.room.deck_once
    # a plain stacked deck (a test build's ?deck=) stays on every round, as before
    plain = Engine()
    ask(plain, op="create", room_id=room_id, name="Sol", seed=5, deck=deal.deck(), pace=0.1,
        now=0)
    join_and_start(plain)
    assert plain.room.game.stack == deal.deck()


def guided_net(guided_room=True):
    """The guided round's room (`guided_room`: as the landing's offer makes it) up to the
    first crisp window of the player's, who followed the tips: (net, ui)."""
    net = Net(deck=deal.deck(), make_bot=bot_maker(3, 0.05), host="Sol")
    net.room.guided = guided_room
    net.host.join("Sol")
    for msg in [{"type": "add_bot", "level": guided.SOLO["level"]}] * guided.SOLO["bots"]:
        net.host.host(msg)
    net.host.host({"type": "start"})
    ui = {"queen": None, "swapped": []}
    for _ in range(500):
        if guided.step(net.host.view, ui) == "crisp":
            return net, ui
        if not follow_the_tips(net, ui, []):
            net.later(100)
    raise AssertionError("no crisp window")


def test_a_guided_window_waits_for_its_tip_and_play_on_ends_it():
    net, ui = guided_net()
    net.later(20000)                       # far past R10.1's 3 s: still open, nobody began
    view = net.host.view
    assert "crisp" in allowed(view) and view["turn"] == 1
    assert view["crisp_window"]["left"] > 5000
    assert not [e for e in net.room.game.journal if e[0] > net.clock - 20000]
    net.host.host({"type": "guide_read"})   # "play on": the player will not call
    assert net.host.error is None
    assert "crisp" not in allowed(net.host.view) and net.room.game.window is None
    net.later(5000)
    assert net.host.view["turn"] != 1 or net.host.view.get("held")    # the bot has played on
    assert guided.step(net.host.view, ui) is not None


def test_an_unheld_window_keeps_r10_1_and_a_guest_may_not_end_one():
    net, _ = guided_net(guided_room=False)   # any other room: the 3 s of R10.1
    net.later(3500)
    assert "crisp" not in allowed(net.host.view)
    net, _ = guided_net()
    game = net.room.game
    end = game.window[1]
    net.host.host({"type": "guide_read"})
    net.host.host({"type": "guide_read"})    # twice: the second finds nothing to end
    assert net.host.error is None and game.window is None
    assert end - net.clock > 20000
    out = net.room.receive("peer-x", '{"type": "guide_read", "v": 1}', net.clock)
    assert "not_host" in out[0][1]


MINE = [{"type": "play", "turn": 1}, {"type": "turn", "seat": 0},
        {"type": "draw", "seat": 0, "from": "deck"}, {"type": "swap", "seat": 0, "pos": "left",
                                                      "card": "9h"},
        {"type": "turn", "seat": 1}]


@pytest.mark.parametrize("log, v, key", [
    (MINE, view(), "missed"),                                   # the window closed, no call
    (MINE + [{"type": "draw", "seat": 1, "from": "deck"}, {"type": "discard", "seat": 1,
                                                            "card": "7s"},
             {"type": "turn", "seat": 2}], view(turn=2), "missed"),   # until my next turn
    (MINE[:1], view(), "wait"),                                 # before my first turn
    (MINE, view(allowed=[{"do": "crisp"}]), "crisp"),           # still open
    (MINE + [{"type": "crisp", "seat": 0}], view(phase="last_turns", caller=0), "called"),
    (MINE[:-1] + [{"type": "timeout", "seat": 0, "card": None, "forced": False, "lost": 0},
                  {"type": "turn", "seat": 1}], view(), "wait"),   # a timeout opens none
    (MINE + [{"type": "turn", "seat": 0}], view(turn=0, start_in=900), "soon"),
])
def test_a_window_that_closed_with_no_call_is_told(log, v, key):
    assert guided.step(v, None, log) == key


def test_the_crisp_tip_says_the_stake_and_offers_play_on_in_both_languages():
    for lang, stake in (("en", "5 points off"), ("es", "restas 5 puntos")):
        ui = new_ui(lang, "")
        ui["guided"] = True
        ctx = Ctx(lang, 0)
        node = tip(Model(screen="table", view=view(allowed=[{"do": "crisp"}]), log=MINE),
                   ui, ctx)
        text = i18n.t(lang, "guide_crisp")
        assert stake in text and "3" not in text            # no 3 s: the window waits
        assert find(node, "guide-read") is not None
        node = tip(Model(screen="table", view=view(), log=MINE), ui, ctx)
        assert find(node, "guide-read") is None
    from ui.page.room_commands import host_message
    assert host_message("guide_read", {}) == {"type": "guide_read"}
