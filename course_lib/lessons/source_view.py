"""A small module's code shown in a notebook, whole: how 02 and 03 open the black box of a minimal engine.

The module docstring is left out (the notebook's prose says what it would), everything else is shown as it is in
the file, so the notebook can never show a version of the engine that is not the one it runs.

>>> from course_lib.lessons import tiny_dynamic
>>> source_without_docstring(tiny_dynamic).splitlines()[0]
'from __future__ import annotations'
"""

from __future__ import annotations

import ast
import inspect
from types import ModuleType
from typing import Any

__all__ = ["code_of", "source_without_docstring"]


def source_without_docstring(module: ModuleType) -> str:
    """The source of ``module`` without its module docstring (and the blank lines after it)."""
    source = inspect.getsource(module)
    body = ast.parse(source).body
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        source = "\n".join(source.splitlines()[first.end_lineno:]).lstrip("\n") + "\n"
    return source


def code_of(module: ModuleType) -> Any:
    """The code of ``module`` (docstring aside) as a highlighted block in Jupyter, plain text elsewhere."""
    from IPython.display import Code

    return Code(source_without_docstring(module), language="python")
