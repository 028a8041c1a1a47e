#!/usr/bin/env bash
# The e2e suite on a loaded machine (issue 22 item 4): two CPU hogs run (Debian's stress-ng,
# `--cpu 2`, installed through tools/setup.sh's apt helper when missing) while pytest runs the
# e2e tests, `--times N` times in a row (default 1), each run's result printed; exit status 0
# only if every run passed. The tests wait on the pages' own signals (a host page's
# body[data-engine], a seat's appearance), never on the engine's start time, so the suite
# should hold however slow the machine is.
#
#   bench/stress_e2e.sh [--times N] [--hogs N] [pytest args, default: e2e -q]
#   e.g. bench/stress_e2e.sh --times 3
#        bench/stress_e2e.sh e2e/test_round.py -x -q
#
# On a shared machine, run it through its e2e slot script, like any e2e run.
set -euo pipefail
cd "$(dirname "$0")/.."
times=1
hogs=2
while [ "$#" -gt 0 ]; do
  case "$1" in
    --times) times="$2"; shift 2 ;;
    --hogs) hogs="$2"; shift 2 ;;
    *) break ;;
  esac
done
[ "$#" -gt 0 ] || set -- e2e -q

. tools/setup.sh
if ! command -v stress-ng >/dev/null; then
  echo "stress_e2e: installing stress-ng (apt)"
  apt_install stress-ng
fi
python3 tools/build.py >/dev/null

stress-ng --cpu "$hogs" --quiet &
hog=$!
trap 'kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null || true' EXIT
echo "stress_e2e: $hogs CPU hogs (stress-ng pid $hog) on $(nproc) cores; pytest $*"

failed=0
for run in $(seq 1 "$times"); do
  start=$(date +%s)
  rc=0
  .venv/bin/python -m pytest "$@" || rc=$?
  echo "stress_e2e: run $run of $times: pytest exit $rc in $(( $(date +%s) - start )) s"
  [ "$rc" = 0 ] || failed=$((failed + 1))
done
echo "stress_e2e: $((times - failed)) of $times runs passed"
[ "$failed" = 0 ]
