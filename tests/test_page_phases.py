"""The pages' phases and the decisions of their glue, without a browser: the host page's
(ui/page/host_phase.py) and the guest's (ui/page/guest_phase.py). Runs on CPython and, below,
again on MicroPython (the pages run these modules there)."""

from ui.page import host_phase
from ui.page.host_phase import MOVES, PHASES, HostPhase, move, reply_kind


def test_every_host_move_goes_between_named_phases_and_forget_always_lands():
    for (phase, event), after in MOVES.items():
        assert phase in PHASES and after in PHASES
        assert move(phase, event) == after
    for phase in PHASES:
        assert move(phase, "forget") == "landing"
        assert move(phase, "no such event") == phase


def test_a_new_room_is_creating_until_the_engine_says_lobby_then_playing():
    p = HostPhase()
    assert p.to("create") == "creating" and not p.started()
    assert p.heard(False, True) is False and p.phase == "lobby"
    assert p.heard(True, True) is False and p.phase == "playing" and p.started()


def test_a_resumed_room_is_at_its_saved_phase_before_the_engine_answers():
    p = HostPhase()
    assert p.to("resume_game") == "playing" and p.started()
    assert HostPhase().to("resume_lobby") == "lobby"


def test_solo_next_game_starts_itself_once_the_room_is_back_in_its_lobby():
    p = HostPhase()
    p.to("resume_game")
    assert p.to("new_game_solo") == "restarting" and p.started()
    assert p.heard(True, True) is False and p.phase == "restarting"   # not yet back
    assert p.heard(False, False) is False and p.phase == "restarting"  # nothing for me
    assert p.heard(False, True) is True and p.phase == "lobby"         # start it now
    assert p.heard(True, True) is False and p.phase == "playing"


def test_a_takeover_counts_as_started_and_a_forgotten_room_drops_solo():
    p = HostPhase()
    p.to("take_over")
    assert p.phase == "taking_over" and p.started()
    p.heard(True, True)
    assert p.phase == "playing"
    p.solo = True
    assert p.to("forget") == "landing" and not p.solo and not p.started()


def test_the_engine_replies_sort_into_what_the_page_does():
    refused = {"op": "refused", "error": "x"}
    failed = {"op": "refused", "failed": True}
    assert reply_kind("check", {"op": "out"}, None) == "checked"
    assert reply_kind("create", refused, "crisp-a") == "name_refused"
    assert reply_kind("create", failed, "crisp-a") == "refused"      # never started
    assert reply_kind("takeover", failed, "crisp-a") == "takeover_failed"
    assert reply_kind("restore", refused, "crisp-a") == "unreadable"
    assert reply_kind("restore", failed, "crisp-a") == "refused"     # kept for a reload
    assert reply_kind("restore", refused, None) == "refused"
    assert reply_kind("receive", {"op": "out", "room": "crisp-b"}, "crisp-a") == "stale"
    assert reply_kind("receive", {"op": "out", "room": "crisp-a"}, None) == "stale"
    assert reply_kind("receive", {"op": "out", "room": "crisp-a"}, "crisp-a") == "room"


def test_followers_are_the_dicts_of_the_reply_only():
    assert host_phase.followers_of({"follow": [{"peer": "p"}, 3, "x"]}) == [{"peer": "p"}]
    assert host_phase.followers_of({"follow": "x"}) == []
    assert host_phase.followers_of({}) == []


def test_a_host_is_alone_when_every_other_person_is_away_bots_aside():
    me = {"seat": 0, "connected": True, "bot": None}
    away = {"seat": 1, "connected": False, "bot": None}
    here = {"seat": 2, "connected": True, "bot": None}
    bot = {"seat": 3, "connected": True, "bot": "easy"}
    assert host_phase.alone([me, away, bot], 0)
    assert not host_phase.alone([me, away, here], 0)
    assert not host_phase.alone([me, bot], 0)                  # nobody to be cut off from
    assert not host_phase.alone(None, 0)
    assert host_phase.alone([me, away, "junk"], 0)


def test_a_lone_host_looks_after_a_while_and_then_not_too_often():
    assert not host_phase.probe_due(None, 0, 50000, 10000, 15000)
    assert not host_phase.probe_due(45000, 0, 50000, 10000, 15000)
    assert host_phase.probe_due(40000, 0, 50000, 10000, 15000)
    assert not host_phase.probe_due(40000, 40000, 50000, 10000, 15000)
    assert host_phase.probe_due(40000, 35000, 50000, 10000, 15000)


def test_the_landing_model_offers_a_saved_room_summary():
    from ui.page.host_phase import Landing
    assert Landing().resume is None and Landing().screen == "landing"
    offer = Landing({"room_id": "crisp-abc", "seats": [{"name": "Ana"}]}, "connecting", 40)
    assert offer.resume is not None and offer.engine_wait == 40


def test_the_phase_tests_pass_on_micropython(tmp_path):
    """The pages run these modules on MicroPython: the tests above, again, there."""
    import os

    from test_render_micropython import ROOT, run_tests_on_micropython, ui_files

    files = ui_files("shared")
    for name in ("host_phase", "guest_phase"):
        path = os.path.join(ROOT, "ui", "page", name + ".py")
        if os.path.exists(path):
            files["/ui/page/%s.py" % name] = path
    files["/tests/test_page_phases.py"] = os.path.join(ROOT, "tests", "test_page_phases.py")
    me = "test_the_phase_tests_pass_on_micropython"
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_page_phases", files, [me])
    assert failed == [], out
    assert ran == len([n for n in globals() if n.startswith("test_")]) - 1, out
