"""The link profiles of the network-conditions harness (e2e/netem.py): what each packet or
chunk on a page's link suffers, as pure functions of the profile, a seeded random source and
the time (ms). Standard library only; no I/O, no clock of its own.

A profile is one way: the harness applies it to each direction of a page's link (page to
relay and relay to page; page to site and back), so a message between two pages crosses two
profiles each way (sender's up, receiver's down) and a round trip four legs.

    PROFILES            name -> Profile: lan; 4g (one way 35 ms +/- 8, 0.5 % loss); 3g (one way
                        125 ms +/- 30, 2 % loss); stall (lan with a 2 s blackout every 30 s);
                        4g-steady, 3g-steady (4g's and 3g's delays and jitter, no loss)
    delay_ms(p, rng)    one packet's one-way delay: uniform in [one_way - jitter, one_way +
                        jitter], never below 0
    lost(p, rng)        True when the packet is lost (rng.random() < p.loss)
    in_blackout(p, t, since)  True when `t` is inside one of the profile's blackouts, the
                        first beginning p.first_ms after `since` (when the profile was set),
                        then every p.every_ms, each p.blackout_ms long
    blackout_end(p, t, since) the end of the blackout `t` is in (or `t` when none)
    Direction           one direction of a link: decide(now) -> the time the packet is due
                        out, or None when it is dropped (blackout or loss); packets keep
                        their order (a packet is never due before the one ahead of it:
                        jitter spreads them, it does not reorder them, as a real radio
                        link's queue does not). `stream=True` (TCP) loses nothing and holds
                        a chunk that comes in a blackout until the blackout ends.
"""

import random


class Profile:
    """A link's one-way conditions: `one_way_ms` +/- `jitter_ms` (uniform), `loss` (0..1),
    blackouts of `blackout_ms` every `every_ms` (0: none), the first `first_ms` after the
    profile is set (default: `every_ms`)."""

    def __init__(self, name, one_way_ms=0, jitter_ms=0, loss=0.0, every_ms=0, blackout_ms=0,
                 first_ms=None):
        if one_way_ms < 0 or jitter_ms < 0 or not 0 <= loss < 1 or every_ms < 0 \
                or blackout_ms < 0 or (every_ms and blackout_ms >= every_ms):
            raise ValueError("bad profile %r" % name)
        self.name, self.one_way_ms, self.jitter_ms, self.loss = name, one_way_ms, jitter_ms, loss
        self.every_ms, self.blackout_ms = every_ms, blackout_ms
        self.first_ms = every_ms if first_ms is None else first_ms

    def starting(self, first_ms):
        """The same profile, its first blackout `first_ms` after it is set."""
        return Profile(self.name, self.one_way_ms, self.jitter_ms, self.loss, self.every_ms,
                       self.blackout_ms, first_ms)

    def floor_rtt_ms(self):
        """The least round trip this profile adds between its page and the relay (ms): both
        directions at their least delay."""
        return 2 * max(0, self.one_way_ms - self.jitter_ms)


PROFILES = {
    "lan": Profile("lan"),
    "4g": Profile("4g", 35, 8, 0.005),
    "3g": Profile("3g", 125, 30, 0.02),
    "stall": Profile("stall", every_ms=30000, blackout_ms=2000),
}
# the same delays and jitter with no loss: for a test of a countdown, whose one tap a lost
# packet (sent again only after a retransmission timeout, hundreds of ms) must not decide
for _name in ("4g", "3g"):
    _p = PROFILES[_name]
    PROFILES[_name + "-steady"] = Profile(_name + "-steady", _p.one_way_ms, _p.jitter_ms)


def profile(name, first_ms=None):
    """PROFILES[name] (KeyError when there is none), its first blackout `first_ms` after it
    is set when given."""
    p = PROFILES[name]
    return p if first_ms is None else p.starting(first_ms)


def delay_ms(p, rng):
    """One packet's one-way delay (ms, a float >= 0) on profile `p`, from `rng` (a
    random.Random)."""
    if not p.jitter_ms:
        return float(p.one_way_ms)
    return max(0.0, p.one_way_ms + rng.uniform(-p.jitter_ms, p.jitter_ms))


def lost(p, rng):
    """True when a packet on profile `p` is lost (one draw of `rng`; none when p.loss is 0)."""
    return bool(p.loss) and rng.random() < p.loss


def in_blackout(p, t_ms, since_ms):
    """True when `t_ms` falls in a blackout of `p` set at `since_ms` (same clock, ms)."""
    if not p.every_ms:
        return False
    into = t_ms - since_ms - p.first_ms
    return into >= 0 and into % p.every_ms < p.blackout_ms


def blackout_end(p, t_ms, since_ms):
    """When the blackout `t_ms` is in ends (ms, same clock), or `t_ms` outside any."""
    if not in_blackout(p, t_ms, since_ms):
        return t_ms
    into = t_ms - since_ms - p.first_ms
    return t_ms - into % p.every_ms + p.blackout_ms


class Direction:
    """One direction of one page's link: `decide(now_ms)` says when a packet that arrives
    now is due out (ms, same clock), or None when it is dropped; counts what it did
    (`counts`: passed, lost, blacked). `set(profile, now_ms)` changes its profile (its
    blackouts counted from now). `seed`: the random source's (losses and jitter repeat)."""

    def __init__(self, p, now_ms, seed=0, stream=False):
        self.rng = random.Random(seed)
        self.stream = stream
        self.last_due = 0.0
        self.counts = {"passed": 0, "lost": 0, "blacked": 0}
        self.set(p, now_ms)

    def set(self, p, now_ms):
        self.profile, self.since = p, now_ms

    def decide(self, now_ms):
        p = self.profile
        start = now_ms
        if in_blackout(p, now_ms, self.since):
            if not self.stream:
                self.counts["blacked"] += 1
                return None
            start = blackout_end(p, now_ms, self.since)
        elif not self.stream and lost(p, self.rng):
            self.counts["lost"] += 1
            return None
        due = max(start + delay_ms(p, self.rng), self.last_due)
        self.last_due = due
        self.counts["passed"] += 1
        return due
