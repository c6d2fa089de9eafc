"""The French edition's notebooks are twins of the English ones (issue 16): same cells in the same order, and every
code cell the same program. Only what a reader reads may differ: string constants, comments, and the lines that set
the language (``from course_lib.i18n import set_language`` / ``set_language("fr")``, or ``cl.set_language("fr")``
where the cell imports ``course_lib as cl``). Compared through ``ast``, so
a changed number, name, call or order in an English code cell fails until its twin follows.

Quotes in French prose (« … ») are verbatim from ``qa/qa-fr.txt``, as English quotes are from ``qa/qa-en.txt``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from course_lib.lessons import claims, prose

ROOT = Path(__file__).resolve().parent.parent
EN, FR = ROOT / "notebooks", ROOT / "notebooks" / "fr"
ENGLISH = sorted(EN.glob("[0-9][0-9]_*.ipynb"))
#: English notebooks whose French twin is not written yet (issue 16 is open). Strict: when a twin appears, its
#: test fails until the name is taken off this list, so the list can only shrink.
NOT_YET: set[str] = set()
LANGUAGE_LINE = re.compile(r"^\s*(from course_lib\.i18n import set_language|(cl\.)?set_language\(\"fr\"\))\s*(#.*)?$")


class _Blank(ast.NodeTransformer):
    """Every string constant made empty: the program without what it says to the reader."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.copy_location(ast.Constant(""), node) if isinstance(node.value, str) else node


def program(source: str) -> str:
    """A code cell as a program: IPython magics and the language lines dropped, strings blanked, comments gone."""
    lines = [ln for ln in source.splitlines() if not LANGUAGE_LINE.match(ln) and not ln.lstrip().startswith(("%", "!"))]
    return ast.dump(_Blank().visit(ast.parse("\n".join(lines))))


def twin_problems(english: nbformat.NotebookNode, french: nbformat.NotebookNode) -> list[str]:
    """What keeps ``french`` from being ``english``'s twin, in words (empty: twins)."""
    if len(english.cells) != len(french.cells):
        return [f"{len(french.cells)} cells, the English has {len(english.cells)}"]
    problems = []
    for k, (e, f) in enumerate(zip(english.cells, french.cells, strict=True), start=1):
        if e.cell_type != f.cell_type:
            problems.append(f"cell {k} is {f.cell_type}, the English is {e.cell_type}")
        elif e.cell_type == "code" and program(e.source) != program(f.source):
            problems.append(f"code cell {k} is not the English program (only strings, comments and the language "
                            f"lines may differ):\n{e.source[:200]}")
    return problems


def test_twin_check_sees_a_changed_program():
    cell = nbformat.v4.new_code_cell
    en = nbformat.v4.new_notebook(cells=[cell('x = 3.0  # three\nprint("value", x)')])
    ok = nbformat.v4.new_notebook(cells=[cell('from course_lib.i18n import set_language\nset_language("fr")\n'
                                              'x = 3.0  # trois\nprint("valeur", x)')])
    assert twin_problems(en, ok) == []
    changed = nbformat.v4.new_notebook(cells=[cell('x = 4.0\nprint("valeur", x)')])
    assert "not the English program" in twin_problems(en, changed)[0]
    assert twin_problems(en, nbformat.v4.new_notebook(cells=[])) == ["0 cells, the English has 1"]


@pytest.mark.parametrize("english", [pytest.param(p, marks=pytest.mark.xfail(
    strict=True, reason="issue 16: French twin not written yet")) if p.name in NOT_YET else p for p in ENGLISH],
    ids=lambda p: p.name)
def test_french_twin(english):
    twin = FR / english.name
    assert twin.exists(), f"no French twin notebooks/fr/{english.name}"
    french = nbformat.read(twin, as_version=4)
    nbformat.validate(french)
    problems = twin_problems(nbformat.read(english, as_version=4), french)
    assert not problems, f"{twin.name}: " + "; ".join(problems)
    first_code = next(c for c in french.cells if c.cell_type == "code")
    assert 'set_language("fr")' in first_code.source, "the first code cell sets the language"


def normal(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())


@pytest.mark.parametrize("french", sorted(FR.glob("*.ipynb")), ids=lambda p: p.name)
def test_french_quotes_are_verbatim(french):
    """Every « … » fragment and every block quote (its attribution line aside) is in the French Q&A; a quote may
    skip words with … or [our words], as in English (prose.qa_pieces)."""
    qa = prose.normal(normal((ROOT / "qa" / "qa-fr.txt").read_text(encoding="utf-8")))
    quotes = []
    for c in nbformat.read(french, as_version=4).cells:
        if c.cell_type == "markdown":
            blocks, rest = prose._blockquotes(c.source)
            quotes += blocks + re.findall(r"«\s*(.+?)\s*»", rest, re.DOTALL)
    missing = [q for q in quotes for piece in prose.qa_pieces(normal(q).strip("«» ")) if piece not in qa]
    assert not missing, f"{french.name}: not verbatim from qa/qa-fr.txt: {missing[:3]}"


FRENCH = sorted(FR.glob("*.ipynb"))


@pytest.mark.parametrize("french", FRENCH, ids=lambda p: p.name)
def test_french_prose_types_no_measured_figure(french):
    """The English house rule in French: a time or a speed-up a cell measures is printed by the cell, not typed
    (« 3 ms », « 10× »); the Q&A's own figures, 2017 and « durée d'exécution » notes excepted."""
    qa = (ROOT / "qa" / "qa-fr.txt").read_text(encoding="utf-8")
    assert prose.notebook_problems(str(french), qa) == []


@pytest.mark.parametrize("french", FRENCH, ids=lambda p: p.name)
def test_french_verdicts_are_the_ledgers(french):
    """Each Verdict row names its claim and opens with the French ledger's status in bold, as in English."""
    assert claims.verdict_problems(french, lang="fr") == []


def test_french_notebooks_open_with_one_attribution():
    """The cell after each title is the same French attribution: the question's link and its CC BY-SA licence."""
    seconds = {nbformat.read(p, as_version=4).cells[1].source for p in FRENCH}
    assert len(seconds) <= 1
    for text in seconds:
        assert claims.QUESTION_URL in text and "CC BY-SA" in text and "qa-fr.txt" in text
