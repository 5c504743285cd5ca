"""One-line position strings (in the spirit of chess's FEN) for any moment of a deal.

During the auction a position gives the hands as dealt and the calls so far::

    <rules> <dealer> auction <hands> <retourne> <stock> <calls>

(the same, with ``done``, for a deal nobody bid). During the play (and once it is
over) a position is a snapshot, so an ending can be set up without the tricks that
led to it::

    <rules> <dealer> play <hands> <contract> <trick> <points> <tricks> <belote> <announcements> <rest>

* ``rules``: a preset name, then ``,option=value`` for each option changed
  (``coinche,sans_atout=true``);
* ``dealer``: a seat letter (see :mod:`atout.notation`);
* ``hands``: every hand from seat 0 in seat order, ``/`` between them (``-`` empty);
* ``retourne`` and ``stock``: classique's turned card and the rest of the deck in
  dealing order (``-`` in other variants); ``calls``: comma-separated (``-``: none);
* ``contract``: the contract and its taker, e.g. ``90S@W``, ``100HX@N`` (coinched),
  ``capotSAXX@E``, ``takeD@S``;
* ``trick``: its leader and the cards so far, ``W:7H,8H`` (``W:-`` before the lead);
* ``points`` and ``tricks``: card points and tricks won so far, by side (``62,40``);
* ``belote``: ``cards;counts``: the cards each seat may still say belote or rebelote
  with (``S=KH+QH``, ``-`` for none) and the belotes completed by each seat;
* ``announcements``: in trick 1 each seat's declaration (``?`` not yet, ``-`` none,
  else ``9H-TH-JH+...``), ``/`` between seats; after it ``=`` and the points each
  side scores (``=20,0``); ``-`` without announcements;
* ``rest``: cards dealt but out of play (two players' stock), ``-`` otherwise.

>>> from atout import Deal, Ruleset
>>> deal = Deal.new(Ruleset.preset("coinche"), dealer=0, seed=2)
>>> for call in ["90H", "P", "P", "P"]:
...     _ = deal.apply(call)
>>> text = deal.position()
>>> text.split()[:3], text.split()[4]
(['coinche', 'N', 'play'], '90H@W')
>>> Deal.from_position(text).position() == text
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from atout.actions import Bid, Take, parse_action
from atout.announcements import Announcement
from atout.auction import Contract
from atout.cardplay import PlayState
from atout.cards import Card, cards_of, format_hand, parse_hand
from atout.errors import AtoutError, NotationError, excerpt
from atout.i18n import Message
from atout.notation import parse_seat, seat_letter
from atout.rules import OPTION_NAMES, PRESETS, Ruleset

if TYPE_CHECKING:
    from atout.deal import Deal

_STRAINS = ("S", "H", "D", "C", "SA", "TA")


def rules_spec(rules: Ruleset) -> str:
    """``preset[,option=value...]`` for the options that differ from the preset."""
    base = Ruleset.preset(rules.name) if rules.name in PRESETS else Ruleset()
    parts = [rules.name if rules.name in PRESETS else "coinche"]
    for name in OPTION_NAMES:
        value = getattr(rules, name)
        if value != getattr(base, name):
            parts.append(f"{name}={str(value).lower() if isinstance(value, bool) else value}")
    return ",".join(parts)


def parse_rules_spec(text: str) -> Ruleset:
    name, *items = text.split(",")
    options: dict[str, object] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep:
            raise NotationError(Message("notation.position_option", item=excerpt(item), text=excerpt(text)))
        options[key] = raw == "true" if raw in ("true", "false") else int(raw) if raw.lstrip("-").isdigit() else raw
    return Ruleset.preset(name, **options)


def _cards(text: str) -> list[Card]:
    return [] if text == "-" else [Card.parse(c) for c in text.split(",")]


def _card_list(cards: list[int] | tuple[int, ...]) -> str:
    return ",".join(Card(c).code for c in cards) or "-"


def _contract_text(contract: Contract, rules: Ruleset) -> str:
    if contract.value or contract.capot:
        call = Bid(contract.value, contract.strain, contract.capot).notation()
    else:
        call = Take(contract.strain).notation()
    return f"{call}{('', 'X', 'XX')[contract.level]}@{seat_letter(rules, contract.taker)}"


def _parse_contract(text: str, rules: Ruleset) -> Contract:
    call, sep, seat = text.partition("@")
    if not sep:
        raise NotationError(Message("notation.position_contract", text=excerpt(text)))
    level = 0
    for suffix, value in (("XX", 2), ("X", 1)):
        if call.endswith(suffix):
            call, level = call[: -len(suffix)], value
            break
    action = parse_action(call)
    taker = parse_seat(rules, seat)
    if isinstance(action, Bid):
        return Contract(action.value, action.strain, taker, level, action.capot)
    if isinstance(action, Take):
        return Contract(0, action.suit, taker, level)
    raise NotationError(Message("notation.position_contract", text=excerpt(text)))


def _numbers(text: str, count: int, what: str) -> list[int]:
    parts = text.split(",")
    if len(parts) != count or not all(p.isdigit() for p in parts):
        raise NotationError(
            Message("notation.position_numbers", what=Message(f"notation.word_{what}"), text=excerpt(text), count=count)
        )
    return [int(p) for p in parts]


def position_of(deal: Deal) -> str:
    """The position string of a deal (see the module's doc)."""
    rules = deal.rules
    head = [rules_spec(rules), seat_letter(rules, deal.dealer), deal.phase.value]
    if deal.contract is None:  # the auction, or a deal nobody bid
        hands = "/".join(format_hand(h) for h in deal.dealt.hands)
        retourne = Card(deal.dealt.retourne).code if deal.dealt.retourne is not None else "-"
        stock = _card_list(deal.dealt.stock) if deal.dealt.retourne is not None else "-"
        calls = ",".join(a.notation() for _, a in deal.actions) or "-"
        return " ".join([*head, hands, retourne, stock, calls])
    state = deal.state
    hands = "/".join(format_hand(h) if h else "-" for h in state.hands)
    trick_text = f"{seat_letter(rules, state.leader)}:" + (",".join(Card(c).code for c in state.trick) or "-")
    points = ",".join(str(p) for p in state.points)
    won = ",".join(str(w) for w in state.won)
    belote_cards = (
        ",".join(
            f"{seat_letter(rules, s)}=" + "+".join(c.code for c in cards_of(mask))
            for s, mask in enumerate(state.belote_ok)
            if mask
        )
        or "-"
    )
    belote = f"{belote_cards};" + ",".join(str(b) for b in state.belotes)
    if state.declared is not None:
        announcements = "/".join(
            "?" if d is None else ("+".join(a.notation() for a in d) or "-") for d in state.declared
        )
    elif state.announcement_points is not None:
        announcements = "=" + ",".join(str(state.announcement_points.get(s, 0)) for s in rules.sides)
    else:
        announcements = "-"
    rest = _card_list(state.rest) if rules.players == 2 and state.rest else "-"
    return " ".join(
        [*head, hands, _contract_text(state.contract, rules), trick_text, points, won, belote, announcements, rest]
    )


def deal_from_position(text: str) -> Deal:
    """Build a deal from a position string; raises :class:`NotationError` with what is wrong."""
    from atout.deal import Deal

    fields = text.split()
    if len(fields) < 4:
        raise NotationError(Message("notation.position_short", text=excerpt(text)))
    try:
        rules = parse_rules_spec(fields[0])
    except AtoutError as err:
        raise NotationError(Message("notation.position_rules", reason=err)) from None
    dealer = parse_seat(rules, fields[1])
    phase = fields[2]
    hand_texts = fields[3].split("/")
    if len(hand_texts) != rules.players:
        raise NotationError(Message("notation.position_hands", count=len(hand_texts), players=rules.players))
    hands = [parse_hand(h) for h in hand_texts]
    if phase == "auction" or (phase == "done" and len(fields) == 7):
        if len(fields) != 7:
            raise NotationError(Message("notation.position_auction"))
        retourne = None if fields[4] == "-" else Card.parse(fields[4])
        stock = _cards(fields[5]) if retourne is not None else []
        deal = Deal.from_hands(rules, hands, dealer, retourne=retourne, stock=stock)
        for call in [] if fields[6] == "-" else fields[6].split(","):
            deal.apply(call)
        return deal
    if phase not in ("play", "done") or len(fields) != 11:
        raise NotationError(Message("notation.position_fields"))
    contract = _parse_contract(fields[4], rules)
    leader_text, sep, trick_text = fields[5].partition(":")
    if not sep:
        raise NotationError(Message("notation.position_trick", text=excerpt(fields[5])))
    leader = parse_seat(rules, leader_text)
    trick = _cards(trick_text)
    sides = len(rules.sides)
    points = _numbers(fields[6], sides, "points")
    won = _numbers(fields[7], sides, "tricks")
    belote_ok, belotes = _parse_belote(fields[8], rules)
    declared, resolved = _parse_announcements(fields[9], rules)
    rest = tuple(_cards(fields[10]))
    state = PlayState(
        contract,
        tuple(hands),
        leader,
        tuple(trick),
        tuple(points),
        tuple(won),
        tuple(belote_ok),
        tuple(belotes),
        None if declared is None else tuple(declared),
        resolved,
        rest,
    )
    return Deal.from_state(rules, dealer, state)


def _parse_belote(text: str, rules: Ruleset) -> tuple[list[int], list[int]]:
    cards_text, sep, counts_text = text.partition(";")
    if not sep:
        raise NotationError(Message("notation.position_belote", text=excerpt(text)))
    belote_ok = [0] * rules.players
    if cards_text != "-":
        for item in cards_text.split(","):
            seat_text, eq, cards = item.partition("=")
            if not eq:
                raise NotationError(Message("notation.position_belote_item", text=excerpt(item)))
            for card in cards.split("+"):
                belote_ok[parse_seat(rules, seat_text)] |= 1 << Card.parse(card)
    return belote_ok, _numbers(counts_text, rules.players, "belotes")


def _parse_announcements(
    text: str, rules: Ruleset
) -> tuple[list[tuple[Announcement, ...] | None] | None, dict[int, int] | None]:
    if text == "-":
        return None, None
    if text.startswith("="):
        values = _numbers(text[1:], len(rules.sides), "announcements")
        return None, dict(zip(rules.sides, values, strict=True))
    parts = text.split("/")
    if len(parts) != rules.players:
        raise NotationError(Message("notation.position_announcements", text=excerpt(text)))
    declared: list[tuple[Announcement, ...] | None] = []
    for part in parts:
        if part == "?":
            declared.append(None)
        elif part == "-":
            declared.append(())
        else:
            declared.append(tuple(Announcement.parse(a) for a in part.split("+")))
    return declared, None
