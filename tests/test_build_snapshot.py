"""The engine's Pyodide memory snapshot written by the build (tools/snapshot.py, made by
tools/snapshot.mjs in Node with the build's own Pyodide): named by its content, listed where
the engine worker and the service worker find it, and its bytes what Pyodide restores."""

import gzip
import hashlib
import json
import os
import re
import shutil
import struct
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import build  # noqa: E402
import snapshot  # noqa: E402

SNAPSHOT_MAGIC = 0x706E7300     # Pyodide's snapshot header (src/js/snapshot.ts)

needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not os.path.isdir(os.path.join(ROOT, "node_modules")),
    reason="the build's snapshot step needs node and node_modules (npm ci)")


def config_value(dist, name):
    """`name`'s value in the build's config (config-<id>.js, or config.js)."""
    configs = [n for n in os.listdir(dist) if re.fullmatch(r"config(-[0-9a-f]+)?\.js", n)]
    assert len(configs) == 1, configs
    with open(os.path.join(dist, configs[0]), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^export const %s = (.*?);$" % name, text, re.M | re.S)
    assert m, name
    return json.loads(m.group(1))


def sw_files(dist):
    with open(os.path.join(dist, "sw.js"), encoding="utf-8") as f:
        first = f.readline()
    return json.loads(first[len("self.CRISP_BUILD = "):first.index(";  // GENERATED")])


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("snapbuild") / "dist")
    build.build(out, "local", test=True)
    return out


def test_a_snapshot_is_named_by_the_sha256_of_its_bytes():
    assert snapshot.snapshot_name(b"abc") == (
        "py/snapshot-%s.gz" % hashlib.sha256(b"abc").hexdigest()[:10])
    assert re.fullmatch(r"py/snapshot-[0-9a-f]{10}\.gz", snapshot.snapshot_name(b""))


@needs_node
def test_the_build_writes_a_snapshot_named_by_its_hash_and_lists_it(dist):
    rel = config_value(dist, "engineSnapshot")
    assert re.fullmatch(r"py/snapshot-[0-9a-f]{10}\.gz", rel)
    with open(os.path.join(dist, rel), "rb") as f:
        data = f.read()
    assert snapshot.snapshot_name(data) == rel                  # the hash in its name
    head = sw_files(dist)
    assert rel in head["files"]                                 # the service worker may keep it
    engine = config_value(dist, "loads")["engine"]
    assert [rel, len(data), "python"] in engine                 # the worker's progress counts it
    with open(os.path.join(dist, "build.json"), encoding="utf-8") as f:
        info = json.load(f)
    assert info["zips"]["snapshot"] == rel and info["sizes"][rel] == len(data)
    # what Pyodide's loadPyodide({_loadSnapshot}) reads: its header, then the wasm heap
    raw = gzip.decompress(data)
    magic, offset, json_len = struct.unpack_from("<III", raw)
    assert magic == SNAPSHOT_MAGIC and offset % 16 == 0 and len(raw) > offset > json_len
    table = json.loads(raw[48:48 + json_len])
    assert set(table) == {"hiwireKeys", "immortalKeys"}
    # the engine was imported before the snapshot was taken: its code is in the heap
    assert b"ui/worker/engine.py" in raw[offset:] and b"crisp_core" in raw[offset:]


@needs_node
def test_the_same_inputs_make_the_same_snapshot(dist, tmp_path):
    """Its name stays the same from build to build while the engine does not change, so a
    deploy that did not touch the engine does not send every host the snapshot again."""
    pyodide = [n for n in os.listdir(os.path.join(dist, "vendor")) if n.startswith("pyodide-")]
    assert len(pyodide) == 1, pyodide
    again = str(tmp_path)
    os.makedirs(os.path.join(again, "py"))
    rel = snapshot.write_snapshot(again, os.path.join(dist, "vendor", pyodide[0]),
                                  os.path.join(dist, config_value(dist, "hostZip")))
    assert rel == config_value(dist, "engineSnapshot")


def test_without_node_the_build_writes_no_snapshot_and_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(snapshot.shutil, "which", lambda name: None)
    out = str(tmp_path / "dist")
    build.build(out, "local")
    assert config_value(out, "engineSnapshot") is None
    assert not [n for n in os.listdir(os.path.join(out, "py")) if n.startswith("snapshot")]
    assert all(not p.startswith("py/snapshot") for p, _, _ in config_value(out, "loads")["engine"])
    assert "no node: the engine starts without a memory snapshot" in capsys.readouterr().err


@needs_node
def test_a_snapshot_that_node_cannot_make_is_no_snapshot(tmp_path, capsys):
    out = str(tmp_path)
    os.makedirs(os.path.join(out, "py"))
    with open(os.path.join(out, "py", "host-0.zip"), "wb") as f:
        f.write(b"not a zip")
    assert snapshot.write_snapshot(out, "no-such-pyodide", "py/host-0.zip") is None
    assert "no memory snapshot" in capsys.readouterr().err
    assert os.listdir(os.path.join(out, "py")) == ["host-0.zip"]     # no leftover
