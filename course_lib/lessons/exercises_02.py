"""The checked exercises of notebook 02, *Define-then-run: TensorFlow*: defined here so the answers stay out of
the notebook. Expected answers are computed at check time (from our engine, or from real TensorFlow), never
typed in. Each function returns the same :class:`Exercise` object on every call, so a re-run cell keeps counting
attempts and the hints move on. Each exercise asks about a setting the notebook has not shown (another fetch,
another sequence of calls, a feed without ``x``, a fetch that is also fed), and :data:`REVEALS` lists what would
give each one away (``tests/test_exercise_spoilers.py``). Worked solutions:
``instructor/02_define_then_run_tensorflow_solutions.md``.

>>> needed_feeds().check({"x", "w", "b"}).ok
False
>>> compile_count().check("many").ok
False
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
from .exercises import (
    NOT_QUITE,
    PASS_YOUR_FUNCTION,
    Exercise,
    Later,
    choice,
    clauses,
    count_is,
    names,
    number,
    same,
    shown,
)
from .session_explorer import demo_graph

__all__ = ["FED_FETCH_CHOICES", "FINALIZE_CHOICES", "REVEALS", "after_finalize", "compile_count", "compile_counts",
           "compile_scenario", "fed_fetch", "fed_fetch_outcome", "finalize_outcomes", "needed_feeds", "tf_brick_wall",
           "tf_feed_dict", "tiny_run", "tiny_run_graphs"]

#: 02.1 asks about this fetch of the brick-wall graph (the notebook fetches y and z, never it).
FETCH_02_1 = "mul_2"

#: 02.4's choices: what is tried on a TensorFlow graph after ``g.finalize()``.
FINALIZE_CHOICES = {
    "a": N_("sess.run(y, feed_dict=...) with new values"),
    "b": "with g.as_default(): tf.add(y, 1.0)",
    "c": "g.as_graph_def()",
    "d": "with g.as_default(): tf.compat.v1.gradients(y, [x])",
}

# The verdicts (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
ANSWER_NAMES = N_("answer with the names, e.g. {example}")
FEEDS_WHY = N_("mul_2 = y·(2·3): y needs x and w, and 2·3 is made of constants, which need no feed")
MISSING = N_("missing {names}")
NOT_NEEDED = Plural("{names} is not needed: {fetch} does not depend on it",
                    "{names} are not needed: {fetch} does not depend on them")  # n: how many names
NOT_A_PLACEHOLDER = Plural("{names} is not a placeholder: the session computes it (it may be fed, but never has to be)",
                           "{names} are not placeholders: the session computes them (they may be fed, but never have "
                           "to be)")
NOT_IN_GRAPH = Plural("{names} is not a node of the brick-wall graph", "{names} are not nodes of the brick-wall graph")
BOTH = N_("{missing}; {extra}")
COMPILES_WHY = N_("1 for z; 0 for z again (new values, the same fed placeholders: their order in feed_dict does not "
                  "matter); 1 for y with b fed too (another request); 1 for [y, z]; 1 for z once the graph changed "
                  "(every cached plan is stale); 0 for z again")
ANSWER_A_DICT = N_("answer with a dict of names and numbers, e.g. {example}")
NOT_A_TENSOR = N_("{name!r} is not a tensor of this graph (its names: {names})")
EVERY_VALUE_A_NUMBER = N_("every value must be a number")
X_IS_LOST = N_("x is the value you do not have: leave it out of feed_dict and feed something that stands for it")
SKIPS_SIN = N_("feeding {name} skips the sin ({name} is y or is computed from y): cut the graph before the sin")
TF_REFUSED = N_("TensorFlow refused: {line}")
FETCHED = N_("sess.run(z) = {value} without x: TensorFlow ran only the ops between your fed tensors and z, the sin "
             "among them")
ANSWER_LETTERS = N_("answer with a set of letters among {letters}")
FINALIZE_WHY = N_("running and reading the graph work; anything that adds ops (a new op, symbolic gradients) raises "
                  "RuntimeError: Graph is finalized and cannot be modified")
YOUR_RUN_RAISED = N_("{what}: your run raised {error}")
YOUR_RUN_GAVE = N_("{what}: your run gave {got}, expected {want} (tiny_static.run)")
RUN_IS_RIGHT = N_("your run computes every graph like tiny_static.run, and refuses a missing feed ({error})")
MISSING_FEED = N_("x·bias + 1 fed only x")
RAISED_WITHOUT_NAME = N_("{what}: your run raised {error}, which does not name 'bias'")
RETURNED_INSTEAD = N_("{what}: your run returned {got} instead of raising a KeyError")


@functools.cache
def needed_feeds() -> Exercise:
    """02.1: the placeholders that must be fed to fetch ``mul_2`` (``y·(2·3)``) of the brick-wall graph. A name that
    is a node but no placeholder (``y``) is told apart from a placeholder the fetch does not need (``b``)."""
    g = demo_graph()
    kinds = {n.name.lower(): n.kind for n in g.nodes}
    truth = {n.name for n in g.ancestors([g[FETCH_02_1]]) if n.kind == "input"}

    def listed(message: Plural, found: list[str]) -> str:
        return say(message, names=", ".join(found), n=len(found), fetch=FETCH_02_1)

    def check(answer: Any) -> tuple[bool, str]:
        given = names(answer)
        if given is None:
            return False, say(ANSWER_NAMES, example="{'x'}")
        if given == truth:
            return True, say(FEEDS_WHY)
        extra = sorted(given - truth)
        unknown = [n for n in extra if n not in kinds]
        computed = [n for n in extra if n in kinds and kinds[n] != "input"]
        unneeded = [n for n in extra if kinds.get(n) == "input"]
        parts = [say(MISSING, names=", ".join(sorted(truth - given)))] if truth - given else []
        parts += [listed(m, found) for m, found in ((NOT_IN_GRAPH, unknown), (NOT_A_PLACEHOLDER, computed),
                                                     (NOT_NEEDED, unneeded)) if found]
        said = parts[0]
        for part in parts[1:]:
            said = say(BOTH, missing=said, extra=part)
        return False, said

    return Exercise("02.1", N_("Which placeholders must be fed to fetch 'mul_2'?"), check,
                    hints=[N_("follow mul_2's inputs back through the summary of section 2 until every path ends at a "
                              "placeholder or a constant"),
                           N_("a constant needs no feed, and neither does a node the session computes")])


def compile_counts() -> list[int]:
    """02.2's sequence of calls on a fresh Session of the brick-wall graph: ``compile_count`` after each run."""
    g = demo_graph()
    x, w, b, y, z = (g.get_tensor(n) for n in ("x", "w", "b", "y", "z"))
    sess = st.Session(g)
    counts = []
    for fetch, feed in ((z, {x: 3.0, w: 2.0, b: 1.0}), (z, {b: 0.0, w: 1.0, x: -2.0}), (y, {x: 3.0, w: 2.0, b: 1.0}),
                        ([y, z], {x: 3.0, w: 2.0, b: 1.0}), (None, None), (z, {x: 3.0, w: 2.0, b: 1.0}),
                        (z, {x: 0.5, w: 0.5, b: 0.5})):
        if fetch is None:
            with g.as_default():
                _ = y + 1.0  # the graph changes
            continue
        sess.run(fetch, feed_dict=feed)
        counts.append(sess.compile_count)
    return counts


def compile_scenario() -> int:
    """``compile_count`` at the end of :func:`compile_counts` (the calls the notebook prints in 02.2's prompt)."""
    return compile_counts()[-1]


@functools.cache
def compile_count() -> Exercise:
    """02.2: predict ``compile_count`` after :func:`compile_counts`' calls."""
    check = count_is(compile_scenario, "", lambda _truth: say(COMPILES_WHY))
    return Exercise("02.2", N_("How many times has the session compiled after these calls?"), check,
                    hints=[N_("write each call's request as (fetches, fed placeholders), then count the requests not "
                              "run before since the graph last changed"),
                           N_("section 2 says what a plan is cached by, and what makes every cached plan stale")])


def tf_brick_wall() -> tuple[Any, dict[str, Any]]:
    """The brick-wall graph in real TensorFlow 1 style: ``(tf.Graph, {name: tensor})`` for x, w, b, y, z."""
    from ..adapters.loader import load_tensorflow

    tf = load_tensorflow()
    with tf.Graph().as_default() as g:
        x, w, b = (tf.compat.v1.placeholder(tf.float64, shape=(), name=n) for n in ("x", "w", "b"))
        y = tf.sin(x * w + 1.0, name="y")
        z = tf.tanh(y * (tf.constant(2.0, tf.float64) * 3.0) + b * (x * w), name="z")
    return g, {"x": x, "w": w, "b": b, "y": y, "z": z}


def _after(tensor: Any) -> set[str]:
    """The names of ``tensor``'s op and of every op computed from it (what feeding would skip it)."""
    seen, stack = set(), [tensor.op]
    while stack:
        op = stack.pop()
        if op.name not in seen:
            seen.add(op.name)
            stack.extend(c for out in op.outputs for c in out.consumers())
    return seen


@functools.cache
def tf_feed_dict() -> Exercise:
    """02.3: a ``feed_dict`` (tensor names -> numbers) that does not feed ``x``, with which real TensorFlow fetches
    ``z`` and still runs the sin (so nothing computed from ``y`` is fed). Any such cut of the graph is right: the
    check runs TensorFlow with it."""

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, dict):
            return False, say(ANSWER_A_DICT, example="{'w': 1.0}")
        from ..adapters.loader import load_tensorflow

        tf = load_tensorflow()
        g, t = tf_brick_wall()
        tensors = {op.name: op.outputs[0] for op in g.get_operations() if op.outputs}
        keys = {k: str(k).split(":")[0] for k in answer}
        unknown = [k for k, name in keys.items() if name not in tensors]
        if unknown:
            return False, say(NOT_A_TENSOR, name=unknown[0], names=", ".join(tensors))
        if "x" in keys.values():
            return False, say(X_IS_LOST)
        after_y = _after(t["y"])
        skipping = [name for name in keys.values() if name in after_y]
        if skipping:
            return False, say(SKIPS_SIN, name=skipping[0])
        values = {k: number(v) for k, v in answer.items()}  # the shared reader: True, "nan", None are no numbers
        if any(v is None for v in values.values()):
            return False, say(EVERY_VALUE_A_NUMBER)
        feed = {tensors[keys[k]]: v for k, v in values.items()}
        with tf.compat.v1.Session(graph=g) as sess:
            try:
                value = sess.run(t["z"], feed_dict=feed)
            except tf.errors.InvalidArgumentError as err:
                line = next((s for s in err.message.splitlines() if "must feed" in s), err.message.splitlines()[0])
                return False, say(TF_REFUSED, line=line.strip())
        return True, say(FETCHED, value=i18n.number(float(value), spec=".4g"))

    return Exercise("02.3", N_("Without x: write a feed_dict (tensor names to numbers) with which TensorFlow fetches z "
                               "and still runs the sin."), check,
                    hints=[N_("feed_dict can replace any tensor, as section 4 did with y: the ops that compute a fed "
                              "tensor do not run"),
                           N_("list every path from z back to x through the ops of section 4: each needs a fed tensor "
                              "on it, before the sin on the path that goes through it")])


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


#: 02.5's options: what ``sess.run(y, feed_dict={y: 5.0})`` does (y fetched and fed, x and w not fed). Ordered so
#: that the outcome of the live run (:func:`fed_fetch_outcome`) is "c".
FED_FETCH_CHOICES = {
    "a": N_("an InvalidArgumentError: x and w must be fed for y"),
    "b": N_("a TypeError: only placeholders may be keys of feed_dict"),
    "c": N_("5.0: a fetch that is also fed returns the fed value"),
    "d": N_("sin(5.0): the fed value still goes through the sin op"),
}


def fed_fetch_outcome() -> str:
    """What real TensorFlow does with ``sess.run(y, feed_dict={y: 5.0})`` on the brick-wall graph, as the letter of
    :data:`FED_FETCH_CHOICES` that says it (run live each time)."""
    import math

    from ..adapters.loader import load_tensorflow

    tf = load_tensorflow()
    g, t = tf_brick_wall()
    with tf.compat.v1.Session(graph=g) as sess:
        try:
            value = float(sess.run(t["y"], feed_dict={t["y"]: 5.0}))
        except tf.errors.InvalidArgumentError:
            return "a"
        except TypeError:
            return "b"
    return "c" if same(value, 5.0) else "d" if same(value, math.sin(5.0)) else "?"


@functools.cache
def fed_fetch() -> Exercise:
    """02.5: a prediction decided by real TensorFlow (:func:`fed_fetch_outcome`): fetch ``y`` while feeding ``y``."""
    why = {
        "a": N_("y is fed, so nothing that computes it runs: x and w are not needed"),
        "b": N_("feed_dict may replace any tensor, not only a placeholder (section 4 fed y)"),
        "c": N_("TensorFlow hands back the value fed for a fetch and runs nothing for it: a fed tensor's inputs are "
                "never computed"),
        "d": N_("a fed tensor replaces the output of the op that makes it: the sin never runs"),
    }
    return Exercise("02.5", N_("Fetch y while feeding y itself (no x, no w): what happens?"),
                    choice(FED_FETCH_CHOICES, fed_fetch_outcome, why),
                    hints=[N_("in section 4, feeding y to fetch z cut the graph at y: which ops above the cut ran?"),
                           N_("section 4's refusal named a placeholder its fetch needed: does this fetch need one?")])


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


def _reveals_02_2() -> tuple[str, ...]:
    """What would answer 02.2: its count after each call, or the last one, printed with what it counts."""
    counts, last = compile_counts(), compile_scenario()
    return (f"compiles: {counts}", f"compile_count after each call: {counts}", f"compile_count: {last}",
            f"compile_count == {last}", f"compiled {last} times", f"a compilé {last} fois")


#: What would give each exercise away if a cell above it showed it (``tests/test_exercise_spoilers.py``): the
#: placeholders of mul_2 named as such, the count after 02.2's calls, a feed of the second x·w path (02.3), the
#: right set of 02.4, the outcome of 02.5 in its own words, the key lines of 02.6's run.
REVEALS: dict[str, tuple[str, ...]] = {
    "02.1": ("fetch 'mul_2', fed x, w", "mul_2 needs x and w", "mul_2 needs only x and w",
             "mul_2 a besoin de x et de w"),
    "02.2": _reveals_02_2(),
    "02.3": ("'mul_3':", '"mul_3":', "mul_3:0", "'mul_4':", '"mul_4":', "mul_4:0"),
    "02.4": ("{'a', 'c'}", '{"a", "c"}', "as_graph_def() still works", "reading the graph still works",
             "gradients on a finalized graph raise"),
    "02.5": ("a fetch that is also fed returns the fed value", "returns the fed value", "fed value comes back",
             "renvoie la valeur fournie"),
    "02.6": ("FORWARD[node.op](*(values[i] for i in node.inputs))", "values[node] = feed[node]",
             "values[node] = node.value", "values[node] = float(feed[node])"),
}
