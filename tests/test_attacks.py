"""Issue 18: seven attacks on fair play and succession, by a host whose page runs changed code
(it sits between the honest Room and the wire: it may drop, change or add any message) and by
a seated guest, each driven through the public entry points (Room.open/receive/tick,
Client.receive, crisp_core.verify) as tests/roomnet.py does. Each failed on the code before
its fix; docs/protocol.md "Threat model" points here, one row per test."""

import json

import pytest

from crisp_core import verify
from roomnet import Net, play_out, room_of_three
from test_fairplay import play_round
from ui.page.screens.results_model import fair_alarm
from ui.worker.room import CONTRIBUTE_MS, LOCAL, Room


class Tampered(Net):
    """A Net whose host runs changed code: `outgoing(conn, msg)` sees every message the room
    sends (a dict) and returns the list of messages to send instead; `incoming(conn, msg)`
    every message a guest sends the room, returning it or None (dropped). Both default to
    passing everything through."""

    def outgoing(self, conn, msg):
        return [msg]

    def incoming(self, conn, msg):
        return msg

    def _client(self, conn, is_host=False):
        client = Net._client(self, conn, is_host)

        def send(text, conn=conn):
            msg = self.incoming(conn, json.loads(text))
            if msg is not None:
                self.deliver(self.room.receive(conn, json.dumps(msg), self.clock))
        client.send = send
        return client

    def deliver(self, out):
        changed = []
        for conn, text in out:
            for msg in self.outgoing(conn, json.loads(text)):
                changed.append((conn, json.dumps(msg)))
        Net.deliver(self, changed)


def tampered_room(cls):
    """A room of three (the host, Ana on "a", Bea on "b") whose host is a `cls`."""
    net = cls()
    net.host.join("Host")
    net.guest("a", "Ana")
    net.guest("b", "Bea")
    return net


def guests(net):
    return [net.clients[conn] for conn in ("a", "b")]


# ---- 2. the host drops every contribution and still shows round-verified ---------------------

class DropsContributions(Tampered):
    """Ignores the guests' numbers and names nobody as skipped (it deals from its secret
    alone: a secret it may have ground offline for a deal it likes)."""

    def incoming(self, conn, msg):
        return None if msg.get("type") == "contribute" else msg

    def outgoing(self, conn, msg):
        if msg.get("type") == "fair":
            msg = dict(msg, skipped=[])
        return [msg]


def test_attack_2_a_host_that_drops_every_contribution_is_caught_by_every_guest():
    net = tampered_room(DropsContributions)
    net.host.host({"type": "start"})
    net.later(CONTRIBUTE_MS)
    assert net.last("a", "fair")["contributions"] == [] and net.last("a", "fair")["skipped"] == []
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.verdict["ok"] is False and client.verdict["what"] == "contribution"
        # and the saved record says so to anyone who runs crisp_core.verify on it
        assert verify.check(client.record)["what"] == "contribution"


class NamesThemSkipped(DropsContributions):
    """Ignores the numbers of the seats in `dropped` but says so: those seats are named as
    skipped (the limit that stays: the host decides who was in time), which each page tells
    its player plainly."""

    dropped = (1, 2)

    def incoming(self, conn, msg):
        if msg.get("type") == "contribute" and self.room.conns.get(conn) in self.dropped:
            return None
        return msg

    def outgoing(self, conn, msg):
        return [msg]


class SkipsAna(NamesThemSkipped):
    dropped = (1,)


def test_attack_2_a_seat_named_as_skipped_is_told_its_number_was_not_used():
    net = tampered_room(SkipsAna)
    net.host.host({"type": "start"})
    net.later(CONTRIBUTE_MS)
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.verdict["ok"] and client.verdict["skipped"] == [1]
        assert verify.check(client.record) is None


def test_attack_2_a_deal_with_every_seat_named_skipped_is_not_checked_never_green():
    """With every seat named skipped the deal is the host's own secret (one it may have
    ground for a deal it likes): every page says loudly the round is not checked, at the
    deal and on the results."""
    net = tampered_room(NamesThemSkipped)
    net.host.host({"type": "start"})
    net.later(CONTRIBUTE_MS)
    for client in guests(net):
        assert client.verdict["what"] == "alone" and fair_alarm(client, client.view) == "alone"
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.verdict["ok"] is False and client.verdict["what"] == "alone"
        assert client.verdict["skipped"] == [1, 2]
        assert fair_alarm(client, client.view) == "alone"


class AddsItsOwnNumber(Tampered):
    """Adds a number of its own, as the host's seat's, after seeing the guests' (it picks the
    deal among as many as it can try)."""

    def outgoing(self, conn, msg):
        if msg.get("type") == "fair":
            msg = dict(msg, contributions=[[0, "5a" * 16]] + msg["contributions"])
        return [msg]


def test_attack_2_a_contribution_from_the_hosts_own_seat_is_refused():
    net = tampered_room(AddsItsOwnNumber)
    net.host.host({"type": "start"})
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.verdict["what"] == "contribution", client.verdict
        assert verify.check(client.record)["what"] == "contribution"


def test_a_page_that_joined_after_the_commitment_does_not_name_todays_host_as_its_host():
    """After a handover the round goes on under a new host that contributed to it as a guest:
    a page that joins then (the old host back as a player) did not see who hosted at the
    commitment, so it must not refuse that guest's number as "the host's" (it did: the
    e2e handover showed round-mismatch on the old host's page)."""
    net = room_of_three()
    net.host.host({"type": "start"})
    net.later(CONTRIBUTE_MS)
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    token = net.clients["a"].token
    net.close("a")
    net.later(1000)
    again = net.guest("a2", "Ana", token)
    number = net.room.game.round
    assert again.fair[number]["host"] is None
    assert net.clients["b"].fair[number]["host"] == 0      # Bea saw the commitment come
    play_round(net, (LOCAL, "a2", "b"))
    assert again.verdict["ok"] and net.clients["b"].verdict["ok"]
    record = dict(again.record, host=1)                  # today's host, had it been recorded
    assert verify.check(record).get("what") == "contribution"


# ---- 3. the host deals again until it likes the deal --------------------------------------------

class DealsAgain(Tampered):
    """Commits to round 1, takes the numbers, then commits to round 1 again (as if it did not
    like the deal the first commitment gave) before the honest room's own commitment."""

    def __init__(self):
        Tampered.__init__(self)
        self.again = True

    def outgoing(self, conn, msg):
        if msg.get("type") == "commit" and self.again and conn != LOCAL:
            first = dict(msg, commitment="c1" * 32)
            return [first, msg]
        return [msg]


def test_attack_3_a_second_commitment_for_a_round_is_a_mismatch_at_once_and_in_the_record():
    net = tampered_room(DealsAgain)
    net.host.host({"type": "start"})
    # at once, before the round is over: both guests say the host dealt the round again
    for client in guests(net):
        assert client.verdict["round"] == 1 and client.verdict["what"] == "again"
        assert client.view is not None and client.view["phase"] == "peek"
        assert verify.check(client.record)["what"] == "again"
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.verdict["what"] == "again" and client.verdict["ok"] is False
        assert len(client.record["commitments"]) == 2
        assert verify.check(client.record)["what"] == "again"
    net.again = False
    net.host.host({"type": "next_round"})
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.verdict == dict(client.verdict, round=2, ok=True)


class NewGameOverACommitment(Tampered):
    """Commits to round 1, takes the numbers, then goes back to the lobby and starts over
    (a new game's round 1: a fresh commitment the pages would answer afresh)."""

    def __init__(self):
        Tampered.__init__(self)
        self.armed = True

    def outgoing(self, conn, msg):
        if msg.get("type") == "commit" and self.armed and conn != LOCAL:
            reset = dict(self.last(conn, "lobby"), started=False)
            return [dict(msg, commitment="d1" * 32), reset, msg]
        return [msg]


def test_attack_3_a_new_game_over_an_answered_commitment_is_a_mismatch():
    net = tampered_room(NewGameOverACommitment)
    net.host.host({"type": "start"})
    for client in guests(net):
        assert client.verdict["what"] == "again", client.verdict


class SkipsARound(Tampered):
    """Commits to round 2 twice in a row with the round number moved on: round 2's first
    commitment is never dealt, a 'round 3' commitment follows."""

    def outgoing(self, conn, msg):
        if msg.get("type") == "commit" and msg["round"] == 2 and conn != LOCAL:
            return [dict(msg, commitment="e1" * 32, round=2), dict(msg, round=3),
                    msg]
        return [msg]


def test_attack_3_a_commitment_left_undealt_for_the_next_one_is_a_mismatch():
    net = tampered_room(SkipsARound)
    net.host.host({"type": "start"})
    play_round(net, (LOCAL, "a", "b"))
    assert all(c.verdict["ok"] for c in guests(net))
    net.host.host({"type": "next_round"})
    for client in guests(net):
        assert client.verdict["what"] == "again", client.verdict


class ReDealsOverALobby(Tampered):
    """Re-deals round 1 until it likes the deal, hiding each try behind a new game: a fake
    commitment the pages answer, its `fair` (the deal "came"), a new game's lobby, then the
    real commitment. `shift`: 1 renumbers the room's deals past the fake one (a fresh
    number), 0 reuses it. `tries`: how many re-deals before the real one."""

    def __init__(self, shift, tries=3):
        Tampered.__init__(self)
        self.shift = shift
        self.tries = tries

    def outgoing(self, conn, msg):
        kind = msg.get("type")
        if kind in ("commit", "fair") and conn != LOCAL and msg["round"] == 1:
            deal = msg["deal"] + self.shift * self.tries
            out = []
            if kind == "commit":
                for k in range(self.tries):
                    number = msg["deal"] + self.shift * k
                    fake = "%02x" % (0x31 + k) * 32
                    out += [dict(msg, deal=number, commitment=fake),
                            dict(type="fair", v=1, round=1, deal=number, commitment=fake,
                                 contributions=[], skipped=[], dealer=0,
                                 options=dict(self.room.options, players=3),
                                 scores=[0, 0, 0], start=self.clock,
                                 players=["Host", "Ana", "Bea"]),
                            dict(self.last(conn, "lobby"), started=False)]
            return out + [dict(msg, deal=deal)]
        return [msg]


@pytest.mark.parametrize("shift", [0, 1])
def test_attack_3_a_re_deal_behind_a_new_games_lobby_is_a_mismatch(shift):
    """A page's memory of the commitments it answered lasts the whole room, new games
    included: a `fair` for the dropped commitment and a new game's lobby do not make the
    next commitment a fresh one (its number is one already answered, or the answered one
    never came to its round's end)."""
    net = tampered_room(lambda: ReDealsOverALobby(shift))
    net.host.host({"type": "start"})
    for client in guests(net):
        assert client.verdict is not None and client.verdict["what"] == "again", client.verdict
        assert verify.check(client.record)["what"] == "again"
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.verdict["ok"] is False and client.verdict["what"] == "again"


def test_attack_3_an_honest_new_game_after_game_over_verifies_every_round():
    """The room's deals are numbered across its games (`deal`, never reused in a room): a
    new game's round 1 is a new deal, and the page, which keeps what it answered all along,
    checks it as any other."""
    from test_room import host_ana_and_a_bot, play_to_game_over
    net, _ = host_ana_and_a_bot(target=50)
    ana = net.clients["a"]
    seen = []

    def check():
        if ana.verdict is not None and ana.verdict not in seen:
            seen.append(ana.verdict)
    for _ in range(2):
        net.host.host({"type": "start"})
        deals = [m["deal"] for m in net.received("a", "commit")]
        assert deals == list(range(1, len(deals) + 1))
        play_out(net, (LOCAL, "a"), lambda: check() or net.host.view["phase"] == "game_over")
        check()
        net.host.host({"type": "new_game"})
    assert seen and all(v["ok"] for v in seen), [v for v in seen if not v["ok"]]
    assert len({(v["round"], id(v)) for v in seen}) >= 2
    saved = Room.from_dict(json.loads(json.dumps(net.room.to_dict())))
    assert saved.deal.deals == net.room.deal.deals > 2


# ---- 4b. a commitment with no proof ---------------------------------------------------------

class HidesTheProof(Tampered):
    """Commits (and, with `fair`, sends the round's start) but never the proof: the secret
    stays hidden, so nothing can be checked."""

    def __init__(self, fair=True):
        Tampered.__init__(self)
        self.fair = fair

    def outgoing(self, conn, msg):
        if msg.get("type") == "proof" or (msg.get("type") == "fair" and not self.fair):
            return []
        return [msg]


@pytest.mark.parametrize("fair", [True, False])
def test_attack_4_a_round_that_ends_with_no_proof_says_it_was_not_checked(fair):
    net = tampered_room(lambda: HidesTheProof(fair))
    net.host.host({"type": "start"})
    if not fair:
        # a commitment and views, but no round start: not checkable, said at once
        for client in guests(net):
            assert client.verdict["what"] == "unproven", client.verdict
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.view["phase"] in ("round_over", "game_over")
        assert client.verdict["round"] == 1 and client.verdict["what"] == "unproven"
        assert client.verdict["ok"] is False
        assert fair_alarm(client, client.view) == "unproven"
        assert verify.check(client.record)["what"] in ("record", "unproven")


def test_attack_4_an_honest_round_never_shows_unchecked_before_its_proof():
    """The room sends a round's proof before the views that end it (and to a rejoining
    page before its view), so no page ever sees the end of an honest round unchecked."""
    net = room_of_three()
    net.host.host({"type": "start"})
    verdicts = []
    for conn in ("a", "b"):
        client = net.clients[conn]
        receive = client.receive

        def spy(text, now, client=client, receive=receive):
            out = receive(text, now)
            if client.verdict is not None:
                verdicts.append(client.verdict["what"] if not client.verdict["ok"] else "ok")
            return out
        client.receive = spy
    play_round(net, (LOCAL, "a", "b"))
    assert verdicts and set(verdicts) == {"ok"}, verdicts
    token = net.clients["b"].token
    net.close("b")
    again = net.guest("b2", "Bea", token)
    assert again.view["phase"] in ("round_over", "game_over")
    assert again.verdict["ok"] is True, again.verdict


# ---- 4. no commitment at all ---------------------------------------------------------------------

class NeverCommits(Tampered):
    """Sends no commit, fair or proof (it deals a stacked deck and says nothing)."""

    def outgoing(self, conn, msg):
        return [] if msg.get("type") in ("commit", "fair", "proof") else [msg]


def test_attack_4_a_round_with_no_commitment_says_at_once_that_it_is_not_checked():
    net = tampered_room(NeverCommits)
    net.host.host({"type": "start"})
    net.later(CONTRIBUTE_MS)
    for client in guests(net):
        assert client.view is not None
        assert client.verdict["round"] == 1 and client.verdict["what"] == "uncommitted"
        assert verify.check(client.record)["what"] == "uncommitted"
    play_round(net, (LOCAL, "a", "b"))
    for client in guests(net):
        assert client.verdict["what"] == "uncommitted" and not client.verdict["ok"]


def test_attack_4_an_honest_room_says_nothing_of_the_kind():
    net = room_of_three()
    net.host.host({"type": "start"})
    for client in guests(net):
        assert client.verdict is None
    play_round(net, (LOCAL, "a", "b"))
    assert all(c.verdict["ok"] for c in guests(net))


# ---- 5. a former host opens every seat after it -------------------------------------------------


def test_attack_5_a_former_host_cannot_open_a_seat_that_proved_itself_after_the_handover():
    from test_takeover import Takeover_, holder_flow, playing, rejoined, sealed
    from ui.shared.handover import next_token
    net = playing()
    sealed(net)
    old = net.room
    saved = json.loads(json.dumps(old.to_dict()))     # what the old host's page keeps
    take = Takeover_(net)
    holder_flow(take, net, "g2", "peer-b")
    derived = next_token(old.seats[2].token, old.room_id, 1)
    bea = rejoined(take, "g2", "peer-b", "Bea", derived)
    assert bea.seat == 2 and not bea.suspect
    # her page got a fresh token over that connection: the derived one opens nothing now
    assert bea.token != derived and len(bea.token) == 32
    # the old host, back as a player, derives Bea's token from its save and tries her seat
    thief_token = next_token(saved["seats"][2]["token"], saved["room_id"], 1)
    take.open("x", "peer-x")
    thief = rejoined(take, "x", "peer-x", "Bea", thief_token)
    assert thief.seat is None and thief.view is None
    assert take.engine.room.seats[2].conn == "g2"     # Bea keeps her seat
    # and her fresh token is what a next handover derives from (no one else knows it)
    assert take.engine.room.seats[2].token == bea.token
    # her page rejoins with it as with any token
    take.open("g2b", "peer-b2")
    again = rejoined(take, "g2b", "peer-b2", "Bea", bea.token)
    assert again.seat == 2 and again.token == bea.token


# ---- 6. one stranger holds every spectator place ------------------------------------------------

def spectator(net, conn, peer):
    client = net._client(conn)
    net.deliver(net.room.open(conn, net.clock, peer=peer))
    client.connected()
    client.watch()
    return client


def test_attack_6_one_peer_holds_two_spectator_places_at_most_and_a_late_friend_gets_in():
    from ui.worker.room import MAX_SPECTATORS
    net = room_of_three()
    net.host.host({"type": "start"})
    for i in range(MAX_SPECTATORS):
        spectator(net, "s%d" % i, "peer-squatter")
    mine = [c for c in net.room.spectators if c.startswith("s")]
    assert len(mine) == 2                      # its third place took its own oldest
    # others fill the room, then a late friend still gets a place: the squatter's oldest goes
    for i in range(MAX_SPECTATORS - 2):
        spectator(net, "f%d" % i, "peer-friend%d" % i)
    assert len(net.room.spectators) == MAX_SPECTATORS
    late = spectator(net, "late", "peer-late")
    assert "late" in net.room.spectators and late.spectator
    assert len([c for c in net.room.spectators if c.startswith("s")]) == 1
    # pinging every 20 s keeps nothing more than its two places
    for _ in range(3):
        net.later(20000)
        for conn in list(net.room.spectators):
            net.clients[conn].ping(net.clock)
    assert len([c for c in net.room.spectators if c.startswith("s")]) <= 2


# ---- 7. the designated successor forges `moved` ------------------------------------------------


def test_attack_7_no_follow_token_leaves_the_host_and_moved_names_only_the_real_next_id():
    from test_takeover import Takeover_, playing, sealed, watching
    from ui.shared import handover, spectator_moves
    net = playing(("Ana",), bots=1)           # no sealed box: the standby path
    cleo = watching(net, "w1", "peer-cleo")
    net.later(1000)
    sealed(net)
    ana = net.clients["g1"]
    everything = "".join(t for conn, texts in net.inbox.items() if conn != "w1"
                         for t in texts)
    assert cleo.follow not in everything       # not in standby, not anywhere
    # the designate makes a `moved` to a room of its own: Cleo's page refuses it
    old_id = net.room.room_id
    own = old_id + "-h1-" + "0" * 20
    forged = [json.dumps({"type": "moved", "v": 1, "room": own, "mac": entry["moved"][0][1]})
              for entry in ana.standby["watchers"]] if ana.standby["watchers"] and \
        "moved" in ana.standby["watchers"][0] else []
    forged.append(spectator_moves.moved_message("ab" * 16, old_id, own))
    for text in forged:
        assert spectator_moves.check_moved(text, cleo.follow, old_id, cleo.next_ids) is None
    # the real takeover's `moved` holds
    take = Takeover_(net)
    told = take.last["follow"]
    assert [f["peer"] for f in told] == ["peer-cleo"]
    assert spectator_moves.check_moved(told[0]["text"], cleo.follow, old_id, cleo.next_ids) == \
        take.spec["new_id"]


def test_attack_7_a_real_next_id_handed_to_a_spectator_early_waits_for_the_host_to_be_gone():
    """The designate (Ana, in a room with no sealed box: the host, her and a bot) has the
    host's own `moved` proofs in her `standby` and the succession secret: she registers the
    room's real next id while the host is fine and hands Cleo, a spectator, the host's real
    proof for it. The proof checks out (it is the host's own), so Cleo's page follows it only
    once the old host has been silent for the gone time on her own clock (the page's Link,
    fed by what the host sends her), or said itself that it leaves."""
    from test_takeover import playing, sealed, watching
    from ui.page.net.link import HOST_GONE_MS, Link
    from ui.shared import handover, spectator_moves
    net = playing(("Ana",), bots=1)
    cleo = watching(net, "w1", "peer-cleo")
    net.later(1000)
    sealed(net)
    ana = net.clients["g1"]
    old_id = net.room.room_id
    real = handover.room_id_after(old_id, 1, ana.succession)
    entry = [w for w in ana.standby["watchers"] if w["peer"] == "peer-cleo"][0]
    early = spectator_moves.check_moved(spectator_moves.moved_for(entry, real), cleo.follow,
                                        old_id, cleo.next_ids)
    assert early == real                     # a real proof: the check alone cannot tell
    link = Link(net.clock)                   # Cleo's page's link to the old host
    heard = len(net.inbox["w1"])

    def listen():
        nonlocal heard
        if len(net.inbox["w1"]) > heard:     # the old host spoke to her: its sign of life
            heard = len(net.inbox["w1"])
            link.heard(net.clock)
        return spectator_moves.follow_now(early, link.sign(), net.clock, HOST_GONE_MS,
                                          cleo.host_leaving)
    for _ in range(20):                      # a minute of play: the host still there
        net.later(3000)
        cleo.ping(net.clock)                 # her page's heartbeat: the host answers
        assert listen() is False, net.clock
    # the host gone silent: she follows once it has been quiet that long on her clock
    quiet = net.clock
    while not listen():
        net.clock += 500
    assert net.clock - quiet >= HOST_GONE_MS - 3000
    assert spectator_moves.follow_now(early, link.sign(), link.sign() + HOST_GONE_MS - 1,
                                      HOST_GONE_MS) is False
    # the host says it leaves (on its own connection to her): she follows at once
    net.host.host({"type": "leave"})
    assert cleo.host_leaving
    assert spectator_moves.follow_now(early, net.clock, net.clock, HOST_GONE_MS, True)
    assert not spectator_moves.follow_now(None, 0, 10 ** 9, HOST_GONE_MS, True)


# ---- 1. a seated guest takes the room on a host reload -------------------------------------------

def test_attack_1_a_room_at_the_next_id_must_prove_it_opened_the_sealed_box():
    """Ana (the designate: she knows the succession secret and has every seat's standby
    token) registers the room's next id while the host reloads and answers `watching` there
    naming herself as host. The reloaded host's page (comeback.moved_host, from its save)
    must not give its room up to her; to the real successor, which opened the box with two
    shares, it does. Two guests who collude open the box: that limit stays."""
    from test_takeover import Takeover_, holder_flow, playing, sealed, watching
    from ui.shared import comeback, handover, seal
    from ui.worker.room import Room
    net = playing()
    sealed(net)
    saved = json.loads(json.dumps(net.room.to_dict()))     # the host's save, at its reload
    ana, bea = net.clients["g1"], net.clients["g2"]
    new_id = handover.room_id_after(net.room.room_id, 1, ana.succession)
    # Ana's own room at the next id, with what she knows
    squat = Room(new_id, "Ana", succession=ana.succession)
    squat.host = 1
    squat.open("probe", 0, peer="peer-host")
    answer = [json.loads(t) for _, t in squat.receive("probe", json.dumps(
        {"type": "watch", "v": 1}), 0)]
    watching_msg = [m for m in answer if m["type"] == "watching"][0]
    assert watching_msg["host"] == 1
    assert comeback.moved_host(saved, new_id, watching_msg) is None
    # whatever she claims: a made-up proof, or one over her own share alone
    for opened in ({"n": ana.sealed["box"]["n"], "mac": "00" * 32},
                   {"n": ana.sealed["box"]["n"],
                    "mac": comeback.opened_mac(seal.opened_check(b"\0" * 32), new_id)}):
        assert comeback.moved_host(saved, new_id, dict(watching_msg, opened=opened)) is None
    # the real successor (the box opened with Bea's share): its `watching` proves it
    take = Takeover_(net)
    share, reply = holder_flow(take, net, "g2", "peer-b")
    assert reply["handover"] == "sealed"
    take.open("probe", "peer-host")
    real = [m for m in take.to(take.send("probe", json.dumps({"type": "watch", "v": 1})),
                               "probe") if m["type"] == "watching"][0]
    assert comeback.moved_host(saved, new_id, real) == 1
    assert comeback.moved_host(saved, new_id + "x", real) is None     # bound to the id
    # the limit that stays: Ana and Bea together open the box, so they can prove it too
    check = {}
    seal.open_room(ana.sealed["box"], [ana.sealed["share"], bea.sealed["share"]],
                   net.room.room_id, check=check)
    colluding = dict(watching_msg, opened={"n": ana.sealed["box"]["n"],
                                           "mac": comeback.opened_mac(check["opened"], new_id)})
    assert comeback.moved_host(saved, new_id, colluding) == 1


def test_a_saved_rooms_succession_fields_are_checked_and_junk_is_ignored():
    from ui.shared import comeback
    good = {"seal_n": 7, "seal_checks": {"6": "ab" * 32, "7": "cd" * 32},
            "opened": {"n": 3, "check": "ef" * 32}, "derived": [1, 2, 9],
            "standby_check": "12" * 32}
    kept = comeback.saved_keep(good, people=[1, 2, 3])
    assert kept == {"seal_n": 7, "seal_checks": good["seal_checks"], "opened": good["opened"],
                    "derived": {1, 2}, "standby_check": "12" * 32}
    assert comeback.saved_keep({"standby_check": "x"}, people=[1])["standby_check"] is None
    for junk in ({"seal_n": -1}, {"seal_n": True}, {"seal_checks": {"x": "ab" * 32}},
                 {"seal_checks": {"1": "AB" * 32}}, {"seal_checks": "x"},
                 {"seal_checks": dict((str(i), "ab" * 32) for i in range(40))},
                 {"opened": {"n": 1}}, {"opened": {"n": "1", "check": "ab" * 32}},
                 {"opened": {"n": 1, "check": "ab" * 32, "x": 1}}, {"derived": "1"}):
        kept = comeback.saved_keep(junk, people=[1])
        assert kept["seal_checks"] == {} and kept["opened"] is None
        assert kept["seal_n"] in (0,) and kept["derived"] in (set(),)
    # the host keeps its last boxes' checks, the oldest dropped
    checks = {}
    for n in range(1, 30):
        checks = comeback.keep_check(checks, n, "%064x" % n)
    assert sorted(int(k) for k in checks) == list(range(30 - comeback.OPENED_KEEP, 30))


def test_attack_1_every_box_sent_is_in_the_hosts_save_with_its_check():
    """The old host checks a successor's proof against the checks its page saved: a box
    sealed with a change (every change is sealed in its own reply) must come with a save
    too, or the newest box, the one the successor opens, could not be checked."""
    from ui.shared import comeback, seal
    from ui.worker.engine import Engine
    engine = Engine()

    def ask(req):
        return json.loads(engine.handle(json.dumps(req)))

    def text(kind, **fields):
        return json.dumps(dict(fields, type=kind, v=1))
    ask({"op": "create", "room_id": "crisp-abc", "name": "Host", "seed": 3, "now": 0})
    ask({"op": "receive", "conn": LOCAL, "text": text("join", name="Host"), "now": 0})
    for conn, name in (("a", "Ana"), ("b", "Bea")):
        ask({"op": "open", "conn": conn, "peer": "peer-" + conn, "now": 0})
        ask({"op": "receive", "conn": conn, "text": text("join", name=name), "now": 0})
    ask({"op": "receive", "conn": LOCAL, "text": text("start"), "now": 10})
    reply = ask({"op": "tick", "now": 5000})
    view = [json.loads(t) for c, t, _ in reply["out"] if c == "a"
            and json.loads(t)["type"] == "view"][-1]
    reply = ask({"op": "receive", "conn": "a", "text": text("action", n=view["n"],
                                                            action={"do": "ready"}),
                 "now": 5200})                      # 200 ms after the deal's seal
    boxes = [json.loads(t) for c, t, _ in reply["out"] if json.loads(t)["type"] == "sealed"]
    assert boxes and reply["save"] is not None
    saved = json.loads(reply["save"])
    # Ana and Bea open that box: the check they get is the one the host saved for it
    check = {}
    shares = [b["share"] for b in boxes]
    seal.open_room(boxes[0]["box"], shares, "crisp-abc", check=check)
    n = boxes[0]["box"]["n"]
    assert saved["seal_checks"][str(n)] == check["opened"]
    assert comeback.proves_opening({"n": n, "mac": comeback.opened_mac(check["opened"], "x")},
                                   "x", saved["seal_checks"])


def test_attack_1_with_no_box_only_the_designates_standby_check_proves_the_move():
    """Two people: nobody can open a box, so the designate rebuilds the room from what every
    page knows (`from_public`) and proves it with the check the old host gave it alone in
    `standby`; the old host follows it there (it stayed hosting an empty room before). A
    seated guest without that check, or a designate of a room that sealed boxes, proves
    nothing: it must open a box."""
    from ui.shared import comeback
    check = "5a" * 32
    new_id = "crisp-ABCDEFGHJK-h1-" + "0" * 20
    proof = {"n": 0, "mac": comeback.opened_mac(check, new_id)}
    no_box = {"host": 0, "seal_checks": {}, "standby_check": check}
    assert comeback.moved_host(no_box, new_id, {"host": 1, "opened": proof}) == 1
    forged = {"n": 0, "mac": comeback.opened_mac("6b" * 32, new_id)}
    assert comeback.moved_host(no_box, new_id, {"host": 1, "opened": forged}) is None
    other_id = {"n": 0, "mac": comeback.opened_mac(check, new_id + "x")}
    assert comeback.moved_host(no_box, new_id, {"host": 1, "opened": other_id}) is None
    sealed = dict(no_box, seal_checks={"3": "7c" * 32})
    assert comeback.moved_host(sealed, new_id, {"host": 1, "opened": proof}) is None


def test_the_designates_standby_carries_the_check_the_host_keeps_in_its_save():
    net = Net()
    net.host.join("Host")
    net.guest("a", "Ana")
    net.host.host({"type": "start"})
    net.later(CONTRIBUTE_MS)
    net.deliver(net.room.standby_out())
    standby = net.last("a", "standby")
    assert standby is not None and len(standby["check"]) == 64
    assert net.room.to_dict()["standby_check"] == standby["check"]
    assert net.clients["a"].standby["check"] == standby["check"]
    assert "standby_check" not in json.dumps(net.last("a", "sealed") or {})
