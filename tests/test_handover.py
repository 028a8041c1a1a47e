"""The groundwork of the host handover (issue 10, item 3): the room sealed for the players
(ui/shared/seal.py), the successor rule every page runs (ui/shared/handover.py), and the room continued by
its new host (`Room.from_handover`) or, when it cannot be opened, rebuilt with the round
dealt again (`Room.from_public`). docs/protocol.md "Host handover"."""

import itertools
import json
import random
import secrets
import zlib

import pytest

from roomnet import CARD, Net, play_out
from ui.shared import seal
from ui.page.client.client import Client
from ui.shared.handover import epoch_after, next_token, room_id_after
from ui.shared.spectator_moves import moved_entries
from ui.worker.room import LOCAL, Room, bot_maker, check_saved


def unseeded(state):
    """A room's state with its bots' random states left out (the sealed copy carries a seed
    for each instead: Room.sealed_state)."""
    state = json.loads(json.dumps(state))
    for key in ("seal_checks", "opened", "derived", "standby_check"):
        state.pop(key, None)          # the room's own succession proofs: never in the box
    for seat in state["seats"]:
        if isinstance(seat.get("agent"), dict):
            seat["agent"].pop("rng", None)
    return state


def randbytes_from(seed):
    rng = random.Random(seed)
    return lambda n: bytes(rng.getrandbits(8) for _ in range(n))


def playing_room():
    net = Net(make_bot=bot_maker(9, 0.01))
    net.host.join("Host")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    net.guest("c", "Cid")
    net.host.host({"type": "add_bot", "level": "hard"})
    net.host.host({"type": "start"})
    for conn in (LOCAL, "a", "b", "c"):
        net.act(conn, {"do": "ready"})
    net.later(2500)
    return net


# ---- sealing --------------------------------------------------------------------------------

def test_two_shares_open_the_sealed_room_and_any_pair_does():
    net = playing_room()
    state = net.room.to_dict()
    box, shares = seal.seal_room(state, "room-test", 7, [1, 2, 3], randbytes_from(1))
    assert sorted(shares) == [1, 2, 3]
    for pair in itertools.combinations(shares.values(), 2):
        assert seal.open_room(box, list(pair), "room-test") == json.loads(json.dumps(state))


def test_one_share_alone_opens_nothing_and_says_nothing():
    net = playing_room()
    box, shares = seal.seal_room(net.room.to_dict(), "room-test", 1, [1, 2], randbytes_from(2))
    for share in shares.values():
        with pytest.raises(seal.SealError):
            seal.open_room(box, [share], "room-test")
    # the same share twice is still one share
    with pytest.raises(seal.SealError):
        seal.open_room(box, [shares[1], shares[1]], "room-test")


def test_what_players_hold_is_ciphertext_not_encoded_or_compressed_plain_text():
    net = playing_room()
    state = net.room.to_dict()
    box, shares = seal.seal_room(state, "room-test", 1, [1, 2, 3], randbytes_from(3))
    held = json.dumps(box) + json.dumps(shares)
    assert not CARD.search(held.replace(box["data"], "").replace(box["tag"], "")
                           .replace(box["nonce"], ""))
    data = seal._unb64(box["data"])
    for hand in net.room.game.hands:
        assert json.dumps(hand, separators=(",", ":")).encode() not in data
    assert b"Ana" not in data and net.room.seats[1].token.encode() not in data
    with pytest.raises(zlib.error):
        zlib.decompress(data)                       # not the compressed state as it is
    # a fresh key every time: the same state seals to another box
    box2, _ = seal.seal_room(state, "room-test", 1, [1, 2, 3], randbytes_from(4))
    assert box2["data"] != box["data"]


def test_a_false_share_or_an_altered_box_is_found_out():
    net = playing_room()
    box, shares = seal.seal_room(net.room.to_dict(), "room-test", 3, [1, 2, 3],
                                 randbytes_from(5))
    x, y = seal.parse_share(shares[2])
    forged = seal.share_text(x, (y + 1) % seal.PRIME)
    # a hostile player's false share does not stop two honest ones
    assert seal.open_room(box, [forged, shares[1], "junk", shares[3]], "room-test")
    with pytest.raises(seal.SealError):
        seal.open_room(box, [forged, shares[1]], "room-test")
    flipped = dict(box, data=seal._b64(bytes([seal._unb64(box["data"])[0] ^ 1])
                                       + seal._unb64(box["data"])[1:]))
    with pytest.raises(seal.SealError):
        seal.open_room(flipped, [shares[1], shares[2]], "room-test")
    with pytest.raises(seal.SealError):                 # renumbered (an older box replayed)
        seal.open_room(dict(box, n=4), [shares[1], shares[2]], "room-test")
    with pytest.raises(seal.SealError):                 # another room's
        seal.open_room(box, [shares[1], shares[2]], "room-other")
    for junk in (None, {}, {"n": 1, "nonce": "!!", "data": "", "tag": ""}):
        with pytest.raises(seal.SealError):
            seal.open_room(junk, [shares[1], shares[2]], "room-test")


def test_a_room_with_one_person_left_cannot_be_sealed():
    with pytest.raises(ValueError):
        seal.seal_room({"x": 1}, "room-test", 1, [2], randbytes_from(6))
    with pytest.raises(ValueError):
        seal.split(5, [1, 1], randbytes_from(7))


def test_shamir_shares_of_random_secrets():
    rng = random.Random(8)
    for _ in range(20):
        secret = rng.getrandbits(256)
        xs = rng.sample(range(1, 9), rng.randint(2, 8))
        shares = seal.split(secret, xs, randbytes_from(rng.random()))
        for pair in itertools.combinations(xs, 2):
            assert seal.combine({x: shares[x] for x in pair}) == secret


# ---- the successor rule (tests/handover_cases.py: run here and on MicroPython) ------------

from handover_cases import *  # noqa: E402,F401,F403


def test_the_successor_rule_runs_on_micropython(tmp_path):
    import os
    from test_render_micropython import ROOT, run_tests_on_micropython
    files = {"/tests/handover_cases.py": os.path.join(ROOT, "tests", "handover_cases.py"),
             "/ui/shared/handover.py": os.path.join(ROOT, "ui", "shared", "handover.py"),
             "/ui/shared/successor.py": os.path.join(ROOT, "ui", "shared", "successor.py"),
             "/ui/shared/follow.py": os.path.join(ROOT, "ui", "shared", "follow.py"),
             "/ui/shared/spectator_moves.py": os.path.join(ROOT, "ui", "shared", "spectator_moves.py"),
             "/ui/shared/proof.py": os.path.join(ROOT, "ui", "shared", "proof.py")}
    ran, failed, out = run_tests_on_micropython(tmp_path, "handover_cases", files)
    import handover_cases
    expected = [n for n in dir(handover_cases) if n.startswith("test_")]
    assert failed == [] and ran == len(expected) == 20, out


# ---- the room continued by its new host ---------------------------------------------------

def test_a_new_host_continues_the_round_exactly_and_every_seat_keeps_its_place():
    net = playing_room()
    old = net.room
    state = json.loads(json.dumps(old.to_dict()))
    box, shares = seal.seal_room(state, old.room_id, 1, [1, 2, 3], randbytes_from(9))
    opened = seal.open_room(box, [shares[1], shares[2]], old.room_id)
    room = Room.from_handover(opened, 1, old.now + 5000, new_id=old.room_id + "-h1",
                              make_bot=bot_maker(old.seed, 0.01))
    assert room.host == 1 and room.game == old.game and room.room_id == old.room_id + "-h1"
    assert [s.name for s in room.seats] == [s.name for s in old.seats]
    # every person's token is the one its page derives for this successor, no other
    assert [s.token for s in room.seats] == [
        next_token(s.token, old.room_id, 1) if s.bot is None else None for s in old.seats]
    assert room.game.scores == old.game.scores and room.game.dealer == old.game.dealer
    # Ana's page is the room now: her screen is "local", seat 1, and host-only messages work
    ana = Client(lambda text: None, is_host=True)
    out = room.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Ana"}), room.now)
    welcome = [json.loads(t) for c, t in out if c == LOCAL][0]
    assert welcome == {"type": "welcome", "v": 1, "seat": 1, "room": old.room_id + "-h1",
                       "host": 1, "succession": old.succession}
    view = [json.loads(t) for c, t in out if c == LOCAL and '"view"' in t][0]["view"]
    assert view["seat"] == 1 and view["phase"] == old.game.phase
    assert ana is not None
    # everyone else is away until proven; the old host's seat is a guest's seat now
    assert all(room.seats[i].away_since is not None for i in (0, 2, 3))
    # a stranger registering any peer id gets nothing: no seat, no view, no token
    out = room.receive("x", json.dumps({"type": "join", "v": 1, "name": "Eve"}), room.now)
    assert [json.loads(t)["code"] for _, t in out] == ["started"]
    out = room.receive("x", json.dumps({"type": "join", "v": 1, "name": "Eve",
                                        "seat_id": "0" * 32, "nonce": "1" * 32}), room.now)
    assert [json.loads(t)["code"] for _, t in out] == ["no_seat"]
    # a remote connection may never take the new host's seat, even with its token
    from ui.shared import proof
    out = room.receive("y", json.dumps({
        "type": "join", "v": 1, "name": "Ana", "seat_id": proof.seat_id(room.seats[1].token),
        "nonce": "2" * 32}), room.now)
    assert [json.loads(t)["code"] for _, t in out] == ["no_seat"]


def test_the_old_host_rejoins_its_own_seat_as_a_player():
    net = playing_room()
    old = net.room
    new_id = old.room_id + "-h1"
    room = Room.from_handover(json.loads(json.dumps(old.to_dict())), 1, old.now + 1000,
                              new_id=new_id)
    room.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Ana"}), room.now)
    sent = []
    # its old token opens nothing there: only the one derived for this successor
    stale = Client(sent.append, nonce=lambda: secrets.token_hex(16))
    room.open("stale", room.now, peer="peer-stale")
    stale.connected()
    stale.join("Host", old.seats[0].token, room=new_id, peer="peer-stale")
    out = room.receive("stale", sent.pop(), room.now)
    assert [json.loads(t)["code"] for _, t in out] == ["no_seat"]
    hana = Client(sent.append, nonce=lambda: secrets.token_hex(16))
    room.open("old", room.now, peer="peer-old")
    hana.connected()
    hana.join("Host", next_token(old.seats[0].token, old.room_id, 1), room=new_id,
              peer="peer-old")
    for _ in range(3):
        texts, sent[:] = sent[:], []
        for text in texts:
            for conn, reply in room.receive("old", text, room.now):
                if conn == "old":
                    hana.receive(reply, room.now)
    assert hana.seat == 0 and room.conns["old"] == 0 and room.seats[0].away_since is None
    assert hana.view["seat"] == 0 and hana.view["allowed"] is not None
    # and it is a guest now: host-only messages from it are refused
    out = room.receive("old", json.dumps({"type": "new_game", "v": 1}), room.now)
    assert [json.loads(t)["code"] for _, t in out] == ["not_host"]


def test_the_new_host_must_be_a_person_other_than_the_old_host():
    net = playing_room()
    d = json.loads(json.dumps(net.room.to_dict()))
    for seat in (0, 4, 9, -1, "1", None):
        with pytest.raises(ValueError):
            Room.from_handover(d, seat, 0)


def test_with_one_person_left_the_round_is_dealt_again_and_the_scores_stand():
    public = [{"seat": 0, "name": "Host", "bot": None}, {"seat": 1, "name": "Ana", "bot": None},
              {"seat": 2, "name": "Bot 2", "bot": "hard"}]
    room = Room.from_public("crisp-x", 1, public, {"target": 150, "draw_seconds": 30},
                            [12, 30, 7], 2, 3, 1000, seed=4, make_bot=bot_maker(4, 0.01),
                            succession="ab" * 16)
    game = room.game
    assert room.host == 1 and game.round == 3 and game.dealer == 2 and game.phase == "peek"
    assert game.scores == [12, 30, 7] and game.options["target"] == 150
    assert [s.name for s in room.seats] == ["Host", "Ana", "Bot 2"]
    assert room.seats[0].bot == "easy" and room.seats[2].bot == "hard"
    out = room.receive(LOCAL, json.dumps({"type": "join", "v": 1, "name": "Ana"}), 1000)
    view = [json.loads(t) for c, t in out if '"view"' in t][0]["view"]
    assert view["seat"] == 1 and view["round"] == 3
    assert room.next_wakeup() is not None              # the bots play their part
    with pytest.raises(ValueError):
        Room.from_public("crisp-x", 5, public, {}, [0, 0, 0], 0, 1, 0, succession="ab" * 16)


# ---- the next id: unguessable to anyone who is not seated (the squat attack) -------------

def test_a_stranger_or_a_spectator_cannot_name_the_rooms_next_id():
    """A stranger with the link (the room id) registered `<id>-h1` first and blocked the
    handover: the next id now derives from the room's succession secret, which goes in
    `welcome` to seated people only."""
    net = playing_room()
    room = net.room
    secret = room.succession
    assert len(secret) == 32 and int(secret, 16) >= 0
    spectator = net._client("w")
    net.deliver(room.open("w", net.clock, peer="peer-w"))
    spectator.connected()
    spectator.watch()
    net.later(3000)
    net.deliver(room.seal_out(net.clock, randbytes_from(5)))
    assert spectator.spectator and spectator.view is not None
    assert spectator.succession is None
    assert net.inbox["w"] and all(secret not in text for text in net.inbox["w"])
    next_id = room_id_after(room.room_id, 1, secret)
    assert next_id != room.room_id + "-h1"            # the squatter's guess is elsewhere
    # what the link and the spectator know do not name it: the same room id with another
    # secret moves elsewhere
    twin = Room(room.room_id, "Hana")
    assert twin.succession != secret
    assert room_id_after(twin.room_id, 1, twin.succession) != next_id
    # every seated page knows it, from its welcome, and all name the same id
    for conn in ("a", "b", "c"):
        assert net.clients[conn].succession == secret
        welcome = net.last(conn, "welcome")
        assert welcome["succession"] == secret
    assert net.clients[LOCAL].succession == secret


def test_the_succession_secret_is_saved_sealed_and_checked():
    net = playing_room()
    room = net.room
    saved = json.loads(json.dumps(room.to_dict()))
    assert saved["succession"] == room.succession
    assert Room.from_dict(saved).succession == room.succession
    assert room.sealed_state()["succession"] == room.succession
    moved = Room.from_handover(json.loads(json.dumps(room.sealed_state())), 1, room.now,
                               new_id=room_id_after(room.room_id, 1, room.succession))
    assert moved.succession == room.succession      # a chained handover: the same secret
    assert epoch_after(moved.room_id) == 2
    for bad in ("", "ab" * 15, "AB" * 16, "xy" * 16, 7, None, ["ab" * 16], "ab" * 16 + "\n"):
        tampered = dict(saved, succession=bad)
        with pytest.raises(ValueError):
            check_saved(tampered)
        with pytest.raises(ValueError):
            Room.from_dict(tampered)
    old_save = {k: v for k, v in saved.items() if k != "succession"}   # saved before it was
    fresh = Room.from_dict(old_save)
    assert fresh.succession != room.succession and len(fresh.succession) == 32
    public = [{"name": "Host", "bot": None}, {"name": "Ana", "bot": None}]
    for bad in (None, "", "zz" * 16):
        with pytest.raises(ValueError):
            Room.from_public("crisp-x", 1, public, {}, [0, 0], 0, 1, 0, succession=bad)
    assert Room.from_public("crisp-x", 1, public, {}, [0, 0], 0, 1, 0,
                            succession="cd" * 16).succession == "cd" * 16


def test_the_client_keeps_only_a_well_formed_succession_secret():
    c = Client(lambda t: None)
    c.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "room": "r", "host": 0,
                          "succession": "not hex"}), 0)
    assert c.seat == 1 and c.succession is None
    c.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "room": "r", "host": 0,
                          "succession": "ef" * 16}), 0)
    assert c.succession == "ef" * 16


# ---- the room seals itself for its players ------------------------------------------------

def test_the_room_seals_itself_for_the_people_here_each_with_its_own_share():
    net = playing_room()
    room = net.room
    spectator = net._client("w")
    net.deliver(room.open("w", net.clock, peer="peer-w"))
    spectator.connected()
    spectator.watch()
    assert room.seal_due(net.clock)
    out = room.seal_out(net.clock, randbytes_from(11))
    net.deliver(out)
    assert sorted(c for c, _ in out) == ["a", "b", "c"]        # not the host, bot, spectator
    assert room.seal_due(net.clock)          # no wait: the room seals with every change
    shares = {}
    for conn in ("a", "b", "c"):
        sealed = net.clients[conn].sealed
        assert sealed["host"] == 0 and sealed["box"]["n"] == 1
        shares[conn] = sealed["share"]
        # each got its own share, and no message names another's
        texts = [t for t in net.inbox[conn] if '"sealed"' in t]
        assert all(shares[conn] in t for t in texts)
    assert len(set(shares.values())) == 3
    assert spectator.sealed is None and net.clients[LOCAL].sealed is None
    # each holder got, for every other holder, the key that holder's page proves itself with
    from ui.shared.handover import successor_key
    for conn, seat in (("a", 1), ("b", 2), ("c", 3)):
        keys = net.clients[conn].sealed["keys"]
        assert sorted(keys) == sorted(str(s) for s in (1, 2, 3) if s != seat)
        for other, key in keys.items():
            assert key == successor_key(room.seats[int(other)].token, room.room_id, seat)
        assert all(room.seats[s].token not in json.dumps(net.clients[conn].sealed)
                   for s in (1, 2, 3))
    assert net.leaks == []
    box = net.clients["a"].sealed["box"]
    opened = seal.open_room(box, [shares["a"], shares["c"]], room.room_id)
    # the room, and the spectators its next host tells where it went (their PeerJS ids and
    # the `moved` proofs the host made for the real next ids: never a follow token)
    watchers = opened.pop("watchers")
    assert watchers == [{"peer": "peer-w", "moved": moved_entries(
        spectator.follow, room.room_id, room.succession)}]
    assert "seal_checks" not in opened and "opened" not in opened
    assert all(spectator.follow not in t for c in ("a", "b", "c") for t in net.inbox[c])
    assert unseeded(opened) == unseeded(room.to_dict())
    assert all(set(s["agent"]["rng"]) == {"seed"} for s in opened["seats"] if s["agent"])
    # an older box never replaces a newer one
    net.deliver(room.seal_out(net.clock + 1000, randbytes_from(12)))
    old = {"type": "sealed", "v": 1, "box": box, "share": shares["a"], "host": 0}
    net.clients["a"].receive(json.dumps(old), net.clock)
    assert net.clients["a"].sealed["box"]["n"] == 2


def test_with_one_person_besides_the_host_nothing_is_sealed():
    net = Net()
    net.host.join("Host")
    net.guest("a", "Ana")
    net.host.host({"type": "start"})
    assert not net.room.seal_due(net.clock) and net.room.seal_out(net.clock) == []


# ---- the handover's decisions on each page ------------------------------------------------

def test_a_handover_end_to_end_between_pages_and_an_impostor_gets_nothing():
    from ui.shared.handover import Handover
    net = playing_room()
    room = net.room
    net.deliver(room.seal_out(net.clock, randbytes_from(21)))
    players_seen = net.clients["a"].players
    plans = {conn: Handover(room.room_id, net.clients[conn].seat, players_seen, 0,
                            net.clients[conn].sealed, 1, net.clients[conn].succession)
             for conn in ("a", "b", "c")}
    assert [p.role for p in plans.values()] == ["host", "guest", "guest"]
    assert {p.new_id for p in plans.values()} == {room_id_after(room.room_id, 1,
                                                                room.succession)}
    ana, bea = plans["a"], plans["b"]
    assert ana.resume and ana.opened(seal.open_room) is None       # one share: nothing
    # an impostor at the new id cannot prove it is Ana's seat: Bea hands it nothing
    nonce = bea.challenge("1" * 32)
    fake = ana.prove("f" * 32, 2, "peer-b", nonce, "2" * 32)
    assert bea.share_for(fake, "2" * 32, "peer-b") is None
    # nor can Cid, who knows his own key for Ana but not Bea's
    nonce = bea.challenge("3" * 32)
    cid_key = net.clients["c"].sealed["keys"]["1"]
    from ui.shared.handover import successor_mac
    assert bea.share_for(successor_mac(cid_key, room.room_id, 1, "peer-b", nonce, "4" * 32),
                         "4" * 32, "peer-b") is None
    # Ana's page proves itself with its own token, and gets Bea's share
    nonce = bea.challenge("5" * 32)
    mac = ana.prove(room.seats[1].token, 2, "peer-b", nonce, "6" * 32)
    assert bea.share_for(mac, "6" * 32, "peer-x") is None           # bound to Bea's peer id
    nonce = bea.challenge("7" * 32)
    mac = ana.prove(room.seats[1].token, 2, "peer-b", nonce, "8" * 32)
    share = bea.share_for(mac, "8" * 32, "peer-b")
    assert share["share"] == net.clients["b"].sealed["share"]
    ana.take_share({"n": 99, "share": "junk"})
    assert ana.opened(seal.open_room) is None
    ana.take_share(share)
    state = ana.opened(seal.open_room)
    assert state["watchers"] == []                  # nobody watches this room
    assert unseeded(dict(state, watchers=None)) == dict(unseeded(room.to_dict()), watchers=None)
    continued = Room.from_handover(state, ana.seat, room.now + 3000)
    assert continued.game == room.game and continued.host == 1


def test_with_one_person_left_the_successor_deals_again_and_nobody_hosts_bots():
    from ui.shared.handover import Handover
    spec = [{"seat": 0, "connected": False, "bot": None}, {"seat": 1, "connected": True,
            "bot": None}, {"seat": 2, "connected": True, "bot": "easy"}]
    plan = Handover("crisp-x", 1, spec, 0, None, 1, "ab" * 16)
    assert plan.role == "host" and not plan.resume
    assert Handover("crisp-x", 1, spec[:1] + spec[2:], 0, None, 1, "ab" * 16).role == "none"
    with pytest.raises(ValueError):
        Handover("crisp-x", 1, spec, 0, None)          # no secret: no id to move to


def test_the_pages_entry_script_compiles_on_micropython(tmp_path):
    import os
    from test_render_micropython import ROOT, run_tests_on_micropython
    from page_compile_cases import GLUE
    files = {"/tests/page_compile_cases.py": os.path.join(ROOT, "tests", "page_compile_cases.py")}
    for name in GLUE:
        files["/ui/page/%s.py" % name] = os.path.join(ROOT, "ui", "page", *(name + ".py").split("/"))
    ran, failed, out = run_tests_on_micropython(tmp_path, "page_compile_cases", files)
    assert failed == [] and ran == 1, out


def test_on_its_own_turn_the_gone_old_host_is_timed_out_at_once_not_after_another_grace():
    # The tab closed on the host's own turn: the pages waited the gone time (30 s) before
    # the handover; the new room then plays the old host's part at once (R2.4) instead of
    # holding the table for another GONE_MS (20 s).
    net = playing_room()
    play_out(net, [LOCAL, "a", "b", "c"],
             lambda: net.room.game.phase == "play" and net.room.game.turn == 0
             and net.room.game.held is None)
    old = net.room
    state = json.loads(json.dumps(old.sealed_state()))
    box, shares = seal.seal_room(state, old.room_id, 1, [1, 2, 3], randbytes_from(3))
    opened = seal.open_room(box, [shares[2], shares[3]], old.room_id)
    now = old.now + 30000
    room = Room.from_handover(opened, 1, now, new_id=old.room_id + "-h1",
                              make_bot=bot_maker(old.seed, 0.01))
    assert room.game.turn == 0
    room.tick(room.now + 100)
    assert room.game.turn != 0 or room.game.phase != "play"


def test_a_holder_answers_only_a_proven_share_proof_and_leaves_the_rest_to_the_client():
    from ui.shared import wire
    from ui.shared.handover import Handover, successor_key, successor_mac
    token = "b" * 32
    keys = {"1": successor_key(token, "crisp-room", 2)}
    sealed = {"box": {"n": 3}, "share": "1:abc", "keys": keys}
    players = [{"seat": s, "name": n, "connected": True, "bot": None}
               for s, n in enumerate(["Ana", "Bea", "Cleo"])]
    holder = Handover("crisp-room", 2, players, 0, sealed, 1, "c" * 32)
    assert holder.role == "guest" and holder.successor == 1
    nonce = holder.challenge("1" * 32)
    assert holder.answer({"type": "view", "v": 1}, "peer-c") == (False, None)
    assert holder.answer(None, "peer-c") == (False, None)
    host_nonce = "d" * 32
    mac = successor_mac(keys["1"], "crisp-room", 1, "peer-c", nonce, host_nonce)
    forged = wire.message("share_proof", n=3, nonce=host_nonce, mac="e" * 64)
    assert holder.answer(forged, "peer-c") == (True, None)
    nonce = holder.challenge("1" * 32)
    mac = successor_mac(keys["1"], "crisp-room", 1, "peer-c", nonce, host_nonce)
    proven, text = holder.answer(wire.message("share_proof", n=3, nonce=host_nonce, mac=mac),
                                 "peer-c")
    assert proven and wire.read(text) == {"type": "share", "v": 1, "n": 3, "share": "1:abc"}


def test_a_holder_away_while_its_host_went_still_offers_its_share():
    """Issue 23, fault 4: a holder whose page was behind looks for the room instead of
    handing it over; holder_plan lets it offer its share at the first next id, to the
    successor its list names, and to nobody else."""
    from ui.shared import handover as ho
    secret = "ab" * 16
    players = [{"seat": s, "name": n, "connected": True}
               for s, n in ((0, "Hana"), (1, "Ana"), (2, "Bea"))]
    sealed = {"box": {"n": 3}, "share": "2:ff", "keys": {"1": "k" * 64}}
    new_id = ho.room_id_after("crisp-ABCDEFGHJK", 1, secret)
    plan = ho.holder_plan("crisp-ABCDEFGHJK", 2, players, 0, sealed, new_id, secret)
    assert plan is not None and plan.role == "guest" and plan.successor == 1
    # not for a later epoch's id, not without a box, not when its list names itself
    later = ho.room_id_after("crisp-ABCDEFGHJK", 2, secret)
    assert ho.holder_plan("crisp-ABCDEFGHJK", 2, players, 0, sealed, later, secret) is None
    assert ho.holder_plan("crisp-ABCDEFGHJK", 2, players, 0, None, new_id, secret) is None
    assert ho.holder_plan("crisp-ABCDEFGHJK", 1, players, 0, sealed, new_id, secret) is None
    assert ho.holder_plan("crisp-ABCDEFGHJK", 2, players, 0, sealed, new_id, None) is None
    # the share goes only on the successor's proof
    nonce = plan.challenge("cd" * 16)
    assert plan.share_for("00" * 32, "ef" * 16, "peer-b") is None
    plan.challenge(nonce)
    mac = ho.successor_mac("k" * 64, "crisp-ABCDEFGHJK", 1, "peer-b", nonce, "ef" * 16)
    assert plan.share_for(mac, "ef" * 16, "peer-b") == {"n": 3, "share": "2:ff"}


def test_the_host_page_beats_the_connections_the_room_welcomed():
    # the engine's reply as the host page gets it: each output's kind kept to the edge, so
    # the page seats a connection on its `welcome` (HostTransport.send_remote) by its kind
    import json
    from ui.shared import hostlife, wire
    from ui.worker.room import Room
    room = Room("crisp-" + "0" * 32, "Ana", seed=1)
    room.receive("local", json.dumps({"type": "join", "v": 1, "name": "Ana"}), 0)

    def remote(conn, text, now):
        out = [(c, wire.encode(m), k) for c, k, m in room.receive_out(conn, text, now)]
        return hostlife.sort_out(out, "local")["remote"]

    sent = remote("peer-1", json.dumps({"type": "join", "v": 1, "name": "Bea"}), 100)
    kinds = [kind for conn, text, kind in sent if conn == "peer-1"]
    assert kinds[0] == "welcome" and "welcome" not in kinds[1:]
    assert json.loads(sent[kinds.index("welcome")][1])["type"] == "welcome"
    sent = remote("peer-2", json.dumps({"type": "ping", "v": 1, "t": 1}), 200)
    assert [kind for conn, text, kind in sent] == ["pong"]
