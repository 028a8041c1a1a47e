"""The Content-Security-Policy tools/build.py writes into index.html (e2e/test_csp.py checks
that a round under it raises no violation)."""

import base64
import hashlib
import importlib.util
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("crisp_build", os.path.join(ROOT, "tools", "build.py"))
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)


def policy_of(html):
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
    assert meta, "no CSP meta"
    return dict((part.split(" ", 1) + [""])[:2] for part in meta.group(1).split("; "))


def test_every_build_carries_a_tight_policy():
    for mode in ("local", "hosted"):
        html = build.shell_html(mode)
        policy = policy_of(html)
        assert policy["default-src"] == "'self'"
        assert policy["script-src"] == "'self' 'wasm-unsafe-eval' 'unsafe-eval'"
        assert policy["object-src"] == "'none'" and policy["base-uri"] == "'none'"
        assert policy["form-action"] == "'none'"
        assert policy["worker-src"] == "'self' blob:"
        assert "unsafe-inline" not in html.split("Content-Security-Policy")[1].split(">")[0]
        # the shell's one inline <style> is allowed by its hash, and nothing else inline
        css = re.search(r"<style>(.*?)</style>", re.sub(r"<!--.*?-->", "", html, flags=re.S),
                        re.S).group(1)
        digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode()
        assert policy["style-src"] == "'self' 'sha256-%s'" % digest
        # the meta comes before anything the page loads
        assert html.index("Content-Security-Policy") < html.index("<link")


def test_only_the_hosted_build_talks_to_the_peerjs_cloud():
    assert policy_of(build.shell_html("local"))["connect-src"] == "'self'"
    assert policy_of(build.shell_html("hosted"))["connect-src"] == \
        "'self' https://0.peerjs.com wss://0.peerjs.com"
