"""Small helpers shared by the rulebook tests (tests/rules/test_*.py).

Nothing here encodes a rule: the helpers only set positions up and play them
out deterministically, so that each test states its rule and its expected
outcome itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from atout import Card, Deal, Declare, IllegalAction, Play, Ruleset, cards_of, parse_action, parse_hand
from atout.auction import BiddingAuction, Contract, TakingAuction
from atout.play import legal_mask
from atout.scoring import DealFacts, DealScore, score_deal
from atout.tables import play_mode

COINCHE = Ruleset.preset("coinche")

#: Four hands (by seat) with no tierce, no carré and no belote whatever the trump:
#: each seat holds two cards of every suit and each rank once.
PLAIN_HANDS = ["97.T8.KJ.AQ", "T8.KJ.AQ.97", "KJ.AQ.97.T8", "AQ.97.T8.KJ"]


def codes(mask_or_cards: int | Iterable[Card]) -> set[str]:
    """The ASCII codes (``JH``, ``TS``) of a mask or of cards."""
    cards = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return {c.code for c in cards}


def hand_codes(hand: str) -> set[str]:
    return codes(parse_hand(hand))


def legal_cards(
    hand: str,
    trick: list[str],
    strain: int = 1,
    *,
    players: int = 4,
    overtrump_partner: bool = True,
    must_undertrump: bool = False,
    undertrump_partner: bool = False,
    ta_values: str = "ffb",
) -> tuple[set[str], str]:
    """The legal cards of ``hand`` after the cards of ``trick`` (in play order) and the rule code.

    ``strain``: 0..3 trump suit (♠ ♥ ♦ ♣), 4 sans atout, 5 tout atout. With four
    players the partner is the player two places before; with two or three there is none.
    """
    mode = play_mode(strain, ta_values)
    cards = [Card.parse(c) for c in trick]
    flags = (overtrump_partner, must_undertrump, undertrump_partner)
    if not cards:
        mask, rule = legal_mask(parse_hand(hand), -1, -1, False, mode, *flags)
        return codes(mask), rule
    win = 0
    for i in range(1, len(cards)):
        if mode.beats(cards[i], cards[win]):
            win = i
    partner = players == 4 and len(cards) >= 2 and win == len(cards) - 2
    mask, rule = legal_mask(parse_hand(hand), cards[0], cards[win], partner, mode, *flags)
    return codes(mask), rule


def play(deal: Deal, *actions: str) -> None:
    """Apply actions in notation, declaring « no announcement » first when a player must declare."""
    for text in actions:
        action = parse_action(text)
        if isinstance(action, Play) and deal.legal_actions() and isinstance(deal.legal_actions()[0], Declare):
            deal.apply(Declare(()))
        deal.apply(action)


def autoplay(deal: Deal, *, say_belote: bool = True, declare: bool = True) -> None:
    """Play the deal to its end: each player plays his lowest legal card (by card index).

    ``say_belote``: say belote / rebelote whenever it is allowed; ``declare``:
    declare one's best announcements (else declare none).
    """
    while deal.turn is not None:
        legal = deal.legal_actions()
        if isinstance(legal[0], Declare):
            deal.apply(legal[0] if declare else Declare(()))
            continue
        plays = [a for a in legal if isinstance(a, Play)]
        card = min(int(a.card) for a in plays)
        candidates = [a for a in plays if int(a.card) == card]
        deal.apply(next((a for a in candidates if a.belote == say_belote), candidates[0]))


def play_out_saying(deal: Deal, say: str) -> list[str]:
    """Play out the deal, lowest legal card first, declaring nothing. The belote cards (K and Q of trump, in the
    order they come) are played saying belote/rebelote as ``say`` tells: "both", "first" or "second".
    Returns the codes of the refusals met."""
    refused = []
    pair = {"K" + "SHDC"[deal.contract.strain], "Q" + "SHDC"[deal.contract.strain]}
    played = 0
    while deal.turn is not None:
        legal = deal.legal_actions()
        if isinstance(legal[0], Declare):
            deal.apply(Declare(()))
            continue
        code = Card(min(int(a.card) for a in legal)).code
        if code in pair:
            played += 1
            if say == "both" or (say, played) in (("first", 1), ("second", 2)):
                try:
                    deal.apply(code + "!")
                except IllegalAction as err:
                    refused.append(err.code)
                    deal.apply(code)
                continue
        deal.apply(code)
    return refused


def deal_from_hands(
    hands: list[str],
    contract_calls: Iterable[str] = ("80H", "P", "P", "P"),
    *,
    rules: Ruleset = COINCHE,
    dealer: int = 3,
) -> Deal:
    """A four-player bidding deal from hands (seat 0 speaks first with dealer 3), auction applied."""
    deal = Deal.from_hands(rules, hands, dealer=dealer)
    for call in contract_calls:
        deal.apply(call)
    return deal


def call(auction: BiddingAuction | TakingAuction, *texts: str) -> None:
    """Make calls on an auction object, each checked first, for the seat in turn."""
    for text in texts:
        action = parse_action(text)
        auction.check(action)
        auction.apply(auction.turn, action)


def score(
    rules: Ruleset,
    contract: Contract,
    takers_points: int | None = None,
    *,
    capot: str | None = None,
    belote: dict[int, int] | None = None,
    announcements: dict[int, int] | None = None,
) -> DealScore:
    """Score a two-sided deal from the takers' card points (dix de der included)."""
    facts = DealFacts.from_takers_points(
        rules, contract, takers_points, capot=capot, belote=belote, announcements=announcements
    )
    return score_deal(rules, facts)


def facts(
    rules: Ruleset,
    contract: Contract,
    takers_points: int | None = None,
    *,
    capot: str | None = None,
    belote: dict[int, int] | None = None,
    announcements: dict[int, int] | None = None,
) -> DealFacts:
    return DealFacts.from_takers_points(
        rules, contract, takers_points, capot=capot, belote=belote, announcements=announcements
    )
