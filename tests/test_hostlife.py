"""The host page's lifecycle, pure (ui/shared/hostlife.py): the lease of the tab that runs a room,
which saved room to resume, the room's clock, and what the room's outputs ask of the page.
The host page runs it on MicroPython: the same tests run there too (last test)."""

import json

from ui.shared import hostlife
from ui.shared.hostlife import (GAP_MS, LEASE_MS, TICK_MS, Clock, choose, lease_due, lease_free,
                         lease_record, new_room_id, provisional, resumable, resume_clock,
                         sort_out, summary)

SAVED = {"room_id": "crisp-" + "a" * 32, "seed": 1, "deck": None, "options": {},
         "seats": [{"name": "Ana"}, {"name": "Bea"}], "game": None, "log": [], "peeks": {},
         "now": 4000}


def saved(**changes):
    d = dict(SAVED)
    d.update(changes)
    return d


def test_a_room_id_is_a_room_code_from_64_random_bits_or_nothing():
    from ui.shared import roomcode
    room = new_room_id("0123456789abcdef")
    assert roomcode.code_of(room) is not None
    assert new_room_id("0123456789abcdef") == room                  # the bits, nothing else
    assert new_room_id("fedcba9876543210") != room
    for bad in ("", "abc", "g" * 16, "A" * 16, "0" * 15, "0" * 17, None, 12, "0" * 14 + "-x"):
        try:
            new_room_id(bad)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % (bad,))


def test_a_saved_room_is_resumable_until_its_game_is_over():
    assert resumable(saved())
    assert resumable(saved(game={"phase": "play", "round": 2}))
    assert not resumable(saved(game={"phase": "game_over"}))


def test_a_hostile_or_broken_save_is_never_resumable_and_never_raises():
    for bad in (None, [], "x", 5, {}, saved(room_id=5), saved(seats="Ana"), saved(seats=[]),
                saved(game="over"), saved(game=[1]), {"room_id": "r", "seats": [1], "game": 3}):
        assert resumable(bad) is False, bad


def test_the_landing_summarises_a_saved_room():
    s = summary(saved(game={"phase": "play", "round": 3}, seats=[{"name": "Ana"}, "junk"]))
    assert s == {"room": "crisp-" + "a" * 32, "names": ["Ana", None], "started": True,
                 "round": 3}


def test_a_lease_is_free_when_absent_ours_let_go_or_stale():
    assert lease_free(None, "t1", 10000)
    assert lease_free("junk", "t1", 10000)
    assert lease_free({}, "t1", 10000)
    assert lease_free(lease_record("t1", 10000, 50), "t1", 10001)          # ours
    held = lease_record("t2", 10000, 50)
    assert not lease_free(held, "t1", 10000 + LEASE_MS)                    # another tab's
    assert lease_free(held, "t1", 10000 + LEASE_MS + 1)                    # stale
    assert lease_free(lease_record("t2", 0, 50), "t1", 10000)              # let go
    assert lease_free({"tab": "t2", "at": "soon"}, "t1", 10000)            # garbage
    assert lease_free({"tab": "t2", "at": True}, "t1", 10000)


def test_a_lease_whose_clock_is_far_in_the_future_is_still_only_fresh_for_lease_ms():
    # a tab with a wrong clock wrote `at` in the future: it is not held forever
    assert lease_free(lease_record("t2", 10 ** 12, 0), "t1", 10000)


def test_the_lease_is_refreshed_every_second():
    assert not lease_due(1000, 1999)
    assert lease_due(1000, 2000)


def test_a_resumed_room_goes_on_from_the_later_of_its_save_and_its_lease():
    assert resume_clock(saved(now=4000), None) == 4000
    assert resume_clock(saved(now=4000), {"clock": 6500}) == 6500     # lease newer
    assert resume_clock(saved(now=4000), {"clock": 3000}) == 4000     # save newer
    assert resume_clock(saved(now=-5), {"clock": "x"}) == 0
    assert resume_clock(saved(now=None), {"clock": 10.7}) == 10
    assert resume_clock(None, None) == 0


def test_at_start_the_page_resumes_the_room_in_its_url_or_offers_the_last_one():
    room = SAVED["room_id"]
    assert choose(room, saved()) == ("resume", room)              # a reload of its tab
    assert choose(None, saved()) == ("offer", saved())            # the landing offers it
    assert choose("crisp-other", saved()) == ("offer", saved())
    assert choose(room, saved(game={"phase": "game_over"})) == ("landing", None)
    assert choose(room, None) == ("landing", None)
    assert choose(None, {"junk": 1}) == ("landing", None)
    # another tab runs the room in the URL, maybe not saved yet: wait for it
    assert choose(room, None, held=True) == ("resume", room)
    assert choose(None, saved(), held=True) == ("offer", saved())


def test_the_room_clock_counts_from_its_start_and_goes_on_after_a_resume():
    clock = Clock(1000)
    assert clock.at(1000) == 0 and clock.at(3500) == 2500
    resumed = Clock(90000, 2500)            # reloaded much later: the clock goes on
    assert resumed.at(90000) == 2500 and resumed.at(90100) == 2600


def test_the_clock_holds_while_the_engine_starts_then_goes_on_from_there():
    clock = Clock(90000, 2500, running=False)       # a resumed room, the engine starting
    assert not clock.running
    assert clock.at(90000) == 2500 and clock.at(95000) == 2500
    clock.go(95000)                                  # the engine runs: the clock goes on
    assert clock.running and clock.at(95000) == 2500 and clock.at(95300) == 2800
    for t in range(95500, 99000, 500):
        clock.at(t)                                  # the page reads it every tick
    clock.go(99000)                                  # no-op once running
    assert clock.at(99000) == 6500
    clock.hold(99000)
    clock.hold(120000)                               # no-op once held
    assert clock.at(150000) == 6500


def test_outputs_are_sorted_for_the_page():
    out = [["local", '{"type":"lobby"}', "lobby"],
           ["c1", '{"v":1,"type":"kicked"}', "kicked"],  # (kinds: as the room made them)
           ["c2", '{"type":"pong"}', "pong"],
           ["c1", '{"type":"kicked"}', "kicked"]]
    todo = sort_out(out, "local")
    assert todo["local"] == ['{"type":"lobby"}']
    assert todo["remote"] == [("c1", '{"v":1,"type":"kicked"}', "kicked"),
                              ("c2", '{"type":"pong"}', "pong"), ("c1", '{"type":"kicked"}', "kicked")]
    assert todo["close"] == ["c1"]
    assert todo["changed"] is True


def test_pongs_and_errors_change_nothing_worth_saving():
    out = [("c1", '{"type":"pong","t":1}', "pong"), ("c2", '{"type":"error","code":"x"}', "error")]
    assert sort_out(out, "local")["changed"] is False
    assert sort_out([], "local") == {"local": [], "remote": [], "close": [], "changed": False}
    # an output of no known kind is a change
    assert sort_out([("c1", '{"type":"view"}', None)], "local")["changed"] is True


def test_the_provisional_lobby_is_the_host_alone_with_the_default_options():
    welcome, lobby = [json.loads(t) for t in provisional("crisp-x", "Ana")]
    assert welcome == {"type": "welcome", "v": 1, "seat": 0, "token": None, "room": "crisp-x",
                       "host": 0}
    assert lobby["type"] == "lobby" and lobby["v"] == 1 and lobby["started"] is False
    assert lobby["players"] == [{"seat": 0, "name": "Ana", "bot": None, "connected": True,
                                 "wins": 0}]
    assert lobby["options"] == hostlife.DEFAULT_OPTIONS


def test_the_hostlife_tests_pass_on_micropython(tmp_path):
    """The host page runs ui/shared/hostlife.py on MicroPython: the tests above, again, there."""
    import os

    from test_render_micropython import ROOT, run_tests_on_micropython

    files = {"/tests/test_hostlife.py": os.path.join(ROOT, "tests", "test_hostlife.py"),
             "/ui/shared/hostlife.py": os.path.join(ROOT, "ui", "shared", "hostlife.py"),
             "/ui/shared/roomcode.py": os.path.join(ROOT, "ui", "shared", "roomcode.py"),
             "/ui/shared/savedroom.py": os.path.join(ROOT, "ui", "shared", "savedroom.py"),
             "/ui/shared/wire.py": os.path.join(ROOT, "ui", "shared", "wire.py"),
             "/ui/shared/limits.py": os.path.join(ROOT, "ui", "shared", "limits.py")}
    me = ["test_the_hostlife_tests_pass_on_micropython",
          "test_the_defaults_are_the_rooms"]
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_hostlife", files, me)
    assert failed == [], out
    assert ran == len([n for n in globals() if n.startswith("test_")]) - len(me), out


def test_the_defaults_are_the_rooms():
    from ui.worker import room
    assert hostlife.DEFAULT_OPTIONS == room.DEFAULT_OPTIONS
    assert hostlife.ROOM_ID_PREFIX == room.new_room_id()[:len(hostlife.ROOM_ID_PREFIX)]


def test_a_draft_is_a_resumable_room_with_the_host_alone():
    d = hostlife.draft("crisp-x", "Ana", 5, ["Ah"])
    assert resumable(d) and d["draft"] is True and d["game"] is None
    assert summary(d)["names"] == ["Ana"]
    assert choose("crisp-x", d) == ("resume", "crisp-x")


def test_a_room_link_opened_by_its_own_host_is_never_a_second_seat():
    # issue 14: the browser that hosts a room opens that room's link
    from ui.shared.hostlife import own_room
    room = "crisp-" + "a" * 32
    mine = {"room_id": room, "seats": [{"name": "Hana"}], "game": None}
    held = {"tab": "t1", "at": 50000, "clock": 1200}
    assert own_room(room, mine, held, 50000 + LEASE_MS) == "elsewhere"     # a tab runs it
    assert own_room(room, mine, held, 50000 + LEASE_MS + 1) == "resume"    # stale: crashed
    assert own_room(room, mine, {"tab": "t1", "at": 0, "clock": 1}, 50000) == "resume"
    assert own_room(room, mine, None, 50000) == "resume"                   # never run
    assert own_room(room, None, held, 50000) is None                       # a guest's browser
    assert own_room(room, {"room_id": "crisp-" + "b" * 32, "seats": []}, held, 50000) is None
    for garbage in ("", [], "x", {"room_id": 5}, {"room_id": room}, {"room_id": room,
                                                                     "seats": "Hana"}):
        assert own_room(room, garbage, held, 50000) is None, garbage
    for lease in ("", [], {"at": "soon", "tab": "t"}, {"tab": "t", "at": True}):
        assert own_room(room, mine, lease, 50000) == "resume", lease


def test_time_the_page_could_not_run_never_counts():
    # issue 14: the host's page is frozen 40 s (a busy main thread, a suspended phone) while
    # a guest's 60 s draw timer runs; the room's clock skips the gap, all but one tick
    clock = Clock(1000)
    t = 1000
    for _ in range(20):                              # the page runs: read every 250 ms
        t += 250
        assert clock.at(t) == t - 1000
    before = clock.at(t)
    t += 40_000                                      # frozen: no reading at all
    assert clock.at(t) == before + TICK_MS
    assert clock.skipped == 40_000 - TICK_MS
    assert clock.at(t + 500) == before + TICK_MS + 500   # and on from there
    # a background tab's timers fire once a second: nothing is skipped
    clock = Clock(0)
    for k in range(1, 60):
        assert clock.at(k * 1000) == k * 1000
    clock = Clock(0)
    assert clock.at(GAP_MS) == GAP_MS                # a gap up to GAP_MS counts
    assert clock.at(GAP_MS + GAP_MS + 1) == GAP_MS + TICK_MS


def test_a_held_clock_skips_nothing_when_it_goes_on():
    clock = Clock(0, 500, running=False)
    assert clock.at(60_000) == 500
    clock.go(60_000)
    assert clock.at(60_100) == 600 and clock.skipped == 0
    clock.hold(61_000)
    assert clock.at(200_000) == 1500


def test_an_engine_start_with_no_progress_for_20_s_is_slow_not_failed():
    """Issue 22 item 2: a download with no bytes for 20 s may still answer (a wasm held by a
    slow network): the player is offered Retry while the page waits; failed only after the
    much longer ENGINE_GIVE_UP_MS."""
    from ui.shared.hostlife import ENGINE_GIVE_UP_MS, ENGINE_SLOW_MS, engine_verdict
    assert engine_verdict("loading", 1000, 1000 + ENGINE_SLOW_MS - 1) is None
    assert engine_verdict("loading", 1000, 1000 + ENGINE_SLOW_MS) == "slow"
    assert engine_verdict("loading", 1000, 1000 + ENGINE_SLOW_MS, "download") == "slow"
    assert ENGINE_SLOW_MS <= 20000
    assert engine_verdict("loading", 1000, 1000 + ENGINE_GIVE_UP_MS - 1, "download") == "slow"
    assert engine_verdict("loading", 1000, 1000 + ENGINE_GIVE_UP_MS, "download") == "failed"
    assert ENGINE_GIVE_UP_MS >= 6 * ENGINE_SLOW_MS
    for state in ("idle", "ready", "failed"):
        assert engine_verdict(state, 1000, 10 ** 9) is None
    assert engine_verdict("loading", None, 10 ** 9) is None       # not started yet
    assert engine_verdict("loading", True, 10 ** 9) is None       # (not a time)


def test_a_slow_start_that_moves_again_is_no_longer_slow():
    from ui.shared.hostlife import ENGINE_SLOW_MS, engine_verdict
    assert engine_verdict("loading", 1000, 1000 + ENGINE_SLOW_MS + 5000) == "slow"
    # bytes arrived at 1000 + ENGINE_SLOW_MS + 4000: progress_at moves there
    assert engine_verdict("loading", 1000 + ENGINE_SLOW_MS + 4000,
                          1000 + ENGINE_SLOW_MS + 5000) is None


def test_an_engine_whose_downloads_are_done_is_not_called_slow_while_its_cpu_works():
    """Issue 22 item 2 (seen: failed at 20 s, ready at 29 s): once all is downloaded the
    worker's signs of life can be held back by a long synchronous step, and a slow phone is
    not a stalled one."""
    from ui.shared.hostlife import (ENGINE_BUSY_MS, ENGINE_GIVE_UP_MS, ENGINE_SLOW_MS,
                                    engine_verdict)
    for stage in ("compile", "python", "engine"):
        assert engine_verdict("loading", 1000, 1000 + ENGINE_SLOW_MS + 9000, stage) is None
        assert engine_verdict("loading", 1000, 1000 + ENGINE_BUSY_MS - 1, stage) is None
        assert engine_verdict("loading", 1000, 1000 + ENGINE_BUSY_MS, stage) == "slow"
        assert engine_verdict("loading", 1000, 1000 + ENGINE_GIVE_UP_MS, stage) == "failed"
    assert ENGINE_GIVE_UP_MS > ENGINE_BUSY_MS > ENGINE_SLOW_MS
