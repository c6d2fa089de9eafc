"""The course's languages: English (the default) and French, through Python's standard ``gettext``.

* **English is the message itself.** Every message a student sees is written in English in the code, inside
  ``_("…")``; that English text is the message id, so no English catalogue exists and English output is exactly
  the text in the code.
* **The French catalogue** is ``course_lib/i18n/locale/fr/LC_MESSAGES/course_lib.po`` (the committed source) and
  the ``course_lib.mo`` compiled from it beside it by Babel (``./course setup`` runs ``tools/catalogue.py compile``;
  the .mo is not committed).
* **The language** is read from the ``COURSE_LANG`` environment variable at the first message (``fr``, ``fr_FR``,
  ``fr_CA.UTF-8``, a list ``de:fr``…), else English; :func:`set_language` overrides it (a notebook's language line).
  A language the course does not speak (``de``) is English with one :class:`LanguageWarning` per process and
  value; ``C`` and ``POSIX`` (a system's "no locale", which gettext leaves untranslated) are English without one.
* **Looked up late.** A widget translates its words when it is built and a message when it is made, never at
  import: ``set_language("fr")`` before building a widget makes it French.
* **Values after translation.** A message with values has named placeholders, filled in after the translation:
  ``_("step {k} of {n}").format(k=k, n=n)`` (an f-string inside ``_()`` would make a message id that is in no
  catalogue).
* **Counts agree, one way.** A message with a count is a :class:`Plural` (its English singular and plural), said
  with :func:`say`: ``say(Plural("{n} node", "{n} nodes"), n=1)`` is "1 node" (English: the singular for 1; French:
  for 0 and 1, the catalogue's ``Plural-Forms``). Nothing else in the course makes a plural.
* **No grammar at run time.** A message is said as it is written: none puts "a"/"an" before a value (which article
  would depend on the value), so it says ``got {value!r} (type {kind})`` or ``a value of type {kind}`` instead.

>>> set_language("fr"); _("Next ▶"), say(Plural("{n} node", "{n} nodes"), n=2), number(1400.5)
('Suivant ▶', '2 nœuds', '1\\u202f400,5')
>>> set_language("en"); _("Next ▶"), number(1400.5)
('Next ▶', '1400.5')
"""

from __future__ import annotations

import decimal
import gettext as gettext_module
import math
import numbers
import os
import re
import string
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

__all__ = ["DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "LanguageWarning", "Lazy", "Plural", "Said", "_", "get_language",
           "gettext", "message_of", "number", "said_by", "say", "set_language"]

DOMAIN = "course_lib"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "fr")  # English first: the default, and the language of the message ids
THIN_NBSP = "\u202f"  # French thousands separator (narrow no-break space)

_language: str | None = None  # None until the first message: then COURSE_LANG, or English
_catalogues: dict[str, gettext_module.NullTranslations] = {}


def N_(message: str) -> str:
    """Mark a message for translation without translating it (a table of messages made at import, translated
    with ``_()`` where it is shown). Babel extracts it like ``_()`` (the keywords are in pyproject.toml)."""
    return message


# The messages of this module (English ids; said in the language of the moment, like every course message).
LANGUAGE_NOT_TEXT = N_("{where}: a language is text, one of {languages}; got {got} (type {kind})")
NO_SUCH_LANGUAGE = N_("{where}: no language {lang!r} in the course, so it speaks English; its languages are "
                      "{languages}")
NO_SUCH_CATALOGUE = N_("{where}: no language {lang!r} in the course; its languages are {languages}")
COUNT_MISSING = N_("the message {message!r} needs its count {count}=...")
COUNT_NOT_WHOLE = N_("the count {count}={got} of the message {message!r} must be a whole number: it chooses the "
                     "singular or the plural")
VALUE_MISSING = N_("the message {message!r} needs the value {name}=...")
VALUE_UNFIT = N_("the message {message!r} cannot show {name}={got} as {{{name}:{spec}}}")
NOT_A_NUMBER = N_("number() shows a number in running text; got {got} (type {kind})")
NO_DIGITS = N_("number() needs digits=1 or more; got {got}")
BAD_SPEC = N_("number() cannot show {got} with the format {spec!r}")


class LanguageWarning(UserWarning):
    """A language the course does not speak was asked for (``COURSE_LANG=de``, ``set_language("de")``): it speaks
    English instead, and says so once per process for each such value."""


_warned: set[tuple[str, str]] = set()  # (where, value) already warned about: one warning each per process


def _code(lang: str) -> str | None:
    """The course language of ``lang``: 'fr', 'FR', 'fr_CA.UTF-8', 'fr-CA' -> 'fr'; a gettext-style list 'de:fr' ->
    its first course language; 'C', 'POSIX', 'C.UTF-8' (no locale: gettext leaves messages untranslated) -> 'en';
    None when it names no course language."""
    for part in lang.split(":"):
        code = re.split(r"[_.@-]", part.strip().lower(), maxsplit=1)[0]
        if code in LANGUAGES:
            return code
        if code in ("c", "posix"):
            return "en"
    return None


def _normalize(lang: Any, where: str) -> str:
    """The course language of ``lang`` (see :func:`_code`); one the course does not speak is English, with one
    :class:`LanguageWarning` (per process and value). Not text: a TypeError (a programmer's mistake)."""
    if not isinstance(lang, str):
        raise TypeError(say(LANGUAGE_NOT_TEXT, where=where, languages=", ".join(map(repr, LANGUAGES)),
                            got=f"{lang!r:.60}", kind=type(lang).__name__))
    code = _code(lang)
    if code is None:
        code = "en"
        if (where, lang) not in _warned:
            _warned.add((where, lang))
            warnings.warn(say(NO_SUCH_LANGUAGE, where=where, lang=lang, languages=", ".join(map(repr, LANGUAGES))),
                          LanguageWarning, stacklevel=3)
    return code


def set_language(lang: str) -> None:
    """Speak ``lang`` ("en" or "fr") from now on: widgets built and messages made after this call use it. A
    language the course does not speak is English, with a :class:`LanguageWarning`."""
    global _language
    code = _normalize(lang, "set_language")
    _language = code


def get_language() -> str:
    """The language in use: the last :func:`set_language`, else ``COURSE_LANG`` (read once), else "en"."""
    global _language
    if _language is None:
        env = os.environ.get("COURSE_LANG", "").strip()
        _language = "en"  # first: the warning about an unknown COURSE_LANG is itself a message, said in English
        _language = _normalize(env, "the environment variable COURSE_LANG") if env else "en"
    return _language


def catalogue(lang: str | None = None) -> gettext_module.NullTranslations:
    """The translations of a language (English: none, the message ids are English); loaded once."""
    if lang is not None and (not isinstance(lang, str) or _code(lang) is None):  # a programmer's mistake
        raise ValueError(say(NO_SUCH_CATALOGUE, where="catalogue", lang=lang,
                             languages=", ".join(map(repr, LANGUAGES))))
    lang = _code(lang) if lang is not None else get_language()
    found = _catalogues.get(lang)
    if found is None:
        if lang == "en":
            found = gettext_module.NullTranslations()
        else:  # a missing .mo is a broken install, said plainly instead of speaking English without a word
            try:
                found = gettext_module.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang])
            except FileNotFoundError as e:
                raise FileNotFoundError(f"the {lang!r} catalogue is not compiled (no {DOMAIN}.mo under {LOCALE_DIR}): "
                                        "run ./course setup, or .venv/bin/python tools/catalogue.py compile") from e
        _catalogues[lang] = found
    return found


def gettext(message: str) -> str:
    """``message`` (English, the message id) in the current language. Modules import it as ``_``
    (``from ..i18n import gettext as _``): the usual gettext name, and no import of another part's private name."""
    return catalogue().gettext(message)


_ = gettext


class Lazy(str):
    """A message constant translated each time it is used as text (``str()``, ``+``, f-strings), for a constant
    that other modules import by name and use as it is (``INSTALL_HINT + "…"``). Compared and searched as its
    English text (``"x" in hint`` reads the message id)."""

    __slots__ = ()

    def __str__(self) -> str:
        return _(str.__str__(self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __add__(self, other: Any) -> str:
        return str(self) + other if isinstance(other, str) else NotImplemented

    def __radd__(self, other: Any) -> str:
        return other + str(self) if isinstance(other, str) else NotImplemented


def number(x: Any, digits: int = 6, spec: str | None = None) -> str:
    """A number for running text in the current language, with up to ``digits`` significant digits (as ``:g``),
    or formatted with a format ``spec`` (``".2f"``, ``",.0f"``, ``".1%"``) when one is given.

    English: exactly ``format(x, f".{digits}g")`` (whole numbers as they are), or exactly ``format(x, spec)``.
    French: the same digits with a decimal comma and a narrow no-break space between thousands (1 400 ; 0,5 ;
    -12 500,25 ; 12,5 %), the exponent kept as it is (1,5e-07).

    ``x`` is a real number: an int of any size, a float (NaN and infinities written as Python writes them, ``nan``,
    ``inf``, in both languages), a bool (0 or 1), numpy's scalars and 0-d arrays, a torch scalar. Anything else
    (None, text, a list, a complex) is a programmer's mistake: a TypeError naming it, as is a ``spec`` that cannot
    show ``x`` (a ValueError).

    >>> set_language("fr"); number(0.5123, spec=".2f"), number(1400, spec=",.0f"), number(0.125, spec=".1%")
    ('0,51', '1\u202f400', '12,5\u202f%')
    >>> set_language("en"); number(0.5123, spec=".2f"), number(1400, spec=",.0f")
    ('0.51', '1,400')
    """
    x = _real(x)
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or digits < 1:
        raise ValueError(say(NO_DIGITS, got=f"{digits!r:.20}"))
    try:
        if spec is not None:
            text = _formatted(x, spec)
        elif isinstance(x, numbers.Integral):
            text = str(int(x))
        else:
            text = format(float(x), f".{int(digits)}g")
    except (ValueError, TypeError):
        raise ValueError(say(BAD_SPEC, got=f"{x!r:.60}", spec=spec)) from None
    if get_language() != "fr":
        return text
    text = text.replace(",", "").replace("_", "")  # English thousands separators: French groups below
    percent = text.endswith("%")
    text = text.rstrip("%")
    mantissa, e, exponent = text.partition("e")
    body = mantissa.lstrip("+- ")
    sign = mantissa[: len(mantissa) - len(body)]
    whole, dot, frac = body.partition(".")
    if whole.isdigit() and len(whole) > 3:
        whole = f"{int(whole):,}".replace(",", THIN_NBSP)
    return sign + whole + ("," + frac if dot else "") + e + exponent + (THIN_NBSP + "%" if percent else "")


def _real(x: Any) -> numbers.Real:
    """What :func:`number` shows: a real number (a bool as 0 or 1), or a one-value array or tensor's item (numpy's
    0-d arrays and scalars, a torch scalar); anything else (None, text, a list, a complex) is a TypeError."""
    if not isinstance(x, numbers.Real) and getattr(x, "shape", None) == () and callable(getattr(x, "item", None)):
        x = x.item()  # numpy's bool_ and 0-d arrays, torch scalars: their Python value
    if isinstance(x, bool):
        return int(x)
    if not isinstance(x, numbers.Real):
        raise TypeError(say(NOT_A_NUMBER, got=f"{x!r:.60}", kind=type(x).__name__))
    return x


def _formatted(x: numbers.Real, spec: str) -> str:
    """``format(x, spec)``; a whole number too large for a float is formatted exactly (Python's float formats
    raise OverflowError on it: ``format(10**400, ".2f")``)."""
    try:
        return format(x, spec)
    except OverflowError:
        return format(decimal.Decimal(int(x)), spec)


@dataclass(frozen=True)
class Plural:
    """A message with a count, for :func:`say`: its English ``singular`` and ``plural`` (the message id is the
    pair) and the name of the value that is the count (``count``, "n" unless told). The value must be a whole
    number; it chooses the form (English: the singular for 1; French: for 0 and 1). Written with literal texts,
    where the message is defined, so Babel extracts it (the keyword ``Plural:1,2``). When the number is shown
    formatted (``number(n, spec=",")``), the count is a value of its own: ``Plural("{n} run", "{n} runs",
    count="runs")`` said with ``n=number(runs, spec=","), runs=runs``.

    >>> NEEDLESS = Plural("{names} is not needed", "{names} are not needed")
    >>> say(NEEDLESS, names="q", n=1), say(NEEDLESS, names="q, r", n=2)
    ('q is not needed', 'q, r are not needed')
    >>> set_language("fr"); say(Plural("{n} node", "{n} nodes"), n=1); set_language("en")
    '1 nœud'
    """

    singular: str
    plural: str
    count: str = "n"

    def template(self, values: dict[str, Any]) -> str:
        """The form for the count in ``values``, in the current language (not filled in). The count is a whole
        number (``3``, ``3.0``, numpy's integers; not ``True``, ``1.5``, NaN or None: a TypeError or ValueError
        naming the message); a negative count takes the form of its size, as CLDR's plural rules do (-1 node)."""
        if self.count not in values:
            raise TypeError(say(COUNT_MISSING, message=self.singular, count=self.count))
        n = values[self.count]
        if isinstance(n, bool) or not isinstance(n, numbers.Real):  # numpy's bool_ is no numbers.Real either
            raise TypeError(say(COUNT_NOT_WHOLE, count=self.count, got=f"{n!r:.60}", message=self.singular))
        if not (isinstance(n, numbers.Integral) or (math.isfinite(n) and n == int(n))):
            raise ValueError(say(COUNT_NOT_WHOLE, count=self.count, got=f"{n!r:.60}", message=self.singular))
        return catalogue().ngettext(self.singular, self.plural, abs(int(n)))


class Said(str):
    """A message as it was said: its text in the language of the moment, and the English message id and values
    it was made from. Errors of the course are raised with one (``ValueError(say(UNKNOWN_OP, name=n))``), so a test
    checks *which* message was said (:func:`message_of`) and not its words, which change with the language.
    ``msgid`` is the message as it is written in the code: a string, or a :class:`Plural` for a message with a
    count."""

    msgid: str | Plural
    values: dict[str, Any]

    def __new__(cls, msgid: str | Plural, /, **values: Any) -> Self:
        # A value the message does not show is kept, not refused: one of several messages is often said with the
        # same values (a table of verdicts; a Plural's count), and each shows the ones it needs.
        template = msgid.template(values) if isinstance(msgid, Plural) else _(msgid)
        said = super().__new__(cls, _fill(template, msgid, values))
        said.msgid, said.values = msgid, values
        return said

    def __reduce__(self) -> tuple:  # pickled (multiprocessing, the envcheck's child processes) as plain text
        return (str, (str(self),))


def _text(msgid: str | Plural) -> str:
    return msgid.singular if isinstance(msgid, Plural) else msgid


def _fill(template: str, msgid: str | Plural, values: dict[str, Any]) -> str:
    """``template.format(**values)``; a value missing or one its format cannot show is a TypeError that names the
    message and the value (not Python's ``KeyError: 'n'`` or "Unknown format code 'f' for object of type 'str'")."""
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        pass
    for _words, field, spec, conversion in string.Formatter().parse(template):
        if field is None:
            continue
        name = re.split(r"[.\[]", field, maxsplit=1)[0]
        if name not in values:
            raise TypeError(say(VALUE_MISSING, message=_text(msgid), name=name or "{}")) from None
        one = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
        try:
            one.format(**values)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError):
            raise TypeError(say(VALUE_UNFIT, message=_text(msgid), name=name, got=f"{values[name]!r:.60}",
                                spec=spec)) from None
    return template.format(**values)  # not reached: one of the fields above failed


def say(msgid: str | Plural, /, **values: Any) -> Said:
    """The message ``msgid`` (English, marked with ``N_`` where it is written, or a :class:`Plural`) in the current
    language, its ``{placeholders}`` filled with ``values``.

    >>> STEP = N_("step {k} of {n}"); set_language("fr"); m = say(STEP, k=2, n=9); m
    'étape 2 sur 9'
    >>> set_language("en"); m.msgid is STEP, m.values, say(STEP, k=2, n=9)
    (True, {'k': 2, 'n': 9}, 'step 2 of 9')
    """
    return Said(msgid, **values)


def message_of(error: BaseException) -> Said:
    """The :class:`Said` message an error was raised with (its first argument, or its ``said`` attribute).

    >>> message_of(ValueError(say(N_("step {k} of {n}"), k=2, n=9))).values
    {'k': 2, 'n': 9}
    """
    found = getattr(error, "said", None)
    if isinstance(found, Said):
        return found
    for arg in error.args:
        if isinstance(arg, Said):
            return arg
    raise LookupError(f"{type(error).__name__}({str(error)[:80]!r}) was not raised with a course message (say())")


def said_by(error: BaseException) -> str:
    """The course message an error was raised with (a :class:`Said`, see :func:`message_of`), else its plain text:
    what a widget or a checker shows and keeps, whoever raised the error.

    >>> said_by(ValueError("plain")), said_by(ValueError(say(N_("step {k} of {n}"), k=1, n=2))).msgid
    ('plain', 'step {k} of {n}')
    """
    try:
        return message_of(error)
    except LookupError:
        return str(error)
