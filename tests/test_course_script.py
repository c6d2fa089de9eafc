"""The ``course`` script reads its options wherever they stand and refuses a wrong one before installing anything.

Each case runs the real script; a refusal must come before ``setup`` (which would print "environment ..." or
"creating .venv"), so a typo never costs a student a 3 GB install, and the message says what to do.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def course(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ROOT / "course"), *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.parametrize(("args", "said"), [
    (["start", "--no-browser", "--lang", "de"], "unknown language 'de'"),  # --lang after another option
    (["start", "--no-browser", "--lang=xx"], "unknown language 'xx'"),
    (["start", "--no-browser", "--lang"], "--lang needs a language"),
    (["site", "--bogus"], "unknown option for ./course site: --bogus"),
    (["site", "--out"], "--out needs a folder"),
    (["site", "--out", "README.md"], "--out README.md is a file, not a folder"),
    (["test", "--bogus"], "unknown option for ./course test: --bogus"),
    (["assignments", "--lang=de"], "unknown language 'de'"),
    (["assignments", "--out", "README.md", "--lang", "fr"], "--out README.md is a file, not a folder"),
    (["assignments", "--exchange"], "--exchange needs a value"),
    (["assignments", "--bogus"], "unknown option for ./course assignments: --bogus"),
    (["test", "--hub", "--quick"], "./course test --hub runs the JupyterHub test alone"),
])
def test_a_wrong_option_is_refused_before_setup_with_what_to_do(args: list[str], said: str) -> None:
    done = course(*args)
    assert done.returncode == 1, done
    assert said in done.stderr and "what to do:" in done.stderr, done.stderr
    assert "environment" not in done.stdout and "creating .venv" not in done.stdout, done.stdout
