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

__all__ = ["SourceView", "code_of", "source_without_docstring"]


def source_without_docstring(module: ModuleType) -> str:
    """The source of ``module`` without its module docstring (and the blank lines after it)."""
    source = inspect.getsource(module)
    body = ast.parse(source).body
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        source = "\n".join(source.splitlines()[first.end_lineno:]).lstrip("\n") + "\n"
    return source


class SourceView:
    """Code to read in a notebook: a fenced Python block in Jupyter (monospaced and highlighted in JupyterLab and in
    the static pages alike, with no style sheet of its own), the plain source as text."""

    def __init__(self, source: str) -> None:
        self.source = source

    def _repr_markdown_(self) -> str:
        return f"```python\n{self.source}```"

    def __repr__(self) -> str:
        return self.source


def code_of(module: ModuleType) -> SourceView:
    """The code of ``module`` (docstring aside), shown whole.

    >>> from course_lib.lessons import tiny_static
    >>> code_of(tiny_static)._repr_markdown_().splitlines()[:2]
    ['```python', 'from __future__ import annotations']
    """
    return SourceView(source_without_docstring(module))
