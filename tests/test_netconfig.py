"""A deployment's own signaling and ICE servers (tools/netconfig.py, tools/build.py
--signaling / --ice): what config.js and the CSP get, and every bad input a clear build
error (issue 21)."""

import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools"))
import netconfig  # noqa: E402
from netconfig import BuildInputError  # noqa: E402

from test_build_policy import ROOT, build, policy_of  # noqa: E402

TURN = {"urls": ["turn:turn.example.org:3478", "turns:turn.example.org:5349?transport=tcp"],
        "username": "1700000000:crisp", "credential": "c2VjcmV0"}
STUN = {"urls": "stun:stun.example.org:3478"}


def test_the_default_builds_are_unchanged():
    assert netconfig.signaling_config("local") == {
        "same_origin": True, "path": "/peerjs",
        "peer": {"key": "peerjs", "config": {"iceServers": []}}}
    assert netconfig.signaling_config("hosted") == {
        "same_origin": False, "path": None, "peer": {}}
    assert netconfig.connect_origins("hosted") == ["https://0.peerjs.com", "wss://0.peerjs.com"]
    assert netconfig.connect_origins("local") == []


def test_a_hosted_build_names_its_own_signaling_server_and_ice_servers():
    ice = netconfig.parse_ice([STUN, TURN])
    config = netconfig.signaling_config("hosted", "https://peer.example.org:9443/crisp", ice)
    assert config["peer"] == {"host": "peer.example.org", "port": 9443, "path": "/crisp",
                              "secure": True, "key": "peerjs",
                              "config": {"iceServers": [
                                  {"urls": ["stun:stun.example.org:3478"]}, TURN]}}
    assert netconfig.signaling_config("hosted", "https://peer.example.org")["peer"]["port"] == 443
    # only the ICE servers: the cloud signaling, the deployment's TURN
    assert netconfig.signaling_config("hosted", None, ice)["peer"] == {"config": ice}


def test_the_csp_follows_the_signaling_origin():
    assert netconfig.connect_origins("hosted", "https://peer.example.org/crisp") == [
        "https://peer.example.org", "wss://peer.example.org"]
    assert netconfig.connect_origins("hosted", "https://peer.example.org:9443/") == [
        "https://peer.example.org:9443", "wss://peer.example.org:9443"]
    assert netconfig.connect_origins("hosted", "http://127.0.0.1:9000/peerjs") == [
        "http://127.0.0.1:9000", "ws://127.0.0.1:9000"]
    policy = policy_of(build.shell_html(
        "hosted", connect=netconfig.connect_origins("hosted", "https://peer.example.org/p")))
    assert policy["connect-src"] == "'self' https://peer.example.org wss://peer.example.org"
    assert "0.peerjs.com" not in policy["connect-src"]


@pytest.mark.parametrize("url", [
    "peer.example.org/crisp",                 # no scheme
    "ftp://peer.example.org/",
    "http://peer.example.org/",               # plain http off this machine
    "https://user:pw@peer.example.org/",      # credentials
    "https://peer.example.org/?key=1",        # a query
    "https://peer.example.org/#x",
    "https://peer.example.org:99999/",        # no such port
    "https://peer.example.org:0/",
    "https://bad_host!/",
    "https://peer.example.org/a b",
    "https:///crisp",
    "",
])
def test_a_bad_signaling_url_is_a_build_error(url):
    with pytest.raises(BuildInputError) as e:
        netconfig.signaling_config("hosted", url)
    assert "--signaling" in str(e.value)


def test_signaling_needs_a_hosted_build():
    with pytest.raises(BuildInputError, match="--hosted"):
        netconfig.signaling_config("local", "https://peer.example.org/")


@pytest.mark.parametrize("data, why", [
    ({"urls": "stun:x"}, "list"),                                    # not a list
    ([{"url": "stun:x.org"}], "unknown keys"),                       # the old key
    ([{"urls": []}], "urls"),
    ([{"urls": "http://x.org"}], "not a stun"),
    ([{"urls": "turn:x.org"}], "username"),                          # TURN needs credentials
    ([{"urls": "turn:x.org", "username": "u", "credential": 5}], "credential"),
    ([{"urls": "stun:x.org?transport=udp"}], "transport"),
    ([{"urls": "turn:x.org", "username": "u", "credential": "p", "extra": 1}], "unknown"),
    ([STUN] * 9, "at most"),
    ({"iceServers": [STUN], "iceTransportPolicy": "none"}, "relay"),
    ({"iceServers": [STUN], "policy": "relay"}, "unknown keys"),
    ([STUN, "stun:x.org"], "server 2"),
])
def test_a_bad_ice_list_is_a_build_error(data, why):
    with pytest.raises(BuildInputError) as e:
        netconfig.parse_ice(data)
    assert why in str(e.value) and "--ice" in str(e.value)


def test_relay_only_is_for_test_builds():
    data = {"iceServers": [TURN], "iceTransportPolicy": "relay"}
    with pytest.raises(BuildInputError, match="test builds"):
        netconfig.parse_ice(data)
    assert netconfig.parse_ice(data, test=True) == {"iceServers": [TURN],
                                                     "iceTransportPolicy": "relay"}
    # a local test build carries it (the relay e2e test)
    local = netconfig.signaling_config("local", None, netconfig.parse_ice(data, test=True))
    assert local["peer"]["config"]["iceTransportPolicy"] == "relay"


def test_an_unreadable_or_broken_ice_file_is_a_build_error(tmp_path):
    with pytest.raises(BuildInputError, match="--ice"):
        netconfig.load_ice(str(tmp_path / "missing.json"))
    broken = tmp_path / "ice.json"
    broken.write_text('[{"urls": "stun:x.org"},]')
    with pytest.raises(BuildInputError, match="not JSON"):
        netconfig.load_ice(str(broken))


def run_build(*args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build.py"), *args],
                          capture_output=True, text=True, cwd=ROOT)


def test_the_build_stops_with_the_reason_before_writing_anything(tmp_path):
    out = tmp_path / "dist"
    bad = run_build("--hosted", "--signaling", "http://peer.example.org/", "--out", str(out))
    assert bad.returncode == 1 and "build: error: --signaling" in bad.stderr, bad.stderr
    ice = tmp_path / "ice.json"
    ice.write_text(json.dumps([{"urls": "turn:t.example.org"}]))
    bad = run_build("--hosted", "--ice", str(ice), "--out", str(out))
    assert bad.returncode == 1 and "TURN server needs" in bad.stderr, bad.stderr
    assert not out.exists()


def test_several_signaling_servers_and_turn_from_signaling():
    url = "https://a.example.org/peerjs,https://b.example.org:8443/peerjs"
    config = netconfig.signaling_config("hosted", url, None, turn=True)
    assert config["turn"] is True
    assert config["peer"] == {"host": "a.example.org", "port": 443, "path": "/peerjs",
                              "secure": True, "key": "peerjs"}
    assert config["servers"] == [
        {"host": "a.example.org", "port": 443, "path": "/peerjs", "secure": True},
        {"host": "b.example.org", "port": 8443, "path": "/peerjs", "secure": True}]
    assert netconfig.connect_origins("hosted", url) == [
        "https://a.example.org", "wss://a.example.org",
        "https://b.example.org:8443", "wss://b.example.org:8443"]
    # one server: no list; a local build may ask its own server
    assert "servers" not in netconfig.signaling_config("hosted", "https://a.example.org/p")
    assert netconfig.signaling_config("local", turn=True)["turn"] is True
    for bad in ("https://a.example.org/p,https://a.example.org/p", "https://a.example.org/p,",
                ",".join("https://s%d.example.org/p" % i for i in range(17))):
        with pytest.raises(netconfig.BuildInputError):
            netconfig.signaling_config("hosted", bad)
    with pytest.raises(netconfig.BuildInputError, match="PeerJS cloud"):
        netconfig.signaling_config("hosted", None, None, turn=True)
