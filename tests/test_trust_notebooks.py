"""tools/trust_notebooks.py signs the notebooks of the folders it is given, sub-folders included (the French
edition lives in notebooks/fr/), never a checkpoint."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

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


def _notebook(path: Path, *outputs: dict) -> Path:
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1", outputs=list(outputs))])
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def _shown(mime: str, text: str) -> dict:
    import nbformat

    return nbformat.v4.new_output("display_data", data={mime: text, "text/plain": "x"})


PLANTED = [  # an output that runs once the notebook is trusted -> what the refusal names
    (_shown("text/html", "<b>hi</b><script>window.__planted = 1</script>"), "text/html"),
    (_shown("text/html", '<img src="x" onerror="window.__planted = 1">'), "text/html"),
    (_shown("text/html", '<a href="javascript:window.__planted = 1">go</a>'), "text/html"),
    (_shown("image/svg+xml", '<svg onload="window.__planted = 1"><rect width="2" height="2"/></svg>'),
     "image/svg+xml"),
    (_shown("application/javascript", "window.__planted = 1"), "application/javascript"),
]


@pytest.mark.parametrize(("output", "named"), PLANTED, ids=[m for _, m in PLANTED])
def test_a_notebook_carrying_what_would_run_is_named_not_signed(tmp_path, monkeypatch, output, named):
    import nbformat
    from nbformat.sign import NotebookNotary

    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "data"))
    tool = load_tool()
    good = _notebook(tmp_path / "nb" / "00_good.ipynb", _shown("text/html", "<table><tr><td>1</td></tr></table>"),
                     _shown("image/svg+xml", '<svg viewBox="0 0 2 2"><rect width="2" height="2"/></svg>'))
    bad = _notebook(tmp_path / "nb" / "01_planted.ipynb", output)
    assert tool.would_run(good) == [] and named in tool.would_run(bad)[0] and "cell 1" in tool.would_run(bad)[0]
    ok, said = tool.trust([str(tmp_path / "nb")])
    assert not ok and said.startswith(f"not trusted: {bad} (cell 1") and f"not trusted: {good}" not in said
    notary = NotebookNotary(data_dir=str(tmp_path / "data"))
    assert notary.check_signature(nbformat.read(good, as_version=4))
    assert not notary.check_signature(nbformat.read(bad, as_version=4))


COURSE = sorted((ROOT / "notebooks").rglob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", COURSE, ids=[p.relative_to(ROOT).as_posix() for p in COURSE])
def test_every_course_notebook_is_trusted_as_it_is(path):
    """The course's own outputs carry nothing that would run: ./course start signs every one of them."""
    assert load_tool().would_run(path) == []
