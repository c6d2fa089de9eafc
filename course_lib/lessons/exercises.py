"""Exercises with automatic checks and hints: an unsolved exercise prints a hint, it never crashes the notebook.

A notebook defines an exercise once, and the student calls ``check`` with their answer::

    ex = Exercise("01.1", "How many nodes does the graph of sin(x * w + 1) have?",
                  expect=6, hints=["Count inputs, constants and operations.", "x, w, 1, mul, add, sin"])
    ex.check(...)      # not answered yet: shows the first hint
    ex.check(5)        # wrong: says so, shows the next hint
    ex.check(6)        # right

``expect`` may be a value (numbers compare with a tolerance, sequences element-wise, text without case or
surrounding spaces) or a :data:`Checker`, a function ``answer -> (ok, message)``, for anything richer. Solutions
are not here: they live in the instructor folder, out of the student's view.

Every exercise of the course is built this way: the per-notebook modules (``exercises_01`` ... ``exercises_08``)
and the checker factories (:mod:`~course_lib.lessons.dag_checks`, :mod:`~course_lib.lessons.graph_checks`) make
checkers from the shared validators below, which read a student's answer or say what shape it should have:
:func:`number`, :func:`whole_number`, :func:`numbers_of`, :func:`names`, and :func:`count_is` for "how many ... ?"
questions. One rule for every number a checker reads (so no checker is more lenient than another): a real number,
a one-value numpy array or tensor, or text that is one (``"3"``) is accepted; ``True``/``False`` (a truth value is
not a count: ``True == 1`` in Python), NaN and infinities, None, a list or array standing for one number (even of
one element) are not; a count also accepts ``3.0`` but not ``2.7`` (never rounded).

**Languages** (docs/ARCHITECTURE.md, "Languages"). Prompts, hints and verdicts are course messages: a prompt or
hint is a message id marked with ``N_`` (or a :class:`~course_lib.i18n.Said` when it has values), shown in the
language of the moment (:meth:`Exercise.prompt_text`, :meth:`Exercise.hint_texts`), so an exercise cached by its
notebook module speaks French after ``set_language("fr")``; a checker says its verdict with
:func:`~course_lib.i18n.say`, and the :class:`Result` keeps it (``result.said.msgid``) with the hint level shown
(``result.hint``), so a test checks *which* verdict was given, in any language. Numbers in a verdict go through
:func:`course_lib.i18n.number` (French: a decimal comma) and ``name = value`` lists through :func:`pairs`.

>>> ex = Exercise("0.1", "How many nodes?", count_is(lambda: 6, "nodes", "6: x, w, 1, mul, add, sin"))
>>> ex.check(True)
Exercise 0.1: ✘ not yet — answer with a whole number of nodes. try again
>>> ex.check(6)
Exercise 0.1: ✔ correct — 6: x, w, 1, mul, add, sin
"""

from __future__ import annotations

import ast
import html
import inspect
import math
import numbers
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import i18n
from ..i18n import N_, Said, say
from ..i18n import gettext as _

__all__ = [
    "ANSWER_WITH_A_NUMBER",
    "ANSWER_WITH_A_NUMBER_OF",
    "A_LIST_OF_SPECS",
    "CHOSE",
    "COULD_NOT_CHECK",
    "HINT",
    "NOT_ANSWERED",
    "NOT_IT",
    "NOT_QUITE",
    "NUMBER_OF",
    "ONE_LETTER",
    "PASS_YOUR_FUNCTION",
    "REPLACE_THE_DOTS",
    "TF_REFUSED_IT",
    "TRY_AGAIN",
    "WELL_DONE",
    "Checker",
    "Choice",
    "Exercise",
    "Later",
    "Result",
    "and_list",
    "choice",
    "clauses",
    "count_is",
    "forget_attempts",
    "names",
    "number",
    "numbers_of",
    "pairs",
    "same",
    "shown",
    "then",
    "untouched",
    "whole_number",
]

NOT_ANSWERED = ...

#: What checks an answer: ``answer -> (ok, message)``; the message says why, or what is right. The checkers of the
#: course say a course message (:func:`course_lib.i18n.say`), so a test reads *which* verdict it was (``.msgid``).
Checker = Callable[[Any], tuple[bool, str]]

# The words of an exercise itself (message ids, translated when shown).
MARKS = {True: N_("✔ correct"), False: N_("✘ not yet"), None: N_("… not answered yet")}
HEADING = N_("Exercise {key}: {mark}")
HINT = N_("Hint: {hint}")
REPLACE_THE_DOTS = N_("replace ... with your answer and run the cell again")
TRY_AGAIN = N_("try again")
WELL_DONE = N_("well done")
COULD_NOT_CHECK = N_("could not check this answer ({error}: {text})")
# The shared validators' verdicts.
ANSWER_WITH_A_NUMBER_OF = N_("answer with a whole number of {unit}")
#: "answer with a whole number of ..." for the units of the course's "how many?" questions, each a whole message
#: (French elides "de" before a vowel: "un nombre entier d'opérations").
NUMBER_OF = {"nodes": N_("answer with a whole number of nodes"), "graphs": N_("answer with a whole number of graphs"),
             "traces": N_("answer with a whole number of traces"), "ops": N_("answer with a whole number of ops"),
             "operations": N_("answer with a whole number of operations"),
             "calls": N_("answer with a whole number of calls"),
             "cell steps": N_("answer with a whole number of cell steps")}
ANSWER_WITH_A_NUMBER = N_("answer with a whole number")
NOT_IT = N_("{answer} is not it")
NOT_QUITE = N_("not quite")
# Verdicts several exercise modules say: one message each, defined here.
PASS_YOUR_FUNCTION = N_("pass your function itself, e.g. {example}, not what it returns")
A_LIST_OF_SPECS = N_("input_signature is a list with one spec per argument: {example}")
TF_REFUSED_IT = N_("TensorFlow refused it: {line}")
ONE_LETTER = N_("answer with one letter among {letters}")
CHOSE = N_("{letter}: {reason}")
# Lists in running text: "a, b" and "a and b" (French: "a ; b" between values with a decimal comma, "a et b").
LIST_ITEM = N_("{items}, {item}")
LAST_ITEM = N_("{items} and {item}")
CLAUSE_ITEM = N_("{items}; {item}")


def shown(text: Any) -> str:
    """A prompt, hint or reason in the language of the moment: a :class:`~course_lib.i18n.Said` is said again from
    its message id and values; a message id (marked with ``N_``) is translated; other text (a notebook's own words,
    code) is shown as it is.

    >>> i18n.set_language("fr"); shown(N_("try again")), shown(say(HINT, hint="x")), shown("mul(x, w)")
    ('essayez encore', 'Indice\\xa0: x', 'mul(x, w)')
    >>> i18n.set_language("en"); shown(say(HINT, hint="x"))
    'Hint: x'
    """
    if isinstance(text, Said):
        return say(text.msgid, **text.values)
    return _(text) if isinstance(text, str) and text else text


class Later:
    """A value of a message worked out each time the message is said (so in the language of that moment), e.g.
    a list of options written in the prompt of a cached exercise: ``say(PROMPT, choices=Later(lambda: ...))``."""

    def __init__(self, make: Callable[[], str]) -> None:
        self.make = make

    def __format__(self, spec: str) -> str:
        return format(self.make(), spec)

    def __str__(self) -> str:
        return self.make()


def pairs(items: Iterable[tuple[str, Any]], spec: str = "g", sep: str = " = ") -> str:
    """``name = value`` pairs in running text: English ``x = 3, w = -2`` (values as ``spec``), French
    ``x = 3 ; w = -2`` (values with a decimal comma, so the pairs are set apart with a semicolon).

    >>> pairs([("x", 0.5), ("w", 3.0)]), pairs([("x", 3.0)], sep="=")
    ('x = 0.5, w = 3', 'x=3')
    >>> i18n.set_language("fr"); pairs([("x", 0.5), ("w", 3.0)])
    'x = 0,5\\xa0; w = 3'
    >>> i18n.set_language("en")
    """
    return _join((f"{name}{sep}{i18n.number(value, spec=spec)}" for name, value in items), LIST_ITEM)


def clauses(items: Iterable[str]) -> str:
    """Parts of a sentence set apart with semicolons: ``a; b`` (French ``a ; b``, with a no-break space)."""
    return _join(items, CLAUSE_ITEM)


def and_list(items: Iterable[str]) -> str:
    """Words joined with "and" in the language of the moment: ``x and w`` (French ``x et w``)."""
    return _join(items, LAST_ITEM)


def _join(items: Iterable[str], message: str) -> str:
    texts = list(items)
    out = texts[0] if texts else ""
    for text in texts[1:]:
        out = _(message).format(items=out, item=text)
    return out


@dataclass
class Result:
    """The outcome of one check; displays as a coloured line in Jupyter and as plain text elsewhere, in the
    language of the moment it was checked.

    ``said`` is the checker's verdict alone (a :class:`~course_lib.i18n.Said` when the checker said a course
    message: its ``.msgid`` tells which verdict it was, in any language), and ``hint`` the index of the hint shown
    (0 for the first; None when none was), so a test checks what happened rather than the words.
    """

    key: str
    ok: bool | None  # None: not answered yet
    message: str
    said: str = ""
    hint: int | None = None
    words: tuple[str, str] = field(init=False, repr=False, compare=False)  # the heading, said with the message

    def __post_init__(self) -> None:
        self.words = (_(HEADING), _(MARKS[self.ok]))

    def __bool__(self) -> bool:
        return bool(self.ok)

    def heading(self, escape: Callable[[str], str] = str) -> str:
        """``Exercise 01.1: ✔ correct``, in the language the result was made in (the key passed through ``escape``)."""
        template, mark = self.words
        return template.format(key=escape(self.key), mark=mark)

    def __repr__(self) -> str:
        return f"{self.heading()} — {self.message}"

    def _repr_html_(self) -> str:
        colour = {True: "#009E73", False: "#D55E00", None: "#0072B2"}[self.ok]
        return (f'<div style="border-left:6px solid {colour};padding:4px 10px;font-size:1.05em">'
                f"<b>{self.heading(html.escape)}</b> — {html.escape(self.message)}</div>")


#: Attempts per exercise key, for the whole kernel session: a notebook that builds its ``Exercise`` inside the
#: answer cell rebuilds it on every run, and the hints must still move on (the count belongs to the exercise, not
#: to one Python object).
_ATTEMPTS: dict[str, int] = {}


def forget_attempts(key: str | None = None) -> None:
    """Start the count of wrong attempts again, for one exercise ``key`` or for all (tests; a fresh start)."""
    if key is None:
        _ATTEMPTS.clear()
    else:
        _ATTEMPTS.pop(key, None)


@dataclass
class Exercise:
    """One exercise: ``key`` (``"05.2"``), the ``prompt``, what to ``expect`` (a value or a :data:`Checker`), and
    ``hints`` shown one more per wrong attempt. Attempts are counted per ``key``, so an exercise rebuilt by a
    re-run cell carries on with the next hint.

    The prompt and hints are kept as they were given (message ids marked with ``N_``, a
    :class:`~course_lib.i18n.Said` for one with values, or a notebook's own words) and shown in the language of the
    moment (:meth:`prompt_text`, :meth:`hint_texts`): a cached exercise speaks French after ``set_language("fr")``.

    >>> forget_attempts("0.9")
    >>> [Exercise("0.9", "?", 2, hints=["one", "two"]).check(3).message for _ in range(2)]
    ['Hint: one', 'Hint: two']
    """

    key: str
    prompt: str
    expect: Any
    hints: list[str] = field(default_factory=list)
    rtol: float = 1e-6

    @property
    def attempts(self) -> int:
        """Wrong or right attempts so far at this exercise key, in this kernel session (one count per key, kept
        outside the object: a cached exercise and a rebuilt one share it, and :func:`forget_attempts` resets both)."""
        return _ATTEMPTS.get(self.key, 0)

    def prompt_text(self) -> str:
        """The prompt in the language of the moment."""
        return shown(self.prompt)

    def hint_texts(self) -> list[str]:
        """The hints in the language of the moment."""
        return [shown(h) for h in self.hints]

    def check(self, answer: Any = NOT_ANSWERED) -> Result:
        """Check an answer; ``...`` (or nothing), and starting code still holding its ``...`` (:func:`untouched`),
        mean not answered yet: the first hint, no attempt counted, so Run All over an untouched notebook never
        moves the hints on."""
        if untouched(answer):
            text, level = self._hint(0, REPLACE_THE_DOTS)
            return Result(self.key, None, text, hint=level)
        _ATTEMPTS[self.key] = self.attempts + 1
        try:
            ok, message = self._judge(answer)
        except Exception as e:  # noqa: BLE001 - a checker must never crash the notebook
            ok, message = False, say(COULD_NOT_CHECK, error=type(e).__name__, text=str(e))
        if ok:
            said = message or say(WELL_DONE)
            return Result(self.key, True, said, said=said)
        text, level = self._hint(self.attempts - 1)
        return Result(self.key, False, then(message, text), said=message, hint=level)

    def _judge(self, answer: Any) -> tuple[bool, str]:
        if callable(self.expect):
            ok, message = self.expect(answer)
            return bool(ok), message if isinstance(message, str) else str(message)
        return same(answer, self.expect, self.rtol), ""

    def _hint(self, k: int, fallback: str = "") -> tuple[str, int | None]:
        """The hint to show after ``k`` wrong attempts, and its index (None: there are no hints)."""
        if not self.hints:
            return _(fallback or TRY_AGAIN), None
        level = min(k, len(self.hints) - 1)
        return _(HINT).format(hint=shown(self.hints[level])), level


def untouched(answer: Any) -> bool:
    """Whether ``answer`` is still an exercise's starting point rather than an attempt: nothing (``...``, None),
    a list, tuple, set or dict holding ``...``, or a function whose body still has a bare ``...`` statement where
    the student is to write (the starting code of every code exercise has one).

    >>> def stub(x):
    ...     ...  # your code
    >>> def done(x):
    ...     return x + 1
    >>> untouched(...), untouched([1, ...]), untouched({"x": ...}), untouched(stub), untouched(done), untouched(0)
    (True, True, True, True, False, False)
    """
    if answer is NOT_ANSWERED or answer is None:
        return True
    if isinstance(answer, dict):
        return any(_blank(v) for v in (*answer.keys(), *answer.values()))
    if isinstance(answer, (list, tuple, set, frozenset)):
        return any(_blank(v) for v in answer)
    if inspect.isfunction(answer):
        return _has_bare_ellipsis(answer)
    return False


def _blank(value: Any) -> bool:
    """An item of a container answer that is still a blank: ``...``."""
    return value is NOT_ANSWERED


def _has_bare_ellipsis(function: Callable[..., Any]) -> bool:
    """A bare ``...`` statement in the body of ``function`` (its source read with :mod:`ast`; a function whose
    source cannot be read, a lambda or a builtin, is an attempt)."""
    try:
        source = textwrap.dedent(inspect.getsource(function))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return False
    return any(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node.value.value is ...
               for node in ast.walk(tree))


def then(message: str, text: str) -> str:
    """A verdict followed by a hint or "try again": ``message. text``, without the period when the verdict already
    ends a sentence with ``? ! .`` or ``…`` (in any language: French puts a no-break space before ``?``).

    >>> then("not quite", "Hint: x"), then("how many are on padding?", "Hint: x"), then("", "try again")
    ('not quite. Hint: x', 'how many are on padding? Hint: x', 'try again')
    """
    if not message:
        return text
    return message + (" " if message.rstrip().endswith(("?", "!", ".", "…")) else ". ") + text


def same(answer: Any, expect: Any, rtol: float = 1e-6) -> bool:
    """Loose equality for answers: numbers with a tolerance (read by :func:`number`: ``True`` is not 1), text
    without case/spaces, sequences item by item, arrays of the same shape (a single number is not a vector).

    >>> same(1, 1), same(True, 1), same("1", 1.0), same(3, np.array([3, 3])), same([3, 3], np.array([3, 3]))
    (True, False, True, False, True)
    """
    if isinstance(expect, str):
        return isinstance(answer, str) and answer.strip().lower() == expect.strip().lower()
    if isinstance(expect, (bool, np.bool_)):
        return isinstance(answer, (bool, np.bool_)) and bool(answer) == bool(expect)
    if isinstance(expect, (int, float, np.number)):
        got = number(answer)
        return got is not None and bool(np.isclose(got, float(expect), rtol=rtol, atol=1e-12))
    if isinstance(expect, (list, tuple)):
        return isinstance(answer, (list, tuple)) and len(answer) == len(expect) and \
            all(same(a, e, rtol) for a, e in zip(answer, expect, strict=True))
    if isinstance(expect, (set, frozenset)):
        try:
            return {str(a).strip().lower() for a in answer} == {str(e).strip().lower() for e in expect}
        except TypeError:
            return False
    if isinstance(expect, np.ndarray):
        if expect.ndim == 0:
            return same(answer, float(expect), rtol)
        got = _grid(answer, expect.ndim)
        try:
            return got is not None and np.shape(got) == expect.shape and bool(np.allclose(got, expect, rtol=rtol))
        except ValueError:  # rows of different lengths: not the shape expected
            return False
    return answer == expect


def _grid(answer: Any, ndim: int) -> list[Any] | None:
    """Numbers nested ``ndim`` deep (rows of :func:`numbers_of`), or None (rows of different lengths are refused
    by :func:`same`, which compares the shape)."""
    if ndim <= 1:
        return numbers_of(answer)
    if isinstance(answer, (str, bytes, dict, set, frozenset)) or not hasattr(answer, "__iter__"):
        return None
    rows = [_grid(row, ndim - 1) for row in answer]
    return None if any(r is None for r in rows) else rows


def _one_value(answer: Any) -> Any:
    """A one-value numpy array or scalar, a torch or course tensor of shape (): its Python value (TensorFlow's
    through ``__array__``); anything else as it is (a list stays a list: it is not one number)."""
    if isinstance(answer, (numbers.Number, str)):
        return answer
    if getattr(answer, "shape", None) == () and callable(getattr(answer, "item", None)):
        try:
            return answer.item()
        except (TypeError, ValueError, RuntimeError):
            return answer
    if hasattr(answer, "__array__"):
        try:
            arr = np.asarray(answer)
        except (TypeError, ValueError, RuntimeError):
            return answer
        return arr.item() if arr.shape == () else answer
    return answer


def number(answer: Any) -> float | None:
    """A numeric answer as a finite float: a real number, a one-value array or tensor, or text that is one
    (``" 2.5 "``); None for anything else: ``True``/``False`` and numpy's bools (a truth value is no number),
    ``nan``, ``inf``, None, lists and arrays (even of one element), complex numbers, other text.

    >>> number(3), number(np.float32(2.5)), number("2.5"), number("many"), number(True), number(np.array(True))
    (3.0, 2.5, 2.5, None, None, None)
    >>> number(float("nan")), number([3]), number(np.array(4)), number(10**30)
    (None, None, 4.0, 1e+30)
    """
    answer = _one_value(answer)
    if isinstance(answer, str):
        try:
            value = float(answer.strip())
        except ValueError:
            return None
    elif isinstance(answer, (bool, np.bool_)) or not isinstance(answer, numbers.Real):
        return None
    else:
        try:
            value = float(answer)
        except OverflowError:  # an int past the largest float (10**400): no finite float
            return None
    return value if math.isfinite(value) else None


def whole_number(answer: Any) -> int | None:
    """A numeric answer that is a whole number (``4``, ``4.0``, ``"4"``, numpy's integers; an int of any size
    exactly), else None (``4.5`` is never rounded, ``True`` is not 1).

    >>> whole_number(4.0), whole_number(4.5), whole_number("4"), whole_number(True), whole_number(10**30) == 10**30
    (4, None, 4, None, True)
    """
    answer = _one_value(answer)
    if isinstance(answer, numbers.Integral) and not isinstance(answer, (bool, np.bool_)):
        return int(answer)
    value = number(answer)
    return int(value) if value is not None and value.is_integer() else None


def numbers_of(answer: Any, whole: bool = False) -> list[Any] | None:
    """A list of numbers (a list, a tuple, a 1-d array or tensor), each read by :func:`number` (or
    :func:`whole_number` with ``whole=True``); None when the answer is not such a list (text, one number, a set,
    a dict) or one of its items is not a number.

    >>> numbers_of([6, 15.0], whole=True), numbers_of([6, 2.7], whole=True), numbers_of("615"), numbers_of([True])
    ([6, 15], None, None, None)
    """
    if isinstance(answer, (str, bytes, dict, set, frozenset)) or not hasattr(answer, "__iter__"):
        return None
    try:
        items = list(answer)
    except (TypeError, ValueError, RuntimeError):  # a 0-d array or tensor cannot be iterated
        return None
    read = whole_number if whole else number
    got = [read(a) for a in items]
    return None if any(g is None for g in got) else got


def names(answer: Any) -> set[str] | None:
    """Names given as a collection (``{"x", "W"}``) or as text (``"x, w"``), lower-cased, as a set; None when the
    answer is neither.

    >>> sorted(names("x, W b")), sorted(names(["X", "y"])), names(3)
    (['b', 'w', 'x'], ['x', 'y'], None)
    """
    if isinstance(answer, str):
        answer = [a for a in answer.replace(",", " ").split() if a]
    try:
        return {str(a).strip().lower() for a in answer}
    except TypeError:
        return None


def count_is(truth: Callable[[], int], unit: str, explain: str | Callable[[int], str],
             mistake: Callable[[int, int], Said | None] | None = None) -> Checker:
    """The checker of every "how many ... ?" of the course: the answer must be a whole number (else: "answer with a
    whole number of ``unit``") equal to ``truth()``, computed when the answer is checked; ``explain`` (a message, or
    a function of the truth that says one) says why. A wrong count gets ``mistake(given, truth)``, a verdict aimed
    at the mistake it reveals (too few, one short, the total instead of a part...), or, when that is None or there
    is no ``mistake``, :data:`NOT_IT`. The verdicts are course messages, in the language of the moment of the check.

    >>> check = count_is(lambda: 3, "traces", lambda t: f"{t} traces")
    >>> check(3), check(4)
    ((True, '3 traces'), (False, '4 is not it'))
    >>> check(2.5)[1] == check("three")[1] == 'answer with a whole number of traces'
    True
    >>> fewer = count_is(lambda: 3, "traces", "three", mistake=lambda got, truth: "too few" if got < truth else None)
    >>> fewer(2), fewer(5)
    ((False, 'too few'), (False, '5 is not it'))
    """

    def check(answer: Any) -> tuple[bool, str]:
        given = whole_number(answer)
        if given is None:
            if not unit:
                return False, say(ANSWER_WITH_A_NUMBER)
            return False, say(NUMBER_OF[unit]) if unit in NUMBER_OF else say(ANSWER_WITH_A_NUMBER_OF, unit=unit)
        value = truth()
        if given == value:
            return True, explain(value) if callable(explain) else shown(explain)
        verdict = mistake(given, value) if mistake is not None else None
        return False, verdict if verdict is not None else say(NOT_IT, answer=i18n.number(given, spec=""))

    return check


@dataclass(frozen=True)
class Choice:
    """The checker of a choice item (made by :func:`choice`): the ``options`` by letter, the ``right`` letter (or
    the function of a live run that decides it) and ``why`` each option is right or wrong. Kept as data so a test
    can read every choice item of the course: option lengths, which letter is right, which option is longest."""

    options: dict[str, str]
    right: str | Callable[[], str]
    why: dict[str, str]

    def letter(self) -> str:
        """The right letter, decided now (a live run, when ``right`` is a function)."""
        return self.right() if callable(self.right) else self.right

    def __call__(self, answer: Any) -> tuple[bool, str]:
        given = answer.strip().lower().rstrip(")") if isinstance(answer, str) else None
        if given not in self.options:
            return False, say(ONE_LETTER, letters=", ".join(self.options))
        return given == self.letter(), say(CHOSE, letter=given, reason=shown(self.why.get(given, self.options[given])))


def choice(options: dict[str, str], right: str | Callable[[], str], why: dict[str, str]) -> Choice:
    """A checker for a decision or a prediction *with its reason*: each option (``"a"``, ``"b"``...) states a
    prediction and the reason for it, so picking the option picks the reason. ``right`` is the letter, or a
    function that computes it when the answer is checked (from a live run, so the check agrees with what the
    student saw); ``why`` says, for each option, what is right or wrong about it, shown after any answer.

    >>> check = choice({"a": "1 trace: shapes do not matter", "b": "2 traces: a new shape is a new signature"},
    ...                "b", {"a": "a tensor's shape is part of the signature", "b": "one trace per signature"})
    >>> check("B")
    (True, 'b: one trace per signature')
    >>> check("a"), check("c")
    ((False, "a: a tensor's shape is part of the signature"), (False, 'answer with one letter among a, b'))
    """
    return Choice(dict(options), right, dict(why))
