"""ui/shared/cleanname.py on both interpreters: the room cleans names with unicodedata, the
host page (MicroPython, none) with the module's tables. The tests below run on each
(`test_the_name_tests_pass_on_micropython`)."""

from ui.shared.cleanname import FORMAT, PICTOGRAPHS, SPACES, category, clean_name
from ui.shared.wire import BadMessage


def test_hidden_and_turning_characters_go_from_a_name():
    assert clean_name("\u202eanaH") == "anaH"                 # a right-to-left override
    assert clean_name("Ana\u200b\u200b") == "Ana"             # zero-width spaces
    assert clean_name("  Bea\u2066\u2069  ") == "Bea"         # isolates, spaces
    assert clean_name("\u3164\u3164Dan") == "Dan"             # invisible fillers
    assert clean_name("Cleo\u00a0\u3000Ruiz") == "Cleo Ruiz"  # other spaces are one space
    assert clean_name("E" * 40) == "E" * 20
    assert clean_name("\U0001F469\u200d\U0001F467") == "\U0001F469\u200d\U0001F467"


def test_a_name_with_nothing_visible_is_refused():
    for name in ("\u200b\u202e", "   ", "\u0301", 5, None):
        try:
            clean_name(name)
        except BadMessage as e:
            assert e.code == "bad_name"
        else:
            assert False, name


def test_the_tables_know_the_categories_they_name():
    assert category("\u202e") == "Cf" and category("\u00ad") == "Cf"
    assert category("\u3000")[0] == "Z" and category("\U0001F98A") == "So"
    assert category("\u0301")[0] == "M" and category("\x07") == "Cc"


def test_every_code_point_of_the_tables_is_of_that_category():
    """(CPython only: unicodedata checks MicroPython's tables.)"""
    try:
        import unicodedata
    except ImportError:
        return
    for table, want in ((FORMAT, ("Cf",)), (SPACES, ("Zs", "Zl", "Zp")),
                        (PICTOGRAPHS, ("So", "Sk", "Sm"))):
        for low, high in table:
            for o in range(low, high + 1):
                kind = unicodedata.category(chr(o))
                assert kind in want or kind == "Cn", (hex(o), kind)


def test_the_name_tests_pass_on_micropython(tmp_path):
    import os

    from test_render_micropython import ROOT, run_tests_on_micropython, ui_files

    files = ui_files("shared")
    files["/tests/test_cleanname.py"] = os.path.join(ROOT, "tests", "test_cleanname.py")
    me = "test_the_name_tests_pass_on_micropython"
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_cleanname", files, [me])
    assert failed == [], out
    assert ran == len([n for n in globals() if n.startswith("test_")]) - 1, out
