"""The build's id and the files that carry it (tools/build.py runs version_names last).

Exits the build (status 1, a message on stderr) when a file of the chain does not name the
next one the way VERSIONED_REFS says.
"""

import hashlib
import json
import os
import sys


# Files whose names carry the build's id (issue 23, fault 1: one page runs one build): every
# file of the page's chain that is not already named for its content (the vendor folders,
# the content-hashed zips). index.html names boot-<id>.js, which names the rest of its build
# (VERSIONED_REFS: each reference rewritten), so a page that loaded one build's index.html
# asks for that build's files only, never another build's copies under the same name (the
# service worker keeps the previous build's cache for such a page, sw.js). The config
# carries the id (`build`): the page and its engine worker compare theirs at start.
VERSIONED = ["boot.js", "config.js", "engine-worker.js", "awake.js", "store.js", "pagefiles.js",
             "start.py", "mpy.toml"]
VERSIONED_REFS = {"index.html": ("./boot.js",),
                  "boot.js": ("./config.js", "./engine-worker.js", "./awake.js", "./store.js",
                              "./pagefiles.js", "./start.py", "./mpy.toml"),
                  "engine-worker.js": ("./config.js",)}


def build_id(out):
    """The build's id: 12 hex digits of a SHA-256 over every file in `out` (its path and
    content), so that two builds differ in id whenever they differ in any file."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(out):
        dirnames.sort()
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            digest.update(os.path.relpath(full, out).replace(os.sep, "/").encode() + b"\0")
            with open(full, "rb") as f:
                digest.update(hashlib.sha256(f.read()).digest())
    return digest.hexdigest()[:12]


def versioned_name(name, bid):
    """`config.js` -> `config-<bid>.js`, `mpy.toml` -> `mpy-<bid>.toml` (VERSIONED)."""
    stem, ext = os.path.splitext(name)
    return "%s-%s%s" % (stem, bid, ext)


def version_names(out):
    """Give the files of VERSIONED names that carry the build's id, rewrite the references
    to them (VERSIONED_REFS: each must be there, as "./name"; every such mention is) and add `export const build`
    to the config. Runs once every other file of the page is written (the id hashes them).
    -> (the build id, {plain name: versioned name})."""
    bid = build_id(out)
    names = {name: versioned_name(name, bid) for name in VERSIONED}
    for name, refs in VERSIONED_REFS.items():
        path = os.path.join(out, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for ref in refs:
            if '"%s"' % ref not in text:
                print('build: error: %s does not name "%s" (tools/versioning.py VERSIONED_REFS)'
                      % (name, ref), file=sys.stderr)
                sys.exit(1)
            text = text.replace('"%s"' % ref, '"./%s"' % names[ref[2:]])
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    with open(os.path.join(out, "config.js"), "a", encoding="utf-8", newline="\n") as f:
        f.write("// This build's id (tools/versioning.py build_id): the page and its engine worker\n"
                "// compare theirs at start; the versioned file names carry it.\n"
                "export const build = %s;\n" % json.dumps(bid))
    for name, new in names.items():
        os.replace(os.path.join(out, name), os.path.join(out, new))
    return bid, names
