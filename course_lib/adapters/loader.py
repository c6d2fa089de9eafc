"""The one way the course imports a real framework: :func:`load_tensorflow` and :func:`load_torch`.

Both import lazily (``import course_lib`` and ``import course_lib.adapters`` import neither framework) and quietly:
TensorFlow 2.21 prints C++ log lines on stderr while it loads ("All log messages before absl::InitializeLog() ...",
"oneDNN custom operations are on ...") even with ``TF_CPP_MIN_LOG_LEVEL=3``. In Jupyter they land in the notebook
as red text that differs from run to run (timestamps, thread ids), so a strict nbval comparison fails on them. The
import runs inside :func:`course_lib.i18n.stderr.quiet_stderr`, which drops exactly those known lines and passes
anything else through, so a real problem is still seen. oneDNN stays on, as it is by default, so timings are those
of a default install.

A framework that is not installed raises :class:`FrameworkMissingError` (an ``ImportError``) whose message says
what to install, instead of a bare ``ModuleNotFoundError``:

>>> require("no_such_framework_here")
Traceback (most recent call last):
...
course_lib.adapters.loader.FrameworkMissingError: this needs no_such_framework_here, ...
>>> tf = load_tensorflow()                  # doctest: +SKIP
>>> tf.executing_eagerly()                  # doctest: +SKIP
True
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

from ..i18n import N_, say
from ..i18n import gettext as _
from ..i18n.stderr import quiet_stderr
from .quiet import NOISE

__all__ = ["MISSING", "FrameworkMissingError", "load_tensorflow", "load_torch", "require"]

MISSING = N_("this needs {module}, which could not be imported ({error}). Install it with:\n"
             "    {hint}\n"
             "(the course's requirements.txt / environment.yml list the tested versions)")

_INSTALL_HINTS = {  # translated where they are shown
    "tensorflow": N_("pip install tensorflow-cpu==2.21.0   (or: conda install -c conda-forge tensorflow-cpu)"),
    "torch": "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu",
}


class FrameworkMissingError(ImportError):
    """Raised when something needs TensorFlow or PyTorch and that framework cannot be imported."""


def require(module: str) -> ModuleType:
    """Import ``module`` (``"tensorflow"``, ``"torch"``, or a submodule such as ``"torch.export"``) or raise a
    :class:`FrameworkMissingError` that says what to install. Not quiet: use :func:`load_tensorflow` /
    :func:`load_torch` for a first import."""
    try:
        return importlib.import_module(module)
    except ImportError as err:  # ModuleNotFoundError, or a broken install
        top = module.split(".")[0]
        hint = _(_INSTALL_HINTS[top]) if top in _INSTALL_HINTS else f"pip install {top}"
        raise FrameworkMissingError(say(MISSING, module=module, error=err, hint=hint)) from err


def _quiet_import(module: str) -> ModuleType:
    """``module`` from ``sys.modules`` if loaded (no stderr capture then: nothing would print), else imported
    inside :func:`quiet_stderr`."""
    if module in sys.modules:
        return sys.modules[module]
    with quiet_stderr(NOISE):
        return require(module)


def load_tensorflow() -> ModuleType:
    """``import tensorflow`` without its start-up log lines (see the module docstring); returns the module.

    Also sets ``TF_CPP_MIN_LOG_LEVEL=3`` (unless set; it is read when TensorFlow loads, so this happens here, when
    asked, never at ``import course_lib``) and TensorFlow's Python logger to ERROR, so later C++ info lines,
    retracing notes and deprecation notes do not make two runs of a notebook differ either.
    """
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = _quiet_import("tensorflow")
    tf.get_logger().setLevel("ERROR")
    return tf


def load_torch() -> ModuleType:
    """``import torch`` (quietly, like :func:`load_tensorflow`), with ``torch.fx`` reachable as ``torch.fx``
    (the converters and ``torch.compile``'s captures need it); returns the module."""
    torch = _quiet_import("torch")
    _quiet_import("torch.fx")  # a submodule: importing it makes it an attribute of torch
    return torch
