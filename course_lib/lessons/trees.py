"""Parse trees typed as brackets, e.g. ``((the cat) (sat (on (the mat))))``: a safe parser and the tree it gives.

A recursive (tree) network reads a sentence the way its parse tree groups it: "the" and "cat" combine into
"the cat", "the mat" into a phrase, "on the mat", "sat on the mat", and finally the whole sentence. The *shape* of
that computation is the shape of the tree, so it changes from one sentence to the next -- which is what makes
tree networks hard for a graph that must be defined before any data is seen.

The text is read character by character with an explicit stack (never ``eval``, never Python recursion), so a
student's typing can only produce a :class:`Tree` or a :class:`TreeError` that says what is wrong and where:

* words are runs of characters other than spaces and brackets (``cat``, ``don't``, ``3.5``);
* ``(`` opens a phrase, ``)`` closes the innermost open one; a phrase holds one or more words or phrases;
* several items at the top level are read as one phrase (``the cat sat`` = ``(the cat sat)``);
* errors: empty text, ``()``, a ``)`` that closes nothing, a ``(`` never closed, nesting deeper than
  ``max_depth``, more than ``max_words`` words, a word longer than ``MAX_WORD``.

>>> t = parse("((the cat) (sat (on (the mat))))")
>>> t.words
['the', 'cat', 'sat', 'on', 'the', 'mat']
>>> t.height, t.compositions
(4, 5)
>>> t.text
'((the cat) (sat (on (the mat))))'
>>> parse("(the cat")
Traceback (most recent call last):
...
course_lib.lessons.trees.TreeError: this '(' is never closed at column 1. Add a ')' at the end, or remove this '('
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..expr import ExpressionError
from ..i18n import N_, Plural, say

__all__ = ["MAX_DEPTH", "MAX_WORD", "MAX_WORDS", "Tree", "TreeError", "parse", "random_tree"]

MAX_DEPTH = 30
MAX_WORDS = 64
MAX_WORD = 40


# what parse() says, and its hints (English message ids; tests check which one was said with i18n.message_of)
NOT_TEXT = N_("a tree is text like '((the cat) sat)', got a value of type {type}")
EMPTY = N_("the tree is empty")
EMPTY_HINT = N_("Type words in brackets, for example ((the cat) sat)")
TOO_DEEP = Plural("the tree is nested deeper than {max_depth} level",
                  "the tree is nested deeper than {max_depth} levels", count="max_depth")
TOO_DEEP_HINT = N_("A sentence rarely needs that many; remove some brackets")
CLOSES_NOTHING = N_("this ')' closes nothing")
CLOSES_NOTHING_HINT = N_("Remove it, or add a '(' before it")
EMPTY_BRACKETS = N_("empty brackets '()'")
EMPTY_BRACKETS_HINT = N_("A phrase needs at least one word inside")
WORD_TOO_LONG = N_("a word longer than {max_word} characters")
WORD_TOO_LONG_HINT = N_("Use shorter words")
CONTROL_CHARACTER = N_("a word with a control character")
CONTROL_CHARACTER_HINT = N_("Type plain words")
TOO_MANY_WORDS = Plural("more than {max_words} word", "more than {max_words} words", count="max_words")
TOO_MANY_WORDS_HINT = N_("Try a shorter sentence")
NEVER_CLOSED = N_("this '(' is never closed")
NEVER_CLOSED_HINT = N_("Add a ')' at the end, or remove this '('")
LEAF_OR_PHRASE = N_("a Tree is either a leaf (a word, no children) or a phrase (children, no word)")
NO_WORDS = N_("a tree needs at least one word")


class TreeError(ExpressionError):
    """Text that is not a parse tree: refused the way a typed expression is, with ``message``, ``position``
    (0-based column, or None), a ``hint`` and :meth:`pointer` (the text with a caret under the problem).

    Raised with a course message and hint (``say(NEVER_CLOSED)``, ``say(NEVER_CLOSED_HINT)``); ExpressionError keeps
    the message as ``said``, which :func:`course_lib.i18n.message_of` finds: a test checks which message was said,
    in any language."""


@dataclass(frozen=True, eq=False)
class Tree:
    """A node of a parse tree: a leaf holds a ``word``; a phrase holds ``children`` (one or more trees).

    Trees are immutable and compare by content. Every walk below is iterative, so a tree 10,000 levels deep
    (built in code, not typed) is handled without hitting Python's recursion limit.
    """

    word: str | None = None
    children: tuple[Tree, ...] = field(default=())

    def __post_init__(self) -> None:
        if (self.word is None) == (not self.children):
            raise ValueError(say(LEAF_OR_PHRASE))

    # -------------------------------------------------------------- walking
    @property
    def is_leaf(self) -> bool:
        return self.word is not None

    def postorder(self) -> Iterator[Tree]:
        """Every node after its children, left to right (the order a tree network computes them)."""
        stack: list[tuple[Tree, bool]] = [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded or node.is_leaf:
                yield node
                continue
            stack.append((node, True))
            stack.extend((c, False) for c in reversed(node.children))

    @property
    def words(self) -> list[str]:
        return [n.word for n in self.postorder() if n.is_leaf]  # type: ignore[misc]

    @property
    def size(self) -> int:
        """Number of nodes (words and phrases)."""
        return sum(1 for _ in self.postorder())

    def heights(self) -> dict[int, int]:
        """Height of every node, keyed by its position in :meth:`postorder`: words 0, a phrase 1 + its tallest child.

        The height is when a node can be computed at the earliest: all nodes of one height are independent of each
        other -- the levels TensorFlow Fold batches together.
        """
        index: dict[int, int] = {}
        out: dict[int, int] = {}
        for k, node in enumerate(self.postorder()):
            index[id(node)] = k  # identity of nodes of *this* walk only; never used for ordering
            out[k] = 0 if node.is_leaf else 1 + max(out[index[id(c)]] for c in node.children)
        return out

    @property
    def height(self) -> int:
        """Longest path from this node down to a word (a single word has height 0)."""
        return max(self.heights().values())

    @property
    def compositions(self) -> int:
        """How many times a binary cell runs over this tree: one fewer than the number of words, whatever the shape
        (a phrase of k items is read as k - 1 binary combinations, left to right)."""
        return len(self.words) - 1

    @property
    def text(self) -> str:
        """The tree in brackets (canonical spacing); ``parse(t.text) == t``."""
        return self._brackets(lambda word: word)

    def shape(self) -> str:
        """The bracket structure without the words (``((* *) (* (* (* *))))``): trees of one shape can share one
        static graph; a new shape needs a new one."""
        return self._brackets(lambda word: "*")

    def _brackets(self, leaf: Callable[[str], str]) -> str:
        parts: list[str] = []
        stack: list[tuple[Tree, int]] = [(self, 0)]
        while stack:
            node, k = stack.pop()
            if node.is_leaf:
                parts.append(leaf(node.word))  # type: ignore[arg-type]
                continue
            if k == 0:
                parts.append("(")
            if k < len(node.children):
                if k > 0:
                    parts.append(" ")
                stack.append((node, k + 1))
                stack.append((node.children[k], 0))
            else:
                parts.append(")")
        return "".join(parts)

    @property
    def phrase(self) -> str:
        """The words it covers, as a phrase: ``'the cat'``."""
        return " ".join(self.words)

    def binarized(self) -> Tree:
        """The same tree with every phrase of k > 2 items read left to right as binary steps
        (``(a b c)`` -> ``((a b) c)``) and single-item phrases ``(a)`` replaced by their item."""
        made: dict[int, Tree] = {}
        for node in self.postorder():
            if node.is_leaf:
                made[id(node)] = node
                continue
            kids = [made[id(c)] for c in node.children]
            acc = kids[0]
            for kid in kids[1:]:
                acc = Tree(children=(acc, kid))
            made[id(node)] = acc
        return made[id(self)]

    def nested(self, leaf: Callable[[str], Any]) -> Any:
        """The binarized tree as nested pairs with ``leaf(word)`` at the leaves: ``((v_the, v_cat), v_sat)``.

        A framework sees the *structure* of nested tuples (``tf.function`` keys its traces on it) and the leaves
        as tensors.
        """
        b = self.binarized()
        made: dict[int, Any] = {}
        for node in b.postorder():
            made[id(node)] = leaf(node.word) if node.is_leaf else tuple(made[id(c)] for c in node.children)  # type: ignore[arg-type]
        return made[id(b)]

    def __eq__(self, other: object) -> bool:
        # by content, through the bracket text (iterative); the dataclass default would recurse
        return isinstance(other, Tree) and (self is other or self.text == other.text)

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        text = self.text
        return f"Tree({text if len(text) <= 60 else text[:57] + '...'})"


# ---------------------------------------------------------------------------------------------------- parsing
def parse(text: str, *, max_depth: int = MAX_DEPTH, max_words: int = MAX_WORDS) -> Tree:
    """Read a bracketed parse tree (see the module docstring); raise :class:`TreeError` with a position if it is
    not one.

    >>> parse("cat")
    Tree(cat)
    >>> parse("the cat sat").text
    '(the cat sat)'
    """
    if not isinstance(text, str):
        raise TreeError(say(NOT_TEXT, type=type(text).__name__))
    if not text.strip():
        raise TreeError(say(EMPTY), None, say(EMPTY_HINT))
    open_at: list[int] = []  # column of each open '('
    items: list[list[Tree]] = [[]]  # items of each open phrase; items[0] is the top level
    words = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == "(":
            if len(open_at) >= max_depth:
                raise TreeError(say(TOO_DEEP, max_depth=max_depth), i, say(TOO_DEEP_HINT))
            open_at.append(i)
            items.append([])
            i += 1
        elif ch == ")":
            if not open_at:
                raise TreeError(say(CLOSES_NOTHING), i, say(CLOSES_NOTHING_HINT))
            start = open_at.pop()
            kids = items.pop()
            if not kids:
                raise TreeError(say(EMPTY_BRACKETS), start, say(EMPTY_BRACKETS_HINT))
            items[-1].append(Tree(children=tuple(kids)))
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "()":
                j += 1
            word = text[i:j]
            if len(word) > MAX_WORD:
                raise TreeError(say(WORD_TOO_LONG, max_word=MAX_WORD), i, say(WORD_TOO_LONG_HINT))
            if not word.isprintable():
                raise TreeError(say(CONTROL_CHARACTER), i, say(CONTROL_CHARACTER_HINT))
            words += 1
            if words > max_words:
                raise TreeError(say(TOO_MANY_WORDS, max_words=max_words), i, say(TOO_MANY_WORDS_HINT))
            items[-1].append(Tree(word=word))
            i = j
    if open_at:
        raise TreeError(say(NEVER_CLOSED), open_at[-1], say(NEVER_CLOSED_HINT))
    top = items[0]
    return top[0] if len(top) == 1 else Tree(children=tuple(top))


# ---------------------------------------------------------------------------------------------------- examples
WORDS = ("the", "a", "cat", "dog", "mat", "sat", "saw", "on", "big", "red", "ran", "home", "quickly", "very")


def random_tree(n_words: int, rng: np.random.Generator) -> Tree:
    """A random binary tree over ``n_words`` words (random merges of neighbours), for batches of sentences.
    Words are distinct while ``n_words`` allows (pictures stay readable).

    >>> random_tree(5, np.random.default_rng(0)).compositions
    4
    """
    if n_words < 1:
        raise ValueError(say(NO_WORDS))
    picked = rng.choice(len(WORDS), size=n_words, replace=n_words > len(WORDS))
    nodes = [Tree(word=WORDS[int(k)]) for k in picked]
    while len(nodes) > 1:
        k = int(rng.integers(0, len(nodes) - 1))
        nodes[k: k + 2] = [Tree(children=(nodes[k], nodes[k + 1]))]
    return nodes[0]


def word_vector(word: str, dim: int) -> np.ndarray:
    """A fixed vector for a word (from a SHA-256 of it, so the same on every machine and run), entries in [-1, 1].

    A real model learns these (an embedding table); for watching the graph, fixed ones are enough.
    """
    digest = hashlib.sha256(word.encode("utf-8")).digest()
    seed = int.from_bytes(digest[:8], "little")
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=dim)
