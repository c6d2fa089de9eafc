"""What a define-by-run graph costs in memory (notebook 03, section 8): what autograd saves, and when it lets go.

PyTorch's *Autograd mechanics* notes: to compute gradients, an operation saves some of its inputs or outputs for
the backward pass (``sin`` saves its input, since d sin(x)/dx = cos(x); ``x * y`` saves both factors; ``x + 1``
saves nothing, its derivative is 1). Those saved tensors live as long as the graph. ``backward()`` frees them as
it goes, node by node, and keeps the nodes (PyTorch's ``engine.cpp``: ``fn.release_variables()`` unless
``keep_graph``): a second ``backward()`` raises ``RuntimeError`` when a node needs what it saved
(``saved_variable.cpp``, ``ERR_BACKWARD_TWICE``), unless the first passed ``retain_graph=True``; a graph whose nodes
saved nothing, such as ``x + 1``, is walked again and ``x.grad`` adds up. Under ``torch.no_grad()`` or
``torch.inference_mode()`` nothing is recorded, so nothing is saved.

The counts use the public ``torch.autograd.graph.saved_tensors_hooks``, which see every tensor saved *but* a Python
number wrapped as a tensor (the ``3`` of ``x * 3``: "Avoid wrapped numbers from being leaked to the user", in
``saved_variable.cpp``); ``OPS`` holds no such product, and :func:`backward_twice` tells what a second call does
whatever was saved. PyTorch is imported (quietly) only when a function here runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..adapters.loader import load_torch
from ..adapters.quiet import ErrorSummary, error_of

__all__ = ["OPS", "TANH", "backward_twice", "not_recorded", "saved_tensors"]

#: The one-line functions section 8 counts, by the name the notebook prints.
OPS: dict[str, Callable[[Any], Any]] = {
    "sin(x)": lambda x: x.sin(),
    "exp(x)": lambda x: x.exp(),
    "x * x": lambda x: x * x,
    "x + 1": lambda x: x + 1,
    "sin(x) * x + 1": lambda x: x.sin() * x + 1,
}

def TANH(x: Any) -> Any:  # upper case: a constant of the lesson, like OPS
    """The function of exercise 03.5 (a second ``backward()`` through ``tanh(x)``), not among section 8's: its
    outcome is the student's prediction."""
    return x.tanh()


def saved_tensors(fn: Callable[[Any], Any], requires_grad: bool = True) -> int:
    """How many tensors autograd saves for the backward pass while ``fn`` runs on a vector ``x`` (counted with
    ``saved_tensors_hooks``, which sees every tensor packed for backward).

    >>> saved_tensors(OPS["sin(x)"]), saved_tensors(OPS["x + 1"]), saved_tensors(OPS["sin(x)"], requires_grad=False)
    (1, 0, 0)
    """
    torch = load_torch()
    packed: list[Any] = []

    def pack(t: Any) -> Any:
        packed.append(t)
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn(torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=requires_grad))
    return len(packed)


def backward_twice(fn: Callable[[Any], Any], retain_graph: bool = False) -> tuple[ErrorSummary | None, float, float]:
    """``y = fn(x)`` at ``x = 2``, then ``y.backward()`` twice (the first with ``retain_graph``): the summary of the
    error of the second call (None when it ran), and ``x.grad`` after the first call and after the second.

    >>> error, once, twice = backward_twice(OPS["sin(x) * x + 1"])
    >>> error.kind, once == twice                    # the saved tensors were freed: the second call fails
    ('RuntimeError', True)
    >>> error, once, twice = backward_twice(OPS["x + 1"])
    >>> error, once, twice                           # nothing saved: walked again, x.grad adds up
    (None, 1.0, 2.0)
    >>> backward_twice(OPS["sin(x) * x + 1"], retain_graph=True)[0] is None
    True
    """
    torch = load_torch()
    x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    y = fn(x)
    y.backward(retain_graph=retain_graph)
    once = float(x.grad)
    error = error_of(y.backward)
    return error, once, float(x.grad)


def not_recorded() -> dict[str, tuple[bool, bool]]:
    """``(records a grad_fn, tensors saved > 0)`` for ``sin(x) * x + 1`` with recording on, under
    ``torch.no_grad()`` and under ``torch.inference_mode()``.

    >>> not_recorded()["torch.no_grad()"]
    (False, False)
    """
    torch = load_torch()
    out = {}
    for label, context in (("recording", None), ("torch.no_grad()", torch.no_grad),
                           ("torch.inference_mode()", torch.inference_mode)):
        x = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
        fn = OPS["sin(x) * x + 1"]
        if context is None:
            y, saved = fn(x), saved_tensors(fn)
        else:
            with context():
                y = fn(x)
                saved = saved_tensors(fn)
        out[label] = (y.grad_fn is not None, saved > 0)
    return out
