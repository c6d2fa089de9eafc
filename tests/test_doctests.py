"""Every docstring example in course_lib runs and gives what it shows (docstrings are part of the course)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import course_lib

MODULES = sorted(m.name for m in pkgutil.walk_packages(course_lib.__path__, "course_lib."))


@pytest.mark.parametrize("name", ["course_lib", *MODULES])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples of {name} failed"
