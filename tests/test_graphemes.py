"""ui/shared/graphemes.py: where a text may be cut. The cuts themselves are tested with the
names (tests/test_room_names.py) and the announcement (tests/test_render_model.py, on
MicroPython too); here, what the page's MicroPython calls a mark without unicodedata."""

import unicodedata

from ui.shared import graphemes


def test_every_assigned_character_of_the_marks_ranges_is_a_mark():
    for low, high in graphemes.MARKS:
        for o in range(low, high + 1):
            kind = unicodedata.category(chr(o))
            assert kind[0] == "M" or kind == "Cn", hex(o)


def test_without_unicodedata_the_ranges_say_what_a_mark_is(monkeypatch):
    monkeypatch.setattr(graphemes, "unicodedata", None)
    assert graphemes.is_mark("\u0301") and graphemes.is_mark("\u093f")
    assert not graphemes.is_mark("a") and not graphemes.is_mark("\u093d")
    assert graphemes.cut_whole("Maximilianx\u0304 Q", 11) == "Maximilian"
    family = "\u200d".join(["\U0001F468", "\U0001F469", "\U0001F467"])
    assert graphemes.cut_whole("Ana " + family, 6) == "Ana "


def test_a_wide_letter_counts_for_more_than_one_when_a_name_is_cut():
    # 20 W's (or fullwidth Ｗ's) cut to 10 characters still ran 27-29 px past a crowded
    # table's last-move line (e2e/test_table_fit.py): a cut counts a letter by its width
    from ui.page.screens.statusbar import cut_name
    assert graphemes.width_units("Ana") == 3
    assert graphemes.width_units("W") == 1.5 and graphemes.width_units("\uff37") == 2
    assert graphemes.width_units("\u4e2d\u6587") == 4 and graphemes.width_units("e\u0301") == 1
    assert cut_name("W" * 20, 10) == "W" * 6 + "\u2026"
    assert cut_name("\uff37" * 20, 10) == "\uff37" * 4 + "\u2026"
    assert cut_name("\u2068" + "W" * 6 + "\u2069", 10) == "\u2068" + "W" * 6 + "\u2069"
    assert cut_name("WWWW\u0301WWWWWW", 10) == "WWWW\u0301WW\u2026"
    # narrow names are cut where they were
    assert cut_name("Maximiliano Quintero", 10) == "Maximilia\u2026"
    assert cut_name("Maximiliano Quintero", 12) == "Maximiliano\u2026"
