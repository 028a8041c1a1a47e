"""One page, one person (issue 22 item 2; docs/protocol.md `join`'s `page`): a first join
that comes again from the same page (its `page` id, or in the lobby its PeerJS id) gets its
own seat back, never `name_taken`, e.g. a join that waited for the host's engine on a
connection the guest has since replaced (ui/worker/seats.py `same_person`)."""

import json

from roomnet import Net
from ui.page.client.client import Client
from ui.worker.room import bot_maker

PAGE = "ab" * 16


def first_join(name, page=None):
    msg = {"type": "join", "v": 1, "name": name}
    if page is not None:
        msg["page"] = page
    return json.dumps(msg)


def replies(out, conn):
    return [json.loads(text) for c, text in out if c == conn]


def lobby_names(net):
    return [(p["name"], p.get("connected")) for p in net.host.lobby["players"]]


def test_a_join_sent_again_on_a_fresh_connection_of_the_same_page_is_one_person():
    """The bug: the room seated the first join on a connection that had closed since, and
    answered the guest's next join `name_taken`."""
    net = Net(host="Hana")
    net.host.join("Hana")
    net.room.open("g1", net.clock, peer="peer-gina")
    first = net.raw("g1", first_join("Gina", PAGE))
    assert [m["type"] for m in replies(first, "g1")][0] == "welcome"
    token = replies(first, "g1")[0]["token"]
    net.room.open("g2", net.clock + 9000, peer="peer-gina")       # the page connected afresh
    again = net.raw("g2", first_join("Gina", PAGE))
    welcome = replies(again, "g2")[0]
    assert welcome["type"] == "welcome" and welcome["seat"] == 1
    assert welcome["token"] == token                  # the same seat, its token again
    assert [m["code"] for m in replies(again, "g1") if m["type"] == "kicked"] \
        == ["taken_over"]
    assert net.room.conns == {"local": 0, "g2": 1}
    assert len(net.room.seats) == 2
    assert not any(m.get("code") == "name_taken" for m in replies(again, "g2"))


def test_the_same_peer_in_the_lobby_is_the_same_person_even_without_a_page_id():
    net = Net(host="Hana")
    net.host.join("Hana")
    net.room.open("g1", net.clock, peer="peer-gina")
    net.raw("g1", first_join("Gina"))
    net.room.open("g2", net.clock, peer="peer-gina")
    again = net.raw("g2", first_join("Gina L"))      # (the lobby: the name may change)
    assert replies(again, "g2")[0]["type"] == "welcome"
    assert [s.name for s in net.room.seats] == ["Hana", "Gina L"]


def page(net, conn, peer, name):
    """A guest page's Client on connection `conn` whose page id is PAGE, joined as `name`."""
    client = net._client(conn)
    client.page_id = PAGE
    net.room.open(conn, net.clock, peer=peer)
    client.connected()
    client.join(name)
    return client


def started(net):
    net.host.host({"type": "start"})
    assert net.room.game is not None


def test_the_same_page_gets_its_seat_back_at_the_table_with_its_name_frozen():
    net = Net(host="Hana")
    net.host.join("Hana")
    page(net, "g1", "peer-1", "Gina")
    started(net)
    net.close("g1")
    net.room.open("g2", net.clock, peer="peer-2")     # a new Peer, the same page
    again = net.raw("g2", first_join("Mallory", PAGE))
    kinds = [m["type"] for m in replies(again, "g2")]
    assert kinds[0] == "welcome" and "view" in kinds
    assert net.room.seats[1].name == "Gina" and net.room.conns["g2"] == 1


def test_another_page_with_the_same_name_is_still_refused():
    net = Net(host="Hana")
    net.host.join("Hana")
    net.room.open("g1", net.clock, peer="peer-gina")
    net.raw("g1", first_join("Gina", PAGE))
    for conn, peer, page in (("x1", "peer-x", None), ("x2", "peer-y", "cd" * 16)):
        net.room.open(conn, net.clock, peer=peer)
        out = replies(net.raw(conn, first_join("Gina", page)), conn)
        assert [m.get("code") for m in out] == ["name_taken"]
    assert net.room.conns.get("g1") == 1 and len(net.room.seats) == 2


def test_after_the_start_a_peer_id_alone_opens_no_seat():
    """A PeerJS id is not a secret the page keeps: at the table only the page id (or the
    seat proof) gives a seat back."""
    net = Net(host="Hana")
    net.host.join("Hana")
    page(net, "g1", "peer-gina", "Gina")
    started(net)
    net.close("g1")
    net.room.open("g2", net.clock, peer="peer-gina")
    out = replies(net.raw("g2", first_join("Gina")), "g2")
    assert [(m["type"], m.get("code")) for m in out] == [("kicked", "started")]
    assert net.room.seats[1].conn is None


def test_a_page_id_that_is_not_32_hex_digits_is_refused_and_changes_nothing():
    net = Net(host="Hana")
    net.host.join("Hana")
    for bad in ("AB" * 16 + "x", "", 7, None, ["ab"], "ab" * 17):
        net.room.open("b", net.clock, peer="peer-b")
        msg = {"type": "join", "v": 1, "name": "Bea", "page": bad}
        out = replies(net.raw("b", json.dumps(msg)), "b")
        assert out and out[0]["type"] == "error", bad
        assert len(net.room.seats) == 1
        net.close("b")


def test_the_bots_and_the_host_are_never_anyones_same_person():
    net = Net(host="Hana", make_bot=bot_maker(7))
    net.host.join("Hana")
    net.host.host({"type": "add_bot", "level": "easy"})
    net.room.open("g", net.clock, peer="")           # no PeerJS id known
    out = replies(net.raw("g", first_join("Gina", PAGE)), "g")
    assert out[0]["type"] == "welcome" and out[0]["seat"] == 2
    assert [s.bot for s in net.room.seats] == [None, "easy", None]
    assert net.room.seats[2].name == "Gina" and net.room.conns["g"] == 2


def test_a_guest_page_sends_its_page_id_in_every_first_join_and_the_host_none():
    sent = []
    ids = iter(["11" * 16, "22" * 16])
    guest = Client(sent.append, nonce=lambda: next(ids))
    guest.join("Gina")
    guest.join("Gina")
    pages = [json.loads(t)["page"] for t in sent]
    assert pages == ["11" * 16, "11" * 16]            # one id for the page's whole life
    host_sent = []
    Client(host_sent.append, is_host=True).join("Hana")
    assert "page" not in json.loads(host_sent[0])
