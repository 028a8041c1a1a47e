"""A crowded table's last-move line (issue 20.14): short words and cut names at 5+ seats, the
log's words elsewhere; the whole line in its title and in the log."""

from test_render_model import NAMES, show, table_model
from ui.page.i18n import i18n_events
from ui.page.dom.vdom import find, text_of
from ui.shared.lastline import SHORT_KEYS, line_key, say, short_line


def test_the_short_words_are_for_a_crowded_table_and_the_long_moves_only():
    assert short_line(5) and short_line(8)
    assert not short_line(4) and not short_line(2) and not short_line(None)
    assert line_key("ev_swap", True) == "lm_swap"
    assert line_key("ev_queen_on_you", True) == "lm_queen_on_you"
    assert line_key("ev_swap", False) == "ev_swap"
    assert line_key("ev_discard", True) == "ev_discard"


def test_say_looks_the_short_words_up_on_a_crowded_table_and_counts_a_plural():
    class Ctx:
        def t(self, key, **values):
            return ("t", key, values)

        def tn(self, key, count, **values):
            return ("tn", key, count, values)

    ctx = Ctx()
    assert say(ctx, "ev_swap", True, name="Ana") == ("t", "lm_swap", {"name": "Ana"})
    assert say(ctx, "ev_swap", False, name="Ana") == ("t", "ev_swap", {"name": "Ana"})
    assert say(ctx, "ev_king", True, 2, n=2) == ("tn", "lm_king", 2, {"n": 2})
    assert say(ctx, "ev_discard", True, 0) == ("tn", "ev_discard", 0, {})


def test_every_short_key_has_its_words_in_both_languages():
    for table in (i18n_events.EN, i18n_events.ES):
        for key, short in SHORT_KEYS.items():
            if key.startswith("ev_king"):
                assert short + "_one" in table and short + "_other" in table, short
            else:
                assert short in table, short


def test_eight_seats_say_a_swap_short_with_the_whole_line_in_its_title():
    swap = {"type": "swap", "seat": 2, "pos": "left", "card": "Kh"}
    for lang, short, whole in (("en", "swapped; K", "swapped their left card"),
                               ("es", "Cambio de", "ha cambiado su carta")):
        names = list(NAMES[:8])
        names[2] = "Guadalupe Esperanza"
        m = table_model(8, 4, log=[{"type": "turn", "seat": 2}, swap,
                                   {"type": "turn", "seat": 3}], names=names, turn=3)
        line = find(show(m, lang=lang)[0], "last-move")
        assert short in text_of(line) and "Guadalupe\u2026" in text_of(line)
        assert whole in line["attrs"]["title"] and "Guadalupe Esperanza" in line["attrs"]["title"]
        m4 = table_model(4, 1, log=[{"type": "turn", "seat": 2}, swap,
                                    {"type": "turn", "seat": 3}], turn=3)
        assert whole in text_of(find(show(m4, lang=lang)[0], "last-move"))


def test_a_king_chain_is_told_whole_on_the_last_move_line():
    """After a King the line said only its last step ("You swapped...; 7h discarded."): the
    others had to read the log for the chain. It tells the King and each step after it."""
    chain = [{"type": "turn", "seat": 2}, {"type": "draw", "seat": 2, "from": "deck"},
             {"type": "king", "seat": 2, "pending": 2},
             {"type": "draw", "seat": 2, "from": "deck"},
             {"type": "swap", "seat": 2, "pos": "left", "card": "9h"},
             {"type": "draw", "seat": 2, "from": "deck"},
             {"type": "discard", "seat": 2, "card": "7h"}, {"type": "turn", "seat": 3}]
    for n, lang, words in ((4, "en", ("used a King", "left card swapped (9\u2665 out)",
                                      "7\u2665 discarded")),
                           (8, "en", ("used a King", "left card swapped (9\u2665 out)",
                                      "7\u2665 discarded")),
                           (4, "es", ("ha usado un Rey", "cambio de la carta de la izquierda "
                                      "(9\u2665 al descarte)", "7\u2665 al descarte"))):
        m = table_model(n, 1, log=chain, turn=3)
        line = text_of(find(show(m, lang=lang)[0], "last-move"))
        for w in words:
            assert w in line, (n, lang, w, line)
    # mid-chain: what is done so far; a King alone keeps its own line (the draws to come)
    m = table_model(4, 1, log=chain[:5], turn=2)
    line = text_of(find(show(m)[0], "last-move"))
    assert "used a King" in line and "left card swapped" in line, line
    m = table_model(4, 1, log=chain[:3], turn=2)
    assert "2 extra draws to come" in text_of(find(show(m)[0], "last-move"))
    # the next turn's own move is the line again
    m = table_model(4, 1, log=chain + [{"type": "draw", "seat": 3, "from": "deck"}], turn=3)
    assert "King" not in text_of(find(show(m)[0], "last-move"))
