"""ui/page/host/enginewatch.py: when the host page counts its running engine worker as dead (an error
event, Pyodide's fatal error, a reply that never comes) and whether it starts a new one
(issue 23, fault 3)."""

from ui.page.host.enginewatch import REPLY_MS, RESTART_WINDOW_MS, RESTARTS_MAX, EngineWatch


def running(now=0):
    watch = EngineWatch()
    watch.started(now)
    return watch


def test_a_worker_that_answers_is_alive():
    watch = running()
    for t in range(0, 60000, 1000):
        watch.sent(t)
        assert watch.check(t + 10) is None
        watch.answered()
    assert watch.check(10 ** 6) is None        # nothing asked: nothing owed


def test_a_reply_that_never_comes_counts_as_death_after_the_bound():
    watch = running()
    watch.sent(1000)
    for t in range(1000, 1000 + REPLY_MS, 250):      # the page's UI ticks
        assert watch.check(t) is None
    assert watch.check(1000 + REPLY_MS) == "restart"
    assert watch.why == "no_reply" and watch.dead_at == 1000    # it stopped answering then


def test_a_page_that_did_not_run_never_blames_its_worker():
    """A frozen host page (40 s asleep): the reply waits in its queue; the first check after
    the gap must not count the gap."""
    watch = running()
    watch.check(0)
    watch.sent(100)
    assert watch.check(200) is None
    assert watch.check(40200) is None              # woke: the gap is the page's own
    watch.answered()
    assert watch.check(40450) is None
    watch = running()
    watch.check(0)
    watch.sent(0)
    for t in range(250, REPLY_MS, 250):
        assert watch.check(t) is None
    assert watch.check(REPLY_MS) == "restart"


def test_requests_sent_while_it_starts_are_not_held_against_it():
    watch = EngineWatch()
    watch.sent(0)                               # Pyodide still starting: 30 s, say
    assert watch.check(30000) is None
    watch.started(30000)
    for t in range(30000, 30000 + REPLY_MS, 250):
        assert watch.check(t) is None
    assert watch.check(30000 + REPLY_MS) == "restart"


def test_an_error_event_or_a_fatal_error_is_death_at_once():
    for why in ("error", "fatal"):
        watch = running()
        watch.died(why, 5)
        assert watch.check(5) == "restart" and watch.why == why
    watch = EngineWatch()
    watch.died("error")                         # before it ran: a failed start, not a death
    assert watch.check(0) is None


def test_a_restart_forgets_what_the_dead_worker_owed():
    watch = running()
    watch.sent(0)
    watch.check(REPLY_MS - 1000)
    assert watch.check(REPLY_MS) == "restart"
    watch.restarting(REPLY_MS)
    assert watch.check(REPLY_MS * 3) is None    # the new one starts: nothing counted yet
    watch.started(REPLY_MS * 3)
    assert watch.check(REPLY_MS * 10) is None


def test_it_gives_up_after_too_many_restarts_in_a_while():
    watch = running()
    now = 0
    for _ in range(RESTARTS_MAX):
        watch.died("fatal", now)
        assert watch.check(now) == "restart"
        watch.restarting(now)
        now += 1000
        watch.started(now)
    watch.died("fatal", now)
    assert watch.check(now) == "give_up"
    # long after, a death may be restarted again
    later = running()
    later.restarts = list(watch.restarts)
    later.died("fatal", now + RESTART_WINDOW_MS)
    assert later.check(now + RESTART_WINDOW_MS) == "restart"


def test_a_worker_that_closed_while_nothing_was_asked_is_found_within_5_s():
    """A worker that calls close() says nothing (no error event) and answers nothing: while
    nothing is owed the page asks it something small (`probe_due`, the `alive` probe), so
    its death is found within 5 s of its last reply whatever the table does."""
    from ui.page.host.enginewatch import PROBE_MS
    watch = running()
    watch.sent(0)
    watch.answered()                # the worker's last reply; it closes right after
    found = None
    for t in range(0, 10000, 250):  # the page's UI ticks
        if watch.probe_due(t):
            watch.sent(t)           # the probe, never answered
        if watch.check(t) is not None:
            found = t
            break
    assert found is not None and found <= 5000 - 250, found    # (a tick's slack to spare)
    assert PROBE_MS < REPLY_MS


def test_no_probe_while_a_reply_is_owed_or_the_worker_is_not_running():
    watch = EngineWatch()
    assert not watch.probe_due(10 ** 6)           # not started
    watch.started(0)
    watch.sent(0)
    assert not watch.probe_due(10 ** 6)           # a reply is owed: it says enough
    watch.answered()
    assert watch.probe_due(10 ** 6)
    watch.sent(10 ** 6)
    watch.answered()
    assert not watch.probe_due(10 ** 6 + 1)       # it just answered
