"""No exercise shows its answer before it is asked, and Run All never counts an untouched exercise as an attempt.

Each ``course_lib/lessons/exercises_NN.py`` lists, in ``REVEALS``, for every exercise key of its notebook, the texts
whose sight answers the exercise (a solution's key line, the right option's own words, the printed output that
answers a count). These tests read the committed notebooks (no kernel) in both languages:

- every exercise of a notebook has reveals, and each is specific (not a lone number or a word of two letters);
- no reveal appears in a cell above the exercise's prompt: in its source or in its saved outputs (text, HTML,
  SVG text);
- no reveal appears in the exercise's own prompt or hints, read with ``ast`` from its ``Exercise("NN.k", prompt,
  ..., hints=[...])`` call (in the module or in the notebook's cell), in English and in French;
- the committed output of each exercise's check cell is "not answered yet": the starting code is no attempt.
"""

from __future__ import annotations

import ast
import html
import importlib
import json
import re
from pathlib import Path

import pytest

from course_lib import i18n
from course_lib.lessons import exercises

ROOT = Path(__file__).resolve().parent.parent
ENGLISH = sorted((ROOT / "notebooks").glob("0[1-8]_*.ipynb"))
EDITIONS = [p for en in ENGLISH for p in (en, ROOT / "notebooks" / "fr" / en.name)]
#: A prompt in markdown: **02.1** or **04.1 Its title.**
PROMPT = re.compile(r"\*\*(\d\d\.\d+)[\s*.]")


def normal(text: str) -> str:
    """Text compared for reveals: lower case, one space between words, one kind of apostrophe and quote."""
    text = text.replace("’", "'").replace("\u00a0", " ").replace("\u202f", " ")
    return " ".join(text.lower().split())


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def cell_texts(cell: dict) -> list[tuple[str, str]]:
    """(where, text) for a cell's source and each of its saved outputs (HTML and SVG read without their tags)."""
    out = [("source", _text(cell.get("source", "")))]
    for output in cell.get("outputs", []):
        if "text" in output:
            out.append(("output", _text(output["text"])))
        for kind, value in output.get("data", {}).items():
            if kind in ("text/plain", "text/markdown"):
                out.append((kind, _text(value)))
            elif kind in ("text/html", "image/svg+xml"):
                out.append((kind, html.unescape(re.sub(r"<[^>]+>", " ", _text(value)))))
    return out


def prompts(cells: list[dict]) -> dict[str, int]:
    """Each exercise key and the index of the markdown cell that first asks it."""
    found: dict[str, int] = {}
    for k, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            for key in PROMPT.findall(_text(cell["source"])):
                found.setdefault(key, k)
    return found


def module_of(notebook: Path):
    return importlib.import_module(f"course_lib.lessons.exercises_{notebook.name[:2]}")


def spoilers(cells: list[dict], reveals: dict[str, tuple[str, ...]]) -> list[str]:
    """Where a reveal shows above its exercise: ``"02.6: 'values[node] =' in cell 11 (source)"``."""
    found = []
    for key, at in prompts(cells).items():
        for reveal in reveals.get(key, ()):
            for k, cell in enumerate(cells[:at]):
                for where, text in cell_texts(cell):
                    if normal(reveal) in normal(text):
                        found.append(f"{key}: {reveal!r} in cell {k} ({where})")
    return found


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def exercise_words(source: str) -> dict[str, list[str]]:
    """The prompt and hint strings of every ``Exercise("NN.k", prompt, expect, hints)`` call in ``source``."""
    words: dict[str, list[str]] = {}
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return words
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", "")) == "Exercise"
                and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
            continue
        parts = call.args[1:2] + call.args[3:4] + [kw.value for kw in call.keywords if kw.arg in ("prompt", "hints")]
        words.setdefault(call.args[0].value, []).extend(s for part in parts for s in _strings(part))
    return words


def words_of(notebook: Path) -> dict[str, list[str]]:
    """Prompts and hints of the notebook's exercises, from its module and its own cells, in English and French."""
    sources = [Path(module_of(notebook).__file__).read_text(encoding="utf-8")]
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    sources += [_text(c["source"]) for c in cells if c["cell_type"] == "code"]
    words: dict[str, list[str]] = {}
    for source in sources:
        for key, texts in exercise_words(source).items():
            words.setdefault(key, []).extend(texts)
    for texts in words.values():
        i18n.set_language("fr")
        try:
            texts.extend([i18n.gettext(t) for t in texts])
        finally:
            i18n.set_language("en")
    return words


def load(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


@pytest.mark.parametrize("notebook", ENGLISH, ids=lambda p: p.name[:2])
def test_every_exercise_says_what_would_give_it_away(notebook: Path) -> None:
    reveals = getattr(module_of(notebook), "REVEALS", None)
    assert reveals is not None, f"{module_of(notebook).__name__} has no REVEALS"
    asked = set(prompts(load(notebook)))
    assert asked, f"{notebook.name}: no exercise prompt found"
    assert set(reveals) == asked, f"REVEALS keys {sorted(reveals)} but the notebook asks {sorted(asked)}"
    for key, texts in reveals.items():
        assert texts, f"{key}: no reveal"
        for text in texts:
            assert len(text.strip()) >= 3 and not re.fullmatch(r"[\d\s.,]+", text), \
                f"{key}: {text!r} is too short or a lone number to say anything"


@pytest.mark.parametrize("notebook", EDITIONS, ids=lambda p: f"{p.parent.name}/{p.name[:2]}")
def test_no_answer_is_shown_above_its_exercise(notebook: Path) -> None:
    english = ROOT / "notebooks" / notebook.name
    reveals = getattr(module_of(english), "REVEALS", {})
    assert spoilers(load(notebook), reveals) == []


@pytest.mark.parametrize("notebook", ENGLISH, ids=lambda p: p.name[:2])
def test_no_hint_or_prompt_gives_the_answer(notebook: Path) -> None:
    reveals = getattr(module_of(notebook), "REVEALS", {})
    words = words_of(notebook)
    found = [f"{key}: {r!r} in {t!r}" for key, texts in words.items() for r in reveals.get(key, ())
             for t in texts if normal(r) in normal(t)]
    assert found == []


@pytest.mark.parametrize("notebook", EDITIONS, ids=lambda p: f"{p.parent.name}/{p.name[:2]}")
def test_run_all_leaves_every_exercise_not_answered(notebook: Path) -> None:
    """The committed outputs come from Run All over the starting code: each check cell says "not answered yet"."""
    lang = "fr" if notebook.parent.name == "fr" else "en"
    i18n.set_language(lang)
    try:
        mark = i18n.gettext(exercises.MARKS[None])
    finally:
        i18n.set_language("en")
    cells = load(notebook)
    asked = sorted(prompts(cells).items(), key=lambda kv: kv[1])
    wrong = []
    for n, (key, at) in enumerate(asked):
        end = asked[n + 1][1] if n + 1 < len(asked) else len(cells)
        checks = [c for c in cells[at:end] if c["cell_type"] == "code" and ".check(" in _text(c["source"])]
        if not checks:
            wrong.append(f"{key}: no check cell")
            continue
        said = " ".join(t for _, t in cell_texts(checks[-1])[1:])
        if mark not in said:
            wrong.append(f"{key}: {said[:120]!r}")
    assert wrong == []


def test_the_spoiler_check_sees_an_answer_planted_above(tmp_path: Path) -> None:
    """Plant a reveal in a markdown cell and in an output above its exercise: both are reported; below, neither."""
    notebook = ENGLISH[1]
    cells = load(notebook)
    key = min(prompts(cells).items(), key=lambda kv: kv[1])[0]
    reveal = "values[node] = feed[node]  # the planted answer"
    planted = [dict(c) for c in cells]
    planted.insert(3, {"cell_type": "markdown", "source": f"In passing: {reveal.upper()}", "metadata": {}})
    planted.insert(4, {"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": [
        {"output_type": "execute_result", "data": {"text/html": f"<b>{html.escape(reveal)}</b>"}}]})
    found = spoilers(planted, {key: (reveal,)})
    assert found == [f"{key}: {reveal!r} in cell 3 (source)", f"{key}: {reveal!r} in cell 4 (text/html)"]
    after = cells + [{"cell_type": "markdown", "source": reveal, "metadata": {}}]
    assert spoilers(after, {key: (reveal,)}) == []


def test_hints_are_read_from_module_and_notebook_calls() -> None:
    source = 'ex = Exercise("09.1", N_("how many?"), 3, hints=[N_("count"), ("look at " "§2")])'
    assert {k: sorted(v) for k, v in exercise_words(source).items()} == {"09.1": ["count", "how many?", "look at §2"]}
