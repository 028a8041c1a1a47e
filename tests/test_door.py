"""The room's first link after a host handover (ui/shared/door.py, docs/protocol.md "The
first link after a handover"): the first host's PeerJS token goes to whoever opens the
sealed box, never anywhere else; the new host's engine names the door it keeps; a page that
dialed the first id goes only forward along its own room's ids."""

import json

from test_takeover import Takeover_, holder_flow, playing, sealed

from ui.shared import door, handover
from ui.shared.wire import encode, message
from ui.worker.engine import Engine
from ui.worker.room import Room

TOKEN = "ab" * 16
SECRET = "cd" * 16
FIRST = "crisp-761GX5WCGD"
MOVED = handover.room_id_after(FIRST, 1, SECRET)


def elsewhere(room, **extra):
    return dict(json.loads(door.elsewhere_text(room)), **extra)


def test_a_door_names_only_a_later_id_of_the_same_room():
    assert door.check_elsewhere(elsewhere(MOVED), FIRST) == MOVED
    later = handover.room_id_after(FIRST, 2, SECRET)
    assert door.check_elsewhere(elsewhere(later), MOVED) == later
    other = handover.room_id_after("crisp-0000000000", 1, SECRET)
    for bad in [elsewhere(other), elsewhere(FIRST), elsewhere(MOVED, extra=1),
                elsewhere("crisp-761GX5WCGD-h1-nothex"), elsewhere(MOVED, v=2),
                elsewhere("https://evil.example/"), {"type": "elsewhere", "v": 1},
                elsewhere(handover.room_id_after(FIRST, 1, SECRET)[:-1]), None, [], "x"]:
        assert door.check_elsewhere(bad, FIRST) is None, bad
    # never back: from the h1 id, the first id or h1 itself is refused
    assert door.check_elsewhere(elsewhere(MOVED), MOVED) is None
    assert door.check_elsewhere(elsewhere(MOVED), later) is None


def test_a_door_is_claimed_only_away_from_the_first_id_with_a_token():
    assert door.door_claim(MOVED, TOKEN) == [FIRST, TOKEN]
    assert door.door_claim(FIRST, TOKEN) is None           # its host holds the id itself
    for token in (None, "", "AB" * 16, "ab" * 15, 5):
        assert door.door_claim(MOVED, token) is None


def test_the_engine_keeps_the_door_token_in_the_save_and_names_no_door_at_the_first_id():
    engine = Engine()
    reply = json.loads(engine.handle(json.dumps({"op": "create", "room_id": FIRST,
                                                 "name": "Hana", "now": 0, "door": TOKEN})))
    assert "door" not in reply                             # the first host holds the id
    saved = json.loads(reply["save"])
    assert saved["door"] == TOKEN
    assert Room.from_dict(saved).door == TOKEN
    for bad in ("x", "AB" * 16, 7):
        try:
            Room.from_dict(dict(saved, door=bad))
        except ValueError:
            continue
        raise AssertionError("a save with door %r loaded" % (bad,))
    reply = json.loads(Engine().handle(json.dumps({"op": "create", "room_id": FIRST,
                                                   "name": "Hana", "now": 0, "door": "x"})))
    assert json.loads(reply["save"])["door"] is None      # junk is no token


def test_the_door_token_reaches_the_successor_through_the_box_only():
    net = playing()
    net.room.door = TOKEN
    sealed(net)
    # never in a message any page can read: only inside the box (ciphertext)
    for conn, client in net.clients.items():
        assert TOKEN not in json.dumps(client.standby or {})
    take = Takeover_(net)
    share, reply = holder_flow(take, net, "g2", "peer-b")
    assert reply["handover"] == "sealed"
    assert reply["door"] == [net.room.room_id, TOKEN]
    assert take.engine.room.door == TOKEN
    assert take.request({"op": "tick", "now": 10})["door"] == [door.first_id(
        take.spec["new_id"]), TOKEN]


def test_a_room_rebuilt_without_the_box_keeps_no_door():
    net = playing(("Ana",), bots=1)
    net.room.door = TOKEN
    net.deliver(net.room.standby_out())
    ana = net.clients["g1"]
    players = [dict(p, connected=(p["seat"] != 0)) for p in ana.players]
    take = Takeover_(net, players=players)
    assert take.last.get("handover") == "public" and "door" not in take.last
    assert TOKEN not in json.dumps(ana.standby)


def test_the_elsewhere_message_is_declared():
    assert door.check_elsewhere(json.loads(encode(message("elsewhere", room=MOVED))),
                                FIRST) == MOVED
