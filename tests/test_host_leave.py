"""The host's player leaves mid-game through its menu (docs/protocol.md "Leaving", "Host
handover"): the menu says what will happen, the room seals itself as it stands and hands its
own share to the designated successor alone, so that the round goes on where it stopped even
with one person left, and every page tells it as a leave. And the attacks: a `host_leaving`
from an unproven peer, a share for another box, a guest posing as the host, a share to
anyone but the successor."""

import json

from ui.page.i18n import i18n
from ui.page.client.client import Client
from ui.page.client.client_handover import box_left
from ui.shared.handover import Handover
from ui.worker.room import LOCAL

from test_render_model import show, table_model
from test_takeover import Takeover_, msg, playing, sealed
from ui.page.dom.vdom import find, text_of
from ui.page.screens.viewmodel import new_ui


def leaving(net):
    """The host's screen leaves (its menu's Leave): what each connection got."""
    before = {c: len(net.inbox.get(c, [])) for c in net.clients}
    net.host.leave()
    return {c: [json.loads(t) for t in net.inbox.get(c, [])[before[c]:]] for c in net.clients}


def test_a_host_leaving_with_one_person_left_hands_over_the_round_where_it_stopped():
    net = playing(("Ana",), bots=1)            # the host, Ana, a hard bot
    ana = net.clients["g1"]
    assert ana.sealed is None                  # one holder: nothing sealed while played
    hands, scores = [list(h) for h in net.room.game.hands], list(net.room.game.scores)
    got = leaving(net)
    kinds = [m["type"] for m in got["g1"]]
    assert kinds == ["sealed", "host_leaving"], kinds
    assert ana.host_leaving and isinstance(ana.sealed.get("left"), str)
    take = Takeover_(net)
    assert take.last.get("handover") == "sealed", take.last.get("handover")
    room = take.engine.room
    assert room.host == 1 and [list(h) for h in room.game.hands] == hands
    assert room.game.scores == scores
    # no box after the leave: the successor's is the last
    net.later(3000)
    assert not net.room.seal_due(net.clock) and net.room.seal_out(net.clock) == []


def test_only_the_designated_successor_gets_the_hosts_share_never_a_spectator():
    net = playing(("Ana", "Bea"), bots=0)
    net.deliver(net.room.open("w", net.clock, peer="peer-w"))
    spectator = net._client("w")
    spectator.connected()
    spectator.watch()
    got = leaving(net)
    lead = [m for m in got["g1"] if m["type"] == "host_leaving"]
    other = [m for m in got["g2"] if m["type"] == "host_leaving"]
    seen = [m for m in got["w"] if m["type"] == "host_leaving"]
    assert lead and "share" in lead[0] and lead[0]["n"] == net.clients["g1"].sealed["box"]["n"]
    assert other and "share" not in other[0] and seen and "share" not in seen[0]
    assert "left" not in net.clients["g2"].sealed
    # Bea's page (not the successor) alone cannot open the box: its plan keeps one share
    bea = net.clients["g2"]
    plan = Handover(net.room.room_id, bea.seat, bea.players, 0, bea.sealed, 1, bea.succession)
    assert plan.role == "guest" and plan.shares == []
    # Ana's engine opens it at once, with Bea's share not needed
    take = Takeover_(net)
    assert take.last.get("handover") == "sealed"
    assert take.engine.room.game.hands == net.room.game.hands


def test_a_host_leaving_from_an_unproven_peer_or_for_another_box_changes_nothing():
    # a stranger at the room id, before it proved itself the host: nothing taken
    c = Client(lambda t: None, nonce=lambda: "0" * 32)
    c.connected()
    c.join("Ana", "a" * 32, room="room-x", peer="peer-a")
    assert not c.trusted
    c.receive(msg("host_leaving", host=0, n=1, share="1:ff"), 100)
    assert not c.host_leaving and c.sealed is None
    # proven host, but a share for a box this page does not hold: the box stays as it was
    box = {"box": {"n": 4}, "share": "2:aa", "host": 0, "keys": {}, "at": 0}
    assert box_left(box, {"n": 3, "share": "1:ff"}) is box
    assert box_left(box, {"n": 4, "share": 7}) is box
    assert box_left(box, {"n": 4, "share": "x" * 201}) is box
    assert box_left(None, {"n": 4, "share": "1:ff"}) is None
    assert box_left(box, {"n": 4, "share": "1:ff"})["left"] == "1:ff"


def test_a_guest_cannot_say_the_host_leaves_nor_give_the_successor_a_share():
    net = playing(("Ana", "Bea"), bots=0)
    sealed(net)
    ana = net.clients["g1"]
    n = ana.sealed["box"]["n"]
    # Bea sends the room a host_leaving of her own: refused, relayed to nobody
    before = len(net.inbox["g1"])
    out = net.raw("g2", msg("host_leaving", host=0, n=n, share="1:ff"))
    assert [json.loads(t)["type"] for _, t in out] == ["error"]
    assert not ana.host_leaving and len(net.inbox["g1"]) == before
    # Bea's `leave` is a guest's: a bot takes her seat, nobody hands the room over
    net.raw("g2", msg("leave"))
    assert not ana.host_leaving and net.room.host == 0
    # a false share from the leave (a page that made one up) opens nothing: the successor
    # falls back to its own share and the holders', as when the host goes silent
    plan = Handover(net.room.room_id, ana.seat, ana.players, 0,
                    dict(ana.sealed, left="1:" + "0" * 40), 1, ana.succession)
    from ui.shared import seal
    assert plan.opened(seal.open_room) is None


def test_the_hosts_leave_question_says_what_will_happen():
    m = table_model(3, seat=0)                   # Ana hosts, Bob and Cleo play
    ui = new_ui("en")
    ui["menu_open"] = ui["leave_ask"] = True
    for lang in ("es", "en"):
        ui["lang"] = lang
        tree, ctx = show(m, ui, lang)
        said = text_of(find(tree, "menu-panel"))
        assert i18n.t(lang, "leave_ask_host_next", name="Bob") in said, said
        assert i18n.t(lang, "leave_ask_host") not in said
    m.players = [dict(p, connected=p["seat"] == 0) for p in m.players]   # nobody else here
    tree, ctx = show(m, ui, "en")
    assert i18n.t("en", "leave_ask_host_end") in text_of(find(tree, "menu-panel"))


def test_a_deliberate_leave_is_told_as_one_on_every_page():
    for me in (False, True):
        c = Client(lambda t: None)
        c.players = [{"seat": 0, "name": "Fay", "connected": True},
                     {"seat": 1, "name": "Eva", "connected": True},
                     {"seat": 2, "name": "Gus", "connected": True}]
        c.host_seat, c.seat, c.screen = 0, 1 if me else 2, "table"
        c.trusted = True
        c._on_host_leaving({"type": "host_leaving", "host": 0}, 10)
        c.leave_heard()
        c.hand_over_to(1, "Eva", me=me)
        assert c.handover["left"] == 0
        c.set_handover(None, 100)
        assert c.new_host["left"] == 0
        for lang in ("es", "en"):
            from ui.page.screens.banner import new_host_note
            from ui.page.screens.viewmodel import Ctx
            ctx = Ctx(lang, now=200)
            said = text_of(new_host_note(c, ctx))
            key = "new_host_left_me" if me else "new_host_left_other"
            assert said == i18n.t(lang, key, old="\u2068Fay\u2069", name="\u2068Eva\u2069") \
                or said.replace("\u2068", "").replace("\u2069", "") == \
                i18n.t(lang, key, old="Fay", name="Eva"), said
    # a host that went silent (no host_leaving) is not told as a leave
    c = Client(lambda t: None)
    c.players = [{"seat": 0, "name": "Fay"}, {"seat": 1, "name": "Eva"}]
    c.host_seat, c.seat = 0, 1
    c.hand_over_to(1, me=True)
    assert c.handover.get("left") is None
