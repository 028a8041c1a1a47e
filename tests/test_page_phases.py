"""The pages' phases and the decisions of their glue, without a browser: the host page's
(ui/page/host/host_phase.py) and the guest's (ui/page/guest/guest_phase.py). Runs on CPython and, below,
again on MicroPython (the pages run these modules there)."""

from ui.page.host import host_phase
from ui.page.guest.guest_phase import MOVES as GUEST_MOVES
from ui.page.guest.guest_phase import PHASES as GUEST_PHASES
from ui.page.guest.guest_phase import (GuestPhase, after_seal, can_hand_over, handover_name,
                                 takeover_spec, without)
from ui.page.guest.guest_phase import move as guest_move
from ui.page.host.host_phase import MOVES, PHASES, HostPhase, move, reply_kind


def check_moves(moves, phases, move, from_any, to):
    """Every move of a MOVES table is between named phases and is what `move` does; the
    event `from_any` leads to `to` from every phase; an unknown event changes nothing; and
    every phase but `to` can be left."""
    for (phase, event), after in moves.items():
        assert phase in phases and after in phases
        assert move(phase, event) == after
    for phase in phases:
        assert move(phase, from_any) == to
        assert move(phase, "no such event") == phase
    assert set([p for p, e in moves]) | set([to]) == set(phases)


def test_every_host_move_goes_between_named_phases_and_forget_always_lands():
    check_moves(MOVES, PHASES, move, "forget", "landing")


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
    from ui.page.host.host_phase import Landing
    assert Landing().resume is None and Landing().screen == "landing"
    offer = Landing({"room_id": "crisp-abc", "seats": [{"name": "Ana"}]}, "connecting", 40)
    assert offer.resume is not None and offer.engine_wait == 40


def test_the_engine_shows_while_waited_for_and_in_a_lobby_only_once_slow_or_failed():
    shown = host_phase.engine_shown
    # the player tapped something the engine does: every step, then a failure
    assert shown("loading", 40, True, False, True) == 40
    assert shown("loading", 40, True, False, False) == 40         # Play solo, no room yet
    assert shown("failed", 40, True, False, False) == -1
    # a host sitting in its lobby, nothing tapped: a start going well shows nothing...
    assert shown("loading", 40, False, False, True) is None
    # ...one that is slow or failed is said all the same (hostlife.engine_verdict)
    assert shown("loading", 40, False, True, True) == 40
    assert shown("failed", 40, False, False, True) == -1
    # the landing with no room and no tap: nothing; a ready engine: nothing anywhere
    assert shown("loading", 40, False, True, False) is None
    assert shown("failed", 40, False, False, False) is None
    assert shown("ready", 100, True, True, True) is None


def facts(**kw):
    f = {"gone_ms": 30000, "successor_ms": 5000, "missing": False, "open": True,
         "failures": 0, "registered": True, "quiet": False, "lost": False, "leaving": False,
         "behind": False, "old_gone": False, "saved_follow": None, "can_hand_over": True, "next_is_me": False}
    f.update(kw)
    return f


def seated():
    p = GuestPhase()
    p.welcomed()
    return p


class FakeLooker:
    def __init__(self):
        self.done = False

    def stop(self):
        self.done = True


def test_every_guest_move_goes_between_named_phases_and_closed_always_ends():
    check_moves(GUEST_MOVES, GUEST_PHASES, guest_move, "closed", "gone")


def test_a_guest_is_joining_until_welcomed_then_follows_the_hosts_silence():
    p = GuestPhase()
    p.link(True)
    assert p.phase == "joining"                         # not seated: no host_quiet yet
    p.welcomed()
    assert p.phase == "seated" and p.seen
    p.link(True)
    assert p.phase == "host_quiet"
    p.link(False)
    assert p.phase == "seated"


def test_a_quiet_host_whose_successor_is_this_seat_starts_the_engine_once():
    p = seated()
    assert p.step(0, facts(quiet=True, next_is_me=True)) == ["start_engine"]
    assert p.step(250, facts(quiet=True, next_is_me=True)) == []
    assert p.step(500, facts(quiet=True, lost=True, next_is_me=True)) == ["hand_over"]


def test_the_host_gone_or_leaving_means_hand_over_but_never_from_the_lobby_or_a_reload():
    assert seated().step(0, facts(lost=True)) == ["hand_over"]
    assert seated().step(0, facts(leaving=True)) == ["hand_over"]
    assert seated().step(0, facts(lost=True, can_hand_over=False)) == []
    assert GuestPhase().step(0, facts(lost=True, can_hand_over=False)) == []


def test_a_page_behind_never_takes_over_it_looks_for_the_room():
    p = seated()
    assert p.step(0, facts(lost=True, behind=True, old_gone=True)) == ["look"]
    assert p.step(0, facts(lost=True, behind=True, old_gone=True, registered=False)) == []
    assert p.step(0, facts(quiet=True, behind=True, next_is_me=True)) == []   # no engine


def test_a_look_ends_when_the_host_is_back_and_stops_its_looker():
    p = seated()
    looker = FakeLooker()
    assert p.to("look", {"reload": False, "looker": looker})
    assert p.phase == "looking" and not p.reloading()
    assert p.step(0, facts()) == [] and p.phase == "seated" and looker.done


def test_a_successor_that_never_hosts_is_passed_over_after_the_gone_time():
    p = seated()
    p.to("hand_over", {"plan": object(), "handed": {"at": 1000}})
    assert p.phase == "handing_over"
    f = facts(missing=True, open=False, lost=True)
    assert p.step(1000 + 34999, f) == []                 # no second handover meanwhile
    assert p.step(1000 + 35000, f) == ["next_successor"]
    assert p.step(1000 + 35000, facts(missing=True, open=True)) == []
    assert p.to("hand_over", {"plan": object(), "handed": {"at": 36000}})   # the next one
    assert p.to("nobody") and p.phase == "gone"
    assert p.step(50000, facts(lost=True)) == []         # gave up: no handover from here
    p.welcomed()
    assert p.phase == "gone"


def test_a_reloaded_page_whose_room_does_not_answer_looks_once_then_waits():
    p = GuestPhase()
    record = {"seat": 1}
    assert p.step(0, facts(saved_follow=record, missing=False, can_hand_over=False)) == []
    todo = p.step(0, facts(saved_follow=record, missing=True, can_hand_over=False))
    assert todo == ["look", "looking"] and p.phase == "looking" and p.reloading()
    assert p.to("nothing") and p.phase == "joining"
    assert p.step(0, facts(saved_follow=record, missing=True, can_hand_over=False)) == []


def test_a_reloaded_page_that_found_its_room_says_looking_until_seated_or_too_late():
    p = GuestPhase()
    p.step(0, facts(saved_follow={"seat": 1}, missing=True, can_hand_over=False))
    assert p.to("found", {"reload": True, "candidates": ["t2"], "moved_at": 1000})
    assert p.step(2000, facts(can_hand_over=False)) == ["looking"]
    assert p.step(1000 + 35001, facts(can_hand_over=False)) == [] and p.phase == "joining"
    p = GuestPhase()
    p.step(0, facts(saved_follow={"seat": 1}, missing=True, can_hand_over=False))
    p.to("found", {"reload": True, "moved_at": 0})
    p.welcomed()
    assert p.phase == "seated" and p.data == {}


def test_only_a_seated_player_at_a_game_in_play_may_hand_over():
    assert can_hand_over(True, 1, "t", {}, "table", 0)
    assert not can_hand_over(False, 1, "t", {}, "table", 0)       # not seen since load
    assert not can_hand_over(True, 1, "t", {}, "lobby", 0)
    assert not can_hand_over(True, 0, "t", {}, "table", 0)        # the host itself
    assert not can_hand_over(True, 1, None, {}, "table", 0)
    assert not can_hand_over(True, None, "t", {}, "table", 0)
    assert not can_hand_over(True, 1, "t", None, "table", 0)


def test_a_successor_that_never_hosted_is_marked_away_in_a_copy():
    players = [{"seat": 0, "connected": True}, {"seat": 1, "connected": True}, "junk"]
    out = without(players, 1)
    assert out[1] == {"seat": 1, "connected": False} and players[1]["connected"] is True
    assert out[0] is players[0] and out[2] == "junk"
    assert handover_name(players, 1) == "?"
    assert handover_name([{"seat": 2, "name": "Bea"}], 2) == "Bea"


def test_the_takeover_spec_carries_the_clock_after_the_last_seal():
    assert after_seal({"at": 1000}, 4500) == 3500
    assert after_seal({"at": 5000}, 4500) == 0
    assert after_seal(None, 4500) == 0 and after_seal({"at": "x"}, 4500) == 0
    handed = {"room": "crisp-a", "epoch": 1, "succession": "ab" * 16, "token": "t",
              "players": [], "host": 0}
    spec = takeover_spec(handed, "crisp-b", 2, {"at": 1}, None, 7, {"round": 3, "hand": 1})
    assert spec["new_id"] == "crisp-b" and spec["seat"] == 2 and spec["after_seal"] == 7
    assert spec["public"]["round"] == 3 and "hand" not in spec["public"]
    assert takeover_spec(handed, "crisp-b", 2, None, None, 0, None)["public"]["round"] is None


def test_the_phase_tests_pass_on_micropython(tmp_path):
    """The pages run these modules on MicroPython: the tests above, again, there."""
    import os

    from test_render_micropython import ROOT, run_tests_on_micropython, ui_files

    files = ui_files("shared")
    for name in ("host/host_phase", "guest/guest_phase"):
        files["/ui/page/%s.py" % name] = os.path.join(ROOT, "ui", "page", *(name + ".py").split("/"))
    files["/tests/test_page_phases.py"] = os.path.join(ROOT, "tests", "test_page_phases.py")
    me = "test_the_phase_tests_pass_on_micropython"
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_page_phases", files, [me])
    assert failed == [], out
    assert ran == len([n for n in globals() if n.startswith("test_")]) - 1, out
