"""The claim ledger: every claim of the Stack Overflow Q&A, the notebook that tests it, and its verdict today.

This module is the single source notebook 08 displays. Each notebook ends with a markdown cell headed "Verdict";
when a notebook is written (or its verdict changes), the verdict of each of its claims is copied here in a sentence
or two. A claim whose notebook does not exist yet has ``verdict=None`` and is shown as "to be tested in NN".
``tests/test_claims.py`` keeps the two in step: a notebook named here must exist with a Verdict cell exactly when
its claims have verdicts. Notebook 08 shows this ledger with its outputs committed: after editing a claim, refresh
it with ``.venv/bin/python tools/run_notebooks.py notebooks/08_where_we_are_today.ipynb``.

In French (``set_language("fr")``) the ledger shows each claim's words from :mod:`.claims_fr`: the quote taken from
``qa/qa-fr.txt``, and the status and verdict copied from the French notebook's Verdict cell
(:func:`in_language`); ``check(..., lang="fr")`` and ``verdict_problems(..., lang="fr")`` keep those in step with
``notebooks/fr/``. ``CLAIMS`` and :func:`by_key` stay English: the claims' data, whatever the language.

>>> len(CLAIMS) >= 15 and all(c.notebook.endswith(".ipynb") for c in CLAIMS)
True
>>> by_key("A3.12").notebook
'07_recursive_networks.ipynb'
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..i18n import N_, Plural, get_language, say
from ..i18n import gettext as _
from . import claims_fr

__all__ = ["ATTRIBUTION", "CLAIMS", "NO_CLAIM", "QUESTION_URL", "REFERENCES", "Claim", "Ledger", "by_key", "check",
           "in_language", "ledger", "notebooks", "verdict_cells", "verdict_problems"]

SOURCE = N_("Stack Overflow Q&A, “What is the difference of static Computational Graphs in tensorflow and dynamic "
            "Computational Graphs in Pytorch?”")
#: The parts of the Q&A (``Claim.answer``, a key the ledger groups by), translated where they are shown.
PARTS = (N_("Question"), N_("Answer 1"), N_("Answer 2"), N_("Answer 3"))
HEADERS = ("#", N_("claim"), N_("tested in"), N_("verdict today"))
NO_CLAIM = N_("no claim {key!r}; keys are {keys}")
#: Where each language's statuses and verdicts are written (named in what :func:`check` reports).
LEDGER_FILE = {"en": "course_lib/lessons/claims.py", "fr": "course_lib/lessons/claims_fr.py"}


#: The question's address on Stack Overflow.
QUESTION_URL = ("https://stackoverflow.com/questions/46154189/"
                "what-is-the-difference-of-static-computational-graphs-in-tensorflow-and-dynamic")
#: Answer 3's references, listed once in the course (on the start page).
REFERENCES = (
    "https://medium.com/towards-data-science/pytorch-vs-tensorflow-spotting-the-difference-25c75777377b",
    "https://www.reddit.com/r/MachineLearning/comments/5w3q74/d_so_pytorch_vs_tensorflow_whats_the_verdict_on/",
)
#: The markdown cell every notebook opens with, right after its title (tests/test_prose.py checks it).
ATTRIBUTION = (
    "<small>**Where the quotes come from.** The Stack Overflow question [“What is the difference of static "
    "Computational Graphs in tensorflow and dynamic Computational Graphs in Pytorch?”](" + QUESTION_URL + ") and "
    "its three answers, by their authors named on that page (answers numbered as in the course's `qa/qa-en.txt`). "
    "Posted in 2017, they are licensed [CC BY-SA 3.0](https://creativecommons.org/licenses/by-sa/3.0/) "
    "([Stack Overflow's licensing](https://stackoverflow.com/help/licensing)). Text in quotation marks is their "
    "exact words, spelling included; everything else is the course's own explanation.</small>"
)


@dataclass(frozen=True)
class Claim:
    """One claim: ``key`` (``A1.2`` = Answer 1, second claim; ``Q`` = the question), the ``quote``, the claim in
    plain words, the ``notebook`` that tests it, and -- once that notebook exists -- its ``status`` and ``verdict``."""

    key: str
    answer: str
    quote: str
    plain: str
    notebook: str
    status: str | None = None
    verdict: str | None = None


CLAIMS: tuple[Claim, ...] = (
    Claim("Q", "Question",
          "the graphs was said to be static [in TensorFlow] ... in Pytorch, the graphs was said to be [dynamic]",
          "TensorFlow's graphs are static, PyTorch's are dynamic: a property of each framework.",
          "08_where_we_are_today.ipynb", "no longer a framework difference",
          "Today it is a difference between two modes that both frameworks have. TensorFlow 2 runs eagerly by default "
          "and builds a static graph only inside tf.function (AutoGraph turns a tensor if/while into cond/while_loop; "
          "a Python range(100) loop unrolls into 402 ops). PyTorch runs eagerly and captures static graphs on request: "
          "torch.fx refuses data-dependent control flow, torch.compile captures one or more graphs split at graph "
          "breaks (2 graphs, then a 3rd for the other branch), torch.export needs torch.cond (a prototype) and "
          "specializes to the example's shapes unless given dynamic_shapes, and torch.jit.trace silently keeps one "
          "branch."),
    # ---------------------------------------------------------------- Answer 1
    Claim("A1.1", "Answer 1",
          "Both TensorFlow and PyTorch allow specifying new computations at any point in time.",
          "Either framework lets you add computations between runs.",
          "02_define_then_run_tensorflow.ipynb", "true",
          "A TensorFlow 1 graph can be appended to at any time, even between Session.run calls (notebook 02, section "
          "7); PyTorch records a new graph on every run. TensorFlow 1 pays for a change at the next run: the new nodes "
          "extend the session's graph and the executors it already built are kept; a request never run before builds "
          "a new executor (TensorFlow's direct_session.cc: ExtendLocked, GetOrCreateExecutors; measured in notebook "
          "05)."),
    Claim("A1.2", "Answer 1",
          "TensorFlow has a \"compilation\" steps which incurs performance penalty every time you modify the graph.",
          "Changing a TensorFlow graph costs a recompilation.",
          "05_the_cost_of_compiling.ipynb", "still true, in every compiled mode",
          "A TensorFlow 1 session pays an extension at the next run after every change, and an executor for every "
          "request it has never run (notebook 05 counts the executors). Our engine recompiles every request after "
          "any change. In TensorFlow 2 the penalty is a trace per new input signature; in PyTorch 2 a capture when "
          "torch.compile's guards fail."),
    Claim("A1.3", "Answer 1",
          "TensorFlow optimal performance is achieved when you specify the computation once, and then flow new data "
          "through the same sequence of computations.",
          "Define once, run many times: that is when a static graph is fastest.",
          "05_the_cost_of_compiling.ipynb", "true of every compiled mode, in both frameworks",
          "A steady run reuses what was compiled (1 compile, no new executor, 1 trace, 1 capture for many calls, "
          "counted). Compiled is not automatically faster: notebook 05 prints, from each run, whether compiling "
          "pays on a small and on a large graph."),
    Claim("A1.4", "Answer 1",
          "It's similar to interpreters vs. compilers -- the compilation step makes things faster, but also "
          "discourages people from modifying the program too often.",
          "Static graphs behave like compiled code, dynamic ones like interpreted code.",
          "05_the_cost_of_compiling.ipynb", "a good analogy, now true of both frameworks",
          "Both default to the interpreter (TensorFlow 2 eager, PyTorch eager) and offer a compiler (tf.function, "
          "torch.compile); compiling pays off after a measurable number of runs on a large graph, never on a tiny "
          "one. (Notebook 04 shows what the compiler does: it pruned 3 nodes, folded 2 and merged 1; notebook 08 "
          "a compiler that generates code and pays: XLA runs a chain of 30 elementwise ops over a 16 MB matrix as one "
          "fused kernel where plain tf.function runs 30, cheaper per call and ahead within a few calls, first call "
          "included, by the medians it prints.)"),
    Claim("A1.5", "Answer 1",
          "when you modify the graph in TensorFlow (by appending new computations using regular API, or removing "
          "some computation using tf.contrib.graph_editor)",
          "A graph is changed by appending ops with the normal API, or by removing some with tf.contrib.graph_editor.",
          "02_define_then_run_tensorflow.ipynb", "appending still works; the removal tool is gone",
          "Appending ops with the regular API works in TensorFlow 1 and in tf.compat.v1 today, even between runs. "
          "tf.contrib, graph_editor with it, was removed in TensorFlow 2.0, and tf.Graph has no public method that "
          "removes an op."),
    Claim("A1.6", "Answer 1",
          "It will serialize the graph, and then the underlying runtime will rerun some optimizations",
          "A change is sent to the runtime as a serialized graph, then re-optimized.",
          "05_the_cost_of_compiling.ipynb", "true, over the whole graph",
          "At the next Session.run the nodes added since the last run are serialized into a GraphDef and sent to "
          "the runtime (Session._extend_graph, the line the answer points at, still runs). The runtime then rebuilds "
          "its state of the whole graph and re-runs the pre-placement passes, the placer and the post-placement "
          "passes over every node (GraphExecutionState::Extend, then InitBaseGraph), so the cost grows with the "
          "graph's size, whatever the run fetches. Grappler runs once per new request, when its executor is built."),
    Claim("A1.7", "Answer 1",
          "which can take extra time, perhaps 200usec",
          "Extending the graph costs about 200 µs.",
          "05_the_cost_of_compiling.ipynb", "a real cost still, growing with the graph",
          "The extension alone (add a node nothing fetches, run a fetch of one op that ran before, minus a steady "
          "run of it) is measured on graphs of 10 to 3,000 ops, with its ratio to the 2017 figure printed in "
          "notebook 05; it grows with the whole graph. A new request's executor is a different cost, measured "
          "beside it, and so are traces and captures."),
    Claim("A1.8", "Answer 1",
          "running an op in previously defined graph, or in numpy/PyTorch can be as low as 1 usec",
          "One op costs about 1 µs, in a defined graph, in numpy or in PyTorch.",
          "05_the_cost_of_compiling.ipynb", "still the right order of magnitude, per op",
          "One more op in a steady TensorFlow 1 run (the slope of the run's time over graphs of 10 to 3,000 ops), "
          "one op of numpy and of PyTorch eager, printed in notebook 05 with their ratios to the 2017 figure. A "
          "Session.run call has a fixed cost far above that, and a TensorFlow eager op costs more."),
    # ---------------------------------------------------------------- Answer 2
    Claim("A2.1", "Answer 2",
          "In tensorflow you first have to define the graph, then you execute it.",
          "TensorFlow separates building the graph from running it.",
          "02_define_then_run_tensorflow.ipynb", "true of TensorFlow 1, no longer the default",
          "True of TensorFlow 1 and of tf.compat.v1 today. TensorFlow 2 is eager by default; define-then-run lives on "
          "in tf.function, which traces a graph on its first call."),
    Claim("A2.2", "Answer 2",
          "Once defined you graph is immutable: you can't add/remove nodes at runtime.",
          "A TensorFlow graph cannot change once it runs.",
          "02_define_then_run_tensorflow.ipynb", "too strong",
          "A TensorFlow 1 graph can be appended to at any time, even between runs; it is immutable only during a run "
          "and after finalize() (RuntimeError: Graph is finalized and cannot be modified). Removing nodes has no "
          "public API. A change is paid at the next run, as an extension of the session's graph: the executors "
          "already built are kept, and a request never run before pays a new executor (direct_session.cc; notebook "
          "05). In TensorFlow 2 a change to a tf.function's graph means a retrace."),
    Claim("A2.3", "Answer 2",
          "In pytorch, instead, you can change the structure of the graph at runtime: you can thus add/remove nodes "
          "at runtime, dynamically changing its structure.",
          "A PyTorch graph can take a different structure on every run.",
          "03_define_by_run_pytorch.ipynb", "true, with a precision",
          "Nobody edits a graph: each run records a new one, so a different input gives a different graph (9 against "
          "3 autograd nodes in notebook 03), and backward() frees the tensors that graph saved. Recording is paid on "
          "every run; what it gives up is a view of the whole graph before running."),
    # ---------------------------------------------------------------- Answer 3
    Claim("A3.1", "Answer 3",
          "Both frameworks operate on tensors and view any model as a directed acyclic graph (DAG)",
          "Any model, in either framework, is a DAG of tensor operations.",
          "01_graphs_are_dags.ipynb", "mostly true, with two footnotes",
          "Tensors are on every edge in both frameworks and every graph is a DAG (a cycle is refused). Footnotes: "
          "loops. TensorFlow 1's while_loop wrote a back edge into its graph; TensorFlow 2 stores a loop as one "
          "acyclic While op, but outside XLA its runtime lowers it to Enter/Merge/Switch/NextIteration/Exit, back "
          "edge included, before running it (lower_while_op.cc). And TensorFlow's graph is the program, PyTorch's "
          "the autograd record of one run."),
    Claim("A3.2", "Answer 3",
          "but they differ drastically on how you can define them.",
          "The two frameworks differ most in how a graph is defined.",
          "04_side_by_side.ipynb", "true of the two styles, no longer of the two frameworks",
          "Notebook 04 counts it: the same nodes and edges in both styles; define-then-run's first value comes after "
          "the whole graph, define-by-run's with its first node. Today each framework offers both: eager by "
          "default, a graph on request."),
    Claim("A3.3", "Answer 3",
          "TensorFlow follows ‘data as code and code is data’ idiom.",
          "In TensorFlow the program is a data structure (the graph).",
          "02_define_then_run_tensorflow.ipynb", "true, still how TensorFlow ships models",
          "The GraphDef was counted, written to disk, re-imported and run; SavedModel still stores the traced graphs "
          "of tf.functions as GraphDefs."),
    # A3.14 is the sentence after A3.3 in Answer 3 (split from A3.3, whose key it could not take): listed here, in
    # the answer's order.
    Claim("A3.14", "Answer 3",
          "In TensorFlow you define graph statically before a model can run.",
          "A TensorFlow graph is built in full before the model runs.",
          "02_define_then_run_tensorflow.ipynb", "true of TensorFlow 1, no longer the default",
          "True of TensorFlow 1 and of tf.compat.v1: every node is built before Session.run computes a value "
          "(notebook 02, section 1). TensorFlow 2 runs eagerly by default; a graph is built before running only "
          "inside tf.function, which traces it on its first call."),
    Claim("A3.4", "Answer 3",
          "All communication with outer world is performed via tf.Session object and tf.Placeholder which are tensors "
          "that will be substituted by external data at runtime.",
          "Data enters a TensorFlow graph only through placeholders, and results leave only through Session.run.",
          "02_define_then_run_tensorflow.ipynb", "true in TensorFlow 1, gone from TensorFlow 2's default API",
          "A little looser than it sounds even in TensorFlow 1: any tensor can be fed or fetched, not only a "
          "placeholder (notebook 02 fed an intermediate tensor). TensorFlow 2 has no Session and no placeholder by "
          "default: a tf.function takes ordinary arguments."),
    Claim("A3.5", "Answer 3",
          "In PyTorch things are way more imperative and dynamic: you can define, change and execute nodes as you "
          "go, no special session interfaces or placeholders.",
          "PyTorch runs each operation as the Python line runs; no session, no placeholders.",
          "03_define_by_run_pytorch.ipynb", "true, and no longer PyTorch's alone",
          "PyTorch computes each line at once and its graph grows node by node; TensorFlow 2 made the same choice "
          "(eager by default; Session and placeholder survive only in tf.compat.v1)."),
    Claim("A3.6", "Answer 3",
          "the framework is more tightly integrated with Python language and feels more native most of the times.",
          "PyTorch code is plain Python: print, breakpoints, if and while just work.",
          "03_define_by_run_pytorch.ipynb", "true for eager code",
          "print, breakpoint(), if and while behave as in any Python program. The fine print returns with graphs "
          "(notebook 04): a tf.function runs its Python once, while tracing; inside torch.compile a print splits the "
          "graph."),
    Claim("A3.7", "Answer 3",
          "When you write in TensorFlow sometimes you feel that your model is behind a brick wall with several tiny "
          "holes to communicate over.",
          "A TensorFlow model is hard to look into: only fetches and feeds get through.",
          "04_side_by_side.ipynb", "still true inside a graph",
          "In both frameworks: inside a tf.function Python ran once (1 of 3 calls); inside torch.compile a print broke "
          "the graph in two. Outside them there is no wall any more."),
    Claim("A3.8", "Answer 3",
          "Anyways, this still sounds like a matter of taste more or less.",
          "Which style you prefer is a matter of taste.",
          "04_side_by_side.ipynb", "partly",
          "Each style makes different tasks easy, which is not taste. What became a choice is the style per function: "
          "both frameworks start define-by-run and opt into a graph (tf.function; torch.compile, torch.export). What "
          "remains taste: AutoGraph's rules against Dynamo's guards, Keras against nn.Module."),
    Claim("A3.9", "Answer 3",
          "those approaches differ not only in a software engineering perspective: there are several dynamic neural "
          "network architectures that can benefit from the dynamic approach.",
          "The choice matters for models whose shape depends on the data, not only for convenience.",
          "06_variable_length_sequences.ipynb", "true",
          "Sequences of different lengths (notebook 06) and trees (notebook 07) change the graph's shape with every "
          "input; a static graph needs padding, a loop inside the graph or one trace per shape."),
    Claim("A3.10", "Answer 3",
          "Recall RNNs: with static graphs, the input sequence length will stay constant. This means that if you "
          "develop a sentiment analysis model for English sentences you must fix the sentence length to some maximum "
          "value and pad all smaller sequences with zeros.",
          "A static graph forces every sequence to be padded to one maximum length.",
          "06_variable_length_sequences.ipynb", "true of a graph unrolled over time, not of static graphs",
          "A graph unrolled in advance has a fixed length (our engine; a tf.function over a Python loop traces once "
          "per length). But a loop inside the graph (tf.while_loop, TensorFlow 1's dynamic_rnn) takes any length, and "
          "tf.RaggedTensor with an input_signature runs sentences of every length, unpadded, in one trace. Padding "
          "within a batch remains common in both frameworks because batching is fast, and the zeros need a mask or "
          "lengths (pack_padded_sequence) to leave the results unchanged."),
    Claim("A3.11", "Answer 3",
          "And you will get more problems in the domain of recursive RNNs and tree-RNNs.",
          "Networks shaped like a parse tree are harder still for static graphs.",
          "07_recursive_networks.ipynb", "still true of static graphs",
          "True of any graph that must exist before the data: our define-then-run engine needed a new graph for every "
          "new tree shape, tf.function retraces for every new nesting of its input, and a tf.function whose recursion "
          "depends on a tensor cannot be traced at all (StagingError: RecursionError while tracing). Define-by-run, "
          "in our engine, in PyTorch and in TensorFlow 2's eager mode, just follows each tree."),
    Claim("A3.12", "Answer 3",
          "Currently Tensorflow has limited support for dynamic inputs via Tensorflow Fold.",
          "TensorFlow handles tree-shaped inputs only through TensorFlow Fold.",
          "07_recursive_networks.ipynb", "history",
          "Fold's last release targeted TensorFlow 1.0, its repository is archived, its README says it is not an "
          "official Google product, and it was never ported to TensorFlow 2, whose default eager mode runs a "
          "recursive tree-RNN as plainly as PyTorch. Fold's idea lives on: batching the nodes of equal depth across "
          "50 trees of 8 words ran 57 ops instead of 1,400."),
    Claim("A3.13", "Answer 3",
          "PyTorch has it by-default.",
          "PyTorch handles dynamic inputs natively.",
          "07_recursive_networks.ipynb", "still true",
          "A PyTorch tree-RNN is plain recursion over each tree, and every run records the graph of that tree (22 "
          "autograd nodes for notebook 07's sentence)."),
)


def by_key(key: str) -> Claim:
    """The claim ``key`` (``"A3.12"``), in English whatever the language (:func:`in_language` gives its words)."""
    for c in CLAIMS:
        if c.key == key:
            return c
    raise KeyError(say(NO_CLAIM, key=key, keys=", ".join(c.key for c in CLAIMS)))


def in_language(claim: Claim, lang: str | None = None) -> Claim:
    """The claim as the ledger shows it in ``lang`` (default: the current language). English: as written here.
    French: its quote, plain words, status and verdict from :mod:`.claims_fr` (the English claim when that module
    does not have it yet; the tests require every claim there).

    >>> from course_lib.i18n import set_language
    >>> set_language("fr"); in_language(by_key("A3.13")).quote, in_language(by_key("A3.13")).status
    ('PyTorch le permet par défaut.', 'toujours vrai')
    >>> set_language("en"); in_language(by_key("A3.13")).quote
    'PyTorch has it by-default.'
    """
    words = claims_fr.CLAIMS.get(claim.key) if (lang or get_language()) == "fr" else None
    if words is None:
        return claim
    return replace(claim, quote=words.quote, plain=words.plain, status=words.status, verdict=words.verdict)


def _judged(claim: Claim, lang: str) -> tuple[str | None, str | None]:
    """A claim's status and verdict in ``lang``'s ledger (French: none while claims_fr.py lacks them)."""
    if lang == "en":
        return claim.status, claim.verdict
    words = claims_fr.CLAIMS.get(claim.key)
    return (words.status, words.verdict) if words else (None, None)


def notebooks() -> list[str]:
    """The notebooks that test claims, in course order."""
    return sorted(dict.fromkeys(c.notebook for c in CLAIMS))


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s.*\bverdict\b", re.IGNORECASE)


def verdict_cells(path: str | Path) -> list[str]:
    """The markdown cells of a notebook with a heading line containing "Verdict" (``## Verdict``, ``## 8. Verdict
    for today``), read from the .ipynb JSON: no kernel, nothing executed."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    out = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        src = cell.get("source", "")
        text = "".join(src) if isinstance(src, list) else str(src)
        if any(_HEADING.match(line) for line in text.splitlines()):
            out.append(text)
    return out


def check(notebook_dir: str | Path, lang: str = "en") -> list[str]:
    """What is out of step between this ledger and the notebooks on disk (empty when all is well):
    a written notebook without a Verdict cell, a written notebook whose claims have no verdict here, or a
    verdict here for a notebook that does not exist. ``lang="fr"``: the French ledger (claims_fr.py) against the
    French notebooks (``notebooks/fr/``)."""
    problems = []
    root = Path(notebook_dir)
    for name in notebooks():
        path = root / name
        mine = {c.key: _judged(c, lang) for c in CLAIMS if c.notebook == name}
        if path.exists():
            if not verdict_cells(path):
                problems.append(f"{name} has no markdown cell headed 'Verdict'")
            missing = [key for key, (status, verdict) in mine.items() if not verdict or not status]
            if missing:
                problems.append(f"{name} exists: copy its verdicts for {', '.join(missing)} into {LEDGER_FILE[lang]}")
        else:
            early = [key for key, (status, verdict) in mine.items() if verdict or status]
            if early:
                claims = "claims" if len(early) > 1 else "claim"
                have = "have verdicts" if len(early) > 1 else "has a verdict"
                problems.append(f"{name} does not exist, yet {claims} {', '.join(early)} {have}")
    return problems


def verdict_problems(path: str | Path, lang: str = "en") -> list[str]:
    """A notebook's Verdict tables against this ledger: every row names a claim (``| A1.7 ...``) and opens its
    verdict with that claim's status in bold, and every claim this ledger gives the notebook has a row.
    ``lang="fr"`` (a French notebook): the bold status is the French ledger's status, in French alone
    (``**Vrai.**``)."""
    from .prose import verdict_rows

    def norm(s: str) -> str:
        return " ".join(s.replace("`", "").lower().split()).rstrip(".:;, ")

    path = Path(path)
    problems, seen = [], set()
    for text in verdict_cells(path):
        for key, status, row in verdict_rows(text):
            if key is None:
                problems.append(f"{path.name}: a Verdict row names no claim (start it with its key, e.g. A1.2): "
                                f"{row[:60]}")
                continue
            try:
                claim = by_key(key)
            except KeyError:
                problems.append(f"{path.name}: {key} is not a claim of the ledger")
                continue
            seen.add(key)
            expected = _judged(claim, lang)[0]
            if status is None or norm(status) != norm(expected or ""):
                problems.append(f"{path.name}: {key}'s verdict is **{status}** here but "
                                f"'{expected}' in the ledger ({LEDGER_FILE[lang]})")
    for claim in CLAIMS:
        if claim.notebook == path.name and claim.key not in seen:
            problems.append(f"{path.name}: the ledger gives {claim.key} to this notebook, but its Verdict table has "
                            "no row for it")
    return problems


@dataclass
class Ledger:
    """The ledger as a table (HTML in Jupyter; a short summary line as text, so nbval compares little), in the
    language of the moment when it is shown."""

    claims: tuple[Claim, ...]

    def __repr__(self) -> str:
        n = len(self.claims)
        judged = sum(1 for c in self.claims if in_language(c).verdict)
        return say(Plural("Claim ledger: {n} claim from the Q&A, {judged} with a verdict today, {left} still to be "
                          "tested",
                          "Claim ledger: {n} claims from the Q&A, {judged} with a verdict today, {left} still to be "
                          "tested"), n=n, judged=judged, left=n - judged)

    def _repr_html_(self) -> str:
        def e(s: str) -> str:
            return html.escape(s, quote=True)

        cell = "padding:4px 8px;text-align:left;vertical-align:top"  # JupyterLab right-aligns table cells
        rows = []
        for c in map(in_language, self.claims):
            nb = c.notebook
            # the marked texts stay outside f-strings: Babel's extractor does not look inside them (Python 3.11)
            status = e(c.status) if c.status else "<i>" + e(_("not written yet")) + "</i>"
            verdict = e(c.verdict) if c.verdict else "<i>" + e(_("to be tested in {nb}").format(nb=nb[:2])) + "</i>"
            quote = _("“{quote}”").format(quote=e(c.quote))
            rows.append(
                "<tr style='vertical-align:top'>"
                f"<td style='{cell}'><b>{e(c.key)}</b></td>"
                f"<td style='{cell}'>{quote}<br>"
                f"<small>{e(_(c.answer))} — {e(c.plain)}</small></td>"
                f"<td style='{cell}'><a href='{e(nb)}'>{e(nb[:2])}</a></td>"
                f"<td style='{cell}'><b>{status}</b><br>{verdict}</td></tr>")
        head = "".join(f"<th style='{cell}'>{e(_(h))}</th>" for h in HEADERS)
        head = f"<tr>{head}</tr>"
        # One folded table per part of the Q&A: 25 rows at once were a wall taller than two screens.
        groups: dict[str, list[str]] = {}
        for c, row in zip(self.claims, rows, strict=True):
            groups.setdefault(c.answer, []).append(row)
        parts = []
        for answer, group in groups.items():
            keys = [c.key for c in self.claims if c.answer == answer]
            # the first and last by number: A3.14 (the second sentence of A3.3) is listed beside A3.3
            keys = sorted(keys, key=lambda k: [int(n) for n in re.findall(r"\d+", k)])
            span = keys[0] if len(keys) == 1 else f"{keys[0]}–{keys[-1]}"
            title = say(Plural("<b>{part}</b>: {n} claim ({span})", "<b>{part}</b>: {n} claims ({span})"),
                        part=e(_(answer)), n=len(group), span=e(span))
            parts.append(f"<details style='margin:2px 0'><summary style='cursor:pointer'>{title}</summary>"
                         f"<table style='border-collapse:collapse'>{head}{''.join(group)}</table></details>")
        footer = _("Open a part to read its claims. Quotes: {source}. Verdicts: TensorFlow 2.21, PyTorch 2.13, "
                   "measured in the notebooks.").format(source=e(_(SOURCE)))
        return f"<div style='font-size:14px'>{''.join(parts)}<p><small>{footer}</small></p></div>"


def ledger() -> Ledger:
    return Ledger(CLAIMS)
