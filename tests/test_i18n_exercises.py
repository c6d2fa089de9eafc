"""Every exercise of the course speaks French (issue 16): for each exercise of every notebook, after
``set_language("fr")`` its prompt, each hint and its verdicts on a right and on a wrong answer are French (they differ
from the English made with ``set_language("en")``, and no common English word is left), and the judgement and the
message said (its ``msgid``) are the same in both languages. The exercises are the cached objects the notebooks use:
built once, they speak the language of the moment they are shown in. Exercises 03.1-03.4 are built in
the notebooks themselves: their Exercise cell is run from each language's notebook (read only)."""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from course_lib import expr, programs, trace
from course_lib.graph import CYCLE_EDGE
from course_lib.i18n import N_, Said, message_of, say, set_language
from course_lib.lessons import dag_checks, exercises, graph_checks
from course_lib.lessons import exercises_01 as ex1
from course_lib.lessons import exercises_02 as ex2
from course_lib.lessons import exercises_03 as ex3
from course_lib.lessons import exercises_04 as ex4
from course_lib.lessons import exercises_05 as ex5
from course_lib.lessons import exercises_06 as ex6
from course_lib.lessons import exercises_07 as ex7
from course_lib.lessons import exercises_08 as ex8
from course_lib.lessons import tiny_static as ts
from course_lib.lessons.exercises import Exercise, forget_attempts

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: words of English running text that no French prompt, hint or verdict may contain (code such as ``x.grad``,
#: ``tf.function`` or ``(the big cat)`` does not contain them with these spaces)
ENGLISH = (" the ", " is ", " are ", " and ", " of ", " with ", " your ", " not ", " which ", " what ", " how ",
           " does ", " yes", "Try", "try again", "Correct", "correct —", "Hint", "Exercise ", "not yet", "answer ",
           "well done")
#: hints that are code only, the same in both languages
CODE_ONLY = {"tf.RaggedTensorSpec(shape=[None, None, 3], dtype=tf.float64, ragged_rank=1)"}
#: code in French text (02.4's options) and a framework's own words quoted « like this », taken out before looking
#: for English words
CODE = re.compile(r"with g\.as_default\(\):|«[^»]*»")  # and what a program said, quoted


# ----------------------------------------------------------------------------- what the notebooks hand the checks
@functools.cache
def dag() -> Any:
    """Notebook 01's graph g: sin(x*w + 1), define-then-run (x, w, mul, Const, add, sin)."""
    return trace.record(expr.parse("sin(x*w + 1)"), "define-then-run", {"x": 3.0, "w": 2.0}, backward=False).graph


def tiny_run(fetch, feed):
    """02.6's worked solution (instructor/02_define_then_run_tensorflow_solutions.md)."""
    values = {}
    for node in ts.order(fetch):
        if node.op == "placeholder":
            if node not in feed:
                raise KeyError(f"placeholder {node.name!r} needs a value in feed")
            values[node] = feed[node]
        elif node.op == "const":
            values[node] = node.value
        else:
            values[node] = ts.FORWARD[node.op](*(values[i] for i in node.inputs))
    return values[fetch]


def mul_backward(a, b, out):
    a.grad += out.grad * b.data
    b.grad += out.grad * a.data


def swapped_backward(a, b, out):
    a.grad += out.grad * a.data
    b.grad += out.grad * b.data


@functools.cache
def unrolled() -> Any:
    from course_lib.adapters.loader import load_tensorflow

    tf = load_tensorflow()

    @tf.function
    def unrolled(x, n):
        for _ in range(n):
            x = x * 0.5 + 1.0
        return x

    return unrolled


def tf_spec(ragged: bool = False, listed: bool = True) -> Any:
    from course_lib.adapters.loader import load_tensorflow

    tf = load_tensorflow()
    spec = (tf.RaggedTensorSpec(shape=[None, None, None, 3], dtype=tf.float64, ragged_rank=2) if ragged  # 06.3
            else tf.TensorSpec([None], tf.float64))
    return [spec] if listed else spec


# ----------------------------------------------------------------------------- exercises built in notebooks 03, 04
def _cells(lang: str, number: str) -> list[str]:
    folder = NOTEBOOKS / "fr" if lang == "fr" else NOTEBOOKS
    path = next(folder.glob(f"{number}_*.ipynb"))
    return ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
            if c["cell_type"] == "code"]


@functools.cache
def notebook_exercise(lang: str, key: str) -> Exercise:
    """Exercise ``key`` as the notebook of ``lang`` builds it: its cell, run (the checker made from the course's
    graph_checks, the prompt and hints in the notebook's words)."""
    import torch

    number = key[:2]
    cells = _cells(lang, number)
    space: dict[str, Any] = {"Exercise": Exercise, "graph_checks": graph_checks, "programs": programs,
                             "torch": torch, "model": programs.affine_sin}
    cell = next(c for c in cells if f'Exercise("{key}"' in c)
    exec(cell, space)  # noqa: S102 - the notebook's own code: defines the exercise, checks `...`
    found = [v for v in space.values() if isinstance(v, Exercise) and v.key == key]
    assert len(found) == 1, key
    return found[0]


def _answer_04_4(x):
    import torch

    return torch.cond(x.mean() > 1.0, lambda x: x * x - 1.0, lambda x: torch.tanh(x), (x,))


def _program_03_2(ops, x):
    if x > 0:
        return ops.sin(x) * 2.0
    return ops.exp(x) * 2.0


def _straight(ops, x):
    return ops.sin(x) * 2.0


def _grow(x):
    import torch

    return torch.sin(torch.exp(x * 2.0) + 1.0) * 3.0


def _report_04_2() -> tuple[int, ...]:
    def wasteful2(ops, x):  # notebook 04's, as the exercise cell defines it
        a = ops.tanh(x) * ops.tanh(x)
        b = ops.exp(ops.constant(2.0))
        ops.sin(a)
        return a + b

    report = graph_checks.compile_report(wasteful2, {"x": 1.0})
    return tuple(report[k] for k in ("pruned", "folded", "merged"))


def _values_04_3() -> list[float]:
    from course_lib import dynamic as dy
    from course_lib.lessons.debugging import locals_at_return

    _result, seen = locals_at_return(programs.affine_sin, dy, x=dy.Tensor(0.5), w=dy.Tensor(3.0))
    return [float(seen["h"].data), float(seen["y"].data)]


# --------------------------------------------------------------------------- every exercise, a right and a wrong answer
@dataclass(frozen=True)
class Case:
    key: str
    make: Callable[[str], Exercise]  # the language -> the exercise (the same cached object for course modules)
    right: Callable[[], Any]
    wrong: Callable[[], Any]
    needs: tuple[str, ...] = ()


def course(factory: Callable[[], Exercise]) -> Callable[[str], Exercise]:
    return lambda _lang: factory()


def built_in_notebook(key: str) -> Callable[[str], Exercise]:
    return lambda lang: notebook_exercise(lang, key)


TF, TORCH = ("tensorflow",), ("torch",)
CASES = [
    Case("01.1", course(ex1.node_count), lambda: 5, lambda: 6),
    Case("01.2", course(ex1.topological_order), lambda: ["w", "x", "add", "exp", "mul"],
         lambda: ["x", "w", "exp", "add", "mul"]),
    Case("01.3", course(ex1.cycle), lambda: ("mul", "x"), lambda: ("x", "mul")),
    Case("01.4", course(ex1.framework_counts), lambda: (5, 5), lambda: (6, 5), TF + TORCH),
    Case("01.5", course(ex1.constant_choice), lambda: "a", lambda: "b", TORCH),
    Case("02.1", course(ex2.needed_feeds), lambda: {"x", "w"}, lambda: {"x", "w", "b"}),
    Case("02.2", course(ex2.compile_count), lambda: 4, lambda: 3),
    Case("02.3", course(ex2.tf_feed_dict), lambda: {"add": 7.0, "mul_4": 6.0}, lambda: {"q": 1.0}, TF),
    Case("02.4", course(ex2.after_finalize), lambda: {"a", "c"}, lambda: {"a"}, TF),
    Case("02.5", course(ex2.fed_fetch), lambda: "c", lambda: "a", TF),
    Case("02.6", course(ex2.tiny_run), lambda: tiny_run, lambda: (lambda fetch, feed: 0.0)),
    Case("03.1", built_in_notebook("03.1"), lambda: 10, lambda: 12, TORCH),
    Case("03.2", built_in_notebook("03.2"), lambda: _program_03_2, lambda: _straight, TORCH),
    Case("03.3", built_in_notebook("03.3"), lambda: 1.025, lambda: 2.0, TORCH),
    Case("03.4", built_in_notebook("03.4"), lambda: _grow, lambda: (lambda x: x * 2.0), TORCH),
    Case("03.5", course(ex3.backward_choice), lambda: "d", lambda: "a", TORCH),
    Case("03.6", course(ex3.tiny_mul_backward), lambda: mul_backward, lambda: swapped_backward),
    Case("04.1", course(ex4.cond_rewrite), lambda: programs.branch_with_cond, lambda: programs.branch_with_python_if,
         TORCH),
    Case("04.2", course(ex4.compile_counts), _report_04_2, lambda: (0, 0, 0), TORCH),
    Case("04.3", course(ex4.fetched_values), _values_04_3, lambda: [1.5, 0.0], TORCH),
    Case("04.4", course(ex4.export_rewrite), lambda: _answer_04_4, lambda: (lambda x: x * 2.0), TORCH),
    Case("04.5", course(ex4.debug_choice), lambda: "a", lambda: "b", TF),
    Case("04.6", course(ex4.retrace_choice), lambda: "c", lambda: "a", TF),
    Case("05.1", course(ex5.static_compiles), lambda: 4, lambda: 5),
    Case("05.2", course(ex5.trace_count), lambda: 4, lambda: 3, TF),
    Case("05.3", course(ex5.break_even_runs), lambda: 17, lambda: 30),
    Case("05.4", course(ex5.input_signature), tf_spec, lambda: tf_spec(listed=False), TF),
    Case("05.5", course(ex5.torch_graphs), lambda: 3, lambda: 4, TORCH),
    Case("05.6", course(ex5.extension_choice), lambda: "a", lambda: "b", TF),
    Case("06.1", course(ex6.padded_steps), lambda: 21, lambda: 20.5),
    Case("06.2", course(ex6.bucket_boundaries), lambda: [5, 12], lambda: [9, 20]),
    Case("06.3", course(ex6.ragged_signature), lambda: tf_spec(ragged=True), lambda: tf_spec(True, listed=False), TF),
    Case("06.4", course(ex6.packed_batch_sizes), lambda: [3, 3, 2, 1, 1], lambda: [3, 2, 1], TORCH),
    Case("06.5", course(ex6.loop_choice), lambda: "b", lambda: "c", TF),
    Case("07.1", course(ex7.ops_recorded), lambda: 16, lambda: 20),
    Case("07.2", course(ex7.graphs_needed), lambda: 3, lambda: 6),
    Case("07.3", course(ex7.tallest_tree), lambda: "(a (b (c (d e))))", lambda: "((a b) (c (d e)))"),
    Case("07.4", course(ex7.batched_ops), lambda: 32, lambda: 33),
    Case("07.5", course(ex7.fold_choice), lambda: "d", lambda: "c"),
    Case("08.1", course(lambda: ex8.unrolled_ops(unrolled())), lambda: 2 + 4 * ex8.UNROLL_N, lambda: 100, TF),
    Case("08.2", course(ex8.retraces), lambda: 4, lambda: 7, TF),
    Case("08.3", course(ex8.wrong_input), lambda: [2.0, 0.0, -5.0], lambda: [1.0, 1.0, 1.0], TORCH),
    Case("08.4", course(ex8.which_capture_keeps_both_branches), lambda: {"compile", "export+cond"},
         lambda: {"compile"}),
    Case("08.5", course(ex8.export_shapes), lambda: "b", lambda: "d", TORCH),
    Case("08.6", course(ex8.xla_kernels_choice), lambda: ex8.xla_verdict(), lambda: "d", TF),
]


def test_every_exercise_of_the_french_notebooks_is_here() -> None:
    keys = set()
    for path in sorted((NOTEBOOKS / "fr").glob("0[1-8]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                keys |= set(re.findall(r"^\*\*(\d\d\.\d)\b", "".join(cell["source"]), flags=re.MULTILINE))
    assert keys and keys == {c.key for c in CASES}


def _spoken(case: Case, lang: str) -> dict[str, Any]:
    """What the student reads of exercise ``case`` in ``lang``: prompt, hints, the results of a right answer and of
    a wrong one (the same number of attempts before each, so the same hint is shown)."""
    set_language(lang)
    forget_attempts(case.key)
    ex = case.make(lang)
    right, wrong = ex.check(case.right()), ex.check(case.wrong())
    return {"prompt": ex.prompt_text(), "hints": ex.hint_texts(), "right": right, "wrong": wrong}


def _english_left(text: str) -> list[str]:
    prose = CODE.sub(" ", text)
    return [w for w in ENGLISH if w in f" {prose} "]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.key)
def test_each_exercise_speaks_french_and_judges_alike(case: Case) -> None:
    for module in case.needs:
        pytest.importorskip(module)
    en, fr = _spoken(case, "en"), _spoken(case, "fr")
    # the same judgement, the same message said, the same hint shown, in both languages
    assert (en["right"].ok, en["wrong"].ok) == (fr["right"].ok, fr["wrong"].ok) == (True, False), (en, fr)
    assert en["wrong"].hint == fr["wrong"].hint is not None
    for which in ("right", "wrong"):
        said_en, said_fr = en[which].said, fr[which].said
        if isinstance(said_en, Said) or isinstance(said_fr, Said):
            assert said_fr.msgid is said_en.msgid, (case.key, which)
    # the English is English, the French is French
    assert "Exercise " in repr(en["wrong"]) and "Hint: " in en["wrong"].message
    assert f"Exercice {case.key}\u00a0: ✘ pas encore" in repr(fr["wrong"]) and "Indice\u00a0: " in fr["wrong"].message
    assert f"Exercice {case.key}\u00a0: ✔ juste" in repr(fr["right"])
    texts = [("prompt", en["prompt"], fr["prompt"]), ("right", repr(en["right"]), repr(fr["right"])),
             ("wrong", repr(en["wrong"]), repr(fr["wrong"]))]
    assert len(fr["hints"]) == len(en["hints"]) >= 1
    texts += [(f"hint {k}", e, f) for k, (e, f) in enumerate(zip(en["hints"], fr["hints"], strict=True))]
    for what, english, french in texts:
        if english in CODE_ONLY:
            assert french == english
            continue
        assert french != english, (case.key, what, french)
        assert _english_left(french) == [], (case.key, what, french)


def test_the_english_word_list_finds_english() -> None:
    """The check above can fail: the English of an exercise is caught by it."""
    set_language("en")
    ex = ex1.node_count()
    assert _english_left(repr(ex.check(6))) and _english_left(ex.prompt_text())


def test_a_cached_exercise_follows_the_language_of_the_moment() -> None:
    ex = ex7.batched_ops()  # cached: built once, in whatever language came first
    set_language("fr")
    assert ex.prompt_text().startswith("Lot A\u00a0: 100 copies de (((a b) (c d)) ((e f) (g h))).")
    assert ex.hint_texts()[1] == ("trouvez la hauteur de chaque arbre\u00a0: un mot vaut 0, un groupe un de plus que "
                                  "sa partie la plus haute")
    set_language("en")
    assert ex.prompt_text().startswith("Batch A: 100 copies of (((a b) (c d)) ((e f) (g h))).")
    assert ex7.batched_ops() is ex


def test_numbers_in_french_feedback_have_a_decimal_comma() -> None:
    set_language("fr")
    far = ex5.break_even_runs().check(30).said
    assert far == "avec 30 appels, la version compilée prend 0,03435\u00a0s, le mode immédiat 0,06\u00a0s"
    assert far.msgid is ex5.WITH_N_CALLS
    why = ex5.break_even_runs().check(17).said
    assert "30 + 16 × 0,15\u00a0ms ≤ 17 × 2\u00a0ms" in why
    assert ex6.padded_steps().check(20.5).said == "répondez par un nombre entier de pas de la cellule"  # a count
    rule = ex3.tiny_mul_backward().check(swapped_backward).said
    assert rule.msgid is ex3.RULE_GIVES and rule.values["at"] == "x=3\u00a0; w=-2"
    check = graph_checks.local_value_is(programs.affine_sin, "z", {"x": 0.5, "w": 3.0})
    ok, said = check(2.4)
    assert not ok and said == "z ne vaut pas 2,4 en x = 0,5\u00a0; w = 3" and said.msgid is graph_checks.NOT_THE_VALUE
    set_language("en")
    assert check(2.4)[1] == "z is not 2.4 at x = 0.5, w = 3"


def test_french_choices_are_the_options_the_french_notebooks_show() -> None:
    """The options of each decision exercise, in French, are word for word those printed under it in the French
    notebook (code spans and italics unwrapped), so a reason quotes what the student just read."""
    from course_lib.i18n import gettext as _

    set_language("fr")
    cases = [("01", "01.5", ex1.CONSTANT_CHOICES), ("02", "02.5", ex2.FED_FETCH_CHOICES),
             ("03", "03.5", ex3.BACKWARD_CHOICES), ("04", "04.5", ex4.DEBUG_CHOICES),
             ("04", "04.6", ex4.RETRACE_CHOICES),
             ("05", "05.6", ex5.EXTENSION_CHOICES), ("06", "06.5", ex6.LOOP_CHOICES), ("07", "07.5", ex7.FOLD_CHOICES),
             ("08", "08.5", ex8.EXPORT_CHOICES), ("08", "08.6", ex8.XLA_CHOICES)]

    def plain(text: str) -> str:
        return " ".join(text.replace("`", "").replace("*", "").replace("\u00a0", " ").split())

    for number, key, options in cases:
        path = next((NOTEBOOKS / "fr").glob(f"{number}_*.ipynb"))
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = next("".join(c["source"]) for c in cells
                    if c["cell_type"] == "markdown" and "".join(c["source"]).startswith(f"**{key}"))
        shown = dict(re.findall(r"^[*-] \*\*(\w)\*\*[\s\u00a0]*:?\s*(.*?)(?=^[*-] |\n\n|\Z)", text,
                                flags=re.MULTILINE | re.DOTALL))
        assert {k: plain(v) for k, v in shown.items()} == {k: plain(_(v)) for k, v in options.items()}, key


def test_a_refusal_said_in_french_is_still_known_by_its_message() -> None:
    """The cycle checker hands on the graph's own refusal (a CycleError raised with a course message), in French;
    message_of and the verdict's msgid tell which message it was."""
    from course_lib.graph import CycleError

    set_language("fr")
    g = dag()
    with pytest.raises(CycleError) as info:
        g.add_edge(g["sin"], g["x"])
    assert message_of(info.value).msgid is CYCLE_EDGE and message_of(info.value).values["src"] == "sin"
    ok, verdict = dag_checks.cycle_checker(g)(("sin", "x"))
    assert ok and verdict.msgid is CYCLE_EDGE and verdict == str(info.value) and "cycle" in verdict
    ok, verdict = dag_checks.cycle_checker(g)(("x", "sin"))
    assert not ok and verdict.msgid is dag_checks.EDGE_ALLOWED and "est permise" in verdict


def test_a_checker_that_raises_a_course_error_is_reported_in_french() -> None:
    """A checker must never crash the notebook: what it raised is reported, in French, as COULD_NOT_CHECK."""
    problem = N_("the answer {answer} has no value")

    def raising(answer):
        raise ValueError(say(problem, answer=answer))

    set_language("fr")
    result = Exercise("t.fr", "?", expect=raising, hints=["h"]).check(3)
    assert result.ok is False and result.said.msgid is exercises.COULD_NOT_CHECK
    assert result.said.startswith("impossible de vérifier cette réponse (ValueError\u00a0: ")
    assert result.message.endswith("Indice\u00a0: h") and result.hint == 0
