"""A new screen opens at its top (issue 20 item 3): the decision the page's render follows."""

from ui.page.screens.screens import opens_at_top, scroll_key


def test_a_new_screen_opens_at_its_top_and_a_screen_drawn_again_keeps_its_scroll():
    assert opens_at_top("landing", "lobby")
    assert opens_at_top("lobby", "table")
    assert opens_at_top("table", "gone")
    assert not opens_at_top("table", "table")       # a move: the player's scroll stays
    assert not opens_at_top(None, "landing")        # the first drawing: the browser's own


def test_the_results_open_at_the_top_and_the_next_round_too():
    """A tester's solo game (stop 29): the round's results opened with the page scrolled 193
    px down, where the hand had been, the top bar off screen. The end of a round (or of the
    game) is a screen of its own for the scroll; the next round's deal is one again."""
    playing = {"screen": "table", "view": {"phase": "play", "round": 1}}
    ended = {"screen": "table", "view": {"phase": "round_over", "round": 1}}
    over = {"screen": "table", "view": {"phase": "game_over", "round": 4}}
    dealt = {"screen": "table", "view": {"phase": "peek", "round": 2}}
    def key(m):
        return scroll_key(m["screen"], m.get("view"))
    assert opens_at_top(key(playing), key(ended))
    assert not opens_at_top(key(ended), key(ended))          # the results drawn again
    assert opens_at_top(key(ended), key(dealt))
    assert not opens_at_top(key(dealt), key(playing))        # the same round goes on
    assert opens_at_top(key(playing), key(over))
    assert key({"screen": "landing"}) == "landing"
    assert key({"screen": "table", "view": None}) == "table"   # hostile or missing: no crash
