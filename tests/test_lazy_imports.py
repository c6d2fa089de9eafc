"""`import course_lib` must stay light: TensorFlow (~3 s), PyTorch (~1.3 s), graphviz and ipywidgets load only
when a notebook actually uses them. Checked in a fresh interpreter, where nothing was imported before."""

from __future__ import annotations

import json
import os
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
        "import course_lib.lessons.envcheck",  # the start page's first cell
        "import course_lib as cl; from course_lib import static, dynamic",  # the engines are pure numpy
        "import course_lib.adapters",
        # the loader, the quiet helper and every adapter import their framework only when called
        "from course_lib.adapters import counters, deployment, frameworks, loader, quiet, tensorflow, torch",
        "from course_lib.lessons import compiling, exercises_05, exercises_08, sequences",
    ],
)
def test_import_loads_no_framework(statement: str) -> None:
    assert modules_loaded_by(statement) == [], f"{statement!r} imported heavy modules"


def test_the_check_itself_detects_a_heavy_import() -> None:
    """Guard against a vacuous test: importing a heavy module is seen."""
    assert modules_loaded_by("import graphviz") == ["graphviz"]


FRAMEWORKS = ("tensorflow", "torch", "keras")


def test_no_module_loads_a_framework_or_changes_the_environment_at_import() -> None:
    """Every module of course_lib imported, in a fresh interpreter without TF_CPP_MIN_LOG_LEVEL: no framework is
    loaded and os.environ is unchanged (the loader sets TF_CPP_MIN_LOG_LEVEL when called, never at import)."""
    code = (
        "import importlib, json, os, pkgutil, sys\n"
        "import course_lib\n"
        "before = dict(os.environ)\n"
        "for m in pkgutil.walk_packages(course_lib.__path__, 'course_lib.'):\n"
        "    importlib.import_module(m.name)\n"
        "changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))\n"
        "print(json.dumps([changed, sorted({m.split('.')[0] for m in sys.modules})]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                         env=env)
    changed, loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert changed == []
    assert [name for name in FRAMEWORKS if name in loaded] == []


def test_the_loader_sets_the_log_level_when_called() -> None:
    """The counterpart of the test above, so it cannot pass vacuously: calling the loader does change it."""
    pytest.importorskip("tensorflow")
    code = "import os\nfrom course_lib.adapters.loader import load_tensorflow\nload_tensorflow()\n" \
           "print(os.environ.get('TF_CPP_MIN_LOG_LEVEL'))"
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                         env=env)
    assert out.stdout.strip().splitlines()[-1] == "3"
