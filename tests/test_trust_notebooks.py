"""tools/trust_notebooks.py signs the notebooks of the folders it is given, sub-folders included (the French
edition lives in notebooks/fr/), never a checkpoint."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_tool():
    spec = importlib.util.spec_from_file_location("trust_notebooks", ROOT / "tools" / "trust_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sub_folders_are_signed_and_checkpoints_are_not(tmp_path):
    for name in ("00_a.ipynb", "fr/00_a.ipynb", ".ipynb_checkpoints/00_a-checkpoint.ipynb",
                 "fr/.ipynb_checkpoints/00_a-checkpoint.ipynb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    found = [p.relative_to(tmp_path).as_posix() for p in load_tool().notebooks_in([str(tmp_path)])]
    assert found == ["00_a.ipynb", "fr/00_a.ipynb"]
