"""The portable shuffle and the round check, written to run on CPython and on MicroPython
(tests/test_fairplay.py runs this very file on MicroPython under node): the same secret and
contributions give the same deck on both, and a round replayed by the engine checks out.

No pytest, no hypothesis, no random here: plain functions and asserts."""

import sys

import crisp_core.shuffle as shuffle
import crisp_core.verify as verify
from crisp_core.game import Game
from crisp_core.views import events_for

SECRET = "ab" * 32
CONTRIBUTIONS = ["01" * 16, "02" * 16]
# The deck SECRET and CONTRIBUTIONS give (docs/protocol.md "Verifiable shuffle"): a test
# vector for anyone who reimplements the shuffle.
COMMITMENT = "9a2db2e23f1504cd056606553ac049c5e718e8f9ce9233876df1a7a1821af885"
SEED = "1f56f20662f75510940fce4fb0aa29cb195dd7e2d1fcc4a2a4f665d608b20237"
DECK = ("4d Qd 9d Ac Kc 6d Tc 4s 7d Jc 5h 9c 7c Jd 2s 8h 7h 2c Ks Qc 3h 6c 9h 5d Ts As 6h 2h "
        "3s Ah Ad 9s 5c 6s Jh Th Td 5s 3c 7s Qs 8s Kh 4h 8d 4c 2d Kd Qh Js 3d 8c").split()


def test_the_engine_and_the_check_import_without_random():
    # (CPython's test runner loads `random` itself: tests/test_fairplay.py checks CPython in
    # a fresh interpreter; here, on MicroPython, nothing else could have loaded it.)
    if sys.implementation.name == "micropython":
        assert "random" not in sys.modules
        assert "crisp_core.bots" not in sys.modules


def test_the_test_vector():
    assert shuffle.commitment(SECRET) == COMMITMENT
    seed = shuffle.derive_seed(SECRET, CONTRIBUTIONS)
    assert seed.hex() == SEED
    assert shuffle.deck_from_seed(seed) == DECK


def test_with_no_contribution_the_deck_is_not_the_commitments():
    # (were the seed SHA-256(secret), the commitment would give the deck away before play)
    assert shuffle.derive_seed(SECRET, []).hex() != shuffle.commitment(SECRET)
    assert shuffle.derive_seed(SECRET, []) == shuffle.sha256(b"crisp-seed-v1" + bytes.fromhex(SECRET))


def test_a_deck_is_a_permutation_and_every_seed_gives_its_own():
    decks = []
    for k in range(20):
        deck = shuffle.deck_from_seed(shuffle.sha256(bytes([k])))
        assert sorted(deck) == sorted(DECK) and len(set(deck)) == 52
        decks.append(" ".join(deck))
    assert len(set(decks)) == 20


def test_uniform_stays_in_range_and_skips_the_biased_words():
    stream = shuffle.Stream(b"x")
    for n in (1, 2, 3, 7, 52):
        for _ in range(50):
            assert 0 <= stream.uniform(n) < n


def test_malformed_secrets_and_contributions_are_refused():
    for bad in ("AB" * 32, "ab" * 31, "zz" * 32, None, 5):
        try:
            shuffle.commitment(bad)
            assert False, bad
        except ValueError:
            pass
    try:
        shuffle.derive_seed(SECRET, ["01" * 15])
        assert False
    except ValueError:
        pass


def _policy(game, seat, now):
    """A plain, deterministic player: the first of a fixed preference among legal actions."""
    legal = game.legal_actions(seat, now)
    for kind in ("ready", "draw", "king", "queen", "jack", "swap", "discard"):
        for action in legal:
            if action["do"] == kind:
                return action
    return None


def play_round(players=3, dealer=1, start=5000, calls_after=4, draw_seconds=30):
    """A round dealt from the test vector's deck and played by `_policy`, with a crisp call
    after `calls_after` turns and a draw timer that runs out now and then. Returns the
    record (with no seat) and the round's events."""
    options = {"players": players, "draw_seconds": draw_seconds}
    seed = shuffle.derive_seed(SECRET, CONTRIBUTIONS)
    scores = [3] * players
    game = Game.new(options, order=shuffle.deck_from_seed(seed), dealer=dealer, scores=scores,
                    now=start, round_number=2)
    events = game.deal_events()
    now = start
    turns = 0
    stalled = None
    while game.phase not in ("round_over", "game_over"):
        now += 1500
        fired = game.advance(now)
        events += fired
        if any(e["type"] == "timeout" for e in fired):
            stalled = None
            turns += 1
        if game.window is not None and turns >= calls_after and game.caller is None:
            events += game.apply(game.window[0], {"do": "crisp"}, now)
            continue
        for seat in range(players):
            if seat == game.turn and not game.drew and (stalled == seat or turns % 5 == 3):
                stalled = seat             # this one waits: its draw timer runs out
                break
            action = _policy(game, seat, now)
            if action is not None and action["do"] != "crisp":
                if action["do"] == "draw" and seat == game.turn:
                    turns += 1
                events += game.apply(seat, action, now)
                break
    record = {"crisp_record": 1, "round": 2, "dealer": dealer, "options": game.options,
              "scores": scores, "start": start, "commitment": COMMITMENT,
              "contributions": [[1, CONTRIBUTIONS[0]], [2, CONTRIBUTIONS[1]]], "skipped": [],
              "secret": SECRET, "actions": [list(e) for e in game.journal], "seat": None,
              "sent": None, "observed": []}
    return record, events


def test_an_honest_round_replays_and_checks_out_for_every_seat():
    record, events = play_round()
    assert events[-1]["type"] in ("round_over", "game_over")
    assert any(e.get("type") == "timeout" for e in events)       # timers are in the journal
    for seat in range(3):
        mine = dict(record)
        mine["seat"] = seat
        mine["sent"] = CONTRIBUTIONS[seat - 1] if seat else None
        mine["observed"] = [events_for(events, seat)]
        assert verify.check(mine) is None, verify.check(mine)
        # A page that rejoined saw the round in pieces: still fine.
        seen = events_for(events, seat)
        mine["observed"] = [seen[:7], seen[12:]]
        assert verify.check(mine) is None


def test_a_changed_card_the_secret_or_a_contribution_is_named():
    record, events = play_round()
    record["seat"] = 1
    record["sent"] = CONTRIBUTIONS[0]
    seen = events_for(events, 1)
    # the final hands
    changed = [dict(e) for e in seen]
    hands = [list(h) for h in changed[-1]["hands"]] if changed[-1]["type"] == "round_over" \
        else [list(h) for h in changed[-2]["hands"]]
    over = -1 if changed[-1]["type"] == "round_over" else -2
    hands[0][1] = "Kc" if hands[0][1] != "Kc" else "Ac"
    changed[over] = dict(changed[over], hands=hands)
    record["observed"] = [changed]
    assert verify.check(record)["what"] == "hands"
    # this seat's peek
    changed = [dict(e) for e in seen]
    peek = [i for i, e in enumerate(changed) if e.get("reason") == "peek"][0]
    cards = [dict(c) for c in changed[peek]["cards"]]
    cards[0]["card"] = "Kc" if cards[0]["card"] != "Kc" else "Ac"
    changed[peek] = dict(changed[peek], cards=cards)
    record["observed"] = [changed]
    result = verify.check(record)
    assert result["what"] == "peek" and result["expected"] != result["saw"]
    record["observed"] = [seen]
    assert verify.check(record) is None
    # the secret, a contribution, the inputs
    assert verify.check(dict(record, secret="cd" * 32))["what"] == "commitment"
    assert verify.check(dict(record, sent="03" * 16))["what"] == "contribution"
    assert verify.check(dict(record, actions=record["actions"][:-1]))["what"] == "log"
    assert verify.check(dict(record, crisp_record=2))["what"] == "record"
    assert verify.check("nothing")["what"] == "record"
