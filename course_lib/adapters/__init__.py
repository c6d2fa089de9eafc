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

This module holds the few helpers both share and never imports a framework itself.

>>> from course_lib.adapters import module_path_to_scope
>>> module_path_to_scope("encoder.layers.0.fc")
'encoder/layers/0/fc'
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["MAX_VALUE_ELEMENTS", "FrameworkMissingError", "module_path_to_scope", "require", "small_value"]

#: Constants and parameters with at most this many elements carry their value into the IR (the renderer shows it);
#: bigger ones only their shape, so converting a real model never copies its weights.
MAX_VALUE_ELEMENTS = 16

_INSTALL_HINTS = {
    "tensorflow": "pip install tensorflow-cpu==2.21.0   (or: conda install -c conda-forge tensorflow-cpu)",
    "torch": "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu",
}


class FrameworkMissingError(ImportError):
    """Raised when a real-framework object must be converted but the framework is not installed."""


def require(module: str) -> ModuleType:
    """Import ``module`` (``"tensorflow"`` or ``"torch"``) or raise an error that says what to install."""
    try:
        return importlib.import_module(module)
    except ImportError as err:  # ModuleNotFoundError, or a broken install
        hint = _INSTALL_HINTS.get(module, f"pip install {module}")
        raise FrameworkMissingError(
            f"converting this object needs {module}, which could not be imported ({err}). Install it with:\n"
            f"    {hint}\n"
            "(the course's requirements.txt / environment.yml list the tested versions)"
        ) from err


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
