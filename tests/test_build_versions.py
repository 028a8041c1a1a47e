"""One page runs one build (issue 23, fault 1): tools/build.py names every file of the page's
chain that is not already named for its content with the build's id (VERSIONED), rewrites
the references (index.html -> boot-<id>.js -> config-<id>.js, engine-worker-<id>.js, ...),
and the config carries the id the page and its engine worker compare at start
(e2e/test_deploy.py: a deploy under an open page)."""

import importlib.util
import os
import re
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("crisp_build", os.path.join(ROOT, "tools", "build.py"))
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)

SOURCES = ["index.html", "boot.js", "engine-worker.js", "awake.js", "store.js", "pagefiles.js",
           "start.py"]


def shell(tmp_path, config="export const mode = \"local\";\n"):
    out = tmp_path / "dist"
    out.mkdir()
    for name in SOURCES:
        shutil.copy(os.path.join(ROOT, name), out / name)
    (out / "config.js").write_text(config)
    (out / "mpy.toml").write_text('interpreter = "./vendor/micropython-1.27.0/micropython.mjs"\n')
    return out


def test_every_file_of_the_chain_carries_the_build_id(tmp_path):
    out = shell(tmp_path)
    bid, names = build.version_names(str(out))
    assert re.fullmatch(r"[0-9a-f]{12}", bid)
    assert sorted(names) == sorted(build.VERSIONED)
    assert names["mpy.toml"] == "mpy-%s.toml" % bid
    assert names["engine-worker.js"] == "engine-worker-%s.js" % bid
    present = set(os.listdir(out))
    for plain, versioned in names.items():
        assert versioned in present and plain not in present, plain
    # every reference names the versioned file; none names a plain one
    for plain, refs in build.VERSIONED_REFS.items():
        text = (out / names.get(plain, plain)).read_text()
        for ref in refs:
            assert '"%s"' % ref not in text, (plain, ref)
            assert '"./%s"' % names[ref[2:]] in text, (plain, ref)
    config = (out / names["config.js"]).read_text()
    assert 'export const build = "%s";' % bid in config
    assert config.startswith('export const mode = "local";')


def test_the_id_follows_every_byte_of_the_build(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = shell(tmp_path / "a"), shell(tmp_path / "b")
    assert build.build_id(str(a)) == build.build_id(str(b))
    (b / "store.js").write_text((b / "store.js").read_text() + " ")
    assert build.build_id(str(a)) != build.build_id(str(b))
    (b / "store.js").rename(b / "store2.js")              # a renamed file counts too
    assert build.build_id(str(a)) != build.build_id(str(b))


def test_a_reference_the_build_cannot_find_stops_it(tmp_path):
    out = shell(tmp_path)
    boot = out / "boot.js"
    boot.write_text(boot.read_text().replace('"./store.js"', "'./store.js'"))
    with pytest.raises(build.versioning.VersionError, match='boot.js does not name "./store.js"'):
        build.versioning.version_names(str(out))
    with pytest.raises(SystemExit):                       # the build says so and stops
        build.version_names(str(out))
