"""The seat proof as a guest runs it (ui/shared/proof.py, ui/page/client/client.py): a rejoining guest sends
nothing that lets a peer at the room id take its seat, and takes nothing from a peer that has
not proved it knows the seat's token (docs/protocol.md "Rejoining: the seat proof").

Pure and MicroPython-compatible: tests/test_seat_proof.py runs these again on MicroPython
(the interpreter guest pages run). No pytest here.
"""

import json

from ui.shared import proof
from ui.page.client.client import Client

TOKEN = "5f" * 16
ROOM = "crisp-" + "ab" * 16
PEER = "guest-peer-1"
NONCES = ["%032x" % (0x1234567890abcdef * (i + 1)) for i in range(8)]


def msg(kind, **fields):
    out = {"type": kind, "v": 1}
    out.update(fields)
    return json.dumps(out)


def rejoining(token=TOKEN):
    """A guest page back on a new connection with its saved token: it sent its join."""
    sent = []
    nonces = list(NONCES)
    client = Client(sent.append, nonce=lambda: nonces.pop(0))
    client.token = token
    client.seat, client.screen = 1, "table"
    client.view = {"round": 1, "phase": "play"}
    client.connected()
    client.join("Ana", token, room=ROOM, peer=PEER)
    return client, [json.loads(t) for t in sent]


def the_hosts_challenge(join, token=TOKEN, peer=PEER, room=ROOM, host_nonce=NONCES[7]):
    mac = proof.host_mac(token, room, peer, join["seat_id"], join["nonce"], host_nonce)
    return msg("challenge", nonce=host_nonce, mac=mac)


def test_macs_are_hex_and_bind_every_field_and_the_direction():
    args = (TOKEN, ROOM, PEER, proof.seat_id(TOKEN), NONCES[0], NONCES[1])
    host = proof.host_mac(*args)
    assert proof.is_hex(host, proof.MAC_HEX)
    assert proof.guest_mac(*args) != host                  # one side's MAC is not the other's
    for i in range(len(args)):
        changed = list(args)
        changed[i] = changed[i][:-1] + ("0" if changed[i][-1] != "0" else "1")
        assert proof.host_mac(*changed) != host, i
    # fields cannot slide into each other
    assert proof.host_mac(TOKEN, "ab", "c", "d", "e", "f") != \
        proof.host_mac(TOKEN, "a", "bc", "d", "e", "f")


def test_the_seat_id_is_public_and_tells_nothing_of_the_token():
    sid = proof.seat_id(TOKEN)
    assert proof.is_hex(sid, proof.SEAT_ID_HEX) and sid == proof.seat_id(TOKEN)
    assert sid != proof.seat_id("5f" * 15 + "5e")
    assert TOKEN[:8] not in sid


def test_same_compares_exactly():
    assert proof.same("ab" * 32, "ab" * 32)
    assert not proof.same("ab" * 32, "ab" * 31 + "ac")
    assert not proof.same("ab", "abc") and not proof.same(None, "ab")


def test_is_hex_wants_lowercase_of_the_exact_size():
    assert proof.is_hex("0f" * 16, 32)
    assert not proof.is_hex("0F" * 16, 32) and not proof.is_hex("0f" * 15, 32)
    assert not proof.is_hex(12, 32) and not proof.is_hex("g" * 32, 32)


def test_a_rejoin_sends_the_seat_id_and_a_nonce_never_the_token():
    client, sent = rejoining()
    assert sent == [{"type": "join", "v": 1, "name": "Ana", "seat_id": proof.seat_id(TOKEN),
                     "nonce": NONCES[0]}]
    assert TOKEN not in json.dumps(sent)
    assert not client.trusted


def test_the_host_proves_first_then_the_guest_answers():
    client, sent = rejoining()
    out = []
    client.send = out.append
    assert client.receive(the_hosts_challenge(sent[0]), 10) is True
    assert client.trusted and not client.suspect
    answer = json.loads(out[0])
    assert answer == {"type": "proof", "v": 1, "mac": proof.guest_mac(
        TOKEN, ROOM, PEER, sent[0]["seat_id"], NONCES[0], NONCES[7])}
    # now the room's messages count; the welcome of a rejoin carries no token
    assert client.receive(msg("welcome", seat=1, room=ROOM), 20)
    assert client.token == TOKEN and client.seat == 1


def test_an_unproven_peer_changes_nothing():
    """An impostor at the room id: its tables, lobbies, welcomes (with a new token), kicks and
    errors change neither the model nor the token; the first one marks it suspect."""
    client, sent = rejoining()
    out = []
    client.send = out.append
    before = (client.screen, client.seat, client.view, client.token, client.players)
    fakes = [
        msg("welcome", seat=3, token="00" * 16, room=ROOM),
        msg("lobby", players=[{"seat": 0, "name": "Mallory"}], options={}, host=0,
            started=False),
        msg("view", n=1, view={"round": 9, "phase": "play"}, events=[], players=[]),
        msg("kicked", code="removed", text="go away"),
        msg("error", code="no_seat", text="no such seat"),
    ]
    for fake in fakes:
        assert client.receive(fake, 5) is False
        assert client.suspect and not client.trusted
        assert (client.screen, client.seat, client.view, client.token, client.players) == before
        assert client.error is None and client.kicked is None and client.last_heard is None
    assert out == []                                     # not a word back


def test_a_challenge_that_does_not_prove_the_token_gets_no_answer():
    bad = []
    client, sent = rejoining()
    join = sent[0]
    wrong_token = "6e" * 16
    bad.append(the_hosts_challenge(join, token=wrong_token))
    # the real host's challenge for another peer (a relay: an impostor forwarding our join
    # to the host over its own connection) or another room
    bad.append(the_hosts_challenge(join, peer="impostor-peer"))
    bad.append(the_hosts_challenge(join, room="crisp-" + "cd" * 16))
    # the guest's own direction replayed as the host's, and garbage
    bad.append(msg("challenge", nonce=NONCES[7], mac=proof.guest_mac(
        TOKEN, ROOM, PEER, join["seat_id"], join["nonce"], NONCES[7])))
    bad.append(msg("challenge", nonce="zz", mac="00" * 32))
    bad.append(msg("challenge", nonce=NONCES[7]))
    for text in bad:
        client, sent = rejoining()
        out = []
        client.send = out.append
        assert client.receive(text, 5) is False
        assert client.suspect and not client.trusted and out == [], text
        # and a right challenge after a wrong one is too late: this connection is done
        assert client.receive(the_hosts_challenge(sent[0]), 6) is False and out == []


def test_a_new_connection_starts_unproven_and_a_first_join_trusts_on_first_use():
    sent = []
    client = Client(sent.append, nonce=lambda: NONCES[0])
    client.connected()
    assert client.trusted                       # no token yet: nothing to prove
    client.join("Ana", None)
    # (its page's id: a join again from this page is the same person, docs/protocol.md)
    assert json.loads(sent[0]) == {"type": "join", "v": 1, "name": "Ana", "page": NONCES[0]}
    client.receive(msg("welcome", seat=2, token=TOKEN, room=ROOM), 1)
    assert client.token == TOKEN and client.seat == 2
    # a later welcome without a token (a seat moved down in the lobby) keeps it; one with a
    # token from the room (after a handover: the fresh token replacing a derived one, issue
    # 18 attack 5) replaces it: only a trusted peer's messages get this far
    client.receive(msg("welcome", seat=1, room=ROOM), 2)
    assert client.token == TOKEN and client.seat == 1
    client.receive(msg("welcome", seat=1, token="00" * 16, room=ROOM), 2)
    assert client.token == "00" * 16 and client.seat == 1
    client.connected()                          # a new connection: prove it again
    assert not client.trusted


def test_the_hosts_own_screen_needs_no_proof():
    sent = []
    client = Client(sent.append, is_host=True)
    client.connected()
    client.join("Hana", "ab" * 16)
    assert client.trusted and json.loads(sent[0]) == {"type": "join", "v": 1, "name": "Hana"}


def test_removed_by_the_proven_host_the_seat_is_forgotten_but_not_when_taken_over():
    for code, kept in (("removed", None), ("taken_over", TOKEN)):
        client, sent = rejoining()
        client.send = lambda text: None
        assert client.receive(the_hosts_challenge(sent[0]), 10)
        client.receive(msg("kicked", code=code, text="bye"), 11)
        assert client.screen == "gone" and client.token == kept
