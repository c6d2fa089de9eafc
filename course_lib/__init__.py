"""course_lib: the library behind the course on static (define-then-run) vs dynamic (define-by-run) graphs.

``import course_lib`` stays light: it imports neither TensorFlow nor PyTorch (nor graphviz, nor ipywidgets).
Adapters for real frameworks are imported the first time an object of theirs is converted.

>>> import course_lib as cl
>>> from course_lib import dynamic as dy
>>> y = dy.sin(dy.Tensor(1.0, requires_grad=True) * 2.0)
>>> len(cl.to_graph(y).nodes)
4
"""

from __future__ import annotations

from typing import Any

from . import graph
from .graph import CycleError, Graph, Node
from .i18n import N_, number, say, set_language  # stdlib only: cl.set_language("fr"), cl.number(0.5) in a notebook
from .i18n import gettext as _

__all__ = ["CycleError", "Graph", "Node", "describe", "draw", "graph", "number", "present", "say", "set_language",
           "set_theme", "show", "to_graph"]
__version__ = "0.1.0"


CANNOT_CONVERT = N_("cannot convert a value of type {kind} to a graph; pass a course graph, a static or dynamic "
                    "tensor, a tf.Graph, a tf ConcreteFunction, a torch tensor with grad_fn or a torch.fx.GraphModule")


def _framework_of(obj: Any) -> str | None:
    """'tensorflow' / 'torch' from the object's class (without importing either framework)."""
    for cls in type(obj).__mro__:
        mod = cls.__module__ or ""
        if mod.startswith(("tensorflow", "keras", "tf_keras")):
            return "tensorflow"
        if mod.startswith("torch"):
            return "torch"
    return None


def to_graph(obj: Any, **options: Any) -> Graph:
    """Convert anything the course draws into the one IR (:class:`course_lib.graph.Graph`).

    Accepts: a course Graph; a static-engine Graph or symbolic tensor; a dynamic-engine Tensor; a
    ``tf.Graph``; a ``tf.function`` ConcreteFunction; a torch tensor with ``grad_fn``; a ``torch.fx.GraphModule``.
    The conversion is complete (one IR node per framework op); only :func:`draw` groups or caps.
    """
    if isinstance(obj, Graph) and type(obj) is Graph:
        return obj
    from . import dynamic, static  # local: keeps `import course_lib` minimal

    if isinstance(obj, (static.Graph, static.Tensor)):
        return static.to_graph(obj)
    if isinstance(obj, dynamic.Tensor):
        return obj.graph()
    if isinstance(obj, Graph):
        return obj
    fw = _framework_of(obj)
    if fw == "tensorflow":
        from .adapters import tensorflow as tf_adapter

        return tf_adapter.to_graph(obj, **options)
    if fw == "torch":
        from .adapters import torch as torch_adapter

        return torch_adapter.to_graph(obj, **options)
    raise TypeError(say(CANNOT_CONVERT, kind=f"{type(obj).__module__}.{type(obj).__name__}"))


#: Options that belong to the conversion (adapters), not to the drawing.
_CONVERT_OPTIONS = ("saved_tensors", "params", "outputs", "args", "expand_functions", "control_edges")


def draw(obj: Any, **options: Any):  # -> graphviz.Digraph
    """Draw ``obj`` (anything :func:`to_graph` accepts) in the course's visual language; returns a
    ``graphviz.Digraph`` that displays itself in Jupyter. Options go to :func:`course_lib.render.draw`."""
    from . import render

    convert = {k: options.pop(k) for k in _CONVERT_OPTIONS if k in options}
    return render.draw(to_graph(obj, **convert), **options)


def show(obj: Any, **options: Any):  # -> course_lib.render.Figure
    """Like :func:`draw`, but scaled to the page: a wide graph shrinks to the column instead of being cut off.
    The legend is off unless ``legend=True``.

    >>> from course_lib import dynamic as dy
    >>> show(dy.sin(dy.Tensor(1.0, requires_grad=True)))
    <figure 'define-by-run': 2 nodes, 2 boxes, top to bottom, scaled to the page width, 14 pt text; ...>
    """
    from . import render

    convert = {k: options.pop(k) for k in _CONVERT_OPTIONS if k in options}
    return render.Figure(to_graph(obj, **convert), **options)


def describe(obj: Any, step: int | None = None, **options: Any) -> None:
    """Print what a screen reader is given for the drawing of ``obj``: its name (title, boxes and arrows, their
    states), then a walk of the graph in topological order ("x and w feed mul = 6; ..."), summarized for a large
    graph. ``obj``: anything :func:`draw` takes, or a trace (``trace.record(...)``) shown at ``step`` (default: its
    last). Options as :func:`draw` (``max_nodes``, ``collapse``, ``state``, ``values``).

    >>> from course_lib import dynamic as dy
    >>> describe(dy.sin(dy.Tensor(1.0, requires_grad=True)))
    Graph define-by-run: 2 boxes, 1 arrow.
    x = 1 (input). x feeds sin = 0.8415 (output).
    """
    from .render import speech
    from .trace import Trace, style_name

    if isinstance(obj, Trace):
        k = len(obj) if step is None else min(max(int(step), 0), len(obj))
        print(speech.describe(obj.graph, obj.state(k), title=style_name(obj.style), step=(k, len(obj)),
                              grad_nodes=obj.grad_nodes, **options))
        return
    convert = {k: options.pop(k) for k in _CONVERT_OPTIONS if k in options}
    state, values, grads = (options.pop(k, None) for k in ("state", "values", "grads"))
    print(speech.describe(to_graph(obj, **convert), state, values, grads, **options))


#: What to do in JupyterLab 4 for a projector (menu labels as JupyterLab shows them; the French keeps them in
#: English, as JupyterLab shows them without a language pack). Translated when :func:`present` prints them.
PRESENT_STEPS = (
    N_("View → Appearance → Presentation Mode: larger notebook text"),
    N_("View → Appearance → Simple Interface (Ctrl+Shift+D): one notebook, no tabs"),
    N_("View → Appearance → Show Left Sidebar (Ctrl+B): unticked, the file browser hides"),
    N_("Ctrl + / Ctrl − (Cmd on macOS): zoom until the back row can read; F11: full screen"),
)


def set_theme(theme: str = "classroom") -> None:
    """Draw every later graph and widget in a theme: ``"presenter"`` for a projector, ``"classroom"`` (the
    default) back. The same as :func:`course_lib.render.set_theme`, reachable as ``cl.set_theme``."""
    from . import render

    render.set_theme(theme)


def present() -> None:
    """Get ready for a projector in one call: the presenter theme for every graph and widget created after it
    (re-run the cells that make them), and the JupyterLab menu items that give the notebook the whole screen."""
    set_theme("presenter")
    print(_("Presenter theme on: graphs and widgets created from now on use larger text and thicker lines."))
    print(_("In JupyterLab:") + "\n" + "\n".join(f"  • {_(step)}" for step in PRESENT_STEPS))
    print(_("Back to normal: cl.set_theme('classroom')."))
