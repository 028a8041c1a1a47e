"""A guest's reconnection policy (ui/page/net/link.py): when to drop, connect and ping, what the
player is told, and that it never gives up."""

from ui.page.net.link import (ATTEMPT_MS, BEHIND_MS, DOUBT_MS, GONE_AFTER, HOST_SILENT_MS, LATE_GAP_MS,
                     PING_MS, QUIET_MS, RETRY_MS, Link, backoff)


def opened_link(now=0):
    link = Link(now)
    assert link.step(now) == ["connect"]
    link.opened(now + 100)
    link.heard(now + 150, seated=True)
    return link


def test_a_new_page_connects_at_once_and_pings_once_open():
    link = Link(1000)
    assert link.status() == "connecting"
    assert link.step(1000) == ["connect"]
    assert link.step(1100) == []                       # the attempt is under way
    link.opened(1200)
    assert link.status() == "ok"
    assert link.step(1200) == ["ping"]
    assert link.step(1200 + PING_MS - 1) == []
    assert link.step(1200 + PING_MS) == ["ping"]


def test_a_silent_host_means_a_dead_connection_even_without_close():
    link = opened_link()
    t = 150
    for k in range(1, 3):
        link.step(t + k * PING_MS)                    # pings go out, no pong comes back
    assert link.step(150 + HOST_SILENT_MS - 1) in ([], ["ping"])
    assert link.step(150 + HOST_SILENT_MS) == ["drop"]
    assert link.status() == "host_paused"             # our own link is up: the host is silent
    assert link.step(150 + HOST_SILENT_MS + backoff(1)) == ["connect"]


def test_pongs_keep_it_alive():
    link = opened_link()
    for t in range(0, 60000, PING_MS):
        link.step(t + 200)
        link.heard(t + 210)
    assert link.open and link.status() == "ok"


def test_retries_back_off_and_never_give_up():
    link = opened_link()
    link.lost(1000)
    now, waits = 1000, []
    for _ in range(40):
        at = link.retry_at
        waits.append(at - now)
        assert link.step(at - 1) == []
        assert link.step(at) == ["connect"]
        now = at + ATTEMPT_MS
        assert link.step(now) == ["drop"]             # the attempt never opened
    assert waits[:len(RETRY_MS)] == list(RETRY_MS)
    assert set(waits[len(RETRY_MS):]) == {RETRY_MS[-1]}
    assert link.status() == "host_gone"
    at = link.retry_at
    link.step(at)
    link.opened(at + 10)                             # the host is back ...
    link.joining(at + 10)
    assert link.status() == "host_gone"              # ... but has not seated us yet
    link.heard(at + 30, seated=True)
    assert link.status() == "ok" and link.failures == 0


def test_a_peer_that_opens_but_never_seats_us_counts_as_no_host():
    # e.g. the room id still held by a page that is not the room: every attempt opens, the
    # join goes unanswered; after a few in a row the player is told the host is not there
    link = opened_link()
    link.lost(1000)
    for k in range(GONE_AFTER):
        at = link.retry_at
        assert link.step(at) == ["connect"]
        link.opened(at + 10)
        link.joining(at + 10)
        assert "drop" in link.step(at + 10 + ATTEMPT_MS)
    assert link.status() == "host_gone"


def test_no_host_with_that_id_shows_host_gone_at_once_and_retries():
    link = opened_link()
    link.lost(1000)
    link.step(1000 + backoff(1))
    link.lost(1300, missing=True)                     # PeerJS: peer-unavailable
    assert link.status() == "host_gone"
    assert link.step(1300 + backoff(2)) == ["connect"]


def test_a_few_failures_in_a_row_count_as_the_host_gone():
    link = opened_link()
    now = 1000
    for k in range(1, GONE_AFTER + 1):
        link.lost(now)
        assert link.status() == ("host_gone" if k >= GONE_AFTER else "host_paused")
        now = link.retry_at
        link.step(now)


def test_without_signaling_it_is_our_network_not_the_host():
    link = opened_link()
    link.online = False
    link.lost(1000, missing=True)
    assert link.status() == "reconnecting"


def test_a_page_shown_again_checks_at_once():
    link = opened_link()
    link.lost(1000)
    for _ in range(10):
        at = link.retry_at
        link.step(at)
        link.lost(at)
    waiting_until = link.retry_at
    link.woke(waiting_until - 2000)
    assert link.step(waiting_until - 2000) == ["connect"]
    # while open, waking pings at once
    link.opened(50000)
    link.step(50000)
    link.woke(50100)
    assert link.step(50100) == ["ping"]


def test_a_page_with_a_saved_token_says_reconnecting_while_its_own_network_is_down():
    link = Link(0, seated=True)
    link.step(0)
    link.lost(100)
    assert link.status() == "host_paused"        # on the signaling server: the host is silent
    link.online = False
    assert link.status() == "reconnecting"
    assert Link(0).status() == "connecting"


def test_a_join_that_no_welcome_answers_counts_as_a_failed_attempt():
    link = Link(0, seated=True)
    link.step(0)
    link.opened(100)
    link.joining(100)
    assert link.status() == "host_paused"       # open, but not seated again yet
    for t in range(100, 100 + ATTEMPT_MS, 1000):
        link.step(t)
        link.heard(t + 10)                      # pongs come, but no welcome
    assert link.open
    assert "drop" in link.step(100 + ATTEMPT_MS)
    assert link.status() == "host_paused"       # the room did not seat us: not our network
    link.step(link.retry_at)
    link.opened(20000)
    link.joining(20000)
    link.heard(20050, seated=True)              # the welcome
    assert link.step(20000 + ATTEMPT_MS + 1) == ["ping"]
    assert link.open and link.join_at is None


def test_the_link_tests_pass_on_micropython(tmp_path):
    """Guests run ui/page/net/link.py (and link_signal.py) on MicroPython: the tests above, again, there."""
    import os

    from test_render_micropython import ROOT, run_tests_on_micropython

    files = {"/tests/test_link.py": os.path.join(ROOT, "tests", "test_link.py"),
             "/ui/__init__.py": os.path.join(ROOT, "ui", "__init__.py"),
             "/ui/page/net/link.py": os.path.join(ROOT, "ui", "page", "net", "link.py"),
             "/ui/page/net/link_signal.py": os.path.join(ROOT, "ui", "page", "net", "link_signal.py"),
             "/ui/page/net/netcheck.py": os.path.join(ROOT, "ui", "page", "net", "netcheck.py")}
    files = {k: v for k, v in files.items() if os.path.exists(v)}
    me = "test_the_link_tests_pass_on_micropython"
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_link", files, [me])
    assert failed == [], out
    assert ran == len([n for n in globals() if n.startswith("test_")]) - 1, out


def test_a_link_to_no_room_says_so_and_still_retries():
    link = Link(0)                                    # a new page, no seat in this room
    assert link.step(0) == ["connect"]
    link.lost(300, missing=True)                      # PeerJS: peer-unavailable
    assert link.status() == "no_room"
    assert link.step(300 + backoff(1)) == ["connect"]  # the host may only be starting
    link.opened(900)
    link.joining(900)
    link.heard(950, seated=True)
    assert link.status() == "ok"
    link.lost(5000, missing=True)                     # seated once: the host is away
    assert link.status() == "host_gone"


def test_a_peer_that_fails_the_seat_proof_is_dropped_and_named_until_the_host_is_back():
    link = Link(0, seated=True)                       # a reloaded page with its token
    assert link.step(0) == ["connect"]
    link.opened(100)
    link.joining(100)
    link.unverified(150)                              # the challenge did not prove the token
    assert not link.open and link.status() == "host_unverified"
    assert link.failures == 1 and link.retry_at == 150 + backoff(1)
    # it keeps trying, and keeps saying so while each peer it reaches fails
    t = link.retry_at
    assert link.step(t) == ["connect"]
    link.opened(t + 50)
    link.joining(t + 50)
    assert link.status() == "host_unverified"
    link.heard(t + 80, seated=True)                   # the real host proved itself: back
    assert link.status() == "ok" and link.failures == 0


def test_nobody_at_the_room_id_is_host_gone_not_an_impostor():
    link = Link(0, seated=True)
    link.step(0)
    link.opened(10)
    link.joining(10)
    link.unverified(20)
    link.step(20 + backoff(1))
    link.lost(30 + backoff(1), missing=True)          # the impostor left: nobody holds it
    assert link.status() == "host_gone"


def test_the_host_closing_an_unjoined_connection_is_quiet_and_reconnects_at_once():
    link = Link(0)                                    # a new guest typing its name
    link.step(0)
    link.opened(100)
    assert link.status() == "ok"
    link.lost(10100)                                  # the host's 10 s for unjoined ones
    assert link.status() == "ok" and link.failures == 0
    assert link.step(10100) == ["connect"]
    assert link.status() == "ok"
    link.lost(10100 + ATTEMPT_MS)                     # but an attempt that fails counts
    assert link.failures == 1 and link.status() == "connecting"


def test_a_lost_signaling_server_makes_the_page_check_its_connection_at_once():
    # issue 14: a phone that changed networks lost its signaling socket, and its data
    # channel died without a word; it must not wait HOST_SILENT_MS to notice
    link = opened_link()
    link.heard(1000)
    assert link.step(1000) == ["ping"]
    link.doubt(2000)
    assert link.step(2000) == ["ping"]                  # asks at once
    assert "drop" not in link.step(2000 + DOUBT_MS - 1)
    assert link.step(2000 + DOUBT_MS) == ["drop"]       # nothing heard: dead
    assert DOUBT_MS < HOST_SILENT_MS
    link.online = False                                 # (the Peer lost the server: doubt)
    assert link.status() == "reconnecting"
    assert link.step(2000 + DOUBT_MS + backoff(1)) == ["connect"]


def test_a_doubted_connection_that_answers_goes_on():
    link = opened_link()
    link.doubt(1000)
    assert link.step(1000) == ["ping"]
    link.heard(1050)                                    # the pong: only the server was lost
    assert "drop" not in link.step(1000 + DOUBT_MS + 10)
    assert link.open and link.status() == "ok"
    link.heard(5000)
    link.doubt(5000)                                    # a later loss is doubted afresh
    assert link.step(5000) == ["ping"]
    assert link.step(5000 + DOUBT_MS) == ["drop"]


def test_nothing_to_doubt_while_not_connected():
    link = Link(0)
    link.doubt(0)
    assert link.step(0) == ["connect"]
    link.opened(100)
    assert link.step(100 + DOUBT_MS) == ["ping"]        # the old doubt is not carried over


def test_a_silent_host_shows_the_game_paused_until_heard_or_dead():
    # issue 14: a host whose page cannot run (busy, suspended) is silent; its guests show
    # the game paused, and go back to "ok" the moment it is heard again
    link = opened_link()
    link.heard(1000)
    link.step(1000)
    assert link.status() == "ok" and not link.quiet
    link.step(1000 + QUIET_MS - 1)
    assert link.status() == "ok"
    link.step(1000 + QUIET_MS)
    assert link.quiet and link.status() == "host_paused"
    link.heard(1000 + QUIET_MS + 500)
    link.step(1000 + QUIET_MS + 500)
    assert link.status() == "ok"
    link.step(1000 + QUIET_MS + 500 + HOST_SILENT_MS)         # silent too long: dead
    assert not link.quiet and link.status() == "host_paused"   # (our own link is up)


def test_a_page_not_seated_yet_never_says_paused():
    link = Link(0)
    link.step(0)
    link.opened(100)
    link.joining(150)
    link.step(100 + QUIET_MS)
    assert link.status() == "connecting"


# ---- the host's absence shown truthfully (issue 10, item 2) --------------------------------

from ui.page.net.link import HOST_GONE_MS, QUIET_MS  # noqa: E402


def seated_link(now=0, gone_ms=HOST_GONE_MS):
    link = Link(now, gone_ms=gone_ms)
    link.step(now)
    link.opened(now)
    link.joining(now)
    link.heard(now, seated=True)
    return link


def test_a_host_heard_recently_is_neither_quiet_nor_lost():
    link = seated_link()
    assert not link.host_quiet(QUIET_MS - 1) and not link.host_lost(QUIET_MS - 1)
    link.heard(3000)
    assert not link.host_quiet(3000 + QUIET_MS - 1)


def test_a_silent_host_is_quiet_then_lost_after_gone_ms_of_silence():
    link = seated_link()
    assert link.host_quiet(QUIET_MS) and not link.host_lost(QUIET_MS)
    link.lost(5000, missing=True)                  # its tab closed: nobody holds the id
    assert link.host_quiet(5001) and not link.host_lost(HOST_GONE_MS - 1)
    assert link.host_lost(HOST_GONE_MS)
    assert link.status() == "host_gone"            # the banner: waiting for the host


def test_reconnecting_does_not_reset_the_hosts_last_sign_of_life():
    link = seated_link()
    link.lost(1000)
    link.connecting(2000)
    link.opened(2500)                              # a connection opened, no welcome yet
    link.joining(2500)
    assert link.host_quiet(2600)
    assert link.host_lost(HOST_GONE_MS)            # opening is not a word from the host


def test_the_host_back_ends_the_absence():
    link = seated_link()
    link.lost(1000, missing=True)
    assert link.host_lost(HOST_GONE_MS + 10)
    link.connecting(HOST_GONE_MS + 20)
    link.opened(HOST_GONE_MS + 30)
    link.joining(HOST_GONE_MS + 30)
    link.heard(HOST_GONE_MS + 40, seated=True)
    assert not link.host_quiet(HOST_GONE_MS + 50) and not link.host_lost(HOST_GONE_MS + 50)


def test_a_test_build_may_shorten_the_time_before_the_host_counts_as_gone():
    link = seated_link(gone_ms=5000)
    link.lost(100, missing=True)
    assert not link.host_lost(4999) and link.host_lost(5000)


def test_a_page_never_seated_never_says_the_host_is_gone():
    link = Link(0)
    assert not link.host_quiet(10 ** 6) and not link.host_lost(10 ** 6)


def steps(link, start, end, every=250):
    """The page's UI tick from `start` to `end` (ms), online."""
    t = start
    while t <= end:
        link.step(t)
        t += every


def test_a_page_that_stayed_here_while_the_host_went_is_not_behind():
    link = seated_link(gone_ms=3000)
    link.lost(1000, missing=True)                  # the host's tab closed
    steps(link, 1000, 5000)
    assert link.host_lost(5000) and not link.behind(5000)


def test_a_page_that_did_not_run_for_a_while_is_behind_and_follows_only():
    """A phone asleep or a frozen tab: its own steps far apart. Its players list may be old:
    it must not take the room over for gone_ms + BEHIND_MS after it runs again."""
    link = seated_link(gone_ms=3000)
    steps(link, 0, 2000)
    back = 2000 + LATE_GAP_MS + 60000              # a minute asleep
    link.step(back)
    assert link.host_lost(back) and link.behind(back)
    steps(link, back, back + 3000 + BEHIND_MS - 250)
    assert link.behind(back + 3000 + BEHIND_MS - 1)
    link.step(back + 3000 + BEHIND_MS)
    assert not link.behind(back + 3000 + BEHIND_MS)    # everyone was away: someone hosts


def test_a_page_offline_is_behind_while_offline_and_a_while_after():
    """Its Peer off the signaling server: connected to nobody, it decides nothing."""
    link = seated_link(gone_ms=3000)
    link.online = False
    steps(link, 0, 100000)
    assert link.behind(100000) and link.behind(10 ** 9)   # offline: behind whatever the time
    link.online = True
    link.step(100250)
    assert link.behind(100250 + 3000 + BEHIND_MS - 300)


def test_a_page_behind_that_hears_its_host_is_up_to_date_again():
    link = seated_link(gone_ms=3000)
    link.step(LATE_GAP_MS + 10)
    assert link.behind(LATE_GAP_MS + 10)
    link.heard(LATE_GAP_MS + 20)
    assert not link.behind(LATE_GAP_MS + 30)


def test_a_page_never_seated_is_never_behind():
    link = Link(0)
    link.online = False
    link.step(LATE_GAP_MS * 3)
    assert not link.behind(LATE_GAP_MS * 3)


# ---- one signal of the host's presence (issue 19 item 5, issue 20 item 1) --------------------

from ui.page.net.link import steady  # noqa: E402


def test_the_signal_says_paused_since_the_hosts_last_word_and_when_it_counts_as_gone():
    link = seated_link(gone_ms=6000)
    link.heard(1000)
    assert link.signal(1000 + QUIET_MS - 1) == {"status": "ok", "paused_since": None,
                                                "gone_at": None, "lost": False,
                                                "behind": False}
    link.lost(2000, missing=True)                 # the host's tab closed
    sig = link.signal(2001)
    assert sig["paused_since"] == 1000 and sig["gone_at"] == 7000 and not sig["lost"]
    assert sig["status"] == "host_gone"            # nobody holds its id
    assert link.signal(7000)["lost"] and link.signal(7000)["paused_since"] == 1000


def test_a_quiet_host_on_an_open_connection_is_paused_in_the_status_and_the_badge_alike():
    """Opening a connection is no word from the host: the banner says paused exactly while
    the host's seat shows away (both read `paused_since`), never "ok" beside an away seat."""
    link = seated_link()
    link.lost(1000)
    link.connecting(QUIET_MS + 10)
    link.opened(QUIET_MS + 20)                    # open, and nothing asked on it yet
    sig = link.signal(QUIET_MS + 30)
    assert link.status() == "ok" and sig["status"] == "host_paused"
    assert sig["paused_since"] == 0
    link.heard(QUIET_MS + 40)
    assert link.signal(QUIET_MS + 50)["status"] == "ok"
    assert link.signal(QUIET_MS + 50)["paused_since"] is None


def test_a_page_looking_for_its_room_says_so_and_never_counts_its_host_gone():
    link = seated_link(gone_ms=3000)
    link.lost(100, missing=True)
    sig = link.signal(5000, looking=True)
    assert sig["status"] == "looking" and not sig["lost"]
    assert link.signal(5000)["lost"] and link.signal(5000)["status"] == "host_gone"


def test_a_page_with_no_host_to_watch_has_a_steady_signal():
    assert steady("connecting") == {"status": "connecting", "paused_since": None,
                                    "gone_at": None, "lost": False, "behind": False}


def test_one_backoff_climbs_any_ladder_then_stays_on_its_last_step():
    assert [backoff(k, (10, 20)) for k in (0, 1, 2, 3, 9)] == [10, 10, 20, 20, 20]
    assert backoff(1) == RETRY_MS[0]


# ---- one clock for every screen's pause (issue 20.1) ---------------------------------------

from ui.page.net.link import BEAT_MS, BEAT_STALE_MS, beat_due  # noqa: E402


def guest_until(link, clock, pong_at, beats_until, dies_at):
    """Feed `link` a guest's life until the host dies at `dies_at` (ms, the host's time):
    a beat every BEAT_MS (every guest's at once) and a pong every 3 s from `pong_at` (this
    guest's own phase); `clock` is this phone's offset from the host's clock (ms)."""
    events = [(t, "beat") for t in range(0, beats_until, BEAT_MS)]
    events += [(t, "pong") for t in range(pong_at, dies_at, 3000)]
    for t, kind in sorted(events):
        if t < dies_at:
            link.heard(t + clock)
            if kind == "beat":
                link.beat(t + clock)
            link.step(t + clock)


def test_every_guest_counts_the_pause_down_from_the_same_moment_whatever_its_clock():
    """Guests' pongs come at each one's own moment: counted from them, their countdowns were
    1-2 s apart. Counted from the host's last beat (sent to all at once) they agree, also on
    phones whose clocks differ (each reads only its own)."""
    dies = 10400
    shown = []
    for pong_at, clock in ((500, 0), (2300, 0), (1700, 123456789)):
        link = seated_link(clock, gone_ms=20000)
        guest_until(link, clock, pong_at, 20000, dies)
        now = dies + QUIET_MS + 1500 + clock
        link.step(now)
        signal = link.signal(now)
        assert signal["status"] == "host_paused"
        shown.append((signal["gone_at"] - now, signal["paused_since"] - clock))
        assert not link.host_lost(10000 + 20000 - 1 + clock) and link.host_lost(30000 + clock)
    assert len(set(shown)) == 1, shown              # the same seconds left, the same pause
    assert shown[0] == (10000 + 20000 - (dies + QUIET_MS + 1500), 10000)
    # without beats (an older host page), each counts from its own last word, as before
    alone = []
    for pong_at in (500, 2300):
        link = seated_link(0, gone_ms=20000)
        guest_until(link, 0, pong_at, 0, dies)
        alone.append(link.signal(dies + QUIET_MS + 1500)["gone_at"])
    assert alone == [9500 + 20000, 8300 + 20000]


def test_beats_that_stopped_coming_are_not_the_clock():
    """A host whose beats stopped while it still answers (a page that reconnected, beats from
    long ago): its last word counts, never a beat BEAT_STALE_MS older than it."""
    link = seated_link()
    link.heard(1000)
    link.beat(1000)
    assert link.sign() == 1000
    link.heard(1000 + BEAT_STALE_MS)
    assert link.sign() == 1000                      # a pong just after the beat: still it
    link.heard(1001 + BEAT_STALE_MS)
    assert link.sign() == 1001 + BEAT_STALE_MS      # beats stopped: the last word
    link.step(1001 + BEAT_STALE_MS + QUIET_MS)
    assert link.signal(1001 + BEAT_STALE_MS + QUIET_MS)["paused_since"] == 1001 + BEAT_STALE_MS


def test_the_host_page_beats_every_beat_ms():
    assert beat_due(None, 0)
    assert not beat_due(1000, 1000 + BEAT_MS - 1) and beat_due(1000, 1000 + BEAT_MS)
    assert beat_due(5000, 1000)                     # a clock that went back: beat now


def test_a_guest_whose_own_network_is_down_says_reconnecting_not_that_the_host_is_silent():
    """Issue 20.1: a quiet channel on a phone that is itself offline (navigator.onLine false,
    or its Peer off the signaling server) is this phone's network, not the host's: it said
    "Game paused: Hana's phone is not answering" until the channel was dropped 9 s on."""
    link = seated_link()
    link.online = False
    link.step(QUIET_MS)
    assert link.quiet and link.status() == "reconnecting"
    signal = link.signal(QUIET_MS)
    assert signal["status"] == "reconnecting" and signal["paused_since"] == 0
    link.step(HOST_SILENT_MS + 1)                    # dropped; its attempts fail offline
    for t in range(HOST_SILENT_MS + 2, HOST_SILENT_MS + 40000, 2000):
        if link.attempt_at is not None:
            link.lost(t)
        link.step(t)
    assert link.failures >= GONE_AFTER and link.status() == "reconnecting"
    link.online = True                               # its network back: still its own fault
    link.step(HOST_SILENT_MS + 40000)                # until it hears the host again: the
    assert link.status() == "reconnecting"           # attempts made offline count for nothing
    assert link.failures == 0
    back = HOST_SILENT_MS + 41000
    link.opened(back)
    link.joining(back)
    link.heard(back)                                 # the seat proof's challenge: not back yet
    link.step(back + 100)
    assert link.status() == "reconnecting"
    link.heard(back + 200, seated=True)              # seated again: heard since
    link.step(back + 200 + QUIET_MS)                 # now a quiet host is the host's phone
    assert link.quiet and link.status() == "host_paused"
