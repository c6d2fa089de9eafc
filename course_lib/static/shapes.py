"""Shapes before values: what the static engine knows about a node when it is added, and what a feed must fit.

A shape is a tuple of sizes, ``None`` for a size (or a whole shape) known only at run time — TensorFlow's
``TensorShape`` with unknown dimensions. Each op's rule is in :data:`course_lib.ops.OPS`; this module applies it
and checks what is fed against what a placeholder declared.

>>> infer("matmul", [(None, 3), (3, 2)], {})
(None, 2)
>>> fits((None, 3), (5, 3)), fits((), (2,))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import ops as _ops
from ..i18n import N_
from ..i18n import gettext as _

__all__ = ["describe", "fits", "infer"]

Shape = tuple[int | None, ...] | None

A_SINGLE_NUMBER = N_("a single number")
SHAPE_ANY_SIZE = N_("shape {shape} (None = any size)")


def infer(op: str, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
    """The output shape of ``op`` on inputs of ``shapes``; raises :class:`course_lib.ops.ShapeError` if they
    cannot fit (two sizes that cannot broadcast, matmul inner sizes that differ)."""
    return _ops.OPS[op].infer_shape(shapes, attrs)


def fits(declared: Shape, actual: tuple[int, ...]) -> bool:
    """Does a value of shape ``actual`` fit a placeholder declared with ``declared`` (None = anything)?"""
    if declared is None:
        return True
    return len(declared) == len(actual) and all(d is None or d == a for d, a in zip(declared, actual, strict=True))


def describe(declared: Shape) -> str:
    """How a message names a declared shape: 'a single number', 'shape (None, 3) (None = any size)'."""
    return _(A_SINGLE_NUMBER) if declared == () else _(SHAPE_ANY_SIZE).format(shape=declared)
