"""The build's id and the files that carry it (tools/build.py runs version_names last)."""

import hashlib
import json
import os


# Files whose names carry the build's id (one page runs one build: docs/decisions.md): every
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


class VersionError(ValueError):
    """A file of the page's chain does not name the next one the way VERSIONED_REFS says."""


def tree_files(out, skip=()):
    """The paths (relative to `out`, posix) of every file under `out` but those in `skip`, in
    a fixed order (folders and names sorted)."""
    files = []
    for dirpath, dirnames, filenames in os.walk(out):
        dirnames.sort()
        for name in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, name), out).replace(os.sep, "/")
            if rel not in skip:
                files.append(rel)
    return files


def tree_digest(out, files):
    """12 hex digits of a SHA-256 over `files` (paths relative to `out`, in their order): each
    one's path and content, so that it changes whenever any of them does."""
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0")
        with open(os.path.join(out, rel), "rb") as f:
            digest.update(hashlib.sha256(f.read()).digest())
    return digest.hexdigest()[:12]


def build_id(out):
    """The build's id: tree_digest of every file in `out`, so that two builds differ in id
    whenever they differ in any file."""
    return tree_digest(out, tree_files(out))


def versioned_name(name, bid):
    """`config.js` -> `config-<bid>.js`, `mpy.toml` -> `mpy-<bid>.toml` (VERSIONED)."""
    stem, ext = os.path.splitext(name)
    return "%s-%s%s" % (stem, bid, ext)


def version_names(out):
    """Give the files of VERSIONED names that carry the build's id, rewrite the references
    to them (VERSIONED_REFS: each must be there, as "./name"; every such mention is) and add `export const build`
    to the config. Runs once every other file of the page is written (the id hashes them).
    -> (the build id, {plain name: versioned name}). Raises VersionError when a file of
    VERSIONED_REFS does not name one of its references (the build then stops)."""
    bid = build_id(out)
    names = {name: versioned_name(name, bid) for name in VERSIONED}
    for name, refs in VERSIONED_REFS.items():
        path = os.path.join(out, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for ref in refs:
            if '"%s"' % ref not in text:
                raise VersionError('%s does not name "%s" (tools/versioning.py VERSIONED_REFS)'
                                   % (name, ref))
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
