"""The errors atout raises for bad input. Each names what is wrong.

Every error derives from :class:`AtoutError` (itself a ``ValueError``), so an
interface can catch one type and print :meth:`~AtoutError.message` instead of a
traceback. ``str(err)`` speaks the current language (French unless
:func:`atout.i18n.set_language` or :func:`atout.i18n.language` says otherwise):

>>> from atout.i18n import language
>>> err = IllegalAction(Message("illegal.overtrump"), code="overtrump")
>>> str(err)
"Vous devez monter à l'atout (surcouper)"
>>> with language("en"):
...     str(err)
'you must overtrump'

An error made from a catalogue message (:class:`atout.i18n.Message`) is put into words when
shown; one made from a plain string (English) says it in every language.
"""

from __future__ import annotations

import errno
import json
import re

from atout.i18n import Message, tr

#: The most characters of a player's input an error message quotes back.
EXCERPT = 40


def excerpt(text: str) -> str:
    """Input as an error message quotes it: on one line, at most :data:`EXCERPT` characters.

    >>> excerpt("90H  Nous 102"), excerpt("x" * 100)[-3:]
    ('90H Nous 102', 'xx…')
    """
    text = " ".join(str(text).split())
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


def os_reason(err: OSError) -> Message:
    """Why the system refused a file, in the current language (a rare case by its code: ``EIO``...).

    >>> os_reason(FileNotFoundError(2, "No such file or directory")).message("fr")
    "ce fichier n'existe pas"
    """
    known = {
        errno.ENOENT: "missing",
        errno.EACCES: "denied",
        errno.EPERM: "denied",
        errno.EISDIR: "directory",
        errno.EROFS: "read_only",
        errno.ENOSPC: "full",
        errno.ENOTDIR: "not_a_directory",
        errno.EEXIST: "exists",
    }
    key = known.get(err.errno or 0)
    if key:
        return Message(f"errors.{key}")
    # Anything else is named by its code (EIO...), which reads the same in every language.
    return Message("errors.system", code=errno.errorcode.get(err.errno or 0, type(err).__name__))


def json_reason(err: json.JSONDecodeError) -> Message:
    """What is wrong with a JSON text, in the current language (the json module says it in English).

    >>> import json
    >>> try:
    ...     json.loads('{"a": }')
    ... except json.JSONDecodeError as err:
    ...     json_reason(err).message("en")
    'a value is expected (column 7)'
    """
    known = {
        "Expecting value": "value",
        "Expecting property name enclosed in double quotes": "name",
        "Expecting ':' delimiter": "colon",
        "Expecting ',' delimiter": "comma",
        "Unterminated string starting at": "string",
        "Invalid control character at": "control",
        "Invalid \\escape": "escape",
        "Invalid \\uXXXX escape": "escape",
        "Extra data": "extra",
    }
    key = known.get(err.msg, "trailing" if err.msg.startswith("Illegal trailing comma") else "other")
    return Message(f"errors.json.{key}", column=err.colno)


def toml_reason(err: ValueError) -> Message:
    """Where a TOML text is wrong, in the current language (tomllib says what in English only).

    >>> import tomllib
    >>> try:
    ...     tomllib.loads("a = 1 2")
    ... except tomllib.TOMLDecodeError as err:
    ...     toml_reason(err).message("en")
    'error at line 1, column 7'
    """
    found = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
    if found is None:
        return Message("errors.toml_end" if "(at end of document)" in str(err) else "errors.toml_anywhere")
    return Message("errors.toml", line=int(found[1]), column=int(found[2]))


class AtoutError(ValueError):
    """Base class of atout's input errors: a reason, a plain string or a catalogue :class:`Message`."""

    def __init__(self, reason: str | Message = "", /) -> None:
        super().__init__(reason)
        self.reason = reason

    def message(self, lang: str | None = None) -> str:
        """The reason in ``lang`` (default: the current language); a plain-string reason as it is."""
        return self.reason if isinstance(self.reason, str) else self.reason.message(lang)

    def __str__(self) -> str:
        return self.message()


class NotationError(AtoutError):
    """A card, hand, deal, action or position string could not be parsed."""


class RulesError(AtoutError):
    """An unknown preset, an unknown option or an option value out of range."""


class CodedError(AtoutError):
    """An error that names the rule it enforces (``code``, e.g. ``overtrump``), besides its reason.

    The reason is a catalogue :class:`~atout.i18n.Message` (a plain string is said as it is in every
    language); the code lets a program react to the rule without reading words.
    """

    def __init__(self, reason: str | Message, /, *, code: str = "illegal") -> None:
        super().__init__(reason)
        self.code = code

    def __reduce__(self) -> tuple[object, ...]:
        # The reason and the code survive pickling (a worker process's error reaches its parent).
        return type(self), (self.reason,), self.__dict__


class IllegalAction(CodedError):
    """An action the rules forbid at this point; the deal is left unchanged.

    >>> err = IllegalAction(Message("illegal.overtrump"), code="overtrump")
    >>> err.message("fr"), err.message("en"), err.code
    ("Vous devez monter à l'atout (surcouper)", 'you must overtrump', 'overtrump')
    """


class FactsError(CodedError):
    """Deal facts that cannot happen at a real table (the score keeper's input); nothing is recorded.

    >>> FactsError(Message("facts.belote_sans_atout"), code="belote").message("en")
    'no belote at sans atout: there is no trump (FFB §11.2)'
    """


class RecordError(AtoutError):
    """A malformed or inconsistent game record, with the line where it was found (``detail``: without it)."""

    def __init__(self, reason: str | Message, line: int | None = None) -> None:
        super().__init__(reason)
        self.line = line

    def detail(self, lang: str | None = None) -> str:
        """The reason without the line."""
        return super().message(lang)

    def message(self, lang: str | None = None) -> str:
        if self.line is None:
            return self.detail(lang)
        return tr("errors.at_line", lang, line=self.line, reason=self.detail(lang))
