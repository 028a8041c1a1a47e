"""The status bar's notes (issue 20): a note for this seat takes the last move's line and the
Queen's notice shares the reveal's note, at every table; at a crowded one the notice is
shorter."""

from test_render_model import show, table_model
from ui.page.screens.statusbar import status_lines
from ui.page.dom.vdom import find, text_of


def test_a_note_takes_the_last_moves_line_at_every_table():
    assert status_lines("moved", "notice", []) == (None, "notice", None)
    assert status_lines("moved", None, ["Q"]) == (None, None, None)
    assert status_lines("moved", None, []) == ("moved", None, None)
    assert status_lines("moved", "notice", ["Q"]) == (None, None, "notice")
    assert status_lines(None, None, []) == (None, None, None)


def test_the_queens_notice_is_short_and_shares_the_reveal_note_at_eight_seats():
    queen = {"type": "queen", "seat": 3, "pos": "right", "target": 4, "target_pos": "left"}
    for lang, word in (("en", "Queen:"), ("es", "Reina de")):
        m = table_model(8, 4, log=[queen, {"type": "turn", "seat": 4}], turn=4)
        tree = show(m, lang=lang)[0]
        assert word in text_of(find(tree, "queen-notice"))
        assert find(tree, "last-move") is None
        m4 = table_model(4, 1, log=[dict(queen, seat=0, target=1), {"type": "turn", "seat": 1}],
                         turn=1)
        tree4 = show(m4, lang=lang)[0]
        assert word not in text_of(find(tree4, "queen-notice"))
        # (a 4-seat table too: the notice tells the move the last-move line told again)
        assert find(tree4, "last-move") is None
