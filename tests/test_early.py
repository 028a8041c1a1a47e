"""ui/page/early.py: what a host page answers its guests itself while its engine starts
(issue 22 item 2)."""

import json

from ui.page import early


def test_a_ping_gets_its_pong_at_once_and_a_joined_guest_hears_the_table_is_coming():
    ping = json.dumps({"type": "ping", "v": 1, "t": 1234})
    assert [json.loads(t) for t in early.answer(ping, "Hana")] == [
        {"type": "pong", "v": 1, "t": 1234}]
    assert [json.loads(t) for t in early.answer(ping, "Hana", joined=True)] == [
        {"type": "pong", "v": 1, "t": 1234},
        {"type": "setup", "v": 1, "host": "Hana", "back": False}]


def test_a_join_is_told_the_host_is_setting_up_the_table():
    join = json.dumps({"type": "join", "v": 1, "name": "Gina"})
    assert [json.loads(t) for t in early.answer(join, "Hana")] == [
        {"type": "setup", "v": 1, "host": "Hana", "back": False}]
    # a reloaded host resuming its room: "Hana is back, setting up"
    assert json.loads(early.answer(join, "Hana", back=True)[0])["back"] is True


def test_anything_else_or_garbage_gets_nothing_from_the_page():
    for text in ("", "not json", "[1, 2]", json.dumps({"type": "action", "v": 1}),
                 json.dumps({"type": "ping", "v": 1, "t": "x"}),
                 json.dumps({"type": "ping", "v": 1, "t": True}), None, 7):
        assert early.answer(text, "Hana") == []


def test_the_lobby_shows_an_arriving_friend_by_the_name_the_join_gives():
    assert early.arriving(json.dumps({"type": "join", "v": 1, "name": "  Gina  Lee "})) \
        == "Gina Lee"
    assert early.arriving(json.dumps({"type": "join", "v": 1, "name": "x" * 99})) == "x" * 20
    for text in (json.dumps({"type": "join", "v": 1, "name": 5}), json.dumps({"type": "ping"}),
                 "{", json.dumps({"type": "join", "v": 1, "name": "   "})):
        assert early.arriving(text) is None


def _client():
    import os
    from ui.page.client import Client
    return Client(lambda text: None, nonce=lambda: os.urandom(16).hex())


def test_a_guest_keeps_the_setup_for_its_banner_until_the_room_seats_it():
    client = _client()
    client.join("Gina")
    client.receive(early.answer(json.dumps({"type": "join", "v": 1, "name": "Gina"}),
                                "Hana")[0], 0)
    assert client.last_type == "setup" and client.setup == {"host": "Hana", "back": False}
    client.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "a" * 32,
                               "room": "r"}), 10)
    assert client.setup is None and client.seat == 1


def test_a_rejoining_guest_takes_setup_for_no_impostor_and_names_the_host_it_knows():
    client = _client()
    client.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "a" * 32,
                               "room": "crisp-r"}), 0)
    client.receive(json.dumps({"type": "lobby", "v": 1, "host": 0, "started": False,
                               "players": [{"seat": 0, "name": "Hana"},
                                           {"seat": 1, "name": "Gina"}]}), 1)
    client.join("Gina", "a" * 32, room="crisp-r", peer="p")     # a rejoin: proof first
    assert not client.trusted
    client.receive(early.answer(json.dumps({"type": "join", "v": 1, "name": "Gina"}),
                                "Mallory", back=True)[0], 2)
    assert not client.suspect and not client.trusted
    assert client.setup == {"host": "Hana", "back": True}
