"""A TURN relay for the e2e tests (issue 21, item 4): Debian's coturn (`turnserver`), started on
loopback with a config this module writes, and what the pages' RTCPeerConnections chose.

    coturn(folder)        a context manager: yields a Relay (port, user, secret, log) once the
                          server answers a STUN binding request; stopped by its PID after
    ensure_coturn()       turnserver's path, installed the project's own way when missing
                          (tools/setup.sh ensure_coturn: apt, as root); None when it cannot be
                          (not root), with the reason
    PC_TAP                init script: every RTCPeerConnection the page makes, in
                          window.__crispPCs
    SELECTED_PAIRS        JS: the selected candidate pair ({local, remote} candidate types,
                          the local address, rtt: getStats' round trip in ms or null)
                          of every connected RTCPeerConnection of the page, from getStats()

Chromium gathers loopback candidates only with --allow-loopback-in-peer-connection
(crisp_e2e.LAUNCH_ARGS); coturn relays between two allocations on 127.0.0.1 only with
`allow-loopback-peers` (it refuses loopback peers by default: right for a deployment,
needed on a machine whose only network is loopback).
"""

import contextlib
import os
import secrets
import shutil
import socket
import struct
import subprocess
import time

from crisp_e2e import ROOT, stop

STUN_BINDING = 0x0001
MAGIC = 0x2112A442


class Relay:
    def __init__(self, port, user, secret, log):
        self.port, self.user, self.secret, self.log = port, user, secret, log

    def ice(self, policy="relay"):
        """The --ice file's content naming this relay (TURN over UDP), `policy` relay."""
        return {"iceServers": [{"urls": "turn:127.0.0.1:%d" % self.port,
                                "username": self.user, "credential": self.secret}],
                "iceTransportPolicy": policy}


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stun_answers(port, timeout=0.5):
    """True when a STUN server on 127.0.0.1:`port` (UDP) answers a binding request."""
    tid = secrets.token_bytes(12)
    request = struct.pack("!HHI", STUN_BINDING, 0, MAGIC) + tid
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(timeout)
        try:
            s.sendto(request, ("127.0.0.1", port))
            data, _ = s.recvfrom(2048)
        except OSError:
            return False
    return len(data) >= 20 and data[8:20] == tid


def ensure_coturn():
    """(path of turnserver, None) or (None, why not). Installs Debian's coturn through
    tools/setup.sh (apt) when it is missing and this runs as root."""
    found = shutil.which("turnserver") or ("/usr/bin/turnserver"
                                           if os.path.exists("/usr/bin/turnserver") else None)
    if found:
        return found, None
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None, ("Debian's coturn is not installed and installing it needs root "
                      "(run ./test.sh as root, or apt-get install coturn)")
    subprocess.run(["bash", "-c", ". tools/setup.sh && ensure_coturn"], cwd=ROOT, check=True)
    found = shutil.which("turnserver")
    return (found, None) if found else (None, "tools/setup.sh ensure_coturn installed no "
                                              "turnserver")


def config(port, low, user, secret, folder):
    """coturn's config for a relay on 127.0.0.1 only: UDP/TCP on `port`, relay ports
    `low`..`low`+99, one long-term user, no TLS, no CLI, its files in `folder`."""
    return "\n".join([
        "listening-ip=127.0.0.1",
        "relay-ip=127.0.0.1",
        "listening-port=%d" % port,
        "min-port=%d" % low,
        "max-port=%d" % (low + 99),
        "lt-cred-mech",
        "user=%s:%s" % (user, secret),
        "realm=crisp.test",
        "allow-loopback-peers",     # both allocations are on 127.0.0.1 (see the module doc)
        "no-cli",
        "no-tls",
        "no-dtls",
        "no-multicast-peers",
        "fingerprint",
        "no-software-attribute",
        "pidfile=%s" % os.path.join(folder, "turnserver.pid"),
        "userdb=%s" % os.path.join(folder, "turndb"),
        "simple-log",
        "log-file=stdout",
        "",
    ])


@contextlib.contextmanager
def coturn(folder, turnserver="turnserver"):
    """Run coturn on loopback with a config written into `folder`; yields its Relay once it
    answers STUN; stops it by its PID (the Popen's) at the end."""
    port = free_udp_port()
    low = 40000 + (port % 200) * 100                 # a relay range of its own
    user, secret = "crisp", secrets.token_hex(12)
    path = os.path.join(folder, "turnserver.conf")
    with open(path, "w") as f:
        f.write(config(port, low, user, secret, folder))
    log_path = os.path.join(folder, "turnserver.log")
    log = open(log_path, "w")
    proc = subprocess.Popen([turnserver, "-c", path], stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while not stun_answers(port):
            if proc.poll() is not None:
                raise RuntimeError("turnserver exited with %s: %s" % (
                    proc.returncode, open(log_path).read()[-2000:]))
            if time.monotonic() > deadline:
                raise RuntimeError("turnserver did not answer STUN within 20 s")
            time.sleep(0.1)
        yield Relay(port, user, secret, log_path)
    finally:
        stop(proc)
        log.close()


PC_TAP = """
(() => {
  window.__crispPCs = [];
  const Native = window.RTCPeerConnection;
  if (!Native) return;
  class Recorded extends Native {
    constructor(...args) { super(...args); window.__crispPCs.push(this); }
  }
  window.RTCPeerConnection = Recorded;
})();
"""

SELECTED_PAIRS = """
async () => {
  const out = [];
  for (const pc of window.__crispPCs || []) {
    if (pc.connectionState !== "connected") continue;
    const stats = await pc.getStats();
    const byId = {};
    stats.forEach((s) => { byId[s.id] = s; });
    let pair = null;
    stats.forEach((s) => {
      if (s.type === "transport" && s.selectedCandidatePairId) pair = byId[s.selectedCandidatePairId];
    });
    if (!pair) stats.forEach((s) => {
      if (s.type === "candidate-pair" && s.nominated && s.state === "succeeded") pair = s;
    });
    out.push(pair ? {local: byId[pair.localCandidateId].candidateType,
                     remote: byId[pair.remoteCandidateId].candidateType,
                     address: byId[pair.localCandidateId].address,
                     rtt: typeof pair.currentRoundTripTime === "number"
                       ? pair.currentRoundTripTime * 1000 : null}
                  : {local: null, remote: null, rtt: null});
  }
  return out;
}
"""
