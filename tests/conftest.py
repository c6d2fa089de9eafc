"""Shared test set-up: each test starts with no exercise attempts counted (attempts are kept per exercise key for
the whole session, as a notebook needs, so without this one test's wrong answers would move another's hints on)."""

from __future__ import annotations

import pytest

from course_lib.lessons.exercises import forget_attempts


@pytest.fixture(autouse=True)
def _fresh_exercise_attempts():
    forget_attempts()
    yield
