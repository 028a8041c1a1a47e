"""ui/page/host/early.py: what a host page answers its guests itself while its engine starts
(issue 22 item 2)."""

import json

from ui.page.host import early


def test_a_ping_gets_its_pong_at_once_and_a_joined_guest_hears_the_table_is_coming():
    ping = json.dumps({"type": "ping", "v": 1, "t": 1234})
    assert [json.loads(t) for t in early.answer(ping, "Hana")] == [
        {"type": "pong", "v": 1, "t": 1234},
        {"type": "setup", "v": 1, "host": "Hana", "back": False}]
    assert [json.loads(t) for t in early.answer(ping, "Hana", joined=True)] == [
        {"type": "pong", "v": 1, "t": 1234},
        {"type": "setup", "v": 1, "host": "Hana", "back": False}]


def test_a_ping_the_page_answered_goes_no_further_and_everything_else_goes_on():
    # the engine's own pong, a whole engine start later, would be a second answer that the
    # guest takes for its link's round trip (seconds: "your connection is slow")
    assert early.answered(json.dumps({"type": "ping", "v": 1, "t": 1234, "rtt": 40}))
    for text in (json.dumps({"type": "join", "v": 1, "name": "Gina"}),
                 json.dumps({"type": "proof", "v": 1, "mac": "0" * 64}),
                 json.dumps({"type": "ping", "v": 1, "t": True}),
                 json.dumps({"type": "ping", "v": 1}), "not json", "[1]", None):
        assert not early.answered(text), text


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
    from ui.page.client.client import Client
    return Client(lambda text: None, nonce=lambda: os.urandom(16).hex())


def _setup(name, back=False):
    join = json.dumps({"type": "join", "v": 1, "name": "Gina"})
    return early.setup_of(early.answer(join, name, back)[0])


def test_a_guest_waits_on_its_connection_and_its_banner_names_the_host():
    from ui.page.net.link import ATTEMPT_MS, Link
    client, link = _client(), Link(0)
    link.connecting(0)
    link.opened(10)
    client.join("Gina")
    link.joining(20)
    for now in range(1000, 30000, 3000):       # the host's page answers every ping with setup
        early.wait_on(client, link, _setup("Hana"), now)
        assert "drop" not in link.step(now + 100)
    assert now + 100 - 20 > ATTEMPT_MS          # well past the wait for a welcome
    assert client.setup == {"host": "Hana", "back": False}
    assert early.setup_of(json.dumps({"type": "pong", "v": 1, "t": 1})) is None
    assert early.setup_of("not json") is None


def test_a_seated_guest_names_the_host_it_knows_not_the_message():
    client, link = _client(), __import__("ui.page.net.link", fromlist=["Link"]).Link(0)
    client.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "a" * 32,
                               "room": "crisp-r"}), 0)
    client.receive(json.dumps({"type": "lobby", "v": 1, "host": 0, "started": False,
                               "players": [{"seat": 0, "name": "Hana"},
                                           {"seat": 1, "name": "Gina"}]}), 1)
    early.wait_on(client, link, _setup("Mallory", back=True), 2)
    assert client.setup == {"host": "Hana", "back": True}


def test_the_friends_arriving_are_one_line_each_in_order_and_not_once_seated():
    pairs = []
    for conn, name in (("c1", "Gina"), ("c2", "Ivo"), ("c1", "Gina L"), ("c3", "ivo")):
        pairs = early.joined(pairs, conn, name)
    assert pairs == [("c2", "Ivo"), ("c1", "Gina L"), ("c3", "ivo")]
    assert early.still_arriving(pairs, []) == ["Ivo", "Gina L"]        # "ivo" is Ivo
    seated = [{"seat": 0, "name": "Hana"}, {"seat": 1, "name": "GINA L"}]
    assert early.still_arriving(pairs, seated) == ["Ivo"]
    assert early.still_arriving([], [None, 5, {"name": 3}]) == []


def test_a_flood_of_joins_keeps_at_most_as_many_arriving_as_the_gate_lets_wait():
    from ui.shared.gate import MAX_WAITING
    pairs = []
    for i in range(200):
        pairs = early.joined(pairs, "c%d" % i, "Name %d" % i)
    assert len(pairs) == MAX_WAITING and pairs[-1] == ("c199", "Name 199")


def test_a_guest_hears_the_host_is_setting_up_as_its_connection_opens_and_may_join():
    """issue 20.7 shows no join form until the room answers: while the engine starts the
    host's page answers the new connection's first ping itself, which arms no wait for a
    welcome before the guest joins."""
    from ui.page.net.link import ATTEMPT_MS, Link
    from ui.page.screens.screens import room_answered
    client, link = _client(), Link(0)
    assert not room_answered(client)
    link.connecting(0)
    link.opened(10)
    ping = json.dumps({"type": "ping", "v": 1, "t": 15})
    setup = early.setup_of(early.answer(ping, "Hana")[1])     # the first ping's answer
    early.wait_on(client, link, setup, 20)
    assert room_answered(client) and link.join_at is None
    assert "drop" not in link.step(20 + ATTEMPT_MS + 100)     # (pongs keep it heard)
