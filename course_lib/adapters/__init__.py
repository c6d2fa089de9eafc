"""Real frameworks -> the course's graph IR (:mod:`course_lib.graph`).

Two adapters, each imported only when an object of its framework is converted (``import course_lib`` and
``import course_lib.adapters`` import neither framework):

* :mod:`course_lib.adapters.tensorflow` -- a ``tf.Graph`` (TF1 style, placeholders + Session), a ``tf.function``'s
  ``ConcreteFunction`` with its ``cond``/``while`` bodies, a ``GraphDef``;
* :mod:`course_lib.adapters.torch` -- the autograd graph behind a tensor's ``grad_fn``, a ``torch.fx.GraphModule``,
  and the FX graphs ``torch.compile`` captures (:func:`course_lib.adapters.torch.capture_compiled`).

Both follow the same rules: names are the framework's own (op types, ``grad_fn`` class names, parameter names),
the conversion is complete (one IR node per framework op / autograd function / fx node; only the renderer groups
or caps), traversals are iterative, and the same model gives the same IR (ids, names, order) every time.

The rest of the package: :mod:`~course_lib.adapters.loader` (the one way to import a framework, quietly, with an install
hint when it is missing), :mod:`~course_lib.adapters.quiet` (TensorFlow's stderr noise, captured warnings and logs,
error summaries), :mod:`~course_lib.adapters.counters` (traces, captures and compiles counted instead of timed),
:mod:`~course_lib.adapters.frameworks` (the course's programs built by the real frameworks) and
:mod:`~course_lib.adapters.deployment` (graphs as data: ``torch.export``, a ``GraphDef`` run by names).

This module holds the few helpers the converters share (and re-exports the loader's ``require`` and
``FrameworkMissingError``); it never imports a framework itself.

>>> from course_lib.adapters import module_path_to_scope
>>> module_path_to_scope("encoder.layers.0.fc")
'encoder/layers/0/fc'
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from .loader import FrameworkMissingError, require

__all__ = [
    "MAX_VALUE_ELEMENTS",
    "FrameworkMissingError",
    "module_path_to_scope",
    "require",
    "small_value",
]

#: Constants and parameters with at most this many elements carry their value into the IR (the renderer shows it);
#: bigger ones only their shape, so converting a real model never copies its weights.
MAX_VALUE_ELEMENTS = 16

_PY_SOURCE = re.compile(r"^L\['[^']*'\]")  # Dynamo's source prefix: L['self'], L['fn'], L['model'] ...
_PY_ITEM = re.compile(r"\._?modules\['([^']*)'\]|\['([^']*)'\]")


def module_path_to_scope(path: str) -> str:
    """A PyTorch module path (``"encoder.layers.0"``, or Dynamo's ``"L['self'].encoder._modules['0']"``) as a
    ``/``-separated IR scope (``"encoder/layers/0"``), so the renderer can nest modules as clusters."""
    path = _PY_SOURCE.sub("", path)
    path = _PY_ITEM.sub(lambda m: "." + (m.group(1) or m.group(2)), path)
    return "/".join(p for p in path.split(".") if p)


def small_value(a: Any, limit: int = MAX_VALUE_ELEMENTS) -> np.ndarray | None:
    """``a`` as a float64 array if it is numeric and has at most ``limit`` elements, else None."""
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError):  # an object numpy cannot hold: no value to show
        return None
    if arr.size > limit or arr.dtype.kind not in "biuf":
        return None
    return arr.astype(np.float64)
