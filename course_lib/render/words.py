"""Words around the pictures, written once: numbers as a student reads them, and captions wrapped at a word
boundary (never cut mid-word). A count with its noun is a course message (``i18n.Plural``, said with ``say``).

The view (``render``, ``widgets``) and the lessons' widgets import these; the core does not (it imports no view).

>>> import numpy as np
>>> plain(np.float64(1.5)), plain(np.int64(3)), plain("abc")
('1.5', '3', "'abc'")
>>> wrap("weights, step 1, step 2, step 3", 18)
['weights, step 1,', 'step 2, step 3']
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np

__all__ = ["plain", "wrap"]


def plain(value: Any) -> str:
    """A value as a student would type it: a numpy scalar (``np.float64(1.5)`` in numpy 2's repr) as ``1.5``,
    a 0-d array as its number; anything else as its repr (text keeps its quotes, so ``'abc'`` reads as text)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (np.bool_, np.integer, np.floating)):
        value = value.item()  # the Python number: its repr is plain (1.5, 3, nan, inf)
    return repr(value)


def wrap(text: str, chars: int) -> list[str]:
    """``text`` in lines of at most ``chars`` characters, broken at spaces (a word longer than a whole line is the
    only thing ever split); every word is kept."""
    return textwrap.wrap(text, width=max(int(chars), 8), break_on_hyphens=False) or [""]
