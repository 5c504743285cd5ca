"""The errors atout raises for bad input. Each names what is wrong.

Every error derives from :class:`AtoutError` (itself a ``ValueError``), so an
interface can catch one type and print :meth:`~AtoutError.message` instead of a
traceback. Errors a player meets at the table or at the score keeper carry their
reason in French and in English (:class:`TranslatedError`).
"""

from __future__ import annotations


class AtoutError(ValueError):
    """Base class of atout's input errors."""

    def message(self, lang: str = "fr") -> str:
        """The reason in ``lang``; an error without a French text gives its English one."""
        return str(self)


class NotationError(AtoutError):
    """A card, hand, deal, action or position string could not be parsed."""


class RulesError(AtoutError):
    """An unknown preset, an unknown option or an option value out of range."""


class TranslatedError(AtoutError):
    """An error whose reason is given in French and in English; ``str()`` gives the English one.

    >>> err = TranslatedError("Pas de belote à sans atout", "no belote at sans atout", code="belote")
    >>> err.message("fr"), err.message("en"), str(err), err.code
    ('Pas de belote à sans atout', 'no belote at sans atout', 'no belote at sans atout', 'belote')
    """

    def __init__(self, reason_fr: str, reason_en: str, *, code: str = "illegal") -> None:
        super().__init__(reason_en)
        self.reason_fr = reason_fr
        self.reason_en = reason_en
        self.code = code

    def message(self, lang: str = "fr") -> str:
        return self.reason_fr if lang == "fr" else self.reason_en


class IllegalAction(TranslatedError):
    """An action the rules forbid at this point; the deal is left unchanged.

    >>> err = IllegalAction("Vous devez monter à l'atout", "you must overtrump", code="overtrump")
    >>> err.message("fr"), str(err), err.code
    ("Vous devez monter à l'atout", 'you must overtrump', 'overtrump')
    """


class FactsError(TranslatedError):
    """Deal facts that cannot happen at a real table (the score keeper's input); nothing is recorded.

    >>> FactsError("Pas de belote à sans atout", "no belote at sans atout", code="belote").message("fr")
    'Pas de belote à sans atout'
    """


class RecordError(AtoutError):
    """A malformed or inconsistent game record, with the line where it was found."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.detail = message
        super().__init__(f"line {line}: {message}" if line is not None else message)
