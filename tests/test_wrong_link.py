"""A wrong or expired link (issue 20.7): a room id that cannot be a room's is said at once
and never tried; a room that never answers is said within five seconds and still tried; no
join form shows until the room answers, and a wrong link says what to do instead."""

from test_render_model import show
from ui.page.dom.vdom import find, text_of


def test_a_room_id_that_can_be_a_rooms_and_one_that_cannot():
    from ui.shared import handover, roomcode
    code = "7KQ2M9XRTB"
    for good in ("crisp-" + code, "crisp-" + "0" * 32,
                 handover.room_id_after("crisp-" + code, 2, "5e" * 16)):
        assert roomcode.is_room_id(good), good
    for bad in ("hello", "", "crisp-", "crisp-7KQ2M", "crisp-" + code + "x", "crisp-7kq2m9xrtb",
                "smoke", "crisp-" + code + "-h1-", "crisp-" + code + "-h1-XYZ", None, 7,
                ["crisp-" + code], "crisp-" + code * 7, "crisp-" + "0" * 31,
                "<img src=x onerror=alert(1)>", "crisp-" + code + "\u2028"):
        assert not roomcode.is_room_id(bad), bad


def test_a_malformed_link_is_said_at_once_and_never_tried():
    from ui.page.net.link import Link
    link = Link(0)
    link.bad_link()
    assert link.step(0) == [] and link.step(60000) == []
    assert link.status() == "bad_link" and link.signal(60000)["status"] == "bad_link"


def test_a_room_that_never_answers_is_said_within_five_seconds_and_still_tried():
    from ui.page.net.link import SILENT_MS, Link
    assert SILENT_MS <= 5000
    link = Link(0)
    assert link.step(0) == ["connect"]
    assert link.status() == "connecting"
    link.step(SILENT_MS - 1)
    assert link.status() == "connecting"
    link.step(SILENT_MS)                          # no answer: said, before the attempt ends
    assert link.status() == "no_room"
    # it goes on trying, and the room's first answer is at once "ok"
    todo = []
    for t in range(SILENT_MS, 20000, 250):
        todo += link.step(t)
    assert "connect" in todo
    link.opened(20000)
    link.step(20000)
    assert link.status() == "ok"
    link.joining(20000)
    # a page the room answered once, then lost, is reconnecting: never "no game here"
    link.lost(21000)
    link.step(30000)
    assert link.status() in ("connecting", "host_gone")
    # a host that answers through the signaling server is there: not "no room"
    other = Link(0)
    other.step(0)
    other.answered(100)
    other.step(SILENT_MS + 1)
    assert other.status() == "connecting"
    # a page back with its seat token waits for its host, not told the room is not there
    seated = Link(0, seated=True)
    seated.step(0)
    seated.step(SILENT_MS + 1)
    assert seated.status() == "host_paused"


def join_model(**kw):
    from test_render_model import FakeClient
    m = FakeClient(screen="join", status="connecting", room="crisp-7KQ2M9XRTB")
    for k in kw:
        setattr(m, k, kw[k])
    return m


def test_no_join_form_until_the_room_answers():
    for lang, words in (("en", "Looking for the room"), ("es", "Buscando la sala")):
        tree, ctx = show(join_model(), lang=lang)
        assert find(tree, "player-name") is None and find(tree, "join-room") is None
        assert words in text_of(find(tree, "looking-room"))
    # the room's answer (a spectator's lobby) brings the form
    lobby = {"type": "lobby", "players": [{"seat": 0, "name": "Hana"}], "options": {},
             "host": 0, "started": False}
    tree, ctx = show(join_model(status="ok", spectator=True, lobby=lobby))
    assert find(tree, "player-name") is not None and find(tree, "looking-room") is None


def test_a_wrong_link_says_what_to_do_with_no_form():
    for status in ("no_room", "bad_link"):
        for lang, words in (("en", ("whole link", "ask the host", "host a game of your own")),
                            ("es", ("enlace entero", "a quien organiza",
                                    "crea tu propia sala"))):
            tree, ctx = show(join_model(status=status), lang=lang)
            banner = text_of(find(tree, "connection"))
            assert all(w in banner for w in words), (status, lang, banner)
            assert find(tree, "connection")["attrs"]["data-status"] == status
            assert find(tree, "player-name") is None and find(tree, "leave") is not None
    tree, ctx = show(join_model(status="bad_link"))
    assert "Not a room link" in text_of(tree)
