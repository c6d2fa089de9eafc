"""Timing helpers: warm up, repeat, report the median and the spread, stamped with versions and hardware.

Timings vary from run to run and machine to machine: the course *shows* them, but its tests check counts and
structure instead (number of compiles, traces, nodes), never a threshold on time. Every timing of the course is
summarized by :func:`summarize` (median and quartiles, one quantile method), whether its rounds come from
:func:`measure`, from :func:`once_each` (calls that happen once, like a first call) or from a loop of a lesson's own.

>>> m = measure(lambda: sum(range(100)), repeat=5, number=100)
>>> m.median > 0 and m.unit
's'
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from .i18n import N_, Plural, number, say

#: how a measurement reads: "7.68 µs (IQR 6.89 µs–20.3 µs, 7×2598 calls)"; ``n``: the calls in all
SPREAD = Plural("{median} (IQR {low}–{high}, {repeat}×{number} call)",
                "{median} (IQR {low}–{high}, {repeat}×{number} calls)")
NO_ROUNDS = N_("summarize needs at least one timed round, got none: time something first")


@dataclass(frozen=True)
class Measurement:
    """``median`` seconds per call over ``repeat`` rounds of ``number`` calls; ``low``/``high``: the quartiles
    (made by :func:`summarize`)."""

    median: float
    low: float
    high: float
    repeat: int
    number: int
    unit: str = "s"

    @property
    def us(self) -> float:
        return self.median * 1e6

    def __str__(self) -> str:
        return str(say(SPREAD, median=fmt_seconds(self.median), low=fmt_seconds(self.low), high=fmt_seconds(self.high),
                       repeat=number(self.repeat), number=number(self.number), n=self.repeat * self.number))


def measure(fn: Callable[[], Any], repeat: int = 7, number: int | None = None, warmup: int = 1,
            budget: float = 0.2) -> Measurement:
    """Time ``fn()``: ``warmup`` untimed calls, then ``repeat`` rounds of ``number`` calls each.

    Without ``number``, it is chosen so that one round takes about ``budget / repeat`` seconds.
    """
    for _call in range(warmup):
        fn()
    if number is None:
        t0 = time.perf_counter()
        fn()
        one = max(time.perf_counter() - t0, 1e-7)
        number = max(1, int(budget / repeat / one))
    rounds = []
    for _round in range(repeat):
        t0 = time.perf_counter()
        for _call in range(number):
            fn()
        rounds.append((time.perf_counter() - t0) / number)
    return summarize(rounds, number)


def summarize(seconds: Sequence[float], number: int = 1) -> Measurement:
    """The one summary of timed rounds in the course: their median and their quartiles (``low``, ``high``), each
    round ``number`` calls (``seconds`` per call).

    The quartiles are the *inclusive* ones (``statistics.quantiles(..., method="inclusive")``: Hyndman and Fan's
    type 7, numpy's default ``method="linear"``, R's default, Excel's ``QUARTILE.INC``): with ``m`` sorted rounds,
    quartile ``k`` sits at position ``1 + k·(m - 1)/4``, read between the two nearest rounds. Why this one for the
    5 to 11 rounds the course takes: the spread it prints describes *these* rounds (the middle half of what was
    measured), and the inclusive quartiles always lie inside them, whereas the exclusive ones (the ``statistics``
    default, type 6, meant to estimate a population's quartiles from a sample) reach out to the extreme rounds
    when there are few: of 3 rounds they give the minimum and the maximum, a "middle half" that is the whole. And it
    is what a reader checking a figure with ``np.percentile`` gets by default.

    7 rounds 1..6 and 10: positions 2.5, 4 and 5.5, so the quartiles are 2.5 and 5.5 (the exclusive method would
    give rounds 2 and 6); one round is its own median and quartiles.

    >>> m = summarize([10.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    >>> m.low, m.median, m.high, m.repeat
    (2.5, 4.0, 5.5, 7)
    >>> summarize([2e-6], number=100).high
    2e-06
    """
    if not seconds:
        raise ValueError(say(NO_ROUNDS))
    q = statistics.quantiles(seconds, n=4, method="inclusive") if len(seconds) >= 2 else [seconds[0]] * 3
    return Measurement(statistics.median(seconds), q[0], q[2], len(seconds), number)


def once_each(calls: Iterable[Callable[[], Any]]) -> Measurement:
    """Time each of ``calls`` once, one after the other, and :func:`summarize` them: for what happens once per
    object and cannot be repeated in a loop (the first call of a fresh function: its trace or compile; a call with a
    shape never seen). Build the objects beforehand: only the calls are timed.

    >>> once_each([lambda: None] * 3).repeat
    3
    """
    times = []
    for call in calls:
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return summarize(times)


def first_calls(make: Callable[[], Callable[[], Any]], repeat: int) -> tuple[Measurement, list[Callable[[], Any]]]:
    """The first call of ``repeat`` fresh functions (``make()`` builds one; all are built before any is timed),
    timed by :func:`once_each`, and the functions (to count their traces or compiles afterwards).

    >>> m, fns = first_calls(lambda: (lambda: None), 3)
    >>> m.repeat, m.number, len(fns)
    (3, 1, 3)
    """
    fns = [make() for _k in range(max(1, repeat))]
    return once_each(fns), fns


def fmt_seconds(s: float) -> str:
    """A duration in the unit a person reads best: ns, µs, ms or s (the number as the language writes it).

    >>> fmt_seconds(0.00123), fmt_seconds(2.5e-8)
    ('1.23 ms', '25 ns')
    """
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{number(s / scale, spec='.3g')} {unit}"
    return f"{number(s / 1e-9, spec='.3g')} ns"


def stamp() -> dict[str, str]:
    """Versions and hardware to print next to every number (installed versions are read without importing)."""
    out = {"python": platform.python_version(), "machine": platform.machine(), "cpus": str(os.cpu_count())}
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
        if model:
            out["cpu"] = model
    except OSError:
        pass
    for pkg in ("numpy", "tensorflow-cpu", "tensorflow", "torch"):
        try:
            out[pkg.replace("-cpu", "")] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            continue
    return out
