"""The auctions, as state machines: bidding (coinche, contrée, bazar) and taking (classique).

Bidding (FFB coinche §4): from the player after the dealer, each player passes or
bids a value (at least ``min_bid``, a multiple of ``bid_step``, above the last bid,
at most ``rules.highest_bid_in(strain)``) with a strain; capot may be bid at any time and
nothing is above it (bazar: capot is a flag on a numbered bid above 250, and once a
side has bid capot the other may only bid capot). A player may coinche an opponents' bid in his turn; it freezes
the contract. The coinched side may surcoinche, which ends the auction at once.
The auction ends when three players pass in a row after a bid or a coinche; four
passes without a bid end the deal (the next dealer deals).

Taking (*Règles de la belote classique*): in a first round each player, from the dealer's
next, takes the retourne's suit or passes; in a second round he may name another
suit. Nobody takes: the deal is void.

>>> from atout.actions import parse_action
>>> from atout.rules import Ruleset
>>> auction = BiddingAuction(Ruleset.preset("coinche"), dealer=3)
>>> for call in ("80H", "P", "90H", "X", "P", "P", "P"):
...     auction.apply(auction.turn, parse_action(call))
>>> auction.contract
Contract(value=90, strain=1, taker=2, level=1, capot=False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from atout.actions import COINCHE, PASS, SURCOINCHE, Action, Bid, Coinche, Pass, Surcoinche, Take, strain_symbol
from atout.errors import IllegalAction
from atout.rules import Ruleset, per_ruleset


@dataclass(frozen=True)
class Contract:
    """What the takers play for.

    ``value`` is the bid (0 in classique, where the takers need ``min_points``;
    0 with ``capot`` for the FFB capot bid); ``level`` 0 plain, 1 coinched,
    2 surcoinched. ``coinched_by`` and ``surcoinched_by`` are the seats that did, when
    known (an auction says; a score sheet or a position does not); they take no part in
    equality.

    >>> auction = BiddingAuction(Ruleset.preset("coinche"), dealer=0)
    >>> for call in (Bid(100, 1), COINCHE, SURCOINCHE):
    ...     auction.apply(auction.turn, call)
    >>> c = auction.contract
    >>> c.taker, c.coinched_by, c.surcoinched_by, c == Contract(100, 1, 1, 2)
    (1, 2, 3, True)
    """

    value: int
    strain: int
    taker: int
    level: int = 0
    capot: bool = False
    coinched_by: int | None = field(default=None, compare=False, repr=False)
    surcoinched_by: int | None = field(default=None, compare=False, repr=False)

    def label(self, lang: str = "fr") -> str:
        parts = []
        if self.value:
            parts.append(str(self.value))
        if self.capot:
            parts.append("capot")
        parts.append(strain_symbol(self.strain))
        if self.level:
            word = ("coinché", "surcoinché") if lang == "fr" else ("coinched", "surcoinched")
            parts.append(word[self.level - 1])
        return " ".join(parts)


class Auction(Protocol):
    """What a deal asks of its auction, bidding or taking: whose turn it is, the legal calls, checking
    and applying one, and how it ended."""

    rules: Ruleset
    dealer: int
    turn: int
    calls: list[tuple[int, Action]]
    finished: bool
    passed_out: bool

    def legal(self) -> list[Action]:
        """The calls the seat in turn may make."""

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` unless the seat in turn may make ``action``."""

    def apply(self, seat: int, action: Action) -> None:
        """Apply a call already checked for the seat in turn."""

    @property
    def contract(self) -> Contract | None:
        """The contract, once the auction is over and someone bid or took."""


def _error(fr: str, en: str, code: str) -> IllegalAction:
    return IllegalAction(fr, en, code=code)


class BiddingAuction:
    """Bids with values and strains, coinche and surcoinche."""

    __slots__ = (
        "_bids",
        "_capot_side",
        "best",
        "best_seat",
        "calls",
        "coincher",
        "dealer",
        "finished",
        "level",
        "passed_out",
        "passes",
        "rules",
        "surcoincher",
        "turn",
    )

    def __init__(self, rules: Ruleset, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.turn = (dealer + 1) % rules.players
        self.calls: list[tuple[int, Action]] = []
        self.best: Bid | None = None
        self.best_seat = -1
        self.level = 0
        self.passes = 0
        self.finished = False
        self.passed_out = False
        self._bids = _bid_ladder(rules)
        self._capot_side = -1
        self.coincher: int | None = None
        self.surcoincher: int | None = None

    def legal(self) -> list[Action]:
        rules, seat = self.rules, self.turn
        out: list[Action] = [PASS]
        if self.level == 0:
            out.extend(self._higher_bids(seat))
            if self.best is not None and rules.coinche and (self.best_seat - seat) & 1:
                out.append(COINCHE)
        elif self.level == 1 and rules.surcoinche and not (self.best_seat - seat) & 1:
            out.append(SURCOINCHE)
        return out

    def _higher_bids(self, seat: int) -> list[Bid]:
        ladder = self._bids
        start = 0 if self.best is None else ladder.next_higher[ladder.index[self.best]]
        bids = ladder.bids[start:]
        if self._capot_side >= 0 and self._capot_side != seat & 1:
            bids = [b for b in bids if b.capot]
        return bids

    def check(self, action: Action) -> None:
        seat = self.turn
        if isinstance(action, Pass):
            return
        if isinstance(action, Bid):
            if self.level:
                raise _error(
                    "L'enchère est figée par la coinche : vous ne pouvez plus enchérir",
                    "the coinche froze the contract: no more bids",
                    "frozen",
                )
            ladder = self._bids
            index = ladder.index.get(action)
            if index is None:
                raise bid_error(self.rules, action)
            start = 0 if self.best is None else ladder.next_higher[ladder.index[self.best]]
            if index < start or (not action.capot and self._capot_side not in (-1, seat & 1)):
                if self.best is not None and action.rank() <= self.best.rank():
                    raise _error(
                        f"L'enchère doit être supérieure à {self.best.label('fr')}",
                        f"the bid must be above {self.best.label('en')}",
                        "bid_too_low",
                    )
                raise _error(
                    "Après un capot adverse, seul un capot peut être annoncé",
                    "after the opponents' capot only a capot may be bid",
                    "capot_only",
                )
            return
        if isinstance(action, Coinche):
            if not self.rules.coinche:
                raise _error("La coinche n'existe pas dans cette variante", "this variant has no coinche", "no_coinche")
            if self.best is None or self.level or not (self.best_seat - seat) & 1:
                raise _error(
                    "On ne peut coincher qu'une enchère adverse, une seule fois",
                    "you may only coinche the opponents' bid, once",
                    "bad_coinche",
                )
            return
        if isinstance(action, Surcoinche):
            if self.level != 1 or not self.rules.surcoinche or (self.best_seat - seat) & 1:
                raise _error(
                    "Seule l'équipe coinchée peut surcoincher",
                    "only the coinched side may surcoinche",
                    "bad_surcoinche",
                )
            return
        raise _error(
            f"Action impossible pendant les enchères : {action.label('fr')}",
            f"not an auction call: {action.label('en')}",
            "not_a_call",
        )

    def apply(self, seat: int, action: Action) -> None:
        """Apply an action already checked (``check``) for the seat in turn."""
        self.calls.append((seat, action))
        if isinstance(action, Pass):
            self.passes += 1
            if self.best is None and self.passes == self.rules.players:
                self.finished = self.passed_out = True
            elif self.best is not None and self.passes == self.rules.players - 1:
                self.finished = True
        elif isinstance(action, Bid):
            self.best, self.best_seat, self.passes = action, seat, 0
            if action.capot and self.rules.capot_bid_min:
                self._capot_side = seat & 1
        elif isinstance(action, Coinche):
            self.level, self.passes, self.coincher = 1, 0, seat
        elif isinstance(action, Surcoinche):
            self.level, self.surcoincher = 2, seat
            self.finished = True
        self.turn = (seat + 1) % self.rules.players

    @property
    def contract(self) -> Contract | None:
        if not self.finished or self.best is None:
            return None
        bid = self.best
        return Contract(bid.value, bid.strain, self.best_seat, self.level, bid.capot, self.coincher, self.surcoincher)


def bid_error(rules: Ruleset, bid: Bid) -> IllegalAction:
    """Why ``bid`` is not a bid of ``rules`` at all (whatever the auction so far)."""
    if bid.strain not in rules.strains():
        return _error(
            f"On ne peut pas enchérir à {strain_symbol(bid.strain)} dans cette variante",
            f"this variant does not allow bidding {strain_symbol(bid.strain)}",
            "bad_strain",
        )
    if bid.capot and not rules.capot_bid:
        return _error("Le capot ne peut pas être demandé", "capot may not be bid", "no_capot")
    if bid.capot and rules.capot_bid_min and bid.value < rules.capot_bid_min:
        return _error(
            f"Un capot s'annonce avec au moins {rules.capot_bid_min}",
            f"a capot needs a bid of at least {rules.capot_bid_min}",
            "bad_bid",
        )
    top = rules.highest_bid_in(bid.strain)
    where_fr = where_en = ""
    if top != rules.highest_bid:
        where_fr = f" à {strain_symbol(bid.strain)}"
        where_en = f" in {strain_symbol(bid.strain)}"
    return _error(
        f"Enchère invalide : de {rules.min_bid} à {top}{where_fr}, par {rules.bid_step}",
        f"invalid bid: {rules.min_bid} to {top}{where_en} in steps of {rules.bid_step}",
        "bad_bid",
    )


def is_bid(rules: Ruleset, bid: Bid) -> bool:
    """Is ``bid`` one of the bids of ``rules`` (its value, strain and capot allowed)?"""
    return bid in _bid_ladder(rules).index


class _Ladder:
    """Every bid of a ruleset, lowest first, with where the strictly higher bids start."""

    def __init__(self, rules: Ruleset) -> None:
        values = [rules.min_bid]
        first_step = (rules.min_bid // rules.bid_step + 1) * rules.bid_step
        values.extend(range(first_step, rules.highest_bid + 1, rules.bid_step))
        strains = rules.strains()
        bids: list[Bid] = []
        tops = {s: rules.highest_bid_in(s) for s in strains}
        for value in values:
            bids.extend(Bid(value, s) for s in strains if value <= tops[s])
            if rules.capot_bid and rules.capot_bid_min and value >= rules.capot_bid_min:
                bids.extend(Bid(value, s, True) for s in strains)
        if rules.capot_bid and not rules.capot_bid_min:
            bids.extend(Bid(0, s, True) for s in strains)
        self.bids = bids
        self.index = {bid: i for i, bid in enumerate(bids)}
        self.next_higher = [
            next((j for j in range(i, len(bids)) if bids[j].rank() > bid.rank()), len(bids))
            for i, bid in enumerate(bids)
        ]


_bid_ladder = per_ruleset(_Ladder)


class TakingAuction:
    """Classique: two rounds around the retourne."""

    __slots__ = (
        "calls",
        "dealer",
        "finished",
        "passed_out",
        "passes",
        "retourne_suit",
        "round",
        "rules",
        "taker",
        "trump",
        "turn",
    )

    def __init__(self, rules: Ruleset, dealer: int, retourne: int | None) -> None:
        self.rules = rules
        self.dealer = dealer
        self.turn = (dealer + 1) % rules.players
        self.calls: list[tuple[int, Action]] = []
        # No retourne: a deal set up in the middle of the play, whose auction is over.
        self.retourne_suit = retourne >> 3 if retourne is not None else -1
        self.round = 1
        self.passes = 0
        self.finished = False
        self.passed_out = False
        self.taker = -1
        self.trump = -1

    def legal(self) -> list[Action]:
        if self.round == 1:
            return [PASS, _TAKES[self.retourne_suit]]
        return [PASS, *(_TAKES[s] for s in range(4) if s != self.retourne_suit)]

    def check(self, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not isinstance(action, Take):
            raise _error(
                f"Pendant la prise, on prend ou on passe (pas {action.label('fr')})",
                f"while taking, you take or pass (not {action.label('en')})",
                "not_a_call",
            )
        if self.round == 1 and action.suit != self.retourne_suit:
            raise _error(
                "Au premier tour, on ne peut prendre qu'à la couleur de la retourne",
                "in the first round you may only take the retourne's suit",
                "first_round",
            )
        if self.round == 2 and action.suit == self.retourne_suit:
            raise _error(
                "Au second tour, il faut nommer une autre couleur que la retourne",
                "in the second round you must name another suit than the retourne's",
                "second_round",
            )

    def apply(self, seat: int, action: Action) -> None:
        self.calls.append((seat, action))
        if isinstance(action, Take):
            self.finished = True
            self.taker, self.trump = seat, action.suit
            return
        self.passes += 1
        if self.passes == self.rules.players:
            self.round += 1
            self.passes = 0
            if self.round > 2:
                self.finished = self.passed_out = True
        self.turn = (seat + 1) % self.rules.players

    @property
    def contract(self) -> Contract | None:
        if not self.finished or self.taker < 0:
            return None
        return Contract(0, self.trump, self.taker)


_TAKES = tuple(Take(s) for s in range(4))


def new_auction(rules: Ruleset, dealer: int, retourne: int | None) -> Auction:
    if rules.auction == "retourne":
        return TakingAuction(rules, dealer, retourne)
    return BiddingAuction(rules, dealer)
