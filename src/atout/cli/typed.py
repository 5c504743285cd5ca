"""What a player types at the terminal table or the score keeper: calls and suits, in his language.

In French the suits are P (pique), C (cœur), K (carreau), T (trèfle); in English S, H, D,
C. Both accept the suits' names in either language, the symbols, SA / TA (and NT / AT,
« sans atout », "no trump"...). A letter of the other language is not guessed: a French
player's ``90H`` or ``90S`` (pique, or sans atout?), an English player's ``90P``, may mean
more than one thing, so the reading lists every meaning and the interface asks. A lone ``P``
is always « passe ». Records keep their own notation (:mod:`atout.actions`).

>>> from atout.rules import Ruleset
>>> rules = Ruleset.preset("coinche", sans_atout=True)
>>> read_call("90C", "fr", rules)
Reading(actions=(Bid(value=90, strain=1, capot=False),), sure=True)
>>> read_call("90C", "en", rules).actions
(Bid(value=90, strain=3, capot=False),)
>>> read_call("90S", "fr", rules)
Reading(actions=(Bid(value=90, strain=0, capot=False), Bid(value=90, strain=4, capot=False)), sure=False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from atout.actions import COINCHE, PASS, SURCOINCHE, Action, Bid, Take
from atout.cards import fold
from atout.errors import NotationError, excerpt
from atout.i18n import Message, normalize, tr
from atout.rules import Ruleset

#: Each language's suit letters, and the letters it does not use but a player may type.
_LETTERS: dict[str, dict[str, int]] = {"fr": {"p": 0, "c": 1, "k": 2, "t": 3}, "en": {"s": 0, "h": 1, "d": 2, "c": 3}}
_FOREIGN: dict[str, dict[str, tuple[int, ...]]] = {
    "fr": {"h": (1,), "s": (0, 4), "d": (2,)},
    "en": {"p": (0,), "k": (2,), "t": (3,)},
}
_WORDS = {
    **dict.fromkeys(("pique", "piques", "spade", "spades", "♠", "♤"), 0),
    **dict.fromkeys(("coeur", "coeurs", "heart", "hearts", "♥", "♡"), 1),
    **dict.fromkeys(("carreau", "carreaux", "diamond", "diamonds", "♦", "♢"), 2),
    **dict.fromkeys(("trefle", "trefles", "club", "clubs", "♣", "♧"), 3),
    **dict.fromkeys(("sa", "nt", "sans atout", "sans-atout", "no trump", "no trumps", "notrump"), 4),
    **dict.fromkeys(("ta", "at", "tout atout", "tout-atout", "all trump", "all trumps", "alltrump"), 5),
}
_PASS = ("p", "passe", "pass", "je passe", "-")
_COINCHE = ("x", "coinche", "coincher", "contre", "contrer", "double")
_SURCOINCHE = ("xx", "surcoinche", "surcoincher", "surcontre", "surcontrer", "redouble")
_TAKE: dict[str, tuple[str, ...]] = {"fr": ("prendre", "prends", "je prends", "oui", "o"), "en": ("take", "yes", "y")}
_BID = re.compile(r"^(\d+)?\s*(capot)?\s*(.*)$")


@dataclass(frozen=True)
class Reading:
    """What a typed line means: one action for sure, or the meanings to ask the player about."""

    actions: tuple[Action, ...]
    sure: bool


def read_strain(text: str, lang: str, strains: tuple[int, ...] = (0, 1, 2, 3, 4, 5)) -> tuple[int, ...]:
    """The strains ``text`` may name among ``strains`` (several: ask); raises :class:`NotationError` if none."""
    code = normalize(lang)
    key = fold(text)
    if key in _WORDS:
        found: tuple[int, ...] = (_WORDS[key],)
    elif key in _LETTERS[code]:
        found = (_LETTERS[code][key],)
    else:
        found = _FOREIGN[code].get(key, ())
    found = tuple(s for s in found if s in strains)
    if not found:
        raise NotationError(Message("typed.unknown_suit", text=excerpt(text), suits=Message("typed.suits")))
    return found


def read_call(text: str, lang: str, rules: Ruleset) -> Reading:
    """A call typed during the auction (``90C``, ``100 cœur``, ``capot P``, ``P``, ``X``, ``XX``).

    Raises :class:`NotationError` naming what is missing: an unknown word, a bid without its suit.
    """
    key = fold(text)
    for words, action in ((_PASS, PASS), (_COINCHE, COINCHE), (_SURCOINCHE, SURCOINCHE)):
        if key in words:
            return Reading((action,), True)
    match = _BID.match(key)
    number, capot, rest = match.groups() if match else (None, None, key)
    if not number and not capot:
        raise NotationError(Message("typed.unknown_call", text=excerpt(text), examples=bid_examples(rules, lang)))
    if not rest.strip():
        raise NotationError(
            Message("typed.no_suit", text=excerpt(text), examples=bid_examples(rules, lang), rule=bid_rule(rules))
        )
    strains = read_strain(rest, lang, tuple(rules.strains()))
    actions = tuple(Bid(int(number or 0), s, bool(capot)) for s in strains)
    return Reading(actions, len(actions) == 1 and not _foreign(rest, lang))


def read_take(text: str, lang: str, takes: list[Take]) -> Reading:
    """Taking around a retourne: « prendre » (the only suit offered), or a suit's name or letter; ``P`` passes.

    Any suit is read, offered or not: the auction says why one it does not offer is refused.
    """
    key = fold(text)
    if key in _PASS:
        return Reading((PASS,), True)
    if key in _TAKE[normalize(lang)] and len(takes) == 1:
        return Reading((takes[0],), True)
    try:
        strains = read_strain(text, lang, (0, 1, 2, 3))
    except NotationError:
        raise NotationError(Message("typed.unknown_take", text=excerpt(text))) from None
    return Reading(tuple(Take(s) for s in strains), len(strains) == 1 and not _foreign(text, lang))


def _foreign(text: str, lang: str) -> bool:
    return fold(text) in _FOREIGN[normalize(lang)]


def letter(strain: int, lang: str) -> str:
    """The letters ``lang`` types for a strain: ``C`` for cœur in French, ``H`` in English; ``SA`` / ``NT``."""
    if strain >= 4:
        return (("SA", "TA") if normalize(lang) == "fr" else ("NT", "AT"))[strain - 4]
    return next(k for k, v in _LETTERS[normalize(lang)].items() if v == strain).upper()


def typed(action: Action, lang: str) -> str:
    """How to type a call in ``lang``: ``90C`` for 90 ♥ in French, ``90H`` in English; ``P``, ``X``, ``XX``."""
    if isinstance(action, Bid):
        return f"{action.value or ''}{'capot' if action.capot else ''}{letter(action.strain, lang)}"
    if isinstance(action, Take):
        return letter(action.suit, lang)
    return action.notation()


def bid_examples(rules: Ruleset, lang: str, low: int | None = None) -> str:
    """Bids typed the way ``lang`` types them, legal in ``rules`` (from ``low`` on): ``90C, 100 cœur, capot pique``
    (the capot in words: « capotP » would read as a word next to « P (passe) »)."""
    code = normalize(lang)
    value = low if low is not None else max(rules.min_bid, 90 if rules.bid_step == 10 else rules.min_bid)
    examples = [typed(Bid(value, 1), code), f"{value + rules.bid_step} {tr('common.suit_name.H', code)}"]
    if rules.sans_atout:
        examples.append(typed(Bid(value, 4), code))
    if rules.capot_bid and not rules.capot_bid_min:
        examples.append(f"capot {tr('common.suit_name.S', code)}")
    return ", ".join(examples)


def bid_rule(rules: Ruleset) -> Message:
    """The values a bid may have."""
    return Message("typed.bid_rule", low=rules.min_bid, high=rules.highest_bid, step=rules.bid_step)


def which(text: str, meanings: list[str], lang: str) -> str:
    """The question a reading that is not sure asks: one meaning to confirm, or several to number."""
    if len(meanings) == 1:
        return tr("typed.confirm", lang, text=excerpt(text), action=meanings[0])
    choices = ", ".join(f"{i} = {words}" for i, words in enumerate(meanings, start=1))
    return tr("typed.choose", lang, text=excerpt(text), choices=choices)


def read_yes(text: str, lang: str) -> bool | None:
    """« o » / « oui » / "y" / "yes" → True, « n » / « non » / "no" → False, anything else None."""
    key = fold(text)
    yes = ("o", "oui") if normalize(lang) == "fr" else ("y", "yes")
    return True if key in yes else False if key in ("n", "non", "no") else None
