"""Environment check for the start page: is everything the course needs installed and working?

``check()`` returns one :class:`Row` per component (what is required, what was found, whether it is fine and
what to do if not); ``report()`` wraps the rows in a :class:`Report` that shows itself as an HTML table in
Jupyter and as a plain-text table elsewhere.

Two rules shape this module:

* Importing it stays cheap and safe: only the standard library at import time. TensorFlow and PyTorch are
  imported in *subprocesses* (importing TensorFlow takes ~3 s and prints C++ log lines; a child process keeps
  both out of the notebook and proves a clean interpreter can import them).
* The output is deterministic, so nbval (strict) can compare the start page's committed output: no timings,
  no paths, Python shown as ``major.minor``. The one row that legitimately differs between machines (the
  optional ``dot`` program) has a fixed status and advice; only its "found" text varies and the nbval
  sanitize file normalizes it (in English and in French).

It speaks the course's language (:mod:`course_lib.i18n`): a row's texts are made in the language of the moment
when :func:`check` runs (each a :class:`~course_lib.i18n.Said`, so a test can ask which message it is); the
component names and statuses stay English keys (``rows["PyTorch"]``, ``row.status == "PROBLEM"``) and are
translated when the table is shown. The child processes get the language too (``COURSE_LANG``).

>>> from course_lib.lessons import envcheck
>>> rows = envcheck.check(import_frameworks=False)
>>> rows[0].component
'Python'
"""

from __future__ import annotations

import html
import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..i18n import N_, Plural, get_language, number, say
from ..i18n import gettext as _

#: Pins of the course (requirements.txt and environment.yml carry the same ones; a test keeps them together).
PYTHON = (3, 11)
TENSORFLOW = "2.21.0"
TORCH = "2.13.0"
GRAPHVIZ_PY = "0.21"
PYGRAPHVIZ = "2.0.4"
IPYWIDGETS = "8.1"
JUPYTERLAB = "4.6"

#: What to do when a package is missing or has the wrong version: the course's two install paths.
FIX_INSTALL = N_(
    "Close JupyterLab and run ./course start in the course folder (it installs what is missing); "
    "conda users: conda env update -f environment.yml"
)
# The texts of the rows (English message ids; a row holds them said in the language of the moment).
NOT_INSTALLED = N_("not installed")
WRONG_VERSION = N_("Wrong {dist} version. {fix}")
WRONG_PYTHON = N_("This kernel runs another Python. Install Python 3.11 and start the course with ./course start "
                  "(its .venv uses 3.11), or pick the course's kernel in Kernel > Change Kernel")
IMPORT_FAILS = N_("{found}, but import {module} fails: {error}")
BROKEN_PACKAGE = N_("The package is installed but broken. Reinstall it: rm -rf .venv, then ./course start. {fix}")
IMPORT_TIMEOUT = N_("import took longer than {seconds} s")
NO_ERROR_MESSAGE = N_("no error message")
PYGRAPHVIZ_REQUIRED = N_("{version} (lays out SVG in-process)")
LAYOUT_FAILS = N_("{found}, but layout fails: {error}")
LAYOUT_FALLBACK = N_("Graphs will fall back to the dot program (row below) or to DOT text. {fix}")
LAYS_OUT_SVG = N_("{found}, lays out SVG")
OPTIONAL = N_("optional")
DOT_ADVICE = N_("Optional: pygraphviz lays graphs out in-process; dot is only the fallback renderer "
                "(apt-get install graphviz, brew install graphviz or conda install graphviz)")
WIDGETS_FOUND = N_("{widgets} + jupyterlab_widgets {lab}")
WRONG_WIDGETS = N_("Wrong widget versions. {fix}")
EXTENSION_MISSING = N_("{found}, front-end extension missing")
WIDGETS_AS_TEXT = N_("Widgets would show as text. Reinstall jupyterlab_widgets in the environment JupyterLab runs "
                     "from. {fix}")
#: The components whose names are words (the others are product names): a row's ``component`` stays this English
#: key, translated when the table is shown.
GRAPHVIZ_PACKAGE = N_("graphviz (Python package)")
PYGRAPHVIZ_LAYOUT = N_("pygraphviz SVG layout")
DOT_PROGRAM = N_("dot program (Graphviz)")
#: A row's status (its key) as the table shows it.
STATUS_WORDS = {"OK": N_("OK"), "PROBLEM": N_("PROBLEM"), "optional": N_("optional")}

#: Framework imports and the layout run in child processes; a cold first import of TensorFlow can take ~10 s.
IMPORT_TIMEOUT_S = 180

_IMPORT_PROGRAMS = {
    # Each program imports the framework and runs one tiny op: an import that "works" but cannot compute
    # (a CPU without the instructions a wheel was built for, a broken BLAS) is still a failure.
    "tensorflow": "import tensorflow as tf\nassert float(tf.constant(1.0) + 1.0) == 2.0\n",
    "torch": "import torch\nassert float(torch.tensor(1.0) + 1.0) == 2.0\n",
    "pygraphviz": (
        "import pygraphviz\ng = pygraphviz.AGraph(directed=True)\ng.add_edge('x', 'sin')\n"
        "svg = g.draw(format='svg', prog='dot')\nassert b'<svg' in svg, 'layout returned no SVG'\n"
    ),
}


@dataclass(frozen=True)
class Row:
    """One line of the environment check.

    ``ok`` is False only for a problem the student must fix; ``optional`` rows are informational and never
    block (their ``ok`` is always True).
    """

    component: str
    required: str
    found: str
    ok: bool
    todo: str = ""
    optional: bool = False

    @property
    def status(self) -> str:
        """A word that reads without colour (projectors, grey-scale prints)."""
        if self.optional:
            return "optional"
        return "OK" if self.ok else "PROBLEM"


def _version(dist: str) -> str | None:
    """Installed version of a distribution, or None. Reads metadata only: nothing is imported."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _first_version(*dists: str) -> tuple[str | None, str | None]:
    """(distribution, version) of the first of ``dists`` that is installed (pip and conda name some differently)."""
    for dist in dists:
        found = _version(dist)
        if found is not None:
            return dist, found
    return None, None


def _release(version: str) -> str:
    """'2.13.0+cpu' -> '2.13.0' (a local build label does not change the release)."""
    return version.split("+", 1)[0]


def _last_line(text: str) -> str:
    """The last non-empty line of an error output (where Python puts the exception), shortened."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return (lines[-1] if lines else _(NO_ERROR_MESSAGE))[:200]


def _child_env() -> dict[str, str]:
    """The environment of a child interpreter: quiet TensorFlow, no warnings, and the course's language now (a
    child that says something says it in the language the notebook set, not the one the kernel started with)."""
    return dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore", COURSE_LANG=get_language())


def _start_imports(modules: list[str]) -> dict[str, subprocess.Popen]:
    """Start one child interpreter per framework, all at once (they overlap on a multi-core machine)."""
    env = _child_env()
    procs = {}
    for module in modules:
        procs[module] = subprocess.Popen(
            [sys.executable, "-c", _IMPORT_PROGRAMS[module]],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
    return procs


def _import_error(proc: subprocess.Popen) -> str | None:
    """None when the child imported and computed, else a one-line reason."""
    try:
        _, err = proc.communicate(timeout=IMPORT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return say(IMPORT_TIMEOUT, seconds=number(IMPORT_TIMEOUT_S))
    return None if proc.returncode == 0 else _last_line(err)


def _check_python() -> Row:
    major, minor = sys.version_info[:2]
    found = f"{major}.{minor}"  # no patch level: 3.11.7 and 3.11.9 are equally fine and nbval compares this text
    ok = (major, minor) == PYTHON
    todo = "" if ok else say(WRONG_PYTHON)
    return Row("Python", "3.11", found, ok, todo)


def _check_framework(
    component: str, dists: tuple[str, ...], pin: str, module: str, proc: subprocess.Popen | None
) -> Row:
    dist, found = _first_version(*dists)
    if found is None:
        if proc is not None:
            proc.kill()
            proc.communicate()
        return Row(component, pin, say(NOT_INSTALLED), False, say(FIX_INSTALL))
    if _release(found) != pin:
        if proc is not None:
            proc.kill()
            proc.communicate()
        return Row(component, pin, found, False, say(WRONG_VERSION, dist=dist, fix=_(FIX_INSTALL)))
    error = _import_error(proc) if proc is not None else None
    if error is not None:
        return Row(component, pin, say(IMPORT_FAILS, found=found, module=module, error=error), False,
                   say(BROKEN_PACKAGE, fix=_(FIX_INSTALL)))
    return Row(component, pin, found, True)


def _check_package(component: str, dist: str, required: str, accept: str) -> Row:
    """A plain package: ``accept`` is the release prefix that is fine ('2' accepts numpy 2.x, '0.21' 0.21.*)."""
    found = _version(dist)
    if found is None:
        return Row(component, required, say(NOT_INSTALLED), False, say(FIX_INSTALL))
    if not (found == accept or found.startswith(accept + ".")):
        return Row(component, required, found, False, say(WRONG_VERSION, dist=dist, fix=_(FIX_INSTALL)))
    return Row(component, required, found, True)


def _check_pygraphviz(proc: subprocess.Popen | None) -> Row:
    """pygraphviz lays out a tiny graph to SVG with its bundled Graphviz libraries (no ``dot`` program).

    The layout runs in a child interpreter like the framework imports: the bundled fontconfig prints warnings
    on some systems ("unknown element reset-dirs") straight to file descriptor 2, which a Jupyter kernel turns
    into notebook output that would differ from machine to machine.
    """
    required = say(PYGRAPHVIZ_REQUIRED, version=PYGRAPHVIZ)
    found = _version("pygraphviz")
    if found is None:
        return Row(PYGRAPHVIZ_LAYOUT, required, say(NOT_INSTALLED), False, say(FIX_INSTALL))
    error = _import_error(proc) if proc is not None else None
    if error is not None:
        return Row(PYGRAPHVIZ_LAYOUT, required, say(LAYOUT_FAILS, found=found, error=error), False,
                   say(LAYOUT_FALLBACK, fix=_(FIX_INSTALL)))
    return Row(PYGRAPHVIZ_LAYOUT, required, say(LAYS_OUT_SVG, found=found) if proc else found, True)


#: The only texts the ``dot`` row can show as "found" (the nbval sanitize file matches exactly these, in English and
#: in French): a version is shown only when it is plain numbers ("2.43.0", "12.2.1"), whatever else ``dot -V`` prints.
DOT_FOUND = {
    "missing": N_("not on PATH"),
    "version": N_("dot {version} on PATH"),
    "unknown": N_("dot on PATH, version unknown"),
    "fails": N_("dot on PATH, but dot -V fails"),
}


def dot_found_width() -> int:
    """The widest "found" text of the dot row in the language of the moment ("dot 999.999.999 on PATH" at most):
    the report's columns are this wide whether or not dot is installed, so the rest of the table does not move."""
    texts = [_(text) for text in DOT_FOUND.values()]
    return max(len(_(DOT_FOUND["version"]).format(version="999.999.999")), *map(len, texts))


#: :func:`dot_found_width` in English.
DOT_FOUND_WIDTH = max(len(DOT_FOUND["version"].format(version="999.999.999")), *map(len, DOT_FOUND.values()))
_DOT_VERSION = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d{1,3}){1,2})(?![\w.])")


def dot_found(output: str | None, returncode: int = 0) -> str:
    """The dot row's "found" text from what ``dot -V`` printed (stderr and stdout) and its exit status.

    ``None``: dot is not on PATH. Any text at all gives one of :data:`DOT_FOUND`, never something else.

    >>> dot_found("dot - graphviz version 2.43.0 (0)")
    'dot 2.43.0 on PATH'
    >>> dot_found("dot: error while loading shared libraries: libgvc.so.6", returncode=127)
    'dot on PATH, but dot -V fails'
    """
    if output is None:
        return say(DOT_FOUND["missing"])
    if returncode != 0:
        return say(DOT_FOUND["fails"])
    text = str(output)
    # prefer the number after the word "version" (Graphviz's own wording), else the first plain version number
    after = re.search(r"version\s+(\S+)", text, re.IGNORECASE)
    for candidate in ([after.group(1)] if after else []) + [m.group(1) for m in _DOT_VERSION.finditer(text)]:
        if re.fullmatch(_DOT_VERSION.pattern, candidate):
            return say(DOT_FOUND["version"], version=candidate)
    return say(DOT_FOUND["unknown"])


def _dot_version(dot: str) -> str:
    """The dot row's "found" text for the ``dot`` program at ``dot`` (``dot -V`` prints on stderr)."""
    try:
        out = subprocess.run([dot, "-V"], check=False, capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError, ValueError):
        return say(DOT_FOUND["fails"])
    text = (out.stderr or b"").decode("utf-8", "replace") + (out.stdout or b"").decode("utf-8", "replace")
    return dot_found(text, out.returncode)


def _check_dot() -> Row:
    """The optional ``dot`` program. Its "found" text is the only machine-dependent text of the report."""
    dot = shutil.which("dot")
    found = _dot_version(dot) if dot else dot_found(None)
    return Row(DOT_PROGRAM, say(OPTIONAL), found, True, say(DOT_ADVICE), optional=True)


def _check_widgets() -> Row:
    """ipywidgets in the kernel + the JupyterLab front-end extension that draws them."""
    required = f"{IPYWIDGETS} + jupyterlab_widgets 3"
    widgets, lab = _version("ipywidgets"), _version("jupyterlab_widgets")
    found = say(WIDGETS_FOUND, widgets=widgets or _(NOT_INSTALLED), lab=lab or _(NOT_INSTALLED))
    if widgets is None or lab is None:
        return Row("ipywidgets", required, found, False, say(FIX_INSTALL))
    if not widgets.startswith(IPYWIDGETS + ".") or not lab.startswith("3."):
        return Row("ipywidgets", required, found, False, say(WRONG_WIDGETS, fix=_(FIX_INSTALL)))
    extension = Path(sys.prefix, "share", "jupyter", "labextensions", "@jupyter-widgets", "jupyterlab-manager")
    if not (extension / "package.json").is_file():
        return Row("ipywidgets", required, say(EXTENSION_MISSING, found=found), False,
                   say(WIDGETS_AS_TEXT, fix=_(FIX_INSTALL)))
    return Row("ipywidgets", required, found, True)


def check(import_frameworks: bool = True) -> list[Row]:
    """Check every component the course needs; one :class:`Row` each, in a fixed order.

    ``import_frameworks``: also import TensorFlow and PyTorch and lay out a graph with pygraphviz (each in a
    child process, in parallel, ~3-5 s), which catches broken installs that metadata alone cannot see.
    """
    procs: dict[str, subprocess.Popen] = {}
    if import_frameworks:
        # Children only for what is installed; a missing package is reported from its metadata alone.
        candidates = (
            ("tensorflow", ("tensorflow-cpu", "tensorflow")),
            ("torch", ("torch",)),
            ("pygraphviz", ("pygraphviz",)),
        )
        procs = _start_imports([module for module, dists in candidates if _first_version(*dists)[1] is not None])
    return [
        _check_python(),
        _check_framework(
            "TensorFlow", ("tensorflow-cpu", "tensorflow"), TENSORFLOW, "tensorflow", procs.get("tensorflow")
        ),
        _check_framework("PyTorch", ("torch",), TORCH, "torch", procs.get("torch")),
        _check_package("NumPy", "numpy", "2.x", "2"),
        _check_package(GRAPHVIZ_PACKAGE, "graphviz", GRAPHVIZ_PY, GRAPHVIZ_PY),
        _check_pygraphviz(procs.get("pygraphviz")),
        _check_dot(),
        _check_widgets(),
        _check_package("JupyterLab", "jupyterlab", JUPYTERLAB + ".x", JUPYTERLAB),
    ]


#: The table's column names (translated when the table is shown).
_COLUMNS = (N_("component"), N_("required"), N_("found"), N_("status"), N_("what to do"))


@dataclass(frozen=True)
class Report:
    """The rows of :func:`check`, displayed as a table with a one-line verdict on top."""

    rows: tuple[Row, ...]

    @property
    def problems(self) -> list[Row]:
        """Rows the student must fix (optional rows never count)."""
        return [row for row in self.rows if not row.ok]

    @property
    def ok(self) -> bool:
        """True when nothing needs fixing."""
        return not self.problems

    def summary(self) -> str:
        """One sentence: ready, or which components to fix."""
        if self.ok:
            return _("All {n} checks passed: the course is ready to run.").format(n=len(self.rows))
        names = ", ".join(_(row.component) for row in self.problems)
        n = len(self.problems)
        return say(Plural("{n} problem to fix: {names}. See 'what to do' in its row.",
                          "{n} problems to fix: {names}. See 'what to do' in their rows."), n=n, names=names)

    def _cells(self, row: Row) -> tuple[str, ...]:
        """A row as the table shows it: its component name and status in the language of the moment."""
        return (_(row.component), row.required, row.found, _(STATUS_WORDS[row.status]), row.todo)

    def __repr__(self) -> str:
        table = [tuple(map(_, _COLUMNS))] + [self._cells(row) for row in self.rows]
        # "what to do" is long prose: it goes on its own indented line instead of widening the table.
        widths = [max(len(cells[i]) for cells in table) for i in range(4)]
        widths[2] = max(widths[2], dot_found_width())  # the same columns with or without the optional dot program
        lines = [self.summary(), ""]
        for cells in table:
            lines.append("  ".join(cell.ljust(width) for cell, width in zip(cells[:4], widths, strict=True)).rstrip())
            if cells[4] and cells is not table[0]:
                lines.append(f"    -> {cells[4]}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        # Status is shown by a word and a mark as well as a colour (colour-blind and projector safe); each colour
        # keeps 4.5:1 on JupyterLab's white, grey (even) and hovered table rows (tests/test_contrast.py)
        marks = {"OK": ("&#10004;", "#1a7f37"), "PROBLEM": ("&#10008;", "#a04f06"), "optional": ("&#8226;", "#555")}
        head = "".join(f"<th style='text-align:left'>{html.escape(_(c))}</th>" for c in _COLUMNS)
        body = []
        for row in self.rows:
            mark, colour = marks[row.status]
            cells = [html.escape(c) for c in self._cells(row)]
            cells[3] = f"<span style='color:{colour};font-weight:bold'>{mark} {cells[3]}</span>"
            body.append("<tr>" + "".join(f"<td style='text-align:left'>{c}</td>" for c in cells) + "</tr>")
        verdict = ("&#10004; " if self.ok else "&#10008; ") + html.escape(self.summary())
        return (
            f"<p><b>{verdict}</b></p>\n<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
            + "\n".join(body)
            + "\n</tbody>\n</table>"
        )


def report(import_frameworks: bool = True) -> Report:
    """Run :func:`check` and return a :class:`Report` (the last expression of a cell displays it)."""
    return Report(tuple(check(import_frameworks=import_frameworks)))
