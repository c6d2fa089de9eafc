"""The checked exercises of notebook 06, *Variable-length sequences*: defined here so the answers stay out of the
notebook. Expected answers are computed at check time (by :mod:`course_lib.lessons.sequences`, real TensorFlow or real
PyTorch), never typed in; the frameworks are imported only when an answer is checked. Each function returns the
same :class:`Exercise` on every call, so a re-run cell keeps counting attempts and the hints move on, and
:data:`REVEALS` lists what would give each one away (``tests/test_exercise_spoilers.py``).
Worked solutions: ``instructor/06_variable_length_sequences_solutions.md``.

>>> padded_steps().check(21).ok
True
>>> bucket_boundaries().check([5, 12]).ok
True
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..i18n import N_, Plural, Said, say
from . import sequences as sq
from .exercises import A_LIST_OF_SPECS, NOT_IT, TF_REFUSED_IT, Exercise, choice, count_is, numbers_of

__all__ = [
    "BUCKET_LENGTHS",
    "BUCKET_TARGET",
    "LOOP_CHOICES",
    "PACKED_LENGTHS",
    "PADDED_LENGTHS",
    "REVEALS",
    "bucket_boundaries",
    "loop_choice",
    "loop_verdict",
    "packed_batch_sizes",
    "padded_steps",
    "ragged_signature",
    "review_batches",
]

#: 06.1: a batch padded to its longest sentence.
PADDED_LENGTHS = [7, 3, 12, 5]
#: 06.2: sixteen sentence lengths, and the most padded steps allowed with at most two boundaries.
BUCKET_LENGTHS = [2, 3, 3, 4, 5, 9, 10, 11, 11, 12, 20, 21, 22, 25, 3, 10]
BUCKET_TARGET = 35
#: 06.4: the lengths given to pack_padded_sequence.
PACKED_LENGTHS = [5, 2, 3]

# The verdicts (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
PADDED_WHY = N_("{batch} × {longest} = {total} steps, {real} on words")
EVERY_STEP = N_("that is every step of the padded batch; how many of them are on padding?")
REAL_WORDS = N_("that is the number of real words; the question asks for the padding")
AT_MOST_TWO_NUMBERS = N_("answer with a list of at most two whole numbers, e.g. {example}")
TOO_MANY_BOUNDARIES = N_("{n} boundaries make {buckets} buckets (graphs); use at most two")
BUCKETS_WHY = N_("{padded} padded steps in {buckets} buckets (padded to {longest}), down from {before} with one "
                 "bucket")
OVER_TARGET = N_("{padded} padded steps with {limits}; the target is at most {target}")
NEEDS_RAGGED_SPEC = N_("a RaggedTensor needs a tf.RaggedTensorSpec, not a TensorSpec")
RAGGED_DIMENSIONS = Plural("TensorFlow refused it: this spec has {n} ragged dimension, which is not the batch's "
                           "structure",
                           "TensorFlow refused it: this spec has {n} ragged dimensions, which is not the batch's "
                           "structure")
RAN_OTHER_NUMBERS = N_("it ran but gave other numbers: keep float64 and 3 numbers per word")
TRACED_TIMES = N_("it traced {n} times")
ONE_GRAPH = N_("one graph for every batch: the numbers of reviews, sentences and words are left open")
ONE_NUMBER_PER_STEP = N_("answer with a list of whole numbers, one per time step")
PACKED_WHY = N_("{n} cell steps in all, the number of words: time step t runs only the sentences that still have a "
                "word t")
STEPS_OF_LONGEST = N_("there is one number per time step, and the longest sentence has {n} steps")


@functools.cache
def padded_steps() -> Exercise:
    """06.1: cell steps spent on padding when :data:`PADDED_LENGTHS` are padded to the longest."""

    count = sq.padding_count(PADDED_LENGTHS)

    def why(padded: int) -> Said:
        return say(PADDED_WHY, batch=len(PADDED_LENGTHS), longest=max(PADDED_LENGTHS), total=count.total,
                   real=count.real)

    def mistake(got: int, padded: int) -> Said | None:
        return {count.total: say(EVERY_STEP), count.real: say(REAL_WORDS)}.get(got)

    check = count_is(lambda: count.padded, "cell steps", why, mistake)
    return Exercise("06.1", N_("How many cell steps run on padding?"), check,
                    hints=[N_("every sentence runs as many steps as the longest one"),
                           N_("padded steps = batch size × longest length − total words")])


@functools.cache
def bucket_boundaries() -> Exercise:
    """06.2: at most two boundaries for :data:`BUCKET_LENGTHS` leaving at most :data:`BUCKET_TARGET` padded steps."""

    def check(answer: Any) -> tuple[bool, str]:
        if isinstance(answer, (set, frozenset)):  # boundaries have no order: {6, 15} is [6, 15]
            answer = list(answer)
        limits = numbers_of(answer, whole=True)  # 6.0 is 6; 6.5, True, "6 15" are refused, never rounded
        if limits is None:
            return False, say(AT_MOST_TWO_NUMBERS, example="[6, 15]")
        if len(limits) > 2:
            return False, say(TOO_MANY_BOUNDARIES, n=len(limits), buckets=len(limits) + 1)
        groups = sq.buckets(BUCKET_LENGTHS, boundaries=limits)
        count = sq.bucketed_count(BUCKET_LENGTHS, groups)
        if count.padded <= BUCKET_TARGET:
            return True, say(BUCKETS_WHY, padded=count.padded, buckets=len(groups),
                             longest=", ".join(str(max(BUCKET_LENGTHS[i] for i in g)) for g in groups),
                             before=sq.padding_count(BUCKET_LENGTHS).padded)
        return False, say(OVER_TARGET, padded=count.padded, limits=limits, target=BUCKET_TARGET)

    return Exercise("06.2", say(N_("Two boundaries that leave at most {target} padded steps."), target=BUCKET_TARGET),
                    check,
                    hints=[N_("look at the sorted lengths: where are the big jumps?"),
                           N_("a bucket is padded to its own longest sentence: a cut just below a big jump keeps "
                              "the short sentences from being padded to the long ones")])


#: 06.3's batches: reviews (lists of sentences) with these numbers of words per sentence.
REVIEW_LENGTHS = ([[2, 4], [3]], [[5, 1, 3], [2, 2], [1]], [[7], [2, 6]])


def review_batches() -> list[list[list[list[float]]]]:
    """06.3's three batches of reviews: each review a list of sentences, each sentence a list of word vectors of
    size 3; the batches differ in reviews, sentences per review and words per sentence."""
    rng = np.random.default_rng(6)
    return [[[rng.normal(size=(n, 3)).round(3).tolist() for n in review] for review in batch]
            for batch in REVIEW_LENGTHS]


@functools.cache
def ragged_signature() -> Exercise:
    """06.3: an ``input_signature`` under which a tf.function takes every batch of :func:`review_batches` in ONE
    trace: ``[reviews, (sentences), (words), 3]`` float64, ragged in two dimensions (a setting the notebook does
    not show: its ragged batch of sentences has one)."""

    def check(answer: Any) -> tuple[bool, str]:
        from ..adapters.loader import load_tensorflow

        tf = load_tensorflow()
        if not isinstance(answer, (list, tuple)):
            return False, say(A_LIST_OF_SPECS, example="[tf.RaggedTensorSpec(...)]")
        batches = [tf.ragged.constant(b, dtype=tf.float64, ragged_rank=2) for b in review_batches()]
        try:
            f = tf.function(lambda reviews: tf.reduce_sum(reviews, axis=[1, 2]), input_signature=list(answer))
            got = [f(b).numpy() for b in batches]
        except (TypeError, ValueError) as err:
            if any(isinstance(spec, tf.TensorSpec) for spec in answer):
                return False, say(NEEDS_RAGGED_SPEC)
            ranks = [getattr(spec, "ragged_rank", None) for spec in answer]
            if len(ranks) == 1 and isinstance(ranks[0], int) and ranks[0] != batches[0].ragged_rank:
                return False, say(RAGGED_DIMENSIONS, n=ranks[0])
            return False, say(TF_REFUSED_IT, line=str(err).splitlines()[0][:160])
        want = [np.array([np.sum(np.concatenate(review), axis=0) for review in b]) for b in review_batches()]
        if not all(np.allclose(g, w) for g, w in zip(got, want, strict=True)):
            return False, say(RAN_OTHER_NUMBERS)
        traces = f.experimental_get_tracing_count()
        if traces != 1:
            return False, say(TRACED_TIMES, n=traces)
        return True, say(ONE_GRAPH)

    return Exercise("06.3", N_("A signature that takes every batch of reviews in one trace."), check,
                    hints=[N_("write the dimensions of a batch of reviews, outermost first, and mark those whose "
                              "size changes from one item to the next"),
                           N_("ragged_rank counts the ragged dimensions after the first one; the shape has one entry "
                              "per dimension")])


@functools.cache
def packed_batch_sizes() -> Exercise:
    """06.4: ``PackedSequence.batch_sizes`` for :data:`PACKED_LENGTHS`."""

    def check(answer: Any) -> tuple[bool, str]:
        from ..adapters.loader import load_torch

        torch = load_torch()
        from torch.nn.utils.rnn import pack_padded_sequence

        x = torch.zeros(len(PACKED_LENGTHS), max(PACKED_LENGTHS), 3)
        packed = pack_padded_sequence(x, torch.tensor(PACKED_LENGTHS), batch_first=True, enforce_sorted=False)
        truth = [int(v) for v in packed.batch_sizes]
        got = numbers_of(answer, whole=True)
        if got is None:
            return False, say(ONE_NUMBER_PER_STEP)
        if got == truth:
            return True, say(PACKED_WHY, n=sum(truth))
        if len(got) != len(truth):
            return False, say(STEPS_OF_LONGEST, n=len(truth))
        return False, say(NOT_IT, answer=got)

    return Exercise("06.4", N_("What are the packed sequence's batch_sizes?"), check,
                    hints=[N_("batch_sizes[t] = how many sentences have at least t + 1 words"),
                           N_("draw each sentence as a row of squares, one per word, and count the squares in each "
                              "column")])


#: 06.5's options: how many traces a tf.function over a padded batch makes when its loop runs over ``tf.range``
#: and it has no ``input_signature`` (a setting section 5 does not show: it showed a Python loop without a signature
#: and a tf.range loop with a ragged signature).
LOOP_CHOICES = {
    "a": N_("one trace: the loop over tf.range is a while_loop, so one graph serves every length"),
    "b": N_("three traces: with no input_signature, each new input shape is traced again"),
    "c": N_("three traces: AutoGraph unrolls tf.range when the padded length is known"),
    "d": N_("two traces: only the batch size is part of the signature, and it takes two values"),
}


def loop_verdict() -> str:
    """06.5's answer, decided by real TensorFlow: section 5's padded function with its loop over ``tf.range``,
    called on section 5's three padded batches. ``"a"``: one trace; ``"d"``: two; ``"b"``: three and the graph
    holds a ``While`` op; ``"c"``: three, unrolled (no ``While``)."""
    from ..adapters.loader import load_tensorflow

    tf = load_tensorflow()
    rnn = sq.TinyRNN.make(seed=0)
    wx, wh, b, v = (tf.constant(a) for a in (rnn.wx, rnn.wh, rnn.b, rnn.v))

    @tf.function
    def looped_scores(x: Any, mask: Any) -> Any:
        h = tf.zeros([tf.shape(x)[0], rnn.hidden], tf.float64)
        for t in tf.range(tf.shape(x)[1]):  # a loop over a tensor: a tf.while_loop, whatever the length
            m = mask[:, t : t + 1]
            h = m * tf.tanh(x[:, t] @ wx + h @ wh + b) + (1.0 - m) * h
        return tf.sigmoid(tf.linalg.matvec(h, v))

    xs = [rnn.embed(s) for s in sq.SENTENCES]
    padded = [[tf.constant(a) for a in sq.pad(batch)] for batch in (xs[0:3], xs[3:6], xs[6:8])]  # section 5's
    for batch in padded:
        looped_scores(*batch)
    traces = looped_scores.experimental_get_tracing_count()
    graph = looped_scores.get_concrete_function(*padded[0]).graph
    looped = any("While" in op.type for op in graph.get_operations())
    return {1: "a", 2: "d"}.get(traces, "b" if looped else "c")


@functools.cache
def loop_choice() -> Exercise:
    """06.5: a prediction with its reason, decided by real TensorFlow when the answer is checked
    (:func:`loop_verdict`)."""
    why = {
        "a": N_("a while_loop runs any number of steps, but with no input_signature the input's shape is part of "
                "the signature: a new shape traces again"),
        "b": N_("the graph holds one While op, yet a tf.function with no input_signature traces once per new input "
                "shape, loop or not"),
        "c": N_("AutoGraph turns a loop over a tensor into a tf.while_loop whatever the length: the graph holds one "
                "While op"),
        "d": N_("every dimension's size is part of the signature, the number of words as well as the batch size"),
    }
    return Exercise("06.5", N_("How many traces for the three padded batches, and why?"),
                    choice(LOOP_CHOICES, loop_verdict, why),
                    hints=[N_("two things decide a trace: the Python the tracing runs, and the signature of the "
                              "inputs; which changes here?"),
                           N_("compare the shapes of the three padded batches")])


#: What would give each exercise away (``tests/test_exercise_spoilers.py``): the key line of a solution, the right
#: option's own words, the printed count that answers.
REVEALS: dict[str, tuple[str, ...]] = {
    "06.1": ("4 × 12 = 48 steps, 27 on words", "4 × 12 = 48 pas, dont 27 sur des mots", "check(21)"),
    "06.2": ("boundaries=[5, 12]", "check([5, 12])", "31 padded steps in 3 buckets", "31 pas de remplissage dans 3"),
    "06.3": ("ragged_rank=2", "shape=[None, None, None, 3]"),
    "06.4": ("[3, 3, 2, 1, 1]",),
    "06.5": ("each new input shape is traced again", "traces once per new input shape",
             "chaque nouvelle forme d'entrée est tracée à nouveau", "trace une fois par nouvelle forme d'entrée"),
}
