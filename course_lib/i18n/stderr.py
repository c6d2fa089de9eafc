"""What C libraries write on stderr, with the known noise dropped: the course's one stderr filter.

In a notebook, whatever C or C++ code writes to file descriptor 2 lands in the cell's output as red text that differs
from run to run (timestamps, thread ids), so a strict nbval comparison fails on it and a student reads noise.
:func:`quiet_stderr` captures that descriptor for a block and then passes on every line except those matching the
caller's own list of known noise, so a real problem is still seen. Two parts use it, each with its own list:
the view (:mod:`course_lib.render.engines`: the fontconfig notice of the first in-process Graphviz layout) and the
adapters (:mod:`course_lib.adapters.loader`: TensorFlow's start-up lines, :data:`course_lib.adapters.quiet.NOISE`).

Why it sits in this package: it is standard library only and both of those parts need it, and neither may import
the other (the view imports no adapters; adapters import only the core). The package of the languages is the one
part below every other that holds standard-library code for all of them (``tests/test_layers.py``).

>>> import os, re
>>> with quiet_stderr([re.compile("^noise")]):
...     _ = os.write(2, b"noise the student never sees\\n")
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence

__all__ = ["quiet_stderr"]


@contextlib.contextmanager
def quiet_stderr(noise: Sequence[re.Pattern[str]]) -> Iterator[None]:
    """Capture what C/C++ code writes to file descriptor 2 inside the block; afterwards re-emit every line that
    does not match ``noise`` on ``sys.stderr``. Python-level output (``sys.stderr``, warnings) is untouched."""
    try:
        fd = sys.__stderr__.fileno() if sys.__stderr__ is not None else 2
        saved = os.dup(fd)
    except (AttributeError, OSError, ValueError):  # no real stderr (embedded interpreter): nothing to capture
        yield
        return
    with tempfile.TemporaryFile() as sink:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os.dup2(sink.fileno(), fd)
        try:
            yield
        finally:
            os.dup2(saved, fd)
            os.close(saved)
            sink.seek(0)
            text = sink.read().decode("utf-8", "replace")
    kept = [line for line in text.splitlines() if line.strip() and not any(p.search(line) for p in noise)]
    if kept:
        print("\n".join(kept), file=sys.stderr)
