"""The start page's environment check: right verdicts, useful advice, deterministic output."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest

from course_lib.i18n import set_language
from course_lib.lessons import envcheck

ROOT = Path(__file__).resolve().parent.parent


def rows_by_component(rows: list[envcheck.Row]) -> dict[str, envcheck.Row]:
    return {row.component: row for row in rows}


def pretend_missing(monkeypatch: pytest.MonkeyPatch, *missing: str) -> None:
    """Make importlib.metadata report ``missing`` distributions as not installed."""
    real = importlib.metadata.version

    def version(dist: str) -> str:
        if dist in missing:
            raise importlib.metadata.PackageNotFoundError(dist)
        return real(dist)

    monkeypatch.setattr(importlib.metadata, "version", version)


def pretend_version(monkeypatch: pytest.MonkeyPatch, dist: str, found: str) -> None:
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda d: found if d == dist else real(d))


def test_this_environment_passes_without_importing_frameworks() -> None:
    report = envcheck.report(import_frameworks=False)
    assert report.ok, repr(report)
    assert [row.component for row in report.rows] == [
        "Python", "TensorFlow", "PyTorch", "NumPy", "graphviz (Python package)", "pygraphviz SVG layout",
        "dot program (Graphviz)", "ipywidgets", "JupyterLab",
    ]  # fmt: skip


def test_full_check_imports_frameworks_and_lays_out_a_graph() -> None:
    rows = rows_by_component(envcheck.check(import_frameworks=True))
    assert rows["TensorFlow"].ok and rows["PyTorch"].ok, rows
    assert rows["pygraphviz SVG layout"].found.endswith("lays out SVG")


def test_missing_torch_is_a_problem_that_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_missing(monkeypatch, "torch")
    report = envcheck.report(import_frameworks=False)
    torch_row = rows_by_component(list(report.rows))["PyTorch"]
    assert (torch_row.found, torch_row.ok, torch_row.status) == ("not installed", False, "PROBLEM")
    assert torch_row.found.msgid is envcheck.NOT_INSTALLED and torch_row.todo.msgid is envcheck.FIX_INSTALL
    assert "./course start" in torch_row.todo and "environment.yml" in torch_row.todo
    assert not report.ok and report.summary().startswith("1 problem to fix: PyTorch. See 'what to do' in its row.")
    assert "PROBLEM" in repr(report) and "-> Close JupyterLab and run ./course start" in repr(report)
    assert "&#10008; PROBLEM" in report._repr_html_()


def test_missing_frameworks_are_not_imported_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_missing(monkeypatch, "tensorflow-cpu", "tensorflow", "torch")
    started: list[list[str]] = []
    monkeypatch.setattr(envcheck, "_start_imports", lambda modules: started.append(modules) or {})
    rows = rows_by_component(envcheck.check(import_frameworks=True))
    assert started == [["pygraphviz"]]
    assert rows["TensorFlow"].found.msgid is rows["PyTorch"].found.msgid is envcheck.NOT_INSTALLED


def test_wrong_version_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_version(monkeypatch, "tensorflow-cpu", "2.16.1")
    row = rows_by_component(envcheck.check(import_frameworks=False))["TensorFlow"]
    assert (row.found, row.ok) == ("2.16.1", False)
    assert row.todo.msgid is envcheck.WRONG_VERSION and row.todo.values["dist"] == "tensorflow-cpu"
    assert row.todo.startswith("Wrong tensorflow-cpu version.")


def test_cpu_build_label_is_the_pinned_release(monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_version(monkeypatch, "torch", "2.13.0+cpu")
    row = rows_by_component(envcheck.check(import_frameworks=False))["PyTorch"]
    assert (row.found, row.ok) == ("2.13.0+cpu", True)


def test_conda_tensorflow_name_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    """conda-forge installs the distribution as 'tensorflow', pip as 'tensorflow-cpu'."""
    pretend_missing(monkeypatch, "tensorflow-cpu")
    pretend_version(monkeypatch, "tensorflow", "2.21.0")
    assert rows_by_component(envcheck.check(import_frameworks=False))["TensorFlow"].ok


def test_broken_import_is_reported_with_its_last_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_start(modules: list[str]) -> dict[str, subprocess.Popen]:
        code = "import sys; sys.stderr.write('Traceback...\\nImportError: libfoo.so: cannot open\\n'); sys.exit(1)"
        return {m: subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True) for m in modules}  # fmt: skip

    monkeypatch.setattr(envcheck, "_start_imports", fake_start)
    rows = rows_by_component(envcheck.check(import_frameworks=True))
    assert rows["PyTorch"].found.endswith(", but import torch fails: ImportError: libfoo.so: cannot open")
    assert rows["PyTorch"].found.msgid is envcheck.IMPORT_FAILS
    assert rows["PyTorch"].found.values["error"] == "ImportError: libfoo.so: cannot open"
    assert not rows["PyTorch"].ok and rows["PyTorch"].todo.msgid is envcheck.BROKEN_PACKAGE
    layout = rows["pygraphviz SVG layout"]
    assert not layout.ok
    assert layout.found.msgid is envcheck.LAYOUT_FAILS and layout.todo.msgid is envcheck.LAYOUT_FALLBACK


def test_missing_widget_extension(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "prefix", str(tmp_path))  # a prefix without share/jupyter/labextensions
    row = rows_by_component(envcheck.check(import_frameworks=False))["ipywidgets"]
    assert not row.ok and row.found.msgid is envcheck.EXTENSION_MISSING and row.todo.msgid is envcheck.WIDGETS_AS_TEXT


def test_wrong_python_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "version_info", (3, 12, 1, "final", 0))
    row = rows_by_component(envcheck.check(import_frameworks=False))["Python"]
    assert (row.found, row.ok) == ("3.12", False)
    assert row.todo.msgid is envcheck.WRONG_PYTHON and "Change Kernel" in row.todo


def test_dot_is_optional_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(envcheck.shutil, "which", lambda name: None)
    row = rows_by_component(envcheck.check(import_frameworks=False))["dot program (Graphviz)"]
    assert (row.found, row.ok, row.status) == ("not on PATH", True, "optional")
    assert row.found.msgid is envcheck.DOT_FOUND["missing"] and row.todo.msgid is envcheck.DOT_ADVICE


def test_output_is_deterministic() -> None:
    first, second = envcheck.report(import_frameworks=False), envcheck.report(import_frameworks=False)
    assert repr(first) == repr(second) and first._repr_html_() == second._repr_html_()
    assert not re.search(r"\d+(\.\d+)? ?(ms|s)\b", repr(first)), "no timings in the report"


def test_html_escapes_found_text(monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_version(monkeypatch, "numpy", "<b>2.0</b>")
    html = envcheck.report(import_frameworks=False)._repr_html_()
    assert "<b>2.0</b>" not in html and "&lt;b&gt;2.0&lt;/b&gt;" in html


def test_pins_match_requirements() -> None:
    """envcheck's expected versions are the ones requirements.txt installs (so the start page never disagrees)."""
    pins = dict(re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)", (ROOT / "requirements.txt").read_text(), re.MULTILINE))
    assert pins["tensorflow-cpu"] == envcheck.TENSORFLOW
    assert pins["torch"] == envcheck.TORCH
    assert pins["graphviz"] == envcheck.GRAPHVIZ_PY
    assert pins["pygraphviz"] == envcheck.PYGRAPHVIZ
    assert pins["ipywidgets"].startswith(envcheck.IPYWIDGETS + ".")
    assert pins["jupyterlab"].startswith(envcheck.JUPYTERLAB + ".")
    assert pins["numpy"].startswith("2.")


# ---------------------------------------------------------------- the optional dot program, whatever it prints
def fake_dot(tmp_path: Path, script: str) -> str:
    """A ``dot`` program on PATH that runs ``script`` (sh) for ``dot -V``."""
    dot = tmp_path / "dot"
    dot.write_text("#!/bin/sh\n" + script + "\n")
    dot.chmod(0o755)
    return str(dot)


@pytest.mark.parametrize(
    ("script", "found"),
    [
        ("echo 'dot - graphviz version 2.43.0 (0)' >&2", "dot 2.43.0 on PATH"),
        ("echo 'dot - graphviz version 12.2.1 (20241206.2353)' >&2", "dot 12.2.1 on PATH"),
        ("echo 'dot - graphviz version 2.50.0~rc1 (20211204.2007)'", "dot 2.50.0 on PATH"),
        ("true", "dot on PATH, version unknown"),
        ("echo 'graphviz, version unknown' >&2", "dot on PATH, version unknown"),
        ("echo 'version 1.2.3.4.5 build 77' >&2", "dot on PATH, version unknown"),
        ("printf '\\377\\376\\000garbage' >&2", "dot on PATH, version unknown"),
        ("echo 'dot: error while loading shared libraries: libgvc.so.6' >&2; exit 127",
         "dot on PATH, but dot -V fails"),
        ("echo 'dot - graphviz version 2.43.0 (0)' >&2; exit 1", "dot on PATH, but dot -V fails"),
        ("kill -9 $$", "dot on PATH, but dot -V fails"),
    ],
)
def test_any_dot_output_gives_one_of_the_known_texts(tmp_path: Path, script: str, found: str) -> None:
    said = envcheck._dot_version(fake_dot(tmp_path, script))
    assert said == found and said.msgid in envcheck.DOT_FOUND.values()
    assert found in {f.format(version=found.split()[1]) for f in envcheck.DOT_FOUND.values()}


def test_a_dot_that_cannot_run_or_hangs_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    not_executable = tmp_path / "dot"
    not_executable.write_text("not a program")
    assert envcheck._dot_version(str(not_executable)) == "dot on PATH, but dot -V fails"

    def hang(*args, **kwargs):
        raise subprocess.TimeoutExpired(cmd="dot -V", timeout=20)

    monkeypatch.setattr(envcheck.subprocess, "run", hang)
    assert envcheck._dot_version("/usr/bin/dot") == "dot on PATH, but dot -V fails"


def test_the_dot_row_reads_the_dot_program_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_dot(tmp_path, "echo 'dot - graphviz version 9.0.0 (0)' >&2")
    monkeypatch.setenv("PATH", str(tmp_path))
    row = rows_by_component(envcheck.check(import_frameworks=False))["dot program (Graphviz)"]
    assert (row.found, row.ok, row.status) == ("dot 9.0.0 on PATH", True, "optional")


def test_the_table_has_the_same_columns_with_or_without_dot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the dot row's found text changes: every other line of the start page's table stays as it is."""

    def lines(found: str) -> list[str]:
        monkeypatch.setattr(envcheck, "_check_dot", lambda: envcheck.Row("dot program (Graphviz)", "optional",
                                                                         found, True, "advice", optional=True))
        # short rows everywhere else, so that the dot row would be the widest "found" if nothing reserved its width
        monkeypatch.setattr(envcheck, "_check_widgets", lambda: envcheck.Row("ipywidgets", "8.1", "8.1.8", True))
        return [line for line in repr(envcheck.report(import_frameworks=False)).splitlines()
                if not line.startswith("dot program")]

    texts = [envcheck.DOT_FOUND["version"].format(version="999.999.999"), *envcheck.DOT_FOUND.values()]
    assert max(map(len, texts)) == envcheck.DOT_FOUND_WIDTH
    variants = [lines(found) for found in texts]
    assert all(v == variants[0] for v in variants)
    assert max(len(line) for line in variants[0]) > envcheck.DOT_FOUND_WIDTH


def test_the_table_has_the_same_columns_with_or_without_dot_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """The French start page's table: its "found" column is as wide as the widest French dot text."""
    set_language("fr")
    monkeypatch.setattr(envcheck, "_check_widgets", lambda: envcheck.Row("ipywidgets", "8.1", "8.1.8", True))
    texts = [envcheck.dot_found(out, rc) for out, rc in [(None, 0), ("version 999.999.999", 0), ("", 0), ("x", 1)]]
    assert envcheck.dot_found_width() == max(map(len, texts)) > envcheck.DOT_FOUND_WIDTH  # the French is longer

    def lines(found: str) -> list[str]:
        monkeypatch.setattr(envcheck, "_check_dot", lambda: envcheck.Row(envcheck.DOT_PROGRAM, "facultatif", found,
                                                                         True, "conseil", optional=True))
        return [line for line in repr(envcheck.report(import_frameworks=False)).splitlines()
                if not line.startswith("programme dot")]

    variants = [lines(found) for found in texts]
    assert all(v == variants[0] for v in variants) and variants[0][0].startswith("Les 9 vérifications ont réussi")


def test_the_import_children_speak_the_language_of_the_notebook(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child interpreter gets the language set in the notebook (not the one the kernel started with): what it
    says in its error ends up in the row, in that language."""
    monkeypatch.delenv("COURSE_LANG", raising=False)
    set_language("fr")
    assert envcheck._child_env()["COURSE_LANG"] == "fr"
    said_in_child = "from course_lib import render\nrender.set_theme('disco')\n"
    monkeypatch.setitem(envcheck._IMPORT_PROGRAMS, "torch", said_in_child)
    pretend_version(monkeypatch, "torch", envcheck.TORCH)
    procs = envcheck._start_imports(["torch"])
    row = envcheck._check_framework("PyTorch", ("torch",), envcheck.TORCH, "torch", procs["torch"])
    assert not row.ok and row.found.msgid is envcheck.IMPORT_FAILS
    assert row.found.values["error"] == ("ValueError: thème inconnu 'disco'\u00a0; "
                                         "les thèmes sont\u00a0: classroom, presenter")
    assert "mais import torch échoue" in row.found and "PROBLÈME" in repr(envcheck.Report((row,)))
    set_language("en")
    assert envcheck._child_env()["COURSE_LANG"] == "en"
