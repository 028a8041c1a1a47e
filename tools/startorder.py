"""The order start.py imports the page's modules in, computed from the sources (standard
library only; tools/build.py writes it into dist/start.py).

start.py imports the page's modules a few per task (no one long task on a phone's CPU): every
module ui/page/main.py needs as it is imported, each after the modules it imports itself, and
ui.page.main last. A module left out would be imported with the first one that needs it (one
longer task); one out of order would bring its imports along. Only imports at a module's top
level count: an import inside a function runs later, when the page calls it.
"""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The module the page starts from: imported last, it draws the page.
MAIN = "ui.page.main"
#: The line of start.py the build replaces with the computed order.
PLACEHOLDER = "MODULES = ()"


def module_path(name, root=ROOT):
    """The source file of the dotted module `name` under `root`, or None when there is none
    (a package folder without __init__.py, a module of the standard library)."""
    path = os.path.join(root, *name.split(".")) + ".py"
    return path if os.path.isfile(path) else None


def module_imports(name, root=ROOT):
    """The ui/ and crisp_core/ modules (dotted names, in source order) that the module `name`
    imports at its top level; `from ui.page.screens import cards` names ui.page.screens.cards.
    Raises OSError when `name` has no source under `root`, SyntaxError when it does not parse."""
    with open(os.path.join(root, *name.split(".")) + ".py", encoding="utf-8") as f:
        tree = ast.parse(f.read())
    out = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                sub = node.module + "." + a.name
                out.append(sub if module_path(sub, root) else node.module)
    seen = []
    for m in out:
        if m.startswith(("ui.", "crisp_core.")) and module_path(m, root) and m not in seen:
            seen.append(m)
    return seen


def page_order(root=ROOT, main=MAIN):
    """Every module `main` needs as it is imported, each after its own imports, `main` last:
    a list of dotted names (depth first, imports in source order, so the same sources give
    the same order). Raises ValueError naming an import circle (a module that, through its
    imports, imports itself before it has run: the page could not start)."""
    order, state = [], {}

    def visit(name, trail):
        if state.get(name) == "done":
            return
        if state.get(name) == "open":
            raise ValueError("import circle: " + " -> ".join(trail + [name]))
        state[name] = "open"
        for dep in module_imports(name, root):
            visit(dep, trail + [name])
        state[name] = "done"
        order.append(name)

    visit(main, [])
    return order


def modules_source(names, width=95):
    """`names` as start.py's MODULES = (...) assignment, wrapped at `width` characters."""
    lines, line = [], "   "
    for name in names:
        item = ' "%s",' % name
        if len(line) + len(item) > width:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line)
    return "MODULES = (\n" + "\n".join(lines) + "\n)"


def with_order(start_py, root=ROOT):
    """start.py's text (`start_py`) with its PLACEHOLDER line made the computed order.
    Raises ValueError when the text has no PLACEHOLDER line, or on an import circle."""
    if start_py.count("\n" + PLACEHOLDER + "\n") != 1:
        raise ValueError("start.py has no line %r for the build to fill" % PLACEHOLDER)
    return start_py.replace("\n" + PLACEHOLDER + "\n",
                            "\n" + modules_source(page_order(root)) + "\n")
