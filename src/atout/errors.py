"""The errors atout raises for bad input. Each names what is wrong.

Every error derives from :class:`AtoutError` (itself a ``ValueError``), so an
interface can catch one type and print :meth:`~AtoutError.message` instead of a
traceback. ``str(err)`` speaks the current language (French unless
:func:`atout.i18n.set_language` or :func:`atout.i18n.language` says otherwise):

>>> from atout.i18n import language
>>> err = IllegalAction("Vous devez monter à l'atout", "you must overtrump", code="overtrump")
>>> str(err)
"Vous devez monter à l'atout"
>>> with language("en"):
...     str(err)
'you must overtrump'

An error made from a catalogue message (:class:`atout.i18n.Message`) is put into words when
shown; one made from a plain string (English) says it in every language.
"""

from __future__ import annotations

import errno

from atout.i18n import Message, normalize, tr

#: The most characters of a player's input an error message quotes back.
EXCERPT = 40


def excerpt(text: str) -> str:
    """Input as an error message quotes it: on one line, at most :data:`EXCERPT` characters.

    >>> excerpt("90H  Nous 102"), excerpt("x" * 100)[-3:]
    ('90H Nous 102', 'xx…')
    """
    text = " ".join(str(text).split())
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


def os_reason(err: OSError) -> str | Message:
    """Why the system refused a file, in the current language for the common cases (else the system's words).

    >>> os_reason(FileNotFoundError(2, "No such file or directory")).message("fr")
    "ce fichier n'existe pas"
    """
    known = {errno.ENOENT: "missing", errno.EACCES: "denied", errno.EISDIR: "directory"}
    key = known.get(err.errno or 0)
    return Message(f"errors.{key}") if key else err.strerror or str(err)


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


class TranslatedError(AtoutError):
    """An error whose reason is written in French and in English (``reason_fr``, ``reason_en``).

    >>> err = TranslatedError("Pas de belote à sans atout", "no belote at sans atout", code="belote")
    >>> err.message("fr"), err.message("en"), err.reason_en, err.code
    ('Pas de belote à sans atout', 'no belote at sans atout', 'no belote at sans atout', 'belote')
    """

    def __init__(self, reason_fr: str, reason_en: str, *, code: str = "illegal") -> None:
        super().__init__(reason_en)
        self.reason_fr = reason_fr
        self.reason_en = reason_en
        self.code = code

    def message(self, lang: str | None = None) -> str:
        return self.reason_fr if normalize(lang) == "fr" else self.reason_en

    def __reduce__(self) -> tuple[object, ...]:
        # Both reasons and the code survive pickling (a worker process's error reaches its parent).
        return type(self), (self.reason_fr, self.reason_en), self.__dict__


class IllegalAction(TranslatedError):
    """An action the rules forbid at this point; the deal is left unchanged.

    >>> err = IllegalAction("Vous devez monter à l'atout", "you must overtrump", code="overtrump")
    >>> err.message("en"), err.code
    ('you must overtrump', 'overtrump')
    """


class FactsError(TranslatedError):
    """Deal facts that cannot happen at a real table (the score keeper's input); nothing is recorded.

    >>> FactsError("Pas de belote à sans atout", "no belote at sans atout", code="belote").message("fr")
    'Pas de belote à sans atout'
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
