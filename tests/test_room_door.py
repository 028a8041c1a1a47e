"""Idle and hostile connections at the host (ui/shared/gate.py through ui/worker/room.py): a connection
that never joins is closed after 10 s, at most 16 wait at a time and 3 from one peer, and a
flood of them never keeps a real guest out (docs/protocol.md "Idle and hostile connections").
"""

from roomnet import Net
from ui.shared.gate import JOIN_MS, MAX_WAITING, PER_PEER, Gate, acceptable


def test_only_connections_opened_as_the_pages_open_them_are_accepted():
    assert acceptable("raw", True, None)
    assert not acceptable("binary", True, None)          # PeerJS buffers its chunks
    assert not acceptable("json", True, None)
    assert not acceptable("binary-utf8", True, None)
    assert not acceptable(None, True, None)
    assert not acceptable("raw", False, None)
    assert not acceptable("raw", True, '{"x":1}')


def test_a_connection_that_never_joins_is_closed_after_10_s():
    net = Net()
    net.host.join("Hana")
    net.room.open("idle", net.clock, peer="p1")
    assert net.room.next_wakeup() == net.clock + JOIN_MS
    net.deliver(net.room.tick(net.clock + JOIN_MS - 1))
    assert net.room.take_dropped() == []
    net.deliver(net.room.tick(net.clock + JOIN_MS))
    assert net.room.take_dropped() == ["idle"]
    assert net.room.next_wakeup() is None
    # pings do not count as joining: only a seat does
    t0 = net.clock + JOIN_MS
    net.room.open("pinger", t0, peer="p2")
    for t in range(0, JOIN_MS, 1000):
        net.room.receive("pinger", '{"type":"ping","v":1,"t":1}', t0 + t)
    net.room.tick(t0 + JOIN_MS - 1)
    assert net.room.take_dropped() == []
    net.room.tick(t0 + JOIN_MS)
    assert net.room.take_dropped() == ["pinger"]


def test_a_seated_connection_is_never_closed_for_idling():
    net = Net()
    net.host.join("Hana")
    net.guest("a", "Ana")
    net.at(net.clock + 3 * JOIN_MS)
    assert net.room.take_dropped() == [] and net.room.conns["a"] == 1


def test_a_rejoin_has_10_s_for_its_proof_too():
    net = Net()
    net.host.join("Hana")
    net.guest("a", "Ana")
    token = net.clients["a"].token
    net.close("a")
    net.room.open("slow", net.clock, peer="p")
    sid = __import__("ui.shared.proof", fromlist=["seat_id"]).seat_id(token)
    out = net.room.receive("slow", '{"type":"join","v":1,"name":"A","seat_id":"%s",'
                           '"nonce":"%s"}' % (sid, "ab" * 16), net.clock)
    assert '"challenge"' in out[0][1]
    net.room.tick(net.clock + JOIN_MS)
    assert net.room.take_dropped() == ["slow"]
    out = net.room.receive("slow", '{"type":"proof","v":1,"mac":"%s"}' % ("00" * 32),
                           net.clock + JOIN_MS)
    assert '"not_joined"' in out[0][1]


def test_one_peer_keeps_at_most_3_waiting_and_pushes_out_its_own_oldest():
    gate = Gate()
    dropped = []
    for i in range(10):
        dropped += gate.admit("m%d" % i, "mallory", i)
    assert dropped == ["m%d" % i for i in range(10 - PER_PEER)]
    assert sorted(gate.waiting) == ["m7", "m8", "m9"]


def test_at_most_16_wait_and_a_flood_evicts_itself_not_the_guest():
    gate = Gate()
    dropped = []
    for i in range(12):                                 # 12 attacker peers, 1 connection each
        dropped += gate.admit("x%d" % i, "peer%d" % i, i)
    dropped += gate.admit("ana", "ana-peer", 20)
    for i in range(12, 40):                             # ... and more, with 2 each
        dropped += gate.admit("y%d" % i, "peer%d" % (i % 14), 20 + i)
    assert len(gate.waiting) == MAX_WAITING
    assert "ana" in gate.waiting and "ana" not in dropped
    assert gate.next_deadline() == 20 + JOIN_MS        # ana's is now the oldest


def test_a_guest_rejoins_while_an_attacker_keeps_opening_idle_connections():
    """100 idle connections from 8 peers a second, around a guest's rejoin: the guest gets its
    seat, and the room never holds more than 16 connections waiting."""
    net = Net()
    net.host.join("Hana")
    net.guest("a", "Ana")
    token = net.clients["a"].token
    net.host.host({"type": "start"})
    net.close("a")
    waiting_max = 0
    for k in range(300):
        t = net.clock + k * 10
        net.room.open("idle%d" % k, t, peer="mallory%d" % (k % 8))
        waiting_max = max(waiting_max, len(net.room.gate.waiting))
        if k == 150:
            net.clock = t
            back = net.guest("a2", "Ana", token=token)
        net.room.tick(t)
    assert back.seat == 1 and back.screen == "table" and net.room.conns["a2"] == 1
    dropped = net.room.take_dropped()
    assert "a2" not in dropped and len(dropped) >= 300 - MAX_WAITING
    assert waiting_max <= MAX_WAITING
    assert len(net.room.peers) <= MAX_WAITING + 2       # the seated ones, the rest forgotten
