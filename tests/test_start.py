"""start.py, the page's entry script, imports the page's modules a few per task (no one long
task on a phone's CPU): its MODULES, written by the build (tools/startorder.py), must name every
module ui/page/main.py imports, each after the modules it imports itself, ui.page.main last. A
module missing from the list would be imported with the one that needs it (one longer task);
one out of order would bring its imports along."""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import startorder  # noqa: E402  (tools/startorder.py)


def start_modules():
    """MODULES of start.py as the build writes it (dist/start.py)."""
    with open(os.path.join(ROOT, "start.py"), encoding="utf-8") as f:
        tree = ast.parse(startorder.with_order(f.read()))
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "MODULES":
            return [e.value for e in node.value.elts]
    raise AssertionError("start.py has no MODULES")


def module_imports(name):
    """The ui/ and crisp_core/ modules `name` imports as it is imported (its top level: an
    import inside a function runs later), read here again without tools/startorder.py."""
    path = os.path.join(ROOT, *name.split(".")) + ".py"
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                sub = node.module + "." + a.name
                is_module = os.path.isfile(os.path.join(ROOT, *sub.split(".")) + ".py")
                out.append(sub if is_module else node.module)
    return [m for m in out if m.startswith(("ui.", "crisp_core."))]


def test_start_imports_every_module_of_the_page_after_its_own_imports():
    modules = start_modules()
    assert modules[-1] == "ui.page.main"
    assert len(set(modules)) == len(modules)
    for i, name in enumerate(modules):
        for dep in module_imports(name):
            assert dep in modules[:i], "%s imports %s: it must come first" % (name, dep)
    needed = set()
    todo = ["ui.page.main"]
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo += module_imports(name)
    assert set(modules) == needed


def test_the_sources_start_py_leaves_its_order_to_the_build():
    with open(os.path.join(ROOT, "start.py"), encoding="utf-8") as f:
        text = f.read()
    assert text.count("\n" + startorder.PLACEHOLDER + "\n") == 1


def test_an_import_circle_stops_the_order(tmp_path):
    for name, text in (("main", "from ui.page.dom import a\n"),
                       ("dom/a", "import ui.page.dom.b\n"),
                       ("dom/b", "from ui.page.dom.a import x\n")):
        path = tmp_path / "ui" / "page" / (name + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    try:
        startorder.page_order(str(tmp_path))
    except ValueError as e:
        assert "ui.page.dom.a -> ui.page.dom.b -> ui.page.dom.a" in str(e)
    else:
        raise AssertionError("no circle found")


def test_the_profile_module_is_in_test_builds_only():
    import importlib.util

    spec = importlib.util.spec_from_file_location("crisp_build",
                                                  os.path.join(ROOT, "tools", "build.py"))
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ui_py = ["ui/page/main.py", "ui/page/prof.py", "ui/worker/room.py"]
    assert build.page_files(ui_py, [], test=False) == ["ui/page/main.py"]
    assert build.page_files(ui_py, [], test=True) == ["ui/page/main.py", "ui/page/prof.py"]


def test_the_profile_names_functions_where_they_are_defined():
    """ui/page/prof.py wraps (module, class, function) triples: a method must be named by
    the module that defines its class, a function by a module that defines or imports it
    (the name the module calls is the one wrapped), or the profile silently loses it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "crisp_prof_targets", os.path.join(ROOT, "ui", "page", "prof.py"))
    tree = ast.parse(open(spec.origin, encoding="utf-8").read())
    targets = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "TARGETS":
            targets = ast.literal_eval(node.value)
    assert targets
    wrong = []
    for module, cls, name in targets:
        path = os.path.join(ROOT, *module.split(".")) + ".py"
        body = ast.parse(open(path, encoding="utf-8").read()).body
        if cls is not None:
            owners = [n for n in body if isinstance(n, ast.ClassDef) and n.name == cls]
            body = owners[0].body if owners else []
        names = [n.name for n in body if isinstance(n, ast.FunctionDef)]
        if cls is None:
            names += [a.asname or a.name for n in body if isinstance(n, ast.ImportFrom)
                      for a in n.names]
        if name not in names:
            wrong.append((module, cls, name))
    assert wrong == []


def test_the_pages_entry_point_stays_short():
    """ui/page/main.py says which page this is, nothing else (issue 19: at most 150 lines);
    each page and each of its jobs is a module of its own (docs/design.md "The page's
    modules and phases")."""
    with open(os.path.join(ROOT, "ui", "page", "main.py"), encoding="utf-8") as f:
        assert len(f.read().splitlines()) <= 150
