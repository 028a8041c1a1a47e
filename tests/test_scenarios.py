"""Rule scenarios (docs/scenarios.md) run through the project's runner.

Every `tests/scenarios/*.json` holds expectations worked out by hand from docs/rules.md and
docs/scenarios.md; `python -m crisp_core.scenario --check` must agree with them (exit 0). Every
`tests/scenarios/invalid/*.json` must be rejected as a file: exit 2, one line on stderr, no
traceback.
"""
import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
VALID = sorted(SCENARIOS.glob("*.json"))
INVALID = sorted((SCENARIOS / "invalid").glob("*.json"))


def run(*args, check=True):
    cmd = [sys.executable, "-m", "crisp_core.scenario"]
    if check:
        cmd.append("--check")
    cmd += [str(a) for a in args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_there_are_scenarios():
    assert len(VALID) >= 40
    assert len(INVALID) >= 6


@pytest.mark.parametrize("path", VALID, ids=[p.name for p in VALID])
def test_scenario_file_is_documented(path):
    data = json.loads(path.read_text())
    assert data.get("rules"), "name the rules the scenario checks"
    assert data.get("why"), "explain the expected outcome"
    assert data.get("expect"), "a scenario without expect checks nothing"


@pytest.mark.parametrize("path", VALID, ids=[p.name for p in VALID])
def test_scenario(path):
    proc = run(path)
    assert proc.returncode == 0, (
        f"{path.name}: runner exit {proc.returncode}\n--- stderr ---\n{proc.stderr}"
    )
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout
    out = json.loads(lines[0])
    assert out["name"] == json.loads(path.read_text())["name"]


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_invalid_file(path):
    proc = run(path)
    assert proc.returncode == 2, f"exit {proc.returncode}, stderr: {proc.stderr}"
    assert proc.stdout == "", proc.stdout
    err = proc.stderr.strip()
    assert err, "no message on stderr"
    assert "\n" not in err, f"more than one line on stderr:\n{proc.stderr}"
    assert "Traceback" not in err


def test_output_shape_without_check():
    path = SCENARIOS / "r1_2_canonical_deck_deal.json"
    proc = run(path, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) >= {"name", "start", "steps", "state"}
    assert set(out["state"]) == {"phase", "round", "dealer", "turn", "caller", "hands", "held",
                                 "pending_draws", "deck", "discard", "round_points", "scores",
                                 "winners"}


def test_check_fails_on_wrong_expectation(tmp_path):
    data = json.loads((SCENARIOS / "r1_2_canonical_deck_deal.json").read_text())
    data["expect"]["state"]["turn"] = 2
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data))
    proc = run(wrong)
    assert proc.returncode == 1
    assert proc.stderr.strip()
    assert len(proc.stdout.splitlines()) == 1


@pytest.mark.parametrize("check", [True, False])
def test_mix_of_valid_and_invalid_files(check):
    first, second = VALID[0], VALID[-1]
    bad = SCENARIOS / "invalid" / "bad_json.json"
    proc = run(first, bad, second, check=check)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stdout.splitlines()
    names = [json.loads(line)["name"] for line in lines]
    assert names == [json.loads(p.read_text())["name"] for p in (first, second)]
    assert proc.stderr.strip(), "the invalid file gets a line on stderr"
    assert "Traceback" not in proc.stderr
