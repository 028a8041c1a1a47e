"""One definition each of the shared checks and constants (issue 19): `is_int` (not a bool),
`is_hex`, the constant-time `same`, `QUIET_MS` and `CROWDED` (5+ seats), across the product (ui/, crisp_core/,
tools/). A module that needs one imports it: crisp_core.actions.is_int (on every page: the
screens load actions.py at start), crisp_core.checks.is_hex and .same (crisp_core may not
import ui/; ui/shared/wire.py and proof.py pass them on).

The copies that are left are named below with their owner (issue 19); the list may only
shrink: a copy that goes must leave it, and no new copy may come."""

import ast
import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: name: its one home (path).
HOMES = {"is_int": "crisp_core/actions.py", "is_hex": "crisp_core/checks.py",
         "same": "crisp_core/checks.py", "QUIET_MS": "ui/page/net/link_signal.py",
         "CROWDED": "ui/shared/lastline.py"}
#: (name, path, how many definitions there): owner. Copies still to go.
COPIES = {
}
#: Functions of these names that are another thing (not a copy).
OTHER = {("same", "crisp_core/scenario.py")}   # JSON equality that keeps true apart from 1


def load_sizes():
    spec = importlib.util.spec_from_file_location("crisp_sizes",
                                                  os.path.join(ROOT, "tools", "sizes.py"))
    sizes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sizes)
    return sizes


def definitions():
    """{(name, path): count} for every function named NAME or _NAME of HOMES (at any level)
    and every module-level assignment to one, in the product's files."""
    out = {}
    for path in load_sizes().product_files(ROOT):
        tree = ast.parse(open(os.path.join(ROOT, path), encoding="utf-8").read())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [node.name]
            elif isinstance(node, ast.Assign) and node in tree.body:   # a module's constant
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            for name in names:
                name = name.lstrip("_")
                if name in HOMES and (name, path) not in OTHER:
                    out[(name, path)] = out.get((name, path), 0) + 1
    return out


def test_each_shared_check_is_defined_in_its_home_and_the_copies_only_go():
    found = definitions()
    for name, home in HOMES.items():
        assert found.get((name, home), 0) >= 1, "%s is no longer in %s" % (name, home)
    extra = {}
    for (name, path), count in found.items():
        copies = count - 1 if path == HOMES[name] else count
        if copies:
            extra[(name, path)] = count
    allowed = {(name, path): count for name, path, count in COPIES}
    new = sorted("%s in %s (%d)" % (name, path, count) for (name, path), count in extra.items()
                 if count > allowed.get((name, path), 0))
    assert new == [], ("a copy of a shared check: import it from its home (%s): %s"
                       % (HOMES, new))
    gone = sorted("%s in %s" % key for key, count in allowed.items()
                  if extra.get(key, 0) < count)
    assert gone == [], "fewer copies now: lower or take out of COPIES: %s" % gone


def test_every_message_of_the_product_is_built_by_the_wire():
    """One encoder: a message (a dict with a "type") is made by ui/shared/wire.py's `message`
    (its "v") and turned into text by `encode`, never written out with its own "v" nor
    given one afterwards, anywhere in ui/ but wire.py itself."""
    sizes = load_sizes()
    wrong = []
    for path in sizes.product_files(ROOT):
        if not path.startswith("ui/") or path == "ui/shared/wire.py":
            continue
        tree = ast.parse(open(os.path.join(ROOT, path), encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if {"type", "v"} <= keys:
                    wrong.append("%s:%d" % (path, node.lineno))
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and \
                            isinstance(target.slice, ast.Constant) and target.slice.value == "v":
                        wrong.append("%s:%d" % (path, node.lineno))
    assert wrong == []
