#!/usr/bin/env python3
"""The size rules of CONTRIBUTING.md, measured: no product .py over 400 lines, no function
over 80 (standard library only).

    python3 tools/sizes.py            every product file and function over the limits
    python3 tools/sizes.py --all      every product file's line count, longest first

The product is the Python of ui/ and crisp_core/ (what the page and the engine worker run)
and tools/. A function's length is its lines from ``def`` (or its first decorator) to its
last line, docstring and comments included; a nested function counts inside its parent and
on its own. tests/test_sizes.py keeps the limits.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The folders whose .py files are product code.
PRODUCT = ("ui", "crisp_core", "tools")
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80


def product_files(root=ROOT):
    """The product's .py files as paths relative to ``root`` ('/'-separated), sorted."""
    out = []
    for top in PRODUCT:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in files:
                if name.endswith(".py"):
                    path = os.path.relpath(os.path.join(folder, name), root)
                    out.append(path.replace(os.sep, "/"))
    return sorted(out)


def file_lines(source):
    """The number of lines of ``source`` (a str), as ``wc -l`` counts a file ending in one."""
    return len(source.splitlines())


def function_lengths(source):
    """``[(qualified name, first line, lines), ...]`` for every function and method in
    ``source`` (a str of Python). Raises ``SyntaxError`` when it does not parse."""
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                name = prefix + child.name
                out.append((name, first, child.end_lineno - first + 1))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return out


def over_limits(root=ROOT, max_file=MAX_FILE_LINES, max_function=MAX_FUNCTION_LINES):
    """What breaks the size rules: ``(files, functions)``, where ``files`` is
    ``[(path, lines)]`` over ``max_file`` lines and ``functions`` is ``[(path, name, line,
    lines)]`` over ``max_function``, both longest first."""
    files, functions = [], []
    for path in product_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            source = handle.read()
        lines = file_lines(source)
        if lines > max_file:
            files.append((path, lines))
        for name, first, length in function_lengths(source):
            if length > max_function:
                functions.append((path, name, first, length))
    files.sort(key=lambda item: -item[1])
    functions.sort(key=lambda item: -item[3])
    return files, functions


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if "--all" in args:
        counts = []
        for path in product_files():
            with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
                counts.append((file_lines(handle.read()), path))
        for lines, path in sorted(counts, reverse=True):
            print("%6d  %s" % (lines, path))
        return 0
    files, functions = over_limits()
    print("files over %d lines: %d" % (MAX_FILE_LINES, len(files)))
    for path, lines in files:
        print("  %5d  %s" % (lines, path))
    print("functions over %d lines: %d" % (MAX_FUNCTION_LINES, len(functions)))
    for path, name, first, length in functions:
        print("  %5d  %s:%d %s" % (length, path, first, name))
    return 1 if files or functions else 0


if __name__ == "__main__":
    sys.exit(main())
