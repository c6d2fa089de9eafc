"""Timing helpers: warm up, repeat, report the median and the spread, stamped with versions and hardware.

Timings vary from run to run and machine to machine: the course *shows* them, but its tests check counts and
structure instead (number of compiles, traces, nodes), never a threshold on time.

>>> m = measure(lambda: sum(range(100)), repeat=5, number=100)
>>> m.median > 0 and m.unit
's'
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from .i18n import Plural, number, say

#: how a measurement reads: "7.68 µs (IQR 6.89 µs–20.3 µs, 7×2598 calls)"; ``n``: the calls in all
SPREAD = Plural("{median} (IQR {low}–{high}, {repeat}×{number} call)",
                "{median} (IQR {low}–{high}, {repeat}×{number} calls)")


@dataclass(frozen=True)
class Measurement:
    """``median`` seconds per call over ``repeat`` rounds of ``number`` calls; ``low``/``high``: quartiles."""

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
    q = statistics.quantiles(rounds, n=4) if len(rounds) >= 2 else [rounds[0]] * 3
    return Measurement(statistics.median(rounds), q[0], q[2], repeat, number)


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
