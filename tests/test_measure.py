"""The one timing summary of the course (``course_lib.measure.summarize``): its quantile method pinned on samples
worked out by hand, and every timing of ``course_lib`` and ``benchmarks/`` going through it.

Nothing here is a threshold on time: the samples are made up, and the timed calls are only counted.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from course_lib import i18n
from course_lib.measure import first_calls, measure, once_each, summarize

ROOT = Path(__file__).resolve().parent.parent


def test_quartiles_are_the_inclusive_ones_worked_by_hand() -> None:
    """Inclusive quartiles (type 7): with ``m`` sorted rounds, quartile ``k`` sits at position ``1 + k·(m - 1)/4``.

    7 rounds, sorted 1 2 3 4 5 6 10: positions 2.5, 4, 5.5, so q1 = (2 + 3)/2 = 2.5, median 4, q3 = (5 + 6)/2 = 5.5.
    The exclusive method (position ``k·(m + 1)/4``: 2 and 6) would give q1 = 2, q3 = 6.
    4 rounds 1 2 4 8: positions 1.75, 2.5, 3.25, so q1 = 1 + 0.75·(2 - 1) = 1.75, median 3, q3 = 4 + 0.25·(8 - 4) = 5.
    3 rounds 1 2 9: positions 1.5 and 2.5, so q1 = 1.5, q3 = 5.5 (the exclusive method gives 1 and 9, the whole).
    """
    seven = summarize([10.0, 4.0, 1.0, 6.0, 2.0, 5.0, 3.0], number=20)
    assert (seven.low, seven.median, seven.high, seven.repeat, seven.number) == (2.5, 4.0, 5.5, 7, 20)
    four = summarize([8.0, 1.0, 4.0, 2.0])
    assert (four.low, four.median, four.high) == (1.75, 3.0, 5.0)
    three = summarize([9.0, 1.0, 2.0])
    assert (three.low, three.high) == (1.5, 5.5)
    one = summarize([7.0])
    assert (one.low, one.median, one.high, one.repeat) == (7.0, 7.0, 7.0, 1)
    # the same figures a reader gets from numpy's default
    assert [seven.low, seven.median, seven.high] == list(np.percentile([10, 4, 1, 6, 2, 5, 3], [25, 50, 75]))


def test_no_rounds_is_a_clear_message() -> None:
    with pytest.raises(ValueError, match="at least one timed round"):
        summarize([])
    i18n.set_language("fr")
    try:
        with pytest.raises(ValueError, match="au moins un tour"):
            summarize([])
    finally:
        i18n.set_language("en")


def test_measure_and_single_calls_are_summarized_by_it() -> None:
    """``measure``, ``once_each`` and ``first_calls`` make their Measurement with ``summarize``: the count of rounds
    and calls is what was asked, and the quartiles lie inside the rounds (the inclusive method's property)."""
    calls = []
    m = measure(lambda: calls.append(1), repeat=5, number=3, warmup=2)
    assert (m.repeat, m.number, len(calls)) == (5, 3, 2 + 5 * 3)
    assert m.low <= m.median <= m.high
    built = []
    first, fns = first_calls(lambda: built.append(1) or (lambda: calls.append(2)), 4)
    assert (first.repeat, first.number, len(fns), len(built), calls.count(2)) == (4, 1, 4, 4, 4)
    assert once_each(iter([lambda: None] * 2)).repeat == 2


#: Where a timing could be summarized by hand: a quantile, a percentile, a median of times or an IQR computed.
OWN_SUMMARY = re.compile(r"statistics\.(quantiles|median)\(|np\.(percentile|quantile|median)\(|\.quantile\(")
#: The places allowed to compute one: the summary itself, and a median that is not of times (a robust line's slope).
ALLOWED = {"course_lib/measure.py", "course_lib/lessons/compiling/tf1.py:line"}


def _own_summaries(paths: list[Path], root: Path = ROOT) -> list[str]:
    found = []
    for path in paths:
        rel = path.relative_to(root).as_posix()
        in_function = ""
        for k, text in enumerate(path.read_text().splitlines(), 1):
            if match := re.match(r"\s*def (\w+)", text):
                in_function = match.group(1)
            if OWN_SUMMARY.search(text) and rel not in ALLOWED and f"{rel}:{in_function}" not in ALLOWED:
                found.append(f"{rel}:{k}: {text.strip()}")
    return found


def test_every_timing_goes_through_the_one_summary() -> None:
    """No other quantile, percentile or median of timings in course_lib or benchmarks/: two methods once made two
    notebooks define "spread" differently. (``tf1.line`` takes medians of slopes, a fit, not a summary of rounds.)"""
    paths = sorted([*(ROOT / "course_lib").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")])
    assert len(paths) > 50
    assert _own_summaries(paths) == []


def test_the_search_sees_a_summary_of_its_own(tmp_path: Path) -> None:
    """The check above can fail: a lesson that summarizes its own rounds is reported, wherever it is."""
    planted = tmp_path / "course_lib" / "lessons" / "spread.py"
    planted.parent.mkdir(parents=True)
    planted.write_text("import numpy as np\n\ndef spread(times):\n    return np.percentile(times, [25, 75])\n")
    (tmp_path / "course_lib" / "measure.py").write_text("q = statistics.quantiles(times, n=4)\n")
    assert _own_summaries(sorted((tmp_path / "course_lib").rglob("*.py")), tmp_path) == [
        "course_lib/lessons/spread.py:4: return np.percentile(times, [25, 75])"]
