"""What a message may show its recipient: every card it names (in any form), and the cards a seat may see."""

from __future__ import annotations

import re
from typing import Any

from atout.cards import Card
from atout.deal import Deal, Phase

#: A card in any form a message may carry it: ``JH`` / ``QH!`` (codes) or ``V♥`` / ``10♣`` (labels).
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])([789TJQKA])([SHDC])(?![A-Za-z0-9])")
CARD_LABEL = re.compile(r"(10|[789VDRAJQK])([♠♥♦♣])")
_RANK_OF_LABEL = {"10": "T", "V": "J", "D": "Q", "R": "K"}
_SUIT_OF_SYMBOL = dict(zip("♠♥♦♣", "SHDC", strict=True))


def cards_in(message: Any) -> set[int]:
    """Every card a message names, in any of its forms."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            for rank, suit in CARD_CODE.findall(value):
                found.add(Card.parse(rank + suit))
            for rank, symbol in CARD_LABEL.findall(value):
                found.add(Card.parse(_RANK_OF_LABEL.get(rank, rank) + _SUIT_OF_SYMBOL[symbol]))

    walk(message)
    return found


def where(message: Any, cards: set[int]) -> list[str]:
    """The paths in a message of the strings that name some of ``cards`` (for a failure's report)."""
    out: list[str] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{path}[{i}]")
        elif isinstance(value, str) and cards_in(value) & cards:
            out.append(f"{path} = {value!r}")

    walk(message, "")
    return out


def public_cards(deal: Deal, seat: int | None) -> set[int]:
    """The cards ``seat`` (None: a spectator) may see now: its own, and what the table has seen."""
    seen: set[int] = set()
    if seat is not None:
        seen |= {c for c in range(32) if (deal.hand_mask(seat) | deal.initial_hands[seat]) >> c & 1}
        if deal.phase is not Phase.AUCTION:
            seen |= {c for c in range(32) if deal.dealt.hands[seat] >> c & 1}
    for trick in deal.tricks:
        seen |= set(trick.cards)
    seen |= {c for _, c in deal.current_trick}
    if deal.retourne is not None:
        seen.add(deal.retourne)
    if deal.resolution is not None:
        for announced in deal.resolution.shown.values():
            for a in announced:
                seen |= set(a.card_list())
    bergere = deal.observation(0).bergere  # the two-player form's last stock card, turned face up
    if bergere is not None:
        seen.add(bergere)
    if deal.phase is Phase.DONE and deal.contract is not None:
        for s in range(deal.rules.players):
            seen |= {c for c in range(32) if deal.initial_hands[s] >> c & 1}
    return seen
