"""Gates this project's shuffle in its test suite: `pytest` fails when it is biased.

`pip install shuffle-audit` (the wheel) puts the `shuffle-audit` command on the PATH;
these tests run it as any program is run. `check` exits 0 when every case in
shuffle-audit.toml gets the verdict it expects, 1 when one does not (a biased shuffle),
and 2 when the suite itself is broken. Its table goes to pytest's captured output, so a
failure shows which case and which test caught it.
"""

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def shuffle_audit(*args, cwd=HERE):
    """Runs shuffle-audit, prints what it said (pytest shows it on failure), returns it."""
    program = shutil.which("shuffle-audit")
    if program is None:
        pytest.fail("shuffle-audit is not on the PATH: pip install shuffle-audit")
    result = subprocess.run(
        [program, *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    print(result.stdout, result.stderr, sep="\n")
    return result


def test_our_shuffle_is_fair():
    result = shuffle_audit("check", "--config", "shuffle-audit.toml")
    assert result.returncode == 0, "shuffle-audit check: a shuffle is not what it should be"
    assert "check passed" in result.stdout


def test_a_biased_shuffle_is_caught(tmp_path):
    # The legacy naive swap, claimed fair: the gate must refuse it (exit 1), not break (2).
    suite = tmp_path / "legacy.toml"
    command = [sys.executable, str(HERE / "my_shuffle.py"), "--shuffle", "legacy",
               "--seed", "{seed}", "--count", "{trials}"]
    # A JSON array of strings is a TOML array too (the same quoting and escapes).
    suite.write_text(
        "[[case]]\n"
        'name = "legacy_shuffle"\n'
        f"command = {json.dumps(command, ensure_ascii=False)}\n"
        "trials = 100000\n"
        "seed = 1\n"
        'expect = "fair"\n'
    )
    result = shuffle_audit("check", "--config", str(suite), cwd=tmp_path)
    assert result.returncode == 1, "the naive swap should have failed the gate"
    assert "NOT AS EXPECTED" in result.stdout
    assert "legacy_shuffle" in result.stdout
