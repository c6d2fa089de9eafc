"""Checked exercises of notebook 04, *Side by side*, that need more than a line of the notebook (04.1-04.4 are
built in the notebook from :mod:`~course_lib.lessons.graph_checks`). Worked solutions:
``instructor/04_side_by_side_solutions.md``.

>>> debug_choice().check("z").ok
False
"""

from __future__ import annotations

import functools

from .exercises import Exercise, choice
from .tf_levers import python_runs

__all__ = ["DEBUG_CHOICES", "debug_choice", "debug_verdict"]

#: 04.5's options: a print inside a tf.function showed one line for many calls; what to do, and why.
DEBUG_CHOICES = {
    "a": "nothing is wrong: a print in a tf.function runs on every call, so the function ran only once",
    "b": "turn on tf.config.run_functions_eagerly(True) while debugging: the Python body then runs on every call, "
         "so the print sees each call's real values",
    "c": "add reduce_retracing=True: with fewer traces, the print runs more often",
    "d": "nothing can be done: a print inside a graph breaks it in two, so its values are lost",
}


def debug_verdict(calls: int = 3) -> str:
    """04.5's answer, decided by real TensorFlow: ``"b"`` when the body ran once traced and on every call with
    ``run_functions_eagerly(True)``."""
    runs = python_runs(calls)
    return "b" if runs == {"traced graph": 1, "run_functions_eagerly(True)": calls} else "a"


@functools.cache
def debug_choice() -> Exercise:
    """04.5: a decision with its reason, checked against real TensorFlow when the answer is checked."""
    why = {
        "a": "a Python print runs while tracing, once per trace, not on every call (section 3 counted 1 for 3 calls)",
        "b": "with run_functions_eagerly(True) the body ran on each of 3 calls; switch it off again afterwards, it "
             "is slow (tf.print, a graph op, is the other way)",
        "c": "reduce_retracing makes traces rarer, so a Python print runs even less often",
        "d": "that is torch.compile's graph break; a tf.function runs the print once, while tracing, and keeps one "
             "graph",
    }
    return Exercise("04.5", "A print in a tf.function showed one line for many calls: what do you do, and why?",
                    choice(DEBUG_CHOICES, debug_verdict, why),
                    hints=["when does Python run the body of a tf.function?", "which lever counted 3 runs for 3 calls?"])
