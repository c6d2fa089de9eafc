"""Checked exercises of notebook 03, *Define-by-run: PyTorch*, that need more than a line of the notebook (03.1-03.4
are built in the notebook). Worked solutions: ``instructor/03_define_by_run_pytorch_solutions.md``.

>>> backward_choice().check("z").ok
False
"""

from __future__ import annotations

import functools

from .autograd_memory import backward_twice
from .exercises import Exercise, choice

__all__ = ["BACKWARD_CHOICES", "backward_choice", "backward_verdict"]

#: 03.5's options: what a second ``backward()`` through the same graph does.
BACKWARD_CHOICES = {
    "a": "it runs again and x.grad doubles: the graph is still there, so backward can walk it again",
    "b": "it raises RuntimeError: the first backward freed the tensors the graph saved; pass retain_graph=True to "
         "the first call to keep them",
    "c": "it does nothing: the gradients are already in x.grad",
    "d": "it records the forward graph again, then walks it: define-by-run rebuilds the graph whenever needed",
}


def backward_verdict() -> str:
    """03.5's answer, decided by real PyTorch: ``"b"`` when a second backward fails without ``retain_graph`` and
    runs with it."""
    fails, _ = backward_twice(retain_graph=False)
    kept, _ = backward_twice(retain_graph=True)
    if fails is not None and fails.kind == "RuntimeError" and kept is None:
        return "b"
    return "a"


@functools.cache
def backward_choice() -> Exercise:
    """03.5: a prediction with its reason, checked against real PyTorch when the answer is checked."""
    why = {
        "a": "only with retain_graph=True on the first call: by default backward frees what the graph saved",
        "b": "backward frees the saved tensors as it goes (memory back at once); retain_graph=True keeps them, and "
             "x.grad then accumulates over both calls",
        "c": "backward does not check x.grad: it walks the graph, and the graph can no longer be walked",
        "d": "the graph is recorded by the forward pass only; backward walks the record it was given",
    }
    return Exercise("03.5", "What does a second y.backward() do, and why?",
                    choice(BACKWARD_CHOICES, backward_verdict, why),
                    hints=["what did section 8 print for the second call?", "what does retain_graph keep?"])
