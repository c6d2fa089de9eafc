"""Shared test set-up: each test starts with no exercise attempts counted (attempts are kept per exercise key for
the whole session, as a notebook needs, so without this one test's wrong answers would move another's hints on)."""

from __future__ import annotations

import pytest

from course_lib.i18n import set_language
from course_lib.lessons.exercises import forget_attempts


@pytest.fixture(autouse=True)
def _fresh_exercise_attempts():
    forget_attempts()
    yield


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A test that switches the course to French (set_language) leaves English behind it for the next test."""
    yield
    set_language("en")
