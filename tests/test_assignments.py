"""``./course assignments`` (tools/assignments.py): the course's exercises as nbgrader assignments.

Over every lesson notebook of both editions, without running nbgrader's commands (cheap): every exercise became a
solution cell followed by its test cell, each test cell calls the course's own checker on the student's answer (no
answer stored in it), and nbgrader's ClearSolutions with the course's stub leaves no solution text in the release and
a notebook that still checks itself as the course does (``...``: not answered yet). An exercise whose worked answer
cannot be read stops the build naming it.

Then the whole cycle once, on a local exchange in a temporary folder, for the lightest lesson (01: the autograder runs
the whole notebook): generate, release, two students fetch (``--student``, nbgrader's option for a student id other
than the login's), one fills the released notebook with the worked answers and one with two wrong answers and one
left blank, both submit, the instructor collects and autogrades, and the gradebook holds 5 of 5 and 2 of 5.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import json
import linecache
import os
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook
from nbgrader.preprocessors import ClearSolutions

from course_lib.lessons.exercises import untouched

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("assignments", ROOT / "tools" / "assignments.py")
A = importlib.util.module_from_spec(_spec)
sys.modules["assignments"] = A  # dataclasses look their module up there
_spec.loader.exec_module(A)

LESSON = "01_graphs_are_dags"
EDITIONS = {"en": ROOT / "notebooks", "fr": ROOT / "notebooks" / "fr"}


def grading(cell: dict) -> dict:
    return cell["metadata"].get("nbgrader", {})


@pytest.fixture(scope="module", params=["en", "fr"])
def edition(request: pytest.FixtureRequest) -> tuple[str, list]:
    return request.param, A.assignments(request.param)


def test_every_lesson_with_exercises_is_an_assignment(edition: tuple[str, list]) -> None:
    lang, made = edition
    with_exercises = [nb.stem for nb in sorted(EDITIONS[lang].glob("0*.ipynb"))
                      if any(A.exercise_receiver(c) for c in json.loads(nb.read_text())["cells"])]
    assert [a.name for a in made] == with_exercises == [nb.stem for nb in sorted(EDITIONS[lang].glob("0[1-8]*.ipynb"))]


def test_each_exercise_is_a_solution_cell_then_a_test_cell_calling_the_checker(edition: tuple[str, list]) -> None:
    lang, made = edition
    guides = ROOT / "instructor" / ("fr" if lang == "fr" else "")
    for a in made:
        lesson = json.loads((EDITIONS[lang] / f"{a.name}.ipynb").read_text())
        keys = list(A.worked_answers(guides / f"{a.name}_solutions.md"))
        exercises = [c for c in lesson["cells"] if A.exercise_receiver(c)]
        cells = a.notebook["cells"]
        solutions = [i for i, c in enumerate(cells) if grading(c).get("solution")]
        tests = [i for i, c in enumerate(cells) if grading(c).get("grade")]
        assert len(exercises) == len(solutions) == len(tests) == len(keys) >= 5, a.name
        assert tests == [i + 1 for i in solutions], f"{a.name}: a test cell must follow each solution cell"
        assert len(cells) == len(lesson["cells"]) + len(tests)
        # the exercises module each checker comes from: course_lib.lessons.exercises_0N, imported by the lesson
        module = f"course_lib.lessons.exercises_{a.name[:2]}"
        aliases = {alias.asname or alias.name for c in lesson["cells"] if c["cell_type"] == "code"
                   for s in ast.walk(ast.parse(A._text(c))) if isinstance(s, ast.ImportFrom) for alias in s.names
                   if f"{s.module}.{alias.name}" == module}
        for i, key in zip(solutions, keys, strict=True):
            solution, test = A._text(cells[i]), A._text(cells[i + 1])
            assert grading(cells[i]) == {"grade": False, "grade_id": f"answer_{key.replace('.', '_')}",
                                         "locked": False, "schema_version": 3, "solution": True, "task": False}
            assert grading(cells[i + 1])["locked"] and grading(cells[i + 1])["points"] == 1
            assert key in test and A.BEGIN in solution and A.END in solution
            *made_lines, result, verdict = ast.parse(test).body
            assert ast.unparse(verdict) == "assert result.ok, result.message"
            call = result.value
            assert ast.unparse(result.targets[0]) == "result" and call.func.attr == "check"
            # the answer is a name the solution cell binds (never a value typed into the test cell)
            (answer,) = call.args
            assert isinstance(answer, ast.Name), f"{key}: {ast.unparse(answer)}"
            assert answer.id in {n for s in ast.walk(ast.parse(solution)) for n in A._binds(s)
                                 if isinstance(s, ast.stmt)}
            # the checker: the lesson's exercises module, or the Exercise the lesson's own cell builds (03.1-03.4)
            checker = call.func.value
            for line in made_lines:
                assert ast.unparse(line) in {ast.unparse(s) for s in ast.parse(solution).body}
                if isinstance(checker, ast.Name) and ast.unparse(line.targets[0]) == checker.id:
                    checker = line.value
            root = checker.func
            while isinstance(root, ast.Attribute):
                root = root.value
            assert root.id in aliases | {"Exercise"}, f"{key}: {ast.unparse(checker)} is not the course's checker"


def released(notebook: dict) -> dict:
    """The release of a source notebook by nbgrader's own ClearSolutions, with the course's stub."""
    nb = nbformat.reads(json.dumps(notebook), as_version=4)  # sources joined, as nbgrader reads them
    nb, _ = ClearSolutions(code_stub={"python": A.CODE_STUB}).preprocess(nb, {})
    return nb


def test_the_release_has_no_solution_and_checks_itself_as_the_course_does(edition: tuple[str, list]) -> None:
    lang, made = edition
    for a in made:
        cells = [c for c in released(a.notebook)["cells"] if grading(c).get("solution")]
        assert len(cells) == len(a.regions)
        for cell, (key, region) in zip(cells, a.regions.items(), strict=True):
            source = cell["source"]
            assert A.BEGIN not in source and A.END not in source
            written = {line.strip() for line in region if line.strip() and not line.strip().startswith("#")}
            shown = {line.strip() for line in source.split("\n")}
            assert not written - {"..."} & shown, f"{key}: the release shows {written & shown}"
            # what the student finds answers "not answered yet": the answer's name holds ..., or the function
            # still has its bare ... (Exercise.check then gives the first hint, never an error)
            tree = ast.parse(source)
            name = ast.parse(A._text(cell).split("\n")[-1]).body[0].value.args[0].id
            for stmt in tree.body:
                if isinstance(stmt, (ast.FunctionDef, ast.Assign)) and name in A._binds(stmt):
                    space: dict = {}
                    # inspect.getsource (what untouched reads) finds a cell's text in linecache, as in IPython
                    filename = f"<released {key}>"
                    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
                    exec(compile(ast.Module([stmt], []), filename, "exec"), space)  # noqa: S102 - the cell's own
                    assert untouched(space[name]), f"{key}: the released {name} is not the course's 'not answered'"
                    break
            else:
                pytest.fail(f"{key}: the released cell does not bind {name}")


def test_the_builders_docstring_examples() -> None:
    # tools/ is outside test_doctests.py's packages: the builder's examples run here
    assert doctest.testmod(A).failed == 0


def test_an_exercise_without_a_readable_answer_stops_the_build(tmp_path: Path) -> None:
    guide = (ROOT / "instructor" / f"{LESSON}_solutions.md").read_text()
    notebook = ROOT / "notebooks" / f"{LESSON}.ipynb"
    # 01.3's block gone: the exercise is named, and the guide
    start = guide.index("## 01.3")
    cut = guide[:start] + guide[start:].replace("```python", "```text", 1)
    (tmp_path / "g.md").write_text(cut)
    with pytest.raises(A.BuildError, match=r"exercise 01\.3 has no python block"):
        A.make_assignment(notebook, tmp_path / "g.md", "en")
    # a block that checks nothing
    (tmp_path / "g.md").write_text(guide.replace("exercises.cycle().check(", "print("))
    with pytest.raises(A.BuildError, match=r"exercise 01\.3 in .*calls no <checker>\.check"):
        A.make_assignment(notebook, tmp_path / "g.md", "en")
    # an exercise cell whose checker no worked answer calls
    (tmp_path / "g.md").write_text(guide.replace("exercises.cycle()", "exercises.cycles()"))
    with pytest.raises(A.BuildError, match=r"calls exercises\.cycle\(\)\.check .* has no worked answer"):
        A.make_assignment(notebook, tmp_path / "g.md", "en")


# --- the whole cycle on a local exchange ---------------------------------------------------------------------------

def run(args: list[str], cwd: Path) -> str:
    done = A.nbgrader(args, cwd)
    assert done.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def answered(source: str, answer: str) -> str:
    """A released value cell with ``answer`` typed where its ``...`` stands, as a student does."""
    lines = source.split("\n")
    (k,) = [i for i, line in enumerate(lines) if line.strip() == A.CODE_STUB]
    lines[k] = lines[k].replace(A.CODE_STUB, answer)
    return "\n".join(lines)


def fill(path: Path, answers: dict[str, str | None], worked: dict[str, str]) -> None:
    """Answer a fetched notebook: ``answers[grade_id]`` typed in, or the worked answer when it is missing (the source
    cell's lines without nbgrader's markers, as a student who knew it would write it), None leaves it blank."""
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        gid = grading(cell).get("grade_id", "")
        if not grading(cell).get("solution"):
            continue
        given = answers.get(gid, "worked")
        if given == "worked":
            cell["source"] = "\n".join(line for line in worked[gid].split("\n") if "SOLUTION" not in line)
        elif given is not None:
            cell["source"] = answered(A._text(cell), given)
    path.write_text(json.dumps(nb, indent=1))


@pytest.fixture
def venv_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # nbgrader's Gradebook runs `alembic` from PATH, in this process too
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))


def test_the_whole_cycle_grades_a_right_and_a_wrong_submission(tmp_path: Path, venv_path: None) -> None:
    course, exchange = tmp_path / "course", tmp_path / "exchange"
    assert A.build(course, "en", exchange, only=[LESSON]) == [LESSON]
    config = (course / "nbgrader_config.py").read_text()
    assert f"c.Exchange.root = {str(exchange.resolve())!r}" in config and "c.CourseDirectory.course_id" in config
    run(["release_assignment", LESSON], course)
    source = json.loads((course / "source" / LESSON / f"{LESSON}.ipynb").read_text())
    worked = {grading(c)["grade_id"]: A._text(c) for c in source["cells"] if grading(c).get("solution")}
    students = {"student-right": {}, "student-wrong": {"answer_01_1": "6", "answer_01_3": None, "answer_01_5": '"b"'}}
    where = ["--course", A.COURSE_IDS["en"], f"--Exchange.root={exchange}"]
    for student, answers in students.items():
        home = tmp_path / student
        home.mkdir()
        cache = [f"--Exchange.cache={tmp_path / ('cache-' + student)}"]
        run(["fetch_assignment", LESSON, *where, *cache], home)
        fill(home / LESSON / f"{LESSON}.ipynb", answers, worked)
        run(["submit", LESSON, "--student", student, *where, *cache], home)
    run(["collect", LESSON], course)
    assert sorted(p.name for p in (course / "submitted").iterdir()) == sorted(students)
    started = time.monotonic()
    run(["autograde", LESSON], course)
    print(f"autograde of {len(students)} submissions of {LESSON}: {time.monotonic() - started:.0f} s")
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: (gb.find_submission(LESSON, s).score, gb.find_submission(LESSON, s).max_score) for s in students}
        cells = {g: gb.find_grade(g.replace("answer", "check"), LESSON, LESSON, "student-wrong").score
                 for g in worked}
    print(f"gradebook: {scores}; student-wrong per exercise: {cells}")
    assert scores == {"student-right": (5.0, 5.0), "student-wrong": (2.0, 5.0)}
    assert cells == {"answer_01_1": 0.0, "answer_01_2": 1.0, "answer_01_3": 0.0, "answer_01_4": 1.0,
                     "answer_01_5": 0.0}
    # what the wrong student's feedback says is the course's own verdict
    graded = json.loads((course / "autograded" / "student-wrong" / LESSON / f"{LESSON}.ipynb").read_text())
    said = {grading(c)["grade_id"]: "".join(o.get("evalue", "") for o in c.get("outputs", []))
            for c in graded["cells"] if grading(c).get("grade")}
    assert said["check_01_1"].startswith("6 is not it")
    # the blank one: the course's "not answered yet" (its first hint), not an error of the released code
    assert said["check_01_3"].startswith("Hint: ")
