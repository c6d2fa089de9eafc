"""The checked exercises of notebook 02, *Define-then-run: TensorFlow*: defined here so the answers stay out of
the notebook. Expected answers are computed at check time (from our engine, or from real TensorFlow), never
typed in. Each function returns the same :class:`Exercise` object on every call, so a re-run cell keeps counting
attempts and the hints move on. Worked solutions: ``instructor/02_define_then_run_tensorflow_solutions.md``.

>>> needed_feeds().check({"x", "w"}).ok
False
>>> compile_count().check(3).ok
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .. import i18n
from .. import static as st
from ..adapters.quiet import summarize
from ..i18n import N_, Plural, say
from ..i18n import gettext as _
from . import tiny_static as ts
from .exercises import Exercise, Later, choice, clauses, count_is, names, number, same, shown
from .session_explorer import demo_graph

__all__ = ["FINALIZE_CHOICES", "GROWING_CHOICES", "after_finalize", "compile_count", "finalize_outcomes",
           "growing_graph", "needed_feeds", "tf_brick_wall", "tf_feed_dict", "tiny_run", "tiny_run_graphs"]

#: 02.4's choices: what is tried on a TensorFlow graph after ``g.finalize()``.
FINALIZE_CHOICES = {
    "a": N_("sess.run(y, feed_dict=...) with new values"),
    "b": "with g.as_default(): tf.add(y, 1.0)",
    "c": "g.as_graph_def()",
    "d": "with g.as_default(): tf.compat.v1.gradients(y, [x])",
}

# The verdicts (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
ANSWER_NAMES = N_("answer with the names, e.g. {example}")
FEEDS_WHY = N_("z reads y (which needs x and w) and b·(x·w): all three holes must be filled")
MISSING = N_("missing {names}")
NOT_NEEDED = Plural("{names} is not needed", "{names} are not needed")  # n: how many names
BOTH = N_("{missing}; {extra}")
COMPILES_WHY = N_("1 for the first fetch of y, 0 for new values, 1 for the new fetch z, and 1 more because the graph "
                  "changed, so the cached plan for y was no longer valid")
ANSWER_A_DICT = N_("answer with a dict of names and numbers, e.g. {example}")
NOT_A_TENSOR = N_("{name!r} is not a tensor of this graph (its names: {names})")
EVERY_VALUE_A_NUMBER = N_("every value must be a number")
TF_REFUSED = N_("TensorFlow refused: {line}")
FETCHED = N_("sess.run(z) = {value}")
ANSWER_LETTERS = N_("answer with a set of letters among {letters}")
FINALIZE_WHY = N_("running and reading the graph work; anything that adds ops (a new op, symbolic gradients) raises "
                  "RuntimeError: Graph is finalized and cannot be modified")
NOT_QUITE = N_("not quite")
PASS_YOUR_FUNCTION = N_("pass your function itself, e.g. {example}, not what it returns")
YOUR_RUN_RAISED = N_("{what}: your run raised {error}")
YOUR_RUN_GAVE = N_("{what}: your run gave {got}, expected {want} (tiny_static.run)")
RUN_IS_RIGHT = N_("your run computes every graph like tiny_static.run, and refuses a missing feed ({error})")
MISSING_FEED = N_("x·bias + 1 fed only x")
RAISED_WITHOUT_NAME = N_("{what}: your run raised {error}, which does not name 'bias'")
RETURNED_INSTEAD = N_("{what}: your run returned {got} instead of raising a KeyError")


@functools.cache
def needed_feeds() -> Exercise:
    """02.1: the placeholders that must be fed to fetch ``z`` of the brick-wall graph."""
    g = demo_graph()
    truth = {n.name for n in g.ancestors([g["z"]]) if n.kind == "input"}

    def check(answer: Any) -> tuple[bool, str]:
        given = names(answer)
        if given is None:
            return False, say(ANSWER_NAMES, example="{'x'}")
        if given == truth:
            return True, say(FEEDS_WHY)
        missing, extra = sorted(truth - given), sorted(given - truth)
        if missing and extra:
            return False, say(BOTH, missing=say(MISSING, names=", ".join(missing)),
                              extra=say(NOT_NEEDED, names=", ".join(extra), n=len(extra)))
        if missing:
            return False, say(MISSING, names=", ".join(missing))
        return False, say(NOT_NEEDED, names=", ".join(extra), n=len(extra))

    return Exercise("02.1", N_("Which placeholders must be fed to fetch 'z'?"), check,
                    hints=[N_("follow z's inputs back until you reach placeholders (the SessionExplorer shows them)"),
                           say(N_("{z}: look at both sides of the +"), z="z = tanh(y·6 + b·(x·w))")])


def compile_scenario() -> int:
    """02.2's sequence of calls on a fresh Session of the brick-wall graph; returns ``compile_count`` after it."""
    g = demo_graph()
    x, w, b, y, z = (g.get_tensor(n) for n in ("x", "w", "b", "y", "z"))
    sess = st.Session(g)
    sess.run(y, feed_dict={x: 3.0, w: 2.0})
    sess.run(y, feed_dict={x: -1.0, w: 0.5})
    sess.run(z, feed_dict={x: 3.0, w: 2.0, b: 1.0})
    with g.as_default():
        _ = y * 10.0
    sess.run(y, feed_dict={x: 3.0, w: 2.0})
    return sess.compile_count


@functools.cache
def compile_count() -> Exercise:
    """02.2: predict ``compile_count`` after :func:`compile_scenario` (the notebook prints the same calls)."""
    check = count_is(compile_scenario, "", lambda _truth: say(COMPILES_WHY))
    return Exercise("02.2", N_("How many times has the session compiled after these calls?"), check,
                    hints=[N_("a compile happens for a new (fetches, feeds) pair, or after the graph changed"),
                           N_("new values for the same placeholders reuse the plan")])


def tf_brick_wall() -> tuple[Any, dict[str, Any]]:
    """The brick-wall graph in real TensorFlow 1 style: ``(tf.Graph, {name: tensor})`` for x, w, b, y, z."""
    from ..adapters.loader import load_tensorflow

    tf = load_tensorflow()
    with tf.Graph().as_default() as g:
        x, w, b = (tf.compat.v1.placeholder(tf.float64, shape=(), name=n) for n in ("x", "w", "b"))
        y = tf.sin(x * w + 1.0, name="y")
        z = tf.tanh(y * (tf.constant(2.0, tf.float64) * 3.0) + b * (x * w), name="z")
    return g, {"x": x, "w": w, "b": b, "y": y, "z": z}


@functools.cache
def tf_feed_dict() -> Exercise:
    """02.3: a ``feed_dict`` (names -> numbers) with which real TensorFlow can fetch ``z``."""

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, dict):
            return False, say(ANSWER_A_DICT, example="{'x': 1.0}")
        from ..adapters.loader import load_tensorflow

        tf = load_tensorflow()
        g, t = tf_brick_wall()
        unknown = [k for k in answer if k not in t]
        if unknown:
            return False, say(NOT_A_TENSOR, name=unknown[0], names=", ".join(t))
        try:
            feed = {t[k]: float(v) for k, v in answer.items()}
        except (TypeError, ValueError):
            return False, say(EVERY_VALUE_A_NUMBER)
        with tf.compat.v1.Session(graph=g) as sess:
            try:
                value = sess.run(t["z"], feed_dict=feed)
            except tf.errors.InvalidArgumentError as err:
                line = next((s for s in err.message.splitlines() if "must feed" in s), err.message.splitlines()[0])
                return False, say(TF_REFUSED, line=line.strip())
        return True, say(FETCHED, value=i18n.number(float(value), spec=".4g"))

    return Exercise("02.3", N_("Write a feed_dict that lets the TensorFlow session fetch z."), check,
                    hints=[N_("feed every placeholder z depends on"), N_("three names: x, w and b")])


def finalize_outcomes() -> dict[str, bool]:
    """Which of :data:`FINALIZE_CHOICES` real TensorFlow allows on a finalized graph (tried each time, live)."""
    from ..adapters.loader import load_tensorflow

    tf = load_tensorflow()
    g, t = tf_brick_wall()
    sess = tf.compat.v1.Session(graph=g)
    g.finalize()
    tries: dict[str, Callable[[], Any]] = {
        "a": lambda: sess.run(t["y"], feed_dict={t["x"]: 0.5, t["w"]: -1.0}),
        "b": lambda: tf.add(t["y"], 1.0),
        "c": lambda: g.as_graph_def(),
        "d": lambda: tf.compat.v1.gradients(t["y"], [t["x"]]),
    }
    out = {}
    for key, attempt in tries.items():
        try:
            with g.as_default():
                attempt()
            out[key] = True
        except RuntimeError:
            out[key] = False
    sess.close()
    return out


@functools.cache
def after_finalize() -> Exercise:
    """02.4: which actions still work on a finalized TensorFlow graph (a set of letters)."""

    def check(answer: Any) -> tuple[bool, str]:
        given = names(answer)
        if given is None or not given <= set(FINALIZE_CHOICES):
            return False, say(ANSWER_LETTERS, letters=", ".join(FINALIZE_CHOICES))
        outcomes = finalize_outcomes()
        truth = {k for k, ok in outcomes.items() if ok}
        if given == truth:
            return True, say(FINALIZE_WHY)
        return False, say(NOT_QUITE)

    choices = Later(lambda: clauses(f"{k}) {shown(v)}" for k, v in FINALIZE_CHOICES.items()))
    return Exercise("02.4", say(N_("After g.finalize(), which still work? {choices}"), choices=choices), check,
                    hints=[N_("finalize() forbids changing the graph, not using it"),
                           N_("tf.compat.v1.gradients builds its result out of new ops")])


#: 02.5's options: a training loop that adds an op at every step (each step slower); how to make it fail loudly.
GROWING_CHOICES = {
    "a": N_("call tf.compat.v1.disable_eager_execution(): in graph mode an added op is refused"),
    "b": N_("call g.finalize() before the loop: any op added afterwards raises RuntimeError at the line that adds "
            "it"),
    "c": N_("close and reopen the session at each step: a new session starts from a clean graph"),
    "d": N_("nothing simpler than reading the code: TensorFlow 1 cannot tell an op added by mistake"),
}


@functools.cache
def growing_graph() -> Exercise:
    """02.5: a decision with its reason, checked against real TensorFlow (:func:`finalize_outcomes`): ``"b"`` is
    right when a finalized graph still runs and refuses a new op."""
    def right() -> str:
        outcomes = finalize_outcomes()
        return "b" if outcomes["a"] and not outcomes["b"] else "d"

    why = {
        "a": N_("graph mode is what TensorFlow 1 always had, and it happily appends ops to a graph (section 7)"),
        "b": N_("a finalized graph still runs (section 7) and refuses any new op with RuntimeError: the traceback "
                "points at the line in the loop that adds it; MonitoredSession does exactly this"),
        "c": N_("a session runs the graph it is given; the graph keeps its added ops, and a new session pays to set "
                "up"),
        "d": N_("finalize() tells it: after it, adding an op is an error"),
    }
    return Exercise("02.5", N_("A loop adds an op at every step: how do you make it fail where it happens, and why?"),
                    choice(GROWING_CHOICES, right, why),
                    hints=[N_("what did section 7 do to the graph before trying to add a node?"),
                           N_("which error did adding a node raise then?")])


def tiny_run_graphs() -> list[tuple[str, ts.Node, dict[ts.Node, float]]]:
    """02.6's graphs, built fresh: ``(what, fetch, feed)``. Among them a node shared by two paths, two distinct
    nodes with the same name (``mul``), and a gradient graph (its ``cos`` node comes from :func:`ts.gradients`)."""
    x, w = ts.placeholder("x"), ts.placeholder("w")
    h = x * w
    y = ts.sin(h + 1.0)
    (dy_dx,) = ts.gradients(y, [x])
    return [(N_("sin(x·w + 1) at x=3, w=2"), y, {x: 3.0, w: 2.0}),
            (N_("h·exp(h) with h = x·w read by both factors, at x=0.5, w=2"), h * ts.exp(h), {x: 0.5, w: 2.0}),
            (N_("x·w + sin(2·x), two different 'mul' nodes, at x=1.5, w=-1"), x * w + ts.sin(2.0 * x),
             {x: 1.5, w: -1.0}),
            (N_("the gradient graph of sin(x·w + 1) by x, at x=3, w=2"), dy_dx, {x: 3.0, w: 2.0})]


@functools.cache
def tiny_run() -> Exercise:
    """02.6: the student's ``run(fetch, feed)`` for :mod:`~course_lib.lessons.tiny_static`, called on
    :func:`tiny_run_graphs` and compared with ``tiny_static.run``; then fed without ``bias``, it must raise an error
    that names it."""

    def said(err: Exception) -> str:
        return f"{summarize(err).kind}: {summarize(err).message}"

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, say(PASS_YOUR_FUNCTION, example=".check(run)")
        for what, fetch, feed in tiny_run_graphs():
            expected = ts.run(fetch, feed)
            try:
                got = answer(fetch, dict(feed))  # a copy: a run that changes feed cannot affect the next graph
            except Exception as err:  # noqa: BLE001 - the student's code may raise anything; say what, in one line
                return False, say(YOUR_RUN_RAISED, what=_(what), error=said(err))
            value = number(got)
            if value is None or not same(value, expected):
                gave = repr(got)[:60] if value is None else i18n.number(value, spec=".10g")
                return False, say(YOUR_RUN_GAVE, what=_(what), got=gave, want=i18n.number(expected, spec=".10g"))
        x, bias = ts.placeholder("x"), ts.placeholder("bias")
        try:
            got = answer(x * bias + 1.0, {x: 2.0})
        except Exception as err:  # noqa: BLE001 - raising is right here, if the error names the placeholder
            if "bias" in str(err):
                return True, say(RUN_IS_RIGHT, error=said(err))
            return False, say(RAISED_WITHOUT_NAME, what=_(MISSING_FEED), error=said(err))
        return False, say(RETURNED_INSTEAD, what=_(MISSING_FEED), got=repr(got)[:60])

    return Exercise("02.6", N_("Write run(fetch, feed) for tiny_static: evaluate the nodes of tiny_static.order(fetch) "
                               "in turn (a placeholder from feed, a constant from node.value, any other op with "
                               "tiny_static.FORWARD[node.op] on its inputs' values) and return fetch's value; a "
                               "placeholder missing from feed raises KeyError naming it. Check with .check(run)."),
                    check,
                    hints=[N_("keep a dict from each node to its value: order(fetch) puts every input before the "
                              "nodes that read it, so its value is there when you need it"),
                           N_("key that dict by the node itself, not by node.name: two different nodes can both be "
                              "called 'mul'"),
                           N_("before reading feed for a placeholder, test whether it is there, and raise "
                              "KeyError with node.name in the message if not")])
