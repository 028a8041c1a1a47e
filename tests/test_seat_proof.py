"""Posing as the host, and stealing seats, against the real room (ui/worker/room.py) and client
(ui/page/client/client.py): docs/protocol.md "Rejoining: the seat proof".

The attacks: a peer that registers the room id while the host is away (a reload, a closed
tab) gets a rejoining guest's join; it must learn nothing that takes that seat at the real
host, and it cannot make the guest take a table or a token from it.
"""

import json
import os

from roomnet import Net
from test_render_micropython import ROOT, run_tests_on_micropython
import test_proof
from ui.shared import proof
from ui.page.client.client import Client
from ui.worker.room import LOCAL


def lobby_of_two():
    net = Net()
    net.host.join("Hana")
    net.guest("a", "Ana")
    return net


def record_room_input(net):
    """Every text the room receives, by connection (what a peer put on the wire)."""
    seen = {}
    receive = net.room.receive

    def recording(conn, text, now):
        seen.setdefault(conn, []).append(text)
        return receive(conn, text, now)
    net.room.receive = recording
    return seen


def test_a_rejoin_never_puts_the_token_on_the_wire():
    net = lobby_of_two()
    token = net.clients["a"].token
    net.host.host({"type": "start"})
    net.close("a")
    seen = record_room_input(net)
    back = net.guest("a2", "Ana", token=token)
    assert back.seat == 1 and back.screen == "table" and back.token == token
    assert net.room.conns["a2"] == 1
    wire = seen["a2"] + net.inbox["a2"]
    assert [json.loads(t)["type"] for t in seen["a2"]] == ["join", "proof"]
    assert all(token not in text for text in wire), wire
    welcome = net.last("a2", "welcome")
    assert welcome == {"type": "welcome", "v": 1, "seat": 1, "room": "room-test", "host": 0,
                       "succession": net.room.succession}


def test_an_impostor_at_the_room_id_learns_nothing_that_takes_the_seat():
    """Mallory holds the room id while the host reloads. Ana's page rejoins to her; she
    answers as best she can (a challenge of her own), keeps everything Ana sent, and later
    replays it all to the real host from her own peer: no seat, no private view."""
    net = lobby_of_two()
    ana = net.clients["a"]
    token = ana.token
    net.host.host({"type": "start"})
    net.close("a")

    heard = []                                  # what Ana's page sends to the impostor
    page = Client(heard.append, nonce=lambda: os.urandom(16).hex())
    page.token, page.seat, page.screen, page.view = token, 1, "table", ana.view
    page.connected()
    page.join("Ana", token, room="room-test", peer="ana-peer")
    join = json.loads(heard[0])
    assert token not in heard[0]
    # the impostor's best try at a challenge: it does not know the token
    guess = "00" * 16
    page.receive(json.dumps({"type": "challenge", "v": 1, "nonce": "11" * 16,
                             "mac": proof.host_mac(guess, "room-test", "ana-peer",
                                                   join["seat_id"], join["nonce"],
                                                   "11" * 16)}), 5)
    assert page.suspect and heard == [heard[0]]      # Ana's page said nothing more
    assert page.token == token and page.view == ana.view

    # replayed to the real host from Mallory's own peer: a challenge, then nothing
    before = net.snapshot()
    net.room.open("mallory", net.clock, peer="mallory-peer")
    out = net.room.receive("mallory", heard[0], net.clock)
    challenge = json.loads(out[0][1])
    assert challenge["type"] == "challenge"
    # ... relayed to Ana's page (Mallory forwards it), which checks it against its own peer
    relay = Client(heard.append, nonce=lambda: join["nonce"])
    relay.token = token
    relay.connected()
    relay.join("Ana", token, room="room-test", peer="ana-peer")
    del heard[:]
    assert relay.receive(out[0][1], 6) is False and relay.suspect and heard == []
    # Mallory has no proof to give: every guess fails, and no view of seat 1 reaches her
    for mac in ("00" * 32, challenge["mac"], proof.guest_mac(
            guess, "room-test", "mallory-peer", join["seat_id"], join["nonce"],
            challenge["nonce"])):
        got = net.room.receive("mallory", json.dumps({"type": "proof", "v": 1, "mac": mac}),
                               net.clock)
        assert [json.loads(t).get("code") for _, t in got] in (["bad_proof"], ["not_joined"])
        net.room.receive("mallory", heard and heard[0] or json.dumps(join), net.clock)
    assert "mallory" not in net.room.conns
    assert net.snapshot() == before


def test_a_recorded_exchange_cannot_be_replayed():
    """Mallory records a whole rejoin (join and proof) and plays it again on a connection of
    her own: the host's nonce is new, the old proof is wrong."""
    net = lobby_of_two()
    token = net.clients["a"].token
    net.close("a")
    seen = record_room_input(net)
    net.guest("a2", "Ana", token=token)
    assert net.room.conns["a2"] == 1
    net.close("a2")
    net.room.open("m", net.clock, peer="peer-a2")          # even with Ana's peer id
    out = net.room.receive("m", seen["a2"][0], net.clock)
    assert json.loads(out[0][1])["type"] == "challenge"
    out = net.room.receive("m", seen["a2"][1], net.clock)
    assert [json.loads(t)["code"] for _, t in out] == ["bad_proof"]
    assert "m" not in net.room.conns


def test_proof_messages_are_checked():
    net = lobby_of_two()
    token = net.clients["a"].token
    sid = proof.seat_id(token)
    cases = [
        ({"type": "join", "v": 1, "name": "A", "seat_id": sid}, "bad_message"),
        ({"type": "join", "v": 1, "name": "A", "seat_id": sid, "nonce": "XY" * 16},
         "bad_message"),
        ({"type": "join", "v": 1, "name": "A", "seat_id": 5, "nonce": "ab" * 16},
         "bad_message"),
        ({"type": "join", "v": 1, "name": "A", "token": token}, "bad_message"),
        ({"type": "proof", "v": 1, "mac": "00" * 32}, "not_joined"),
        ({"type": "proof", "v": 1}, "bad_message"),
    ]
    for message, code in cases:
        out = net.raw("x", json.dumps(message))
        assert [json.loads(t)["code"] for _, t in out] == [code], message
    # a seated connection asking to prove a seat: already joined
    out = net.raw("a", json.dumps({"type": "join", "v": 1, "name": "A", "seat_id": sid,
                                   "nonce": "ab" * 16}))
    assert [json.loads(t)["code"] for _, t in out] == ["already_joined"]
    # the host's screen never proves anything
    out = net.raw(LOCAL, json.dumps({"type": "join", "v": 1, "name": "H", "seat_id": sid,
                                     "nonce": "ab" * 16}))
    assert [json.loads(t)["code"] for _, t in out] == ["bad_message"]


def test_seats_moved_in_the_lobby_are_told_without_their_token():
    net = Net()
    net.host.join("Hana")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    token = net.clients["b"].token
    net.host.host({"type": "remove", "seat": 1})
    welcome = net.last("b", "welcome")
    assert welcome == {"type": "welcome", "v": 1, "seat": 1, "room": "room-test", "host": 0,
                       "succession": net.room.succession}
    assert net.clients["b"].token == token and net.clients["b"].seat == 1


def test_a_stand_in_stops_when_its_person_proves_the_seat():
    from test_room import FirstLegalBot
    net = Net(make_bot=FirstLegalBot)
    net.host.join("Hana")
    net.guest("a", "Ana")
    token = net.clients["a"].token
    net.host.host({"type": "start"})
    net.close("a")
    net.host.host({"type": "stand_in", "seat": 1, "level": "easy"})
    assert net.room.seats[1].stand_in == "easy"
    net.guest("a2", "Ana", token=token)
    assert net.room.seats[1].stand_in is None and net.room.conns["a2"] == 1


def test_the_guest_side_of_the_proof_runs_on_micropython(tmp_path):
    files = {"/tests/test_proof.py": os.path.join(ROOT, "tests", "test_proof.py")}
    from test_render_micropython import ui_files
    files.update(ui_files("page", "shared"))
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_proof", files)
    assert failed == [], out
    assert ran == len([n for n in dir(test_proof) if n.startswith("test_")]), out
