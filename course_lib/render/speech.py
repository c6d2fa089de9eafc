"""A drawing in words: what a screen reader says of a graph, and what ``cl.describe`` prints.

Every picture of the course is drawn from a plan the renderer knows (:mod:`.plan`: its boxes, their edges, each
box's state and label in the step shown), so the same plan can be said as text. :func:`spoken` gives two parts:

* the **name**, one sentence: the graph's title, the step when it is one, how many boxes and arrows are drawn, and
  how many are done, running or not run yet;
* the **description**, a walk of the drawing in topological order (the plan's boxes are in creation order, which
  is one): the boxes with no input first, then ``x and w feed mul = 6`` for every box with inputs, each box's
  state in words when the boxes are not all in one state ("running now", "not run yet"). A drawing of more than
  :data:`WALK_MAX` boxes is summarized instead (its nodes, its scopes and the largest of them, the kinds of boxes),
  followed by the walk of its first boxes: a student hears the shape of a 1,000-node network, not 1,000 sentences.

The marks of the labels (``✓``, ``▶``) are said in words, not as symbols. The words are the course's language of
the moment (:mod:`course_lib.i18n`). The SVG carries the name as its first ``<title>`` and the description as its
``<desc>`` (SVG-AAM: the accessible name and description of an ``<svg role="img">``), see :func:`.svg.svg_root`.

>>> from course_lib.graph import Graph
>>> from course_lib.render.plan import plan, item_states
>>> g = Graph("demo"); x = g.add("placeholder", name="x", kind="input"); y = g.add("exp", [x]); g.mark_output(y)
>>> p = plan(g, 300, None)
>>> name, walk = spoken(p, item_states(p, {0: "done", 1: "running"}, {0: 2.0}, None), title="demo")
>>> name
'Graph demo: 2 boxes, 1 arrow; 1 done, 1 at this step.'
>>> walk
"x = 2 (input). x feeds exp (output, this step's box)."
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..graph import Graph
from ..i18n import N_, Plural, get_language, number, say
from ..i18n import gettext as _
from .plan import DEFAULT_MAX_NODES, Item, Plan, item_states, plan
from .theme import MARKS

__all__ = ["COLON", "SEMICOLON", "STATE_COUNTS", "STATE_WORDS", "WALK_MAX", "describe", "join_words", "joined",
           "spoken"]

WALK_MAX = 40  # boxes: above it, a summary first and the walk of the first boxes only
LARGEST = 3  # scopes named in a summary
SCOPES_MAX = 60  # scopes counted in a summary: the deepest level of the scope paths with at most this many
SOURCES_MAX = 8  # boxes with no input named before the walk; then how many more
#: a box's state in words (a label's mark is a symbol a screen reader would spell out), and counted
# (the running mark is the step's box: run in a run or backward step, defined in a build step)
STATE_WORDS = {"done": N_("done"), "running": N_("this step's box"), "defined": N_("not run yet")}
STATE_COUNTS = {"done": Plural("{n} done", "{n} done"), "running": Plural("{n} at this step", "{n} at this step"),
                "defined": Plural("{n} not run yet", "{n} not run yet")}
KIND_WORDS = {"input": N_("input"), "variable": N_("variable"), "constant": N_("constant"),
              "group": N_("scope drawn as one box")}


#: the punctuation between the parts of what is said (French puts a no-break space before ":" and ";")
COLON, SEMICOLON = N_("{before}: {after}"), N_("{before}; {after}")


def joined(template: str, parts: list[str]) -> str:
    """``parts`` joined two by two with ``template`` (:data:`COLON`, :data:`SEMICOLON`), in the language of the
    moment.

    >>> joined(SEMICOLON, ["a", "b", "c"])
    'a; b; c'
    """
    out = parts[0] if parts else ""
    for part in parts[1:]:
        out = _(template).format(before=out, after=part)
    return out


def join_words(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``, in the language of the moment.

    >>> join_words(["x"]), join_words(["x", "w"]), join_words(["x", "w", "b"])
    ('x', 'x and w', 'x, w and b')
    """
    if len(words) <= 1:
        return "".join(words)
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def _count(words: Plural, k: int) -> str:
    """A count said with its noun, the number written as the language writes it (1,087; French 1 087)."""
    return say(Plural(words.singular, words.plural, count="count"), n=number(k, spec=","), count=k)


def _title(item: Item) -> str:
    """The words a box is named by: its title as drawn, without a collapsed scope's count."""
    return item.short or item.title.split("\n")[0]


def _names(p: Plan) -> dict[str, str]:
    """Box key -> the name it is said by: its title, or, where two boxes of the plan share a title (the forward
    ``mul`` and the gradient ``mul``, two constants ``1``), its node's full name (``gradients/mul``), so a listener
    can tell which box feeds which; the same name at every step. Computed once per plan."""
    names = p.said.get("names")
    if names is None:
        seen = Counter(_title(item) for item in p.items)
        names = p.said["names"] = {
            item.key: item.members[0].name if seen[_title(item)] > 1 and len(item.members) == 1 else _title(item)
            for item in p.items}
    return names


def _inputs(p: Plan) -> dict[str, list[str]]:
    """Box key -> the boxes that feed it (every edge of the plan; a walk keeps those shown), once per plan."""
    inputs = p.said.get("inputs")
    if inputs is None:
        inputs = p.said["inputs"] = {}
        for s, d, _g in p.edges:
            inputs.setdefault(d, []).append(s)
        p.said["kinds"] = {item.key: item.kind for item in p.items}
    return inputs


def _label(item: Item, name: str, lines: tuple[str, ...], status: str) -> str:
    """A box's label as one phrase, its mark left out and its name as :func:`_names` says it:
    ``mul = 6, grad = 0.7539``; a collapsed scope ``gradients, 4 nodes``."""
    first = lines[0].removeprefix(MARKS.get(status, ""))
    title, full = _title(item), item.title.split("\n")[0]  # "∂/∂x" is said for "∂/∂x = mul"
    rest = first[len(full):] if first.startswith(full) else first[len(title):] if first.startswith(title) else ""
    phrase = name + rest.replace(" · ", ", ")
    if item.kind == "constant" and name != title:  # a constant's title is its value: "Const = 1"
        phrase = f"{name} = {title}"
    for line in lines[1:]:
        phrase += " " + line if line.startswith("= ") else ", " + line
    return phrase


def spoken(p: Plan, states: Mapping[str, tuple[str, tuple[str, ...]]], *, title: str = "",
           step: tuple[int, int] | None = None) -> tuple[str, str]:
    """(name, description) of one state of a drawing; ``states``: box key -> (status, label lines), as
    :func:`.plan.item_states` gives them; ``step``: (k, n) when the picture is step k of a trace of n steps. Kept
    in the plan's ``said`` per state and language: a step drawn again (a slider going back) is said again."""
    key = ("spoken", get_language(), title, step, tuple(states.values()))
    said = p.said.get(key)
    if said is None:
        if len(p.said) > 5_000:  # explorers bring new values forever: keep memory bounded
            p.said.clear()
        said = p.said[key] = _spoken(p, states, title, step)
    return said


def _spoken(p: Plan, states: Mapping[str, tuple[str, tuple[str, ...]]], title: str,
            step: tuple[int, int] | None) -> tuple[str, str]:
    shown = [item for item in p.items if states[item.key][0] != "hidden"]
    keys = {item.key for item in shown}
    arrows = sum(1 for s, d, _g in p.edges if s in keys and d in keys)
    counts = Counter(states[item.key][0] for item in shown)
    head = _("Graph {title}").format(title=title) if title else _("Graph")
    if step is not None:
        head += ", " + _("step {k} of {n}").format(k=number(step[0]), n=number(step[1]))
    parts = [_count(Plural("{n} box", "{n} boxes"), len(shown)),
             _count(Plural("{n} arrow", "{n} arrows"), arrows)]
    name = joined(COLON, [head, ", ".join(parts)])
    if len(counts) > 1 or step is not None and shown:
        states_said = ", ".join(_count(STATE_COUNTS[s], counts[s]) for s in STATE_WORDS if counts[s])
        name = joined(SEMICOLON, [name, states_said])
    name += "."
    if not shown:
        return name, _("Nothing is drawn yet.")
    # a box's state is said where it differs from most boxes' (the name counts them all)
    usual = counts.most_common(1)[0][0] if len(counts) > 1 else None
    walk = _walk(p, shown, keys, states, usual)
    if len(shown) > WALK_MAX:
        walk = _summary(p, shown) + " " + _("The first {n} boxes:").format(n=number(WALK_MAX)) + " " + walk
    if p.note:
        walk += " " + p.note
    return name, walk


def _walk(p: Plan, shown: list[Item], keys: set[str], states: Mapping[str, tuple[str, tuple[str, ...]]],
          usual: str | None) -> str:
    """The sentences of the walk, over the first :data:`WALK_MAX` boxes: the boxes with no input first (the first
    :data:`SOURCES_MAX`, then how many more), then one clause per box with inputs; a chain says ``then``:
    ``x feeds conv, then bn, then relu`` instead of ``x feeds conv; conv feeds bn; bn feeds relu``. A box's state
    is said when it is not ``usual`` (most boxes' state; None: all boxes are in one state); ``keys``: the boxes
    shown."""
    walked = shown[:WALK_MAX]
    names, every_input, kinds = _names(p), _inputs(p), p.said["kinds"]
    inputs = {item.key: [k for k in every_input.get(item.key, ()) if k in keys] for item in walked}

    def short(key: str) -> str:  # an input named without its op: "conv1" for "conv1 = Conv2d"
        return names[key].split(" = ", 1)[0] if kinds[key] == "op" else names[key]

    def phrase(item: Item) -> str:
        status, lines = states[item.key]
        notes = [_(KIND_WORDS[item.kind])] if item.kind in KIND_WORDS and not inputs[item.key] else []
        notes += [_("output")] if item.output else []
        notes += [_("gradient")] if item.gradient and item.kind != "group" else []
        notes += [_(STATE_WORDS[status])] if usual and status != usual and status in STATE_WORDS else []
        return _label(item, names[item.key], lines, status) + (f" ({', '.join(notes)})" if notes else "")

    sources: list[str] = []
    clauses: list[tuple[str, list[str]]] = []  # (the clause's last box, its text in pieces)
    for item in walked:
        feeders = inputs.get(item.key)
        if not feeders:
            sources.append(phrase(item))
        elif clauses and feeders == [clauses[-1][0]]:  # fed only by the box the last clause ended with
            clauses[-1] = (item.key, [*clauses[-1][1], _("then {box}").format(box=phrase(item))])
        else:
            verb = _("{inputs} feeds {box}") if len(feeders) == 1 else _("{inputs} feed {box}")
            clauses.append((item.key, [verb.format(inputs=join_words([short(k) for k in feeders]), box=phrase(item))]))
    if len(sources) > SOURCES_MAX:
        more = _count(Plural("{n} more box with no input", "{n} more boxes with no input"), len(sources) - SOURCES_MAX)
        sources = [*sources[:SOURCES_MAX], more]
    sentences = [", ".join(pieces) for _last, pieces in clauses]
    # names keep their case (x is not X): no capital letter starts these sentences
    return " ".join(([", ".join(sources) + "."] if sources else [])
                    + ([joined(SEMICOLON, sentences) + "."] if sentences else []))


def _scopes(nodes: list) -> Counter:
    """Nodes per scope, at the depth that tells most: the deepest level of the scope paths with at most
    :data:`SCOPES_MAX` scopes (a network's blocks, ``features/3``, not each layer's own scope)."""
    depth = max((m.scope.count("/") + 1 for m in nodes if m.scope), default=0)
    best: Counter = Counter()
    for d in range(1, depth + 1):
        level = Counter("/".join(m.scope.split("/")[:d]) for m in nodes if m.scope)
        if len(level) > SCOPES_MAX and best:
            break
        best = level
    return best


def _summary(p: Plan, shown: list[Item]) -> str:
    """A large drawing in one or two sentences: nodes, scopes and the largest ones, boxes by kind (kept per set of
    boxes shown: a step that only brings values says the same)."""
    key = ("summary", get_language(), tuple(item.key for item in shown))
    if key not in p.said:
        p.said[key] = _summarize(shown)
    return p.said[key]


def _summarize(shown: list[Item]) -> str:
    nodes = [m for item in shown for m in item.members]
    scopes = _scopes(nodes)
    text = _count(Plural("{n} node", "{n} nodes"), len(nodes))
    if scopes:
        text += " " + _count(Plural("in {n} scope", "in {n} scopes"), len(scopes))
        largest = ", ".join(f"{scope} ({number(k)})" for scope, k in scopes.most_common(LARGEST))
        text = joined(SEMICOLON, [text, _("the largest: {scopes}").format(scopes=largest)])
    kinds = Counter(item.kind for item in shown)
    words = {"op": Plural("{n} operation", "{n} operations"), "input": Plural("{n} input", "{n} inputs"),
             "variable": Plural("{n} variable", "{n} variables"), "constant": Plural("{n} constant", "{n} constants"),
             "group": Plural("{n} collapsed scope", "{n} collapsed scopes")}
    drawn = ", ".join(_count(words[k], kinds[k]) for k in words if kinds[k])
    return text + ". " + _("Drawn: {boxes}.").format(boxes=drawn)


def describe(graph: Graph, state: Any = None, values: Mapping[int, Any] | None = None,
             grads: Mapping[int, Any] | None = None, *, max_nodes: int = DEFAULT_MAX_NODES, collapse: Any = None,
             grad_nodes: Mapping[int, int] | None = None, title: str | None = None,
             step: tuple[int, int] | None = None, width: int = 100) -> str:
    """What a screen reader is given for the drawing of ``graph`` (arguments as :func:`course_lib.render.draw`):
    the name, then the description, wrapped at ``width`` characters. The same words as the picture's ``<title>``
    and ``<desc>``; no layout engine needed.

    >>> from course_lib.graph import Graph
    >>> g = Graph("demo"); x = g.add("placeholder", name="x", kind="input"); _ = g.add("exp", [x])
    >>> print(describe(g))
    Graph demo: 2 boxes, 1 arrow.
    x (input). x feeds exp.
    """
    p = plan(graph, max(1, int(max_nodes)), collapse, grad_nodes)
    name, text = spoken(p, item_states(p, state, values, grads), title=graph.name if title is None else title,
                        step=step)
    return name + "\n" + textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)
