"""The errors atout raises for bad input. Each names what is wrong.

Every error derives from :class:`AtoutError` (itself a ``ValueError``), so an
interface can catch one type and print the message instead of a traceback.
"""

from __future__ import annotations


class AtoutError(ValueError):
    """Base class of atout's input errors."""


class NotationError(AtoutError):
    """A card, hand, deal, action or position string could not be parsed."""


class RulesError(AtoutError):
    """An unknown preset, an unknown option or an option value out of range."""


class IllegalAction(AtoutError):
    """An action the rules forbid at this point; the deal is left unchanged.

    The reason is given in French and in English; ``str()`` gives the English one
    and :meth:`message` picks a language.

    >>> err = IllegalAction("Vous devez monter à l'atout", "you must overtrump", code="overtrump")
    >>> err.message("fr"), str(err), err.code
    ("Vous devez monter à l'atout", 'you must overtrump', 'overtrump')
    """

    def __init__(self, reason_fr: str, reason_en: str, *, code: str = "illegal") -> None:
        super().__init__(reason_en)
        self.reason_fr = reason_fr
        self.reason_en = reason_en
        self.code = code

    def message(self, lang: str = "fr") -> str:
        return self.reason_fr if lang == "fr" else self.reason_en


class RecordError(AtoutError):
    """A malformed or inconsistent game record, with the line where it was found."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.detail = message
        super().__init__(f"line {line}: {message}" if line is not None else message)
