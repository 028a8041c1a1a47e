"""The network-conditions harness's profile logic (e2e/net_profiles.py): the delays a
profile gives, its losses from a seeded random source, its blackout windows, and the order a
link keeps; and the harness's child process end to end on loopback (e2e/netem.py: a UDP
echo server behind a link's proxy)."""

import os
import random
import socket
import sys
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "e2e"))
from net_profiles import (PROFILES, Direction, Profile, blackout_end, delay_ms,  # noqa: E402
                          in_blackout, lost, profile)


def test_the_profiles_are_the_ones_the_harness_promises():
    assert (PROFILES["4g"].one_way_ms, PROFILES["4g"].jitter_ms, PROFILES["4g"].loss) == \
        (35, 8, 0.005)
    assert (PROFILES["3g"].one_way_ms, PROFILES["3g"].jitter_ms, PROFILES["3g"].loss) == \
        (125, 30, 0.02)
    stall = PROFILES["stall"]
    assert (stall.every_ms, stall.blackout_ms, stall.one_way_ms, stall.loss) == (30000, 2000, 0, 0)
    lan = PROFILES["lan"]
    assert (lan.one_way_ms, lan.jitter_ms, lan.loss, lan.every_ms) == (0, 0, 0, 0)
    assert PROFILES["3g"].floor_rtt_ms() == 190 and PROFILES["4g"].floor_rtt_ms() == 54
    for name in ("3g", "4g"):            # a countdown's test: the same link, nothing lost
        steady, p = PROFILES[name + "-steady"], PROFILES[name]
        assert (steady.one_way_ms, steady.jitter_ms, steady.loss) == (p.one_way_ms, p.jitter_ms, 0)


def test_delays_stay_in_the_profiles_range_and_spread_over_it():
    rng = random.Random(7)
    got = [delay_ms(PROFILES["3g"], rng) for _ in range(2000)]
    assert min(got) >= 95 and max(got) <= 155
    assert min(got) < 100 and max(got) > 150              # the whole range, not a point
    assert abs(sum(got) / len(got) - 125) < 3
    assert delay_ms(PROFILES["lan"], rng) == 0.0
    assert delay_ms(Profile("x", 5, 20), random.Random(1)) >= 0    # never below 0


def test_losses_repeat_with_the_seed_and_come_at_the_profiles_rate():
    def draws(seed):
        rng = random.Random(seed)
        return [lost(PROFILES["3g"], rng) for _ in range(20000)]
    assert draws(3) == draws(3) and draws(3) != draws(4)
    assert 0.015 < sum(draws(3)) / 20000 < 0.025
    rng = random.Random(3)
    assert not any(lost(PROFILES["lan"], rng) for _ in range(1000))


def test_blackouts_come_every_period_for_their_length_from_when_the_profile_was_set():
    stall = PROFILES["stall"]                     # first at 30 s, then every 30 s, 2 s long
    since = 1000.0
    assert not in_blackout(stall, since + 29999, since)
    assert in_blackout(stall, since + 30000, since)
    assert in_blackout(stall, since + 31999, since)
    assert not in_blackout(stall, since + 32000, since)
    assert in_blackout(stall, since + 60500, since)
    assert blackout_end(stall, since + 30500, since) == since + 32000
    assert blackout_end(stall, since + 33000, since) == since + 33000    # none: itself
    soon = profile("stall", first_ms=500)
    assert in_blackout(soon, since + 600, since) and not in_blackout(soon, since + 2600, since)
    assert in_blackout(soon, since + 30600, since)
    assert not any(in_blackout(PROFILES["3g"], t, 0) for t in range(0, 100000, 250))


def test_a_link_keeps_its_packets_in_order_and_drops_in_a_blackout():
    d = Direction(PROFILES["3g"], 0, seed=5)
    dues = [d.decide(float(t)) for t in range(0, 2000, 2)]
    kept = [x for x in dues if x is not None]
    assert kept == sorted(kept)                        # jitter never reorders
    assert d.counts["lost"] == dues.count(None) and d.counts["passed"] == len(kept)
    s = Direction(profile("stall", first_ms=100), 0, seed=1)
    assert s.decide(50) == 50 and s.decide(150) is None and s.decide(2100) == 2100
    assert s.counts == {"passed": 2, "lost": 0, "blacked": 1}


def test_a_stream_loses_nothing_and_holds_a_blackouts_chunks_until_it_ends():
    s = Direction(profile("stall", first_ms=100), 0, seed=1, stream=True)
    assert s.decide(150) == 2100 and s.decide(160) == 2100 and s.decide(3000) == 3000
    t = Direction(PROFILES["3g"], 0, seed=2, stream=True)
    assert all(t.decide(float(k)) is not None for k in range(5000))


def test_a_bad_profile_is_refused():
    for bad in ({"one_way_ms": -1}, {"loss": 1.0}, {"every_ms": 1000, "blackout_ms": 1000}):
        with pytest.raises(ValueError):
            Profile("bad", **bad)
    with pytest.raises(KeyError):
        profile("5g")


def test_the_harness_delays_a_udp_round_trip_as_its_profile_says():
    from netem import Net
    echo = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    echo.bind(("127.0.0.1", 0))
    echo.settimeout(1)
    net = Net(echo.getsockname()[1], 9)
    try:
        link = net.link("Guest 4", "4g", seed=1)      # (a name of two words)
        net.set("Guest 4", "lan")
        page = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        page.settimeout(1)

        def trip():
            t0 = time.monotonic()
            page.sendto(b"ping", ("127.0.0.1", link.udp))
            data, addr = echo.recvfrom(100)
            echo.sendto(data, addr)
            assert page.recvfrom(100)[0] == b"ping"
            return (time.monotonic() - t0) * 1000
        fast = trip()
        net.set("Guest 4", "3g")
        slow = []
        while len(slow) < 3:
            try:
                slow.append(trip())
            except socket.timeout:     # (2 % loss each way)
                pass
        assert min(slow) >= 190 and min(slow) > fast, (fast, slow)
        assert net.stats("Guest 4")["up"]["passed"] >= 4
        with pytest.raises(ValueError):
            net.set("Guest 4", "5g")
    finally:
        net.close()
        echo.close()
