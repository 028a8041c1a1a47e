#!/usr/bin/env python3
"""Build the static site into dist/ (standard library only).

    python3 tools/build.py            local build: signaling = this origin's /peerjs (tools/serve.mjs)
    python3 tools/build.py --hosted   hosted build: signaling = the PeerJS cloud default (GitHub Pages)
    python3 tools/build.py --test     test build: also honours the test-only page parameters
                                      (?deck=, ?seed=); what the e2e tests use. Never deploy it.
    python3 tools/build.py --out DIR  build somewhere else than dist/

What dist/ holds (every URL in it is relative, so it works at / and under /<repo>/):

    index.html, boot.js       the page shell and its interpreter bootstrap (copied)
    config.js                 GENERATED: the one place the signaling server is configured, and
                              what each page downloads (sizes: the loading screen's progress)
    pyscript.toml, mpy.toml   GENERATED: PyScript configs for the host (Pyodide) and guests (MicroPython)
    py/host-<hash>.zip        GENERATED: crisp_core/ + ui/ Python files, unpacked by PyScript ([files] "./*")
    py/guest-<hash>.zip       GENERATED: ui/ Python files and the engine without crisp_core/__init__.py,
                              its bots and tools (GUEST_CORE_EXCLUDED): the screens import
                              crisp_core/actions.py at once, the round check the rest at a round's end
    ui/, crisp_core/          copies of the sources (ui/main.py is the entry script of both interpreters)
    vendor/pyscript/          @pyscript/core dist (core.js, core.css and its lazy chunks)
    vendor/pyodide/           pyodide core: pyodide.mjs, pyodide.asm.mjs/.wasm, python_stdlib.zip, lock
    vendor/micropython/       micropython.mjs + micropython.wasm
    vendor/peerjs/            peerjs.min.js (browser bundle, defines window.peerjs and window.Peer)
    build.json                what was built (mode, versions, sizes): for humans and tests

The vendored files come from node_modules/ (run `npm ci` first); nothing is fetched from a CDN.
"""

import argparse
import hashlib
import io
import json
import os
import shutil
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE_MODULES = os.path.join(ROOT, "node_modules")

# Source files copied as they are.
SHELL_FILES = ["index.html", "boot.js"]
# Vendored npm files: package dir -> (dist subdir, files or None for "all but maps/types").
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
]
MICROPYTHON_FILES = ["micropython.mjs", "micropython.wasm"]
PEERJS_FILES = ["peerjs.min.js"]

# Signaling configurations. The page reads dist/config.js and nothing else for this.
#   same_origin: the PeerJS server is on the page's own host and port, under `path`
#   peer: extra options for `new Peer(id, options)` (PeerJS client options)
SIGNALING = {
    "local": {
        "same_origin": True,
        "path": "/peerjs",
        # LAN play: host candidates are enough, and no STUN/TURN request leaves the network.
        "peer": {"key": "peerjs", "config": {"iceServers": []}},
    },
    "hosted": {
        "same_origin": False,
        "path": None,
        # PeerJS defaults: the cloud server 0.peerjs.com with its STUN/TURN servers.
        "peer": {},
    },
}

# PyScript plugins switched off in both configs ("!name"); "error" is kept.
UNUSED_PLUGINS = ["codemirror", "deprecations-manager", "donkey", "py-editor", "py-game", "py-terminal"]

# Python source files that go into the interpreters' file systems.
PY_EXTENSIONS = (".py", ".json")

# crisp_core files guests do without: __init__.py (MicroPython imports a package directory
# without one, so a guest's screens load crisp_core/actions.py alone, never the engine at
# start), the bots (CPython's random.Random), the bot tournament and the scenario runner
# (command-line tools). Guests import the rest of the engine at the end of a round, to check
# its committed shuffle (`import crisp_core.verify`, docs/protocol.md "Verifiable shuffle").
GUEST_CORE_EXCLUDED = ("crisp_core/__init__.py", "crisp_core/bots.py",
                       "crisp_core/tournament.py", "crisp_core/scenario.py")


def fail(msg):
    print(f"build: error: {msg}", file=sys.stderr)
    sys.exit(1)


def package_version(name):
    with open(os.path.join(NODE_MODULES, name, "package.json"), encoding="utf-8") as f:
        return json.load(f)["version"]


def copy_file(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy2(src, dst)


def walk_files(top, exts=None):
    """Relative paths (posix) of the files under `top`, sorted, skipping caches."""
    out = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if name.startswith(".") or name.endswith((".pyc", ".pyo")):
                continue
            if exts and not name.endswith(exts):
                continue
            full = os.path.join(dirpath, name)
            out.append(os.path.relpath(full, ROOT).replace(os.sep, "/"))
    return out


def make_zip(paths):
    """A deterministic zip (fixed timestamps, sorted entries) of repo-relative paths."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel in sorted(paths):
            info = zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(os.path.join(ROOT, rel), "rb") as f:
                zf.writestr(info, f.read())
    return buf.getvalue()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode, **({} if mode == "wb" else {"encoding": "utf-8", "newline": "\n"})) as f:
        f.write(data)


def toml_str(s):
    return json.dumps(s)  # a JSON string is a valid TOML basic string


def pyscript_config(interpreter_url, zip_url, label):
    return (
        f"# GENERATED by tools/build.py: the PyScript config for the {label}.\n"
        "# `interpreter` always points at the vendored file: without it PyScript loads its\n"
        "# interpreter from a CDN. [files]: the zip is unpacked into the interpreter's working\n"
        "# directory (\"./*\"), so `import ui.render` / `import crisp_core` work.\n"
        f"interpreter = {toml_str(interpreter_url)}\n"
        "# PyScript plugins the game does not use (editor, terminal, pygame...): not loaded.\n"
        "# `error` stays: it shows Python errors on the page.\n"
        f"plugins = {json.dumps(['!' + p for p in UNUSED_PLUGINS])}\n"
        "\n"
        "[files]\n"
        f"{toml_str(zip_url)} = \"./*\"\n"
    )


def build(out, mode, test=False):
    if not os.path.isdir(NODE_MODULES):
        fail("node_modules/ is missing: run `npm ci` first")
    for d in ("ui", "crisp_core"):
        if not os.path.isdir(os.path.join(ROOT, d)):
            fail(f"{d}/ is missing")

    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    sizes = {}

    # 1. the shell
    for name in SHELL_FILES:
        src = os.path.join(ROOT, name)
        if not os.path.isfile(src):
            fail(f"{name} is missing")
        copy_file(src, os.path.join(out, name))

    # 2. sources, as files (ui/main.py is fetched as the entry script; the rest is browsable)
    for rel in walk_files(os.path.join(ROOT, "ui")):
        copy_file(os.path.join(ROOT, rel), os.path.join(out, rel))
    for rel in walk_files(os.path.join(ROOT, "crisp_core"), (".py",)):
        copy_file(os.path.join(ROOT, rel), os.path.join(out, rel))
    if not os.path.isfile(os.path.join(ROOT, "ui", "style.css")):
        # index.html links ui/style.css; until the UI lands, serve an empty one (no 404)
        write(os.path.join(out, "ui", "style.css"), "/* placeholder written by tools/build.py */\n")

    # 3. the Python the interpreters see, as one zip each
    ui_py = walk_files(os.path.join(ROOT, "ui"), PY_EXTENSIONS)
    core_py = walk_files(os.path.join(ROOT, "crisp_core"), PY_EXTENSIONS)
    zips = {}
    guest_py = [p for p in core_py if p not in GUEST_CORE_EXCLUDED] + ui_py
    for kind, paths in (("host", core_py + ui_py), ("guest", guest_py)):
        data = make_zip(paths)
        digest = hashlib.sha256(data).hexdigest()[:10]
        rel = f"py/{kind}-{digest}.zip"  # content-hashed: a new build is never served stale
        write(os.path.join(out, rel), data)
        zips[kind] = rel
        sizes[rel] = len(data)

    # 4. vendored browser dependencies
    vendor = os.path.join(out, "vendor")
    pyscript_dist = os.path.join(NODE_MODULES, "@pyscript", "core", "dist")
    for name in sorted(os.listdir(pyscript_dist)):
        if name.endswith((".js", ".css")):
            copy_file(os.path.join(pyscript_dist, name), os.path.join(vendor, "pyscript", name))
    for pkg, sub, files in (
        ("pyodide", "pyodide", PYODIDE_FILES),
        ("@micropython/micropython-webassembly-pyscript", "micropython", MICROPYTHON_FILES),
        ("peerjs", "peerjs", [os.path.join("dist", f) for f in PEERJS_FILES]),
    ):
        for f in files:
            src = os.path.join(NODE_MODULES, pkg, f)
            if not os.path.isfile(src):
                fail(f"missing {src}: is node_modules up to date (npm ci)?")
            copy_file(src, os.path.join(vendor, sub, os.path.basename(f)))

    # 5. generated configs
    write(os.path.join(out, "pyscript.toml"),
          pyscript_config("./vendor/pyodide/pyodide.mjs", "./" + zips["host"], "host (Pyodide)"))
    write(os.path.join(out, "mpy.toml"),
          pyscript_config("./vendor/micropython/micropython.mjs", "./" + zips["guest"],
                          "guests (MicroPython)"))
    signaling = SIGNALING[mode]
    # What each page downloads before it can start, with sizes: the loading screen's real
    # progress (boot.js). [path, bytes, what] where what names the part for the player.
    def load(path, what):
        return [path, os.path.getsize(os.path.join(out, path)), what]
    loads = {
        "host": [load("vendor/pyodide/pyodide.asm.wasm", "python"),
                 load("vendor/pyodide/pyodide.asm.mjs", "python"),
                 load("vendor/pyodide/python_stdlib.zip", "stdlib"),
                 load("vendor/pyodide/pyodide-lock.json", "python"),
                 load(zips["host"], "game")],
        "guest": [load("vendor/micropython/micropython.wasm", "micropython"),
                  load("vendor/micropython/micropython.mjs", "micropython"),
                  load(zips["guest"], "game")],
    }
    write(os.path.join(out, "config.js"),
          f"// GENERATED by tools/build.py ({mode} build). The one place the signaling server is\n"
          "// configured; boot.js turns it into PeerJS options (window.crisp.peerOptions).\n"
          f"export const mode = {json.dumps(mode)};\n"
          "// A test build honours the test-only page parameters (?deck=, ?seed=); others ignore them.\n"
          f"export const testBuild = {json.dumps(bool(test))};\n"
          f"export const signaling = {json.dumps(signaling, indent=2)};\n"
          "// What each page downloads before it starts ([path, bytes, part]): the loading\n"
          "// screen's progress.\n"
          f"export const loads = {json.dumps(loads)};\n")

    versions = {p: package_version(p) for p in (
        "@pyscript/core", "pyodide", "@micropython/micropython-webassembly-pyscript", "peerjs")}
    for sub in ("pyscript", "pyodide", "micropython", "peerjs"):
        d = os.path.join(vendor, sub)
        sizes[f"vendor/{sub}"] = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
    write(os.path.join(out, "build.json"), json.dumps(
        {"mode": mode, "test": bool(test), "versions": versions, "zips": zips, "sizes": sizes,
         "python_files": {"host": core_py + ui_py, "guest": guest_py}}, indent=2) + "\n")
    return {"mode": mode, "test": bool(test), "zips": zips, "sizes": sizes}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hosted", action="store_true",
                    help="use the PeerJS cloud signaling server (GitHub Pages build)")
    ap.add_argument("--test", action="store_true",
                    help="honour the test-only page parameters ?deck= and ?seed= (e2e tests only)")
    ap.add_argument("--out", default=os.path.join(ROOT, "dist"), help="output folder (default dist/)")
    args = ap.parse_args(argv)
    info = build(os.path.abspath(args.out), "hosted" if args.hosted else "local", test=args.test)
    total = sum(os.path.getsize(os.path.join(dp, f))
                for dp, _, fs in os.walk(args.out) for f in fs)
    kind = info["mode"] + (" test" if info["test"] else "")
    print(f"build: {kind} build in {os.path.relpath(os.path.abspath(args.out), os.getcwd())}/ "
          f"({total / 1e6:.1f} MB; host zip {info['sizes'][info['zips']['host']]} B, "
          f"guest zip {info['sizes'][info['zips']['guest']]} B)")


if __name__ == "__main__":
    main()
