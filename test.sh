#!/usr/bin/env bash
# Set up everything and run all tests, in four stages, each announced ("test.sh: <stage>"):
#   setup  Debian's chromium, firefox-esr (the Firefox guest's test) and coturn (the relay
#          e2e test's TURN server), node_modules (npm ci), .venv (pip, only when
#          requirements-dev.txt changed)
#   build  python3 tools/build.py (dist/, what ./serve.sh serves)
#   unit   pytest tests/   (engine, scenarios, room, screens; no browser)
#   e2e    pytest e2e/     (Playwright in Debian's Chromium, several phones per test)
# Extra arguments go to pytest, e.g. ./test.sh -k smoke -x. Paths choose the stages: only the
# stages with a path given run, each with its own paths (./test.sh tests e2e/test_hosted.py
# is what the Pages workflow runs).
#
# Fails when either stage fails. The e2e stage runs after a failed unit stage too: one run
# shows everything that is broken (e2e checks what unit tests cannot: the page, the network),
# unless -x / --exitfirst / --maxfail asked to stop at the first failure. A stage that
# collects no tests (pytest's exit 5) fails the run: a suite that vanished or a typo in a path
# must never pass as green. With -k/-m filters one stage may select nothing; the run then
# fails only when no stage ran a test.
set -euo pipefail
cd "$(dirname "$0")"

stage() { printf '\ntest.sh: %s\n' "$*"; }

# -- split the arguments: options (to both stages) and paths (each to its own stage)
options=()
unit_paths=()
e2e_paths=()
paths_given=
filtered=
stop_first=
expect_value=
for arg in "$@"; do
  if [ -n "$expect_value" ]; then options+=("$arg"); expect_value=; continue; fi
  case "$arg" in
    -k|-m) options+=("$arg"); expect_value=1; filtered=1 ;;
    -k*|-m*) options+=("$arg"); filtered=1 ;;
    -x|--exitfirst|--maxfail=*) options+=("$arg"); stop_first=1 ;;
    -r*|--tb=*) options+=("$arg") ;;
    -x*|-[!-]*x*) options+=("$arg"); stop_first=1 ;;   # a cluster such as -xq or -qx
    --maxfail) options+=("$arg"); expect_value=1; stop_first=1 ;;
    -p|-o|-c|-W|--deselect|--ignore|--ignore-glob|--rootdir|--junitxml|--durations|--tb|-r|--basetemp|--confcutdir)
      options+=("$arg"); expect_value=1 ;;
    -*) options+=("$arg") ;;
    *)
      path="${arg#./}"
      case "$path" in
        tests|tests/*) unit_paths+=("$path"); paths_given=1 ;;
        e2e|e2e/*) e2e_paths+=("$path"); paths_given=1 ;;
        *) echo "test.sh: $arg: not under tests/ or e2e/ (give an option's value as --opt=value)" >&2
           exit 2 ;;
      esac ;;
  esac
done
if [ -z "$paths_given" ]; then
  unit_paths=(tests)
  e2e_paths=(e2e)
fi

stage "setup"
. tools/setup.sh
ensure_chromium
ensure_firefox
ensure_coturn
ensure_node_modules
ensure_venv

stage "build"
python3 tools/build.py

# run_stage NAME PATHS...: pytest on PATHS; sets rc_NAME (pytest's exit status, or "skipped")
run_stage() {
  local name="$1"; shift
  if [ "$#" = 0 ]; then
    stage "$name: skipped (no $name paths given)"
    eval "rc_$name=skipped"
    return
  fi
  stage "$name ($*)"
  local rc=0
  .venv/bin/python -m pytest "$@" ${options[@]+"${options[@]}"} || rc=$?
  eval "rc_$name=$rc"
}

run_stage unit ${unit_paths[@]+"${unit_paths[@]}"}
if [ -n "$stop_first" ] && [ "$rc_unit" != 0 ] && [ "$rc_unit" != skipped ] && [ "$rc_unit" != 5 ]; then
  stage "e2e: skipped (the unit stage failed and -x/--maxfail asked to stop at the first failure)"
  rc_e2e=skipped
else
  run_stage e2e ${e2e_paths[@]+"${e2e_paths[@]}"}
fi

# -- the verdict: any failure fails; "no tests collected" (5) fails unless a -k/-m filter
#    explains it and the other stage ran tests
status=0
ran=
for name in unit e2e; do
  eval "rc=\$rc_$name"
  case "$rc" in
    0) ran=1 ;;
    skipped) ;;
    5) if [ -z "$filtered" ]; then
         echo "test.sh: $name collected no tests (pytest exit 5): that is a failure" >&2
         status=5
       fi ;;
    *) [ "$status" = 0 ] && status="$rc" ;;
  esac
done
if [ "$status" = 0 ] && [ -z "$ran" ]; then
  echo "test.sh: no stage ran a test (pytest exit 5): that is a failure" >&2
  status=5
fi
stage "done: unit $rc_unit, e2e $rc_e2e -> exit $status"
exit "$status"
