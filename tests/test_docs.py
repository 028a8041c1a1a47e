"""The repository explains itself: every document that code, tests and docs cite is in it, every
rule number cited is in docs/rules.md, every test id the screens use is in docs/design.md, and
the docs' examples run against the real package (docs/protocol.md's Python, docs/scenarios.md's
scenario file)."""

import json
import os
import re

import pytest

from crisp_core.scenario import compare, load_scenario, run_scenario

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_DIRS = {".git", ".venv", "node_modules", "dist", "__pycache__", ".pytest_cache",
             ".hypothesis", "test-results"}
TEXT_EXTENSIONS = (".py", ".md", ".sh", ".mjs", ".js", ".html", ".json", ".toml", ".yml",
                   ".yaml", ".txt", ".css", ".ini")


def sources():
    """Every text file of the repository (code, tests, docs, CI), as repo-relative paths."""
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith(TEXT_EXTENSIONS) or name in ("run",):
                path = os.path.relpath(os.path.join(dirpath, name), ROOT)
                if path != "package-lock.json":
                    out.append(path)
    return out


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")
DOC = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*\w[\w.-]*\.md)\b")
DOCS_PATH = re.compile(r"(?<![\w./-])(docs/[\w./-]*[\w-])")
RULE = re.compile(r"(?<![\w.])(R\d+(?:\.\d+)*)(?![\w])")


def cited_documents(path, text):
    text = URL.sub("", text)
    found = set(DOC.findall(text)) | set(DOCS_PATH.findall(text))
    return sorted(found)


def resolves(path, cited):
    """A cited document exists: from the repository's root, or beside the citing file."""
    here = os.path.dirname(path)
    return (os.path.exists(os.path.join(ROOT, cited))
            or os.path.exists(os.path.join(ROOT, here, cited)))


def test_every_cited_document_is_in_the_repository():
    missing = []
    cited_any = set()
    for path in sources():
        for cited in cited_documents(path, read(path)):
            cited_any.add(cited)
            if not resolves(path, cited):
                missing.append("%s cites %s" % (path, cited))
    assert missing == [], "\n".join(missing)
    # the scan does find citations (a broken pattern would find none and pass)
    assert {"docs/rules.md", "docs/protocol.md", "docs/design.md", "docs/scenarios.md"} <= cited_any


def test_the_scan_catches_a_document_that_is_not_there():
    gone, nowhere = "RULES" + ".md", "docs" + "/" + "nothing" + ".md"   # (not cited here)
    assert not resolves("crisp_core/game.py", gone)
    text = "see %s R4.5 and %s, https://a.b/c.md, .card.md {}" % (gone, nowhere)
    assert cited_documents("x.py", text) == [gone, nowhere]


SECTION = re.compile(r'(docs/\w+\.md)[;,]?\s+"([^"\n]+)"')


def test_every_cited_section_is_in_its_document():
    """`docs/design.md "Time"` names a heading of that document (case aside)."""
    missing = []
    found = 0
    for path in sources():
        for doc, section in SECTION.findall(read(path)):
            found += 1
            if not os.path.exists(os.path.join(ROOT, doc)):
                continue                    # reported by the test above
            headings = re.findall(r"^#+ (.*)$", read(doc), re.M)
            if not any(section.lower() in heading.lower() for heading in headings):
                missing.append('%s cites %s "%s"' % (path, doc, section))
    assert missing == [], "\n".join(missing)
    assert found > 10


def defined_rules():
    text = read("docs/rules.md")
    return set(re.findall(r"\*\*(R\d+(?:\.\d+)*)\*\*", text)) | set(
        re.findall(r"^## (R\d+) ", text, re.M))


def test_every_rule_number_cited_is_in_the_rules():
    defined = defined_rules()
    assert {"R1", "R1.1", "R4.5.4", "R10", "R10.4"} <= defined
    unknown = []
    cited = set()
    for path in sources():
        for rule in RULE.findall(read(path)):
            cited.add(rule)
            if rule not in defined:
                unknown.append("%s cites %s" % (path, rule))
    assert unknown == [], "\n".join(unknown)
    assert len(cited) > 30


def test_every_numbered_rule_is_in_order():
    numbers = re.findall(r"\*\*(R\d+(?:\.\d+)*)\*\*", read("docs/rules.md"))
    keys = [tuple(int(p) for p in n[1:].split(".")) for n in numbers]
    assert keys == sorted(keys) and len(keys) == len(set(keys))


def fenced(path, lang):
    """The fenced code blocks of one language in a Markdown file, in order."""
    return re.findall(r"^```%s\n(.*?)^```" % lang, read(path), re.M | re.S)


def test_protocol_examples_run():
    blocks = fenced("docs/protocol.md", "python")
    assert len(blocks) >= 3, "docs/protocol.md lost its examples"
    namespace = {"__name__": "protocol_md"}
    for block in blocks:
        exec(compile(block, "docs/protocol.md", "exec"), namespace)


@pytest.mark.parametrize("path", ["README.md", "CONTRIBUTING.md", "docs/design.md",
                                  "docs/rules.md", "docs/scenarios.md"])
def test_other_docs_python_examples_run(path):
    namespace = {"__name__": path}
    for block in fenced(path, "python"):
        exec(compile(block, path, "exec"), namespace)


def test_the_scenario_example_is_a_valid_scenario_that_passes():
    scenario = load_scenario(json.loads(fenced("docs/scenarios.md", "json")[0]))
    output = run_scenario(scenario)
    assert scenario["expect"] and compare(scenario["expect"], output) == []


TESTID = re.compile(r"""(?:"data-testid":\s*|button\(ctx,\s*)"([a-z0-9-]+)"(\s*\+)?""")


def test_every_test_id_of_the_screens_is_in_the_design():
    design = read("docs/design.md")
    ids = set()
    for folder in ("page", "shared", "worker"):
        for here, _, names in os.walk(os.path.join(ROOT, "ui", folder)):
            for name in names:
                if not name.endswith(".py"):
                    continue
                for testid, prefix in TESTID.findall(read(os.path.join(here, name))):
                    ids.add(testid + ("<" if prefix else ""))
    assert {"player-name", "card-<", "deck", "status"} <= ids
    missing = sorted(i for i in ids if "`" + i not in design)
    assert missing == [], "test ids missing from docs/design.md: %s" % missing


TRACKER_TAG = re.compile(r"\b(?:issue|stop)s? #?\d", re.I)


def test_product_code_says_its_reasons_not_a_trackers_numbers():
    """A comment in the product says why in words; a decision that needs its history is in
    docs/decisions.md. A number of a tracker outside the repository ("issue 20.4") tells a
    newcomer nothing."""
    tagged = []
    for path in sources():
        top = path.split(os.sep)[0]
        if top in ("crisp_core", "ui", "tools") or (os.sep not in path and path.endswith(
                (".js", ".py", ".html"))):
            for number, line in enumerate(read(path).splitlines(), 1):
                if TRACKER_TAG.search(line):
                    tagged.append("%s:%d" % (path, number))
    assert tagged == []
