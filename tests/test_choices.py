"""Choice items that cannot be guessed from their form: options of similar length, the right one not always the
longest, the right letters spread over a, b, c, d. The right letter is decided by each item's live run (real
TensorFlow or PyTorch where the item asks about them), as the student's check decides it."""

from __future__ import annotations

import importlib
import inspect
import math
from pathlib import Path

import pytest

from course_lib.lessons.exercises import Choice, Exercise, shown

ROOT = Path(__file__).resolve().parent.parent
MODULES = [importlib.import_module(f"course_lib.lessons.{p.stem}")
           for p in sorted((ROOT / "course_lib" / "lessons").glob("exercises_0[1-8].py"))]
#: Shortest option over the longest, at least.
SIMILAR = 2 / 3


def choice_items() -> list[Exercise]:
    """Every choice item of the course: what each module's factories with no required argument build."""
    items = []
    for module in MODULES:
        for name, factory in inspect.getmembers(module, callable):
            if name.startswith("_") or getattr(factory, "__module__", "") != module.__name__:
                continue
            try:
                signature = inspect.signature(factory)
            except (TypeError, ValueError):
                continue
            if signature.return_annotation not in ("Exercise", Exercise) or any(
                    p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                    for p in signature.parameters.values()):
                continue
            exercise = factory()
            if isinstance(exercise.expect, Choice):
                items.append(exercise)
    return sorted(items, key=lambda e: e.key)


ITEMS = choice_items()


def lengths(item: Exercise) -> dict[str, int]:
    return {letter: len(shown(text)) for letter, text in item.expect.options.items()}


def test_the_course_has_its_choice_items() -> None:
    assert len(ITEMS) >= 10, [e.key for e in ITEMS]


@pytest.mark.parametrize("item", ITEMS, ids=lambda e: e.key)
def test_options_are_of_similar_length(item: Exercise) -> None:
    sizes = lengths(item)
    assert min(sizes.values()) >= SIMILAR * max(sizes.values()), sizes


@pytest.fixture(scope="module")
def letters() -> dict[str, str]:
    """Each item's right letter, from its live run."""
    return {item.key: item.expect.letter() for item in ITEMS}


def test_every_right_letter_is_an_option(letters: dict[str, str]) -> None:
    assert all(letters[item.key] in item.expect.options for item in ITEMS), letters


def test_right_letters_are_spread(letters: dict[str, str]) -> None:
    counts = {letter: list(letters.values()).count(letter) for letter in "abcd"}
    assert max(counts.values()) <= math.ceil(0.4 * len(letters)), counts
    assert sum(1 for n in counts.values() if n) >= 3, counts


def test_the_right_option_is_seldom_the_longest(letters: dict[str, str]) -> None:
    longest = [item.key for item in ITEMS
               if lengths(item)[letters[item.key]] == max(lengths(item).values())]
    assert len(longest) <= len(ITEMS) / 3, longest
