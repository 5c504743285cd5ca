"""The score keeper's questions as a form on a phone, and its answers read back as a deal's facts.

The questions are those of ``atout score``: who took (or nobody), the contract (for this ruleset's
auction only: its bids, its strains, coinche and surcoinche where there are), the takers' card points
(or a capot, by either side), the belote and the announcements. :func:`facts_from_form` turns the
answers into :class:`~atout.scoring.DealFacts` through the scoring code's own constructor, which
refuses facts that cannot happen; a malformed answer is refused by name.

>>> from atout.rules import Ruleset
>>> rules = Ruleset.preset("coinche")
>>> facts = facts_from_form(rules, {"taker": "1", "bid": "90", "strain": "2", "level": "1", "points": "95"})
>>> facts.contract.label("en"), dict(facts.card_points)
('90 ♦ coinched', {1: 95, 0: 67})
>>> facts_from_form(rules, {"taker": "none"}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from atout.auction import Contract, bids
from atout.errors import AtoutError
from atout.i18n import Message
from atout.rules import Ruleset
from atout.scoring import DealFacts

#: The longest number an answer may hold (points, announcements).
MAX_DIGITS = 4


@dataclass(frozen=True)
class Choices:
    """What the form offers for a ruleset: the bids' values (``"capot"`` for a capot bid of no value, ``"c250"``
    for one of a value), the strains, whether there is coinche (and surcoinche), announcements and belote."""

    values: tuple[str, ...]
    strains: tuple[int, ...]
    coinche: bool
    surcoinche: bool
    announcements: bool
    belote: bool


def choices(rules: Ruleset) -> Choices:
    values: list[str] = []
    for bid in bids(rules):
        key = ("c" + str(bid.value) if bid.value else "capot") if bid.capot else str(bid.value)
        if key not in values:
            values.append(key)
    return Choices(
        tuple(values),
        rules.strains(),
        rules.coinche,
        rules.coinche and rules.surcoinche,
        rules.announcements,
        rules.belote,
    )


def form_from_facts(facts: DealFacts | None) -> dict[str, str]:
    """The answers that give ``facts`` back (to correct a deal already entered)."""
    if facts is None:
        return {"taker": "none"}
    c = facts.contract
    side = c.taker % 2
    bid = ("c" + str(c.value) if c.value else "capot") if c.capot else str(c.value)
    form = {"taker": str(side), "bid": bid, "strain": str(c.strain), "level": str(c.level)}
    if facts.capot is not None:
        form["result"] = "capot_takers" if facts.capot == side else "capot_defence"
    else:
        form |= {"result": "points", "points": str(facts.card_points.get(side, 0))}
    holder = next((s for s, v in facts.belote.items() if v), None)
    form["belote"] = "none" if holder is None else str(holder)
    for s in (0, 1):
        form[f"ann{s}"] = str(facts.announcements.get(s, 0))
    return form


def _refused(key: str, **values: object) -> AtoutError:
    return AtoutError(Message(f"web.keeper.{key}", **values))


def is_number(text: str, most: int) -> bool:
    """Whether ``text`` is a whole number of 1 to ``most`` ASCII digits (not « ² » nor « ① »)."""
    return text.isascii() and text.isdigit() and len(text) <= most


def _number(form: Mapping[str, str], name: str, default: int | None = None) -> int:
    text = str(form.get(name, "")).strip()
    if not text and default is not None:
        return default
    if not is_number(text, MAX_DIGITS):
        raise _refused("bad_number", field=Message(f"web.keeper.field.{name}"), value=text[:12])
    return int(text)


def _choice(form: Mapping[str, str], name: str, allowed: tuple[str, ...]) -> str:
    value = str(form.get(name, "")).strip()
    if value not in allowed:
        raise _refused("bad_choice", field=Message(f"web.keeper.field.{name}"))
    return value


def facts_from_form(rules: Ruleset, form: Mapping[str, str]) -> DealFacts | None:
    """The facts the answers give (None: nobody took, the deal is thrown in)."""
    taker = _choice(form, "taker", ("0", "1", "none"))
    if taker == "none":
        return None
    side = int(taker)
    offered = choices(rules)
    strain = int(_choice(form, "strain", tuple(str(s) for s in offered.strains)))
    value, capot_bid = 0, False
    if offered.values:
        bid = _choice(form, "bid", offered.values)
        capot_bid = bid.startswith("c")
        value = int(bid[1:]) if bid.startswith("c") and bid != "capot" else (0 if bid == "capot" else int(bid))
    levels = ("0", "1", "2") if offered.surcoinche else ("0", "1") if offered.coinche else ("0",)
    level = int(_choice(form, "level", levels)) if offered.coinche else 0
    # Seat ``side`` is one of the side's players: the facts are by side.
    contract = Contract(value, strain, side, level, capot_bid)
    result = str(form.get("result", "points")).strip() or "points"
    capot = {"points": None, "capot_takers": "takers", "capot_defence": "defence"}.get(result, "?")
    if capot == "?":
        raise _refused("bad_choice", field=Message("web.keeper.field.result"))
    points = _number(form, "points") if capot is None else None
    belote: dict[int, int] = {}
    if offered.belote:
        holder = _choice(form, "belote", ("none", "0", "1")) if form.get("belote") else "none"
        if holder != "none":
            belote = {int(holder): rules.belote_points}
    announcements: dict[int, int] = {}
    if offered.announcements:
        for s in (0, 1):
            shown = _number(form, f"ann{s}", 0)
            if shown:
                announcements[s] = shown
    return DealFacts.from_takers_points(
        rules, contract, points, capot=capot, belote=belote, announcements=announcements
    )
