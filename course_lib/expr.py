"""A safe parser for expressions typed into widgets: text → a program both engines can run. Never ``eval``.

The text is parsed by Python's own parser (``ast.parse``) and then *checked against a whitelist*: numbers, variable
names, the operators of the op table (``+ - * / ** @``, unary ``-``; Python's unary ``+`` changes nothing), parentheses
and calls of the course's op functions with one argument. Everything else (attributes, subscripts, lambdas,
comprehensions, conditional expressions, keywords, strings...) is refused with an :class:`ExpressionError` that gives
the position and a hint. The accepted tree is turned into a postfix list of instructions and *interpreted* by
:meth:`Expression.program` — so no text ever becomes code. Which operators exist, and what they mean, comes from
:data:`course_lib.ops.OPS` (each op's :class:`~course_lib.ops.Spelling`): an operator registered there can be typed here
with no edit.

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import ops as _ops
from .i18n import N_, Said, say

CONSTANTS = {"pi": math.pi}
RESERVED = ("ops",)  # the first argument of every program
MAX_LENGTH = 500
MAX_NODES = 2000
MAX_VARIABLES = 12

# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
AT_COLUMN = N_(" at column {column}")  # after a message, where the problem is (1-based)
COMPREHENSIONS = N_("comprehensions are not allowed")
REFUSED = {  # a kind of Python syntax an expression may not use -> why
    ast.Attribute: N_("attribute access (a.b) is not allowed"),
    ast.Subscript: N_("indexing (a[i]) is not allowed"),
    ast.Lambda: N_("lambda is not allowed"),
    ast.IfExp: N_("conditional expressions (a if c else b) are not allowed: branches belong in a program with cond"),
    ast.Compare: N_("comparisons are not allowed in an expression"),
    ast.BoolOp: N_("and/or are not allowed"),
    ast.ListComp: COMPREHENSIONS, ast.SetComp: COMPREHENSIONS, ast.DictComp: COMPREHENSIONS,
    ast.GeneratorExp: COMPREHENSIONS,
    ast.List: N_("lists are not allowed"), ast.Tuple: N_("tuples are not allowed"),
    ast.Dict: N_("dicts are not allowed"),
    ast.Set: N_("sets are not allowed"), ast.JoinedStr: N_("strings are not allowed"),
    ast.Starred: N_("* unpacking is not allowed"), ast.NamedExpr: N_("assignment (:=) is not allowed"),
    ast.Await: N_("await is not allowed"),
}
ALLOWED = N_("use numbers, names, {operators} and the functions {functions}")  # the hint of a refused syntax
NO_VALUE = N_("no value given for {names}")
MATMUL_OF_NUMBERS = N_("@ needs vectors or matrices, not numbers")
MULTIPLY_NUMBERS = N_("use * to multiply numbers")
NOT_TEXT = N_("an expression must be text, got {kind}")
EMPTY = N_("the expression is empty")
TYPE_SOMETHING = N_("type something like sin(x * w + 1)")
TOO_LONG = N_("the expression is {length} characters long; the limit is {limit}")
ONE_LINE = N_("one expression only, on one line")
NOT_VALID = N_("this is not a valid expression ({detail})")  # detail: Python's own words (SyntaxError.msg)
CHECK_BRACKETS = N_("check the brackets and that every operator has two sides")
TOO_DEEP = N_("the expression is nested too deeply")
TOO_MANY_PARTS = N_("the expression has {parts} parts; the limit is {limit}")
TOO_MANY_VARIABLES = N_("{count} variables; the limit is {limit}")
FEWER_NAMES = N_("use fewer names so every variable gets a slider")
ONLY_NUMBERS_NOT_TEXT = N_("only numbers are allowed, not text ({value!r})")
ONLY_NUMBERS = N_("only numbers are allowed, not {kind} ({value!r})")
OPERATOR = N_("the operator {name} is not allowed")
OPERATORS_ALLOWED = N_("allowed: {operators}")  # operators: + - * / ** @ (the table's)
CALL_BY_NAME = N_("only the op functions can be called, by name")
UNKNOWN_FUNCTION = N_("unknown function {name!r}")
THE_FUNCTIONS = N_("the functions are {functions}")
DID_YOU_MEAN = N_("the functions are {functions}; did you mean {close}?")
ONE_ARGUMENT = N_("{name}() takes exactly one argument")
ASSIGNMENT = N_("assignment is not allowed")
NOT_ALLOWED = N_("{kind} is not allowed in an expression")
IS_A_FUNCTION = N_("{name!r} is a function; call it as {name}(...)")
RESERVED_NAME = N_("{name!r} cannot be a variable name here")
PICK_ANOTHER_NAME = N_("it names the ops namespace a program receives; pick another name")
UNDERSCORE = N_("names may not start with an underscore: {name!r}")
EXPONENT = N_("the exponent of ** must be a number")
VARIABLE_EXPONENT = N_("for a variable exponent write exp(p * log(x))")


def functions() -> list[str]:
    """The op functions an expression may call: the one-argument functions of the op table (both engines have
    them), an op registered later included.

    >>> "sin" in functions() and "matmul" not in functions()
    True
    """
    return _ops.functions(1)


class ExpressionError(ValueError):
    """A typed expression the course cannot accept: ``position`` (0-based column or None) and a ``hint``.

    ``message`` and ``hint`` are said in the language of the moment (:func:`course_lib.i18n.say`); the message is
    also kept as ``said``, so :func:`course_lib.i18n.message_of` tells which message it was. Plain text works too
    (a subclass such as ``lessons.trees.TreeError`` may pass it).
    """

    def __init__(self, message: str, position: int | None = None, hint: str = "") -> None:
        self.message, self.position, self.hint = message, position, hint
        if isinstance(message, Said):
            self.said = message
        where = say(AT_COLUMN, column=position + 1) if position is not None else ""
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
    code: tuple[tuple[str, Any], ...]  # ("num", v) | ("var", name) | ("call", fn) | ("op", op name)

    def program(self, ops: Any, /, **values: Any) -> Any:
        """Run the expression with an ``ops`` namespace (``course_lib.static`` or ``course_lib.dynamic``).

        ``self`` and ``ops`` are positional only, so a variable may be named ``self`` (or ``values``). An
        expression of numbers only (``2 + 3``) gives a constant of the engine (``ops.constant(5.0)``, as
        ``tf.constant`` or ``torch.tensor``), so both engines have a node holding its value.

        >>> from course_lib import dynamic as dy
        >>> parse("2 + 3").program(dy).item(), parse("self").program(None, self=2.0)
        (5.0, 2.0)
        """
        missing = [v for v in self.variables if v not in values]
        if missing:
            raise ExpressionError(say(NO_VALUE, names=", ".join(missing)))
        out = _run(self.code, ops, values)
        # only numbers and no call: a float (np.float64 is one); a variable or an op gives the engine's tensor
        return ops.constant(out) if not self.variables and isinstance(out, float) else out

    def __call__(self, ops: Any, /, **values: Any) -> Any:
        return self.program(ops, **values)

    @property
    def source(self) -> list[str]:
        """The expression as the source of a one-line program (what a stepper highlights)."""
        return [f"def program({', '.join(['ops'] + self.variables)}):", f"    return {self.text.strip()}"]


def _run(code: Sequence[tuple[str, Any]], ops: Any, values: dict[str, Any]) -> Any:
    """The one interpreter of the postfix code: an operator is applied as Python spells it (``operator.__add__``
    dispatches to the operands' methods, which the engines get from the op table); two plain numbers give what
    numpy gives (1/0 = inf, 2 ** 10000 = inf), never a Python error."""
    stack: list[Any] = []
    for kind, arg in code:
        if kind == "num":
            stack.append(arg)
        elif kind == "var":
            stack.append(values[arg])
        elif kind == "call":
            stack.append(getattr(ops, arg)(stack.pop()))
        else:
            op = _ops.OPS[arg]
            spelling = op.spelling
            assert spelling is not None  # only spelled ops are in the code
            operands = op.arity + (spelling.number_only is not None)  # x ** p: p is an operand of the operator
            args = [stack.pop() for _ in range(operands)][::-1]
            if all(isinstance(a, float) for a in args):  # numpy's float64 is a float too
                if arg == "matmul":
                    raise ExpressionError(say(MATMUL_OF_NUMBERS), hint=say(MULTIPLY_NUMBERS))
                with np.errstate(all="ignore"):
                    stack.append(spelling.python(*map(np.float64, args)))
            else:
                stack.append(spelling.python(*args))
    return stack[0]


def parse(text: Any) -> Expression:
    """Check ``text`` against the whitelist and return an :class:`Expression`; else raise :class:`ExpressionError`."""
    if not isinstance(text, str):
        raise ExpressionError(say(NOT_TEXT, kind=type(text).__name__))
    if not text.strip():
        raise ExpressionError(say(EMPTY), hint=say(TYPE_SOMETHING))
    if len(text) > MAX_LENGTH:
        raise ExpressionError(say(TOO_LONG, length=len(text), limit=MAX_LENGTH))
    if "\n" in text.strip() or ";" in text:
        raise ExpressionError(say(ONE_LINE), position=_first(text, "\n;"))
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        pos = (e.offset - 1) if e.offset else None
        raise ExpressionError(say(NOT_VALID, detail=e.msg), pos, say(CHECK_BRACKETS)) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError(say(TOO_DEEP)) from None
    lead = len(text) - len(text.lstrip())
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise ExpressionError(say(TOO_MANY_PARTS, parts=len(nodes), limit=MAX_NODES))
    for node in nodes:
        _check(node, lead)
    code, variables = _postfix(tree.body, lead)
    if len(variables) > MAX_VARIABLES:
        raise ExpressionError(say(TOO_MANY_VARIABLES, count=len(variables), limit=MAX_VARIABLES),
                              hint=say(FEWER_NAMES))
    return Expression(text.strip(), variables, tuple(code))


def _first(text: str, chars: str) -> int | None:
    hits = [text.find(c) for c in chars if c in text]
    return min(hits) if hits else None


def _col(node: ast.AST, lead: int) -> int | None:
    col = getattr(node, "col_offset", None)
    return None if col is None else col + lead


def _check(node: ast.AST, lead: int) -> None:
    for bad, why in REFUSED.items():
        if isinstance(node, bad):
            raise ExpressionError(say(why), _col(node, lead), say(ALLOWED, operators=" ".join(_ops.operators()),
                                                                  functions=", ".join(functions())))
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, str):
            raise ExpressionError(say(ONLY_NUMBERS_NOT_TEXT, value=v), _col(node, lead))
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ExpressionError(say(ONLY_NUMBERS, kind=type(v).__name__, value=v), _col(node, lead))
    elif isinstance(node, (ast.BinOp, ast.UnaryOp)) and _ops.spelled(type(node.op)) is None \
            and not isinstance(node.op, ast.UAdd):
        raise ExpressionError(say(OPERATOR, name=type(node.op).__name__), _col(node, lead),
                              say(OPERATORS_ALLOWED, operators=" ".join(_ops.operators())))
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise ExpressionError(say(CALL_BY_NAME), _col(node, lead))
        name = node.func.id
        if name not in functions():
            raise ExpressionError(say(UNKNOWN_FUNCTION, name=name), _col(node, lead), _did_you_mean(name))
        if node.keywords or len(node.args) != 1:
            raise ExpressionError(say(ONE_ARGUMENT, name=name), _col(node, lead))
    elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        raise ExpressionError(say(ASSIGNMENT), _col(node, lead))
    elif not isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.Load,
                               ast.operator, ast.unaryop, ast.Call)):
        raise ExpressionError(say(NOT_ALLOWED, kind=type(node).__name__), _col(node, lead))


def _did_you_mean(name: str) -> Said:
    """The hint for an unknown function: the functions, and the closest one if a name is close."""
    import difflib

    close = difflib.get_close_matches(name, functions(), n=1)
    names = ", ".join(functions())
    return say(DID_YOU_MEAN, functions=names, close=close[0]) if close else say(THE_FUNCTIONS, functions=names)


def _postfix(root: ast.AST, lead: int) -> tuple[list[tuple[str, Any]], list[str]]:
    """Iterative post-order walk (a long sum is a deep tree: no recursion)."""
    code: list[tuple[str, Any]] = []
    variables: list[str] = []
    stack: list[tuple[ast.AST, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if isinstance(node, ast.BinOp):
            op = _ops.spelled(type(node.op))  # _check let only the table's operators in
            assert op is not None
            number_only = op.spelling is not None and op.spelling.number_only is not None
            if not done:
                stack.append((node, True))
                # x ** p: p is the op's attribute, a number known now; otherwise both sides are operands
                stack.extend([(node.left, False)] if number_only else [(node.right, False), (node.left, False)])
            else:
                if number_only:
                    code.append(("num", _constant_exponent(node.right, lead)))
                code.append(("op", op.name))
        elif isinstance(node, ast.UnaryOp):
            if not done:
                stack.append((node, True))
                stack.append((node.operand, False))
            elif not isinstance(node.op, ast.UAdd):  # +x is x
                code.append(("op", _ops.spelled(type(node.op)).name))  # type: ignore[union-attr]  # checked
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
                raise ExpressionError(say(IS_A_FUNCTION, name=node.id), _col(node, lead))
            if node.id in CONSTANTS:
                code.append(("num", CONSTANTS[node.id]))
                continue
            if node.id in RESERVED:
                raise ExpressionError(say(RESERVED_NAME, name=node.id), _col(node, lead), say(PICK_ANOTHER_NAME))
            if node.id.startswith("_"):
                raise ExpressionError(say(UNDERSCORE, name=node.id), _col(node, lead))
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
    """An exponent must be a number (it may be written as an expression of numbers, e.g. ``x ** (1/2)``): its code
    is run now by the one interpreter, :func:`_run`."""
    sub, names = _postfix(node, lead)
    if names or any(k == "call" for k, _ in sub):
        raise ExpressionError(say(EXPONENT), _col(node, lead), say(VARIABLE_EXPONENT))
    try:
        return float(_run(sub, None, {}))
    except ExpressionError as e:  # @ of two numbers: said where it is
        raise ExpressionError(e.message, _col(node, lead), e.hint) from None
