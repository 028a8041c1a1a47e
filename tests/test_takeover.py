"""The host handover wired (issue 10, item 3; docs/protocol.md "Host handover"): the engine
seals the room for its players after changes, the designated successor's `standby` tokens,
the successor's engine worker taking the room over (ui/worker/takeover.py: the share exchange, then
`Room.from_handover`, or `Room.from_public` with the round dealt again), and the attacks on it:
malformed, replayed and unasked share messages, a wrong mac, an impostor or a holder at the
new id, a stranger taking a seat."""

import json
import secrets

import pytest

from roomnet import CARD, Net
from crisp_core import bot_names
from ui.shared import follow, handover, proof, seal, spectator_moves
from ui.page.client.client import Client
from ui.worker.engine import Engine
from ui.shared.handover import Handover, next_token
from ui.shared.spectator_moves import check_moved
from ui.worker.room import LOCAL, MAX_TEXT, Room, bot_maker, check_saved
from ui.worker.takeover import MAX_AFTER_SEAL_MS, OFFERS_PER_CONN, Takeover, share_kind


def playing(people=("Ana", "Bea", "Cid"), bots=1):
    net = Net(make_bot=bot_maker(9, 0.01))
    net.host.join("Host")
    for i, name in enumerate(people):
        net.guest("g%d" % (i + 1), name)
    for _ in range(bots):
        net.host.host({"type": "add_bot", "level": "hard"})
    net.host.host({"type": "start"})
    for conn in [LOCAL] + ["g%d" % (i + 1) for i in range(len(people))]:
        net.act(conn, {"do": "ready"})
    net.later(2500)
    return net


def sealed(net):
    net.room.sealed_at = None
    net.deliver(net.room.seal_out(net.clock))
    net.deliver(net.room.standby_out())


def spec_for(net, conn, players=None):
    client = net.clients[conn]
    view = client.view
    return {"room_id": net.room.room_id,
            "new_id": handover.room_id_after(net.room.room_id, 1, client.succession),
            "succession": client.succession, "seat": client.seat, "token": client.token,
            "players": players if players is not None else client.players,
            "host": 0, "sealed": client.sealed, "standby": client.standby,
            "public": {k: view.get(k) for k in ("options", "scores", "dealer", "round",
                                                "phase")}}


def msg(kind, **fields):
    m = {"type": kind, "v": 1}
    m.update(fields)
    return json.dumps(m)


def reply_types(reply):
    return [json.loads(t)["type"] for _, t, _ in reply["out"]]


class Takeover_:
    """Ana's engine taking the room over (an Engine driven like the worker)."""

    def __init__(self, net, conn="g1", players=None, **extra):
        self.engine = Engine()
        self.spec = dict(spec_for(net, conn, players), **extra)
        self.now = 0
        self.last = self.request({"op": "takeover", "handover": self.spec, "now": 0})

    def request(self, req):
        reply = json.loads(self.engine.handle(json.dumps(req)))
        assert reply["op"] == "out", reply
        return reply

    def open(self, conn, peer):
        return self.request({"op": "open", "conn": conn, "peer": peer, "now": self.now})

    def send(self, conn, text):
        return self.request({"op": "receive", "conn": conn, "text": text, "now": self.now})

    def to(self, reply, conn):
        return [json.loads(t) for c, t, _ in reply["out"] if c == conn]


# ---- the room seals itself through the engine -------------------------------------------

def test_the_engine_seals_the_room_with_every_change_in_its_reply():
    engine = Engine()

    def ask(req):
        return json.loads(engine.handle(json.dumps(req)))

    ask({"op": "create", "room_id": "crisp-abc", "name": "Host", "seed": 3, "now": 0})
    ask({"op": "receive", "conn": LOCAL, "text": msg("join", name="Host"), "now": 0})
    for conn, name in (("a", "Ana"), ("b", "Bea")):
        ask({"op": "open", "conn": conn, "peer": "peer-" + conn, "now": 0})
        ask({"op": "receive", "conn": conn, "text": msg("join", name=name), "now": 0})
    reply = ask({"op": "receive", "conn": LOCAL, "text": msg("start"), "now": 10})
    # (a committed shuffle: the deal waits for contributions, then comes with a tick)
    reply = ask({"op": "tick", "now": 5000})
    kinds = [(c, json.loads(t)["type"]) for c, t, _ in reply["out"]]
    assert ("a", "sealed") in kinds and ("b", "sealed") in kinds
    assert (LOCAL, "sealed") not in kinds
    assert ("a", "standby") in kinds and ("b", "standby") not in kinds   # the designate only
    # a change within the same second is sealed too, in the reply with its views
    n = [json.loads(t)["n"] for c, t, _ in reply["out"]
         if c == "a" and json.loads(t)["type"] == "view"][-1]
    reply = ask({"op": "receive", "conn": "a",
                 "text": msg("action", n=n, action={"do": "ready"}), "now": 5200})
    kinds = [(c, json.loads(t)["type"]) for c, t, _ in reply["out"]]
    assert ("a", "view") in kinds and ("a", "sealed") in kinds and ("b", "sealed") in kinds
    # nothing changed since: no new seal on a ping
    reply = ask({"op": "receive", "conn": "a", "text": msg("ping", t=1), "now": 9000})
    assert "sealed" not in [json.loads(t)["type"] for _, t, _ in reply["out"]]


def test_a_full_table_of_bots_seals_under_max_text():
    """The attack on the old code: the whole `to_dict` (each hard bot's 2.5 KB random state)
    sealed for 8 seats was ~22-30 KB of hex, over MAX_TEXT, so guests dropped it."""
    net = playing(("Ana", "Bea"), bots=5)
    for _ in range(30):
        net.later(3000)
        net.room.sealed_at = None
        out = net.room.seal_out(net.clock)
        assert out and all(len(text.encode("utf-8")) <= MAX_TEXT for _, text in out)
        assert all(not CARD.search(text.replace(json.loads(text)["box"]["data"], ""))
                   for _, text in out)


def test_standby_goes_to_the_designate_alone_and_serves_in_no_other_seats_room():
    net = playing()
    sealed(net)
    assert net.clients["g1"].standby["seat"] == 1
    assert net.clients["g2"].standby is None and net.clients["g3"].standby is None
    tokens = net.clients["g1"].standby["tokens"]
    room = net.room
    assert tokens == {str(i): next_token(s.token, room.room_id, 1)
                      for i, s in enumerate(room.seats) if s.bot is None}
    # Ana, given Bea's token for a room Ana hosts, cannot use it in a room Cid hosts
    assert tokens["2"] != next_token(room.seats[2].token, room.room_id, 3)
    # Ana goes away: Bea is the designate now and gets her own tokens
    net.close("g1")
    net.deliver(room.standby_out() if room.standby_due() else [])
    assert net.clients["g2"].standby["seat"] == 2


def test_a_stand_in_on_seat_0_after_a_handover_saves_and_loads():
    """The old check assumed seat 0 is the host's: a handed-over room whose old host (seat 0)
    is away with a bot standing in, or a room rebuilt with seat 0 a bot, failed to load."""
    net = playing()
    state = json.loads(json.dumps(net.room.to_dict()))
    room = Room.from_handover(state, 1, net.clock, new_id="crisp-x-h1",
                              make_bot=bot_maker(1, 0.01))
    room.seats[0].stand_in = "easy"
    room.seats[0].agent = bot_maker(1, 0.01)("easy", 0)
    check_saved(json.loads(json.dumps(room.to_dict())))
    again = Room.from_dict(json.loads(json.dumps(room.to_dict())))
    assert again.host == 1 and again.seats[0].stand_in == "easy"
    public = Room.from_public("crisp-x-h1", 1, [{"name": "Host", "bot": None},
                                                {"name": "Ana", "bot": None}],
                              {}, [3, 4], 0, 2, 100, make_bot=bot_maker(1, 0.01),
                              succession="ab" * 16)
    assert public.seats[0].bot is not None
    assert Room.from_dict(json.loads(json.dumps(public.to_dict()))).host == 1
    bad = json.loads(json.dumps(room.to_dict()))
    bad["seats"][1]["stand_in"] = "easy"           # never on the host's own seat
    with pytest.raises(ValueError):
        check_saved(bad)


# ---- the successor's engine takes the room over -------------------------------------------

def holder_flow(take, net, page, peer, successor=1, conn=None):
    """A holder's page (`page`: its connection to the old host) at the new id, on the
    connection `conn` (default the same name): its share offer, the successor's proof
    checked, its share sent only when the proof holds. Returns (the share message or None,
    replies)."""
    client = net.clients[page]
    conn = conn or page
    plan = Handover(net.room.room_id, client.seat, client.players, 0, client.sealed, 1,
                    client.succession)
    assert plan.role == "guest" and plan.successor == successor
    take.open(conn, peer)
    nonce = plan.challenge(secrets.token_hex(16))
    reply = take.send(conn, msg("share_offer", seat=client.seat, n=client.sealed["box"]["n"],
                                nonce=nonce))
    proofs = [m for m in take.to(reply, conn) if m["type"] == "share_proof"]
    assert len(proofs) == 1
    share = plan.share_for(proofs[0]["mac"], proofs[0]["nonce"], peer)
    if share is None:
        return None, reply
    return share, take.send(conn, msg("share", n=share["n"], share=share["share"]))


def rejoined(take, conn, peer, name, token):
    """A page (a Client on connection `conn`, PeerJS id `peer`) that rejoins the taken-over
    room with `token` through the seat proof, the messages relayed both ways. -> the Client."""
    page = Client(lambda t: None, nonce=lambda: secrets.token_hex(16))
    sent = []
    page.send = sent.append
    page.token = token
    page.connected()
    page.join(name, token, room=take.engine.room.room_id, peer=peer)
    for _ in range(3):
        texts, sent[:] = sent[:], []
        for text in texts:
            for m in take.to(take.send(conn, text), conn):
                page.receive(json.dumps(m), 0)
    return page


def test_the_successor_takes_over_and_the_round_goes_on_exactly_where_it_stopped():
    net = playing()
    sealed(net)
    old = net.room
    take = Takeover_(net)
    assert take.last["room"] == take.spec["new_id"] and "handover" not in take.last
    # Ana's own screen joins meanwhile: it waits for the room
    reply = take.send(LOCAL, msg("join", name="Ana"))
    assert reply["out"] == []
    share, reply = holder_flow(take, net, "g2", "peer-b")
    assert share is not None and reply["handover"] == "sealed"
    room = take.engine.room
    assert room.room_id == take.spec["new_id"] and room.host == 1 and room.game == old.game
    assert room.succession == old.succession        # the next handover names the same id
    assert [s.name for s in room.seats] == [s.name for s in old.seats]
    assert [s.bot for s in room.seats] == [s.bot for s in old.seats]
    assert room.options == old.options and room.game.scores == old.game.scores
    assert room.game.dealer == old.game.dealer and room.game.hands == old.game.hands
    assert room.seats[4].agent is not None                     # the bot goes on
    assert reply["clock"] == room.now >= old.now
    welcome = [m for m in take.to(reply, LOCAL) if m["type"] == "welcome"]
    assert welcome and welcome[0]["seat"] == 1
    # Bea rejoins through the seat proof with the token her page derives
    bea = rejoined(take, "g2", "peer-b", "Bea", next_token(old.seats[2].token, old.room_id, 1))
    assert bea.seat == 2 and bea.view["seat"] == 2 and not bea.suspect


def test_the_clock_goes_on_from_when_the_host_went_silent_not_from_the_last_seal():
    """A tester saw a turn's timer at 0:56 when the host's tab closed and at 0:58 after the
    handover: the room had been sealed as the turn began, and the new host's clock went on
    from the seal. The successor's spec says how long the host still spoke after the seal
    (`after_seal`, ms); the room's clock goes on from that much later. Junk counts as 0 and
    too much is capped."""
    clocks = {}
    for after in (None, 4000, -5, True, "9", 2.5, 10 ** 9):
        net = playing()
        sealed(net)
        take = Takeover_(net) if after is None else Takeover_(net, after_seal=after)
        share, reply = holder_flow(take, net, "g2", "peer-b")
        assert reply["handover"] == "sealed" and take.engine.room.game == net.room.game
        clocks[after] = reply["clock"]
    base = clocks[None]
    assert clocks[4000] == base + 4000
    assert clocks[-5] == clocks[True] == clocks["9"] == clocks[2.5] == base
    assert clocks[10 ** 9] == base + MAX_AFTER_SEAL_MS
    net = playing()
    state = json.loads(json.dumps(net.room.sealed_state()))
    for bad in (-1, True, 1.5, "1"):
        with pytest.raises(ValueError):
            Room.from_handover(state, 1, 0, after_seal=bad)


def test_the_share_exchange_refuses_malformed_replayed_and_unasked_messages():
    net = playing()
    sealed(net)
    take = Takeover_(net)
    take.open("g2", "peer-b")
    n = net.clients["g2"].sealed["box"]["n"]
    bad = [
        "not json",
        msg("share_offer", seat=2, n=n, nonce="XYZ"),               # not 32 hex
        msg("share_offer", seat=2, n=n),                            # no nonce
        msg("share_offer", seat="2", n=n, nonce="a" * 32),          # seat not an int
        msg("share_offer", seat=1, n=n, nonce="a" * 32),            # the successor's own
        msg("share_offer", seat=2, n=n + 5, nonce="a" * 32),        # another box
        json.dumps({"type": "share_offer", "v": 2, "seat": 2, "n": n, "nonce": "a" * 32}),
        msg("share", n=n, share=net.clients["g2"].sealed["share"]),  # nobody asked
        msg("share_proof", n=n, nonce="a" * 32, mac="b" * 64),       # only the successor's
    ]
    for text in bad:
        reply = take.send("g2", text)
        if share_kind(text) is None:
            assert reply["out"] == []            # not a share message: it waits with the rest
            continue
        got = take.to(reply, "g2")
        assert [m["type"] for m in got] == ["error"] and got[0]["code"] == "bad_message", text
    assert take.engine.takeover is not None and take.engine.room is None
    # past the offers one connection may make: refused; a fresh connection's right offer
    # opens the room
    got = take.to(take.send("g2", msg("share_offer", seat=2, n=n, nonce="c" * 32)), "g2")
    assert got[0]["type"] == "error"
    share, reply = holder_flow(take, net, "g2", "peer-b2", conn="g2b")
    assert reply["handover"] == "sealed"


def test_too_many_offers_from_one_connection_are_refused():
    net = playing()
    sealed(net)
    take = Takeover_(net)
    take.open("x", "peer-x")
    for i in range(OFFERS_PER_CONN + 2):
        reply = take.send("x", msg("share_offer", seat=2, n=net.clients["g2"].sealed["box"]["n"],
                                   nonce="%032x" % i))
        kinds = [m["type"] for m in take.to(reply, "x")]
        assert kinds == (["share_proof"] if i < OFFERS_PER_CONN else ["error"])


def test_offers_from_many_connections_are_capped_too():
    from ui.worker.takeover import OFFERS_MAX
    net = playing()
    sealed(net)
    take = Takeover_(net)
    n = net.clients["g2"].sealed["box"]["n"]
    answers = []
    for i in range(OFFERS_MAX + 5):
        conn = "x%d" % i
        take.open(conn, "peer-" + conn)
        reply = take.send(conn, msg("share_offer", seat=2, n=n, nonce="%032x" % i))
        answers += [m["type"] for m in take.to(reply, conn)]
    assert answers.count("share_proof") == OFFERS_MAX and answers.count("error") == 5


def test_an_impostor_at_the_new_id_gets_no_share_and_no_seat():
    """A stranger (or Cid, a holder) registers the new id first and runs a takeover as seat 1
    with a token that is not Ana's: Bea's page checks its proof and hands it nothing, and
    Bea's seat proof there fails (it does not know her token)."""
    net = playing()
    sealed(net)
    for token in (secrets.token_hex(16), net.room.seats[3].token):   # a stranger, Cid
        spec = spec_for(net, "g1")
        spec["token"] = token
        fake = Takeover_.__new__(Takeover_)
        fake.engine, fake.spec, fake.now = Engine(), spec, 0
        fake.request({"op": "takeover", "handover": spec, "now": 0})
        share, _ = holder_flow(fake, net, "g2", "peer-b")
        assert share is None
        fake.request({"op": "tick", "now": 60000})      # it gives up waiting: deals again
        room = fake.engine.room
        assert fake.engine.how == "public"
        # Bea's page rejoins there: the peer cannot prove it knows her seat's token
        bea = Client(lambda t: None, nonce=lambda: secrets.token_hex(16))
        sent = []
        bea.send = sent.append
        bea.token = next_token(net.room.seats[2].token, net.room.room_id, 1)
        bea.connected()
        bea.join("Bea", bea.token, room=room.room_id, peer="peer-b")
        for m in fake.to(fake.send("g2", sent.pop()), "g2"):
            bea.receive(json.dumps(m), 0)
        assert bea.seat is None and bea.view is None


def test_a_holder_posing_as_the_successor_cannot_run_the_takeover_or_prove_itself():
    net = playing()
    sealed(net)
    spec = spec_for(net, "g3")                       # Cid's page, which is not the successor
    with pytest.raises(ValueError):
        Takeover(spec, 0)
    spec["seat"] = 1                                 # Cid claims Ana's seat, with his token
    cid = Takeover(spec, 0)
    bea = Handover(net.room.room_id, 2, net.clients["g2"].players, 0, net.clients["g2"].sealed,
                   1, net.clients["g2"].succession)
    nonce = bea.challenge("1" * 32)
    cid.opened("g2", "peer-b")
    out = cid.receive("g2", "share_offer", msg("share_offer", seat=2,
                                               n=bea.sealed["box"]["n"], nonce=nonce))
    proof_msg = out[0][2]                          # (typed: conn, kind, message)
    assert bea.share_for(proof_msg["mac"], proof_msg["nonce"], "peer-b") is None


def test_a_share_proof_is_bound_to_the_holders_peer_id():
    net = playing()
    sealed(net)
    take = Takeover_(net)
    client = net.clients["g2"]
    plan = Handover(net.room.room_id, 2, client.players, 0, client.sealed, 1, client.succession)
    take.open("relay", "peer-relay")                  # someone relaying Bea's offer
    nonce = plan.challenge("2" * 32)
    reply = take.send("relay", msg("share_offer", seat=2, n=client.sealed["box"]["n"],
                                   nonce=nonce))
    proof_msg = take.to(reply, "relay")[0]
    assert plan.share_for(proof_msg["mac"], proof_msg["nonce"], "peer-b") is None


def test_with_one_person_left_the_round_is_dealt_again_and_the_old_host_keeps_its_seat():
    net = playing(("Ana",), bots=1)
    net.later(60000)
    # round 1 ends: Ana calls at once, the others play their last turns
    assert not net.room.seal_due(net.clock)                 # one holder: nothing sealed
    net.deliver(net.room.standby_out())
    ana = net.clients["g1"]
    assert ana.standby["seat"] == 1 and ana.sealed is None
    scores = list(net.room.game.scores)
    players = [dict(p, connected=(p["seat"] != 0)) for p in ana.players]
    take = Takeover_(net, players=players)
    assert take.last.get("handover") == "public"
    room = take.engine.room
    assert room.host == 1 and room.game.round == net.room.game.round
    assert room.game.scores == scores and room.game.phase == "peek"
    assert room.game.hands != net.room.game.hands          # dealt again
    assert room.seats[0].bot is None and room.seats[2].bot == "hard"
    # the old host rejoins its own seat with the token its saved room gives it
    take.open("old", "peer-old")
    hana = rejoined(take, "old", "peer-old", "Hana",
                    next_token(net.room.seats[0].token, net.room.room_id, 1))
    assert hana.seat == 0 and hana.view["seat"] == 0
    # no token for a seat: nobody takes it (a stranger gets no seat)
    out = room.receive("x", msg("join", name="Eve", seat_id=proof.seat_id("f" * 32),
                                nonce="1" * 32), room.now)
    assert [json.loads(t)["code"] for _, t in out] == ["no_seat"]


def test_a_room_taken_over_names_its_bots_in_the_new_hosts_language():
    # issue 20: a room rebuilt at a handover started in English whatever its host's language.
    # The room's bots are named in its host's language (crisp_core/bot_names.py); from the
    # handover on its host is the successor's page: the takeover request's `lang`.
    for how, people in (("public", ("Ana",)), ("sealed", ("Ana", "Bea"))):
        for lang in ("es", "en"):
            other = "en" if lang == "es" else "es"
            net = playing(people, bots=1)
            net.room.lang = other
            if how == "sealed":
                sealed(net)
            else:
                net.deliver(net.room.standby_out())
            take = Takeover_.__new__(Takeover_)
            take.engine, take.now = Engine(), 0
            take.spec = spec_for(net, "g1")
            take.last = take.request({"op": "takeover", "handover": take.spec, "now": 0,
                                      "lang": lang})
            if how == "sealed":
                holder_flow(take, net, "g2", "peer-bea")
            room = take.engine.room
            assert room is not None and take.engine.how == how, how
            assert room.lang == lang, (how, lang)
            names = [s.name for s in room.seats]
            assert names == [p["name"] for p in net.clients["g1"].players]   # none renamed
            new = bot_names.bot_name(room.lang, len(names), names)
            assert bot_names.first_name(new) in bot_names.NAMES[lang], (how, new)
    # a language the room does not know is not taken: a rebuilt room's bots are English
    net = playing(("Ana",), bots=1)
    net.deliver(net.room.standby_out())
    for bad in ("xx", 5, ["es"]):
        engine = Engine()
        engine.handle(json.dumps({"op": "takeover", "handover": spec_for(net, "g1"), "now": 0,
                                  "lang": bad}))
        assert engine.room is not None and engine.room.lang == "en", bad


def test_a_takeover_spec_that_makes_no_sense_is_refused():
    engine = Engine()
    for spec in (None, {}, {"room_id": "crisp-a", "new_id": "crisp-a-h1", "seat": 1,
                            "token": "t", "players": [], "host": 0}):
        reply = json.loads(engine.handle(json.dumps({"op": "takeover", "handover": spec,
                                                     "now": 0})))
        assert reply["op"] == "refused"
    assert engine.room is None and engine.takeover is None


def test_the_client_keeps_standby_for_its_own_seat_only_and_hears_host_leaving():
    c = Client(lambda t: None)
    c.receive(msg("welcome", seat=2, room="r"), 0)
    c.receive(msg("standby", seat=1, tokens={"0": "a" * 32}), 0)
    assert c.standby is None
    c.receive(msg("standby", seat=2, tokens={"0": "not hex"}), 0)
    assert c.standby is None
    c.receive(msg("standby", seat=2, tokens={"0": "a" * 32}), 0)
    assert c.standby == {"seat": 2, "tokens": {"0": "a" * 32}, "watchers": [], "check": None}
    # the room's spectators for this seat to tell where the room went: well-formed ones only
    good = {"peer": "peer-w", "moved": [["r-h1-" + "0" * 20, "b" * 64]]}
    c.receive(msg("standby", seat=2, tokens={"0": "a" * 32},
                  watchers=[good, {"peer": "x", "moved": [["r-h1-x", "short"]]}, "junk",
                            dict(good, extra=1), {"peer": "y", "follow": "c" * 32},
                            {"peer": "bad--id", "moved": good["moved"]}]), 0)
    assert c.standby["watchers"] == [good]
    assert not c.host_leaving
    c.receive(msg("host_leaving", host=0), 0)
    assert c.host_leaving


def test_seal_sizes_stay_ciphertext_of_the_trimmed_state():
    net = playing(("Ana", "Bea"), bots=3)
    sealed(net)
    box = net.clients["g1"].sealed["box"]
    state = seal.open_room(box, [net.clients["g1"].sealed["share"],
                                 net.clients["g2"].sealed["share"]], net.room.room_id)
    for seat in state["seats"]:
        if seat["agent"] is not None:
            assert set(seat["agent"]["rng"]) == {"seed"}
    assert handover.epoch_after(handover.room_id_after(net.room.room_id, 1,
                                                       net.room.succession)) == 2


def test_a_chained_handover_moves_the_room_again_to_the_next_epoch():
    """The new host leaves too: its room seals itself the same way, and the next successor
    opens it at `<id>-h2` with the tokens derived again."""
    net = playing(("Ana", "Bea", "Cid"), bots=0)
    old = net.room
    state = json.loads(json.dumps(old.sealed_state()))
    secret = old.succession
    first = Room.from_handover(state, 1, net.clock,
                               new_id=handover.room_id_after(old.room_id, 1, secret),
                               make_bot=bot_maker(2, 0.01))
    # Bea and Cid rejoin Ana's room (their pages derive their tokens)
    for conn, seat in (("b", 2), ("c", 3)):
        first.open(conn, first.now, peer="peer-" + conn)
        first.conns[conn] = seat
        first.seats[seat].conn = conn
        first.seats[seat].away_since = None
    out = first.seal_out(first.now + 5000)
    msgs = {c: json.loads(t) for c, t in out}
    assert sorted(msgs) == ["b", "c"]
    assert first.succession == secret
    new_id = handover.room_id_after(first.room_id, handover.epoch_after(first.room_id), secret)
    assert new_id == handover.room_id_after(old.room_id, 2, secret)
    opened = seal.open_room(msgs["b"]["box"], [msgs["b"]["share"], msgs["c"]["share"]],
                            first.room_id)
    second = Room.from_handover(opened, 2, first.now + 6000, new_id=new_id)
    assert second.game == old.game and second.host == 2
    bea_token = next_token(next_token(old.seats[2].token, old.room_id, 1), first.room_id, 2)
    assert second.seats[2].token == bea_token
    hana = next_token(next_token(old.seats[0].token, old.room_id, 1), first.room_id, 2)
    assert second.seats[0].token == hana


def test_a_page_away_during_the_handover_finds_its_seat_at_the_new_host():
    """Cid's page was asleep while Hana's page went and Ana's took over: its players list is
    old (everyone connected). Back, it looks at the room's next id (follow.Follow); the
    room there names Ana's seat as host, and the token Follow gives for it opens Cid's seat
    through the seat proof: its own seat, its hand, the scores as the others see them."""
    net = playing()
    sealed(net)
    old = net.room
    cid = net.clients["g3"]
    stale = [dict(p) for p in cid.players]
    take = Takeover_(net)
    share, reply = holder_flow(take, net, "g2", "peer-b")
    assert reply["handover"] == "sealed"
    finder = follow.Follow(old.room_id, cid.seat, cid.token, 0, cid.succession, stale)
    assert finder.current() == take.spec["new_id"]
    # what a look at the new id shows: `watching`, naming the host's seat
    take.open("look", "peer-look")
    watching = [m for m in take.to(take.send("look", msg("watch")), "look")
                if m["type"] == "watching"]
    assert watching and watching[0]["host"] == 1 and "succession" not in watching[0]
    tokens = finder.tokens(watching[0]["host"])
    take.open("g3", "peer-c")
    page = rejoined(take, "g3", "peer-c", "Cid", tokens[0])
    assert page.seat == 3 and not page.suspect
    assert page.view["seat"] == 3 and page.view["scores"] == cid.view["scores"]
    # the same cards in its hand as before (face down: where they lie, not what they are)
    assert [len(h) for h in page.view["hands"]] == [len(h) for h in cid.view["hands"]]


def test_a_wrong_token_from_follow_opens_no_seat_and_tells_nothing():
    """The next candidate token (a room reached otherwise) that is wrong: `no_seat`, the
    peer marked suspect, nothing taken (the page tries its next candidate)."""
    net = playing()
    sealed(net)
    cid = net.clients["g3"]
    take = Takeover_(net)
    holder_flow(take, net, "g2", "peer-b")
    wrong = next_token(cid.token, net.room.room_id, 2)        # as if Bea had hosted
    take.open("g3", "peer-c")
    page = rejoined(take, "g3", "peer-c", "Cid", wrong)
    assert page.seat is None and page.suspect


def watching(net, conn, peer):
    """A spectator's page (Client) watching the room on `conn` from PeerJS id `peer`."""
    page = net._client(conn)
    net.deliver(net.room.open(conn, net.clock, peer=peer))
    page.connected()
    page.watch()
    return page


def test_each_spectator_gets_a_follow_token_of_its_own_and_no_secret():
    net = playing()
    cleo, dan = watching(net, "w1", "peer-cleo"), watching(net, "w2", "peer-dan")
    assert proof.is_hex(cleo.follow, 32) and proof.is_hex(dan.follow, 32)
    assert cleo.follow != dan.follow
    assert cleo.succession is None and cleo.seat is None
    for conn in ("w1", "w2"):
        assert all(net.room.succession not in t for t in net.inbox[conn])
    # nobody seated learns a spectator's token in clear (only inside the sealed box)
    sealed(net)
    for conn in ("g1", "g2", "g3"):
        assert all(cleo.follow not in t for t in net.inbox[conn] if '"standby"' not in t)
    assert net.leaks == []


def test_after_the_takeover_the_new_host_tells_each_spectator_where_the_room_went():
    """From the sealed room: the new host's engine gives its page a `moved` for each
    spectator of the old room, which that spectator's page (and only it) accepts."""
    net = playing()
    cleo, dan = watching(net, "w1", "peer-cleo"), watching(net, "w2", "peer-dan")
    net.later(1000)
    sealed(net)
    old_id = net.room.room_id
    take = Takeover_(net)
    assert "follow" not in take.last              # not before the room runs at the new id
    share, reply = holder_flow(take, net, "g2", "peer-b")
    assert reply["handover"] == "sealed"
    told = {f["peer"]: f["text"] for f in reply["follow"]}
    assert sorted(told) == ["peer-cleo", "peer-dan"]
    new_id = take.spec["new_id"]
    assert check_moved(told["peer-cleo"], cleo.follow, old_id, cleo.next_ids) == new_id
    assert check_moved(told["peer-dan"], dan.follow, old_id, dan.next_ids) == new_id
    assert check_moved(told["peer-dan"], cleo.follow, old_id, cleo.next_ids) is None
    assert not CARD.search(json.dumps(reply["follow"]))
    # Cleo watches the new room: a spectator's view, a new follow token for the next time
    take.open("w9", "peer-cleo")
    again = take.to(take.send("w9", msg("watch")), "w9")
    kinds = [m["type"] for m in again]
    assert kinds[:2] == ["watching", "view"] and again[0]["host"] == 1
    assert again[0]["follow"] != cleo.follow and again[1]["view"]["allowed"] == []


def test_without_a_sealed_room_the_standby_carries_the_spectators_to_tell():
    """The fallback (the round dealt again): the designate's `standby` names the spectators,
    so the new host tells them too."""
    net = playing(("Ana",), bots=1)
    cleo = watching(net, "w1", "peer-cleo")
    net.later(1000)
    sealed(net)
    ana = net.clients["g1"]
    assert ana.sealed is None                       # one person besides the host: no box
    assert ana.standby["watchers"] == [{"peer": "peer-cleo", "moved": spectator_moves.moved_entries(
        cleo.follow, net.room.room_id, net.room.succession)}]
    take = Takeover_(net)
    assert take.last["handover"] == "public"
    told = take.last["follow"]
    assert [f["peer"] for f in told] == ["peer-cleo"]
    assert check_moved(told[0]["text"], cleo.follow, net.room.room_id, cleo.next_ids) == \
        take.spec["new_id"]


def test_a_new_spectator_sends_the_designate_its_standby_again():
    net = playing()
    sealed(net)
    assert not net.room.standby_due()
    watching(net, "w1", "peer-cleo")
    assert net.room.standby_due()
    out = net.room.standby_out()
    assert len(out) == 1 and json.loads(out[0][1])["watchers"][0]["peer"] == "peer-cleo"


def test_a_round_dealt_again_says_so_in_its_welcome_and_every_screen_shows_why():
    """Issue 23, fault 4: when the sealed room cannot be opened the successor deals the
    interrupted round again; its welcomes carry `redealt` (that round) while it lasts, and the
    table says why in player words (`redealt`)."""
    from ui.page.i18n import i18n
    from ui.page.screens import screens
    from ui.page.screens.render import Ctx
    public = Room.from_public("crisp-x-h1", 1, [{"name": "Host", "bot": None},
                                                {"name": "Ana", "bot": None}],
                              {}, [3, 4], 0, 2, 100, make_bot=bot_maker(1, 0.01),
                              succession="ab" * 16)
    out = public.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Ana"}), 200)
    welcome = [json.loads(t) for c, t in out if json.loads(t)["type"] == "welcome"][0]
    assert welcome["redealt"] == 2
    client = Client(lambda text: None, is_host=True)
    for c, t in out:
        client.receive(t, 200)
    assert client.redealt == 2 and client.view["round"] == 2
    for lang in ("en", "es"):
        tree = json.dumps(screens.build(client, {"lang": lang}, Ctx(lang, 300, 0, False, "")),
                          ensure_ascii=False)
        assert '"redealt"' in tree and i18n.t(lang, "redealt", n=2)[:20] in tree
    # a room opened from the box (the round as it was) says nothing of the kind
    net = playing()
    state = json.loads(json.dumps(net.room.to_dict()))
    room = Room.from_handover(state, 1, net.clock, new_id="crisp-x-h1",
                              make_bot=bot_maker(1, 0.01))
    assert room.redealt is None
