#!/usr/bin/env bash
# Set up everything and run all tests: pytest tests/ (engine, room, scenarios) and e2e/
# (Playwright in Debian's Chromium). Extra arguments go to pytest, e.g. ./test.sh -k smoke -x
set -euo pipefail
cd "$(dirname "$0")"
. tools/setup.sh
ensure_chromium
ensure_node_modules
ensure_venv
python3 tools/build.py

dirs=()
for d in tests e2e; do [ -d "$d" ] && dirs+=("$d"); done
set +e
.venv/bin/python -m pytest "${dirs[@]}" "$@"
rc=$?
set -e
if [ "$rc" = 5 ]; then
  echo "test.sh: pytest collected no tests (exit 5): not a failure"
  exit 0
fi
exit "$rc"
