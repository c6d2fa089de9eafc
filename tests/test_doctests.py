"""Every docstring example in course_lib (and in site_tools, the static edition's builder) runs and gives what it
shows (docstrings are part of the course).

This is the only place that runs course_lib's doctests: no other test file calls ``doctest.testmod`` and pytest is
not given ``--doctest-modules``, so each example runs once per test run.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import course_lib
import site_tools


def _broken_package(name: str) -> None:
    # walk_packages skips a subpackage that fails to import unless told otherwise: its doctests would vanish unseen
    raise ImportError(f"{name} cannot be imported, so its docstring examples cannot run")


MODULES = sorted(m.name for pkg in (course_lib, site_tools)
                 for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".", onerror=_broken_package))


@pytest.mark.parametrize("name", ["course_lib", "site_tools", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples of {name} failed"


def test_the_walk_reaches_every_part_of_the_package() -> None:
    """A walk that stopped early would pass with nothing to run: the core, adapters and lessons are all in it."""
    for expected in ("course_lib.graph", "course_lib.measure", "course_lib.adapters.quiet", "course_lib.lessons.trees",
                     "site_tools.sanitize"):
        assert any(m == expected or m.startswith(expected + ".") for m in MODULES), f"{expected} was not walked"
