"""One message catalogue for every interface: keyed messages in French (the default) and English.

The messages live in ``atout/locales/<lang>.toml``, one file per language with the
same keys; a key is a dotted path (``web.table.your_turn``) and a message may name
values in braces, filled in by :func:`tr`. The language is an argument, or else the
current one (:func:`set_language`, a context variable, so each task of a server can
speak its own player's language).

>>> tr("common.seat.N"), tr("common.seat.N", "en")
('Nord', 'North')
>>> tr("common.you_win", "en", name="North–South")
'North–South win the game!'
>>> with language("en"):
...     tr("common.seat.S")
'South'
>>> tr("no.such.key")
Traceback (most recent call last):
...
KeyError: 'no.such.key'

A :class:`Message` is a message not yet put into words: errors carry one, and each
interface renders it in its player's language.

>>> text = Message("common.you_win", name=Message("common.side.NS"))
>>> text.message("fr"), text.message("en")
('Nord–Sud gagne la partie\u202f!', 'North–South win the game!')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

DEFAULT_LANGUAGE = "fr"
#: The catalogue's folder: one ``<code>.toml`` file a language, with the same keys.
LOCALES = Path(__file__).parent / "locales"


@cache
def languages() -> tuple[str, ...]:
    """The catalogue's languages, the default first: adding a language is adding a file to :data:`LOCALES`."""
    found = sorted(path.stem for path in LOCALES.glob("*.toml"))
    return (DEFAULT_LANGUAGE, *(code for code in found if code != DEFAULT_LANGUAGE))


#: The languages atout speaks (those of :func:`languages` when atout was imported).
LANGUAGES = languages()

_current: ContextVar[str] = ContextVar("atout_language", default=DEFAULT_LANGUAGE)


def normalize(lang: str | None) -> str:
    """A supported language from a code such as ``fr``, ``en-GB`` or ``None`` (the current one)."""
    if lang is None:
        return _current.get()
    code = lang.strip().lower()[:2]
    return code if code in languages() else DEFAULT_LANGUAGE


def set_language(lang: str) -> None:
    """Make ``lang`` the language of messages asked without one (in this context); French by default.

    ``str()`` of atout's errors follows it too (:class:`atout.errors.AtoutError`).
    """
    _current.set(normalize(lang))


def get_language() -> str:
    """The current language (``fr`` unless :func:`set_language` or :func:`language` said otherwise)."""
    return _current.get()


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Speak ``lang`` within a ``with`` block."""
    token = _current.set(normalize(lang))
    try:
        yield
    finally:
        _current.reset(token)


@cache
def messages(lang: str) -> Mapping[str, str]:
    """Every message of ``lang``, by dotted key."""
    import tomllib  # only when a message is first asked for: ``import atout`` stays light

    text = (LOCALES / f"{lang}.toml").read_text(encoding="utf-8")
    flat: dict[str, str] = {}
    _flatten(tomllib.loads(text), "", flat)
    return flat


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, str]) -> None:
    for key, value in table.items():
        if isinstance(value, dict):
            _flatten(value, f"{prefix}{key}.", out)
        else:
            out[prefix + key] = str(value)


def tr(key: str, lang: str | None = None, /, **values: object) -> str:
    """The message ``key`` in ``lang`` (default: the current language) with ``values`` filled in; a
    value that is itself a :class:`Message` or an error is put into words in the same language."""
    code = normalize(lang)
    return messages(code)[key].format(**{k: _rendered(v, code) for k, v in values.items()})


def plural(key: str, n: int, lang: str | None = None, /, **values: object) -> str:
    """``key.one`` or ``key.other``, as ``n`` asks in ``lang`` (French: 0 and 1 are singular), ``n`` filled in.

    >>> plural("text.mistakes", 0, "fr"), plural("text.mistakes", 0, "en"), plural("text.mistakes", 2, "fr")
    ('0 erreur', '0 mistakes', '2 erreurs')
    """
    code = normalize(lang)
    one = n in (0, 1) if code == "fr" else n == 1
    return tr(f"{key}.{'one' if one else 'other'}", code, n=n, **values)


class Message:
    """A catalogue key and its values, put into words only when shown (:meth:`message`).

    A value may itself be a :class:`Message` (or an error): it is rendered in the same language.
    """

    __slots__ = ("key", "values")

    def __init__(self, key: str, /, **values: object) -> None:
        self.key = key
        self.values = values

    def message(self, lang: str | None = None) -> str:
        """The message in ``lang`` (default: the current language)."""
        return tr(self.key, lang, **self.values)

    def __str__(self) -> str:
        return self.message()

    def __repr__(self) -> str:
        return f"Message({self.key!r}, {self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.key, self.values) == (other.key, other.values)

    def __hash__(self) -> int:
        return hash(self.key)


def _rendered(value: object, lang: str) -> object:
    message = getattr(value, "message", None)
    return message(lang) if callable(message) else value


def number(value: float, digits: int, lang: str | None = None, /, *, sign: bool = False, trim: bool = False) -> str:
    """``value`` written the way ``lang`` writes numbers: a decimal comma in French, a true minus sign
    (U+2212) in both languages, ``digits`` decimals (``trim`` drops the trailing zeros), never ``−0``.

    >>> number(-12.34, 1, "fr"), number(-12.34, 1, "en"), number(2.5, 2, "fr", sign=True)
    ('−12,3', '−12.3', '+2,50')
    >>> number(-0.04, 1, "fr", sign=True), number(2.0, 1, "en", trim=True), number(1500.0, 1, "fr", trim=True)
    ('0,0', '2', '1500')
    """
    rounded = round(value, digits) + 0.0  # + 0.0 turns -0.0 into 0.0
    text = f"{rounded:+.{digits}f}" if sign and rounded else f"{rounded:.{digits}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    text = text.replace("-", "\u2212")
    return text.replace(".", ",") if normalize(lang) == "fr" else text


def section(prefix: str, lang: str | None = None) -> dict[str, str]:
    """The messages whose key starts with ``prefix`` (e.g. ``web.``), as sent to a web page."""
    return {k: v for k, v in messages(normalize(lang)).items() if k.startswith(prefix)}


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALES",
    "Message",
    "get_language",
    "language",
    "languages",
    "messages",
    "normalize",
    "number",
    "plural",
    "section",
    "set_language",
    "tr",
]
