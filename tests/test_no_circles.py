"""No import circle anywhere in the product: crisp_core/, ui/ and tools/ (Python) and the
site's and tools' own JavaScript. A circle is two modules that each need the other, however
far round: the drawing of the house stops being a set of floors, and on the page an import
that comes back to a module half run fails in the browser. An import inside a function
counts too (it still ties the two modules together; it only hides the circle at start)."""

import ast
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = ("crisp_core", "ui", "tools")
JS_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)["'](\.{1,2}/[^"']+)["']""",
                       re.M)


def python_modules(root=ROOT):
    """{dotted name: path} of the product's Python (a package's __init__.py is the package)."""
    out = {}
    for top in PYTHON:
        for here, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in names:
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(here, name), root)[:-3]
                    dotted = rel.replace(os.sep, ".")
                    out[dotted[:-len(".__init__")] if dotted.endswith(".__init__") else dotted] = \
                        os.path.join(here, name)
    return out


def python_imports(name, path, modules):
    """The product modules that module `name` (at `path`) imports, anywhere in it. A tool
    imports its siblings by their bare names (tools/ is on its sys.path)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found.add(base)
            found.update(base + "." + a.name for a in node.names)
    out = set()
    for target in found:
        if name.startswith("tools.") and "tools." + target in modules:
            target = "tools." + target
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name and not name.startswith(target + "."):
            out.add(target)
    return out


def js_modules(root=ROOT):
    """{path: set of paths it imports} for the root's .js files and tools/'s .mjs (imports of
    files that are not there, such as the vendored ones the build copies, are left out)."""
    files = [os.path.join(root, n) for n in os.listdir(root) if n.endswith(".js")]
    files += [os.path.join(root, "tools", n) for n in os.listdir(os.path.join(root, "tools"))
              if n.endswith((".js", ".mjs"))]
    graph = {}
    for path in files:
        text = open(path, encoding="utf-8").read()
        graph[path] = {os.path.normpath(os.path.join(os.path.dirname(path), rel))
                       for rel in JS_IMPORT.findall(text)
                       if os.path.isfile(os.path.join(os.path.dirname(path), rel))}
    return graph


def circles(graph):
    """The import circles of `graph` ({node: nodes it imports}): a list of sorted lists, each
    a set of nodes that reach one another (strongly connected, more than one node)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                other = stack.pop()
                on.discard(other)
                group.append(other)
                if other == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def test_the_circle_finder_finds_a_circle_however_far_round():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set(), "c": {"b"}}) == []


def test_no_python_module_of_the_product_imports_itself_round_a_circle():
    modules = python_modules()
    assert "ui.page.main" in modules and "crisp_core.game" in modules and "tools.build" in modules
    graph = {name: python_imports(name, path, modules) for name, path in modules.items()}
    assert "crisp_core.shuffle" in graph["crisp_core.game"]            # (the finder reads imports)
    assert "tools.startorder" in graph["tools.build"]
    assert circles(graph) == []


def test_no_javascript_module_imports_itself_round_a_circle():
    graph = js_modules()
    boot = os.path.join(ROOT, "boot.js")
    assert os.path.join(ROOT, "pagefiles.js") in graph[boot]
    assert circles(graph) == []
