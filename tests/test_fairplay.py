"""Fair play anyone can check (docs/protocol.md "Verifiable shuffle"): the host commits to a
secret before each deal, guests contribute, the deck comes from both by the portable shuffle,
and at the end of the round every page replays the round with the engine and checks all it
saw. Property tests: an honest round always verifies; a changed hidden card, deck order,
contribution or secret is always detected by the pages it shows to. Then the room's messages,
hostile guests, rejoins, a host reload, the command line and MicroPython."""

import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import test_shuffle_portable
from crisp_core import Game, IllegalAction, events_for, shuffle, verify
from roomnet import Net, engine_bots, play_out, room_of_three
from test_render_micropython import ROOT, run_tests_on_micropython
from ui.worker.room import CONTRIBUTE_MS, LOCAL, Room

HEX32 = st.binary(min_size=32, max_size=32).map(bytes.hex)
HEX16 = st.binary(min_size=16, max_size=16).map(bytes.hex)


# ---- rounds played straight on the engine ---------------------------------------------------

def random_round(rng, players, secret, contributions, cheat=None, draw_seconds=30,
                 call_rate=0.3):
    """Deal from the committed deck and play a round with random legal actions (and waits
    long enough for timers to run out). `cheat`: (step, kind, i, j) changes the state once
    at that step, as a dishonest host would: "deck" swaps deck cards i and j, "hand" swaps
    seat i's card j % 3 with the top card of the deck. Returns (record, events)."""
    options = {"players": players, "draw_seconds": draw_seconds, "draw_from_discard": True}
    order = shuffle.deck_from_seed(shuffle.derive_seed(secret, contributions))
    game = Game.new(options, order=order, dealer=rng.randrange(players), now=1000,
                    round_number=3, scores=[5] * players)
    events = game.deal_events()
    now = 1000
    for step in range(2000):
        if game.phase in ("round_over", "game_over"):
            break
        if cheat is not None and step == cheat[0] and game.deck:
            kind, i, j = cheat[1:]
            if kind == "deck":
                i, j = i % len(game.deck), j % len(game.deck)
                game.deck[i], game.deck[j] = game.deck[j], game.deck[i]
            else:
                seat, pos = i % players, j % 3
                game.hands[seat][pos], game.deck[0] = game.deck[0], game.hands[seat][pos]
        now += rng.choice((0, 500, 2000, 3000, 31000))
        events += game.advance(now)
        legal = [(seat, action) for seat in range(players)
                 for action in game.legal_actions(seat, now)]
        calls = [item for item in legal if item[1]["do"] == "crisp"]
        others = [item for item in legal if item[1]["do"] not in ("crisp", "next_round")]
        if calls and (rng.random() < call_rate or step > 400):
            seat, action = rng.choice(calls)
        elif others:
            seat, action = rng.choice(others)
        else:
            continue
        events += game.apply(seat, action, now)
    assert game.phase in ("round_over", "game_over")
    record = {"crisp_record": 1, "round": 3, "dealer": game.dealer, "options": game.options,
              "scores": [5] * players, "start": 1000, "commitment": shuffle.commitment(secret),
              "contributions": [[seat + 1, value] for seat, value in enumerate(contributions)],
              "skipped": [], "secret": secret, "actions": [list(e) for e in game.journal],
              "seat": None, "sent": None, "observed": []}
    return record, events


def for_seat(record, events, seat, segments=None):
    mine = dict(record)
    mine["seat"] = seat
    used = dict((s, v) for s, v in record["contributions"])
    mine["sent"] = used.get(seat)
    seen = events_for(events, seat)
    mine["observed"] = segments(seen) if segments else [seen]
    return mine


def honest_view(record, seat):
    """What `seat` would have seen of the round the record commits to, or None when the
    record's inputs are not even a legal round from that deck."""
    try:
        _, events = verify.replay(record)
    except verify.Mismatch:
        return None
    return events_for(events, seat)


ROUNDS = dict(deadline=None, max_examples=40,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(**ROUNDS)
@given(st.integers(2, 5), st.integers(0, 2**32), HEX32, st.lists(HEX16, min_size=1, max_size=4),
       st.integers(0, 30))
def test_an_honest_round_always_verifies_on_every_page(players, seed, secret, contributions,
                                                       cut):
    record, events = random_round(random.Random(seed), players, secret, contributions)
    for seat in range(players):
        assert verify.check(for_seat(record, events, seat)) is None
        # a page that lost the room for a while and rejoined (the room replays the round's
        # last public events, then the page sees everything again)
        def rejoined(seen):
            back = cut + 4                   # it missed 4 events, then got the last 3 again
            public = [e for e in seen[:back] if "to" not in e]
            return [seen[:cut], public[-3:] + seen[back:]]
        assert verify.check(for_seat(record, events, seat, rejoined)) is None


@settings(**ROUNDS)
@given(st.integers(2, 5), st.integers(0, 2**32), HEX32, st.lists(HEX16, min_size=1, max_size=4),
       st.integers(0, 60), st.sampled_from(["deck", "hand"]), st.integers(0, 60),
       st.integers(0, 60))
def test_a_changed_hidden_card_or_deck_order_is_detected_by_every_page_it_shows_to(
        players, seed, secret, contributions, step, kind, i, j):
    record, events = random_round(random.Random(seed), players, secret, contributions,
                                  cheat=(step, kind, i, j))
    detected = []
    for seat in range(players):
        result = verify.check(for_seat(record, events, seat))
        seen = events_for(events, seat)
        # A page notices exactly when the cheat changed something it saw.
        assert (result is None) == (seen == honest_view(record, seat)), (seat, result)
        detected.append(result is not None)
    honest = verify.replay(record)[1] if honest_view(record, 0) is not None else None
    if honest is None or honest[-1] != events[-1] and honest[-2:] != events[-2:]:
        assert all(detected)          # the final hands differ: every page sees it


@settings(**ROUNDS)
@given(st.integers(2, 4), st.integers(0, 2**32), HEX32, HEX32,
       st.lists(HEX16, min_size=1, max_size=3), HEX16)
def test_a_changed_secret_or_contribution_is_always_detected(players, seed, secret, other,
                                                             contributions, forged):
    record, events = random_round(random.Random(seed), players, secret, contributions)
    for seat in range(players):
        mine = for_seat(record, events, seat)
        if other != secret:
            assert verify.check(dict(mine, secret=other))["what"] == "commitment"
        # the host used another value than the one this seat sent: it says so
        if mine["sent"] is not None and forged != mine["sent"]:
            assert verify.check(dict(mine, sent=forged))["what"] == "contribution"
    # the host deals from other contributions than those it shows: the deal shows it
    if forged not in contributions:
        cheated, cheated_events = random_round(random.Random(seed), players, secret,
                                               [forged] + contributions[1:])
        cheated["contributions"] = record["contributions"]
        assert verify.check(for_seat(cheated, cheated_events, 0))["what"] in \
            verify.KINDS[verify.KINDS.index("log"):]


def test_rounds_without_a_draw_timer_and_with_recycled_decks_verify():
    # draw-from-discard and long rounds: the discard turned over into the deck (R5.1)
    rng = random.Random(4)
    seen_recycle = False
    for k in range(30):
        record, events = random_round(rng, 2, "%064x" % k, ["%032x" % k], draw_seconds=None,
                                      call_rate=0.01)
        seen_recycle |= any(e["type"] == "recycle" for e in events)
        for seat in range(2):
            assert verify.check(for_seat(record, events, seat)) is None
    assert seen_recycle


# ---- the room: commit, contributions, fair, proof ---------------------------------------------

def play_round(net, people):
    """The people in `people` (conns) play the round out: draw, then swap into their center
    or discard, one of them calling crisp after a few turns (roomnet.play_out)."""
    start_round = net.host.view["round"]

    def over():
        view = net.host.view
        return view["round"] != start_round or view["phase"] in ("round_over", "game_over")
    play_out(net, people, over, crisp_after=4, swap="center", moves=5000)


def test_an_honest_room_round_verifies_on_every_page_and_the_deal_waits_for_nobody():
    net = room_of_three()
    clock = net.clock
    net.host.host({"type": "start"})
    # both guests answered at once: the deal went without waiting for the time limit
    assert net.room.game is not None and net.clock == clock
    commit = net.last("a", "commit")
    fair = net.last("a", "fair")
    assert commit["round"] == 1 and commit["commitment"] == fair["commitment"]
    assert [item[0] for item in fair["contributions"]] == [1, 2] and fair["skipped"] == []
    assert fair["contributions"][0][1] == net.clients["a"].fair[1]["sent"]
    assert fair["players"] == ["Host", "Ana", "Bea"] and fair["dealer"] == 0
    # the deck is the one the commitment and the contributions give
    secret = net.room.fair["secret"]
    order = shuffle.deck_from_seed(shuffle.derive_seed(secret, [v for _, v in
                                                                fair["contributions"]]))
    game = net.room.game
    assert game.hands[1] == [order[0], order[3], order[6]]
    assert game.deck == order[9:]
    # nothing carries the secret before the round is over
    assert not any(secret in text for texts in net.inbox.values() for text in texts)
    play_round(net, (LOCAL, "a", "b"))
    for conn in (LOCAL, "a", "b"):
        client = net.clients[conn]
        assert client.verdict["round"] == 1 and client.verdict["ok"], client.verdict
        assert verify.check(client.record) is None
        assert client.record["secret"] == secret
    assert net.last("a", "proof")["parts"] == 1
    assert not net.leaks
    # the next round: a new commitment, a new secret
    net.host.host({"type": "next_round"})
    assert net.last("b", "commit")["round"] == 2
    assert net.last("b", "commit")["commitment"] != commit["commitment"]
    assert net.host.view["round"] == 2
    play_round(net, (LOCAL, "a", "b"))
    assert all(net.clients[c].verdict == dict(net.clients[c].verdict, round=2, ok=True)
               for c in (LOCAL, "a", "b"))


def test_a_guest_that_does_not_answer_is_skipped_and_named():
    net = room_of_three()
    net.clients["b"].entropy = None          # Bea's page never answers
    net.host.host({"type": "start"})
    assert net.room.game is None and net.room.next_wakeup() == net.clock + CONTRIBUTE_MS
    net.later(CONTRIBUTE_MS)
    assert net.room.game is not None
    fair = net.last("a", "fair")
    assert [item[0] for item in fair["contributions"]] == [1] and fair["skipped"] == [2]
    play_round(net, (LOCAL, "a", "b"))
    for conn in ("a", "b"):
        verdict = net.clients[conn].verdict
        assert verdict["ok"] and verdict["skipped"] == [2]
        assert net.clients[conn].record["skipped"] == [2]


@pytest.mark.parametrize("cheat, names", [("hand", ("draw", "discard", "hands", "log")),
                                          ("deck", ("draw", "discard", "hands", "log"))])
def test_a_host_that_cheats_after_committing_is_caught_by_every_guest(cheat, names):
    for attempt in range(5):
        net = room_of_three()
        net.room.cheat = cheat
        net.host.host({"type": "start"})
        play_round(net, (LOCAL, "a", "b"))
        verdicts = [net.clients[conn].verdict for conn in ("a", "b")]
        assert all(not v["ok"] for v in verdicts), verdicts
        assert all(v["what"] in names for v in verdicts), verdicts
        assert all(v["saw"] != v["expected"] for v in verdicts if v["what"] != "log")
        # and the saved record says so too, to anyone who runs the check
        assert verify.check(net.clients["a"].record)["what"] == verdicts[0]["what"]


def test_solo_rooms_and_stacked_test_decks_have_no_commitment():
    net = Net(make_bot=engine_bots())
    net.host.join("Host")
    net.host.host({"type": "add_bot", "level": "easy"})
    net.host.host({"type": "start"})
    assert net.room.game is not None and net.room.fair is None
    assert not net.received(LOCAL, "commit")
    assert net.host.verdict is None                 # solo: nothing to check, nothing said
    stacked = room_of_three(deck=["Ah", "2c"])
    stacked.clients["b"].test_build = True          # Bea's page is a test build's
    stacked.host.host({"type": "start"})
    assert stacked.room.game is not None and stacked.room.fair is None
    play_round(stacked, (LOCAL, "a", "b"))
    assert not stacked.received("a", "commit") and not stacked.received("a", "proof")
    # the guests say the round is not checked: a test build's page, that it is a test deck
    assert stacked.clients["a"].verdict["what"] == "uncommitted"
    assert stacked.clients["b"].verdict["what"] == "test_deck"
    assert stacked.host.verdict is None


def test_hostile_contributions_change_nothing():
    net = room_of_three()
    net.clients["a"].entropy = net.clients["b"].entropy = None
    net.host.host({"type": "start"})
    before = net.snapshot()
    for bad in ({"round": 1, "value": "AB" * 16}, {"round": 1, "value": "ab" * 17},
                {"round": "1", "value": "ab" * 16}, {"round": 1, "value": ["ab"]},
                {"round": 1}, {"round": 1, "value": "ab" * 16, "seat": 2}):
        out = net.raw("a", json.dumps(dict(bad, type="contribute", v=1)))
        assert [json.loads(t)["code"] for _, t in out] == ["bad_message"], bad
    out = net.raw("z", json.dumps({"type": "contribute", "v": 1, "round": 1, "value": "ab" * 16}))
    assert [json.loads(t)["code"] for _, t in out] == ["not_joined"]
    # the wrong round, or the host's own seat: nothing (and no deal yet)
    assert net.raw("a", json.dumps({"type": "contribute", "v": 1, "round": 2,
                                    "value": "ab" * 16})) == []
    assert net.raw(LOCAL, json.dumps({"type": "contribute", "v": 1, "round": 1,
                                      "value": "ab" * 16})) == []
    assert net.snapshot() == before
    # Ana answers twice: the first counts; Bea's answer deals; a late one changes nothing
    net.raw("a", json.dumps({"type": "contribute", "v": 1, "round": 1, "value": "01" * 16}))
    net.raw("a", json.dumps({"type": "contribute", "v": 1, "round": 1, "value": "02" * 16}))
    assert net.room.game is None
    net.raw("b", json.dumps({"type": "contribute", "v": 1, "round": 1, "value": "03" * 16}))
    assert net.room.game is not None
    assert net.last("a", "fair")["contributions"] == [[1, "01" * 16], [2, "03" * 16]]
    dealt = net.snapshot()
    assert net.raw("b", json.dumps({"type": "contribute", "v": 1, "round": 1,
                                    "value": "04" * 16})) == []
    assert net.snapshot() == dealt
    # while the deal waits, the lobby is closed: no option, bot or second start
    net2 = room_of_three()
    net2.clients["a"].entropy = None
    net2.host.host({"type": "start"})
    for msg in ({"type": "start"}, {"type": "options", "target": 50}, {"type": "remove", "seat": 2}):
        out = net2.raw(LOCAL, json.dumps(dict(msg, v=1)))
        assert [json.loads(t)["code"] for _, t in out] == ["started"]


def test_a_page_that_rejoins_mid_round_still_checks_the_round():
    net = room_of_three()
    net.host.host({"type": "start"})
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    net.at(net.clock + 5000)
    token = net.clients["a"].token
    net.close("a")
    net.later(1000)
    again = net.guest("a2", "Ana", token)   # a reloaded page: a new client, nothing seen
    assert net.last("a2", "fair")["commitment"] == net.last("b", "fair")["commitment"]
    play_round(net, (LOCAL, "a2", "b"))
    assert again.verdict["ok"] and len(again.record["observed"]) >= 1
    # and one that comes back after the end gets the proof with its view
    token_b = net.clients["b"].token
    net.close("b")
    late = net.guest("b2", "Bea", token_b)
    assert late.verdict is not None and late.verdict["ok"]


def test_a_reloaded_host_keeps_its_commitment_and_the_round_verifies():
    net = room_of_three()
    net.clients["b"].entropy = None
    net.host.host({"type": "start"})
    saved = json.loads(json.dumps(net.room.to_dict()))       # reloaded while waiting
    assert Room.from_dict(saved).fair["commitment"] == net.room.fair["commitment"]
    net.later(CONTRIBUTE_MS)
    for conn in (LOCAL, "a", "b"):
        net.act(conn, {"do": "ready"})
    net.later(4000)
    saved = json.loads(json.dumps(net.room.to_dict()))       # reloaded mid-round
    room = Room.from_dict(saved)
    assert room.game.journal == net.room.game.journal and room.fair == net.room.fair
    broken = dict(saved, fair={"secret": "no"})
    assert Room.from_dict(broken).fair is None               # a broken save: no proof
    play_round(net, (LOCAL, "a", "b"))
    assert net.clients["a"].verdict["ok"]


# ---- the command line, CPython's imports, MicroPython ----------------------------------------

def test_the_command_line_verifies_a_saved_record(tmp_path):
    record, events = random_round(random.Random(3), 3, "cd" * 32, ["ef" * 16, "01" * 16])
    good = tmp_path / "record.json"
    good.write_text(json.dumps(for_seat(record, events, 1)))
    env = dict(os.environ, PYTHONPATH=ROOT)
    run = [sys.executable, "-m", "crisp_core.verify"]
    proc = subprocess.run(run + [str(good)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout.startswith("round-verified"), proc.stdout
    bad = for_seat(record, events, 1)
    bad["observed"][0][-1 if events[-1]["type"] == "round_over" else -2]["scores"][0] += 1
    good.write_text(json.dumps(bad))
    proc = subprocess.run(run + [str(good)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 1 and proc.stdout.startswith("round-mismatch: hands"), proc.stdout
    good.write_text("{not json")
    proc = subprocess.run(run + [str(good)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 1 and "round-mismatch" in proc.stdout


def test_the_engine_imports_on_cpython_without_random():
    code = ("import sys, crisp_core, crisp_core.verify, crisp_core.shuffle; "
            "assert 'random' not in sys.modules, 'random'; "
            "from crisp_core import Bot; assert 'random' in sys.modules")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_the_shuffle_and_the_check_run_on_micropython_as_on_cpython(tmp_path):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import build
    files = {"/tests/test_shuffle_portable.py":
             os.path.join(ROOT, "tests", "test_shuffle_portable.py")}
    for name in sorted(os.listdir(os.path.join(ROOT, "crisp_core"))):
        rel = "crisp_core/" + name
        if name.endswith(".py") and rel not in build.GUEST_CORE_EXCLUDED:
            files["/" + rel] = os.path.join(ROOT, rel)      # what a guest's zip holds
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_shuffle_portable", files)
    assert failed == [], out
    expected = [n for n in dir(test_shuffle_portable) if n.startswith("test_")]
    assert ran == len(expected), out
    # the same test vector, on CPython
    test_shuffle_portable.test_the_test_vector()


def test_an_illegal_log_is_a_mismatch_not_a_crash():
    record, events = random_round(random.Random(9), 2, "12" * 32, ["34" * 16])
    for actions in ([[0, "act", 0, {"do": "fly"}]], [["x"]], [[1, "advance", 3]], ["a"],
                    [[10**12, "forfeit", -1]], [[5, "act", 7, {"do": "ready"}]]):
        result = verify.check(dict(for_seat(record, events, 0), actions=actions))
        assert result is not None and result["what"] in verify.KINDS, (actions, result)
        assert verify.check(dict(record, actions=actions))["what"] == "log"
    with pytest.raises(IllegalAction):
        Game.new({"players": 2}).apply(0, {"do": "fly"}, 0)


def test_a_hostile_proof_or_fair_message_never_crashes_a_page():
    from ui.page.client.client import Client
    sent = []
    for fair in ({"options": "x"}, {"contributions": "x", "options": {"players": 2}},
                 {"contributions": [[1, "zz"]]}, {"dealer": None, "scores": {}}):
        client = Client(sent.append, entropy=lambda: "ab" * 16)
        client.receive(json.dumps({"type": "welcome", "v": 1, "seat": 1, "token": "t",
                                   "room": "r"}), 0)
        client.receive(json.dumps({"type": "commit", "v": 1, "round": 1, "deal": 1,
                                   "commitment": "00" * 32}), 0)
        client.receive(json.dumps(dict(fair, type="fair", v=1, round=1, deal=1)), 0)
        for proof in ({"part": 0, "parts": 2, "actions": "x", "secret": 5},
                      {"part": 1, "parts": 2, "actions": [[1e300, "act", {}, []]] * 3}):
            client.receive(json.dumps(dict(proof, type="proof", v=1, round=1)), 0)
        client.receive(json.dumps({"type": "view", "v": 1, "n": 1, "events": [],
                                   "players": [], "view": {"round": 1,
                                                           "phase": "round_over"}}), 0)
        assert client.verdict["ok"] is False and client.verdict["what"] in verify.KINDS
    assert json.loads(sent[0])["type"] == "contribute"
    # a proof of a round far beyond the table's clock stays cheap to check
    record, events = random_round(random.Random(1), 2, "56" * 32, ["78" * 16])
    far = [[10 ** 9 + k, "advance"] for k in range(verify.MAX_ACTIONS)]
    assert verify.check(dict(record, actions=far))["what"] == "log"


def test_a_round_with_an_away_player_timers_and_forfeits_verifies():
    net = room_of_three()
    net.host.host({"type": "options", "draw_seconds": 30, "draw_from_discard": True})
    net.host.host({"type": "start"})
    token = net.clients["b"].token
    net.close("b")                           # Bea's phone dies: the room plays her part
    net.asleep.add("b")
    play_round(net, (LOCAL, "a"))
    kinds = [e["type"] for e in net.room.log]
    assert any(e.get("away") for e in net.room.log if e["type"] == "timeout"), kinds
    assert any(e.get("auto") for e in net.room.log if e["type"] == "ready")
    assert ["forfeit"] in [entry[1:2] for entry in net.room.game.journal]
    for conn in (LOCAL, "a"):
        assert net.clients[conn].verdict["ok"], net.clients[conn].verdict
    back = net.guest("b2", "Bea", token)     # she comes back after the end: checked too
    assert back.verdict["ok"]
