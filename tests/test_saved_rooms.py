"""ui/page/saved_rooms.py: the host's saved rooms and lease in localStorage, and
ui/page/room_commands.py: which room message a tap sends. Both pure (storage passed in), run
without a browser."""
import json
import types

from ui.page.room_commands import host_message, solo_messages
from ui.page.saved_rooms import SavedRooms, host_of
from ui.page.storage import Storage
from ui.shared import hostlife

from test_storage import FakeLocalStorage


def rooms():
    local = FakeLocalStorage()
    return SavedRooms(Storage(types.SimpleNamespace(localStorage=local))), local.items


def test_the_host_seat_of_a_save_names_its_seat_name_and_token():
    saved = {"room_id": "crisp-x", "host": 1, "seats": [{"name": "Ana", "token": "a" * 32},
                                                        {"name": "Bea", "token": "b" * 32}]}
    assert host_of(saved) == (1, "Bea", "b" * 32)


def test_a_hostile_save_gives_seat_0_and_no_token_never_an_error():
    for saved in (None, [], {"host": 5, "seats": [{"name": "Ana"}]}, {"host": True},
                  {"seats": "xx"}, {"host": 0, "seats": [7]}, {"seats": [{"name": 3}]}):
        seat, name, token = host_of(saved)
        assert seat == 0 and token is None and isinstance(name, str)
    assert host_of({"room_id": "crisp-x", "host": 5, "seats": [{"name": "Ana"}]}) == \
        (0, "Ana", None)


def test_a_save_that_is_not_a_json_object_reads_as_bad_and_forget_drops_every_record():
    saved, items = rooms()
    assert saved.saved("crisp-x") is None
    items["crisp.room.crisp-x"] = "[1, 2"
    assert saved.saved("crisp-x") == "bad"
    items["crisp.room.crisp-x"] = json.dumps([1])
    assert saved.saved("crisp-x") == "bad"
    saved.save_draft("crisp-x", "Ana")
    assert saved.saved("crisp-x")["room_id"] == "crisp-x"
    saved.mark_last("crisp-x")
    saved.mark_solo("crisp-x")
    saved.hold("crisp-x", "tab1", 1000, 50)
    assert saved.peer_token("crisp-x", lambda: "p" * 32) == "p" * 32
    assert saved.peer_token("crisp-x", lambda: "q" * 32) == "p" * 32     # kept
    saved.forget("crisp-x")
    assert items == {}


def test_a_guided_round_is_remembered_with_its_solo_room_until_its_tips_are_skipped():
    # issue 20: a reload in the guided first round went on without its tips
    saved, items = rooms()
    saved.mark_solo("crisp-x", guided=True)
    saved.mark_solo("crisp-y")
    assert saved.is_solo("crisp-x") and saved.is_guided("crisp-x")
    assert saved.is_solo("crisp-y") and not saved.is_guided("crisp-y")
    assert not saved.is_guided("crisp-z") and not saved.is_solo("crisp-z")
    saved.mark_solo("crisp-x")               # the tips skipped: a plain solo game from now on
    assert saved.is_solo("crisp-x") and not saved.is_guided("crisp-x")
    saved.mark_solo("crisp-x", guided=True)
    saved.forget("crisp-x")
    assert not saved.is_guided("crisp-x")
    items["crisp.solo.crisp-w"] = "guided but changed"     # a record someone else changed
    assert saved.is_solo("crisp-w") and not saved.is_guided("crisp-w")


def test_the_lease_held_is_the_one_hostlife_reads():
    saved, items = rooms()
    t = 1700000000000
    saved.hold("crisp-x", "tab1", t, 50)
    lease = saved.lease("crisp-x")
    assert not hostlife.lease_free(lease, "tab2", t + 500)
    assert hostlife.lease_free(lease, "tab1", t + 500)
    assert hostlife.resume_clock({"clock": 10}, lease) >= 10
    saved.hold("crisp-x", "tab1", 0, 60)               # let go
    assert hostlife.lease_free(saved.lease("crisp-x"), "tab2", t + 500)


def test_a_tap_sends_only_the_keys_its_command_takes():
    assert host_message("options", {"target": 50, "evil": 1}) == {"type": "options",
                                                                  "target": 50}
    assert host_message("add_bot", {}) == {"type": "add_bot", "level": "easy"}
    assert host_message("remove", {"seat": 2, "x": 1}) == {"type": "remove", "seat": 2}
    assert host_message("stand_in", {"seat": 1, "level": "hard"}) == \
        {"type": "stand_in", "seat": 1, "level": "hard"}
    assert host_message("start", {"type": "kick"}) == {"type": "start"}
    for name in ("action", "sit", "leave", "copy_link", "nonsense"):
        assert host_message(name, {}) is None
    assert host_message("options", None) == {"type": "options"}


def test_play_solo_sets_up_one_to_seven_bots_and_a_known_target_only():
    assert len(solo_messages({})) == 3
    assert len(solo_messages({"bots": 7})) == 7
    for bots in (0, 8, "3", True, None):
        assert len(solo_messages({"bots": bots})) == 3
    assert solo_messages({"bots": 1, "target": 50, "level": "hard"}) == [
        {"type": "add_bot", "level": "hard"}, {"type": "options", "target": 50}]
    assert solo_messages({"bots": 1, "target": 51}) == [{"type": "add_bot", "level": "easy"}]


def test_an_old_host_keeps_its_save_until_its_seat_at_the_new_id_is_proven():
    # issue 18 attack 1: a page that left its host room for the room's next id (Probe)
    saves, _ = rooms()
    saves.storage.set("crisp.room.r1", json.dumps({"game": {}}))
    saves.leave_for("r1-h1-x", "r1")
    assert saves.storage.get("crisp.room.r1") is not None       # kept meanwhile
    assert saves.settle("r2", seated=True) is None             # another room: nothing
    # its seat proof failed there: it hosts its own room again, save and all
    assert saves.settle("r1-h1-x", seated=False) == "r1"
    assert saves.storage.get("crisp.room.r1") is not None
    assert saves.settle("r1-h1-x", seated=False) is None       # said once
    # seated there: the old host room is forgotten
    saves.leave_for("r1-h1-x", "r1")
    assert saves.settle("r1-h1-x", seated=True) is None
    assert saves.storage.get("crisp.room.r1") is None
