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
from collections.abc import Iterator, Mapping
from types import ModuleType

from ..i18n import N_, say

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


#: The line that stands for a hidden body (a comment in the shown code, in the language of the moment).
LEFT_TO_YOU = N_("exercise {key} asks you to write this")


def code_of(module: ModuleType, hide: Mapping[str, str] | None = None) -> SourceView:
    """The code of ``module`` (docstring aside), shown whole; ``hide`` maps a function's name (``"run"``, or
    ``"Class.method"``) to the exercise that asks for it (``"02.6"``): that function is shown as its signature and
    ``...`` (docstring and body left out: a docstring can state the very rule asked for), so the notebook never
    prints an exercise's answer above it.

    >>> from course_lib.lessons import tiny_static
    >>> code_of(tiny_static)._repr_markdown_().splitlines()[:2]
    ['```python', 'from __future__ import annotations']
    >>> shown = code_of(tiny_static, hide={"run": "02.6"}).source
    >>> "values[node] =" in shown, "def run(fetch: Node, feed: dict[Node, float]) -> float:" in shown
    (False, True)
    >>> code_of(tiny_static, hide={"walk": "02.6"})
    Traceback (most recent call last):
    ValueError: no function 'walk' in course_lib.lessons.tiny_static to hide; it has: Node.__add__, ...
    """
    source = source_without_docstring(module)
    if not hide:
        return SourceView(source)
    functions = dict(_functions(ast.parse(source)))
    lines = source.splitlines(keepends=True)
    cuts = []
    for name, key in hide.items():
        if name not in functions:
            raise ValueError(say(NO_SUCH_FUNCTION, name=name, module=module.__name__,
                                 known=", ".join(sorted(functions))))
        node = functions[name]
        indent = " " * (node.body[0].col_offset)
        stub = f"{indent}...  # {say(LEFT_TO_YOU, key=key)}\n"
        cuts.append((node.body[0].lineno - 1, node.end_lineno, stub))
    for start, end, stub in sorted(cuts, reverse=True):  # from the bottom up, so earlier line numbers hold
        lines[start:end] = [stub]
    return SourceView("".join(lines))


NO_SUCH_FUNCTION = N_("no function {name!r} in {module} to hide; it has: {known}")


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef]]:
    """The module's functions and its classes' methods, by name (``run``, ``Value.backward``)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    yield f"{node.name}.{item.name}", item
