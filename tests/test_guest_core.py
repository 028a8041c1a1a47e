"""The engine a guest's page gets (tools/pyzip.py GUEST_CORE_EXCLUDED): exactly the crisp_core
modules that the page's code imports, directly or through each other, and none that needs
CPython (the bots' random.Random): the page zip neither lacks a module the round check
imports on MicroPython nor grows by the bots when crisp_core gains a module."""

import ast
import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_build():
    spec = importlib.util.spec_from_file_location("crisp_build",
                                                  os.path.join(ROOT, "tools", "build.py"))
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build


def imports_of(path):
    """The modules the file at `path` imports anywhere in it (lazy imports too), as
    absolute dotted names; `from . import x` inside crisp_core gives crisp_core.x."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    package = os.path.relpath(os.path.dirname(path), ROOT).replace(os.sep, ".")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            out.add(module)
            out.update(module + "." + alias.name for alias in node.names)
    return out


def core_file(module):
    """crisp_core/x.py for the module crisp_core.x (or a name imported from it), else None."""
    parts = module.split(".")
    if parts[0] != "crisp_core" or len(parts) < 2:
        return None
    rel = "crisp_core/%s.py" % parts[1]
    return rel if os.path.isfile(os.path.join(ROOT, rel)) else None


def test_the_page_zip_holds_the_engine_the_page_imports_and_nothing_more():
    build = load_build()
    ui_py = build.walk_files(os.path.join(ROOT, "ui"), (".py",))
    core_py = build.walk_files(os.path.join(ROOT, "crisp_core"), (".py",))
    page = build.page_files(ui_py, core_py)
    needed, todo = set(), [p for p in page if p.startswith("ui/")]
    while todo:
        rel = todo.pop()
        for module in imports_of(os.path.join(ROOT, rel)):
            dep = core_file(module)
            if dep is not None and dep not in needed:
                needed.add(dep)
                todo.append(dep)
    shipped = {p for p in page if p.startswith("crisp_core/")}
    assert "crisp_core/verify.py" in needed and "crisp_core/game.py" in needed
    assert shipped == needed, ("GUEST_CORE_EXCLUDED is off: shipped but not imported %s, "
                               "imported but not shipped %s"
                               % (sorted(shipped - needed), sorted(needed - shipped)))


def test_no_module_of_the_guests_engine_needs_cpythons_random():
    build = load_build()
    core_py = build.walk_files(os.path.join(ROOT, "crisp_core"), (".py",))
    for rel in build.page_files([], core_py):
        assert "random" not in imports_of(os.path.join(ROOT, rel)), rel
