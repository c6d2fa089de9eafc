"""A safe parser for expressions typed into widgets: text → a program both engines can run. Never ``eval``.

The text is parsed by Python's own parser (``ast.parse``) and then *checked against a whitelist*: numbers,
variable names, ``+ - * / ** @``, unary ``-``/``+``, parentheses and calls of the course's op functions with one
argument. Everything else (attributes, subscripts, lambdas, comprehensions, conditional expressions, keywords,
strings...) is refused with an :class:`ExpressionError` that gives the position and a hint. The accepted tree is
turned into a postfix list of instructions and *interpreted* by :meth:`Expression.program` — so no text ever
becomes code.

>>> e = parse("sin(x * w + 1)")
>>> e.variables
['x', 'w']
>>> from course_lib import dynamic as dy
>>> round(float(e.program(dy, x=dy.Tensor(3.0), w=dy.Tensor(2.0)).data), 4)
0.657
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import ops as _ops

CONSTANTS = {"pi": math.pi}
RESERVED = ("ops",)  # the first argument of every program
MAX_LENGTH = 500
MAX_NODES = 2000
MAX_VARIABLES = 12

_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow", ast.MatMult: "matmul"}
_REFUSED = {
    ast.Attribute: "attribute access (a.b) is not allowed",
    ast.Subscript: "indexing (a[i]) is not allowed",
    ast.Lambda: "lambda is not allowed",
    ast.IfExp: "conditional expressions (a if c else b) are not allowed: branches belong in a program with cond",
    ast.Compare: "comparisons are not allowed in an expression",
    ast.BoolOp: "and/or are not allowed",
    ast.ListComp: "comprehensions are not allowed", ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed", ast.GeneratorExp: "comprehensions are not allowed",
    ast.List: "lists are not allowed", ast.Tuple: "tuples are not allowed", ast.Dict: "dicts are not allowed",
    ast.Set: "sets are not allowed", ast.JoinedStr: "strings are not allowed", ast.Starred: "* unpacking is not allowed",
    ast.NamedExpr: "assignment (:=) is not allowed", ast.Await: "await is not allowed",
}


def functions() -> list[str]:
    """The op functions an expression may call: the one-argument functions of the op table (both engines have
    them), an op registered later included.

    >>> "sin" in functions() and "matmul" not in functions()
    True
    """
    return _ops.functions(1)


class ExpressionError(ValueError):
    """A typed expression the course cannot accept: ``position`` (0-based column or None) and a ``hint``."""

    def __init__(self, message: str, position: int | None = None, hint: str = "") -> None:
        self.message, self.position, self.hint = message, position, hint
        where = f" at column {position + 1}" if position is not None else ""
        super().__init__(f"{message}{where}" + (f". {hint}" if hint else ""))

    def pointer(self, text: str) -> str:
        """The text with a caret under the problem, for showing inline."""
        if self.position is None:
            return text
        return f"{text}\n{' ' * self.position}^"


@dataclass(frozen=True)
class Expression:
    """An accepted expression: ``variables`` in order of first use, and a postfix instruction list."""

    text: str
    variables: list[str]
    code: tuple[tuple[str, Any], ...]  # ("num", v) | ("var", name) | ("call", fn) | ("bin", op) | ("neg", None)

    def program(self, ops: Any, **values: Any) -> Any:
        """Run the expression with an ``ops`` namespace (``course_lib.static`` or ``course_lib.dynamic``)."""
        missing = [v for v in self.variables if v not in values]
        if missing:
            raise ExpressionError(f"no value given for {', '.join(missing)}")
        stack: list[Any] = []
        for kind, arg in self.code:
            if kind == "num":
                stack.append(arg)
            elif kind == "var":
                stack.append(values[arg])
            elif kind == "neg":
                stack.append(-stack.pop())
            elif kind == "call":
                stack.append(getattr(ops, arg)(stack.pop()))
            elif kind == "pow":
                base = stack.pop()
                with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # 2 ** 10000 is inf, as numpy
                    stack.append((np.float64(base) if isinstance(base, float) else base) ** arg)
            else:
                b, a = stack.pop(), stack.pop()
                stack.append(_numbers(arg, a, b) if isinstance(a, float) and isinstance(b, float) else
                             _apply(arg, a, b))
        return stack[0]

    def __call__(self, ops: Any, **values: Any) -> Any:
        return self.program(ops, **values)

    @property
    def source(self) -> list[str]:
        """The expression as the source of a one-line program (what a stepper highlights)."""
        return [f"def program({', '.join(['ops'] + self.variables)}):", f"    return {self.text.strip()}"]


def _numbers(op: str, a: float, b: float) -> np.float64:
    """An operation on two plain numbers gives what numpy gives (1/0 = inf, 0/0 = nan), never a Python error."""
    if op == "matmul":
        raise ExpressionError("@ needs vectors or matrices, not numbers", hint="use * to multiply numbers")
    with np.errstate(all="ignore"):
        return _apply(op, np.float64(a), np.float64(b))


def _apply(op: str, a: Any, b: Any) -> Any:
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "div":
        return a / b
    return a @ b


def parse(text: Any) -> Expression:
    """Check ``text`` against the whitelist and return an :class:`Expression`; else raise :class:`ExpressionError`."""
    if not isinstance(text, str):
        raise ExpressionError(f"an expression must be text, got {type(text).__name__}")
    if not text.strip():
        raise ExpressionError("the expression is empty", hint="type something like sin(x * w + 1)")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"the expression is {len(text)} characters long; the limit is {MAX_LENGTH}")
    if "\n" in text.strip() or ";" in text:
        raise ExpressionError("one expression only, on one line", position=_first(text, "\n;"))
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        pos = (e.offset - 1) if e.offset else None
        raise ExpressionError(f"this is not a valid expression ({e.msg})", pos,
                              "check the brackets and that every operator has two sides") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError("the expression is nested too deeply") from None
    lead = len(text) - len(text.lstrip())
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise ExpressionError(f"the expression has {len(nodes)} parts; the limit is {MAX_NODES}")
    for node in nodes:
        _check(node, lead)
    code, variables = _postfix(tree.body, lead)
    if len(variables) > MAX_VARIABLES:
        raise ExpressionError(f"{len(variables)} variables; the limit is {MAX_VARIABLES}",
                              hint="use fewer names so every variable gets a slider")
    return Expression(text.strip(), variables, tuple(code))


def _first(text: str, chars: str) -> int | None:
    hits = [text.find(c) for c in chars if c in text]
    return min(hits) if hits else None


def _col(node: ast.AST, lead: int) -> int | None:
    col = getattr(node, "col_offset", None)
    return None if col is None else col + lead


def _check(node: ast.AST, lead: int) -> None:
    for bad, why in _REFUSED.items():
        if isinstance(node, bad):
            raise ExpressionError(why, _col(node, lead), "use numbers, names, + - * / ** @ and "
                                  f"the functions {', '.join(functions())}")
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            what = "text" if isinstance(v, str) else type(v).__name__
            raise ExpressionError(f"only numbers are allowed, not {what} ({v!r})", _col(node, lead))
    elif isinstance(node, ast.BinOp) and type(node.op) not in _BINOPS:
        raise ExpressionError(f"the operator {type(node.op).__name__} is not allowed", _col(node, lead),
                              "allowed: + - * / ** @")
    elif isinstance(node, ast.UnaryOp) and not isinstance(node.op, (ast.USub, ast.UAdd)):
        raise ExpressionError(f"the operator {type(node.op).__name__} is not allowed", _col(node, lead))
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise ExpressionError("only the op functions can be called, by name", _col(node, lead))
        name = node.func.id
        if name not in functions():
            raise ExpressionError(f"unknown function {name!r}", _col(node, lead),
                                  f"the functions are {', '.join(functions())}" + _did_you_mean(name))
        if node.keywords or len(node.args) != 1:
            raise ExpressionError(f"{name}() takes exactly one argument", _col(node, lead))
    elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        raise ExpressionError("assignment is not allowed", _col(node, lead))
    elif not isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.Load,
                               ast.operator, ast.unaryop, ast.Call)):
        raise ExpressionError(f"{type(node).__name__} is not allowed in an expression", _col(node, lead))


def _did_you_mean(name: str) -> str:
    import difflib

    close = difflib.get_close_matches(name, functions(), n=1)
    return f"; did you mean {close[0]}?" if close else ""


def _postfix(root: ast.AST, lead: int) -> tuple[list[tuple[str, Any]], list[str]]:
    """Iterative post-order walk (a long sum is a deep tree: no recursion)."""
    code: list[tuple[str, Any]] = []
    variables: list[str] = []
    stack: list[tuple[ast.AST, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if isinstance(node, ast.BinOp):
            if not done:
                stack.append((node, True))
                if isinstance(node.op, ast.Pow):
                    stack.append((node.left, False))
                else:
                    stack.extend([(node.right, False), (node.left, False)])
            elif isinstance(node.op, ast.Pow):
                code.append(("pow", _constant_exponent(node.right, lead)))
            else:
                code.append(("bin", _BINOPS[type(node.op)]))
        elif isinstance(node, ast.UnaryOp):
            if not done:
                stack.append((node, True))
                stack.append((node.operand, False))
            elif isinstance(node.op, ast.USub):
                code.append(("neg", None))
        elif isinstance(node, ast.Call):
            if not done:
                stack.append((node, True))
                stack.append((node.args[0], False))
            else:
                code.append(("call", node.func.id))  # type: ignore[attr-defined]
        elif isinstance(node, ast.Constant):
            code.append(("num", _float(node.value)))
        elif isinstance(node, ast.Name):
            if node.id in functions():
                raise ExpressionError(f"{node.id!r} is a function; call it as {node.id}(...)", _col(node, lead))
            if node.id in CONSTANTS:
                code.append(("num", CONSTANTS[node.id]))
                continue
            if node.id in RESERVED:
                raise ExpressionError(f"{node.id!r} cannot be a variable name here", _col(node, lead),
                                      "it names the ops namespace a program receives; pick another name")
            if node.id.startswith("_"):
                raise ExpressionError(f"names may not start with an underscore: {node.id!r}", _col(node, lead))
            if node.id not in variables:
                variables.append(node.id)
            code.append(("var", node.id))
    return code, variables


def _float(value: float) -> float:
    """A literal as a float; one too large for a float (400 digits) is inf, as numpy reads such a number."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _constant_exponent(node: ast.AST, lead: int) -> float:
    """An exponent must be a number (it may be written as an expression of numbers, e.g. ``x ** (1/2)``)."""
    sub, names = _postfix(node, lead)
    if names or any(k == "call" for k, _ in sub):
        raise ExpressionError("the exponent of ** must be a number", _col(node, lead),
                              "for a variable exponent write exp(p * log(x))")
    stack: list[float] = []
    with np.errstate(all="ignore"):
        for kind, arg in sub:
            if kind == "num":
                stack.append(arg)
            elif kind == "neg":
                stack.append(-stack.pop())
            elif kind == "pow":
                stack.append(float(np.power(stack.pop(), arg)))
            else:
                b, a = stack.pop(), stack.pop()
                if arg == "matmul":
                    raise ExpressionError("@ needs vectors or matrices, not numbers", _col(node, lead))
                stack.append(float(np.divide(a, b)) if arg == "div" else float(_apply(arg, np.float64(a), b)))
    return stack[0]
