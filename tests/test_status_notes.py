"""The status bar's notes at a crowded table (issue 20): a note for this seat takes the last
move's line; the Queen's notice is shorter there, and shares the reveal's note."""

from test_render_model import show, table_model
from ui.page.statusbar import status_lines
from ui.page.vdom import find, text_of


def test_a_note_takes_the_last_moves_line_at_a_crowded_table():
    assert status_lines(8, "moved", "notice", []) == (None, "notice", None)
    assert status_lines(8, "moved", None, ["Q"]) == (None, None, None)
    assert status_lines(8, "moved", None, []) == ("moved", None, None)
    assert status_lines(8, "moved", "notice", ["Q"]) == (None, None, "notice")
    assert status_lines(4, "moved", "notice", ["Q"]) == ("moved", "notice", None)
    assert status_lines(4, "moved", None, []) == ("moved", None, None)


def test_the_queens_notice_is_short_and_shares_the_reveal_note_at_eight_seats():
    queen = {"type": "queen", "seat": 3, "pos": "right", "target": 4, "target_pos": "left"}
    for lang, word in (("en", "Queen:"), ("es", "Reina de")):
        m = table_model(8, 4, log=[queen, {"type": "turn", "seat": 4}], turn=4)
        tree = show(m, lang=lang)[0]
        assert word in text_of(find(tree, "queen-notice"))
        assert find(tree, "last-move") is None
        m4 = table_model(4, 1, log=[dict(queen, seat=0, target=1), {"type": "turn", "seat": 1}],
                         turn=1)
        assert word not in text_of(find(show(m4, lang=lang)[0], "queen-notice"))
