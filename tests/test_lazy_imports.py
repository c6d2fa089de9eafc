"""`import course_lib` must stay light: TensorFlow (~3 s), PyTorch (~1.3 s), graphviz and ipywidgets load only
when a notebook actually uses them. Checked in a fresh interpreter, where nothing was imported before."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("tensorflow", "torch", "graphviz", "pygraphviz", "ipywidgets", "keras", "matplotlib")


def modules_loaded_by(statement: str) -> list[str]:
    """Top-level names of the HEAVY modules in sys.modules after running ``statement`` in a new interpreter."""
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    return [name for name in HEAVY if name in loaded]


@pytest.mark.parametrize(
    "statement",
    [
        "import course_lib",
        "import course_lib.envcheck",  # the start page's first cell
        "import course_lib as cl; from course_lib import static, dynamic",  # the engines are pure numpy
    ],
)
def test_import_loads_no_framework(statement: str) -> None:
    assert modules_loaded_by(statement) == [], f"{statement!r} imported heavy modules"


def test_the_check_itself_detects_a_heavy_import() -> None:
    """Guard against a vacuous test: importing a heavy module is seen."""
    assert modules_loaded_by("import graphviz") == ["graphviz"]
