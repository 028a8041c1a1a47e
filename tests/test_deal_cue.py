"""The visible deal (issue 20, "a visible deal"): which flights a deal plays, in the order R2.2
deals (ui/page/screens/cues.py deal_flights), and when a page plays it (fresh_deal)."""

from hypothesis import given, strategies as st

from ui.page.screens import cues


def test_a_deal_flies_one_card_at_a_time_clockwise_from_the_dealers_left_three_times_round():
    flights = cues.deal_flights(4, 2)
    assert [f["to"] for f in flights] == [
        "card-3-left", "card-0-left", "card-1-left", "card-2-left",
        "card-3-center", "card-0-center", "card-1-center", "card-2-center",
        "card-3-right", "card-0-right", "card-1-right", "card-2-right"]
    assert {f["from"] for f in flights} == {"seat-2"}          # from the dealer's seat
    assert all(f["card"] is None and f["deal"] for f in flights)   # face down
    delays = [f["delay"] for f in flights]
    assert delays == sorted(delays) and len(set(delays)) == len(delays)   # one at a time


@given(st.integers(2, 8), st.data())
def test_every_deal_ends_within_two_seconds_and_gives_each_place_one_card(players, data):
    dealer = data.draw(st.integers(0, players - 1))
    flights = cues.deal_flights(players, dealer)
    assert len(flights) == 3 * players
    assert len({f["to"] for f in flights}) == 3 * players
    end = max(f["delay"] + f["ms"] for f in flights)
    assert end <= cues.DEAL_MS < 2000


def test_eight_seats_take_under_two_seconds_and_a_small_table_keeps_its_pace():
    end8 = max(f["delay"] + f["ms"] for f in cues.deal_flights(8, 0))
    end3 = max(f["delay"] + f["ms"] for f in cues.deal_flights(3, 0))
    assert 1500 <= end8 <= 1800
    assert end3 == 8 * cues.DEAL_GAP_MS + cues.DEAL_FLIGHT_MS      # 150 ms apart


def test_a_hostile_view_deals_nothing():
    for players, dealer in ((None, 0), (3, None), (True, 0), (3, 3), (9, 0), (1, 0), (3, -1),
                            ("3", 0), (3, 1.0)):
        assert cues.deal_flights(players, dealer) == []


def peek(ready):
    return {"phase": "peek", "ready": ready, "players": len(ready), "dealer": 0}


def test_the_deal_plays_when_the_peek_newly_shows_and_this_seat_has_not_looked():
    assert cues.fresh_deal(peek([False, True, True]), 0, None)          # first table shown
    assert cues.fresh_deal(peek([False, True, True]), 0, "round_over")  # the next round
    assert not cues.fresh_deal(peek([False, True, True]), 0, "peek")    # the same peek again
    assert not cues.fresh_deal(peek([True, False, False]), 0, None)     # reloaded after looking
    assert cues.fresh_deal(peek([True, True]), None, "lobby")           # a spectator sees it
    assert not cues.fresh_deal({"phase": "play"}, 0, "peek")
    assert not cues.fresh_deal(None, 0, None)
    assert cues.fresh_deal(peek("junk"), 0, None) in (True, False)      # never raises
