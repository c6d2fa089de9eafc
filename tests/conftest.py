"""Shared test set-up: each test starts with no exercise attempts counted (attempts are kept per exercise key for
the whole session, as a notebook needs, so without this one test's wrong answers would move another's hints on).

``pytest --quick`` (what ``./course test --quick`` runs) leaves out the files listed in SLOW, without importing them;
their tests carry the ``slow`` marker in a full run (``pytest -m slow`` runs just them)."""

from __future__ import annotations

from pathlib import Path

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


HERE = Path(__file__).resolve().parent
#: Test files left out by the edit-test loop (./course test --quick): each drives real TensorFlow or PyTorch (their
#: imports alone take seconds, and these tests build, trace and time real graphs), builds the whole static site, runs
#: a jupyter server and repo2docker (the deployment recipes), or
#: searches thousands of random inputs. Together they are about three quarters of the unit stage's time; the core,
#: the view, the widgets, the messages, the notebooks' rules and the layering stay in the loop. ./course test runs all.
SLOW = {
    "test_adapters_tensorflow.py", "test_adapters_torch.py", "test_assignments.py", "test_autograd_memory.py",
    "test_compiling.py",
    "test_deploy_recipes.py", "test_deployment.py", "test_edge_values.py", "test_envcheck.py",
    "test_exercises_05_06.py", "test_frameworks.py",
    "test_i18n_exercises.py", "test_lazy_imports.py", "test_site_build.py", "test_tf_debugging.py",
    "test_xla_payoff.py",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--quick", action="store_true",
                     help="leave out the slow test files (tests/conftest.py, SLOW): the edit-test loop")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: left out by pytest --quick (tests/conftest.py, SLOW, says why)")
    gone = sorted(SLOW - {p.name for p in HERE.glob("test_*.py")})
    if gone:  # a renamed file would silently join the quick loop
        raise pytest.UsageError(f"tests/conftest.py lists slow test files that do not exist: {gone}; "
                                "rename them in SLOW (or take them off)")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if config.getoption("--quick") and collection_path.parent == HERE and collection_path.name in SLOW:
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.parent == HERE and item.path.name in SLOW:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def tf_loops() -> tuple[object, object]:
    """Notebook 08's two loops as tf.functions (fresh ones: their trace counts start at 0): ``unrolled(x, n)`` over
    Python's ``range(n)``, ``looped(x, n)`` over ``tf.range(n)`` (AutoGraph reads a function's source: a file's)."""
    tf = pytest.importorskip("tensorflow")

    @tf.function
    def unrolled(x, n):
        for _i in range(n):
            x = x * 0.5 + 1.0
        return x

    @tf.function
    def looped(x, n):
        for _i in tf.range(n):
            x = x * 0.5 + 1.0
        return x

    return unrolled, looped
