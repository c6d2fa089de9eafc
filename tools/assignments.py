"""Graded assignments from the course's own exercises: an nbgrader course folder (``./course assignments``).

    python tools/assignments.py [--lang en|fr] [--out DIR] [--exchange DIR] [--course-id ID]

One nbgrader assignment per lesson notebook that has exercises (01 ... 08; English from ``notebooks/`` and
``instructor/``, French from ``notebooks/fr/`` and ``instructor/fr/``), in ``DIR/source/<notebook>/``: the lesson
notebook itself, each exercise cell turned into

* a **solution cell**: the student's cell with a ``### BEGIN SOLUTION`` / ``### END SOLUTION`` region holding the
  worked answer. A value exercise (``exercises.node_count().check(...)``) binds its answer to a name
  (``answer_01_1 = (5)``, written over lines so the region is whole lines) and still checks itself; a code exercise
  (``exercises.tiny_run().check(run)``) has the region inside the function body, where the starting code's ``...``
  stood, so the released notebook keeps the starting code;
* an **autograded test cell** (1 point, locked) that runs the course's own checker again on that answer
  (``result = exercises.node_count().check(answer_01_1)``, ``assert result.ok, result.message``): a check judges an
  answer by running the engines and frameworks, so no answer is ever stored in a test cell.

The worked answers are read from the instructor guides (``instructor/0N_*_solutions.md``): under each exercise's
heading (``## 01.1 ...``) the first python block calls ``<checker>.check(answer)``, and ``tests/test_exercises_*.py``
prove those answers are accepted. An exercise cell is matched to its worked answer by the checker it calls (the same
``exercises.node_count()`` or ``ex1`` in both); an exercise with no readable answer, or a worked answer with no
exercise cell, stops the build naming it. ``nbgrader generate_assignment`` then writes ``DIR/release/`` (no
solutions), with the code stub ``...``: the course's "not answered yet", so a released notebook checks itself as the
course does (the first hint) instead of raising nbgrader's default ``NotImplementedError``.

>>> print(value_cell_source("exercises.node_count().check(...)", "answer_01_1", "5", [], "en"))
answer_01_1 = (  # your answer instead of ...
    ### BEGIN SOLUTION
    5
    ### END SOLUTION
)
exercises.node_count().check(answer_01_1)
"""

from __future__ import annotations

import argparse
import ast
import copy
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: nbgrader's solution delimiters (its defaults, ClearSolutions.begin/end_solution_delimeter).
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
#: What nbgrader writes in place of a solution region: the course's own "not answered yet" (exercises.untouched).
CODE_STUB = "..."
POINTS = 1
COURSE_IDS = {"en": "static-dynamic-graphs", "fr": "static-dynamic-graphs-fr"}
#: The words the builder writes into notebooks, in the edition's language.
WORDS = {
    "en": {"answer": "your answer instead of ...", "code": "your code, if your answer needs some",
           "graded": "Graded by the course's own check of exercise {key}: {points} point when it says correct "
                     "(no answer is stored here)."},
    "fr": {"answer": "votre réponse à la place de ...", "code": "votre code, si votre réponse en demande",
           "graded": "Noté par la vérification du cours (exercice {key}) : {points} point si elle dit juste ; "
                     "aucune réponse n'est stockée ici."},
}


class BuildError(Exception):
    """What was wrong (``what``) and what to do (``todo``), printed the way the ``course`` script's ``die`` does."""

    def __init__(self, what: str, todo: str) -> None:
        super().__init__(what)
        self.what, self.todo = what, todo


@dataclass(frozen=True)
class Worked:
    """One exercise's worked answer, read from its instructor guide: the checker called (``receiver``, as
    ``ast.unparse`` writes it), the answer's text, the statements before the check that the answer needs
    (``setup``), and for a code exercise the function's name and the worked function (``function``)."""

    key: str
    receiver: str
    answer: str
    setup: tuple[str, ...] = ()
    function: str = ""
    block: str = field(default="", repr=False)


@dataclass
class Assignment:
    """One assignment: its name (the notebook's stem), the source notebook (nbformat JSON as a dict) and, per
    exercise key, the solution regions written into it (what the release must not show)."""

    name: str
    notebook: dict
    regions: dict[str, list[str]]


# --- reading the worked answers ---------------------------------------------------------------------------------

HEADING = re.compile(r"^## (\d\d\.\d+)\b", re.M)
ANY_HEADING = re.compile(r"^## ", re.M)
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def worked_answers(guide: Path) -> dict[str, Worked]:
    """Every exercise's worked answer in an instructor guide, by key: the first python block under ``## 0N.k``.

    >>> w = worked_answers(ROOT / "instructor" / "01_graphs_are_dags_solutions.md")["01.1"]
    >>> w.receiver, w.answer
    ('exercises.node_count()', '5')
    """
    text = guide.read_text(encoding="utf-8")
    starts = [m.start() for m in ANY_HEADING.finditer(text)] + [len(text)]
    found: dict[str, Worked] = {}
    for m in HEADING.finditer(text):
        key = m.group(1)
        end = min(s for s in starts if s > m.start())
        block = PYTHON_BLOCK.search(text, m.end(), end)
        if block is None:
            raise BuildError(f"exercise {key} has no python block under its heading in {_rel(guide)}, so its worked "
                             "answer cannot be read.",
                             f"Add a python block that checks the answer under '## {key}'.")
        found[key] = read_worked(key, block.group(1), guide)
    return found


def read_worked(key: str, block: str, guide: Path) -> Worked:
    """The worked answer in one python block: its first ``<receiver>.check(answer)`` statement, and what before it
    the answer needs (a function definition for a code exercise, the lines that compute a value for another)."""
    where = f"exercise {key} in {_rel(guide)}"
    try:
        tree = ast.parse(block)
    except SyntaxError as e:
        raise BuildError(f"the python block of {where} is not valid Python ({e.msg}, line {e.lineno}).",
                         "Fix the block (it is what instructors run), then build again.") from e
    for i, stmt in enumerate(tree.body):
        call = check_call(stmt)
        if call is None:
            continue
        before, arg = tree.body[:i], call.args[0]
        defs = {s.name: s for s in before if isinstance(s, ast.FunctionDef)}
        receiver = ast.unparse(call.func.value)
        if isinstance(arg, ast.Name) and arg.id in defs:
            others = [s for s in before if s is not defs[arg.id]]
            if any(not isinstance(s, (ast.Import, ast.ImportFrom)) for s in others):
                raise BuildError(f"{where}: the block defines {arg.id} and runs other statements before its check, "
                                 "and the builder places only the function's body in the solution.",
                                 "Keep only imports besides the function in the block's lines before the check.")
            return Worked(key, receiver, arg.id, function=arg.id, block=block)
        answer = _segment(block, arg) + _trailing_comment(block, stmt.end_lineno)
        return Worked(key, receiver, answer, setup=tuple(_segment(block, s) for s in needed(before, arg)), block=block)
    raise BuildError(f"{where}: its python block calls no <checker>.check(answer), so its answer cannot be read.",
                     f"Start the block under '## {key}' with the check of the accepted answer, e.g. "
                     "exercises.node_count().check(5).")


def check_call(stmt: ast.stmt) -> ast.Call | None:
    """The call in a statement ``<receiver>.check(answer)`` (one argument), else None."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        if isinstance(call.func, ast.Attribute) and call.func.attr == "check" and len(call.args) == 1:
            return call
    return None


def needed(before: Sequence[ast.stmt], arg: ast.expr) -> list[ast.stmt]:
    """The statements of ``before`` that bind a name the answer reads, and those their own lines read (a worked
    block's exploring lines, a ``print`` or a peek at breakpoints, are left out)."""
    wanted = _loads(arg)
    keep: list[ast.stmt] = []
    for stmt in reversed(before):
        if _binds(stmt) & wanted:
            keep.append(stmt)
            wanted |= _loads(stmt)
    return keep[::-1]


def _loads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _binds(stmt: ast.stmt) -> set[str]:
    names = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
        names.add(stmt.name)
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        names |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
    return names


def _segment(source: str, node: ast.AST) -> str:
    """A node's text as written (comments inside kept), its continuation lines dedented with it."""
    return textwrap.dedent(ast.get_source_segment(source, node, padded=True) or "").strip("\n")


def _trailing_comment(source: str, line: int | None) -> str:
    """``  # comment`` when line ``line`` of ``source`` ends with a comment (e.g. ``# h = 1.0250072...``), else ''."""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and tok.start[0] == line:
            return "  " + tok.string
    return ""


# --- turning an exercise cell into a solution cell and a test cell ------------------------------------------------

def value_cell_source(cell: str, name: str, answer: str, setup: Sequence[str], lang: str) -> str:
    """The solution cell of a value exercise: the cell's lines before its check, the worked ``setup`` lines (in a
    solution region of their own), then ``name = (<answer>)`` with the answer in a region, and the cell's own check
    called on ``name``. A comment on the check line (``# replace ... with your tuple``) moves to the answer's line."""
    tree = ast.parse(cell)
    check = tree.body[-1]
    lines = cell.split("\n")
    said = _trailing_comment(cell, check.end_lineno).strip().removeprefix("#").strip() or WORDS[lang]["answer"]
    receiver = ast.get_source_segment(cell, check_call(check).func.value)
    out = lines[:check.lineno - 1]
    if setup:
        out += ["# " + WORDS[lang]["code"], BEGIN, *"\n".join(setup).split("\n"), END]
    out += [f"{name} = (  # {said}", "    " + BEGIN, *textwrap.indent(answer, "    ").split("\n"), "    " + END, ")",
            f"{receiver}.check({name})"]
    return "\n".join(out + lines[check.end_lineno:]).rstrip("\n")


def code_cell_source(cell: str, worked: Worked) -> tuple[str, list[str]]:
    """The solution cell of a code exercise, and its region's lines: the worked function's statements replace the
    starting code's ``...`` inside the cell's function (where they differ from the starting code; the whole body
    when the worked function was written another way), the ``...`` line's comment kept above the region, and the
    check called on the function."""
    tree = ast.parse(cell)
    start = next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == worked.function), None)
    if start is None:
        raise BuildError(f"exercise {worked.key}: its worked answer defines {worked.function}, and its notebook cell "
                         f"has no function of that name.", "Make the guide's function the one the notebook starts.")
    dots = next((n for n in ast.walk(start) if _is_dots(n)), None)
    if dots is None:
        raise BuildError(f"exercise {worked.key}: the starting {worked.function} in the notebook has no '...' line "
                         "where the student writes.", "Give the starting function a '...  # your code' line.")
    done = next(s for s in ast.parse(worked.block).body if isinstance(s, ast.FunctionDef) and s.name == worked.function)
    region = _aligned(start.body, done.body)
    first, last = (dots, dots) if region else (start.body[0], start.body[-1])
    region = region or done.body
    block_lines = worked.block.split("\n")
    written = textwrap.dedent("\n".join(block_lines[region[0].lineno - 1:region[-1].end_lineno])).split("\n")
    indent = " " * first.col_offset
    comment = _trailing_comment(cell, dots.lineno).strip()
    lines = cell.split("\n")
    check = tree.body[-1]
    call = check_call(check)
    if isinstance(call.args[0], ast.Constant) and call.args[0].value is Ellipsis:
        # "check(...)  # replace ... with my_branch": the check is called on the function itself
        receiver = ast.get_source_segment(cell, call.func.value)
        lines[check.lineno - 1:check.end_lineno] = [f"{receiver}.check({worked.function})"]
    lines[first.lineno - 1:last.end_lineno] = ([indent + comment] if comment else []) + [
        indent + BEGIN, *textwrap.indent("\n".join(written), indent).split("\n"), indent + END]
    return "\n".join(lines), written


def _is_dots(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node.value.value is Ellipsis


def _aligned(start: list[ast.stmt], done: list[ast.stmt]) -> list[ast.stmt] | None:
    """The statements of ``done`` that stand where ``start`` has its ``...``, when both are the same elsewhere
    (compared as syntax trees, so comments and spacing do not matter); None when they differ elsewhere."""
    for i, stmt in enumerate(start):
        if _is_dots(stmt):
            after = len(start) - i - 1
            if len(done) <= i + after or not _same(start[:i], done[:i]) or not _same(start[i + 1:],
                                                                                   done[len(done) - after:]):
                return None
            return done[i:len(done) - after]
        if any(_is_dots(n) for n in ast.walk(stmt)):
            if len(start) != len(done) or not _same(start[:i] + start[i + 1:], done[:i] + done[i + 1:]):
                return None
            other = done[i]
            if type(other) is not type(stmt) or not hasattr(stmt, "body") or _header(stmt) != _header(other):
                return None
            return _aligned(stmt.body, other.body)
    return None


def _same(a: Sequence[ast.stmt], b: Sequence[ast.stmt]) -> bool:
    return len(a) == len(b) and all(ast.dump(x) == ast.dump(y) for x, y in zip(a, b, strict=True))


def _header(stmt: ast.stmt) -> str:
    """A compound statement without its body (``for node in ts.order(fetch):``), to compare headers."""
    bare = copy.copy(stmt)
    bare.body = []
    return ast.dump(bare)


def grading_cell_source(cell: str, name: str, key: str, lang: str) -> str:
    """The test cell: the course's own checker of the exercise called again on the answer ``name``. When the cell
    names its checker (``ex1 = ex.ops_recorded()``, or notebook 03's ``ex1 = Exercise(...)``), that line is
    repeated here, so the grade never depends on a line the student can edit.

    >>> print(grading_cell_source("ex1 = ex.ops_recorded()\\nex1.check(...)", "answer_07_1", "07.1", "en"))
    # Graded by the course's own check of exercise 07.1: 1 point when it says correct (no answer is stored here).
    ex1 = ex.ops_recorded()
    result = ex1.check(answer_07_1)
    assert result.ok, result.message
    """
    tree = ast.parse(cell)
    receiver = check_call(tree.body[-1]).func.value
    lines = cell.split("\n")
    made = []
    if isinstance(receiver, ast.Name):
        for stmt in tree.body[:-1]:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == receiver.id
                                                    for t in stmt.targets):
                made = lines[stmt.lineno - 1:stmt.end_lineno]
    return "\n".join(["# " + WORDS[lang]["graded"].format(key=key, points=POINTS), *made,
                      f"result = {ast.get_source_segment(cell, receiver)}.check({name})",
                      "assert result.ok, result.message"])


def exercise_receiver(cell: dict) -> str | None:
    """The checker an exercise cell calls (``exercises.node_count()``, ``ex1``), or None for a cell that is no
    exercise: an exercise cell ends with ``<checker>.check(...)`` or with the check of a function it defines."""
    if cell["cell_type"] != "code":
        return None
    try:
        tree = ast.parse(_text(cell))
    except SyntaxError:
        return None
    call = check_call(tree.body[-1]) if tree.body else None
    if call is None:
        return None
    arg = call.args[0]
    defined = {s.name for s in tree.body if isinstance(s, ast.FunctionDef)}
    if (isinstance(arg, ast.Constant) and arg.value is Ellipsis) or (isinstance(arg, ast.Name) and arg.id in defined):
        return ast.unparse(call.func.value)
    return None


def make_assignment(notebook: Path, guide: Path, lang: str) -> Assignment | None:
    """The source notebook of one assignment (None when the notebook has no exercise): every exercise cell becomes
    its solution cell followed by its test cell; outputs are cleared (nbgrader clears them in the release too)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    cells = [(i, exercise_receiver(c)) for i, c in enumerate(nb["cells"])]
    cells = [(i, r) for i, r in cells if r is not None]
    if not cells:
        return None
    if not guide.exists():
        raise BuildError(f"{_rel(notebook)} has exercises and its instructor guide {_rel(guide)} is missing.",
                         "Restore the guide (git checkout it), then build again.")
    worked = {w.receiver: w for w in worked_answers(guide).values()}
    if len(worked) != len(worked_answers(guide)):
        raise BuildError(f"two exercises of {_rel(guide)} check with the same checker, so their cells cannot be told "
                         "apart.", "Give each exercise's first block its own checker call.")
    seen, out, regions = set(), [], {}
    by_index = dict(cells)
    for i, cell in enumerate(nb["cells"]):
        receiver = by_index.get(i)
        if receiver is None:
            out.append(_plain(cell))
            continue
        w = worked.get(receiver)
        if w is None:
            raise BuildError(f"the exercise cell that calls {receiver}.check in {_rel(notebook)} has no worked answer "
                             f"in {_rel(guide)}.",
                             f"Add its section (## 0N.k ...) with a python block calling {receiver}.check(answer).")
        seen.add(w.key)
        source = _text(cell)
        if w.function:
            solution, region = code_cell_source(source, w)
            name = w.function
        else:
            name = "answer_" + w.key.replace(".", "_")
            solution = value_cell_source(source, name, w.answer, w.setup, lang)
            region = [*"\n".join(w.setup).split("\n"), *w.answer.split("\n")] if w.setup else w.answer.split("\n")
        regions[w.key] = region
        out.append(_plain(cell, solution, {"grade": False, "grade_id": f"answer_{_slug(w.key)}", "locked": False,
                                           "schema_version": 3, "solution": True, "task": False}))
        test = {"cell_type": "code", "execution_count": None, "id": f"check-{_slug(w.key).replace('_', '-')}",
                "metadata": {}, "outputs": [], "source": grading_cell_source(source, name, w.key, lang)}
        out.append(_plain(test, None, {"grade": True, "grade_id": f"check_{_slug(w.key)}", "locked": True,
                                       "points": POINTS, "schema_version": 3, "solution": False, "task": False}))
    missing = sorted(set(w.key for w in worked.values()) - seen)
    if missing:
        raise BuildError(f"{_rel(guide)} has worked answers for {', '.join(missing)} and {_rel(notebook)} has no "
                         "exercise cell that calls their checkers.",
                         "Make the guide's check calls the ones the notebook's exercise cells make.")
    # the lesson's saved widget state belongs to the outputs cleared here (and is most of the file's size)
    metadata = {k: v for k, v in nb["metadata"].items() if k != "widgets"}
    return Assignment(notebook.stem, {**nb, "metadata": metadata, "cells": out}, regions)


def _plain(cell: dict, source: str | None = None, grading: dict | None = None) -> dict:
    """A copy of a cell without outputs, with a new source and nbgrader's metadata when given."""
    cell = copy.deepcopy(cell)
    if cell["cell_type"] == "code":
        cell["outputs"], cell["execution_count"] = [], None
    if source is not None:
        cell["source"] = source
    if grading is not None:
        cell["metadata"]["nbgrader"] = grading
    return cell


def _text(cell: dict) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _slug(key: str) -> str:
    return key.replace(".", "_")


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


# --- the course folder ------------------------------------------------------------------------------------------

def assignments(lang: str) -> list[Assignment]:
    """Every assignment of an edition, from its notebooks and instructor guides."""
    notebooks = ROOT / "notebooks" / ("fr" if lang == "fr" else "")
    guides = ROOT / "instructor" / ("fr" if lang == "fr" else "")
    made = [make_assignment(nb, guides / f"{nb.stem}_solutions.md", lang) for nb in sorted(notebooks.glob("0*.ipynb"))]
    return [a for a in made if a is not None]


def config_text(course_id: str, exchange: Path) -> str:
    """The course folder's nbgrader_config.py."""
    return textwrap.dedent(f'''\
        # The nbgrader configuration of this course folder, written by ./course assignments (tools/assignments.py):
        # run nbgrader's commands from this folder (docs/assignments.md).
        c = get_config()  # noqa: F821 - nbgrader's config loader defines get_config
        c.CourseDirectory.course_id = {course_id!r}
        # Where release_assignment puts assignments and students submit: a local folder here; on a hub, the shared
        # exchange every user can read and write (nbgrader's default: ./course assignments --exchange
        # /usr/local/share/nbgrader/exchange).
        c.Exchange.root = {str(exchange)!r}
        # A cleared solution reads "..." as in the course: the exercise says "not answered yet" and gives its first
        # hint instead of raising nbgrader's default NotImplementedError.
        c.ClearSolutions.code_stub = {{"python": {CODE_STUB!r}}}
        # The autograder runs the whole lesson (TensorFlow and PyTorch imports, measurements): nbgrader's 30 s per
        # cell is too short on a busy machine.
        c.Execute.timeout = 600
        ''')


def write_course(out: Path, lang: str, exchange: Path | None = None, course_id: str | None = None,
                 only: Sequence[str] = ()) -> list[str]:
    """Write the source notebooks (``only`` those assignments, when given) and nbgrader_config.py into the course
    folder ``out``; the assignments' names."""
    made = [a for a in assignments(lang) if not only or a.name in only]
    out.mkdir(parents=True, exist_ok=True)
    exchange = (exchange or out / "exchange").resolve()
    exchange.mkdir(parents=True, exist_ok=True)
    (out / "nbgrader_config.py").write_text(config_text(course_id or COURSE_IDS[lang], exchange), encoding="utf-8")
    for a in made:
        folder = out / "source" / a.name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{a.name}.ipynb").write_text(json.dumps(a.notebook, indent=1, ensure_ascii=False) + "\n",
                                                encoding="utf-8")
    return [a.name for a in made]


def nbgrader(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run one nbgrader command with this Python, in the course folder (where it reads nbgrader_config.py)."""
    # nbgrader's Gradebook runs the `alembic` program from PATH (nbgrader/api.py, get_alembic_version), and the
    # autograder's kernel is this Python's: this Python's folder of programs comes first.
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""), "JUPYTER_PREFER_ENV_PATH": "1"}
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False)


def generate(out: Path, names: Sequence[str]) -> None:
    """``nbgrader generate_assignment`` for every assignment (release/ without solutions, the gradebook's cells), in
    one call (nbgrader matches assignment names as a glob: each call costs seconds of imports)."""
    done = nbgrader(["generate_assignment", "*" if len(names) > 1 else names[0], "--force"], out)
    made = {p.parent.name for p in (out / "release").glob("*/*.ipynb")}
    if done.returncode != 0 or not set(names) <= made:
        raise BuildError(f"nbgrader generate_assignment failed:\n{done.stdout}{done.stderr}".rstrip(),
                         "Read nbgrader's message above; if a notebook changed, check its exercise cells, then build "
                         "again.")


def build(out: Path, lang: str = "en", exchange: Path | None = None, course_id: str | None = None,
          only: Sequence[str] = ()) -> list[str]:
    """The whole build: source notebooks, config, then nbgrader's release versions."""
    import importlib.util

    if importlib.util.find_spec("nbgrader") is None:
        raise BuildError(f"nbgrader is not installed in this Python ({sys.executable}).",
                         "Run ./course setup (requirements.txt pins nbgrader), then ./course assignments again.")
    names = write_course(out, lang, exchange, course_id, only)
    generate(out, names)
    return names


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", default="en", choices=["en", "fr"], help="the edition (default: en)")
    parser.add_argument("--out", type=Path, help="the course folder (default: assignments/<lang>)")
    parser.add_argument("--exchange", type=Path, help="nbgrader's exchange (default: <out>/exchange)")
    parser.add_argument("--course-id", help=f"nbgrader's course id (default: {COURSE_IDS['en']}, -fr for French)")
    args = parser.parse_args(argv)
    out = args.out or ROOT / "assignments" / args.lang
    if out.exists() and not out.is_dir():
        print(f"\ncourse: ERROR: --out {out} is a file, not a folder.\ncourse: what to do: give a folder for the "
              "course (made if missing), e.g. --out assignments/en\n", file=sys.stderr)
        return 1
    try:
        names = build(out, args.lang, args.exchange, args.course_id)
    except BuildError as e:
        print(f"\ncourse: ERROR: {e.what}\ncourse: what to do: {e.todo}\n", file=sys.stderr)
        return 1
    print(f"course: {len(names)} assignments in {out} (source/ with solutions, release/ without): {', '.join(names)}")
    print("course: next: cd into it and run nbgrader release_assignment NAME (docs/assignments.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
