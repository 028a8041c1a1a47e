"""A new screen opens at its top (issue 20 item 3): the decision the page's render follows."""

from ui.page.screens import opens_at_top


def test_a_new_screen_opens_at_its_top_and_a_screen_drawn_again_keeps_its_scroll():
    assert opens_at_top("landing", "lobby")
    assert opens_at_top("lobby", "table")
    assert opens_at_top("table", "gone")
    assert not opens_at_top("table", "table")       # a move: the player's scroll stays
    assert not opens_at_top(None, "landing")        # the first drawing: the browser's own
