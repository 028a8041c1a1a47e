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
