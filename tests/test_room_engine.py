"""The room behind the engine worker's port (ui/worker/engine.py): requests in, one reply each, with
every output's kind, the room's save after each change and its next wakeup. The worker is a
thin shell around it (engine-worker.js); the host page talks to the room only this way."""

import json

from ui.shared import hostlife, seal
from ui.worker.engine import Engine

ROOM = "crisp-" + "b" * 32


def ask(engine, **request):
    return json.loads(engine.handle(json.dumps(request)))


def msg(kind, **fields):
    d = {"type": kind, "v": 1}
    d.update(fields)
    return json.dumps(d)


def created(name="Ana", seed=7, **extra):
    engine = Engine()
    reply = ask(engine, op="create", room_id=ROOM, name=name, seed=seed, deck=None, pace=0.1,
                now=0, **extra)
    assert reply["op"] == "out" and reply["room"] == ROOM and reply["out"] == []
    assert json.loads(reply["save"])["room_id"] == ROOM
    return engine


def test_the_host_joins_and_gets_welcome_and_lobby_with_their_kinds():
    engine = created()
    reply = ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)
    assert [(c, k) for c, _, k in reply["out"]] == [("local", "welcome"), ("local", "lobby")]
    assert reply["started"] is False and isinstance(reply["save"], str)


def test_the_provisional_lobby_matches_the_rooms_own():
    engine = created()
    reply = ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)
    real = [json.loads(t) for _, t, _ in reply["out"]]
    mine = [json.loads(t) for t in hostlife.provisional(ROOM, "Ana")]
    assert mine[1] == real[1]
    # the host's own screen: no token, and no succession secret (only a guest moves to the
    # room's next id; the host's page gets the real welcome as soon as the engine runs)
    assert {k: v for k, v in mine[0].items() if k not in ("token", "succession")} == {
        k: v for k, v in real[0].items() if k not in ("token", "succession")}


def test_a_pong_is_not_saved_and_a_guest_is_seen():
    engine = created()
    ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)
    ask(engine, op="open", conn="c1", now=20)
    reply = ask(engine, op="receive", conn="c1", text=msg("ping", t=5), now=30)
    assert [(c, k) for c, _, k in reply["out"]] == [("c1", "pong")]
    assert reply["save"] is None
    reply = ask(engine, op="receive", conn="c1", text=msg("join", name="Bea"), now=40)
    assert ("c1", "welcome") in [(c, k) for c, _, k in reply["out"]]
    assert len(json.loads(reply["save"])["seats"]) == 2


def test_a_binary_payload_from_a_guest_gets_an_error_not_a_crash():
    engine = created()
    ask(engine, op="open", conn="c1", now=20)
    reply = ask(engine, op="receive", conn="c1", text=None, now=30)
    assert [(c, k) for c, _, k in reply["out"]] == [("c1", "error")]


def test_solo_start_runs_bots_and_reports_the_next_wakeup():
    engine = created()
    ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)
    ask(engine, op="receive", conn="local", text=msg("add_bot", level="easy"), now=11)
    reply = ask(engine, op="receive", conn="local", text=msg("start"), now=12)
    assert reply["started"] is True
    assert ("local", "view") in [(c, k) for c, _, k in reply["out"]]
    assert isinstance(reply["wakeup"], int) and reply["wakeup"] > 12
    reply = ask(engine, op="tick", now=reply["wakeup"])
    assert reply["op"] == "out"


def test_a_saved_room_is_restored_and_its_clock_goes_on():
    engine = created()
    ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)
    ask(engine, op="receive", conn="local", text=msg("add_bot", level="easy"), now=11)
    save = ask(engine, op="receive", conn="local", text=msg("start"), now=12)["save"]
    again = Engine()
    reply = ask(again, op="restore", saved=json.loads(save), pace=0.1, now=5000)
    assert reply["op"] == "out" and reply["room"] == ROOM and reply["started"] is True
    assert json.loads(reply["save"])["now"] == 5000
    reply = ask(again, op="receive", conn="local", text=msg("join", name="Ana"), now=5001)
    assert ("local", "view") in [(c, k) for c, _, k in reply["out"]]


def test_a_broken_or_hostile_save_is_refused_and_the_engine_goes_on():
    engine = Engine()
    for bad in (None, [], {"room_id": ROOM}, {"room_id": ROOM, "seats": [{"name": "A"}]},
                {"room_id": ROOM, "seats": [1], "game": None}):
        reply = ask(engine, op="restore", saved=bad, pace=1, now=0)
        assert reply["op"] == "refused", bad
    assert engine.room is None
    created()          # and a fresh room still works


def test_requests_that_make_no_sense_are_refused_never_raised():
    engine = Engine()
    assert json.loads(engine.handle("not json"))["op"] == "refused"
    assert json.loads(engine.handle("[1]"))["op"] == "refused"
    assert ask(engine, op="eval", code="1")["op"] == "refused"
    assert ask(engine, op="tick", now=5)["op"] == "refused"                 # no room yet
    engine = created()
    assert ask(engine, op="tick", now="soon")["op"] == "refused"
    assert ask(engine, op="create", room_id=5, name="Ana", now=0)["op"] == "refused"
    assert ask(engine, op="receive", conn="local", now=1)["op"] == "refused"  # no text
    assert engine.room.room_id == ROOM                                        # unchanged


def test_a_bad_test_deck_is_ignored_and_the_pace_is_clamped():
    engine = Engine()
    reply = ask(engine, op="create", room_id=ROOM, name="Ana", seed=1, deck=["Ah", "Ah"],
                pace=99, now=0)
    assert reply["op"] == "out" and engine.room.deck is None


def test_drop_forgets_the_room():
    engine = created()
    reply = ask(engine, op="drop")
    assert reply["room"] is None and engine.room is None
    assert ask(engine, op="tick", now=1)["op"] == "refused"


def test_a_draft_saved_before_the_engine_ran_makes_the_same_room_again():
    engine = Engine()
    reply = ask(engine, op="restore", saved=hostlife.draft(ROOM, "Ana", 9, None), pace=0.1,
                now=300)
    assert reply["op"] == "out" and reply["room"] == ROOM and reply["started"] is False
    assert engine.room.seed == 9 and engine.room.seats[0].name == "Ana"
    reply = ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=301)
    assert [(c, k) for c, _, k in reply["out"]] == [("local", "welcome"), ("local", "lobby")]
    # a hostile draft is refused like any bad save
    bad = hostlife.draft(ROOM, 5, None, None)
    assert ask(Engine(), op="restore", saved=bad, pace=1, now=0)["op"] == "refused"


def test_a_draft_keeps_the_hosts_language_for_the_bots_it_makes_again():
    # issue 20: a room made again from its draft (a reload before the engine ran) named its
    # bots in English whatever the host's language
    for lang, first in (("es", "Luc\u00eda"), ("en", "Emma")):
        engine = Engine()
        reply = ask(engine, op="restore", saved=hostlife.draft(ROOM, "Ana", 9, None, lang),
                    pace=0.1, now=300)
        assert reply["op"] == "out" and engine.room.lang == lang
        ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=301)
        ask(engine, op="receive", conn="local", text=msg("add_bot", level="easy"), now=302)
        assert engine.room.seats[1].name.endswith(" " + first), lang
    # a draft's language is checked like the create request's: anything else is English
    for bad in ("fr", 5, ["es"], None):
        engine = Engine()
        ask(engine, op="restore", saved=dict(hostlife.draft(ROOM, "Ana", 9, None), lang=bad),
            pace=0.1, now=300)
        assert engine.room.lang == "en", bad


def test_connections_the_room_drops_come_back_for_the_page_to_close():
    # ui/shared/gate.py: a connection not seated within 10 s is dropped; the page must close it
    engine = created()
    reply = ask(engine, op="open", conn="c1", peer="peer-1", now=0)
    assert reply["dropped"] == []
    assert engine.room.peers["c1"] == "peer-1"
    reply = ask(engine, op="tick", now=60_000)
    assert reply["dropped"] == ["c1"]
    assert ask(engine, op="tick", now=60_001)["dropped"] == []


def test_replies_carry_names_beyond_the_basic_plane_as_characters_not_surrogate_escapes():
    # The page reads the engine's replies with MicroPython's json, which turns a surrogate
    # pair escape ("\ud83d\ude00") into U+FFFD characters: a name with an emoji showed as
    # "������" on every screen. The reply carries the characters themselves.
    engine = Engine()
    name = "Zoë 😀👩‍👩‍👧"
    text = engine.handle(json.dumps({"op": "create", "room_id": ROOM, "name": name, "seed": 7,
                                     "deck": None, "pace": 0.1, "now": 0}))
    text = engine.handle(json.dumps({"op": "receive", "conn": "local", "now": 10,
                                     "text": msg("join", name=name)}))
    assert "\\ud83d" not in text.lower() and "😀" in text
    reply = json.loads(text)
    lobby = json.loads([t for _, t, k in reply["out"] if k == "lobby"][0])
    assert lobby["players"][0]["name"] == name
    assert "\\ud83d" not in reply["save"].lower()


def test_a_reply_quoting_a_lone_surrogate_is_still_valid_text():
    from ui.worker.engine import _text
    text = _text({"op": "refused", "error": "KeyError: '\udc80'"})
    text.encode("utf-8")                                  # no lone surrogate in the reply
    assert json.loads(text)["error"] == "KeyError: '\udc80'"


def test_a_room_is_not_made_under_an_id_no_room_may_have():
    engine = Engine()
    for bad in ("\udc80", "", "a b", "x" * 65, "-crisp"):
        reply = ask(engine, op="create", room_id=bad, name="Ana", seed=7, deck=None, pace=0.1,
                    now=0)
        assert reply["op"] == "refused", bad


def test_every_output_is_tagged_with_its_own_type_by_the_room():
    """The room's outputs are typed (conn, kind, message): the engine encodes each once and
    tags it with the kind the room made it with (no output is read back for its type)."""
    engine = created()
    out = ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)["out"]
    out += ask(engine, op="open", conn="c1", peer="peer-c1", now=20)["out"]
    out += ask(engine, op="receive", conn="c1", text=msg("join", name="Bea"), now=30)["out"]
    out += ask(engine, op="receive", conn="c1", text=msg("start"), now=40)["out"]
    assert {k for _, _, k in out} == {"welcome", "lobby", "error"}
    assert all(json.loads(text)["type"] == kind for _, text, kind in out)


def test_the_bots_names_follow_the_create_requests_language_and_a_bad_one_is_english():
    for lang, first in (("es", "Luc\u00eda"), ("en", "Emma"), ({"x": 1}, "Emma"),
                        (["es"], "Emma"), (None, "Emma")):
        engine = created(lang=lang)
        ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)
        ask(engine, op="receive", conn="local", text=msg("add_bot", level="easy"), now=20)
        assert engine.room.seats[1].name.endswith(" " + first), lang


def test_a_contribution_that_is_not_the_last_is_saved_and_survives_a_restart():
    """A guest's `contribute` while the deal still waits for another's makes no output; it
    must still change the save (the host page keeps the last one), or a worker restarted
    before the deal forgets it and the honest host names that seat as skipped."""
    engine = created()
    ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)
    for conn, name in (("c1", "Bea"), ("c2", "Cid")):
        ask(engine, op="open", conn=conn, now=20)
        ask(engine, op="receive", conn=conn, text=msg("join", name=name), now=30)
    reply = ask(engine, op="receive", conn="local", text=msg("start"), now=40)
    assert ("c1", "commit") in [(c, k) for c, _, k in reply["out"]]
    commit = [json.loads(t) for c, t, _ in reply["out"] if c == "c1"][0]
    reply = ask(engine, op="receive", conn="c1",
                text=msg("contribute", round=commit["round"], value="01" * 16), now=50)
    assert reply["out"] == [] and reply["save"] is not None
    saved = json.loads(reply["save"])
    assert saved["fair"]["contributions"] == [[1, "01" * 16]]

    # the worker restarts from that save before the deal: Bea's part is kept
    again = Engine()
    ask(again, op="restore", saved=saved, pace=0.1, now=60)
    ask(again, op="tick", now=60 + 3000)
    info = again.room.deal.state["info"]          # the deal went (the guests are away)
    assert info["contributions"] == [[1, "01" * 16]] and info["skipped"] == [2]


def three_at_the_table():
    """Ana hosts, Bea (c1) and Cid (c2) join, the round is dealt and everyone is ready:
    -> (engine, now) with the play begun."""
    engine = created()
    ask(engine, op="receive", conn="local", text=msg("join", name="Ana"), now=10)
    for conn, name in (("c1", "Bea"), ("c2", "Cid")):
        ask(engine, op="open", conn=conn, now=20)
        ask(engine, op="receive", conn=conn, text=msg("join", name=name), now=30)
    ask(engine, op="receive", conn="local", text=msg("start"), now=40)
    ask(engine, op="tick", now=3040)                  # the deal (no contribution came)
    now = 3100
    for conn in ("local", "c1", "c2"):
        now += 1
        ask(engine, op="receive", conn=conn,
            text=msg("action", action={"do": "ready"}), now=now)
    return engine, now


def test_every_move_is_in_the_box_the_holders_keep_at_once():
    """A move any page has seen applied is in the sealed box the holders keep: the reply
    that carries its views carries the seal too, however soon after the last seal it
    came. (Before: at most one seal a second; a host that slept within that second of a
    move handed over a box without it: a drawn card gone, the peek over by time.) The
    holders' box is what a handover resumes from, whatever the host's sleep (40 s, 65 s)."""
    engine, now = three_at_the_table()
    room = engine.room
    for step in range(2):                 # a draw and its next move 50 ms apart: each sealed
        seat = room.game.turn if room.game.phase == "play" else None
        assert seat is not None, room.game.phase
        conn = {0: "local", 1: "c1", 2: "c2"}[seat]
        legal = room.game.legal_actions(seat, now)
        move = legal[0]                   # the draw, then what the drawn card allows
        now += 50
        reply = ask(engine, op="receive", conn=conn, text=msg("action", action=move), now=now)
        kinds = [(c, k) for c, _, k in reply["out"]]
        assert ("c1", "view") in kinds, (step, move, kinds)
        sealed = {c: json.loads(t) for c, t, k in reply["out"] if k == "sealed"}
        assert set(sealed) == {"c1", "c2"}, (step, move, kinds)
        box = sealed["c1"]["box"]
        state = seal.open_room(box, [s["share"] for s in sealed.values()], ROOM)
        assert state["game"] == json.loads(json.dumps(room.game.to_dict())), step


def test_the_probe_of_a_quiet_worker_is_answered_and_changes_nothing():
    engine = created()
    before = engine.room.to_dict()
    assert ask(engine, op="alive") == {"op": "out", "alive": True}
    assert engine.room.to_dict() == before
    assert ask(Engine(), op="alive") == {"op": "out", "alive": True}    # no room yet: still
