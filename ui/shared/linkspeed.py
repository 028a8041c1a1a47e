"""How fast a guest's link to its host is, from the pings it already sends every 3 s (the
pong's round trip): one estimate, shared by the guest's page (its countdowns and its own
"your connection is slow") and the room (that seat's place on the others' screens).

- The estimate is the median of the last SAMPLES round trips (each counted at most
  SAMPLE_MAX_MS): one late pong, a phone changing cell for 2 s, moves it not at all, and a
  link that really got slower shows in two pings.
- Slow is said with hysteresis: from SLOW_ON_MS up, and said no more once below SLOW_OFF_MS,
  so that a link near the line does not flicker.
- The lead: a tap the screen shows in time must reach the host in time (a deadline; the
  start delay, a "not before", is shown as the view says). A view's remaining
  times are the host's as it sent the view, one one-way time before it arrived; a tap takes
  another to arrive. So a countdown shown on this page ends that much sooner: a round trip,
  and not a typical one but a slow one: the median round trip and half as much again
  (LEAD_JITTER: a cellular link's jitter grows with its delay, and a view, several packets,
  comes with its slowest packet) and LEAD_WORK_MS (the pages' and the engine's own work on
  the way), at most LEAD_MAX_MS. On the 3g profile (a median of ~330 ms through a relay) a
  view's way and a tap's way took up to 165 ms more than the median round trip. A late view
  (a lost packet sent again) says the same window ends later than the view before it did:
  the window ends here no later than it already did (`kept_lead`). The host's own screen
  has none. The host's rules and clock change not at all (R10 is judged on the host's
  clock when a message arrives).

Pure (no clock, no I/O). MicroPython-compatible: runs on guests' pages and in the room.
"""

SAMPLES = 3             # round trips the median is taken over
SAMPLE_MAX_MS = 5000    # one round trip counts at most this much (a pong after a blackout)
SLOW_ON_MS = 220        # a median round trip from this up: the link is slow (a 3G link's
                        # ~250 ms is; 4G's ~70 ms and Wi-Fi's are not)
SLOW_OFF_MS = 150       # ... and it stays slow until the median is below this
LEAD_MAX_MS = 800       # the most a countdown is shortened by (a quarter of the 3 s window)
LEAD_JITTER = 2         # the lead adds 1/LEAD_JITTER of the round trip for a slow tap
LEAD_WORK_MS = 30       # ... and this, the pages' and the engine's work on the way
RTT_MAX_MS = 60000      # a round trip a guest reports: 0..this, else ignored


def _plain_ms(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == x


def add_sample(samples, rtt):
    """The last SAMPLES round trips after one more, `rtt` (ms; a bad or negative one, a
    clock set back, is left out): a new list, oldest first, each at most SAMPLE_MAX_MS."""
    kept = list(samples or [])
    if not _plain_ms(rtt) or rtt < 0:
        return kept
    kept.append(int(min(rtt, SAMPLE_MAX_MS)))
    return kept[-SAMPLES:]


def is_sample(t, since, last):
    """Whether a pong for the ping sent at `t` (ms, the page's clock) is a round trip of the
    link: not one for a ping sent before `since` (ms or None: the page's last welcome; such a
    ping waited behind the rejoin, a reloaded host's engine starting, the seat proof) and
    not a second pong for a ping already counted (`last`: the `t` of the last sample, or
    None), e.g. the host page's own answer and then the engine's."""
    if not _plain_ms(t):
        return False
    if since is not None and t < since:
        return False
    return last is None or t > last


def estimate(samples):
    """The link's round trip (ms, an int): the median of `samples` (with two, the smaller:
    one late pong alone never counts), or None before the first pong."""
    if not samples:
        return None
    s = sorted(samples)
    return s[(len(s) - 1) // 2]


def is_slow(was, rtt):
    """Whether a link whose round trip is `rtt` (ms, or None: not known) is slow now, given
    whether it was (`was`): on from SLOW_ON_MS, off below SLOW_OFF_MS (hysteresis)."""
    if not _plain_ms(rtt):
        return bool(was)
    if was:
        return rtt >= SLOW_OFF_MS
    return rtt >= SLOW_ON_MS


def one_way(rtt):
    """The link's one-way time to the host (ms): half the round trip `rtt`, 0 unknown."""
    if not _plain_ms(rtt) or rtt <= 0:
        return 0
    return int(rtt) // 2


def lead(rtt):
    """How much sooner (ms, an int) this page shows a countdown end than the view's
    remaining time says, from its median round trip `rtt` (ms): a slow round trip (the
    view's way here, the tap's way back), `rtt` and 1/LEAD_JITTER of it again, and
    LEAD_WORK_MS; at most LEAD_MAX_MS; 0 when not known (None, not a number, <= 0)."""
    if not _plain_ms(rtt) or rtt <= 0:
        return 0
    rtt = int(rtt)
    return min(rtt + rtt // LEAD_JITTER + LEAD_WORK_MS, LEAD_MAX_MS)


def kept_lead(lead_ms, now, left, end):
    """The lead (ms, an int) for a view that came at `now` (ms, this page's clock) with
    `left` ms of a window whose end this page already showed at `end` (its clock; None: a
    new window): at least `lead_ms`, and enough that the window ends no later than `end`
    (a view that came late, a lost packet sent again, never gives back time). Bad input
    keeps `lead_ms`."""
    if not (_plain_ms(now) and _plain_ms(left) and _plain_ms(end) and _plain_ms(lead_ms)):
        return lead_ms
    return max(int(lead_ms), int(now + left - end))


def reported(rtt):
    """A guest's reported round trip (`ping` `rtt`) as the room keeps it: an int ms in
    0..RTT_MAX_MS, else None (ignored: it only ever says the guest is slow)."""
    if not _plain_ms(rtt) or rtt < 0 or rtt > RTT_MAX_MS:
        return None
    return int(rtt)
