"""ui/page/early.py: what a host page answers its guests itself while its engine starts
(issue 22 item 2)."""

import json

from ui.page import early


def test_a_ping_gets_its_pong_at_once():
    out = early.answer(json.dumps({"type": "ping", "v": 1, "t": 1234}), "Hana")
    assert [json.loads(t) for t in out] == [{"type": "pong", "v": 1, "t": 1234}]


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
