"""A progress bar for the slow measurements of notebooks 05 and 06 (a few seconds each on two cores).

>>> with Progress(2, "demo") as bar:
...     tick = ticker(bar)
...     tick("next"); tick()
>>> bar.done
2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from ...i18n import N_
from ...i18n import gettext as _

__all__ = ["Progress", "ticker"]

MEASURING = N_("measuring")
#: the bar's description: what it measures, then what comes next, or how it ended
NEXT, DONE, FAILED = N_("{label}: {what}"), N_("{label}: done"), N_("{label}: failed")


class Progress:
    """A progress bar for a measurement (an ipywidgets ``IntProgress``; silent where widgets are missing).

    >>> with Progress(3, "demo") as bar:
    ...     bar.tick(); bar.tick(); bar.tick()
    >>> bar.done
    3
    """

    def __init__(self, total: int, label: str | None = None) -> None:
        self.total = max(int(total), 1)
        self.label = _(MEASURING) if label is None else label
        self.done = 0
        self._bar: Any = None

    def __enter__(self) -> Self:
        # the course's one import of ipywidgets (widgets.base), made here so importing the lesson stays light;
        # None where ipywidgets is missing: then no bar, and no error
        from ...widgets.base import ipywidgets as W

        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:
            return self
        if W is None or get_ipython() is None:
            return self
        from ... import render
        from ...widgets.base import Sizes, styled

        self._bar = W.IntProgress(value=0, min=0, max=self.total, description=self.label,
                                  style={"description_width": "initial"}, layout=W.Layout(width="min(100%, 560px)"))
        # its words at the theme's size, as every course widget's (13 px, JupyterLab's, on a projector before)
        self.view = W.HBox([self._bar])
        self.view.children += (styled(self.view, Sizes.of(render.get_theme())),)
        display(self.view)
        return self

    def tick(self, what: str | None = None) -> None:
        """One step done (``what``: what comes next, shown on the bar)."""
        self.done += 1
        if self._bar is not None:
            self._bar.value = min(self.done, self.total)
            if what:
                self._bar.description = _(NEXT).format(label=self.label, what=what)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.value = self.total
            self._bar.bar_style = "success" if exc[0] is None else "danger"
            self._bar.description = _(DONE if exc[0] is None else FAILED).format(label=self.label)


def ticker(progress: Progress | None) -> Callable[[str], None]:
    """``progress.tick``, or a function that does nothing when there is no bar (the experiments accept both)."""
    return (lambda what="": progress.tick(what)) if progress is not None else (lambda what="": None)
