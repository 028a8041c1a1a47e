"""Bots' faces where the browser has no colour-emoji font (issue 20: "▯ Lucía"): boot.js's
decision from the canvas's pixels (`colourDrawn`, run in node), the page's reading of its
flag (ui/page/screens/faces.py `mode`), a name split into face and first name
(crisp_core/bot_faces.py), and the screens in both modes: "colour" as the room names the bots,
"none" the first name alone, with the robot where the face was in the lobby, the results,
the podium and the tally. The tests not in CPYTHON_ONLY run on MicroPython too."""

from crisp_core.bot_faces import FACES, first_name, split_face
from test_render_model import lobby_model, players, table_model
from ui.page.screens import faces
from ui.page.dom.vdom import FSI, PDI, find, find_all, text_of
from ui.page.screens.viewmodel import Ctx, new_ui
from ui.page.screens.screens import build

# (node, CPython's unicodedata and os.path: not on MicroPython; no pytest nor os at the top)
CPYTHON_ONLY = {"test_boot_js_says_colour_only_for_a_face_drawn_in_colour",
                "test_bot_names_keeps_its_faces_and_first_name",
                "test_the_pure_tests_pass_on_micropython"}

EMMA, OLIVER = FACES[0] + " Emma", FACES[1] + " Oliver"      # the bots at seats 1 and 2


def bare(text):
    return text.replace(FSI, "").replace(PDI, "")


def no_face(text):
    return not [f for f in FACES if f in text]


def robots(node):
    """The robots standing for a face (ui/page/screens/faces.py `mark`) under `node`."""
    return find_all(node, lambda n: n.get("tag") == "svg"
                    and "face" in (n["attrs"].get("class") or "").split())


def shown(model, mode, ui=None, lang="en"):
    ctx = Ctx(lang, base="http://x/", faces=mode)
    return build(model, ui if ui is not None else new_ui(lang), ctx), ctx


# ---- the decision: boot.js's canvas test ----------------------------------------------------

def canvas(pixels, size=20):
    """RGBA bytes of a `size` x `size` canvas: `pixels` {index: (r, g, b, a)}, the rest clear."""
    out = [0] * (size * size * 4)
    for i, rgba in pixels.items():
        out[4 * i:4 * i + 4] = list(rgba)
    return out


def root():
    import os
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_boot_js_says_colour_only_for_a_face_drawn_in_colour(tmp_path):
    import json
    import os
    import re
    import shutil
    import subprocess

    import pytest
    source = open(os.path.join(root(), "boot.js"), encoding="utf-8").read()
    found = re.search(r"\nconst colourDrawn = [\s\S]*?\n};\n", source)
    assert found, "boot.js has no colourDrawn"
    if shutil.which("node") is None:
        pytest.skip("node is missing")
    box = {}                  # a missing glyph: a black box's outline, grey anti-aliased edges
    for i in range(2, 18):
        for j in (2, 17):
            box[20 * j + i] = box[20 * i + j] = (0, 0, 0, 255)
            box[20 * (j + 1) + i] = (0, 0, 0, 90)
    fox = {i: (240, 140, 40, 255) for i in range(60, 140)}        # orange, opaque
    fox.update({i: (250, 250, 250, 255) for i in range(140, 160)})  # and white
    cases = {
        "nothing": canvas({}),
        "box": canvas(box),
        "grey": canvas({i: (128, 128, 128, 255) for i in range(400)}),
        "fox": canvas(fox),
        "edges": canvas({i: (240, 140, 40, 255) for i in range(3)}),        # 3: too few
        "four": canvas({i: (240, 140, 40, 255) for i in range(4)}),
        "faint": canvas({i: (240, 140, 40, 40) for i in range(100)}),       # alpha <= 64
        "pale": canvas({i: (200, 180, 170, 255) for i in range(100)}),      # spread <= 48
    }
    script = tmp_path / "faces.mjs"
    script.write_text(found.group(0) + "\nconst cases = %s;\nconsole.log(JSON.stringify("
                      "Object.fromEntries(Object.entries(cases).map(([k, v]) => "
                      "[k, colourDrawn(Uint8ClampedArray.from(v))]))));\n" % json.dumps(cases))
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"nothing": "none", "box": "none", "grey": "none",
                                      "fox": "colour", "edges": "none", "four": "colour",
                                      "faint": "none", "pale": "none"}


def test_the_page_reads_the_flag_and_anything_unsure_means_no_faces():
    assert faces.mode("colour") == faces.COLOUR
    for flag in ("none", None, "", "Colour", "color", "true"):
        assert faces.mode(flag) == faces.NONE, flag
    assert Ctx().faces == faces.COLOUR          # a render without a page (the tests): as named


# ---- a name: its face and its first name ---------------------------------------------------

def test_a_bots_name_splits_into_its_face_and_its_first_name():
    for face in FACES:
        assert split_face(face + " Luc\u00eda") == (face, "Luc\u00eda")
        assert first_name(face + " Emma 2") == "Emma 2"
    for name in ("Ana", "Bot 2", "\U0001F600 Bea", "Emma " + FACES[0], FACES[0] + "Emma", ""):
        assert split_face(name) == ("", name), name
        assert first_name(name) == name
    assert split_face(None) == ("", None)


def test_a_name_is_shown_whole_with_faces_and_without_its_face_without():
    for mode, emma in ((faces.COLOUR, EMMA), (faces.NONE, "Emma")):
        assert faces.shown_name(EMMA, mode) == emma
        assert faces.shown_name("Ana", mode) == "Ana"
        assert faces.shown_name("\U0001F600 Bea", mode) == "\U0001F600 Bea"   # a person's own


def test_bot_names_keeps_its_faces_and_first_name():
    from crisp_core import bot_faces, bot_names
    assert bot_names.FACES is bot_faces.FACES and bot_names.first_name is bot_faces.first_name
    assert bot_names.bot_name("es", 1) == FACES[0] + " Luc\u00eda"


# ---- the screens in both modes -------------------------------------------------------------

def test_the_lobby_shows_a_bot_with_its_face_or_the_robot_and_its_first_name():
    for mode in (faces.COLOUR, faces.NONE):
        m = lobby_model(3, seat=0)
        m.lobby["players"] = m.players = players(["Ana", EMMA, OLIVER], {1: "easy", 2: "hard"})
        tree, ctx = shown(m, mode)
        for seat, name, first in ((1, EMMA, "Emma"), (2, OLIVER, "Oliver")):
            row = find(tree, "player-%d" % seat)
            pname = find_all(row, lambda n: "pname" in (n["attrs"].get("class") or ""))[0]
            if mode == faces.COLOUR:
                assert name in text_of(pname) and robots(row) == []
            else:
                assert bare(text_of(pname)) == first and no_face(text_of(row))
                assert len(robots(pname)) == 1 and bare(pname["attrs"]["title"]) == first
        assert robots(find(tree, "player-0")) == []                  # a person: no robot


def test_the_results_podium_and_tally_show_a_bot_without_its_face_where_faces_are_none():
    m = table_model(3, seat=0, names=["Ana", EMMA, OLIVER], phase="game_over", turn=None,
                    caller=None, hands=[["5h", "Ah", "8s"], ["2c", "6d", "3h"],
                                        ["3s", "Td", "4c"]],
                    round_points=[14, 11, 17], scores=[104, 61, 77], winners=[1])
    m.players = players(["Ana", EMMA, OLIVER], {1: "easy", 2: "hard"})
    for p in m.players:
        p["wins"] = 1 if p["seat"] == 1 else 0
    m.games, m.history = 1, [[14, 11, 17]]
    for mode in (faces.COLOUR, faces.NONE):
        tree, ctx = shown(m, mode)
        for testid in ("result-1", "podium-1", "tally-1", "history-1", "winners"):
            node = find(tree, testid)
            assert node is not None, testid
            text = text_of(node)
            if mode == faces.COLOUR:
                assert EMMA in text and robots(node) == [], (testid, text)
            else:
                assert "Emma" in text and no_face(text), (testid, text)
                assert len(robots(node)) == (0 if testid == "winners" else 1), testid
        assert robots(find(tree, "result-0")) == []                  # a person: no robot
        assert (no_face(text_of(tree)) if mode == faces.NONE else EMMA in text_of(tree))


def test_the_table_log_and_announcement_drop_the_face_where_faces_are_none():
    log = [{"type": "turn", "seat": 1}, {"type": "crisp", "seat": 2},
           {"type": "took_seat", "seat": 1, "name": "Bea", "was": EMMA}]
    m = table_model(3, seat=0, names=["Ana", EMMA, OLIVER], log=log, phase="last_turns",
                    caller=2, turn=1, last_turns_left=1)
    m.players = players(["Ana", EMMA, OLIVER], {1: "easy", 2: "hard"})
    ui = new_ui("en")
    ui["log_open"] = True
    ui["announce"] = {"kind": "crisp", "seat": 2, "at": 0}
    for mode in (faces.COLOUR, faces.NONE):
        tree, ctx = shown(m, mode, dict(ui))
        text = text_of(tree)
        assert "Emma" in text and "Oliver" in text
        assert no_face(text) == (mode == faces.NONE), (mode, text)
        if mode == faces.COLOUR:
            assert EMMA in text_of(find(tree, "seat-1")) and OLIVER in text_of(tree)
        assert robots(tree) == []           # the table's seats have their bot badge already


def test_the_pure_tests_pass_on_micropython(tmp_path):
    import os

    from test_render_micropython import run_tests_on_micropython, ui_files
    here = os.path.join(root(), "tests")
    files = {"/tests/test_faces.py": os.path.join(here, "test_faces.py"),
             "/tests/test_render_model.py": os.path.join(here, "test_render_model.py"),
             "/crisp_core/cards.py": os.path.join(root(), "crisp_core", "cards.py")}
    files.update(ui_files("page", "shared"))
    ran, failed, out = run_tests_on_micropython(tmp_path, "test_faces", files, CPYTHON_ONLY)
    assert failed == [], out
    expected = [n for n in globals() if n.startswith("test_") and n not in CPYTHON_ONLY]
    assert ran == len(expected), out
