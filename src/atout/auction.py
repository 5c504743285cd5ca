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

from atout.actions import COINCHE, PASS, SURCOINCHE, Action, Bid, Coinche, Pass, Surcoinche, Take, strain_mark
from atout.errors import IllegalAction
from atout.i18n import Message, tr
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

    def label(self, lang: str | None = None) -> str:
        """``90 ♥``, ``capot ♠ coinché`` (in ``lang``, by default the current language)."""
        parts = [Bid(self.value, self.strain, self.capot).label(lang)]
        if self.level:
            parts.append(tr(("words.coinched", "words.surcoinched")[self.level - 1], lang))
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

    @property
    def standing(self) -> Contract | None:
        """The highest bid so far as a contract (its bidder as taker, who coinched), or None: nothing bid
        or taken yet."""


def _error(code: str, key: str | None = None, **values: object) -> IllegalAction:
    """The refusal of a call: its reason (``illegal.<key>``, the code by default) and its code."""
    return IllegalAction(Message(f"illegal.{key or code}", **values), code=code)


class BiddingAuction:
    """Bids with values and strains, coinche and surcoinche."""

    __slots__ = (
        "_bids",
        "_capot_side",
        "_standing",
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
        self._standing: Contract | None = None
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
        if self._capot_side >= 0 and self._capot_side != self.rules.side_of(seat):
            bids = [b for b in bids if b.capot]
        return bids

    def check(self, action: Action) -> None:
        seat = self.turn
        if isinstance(action, Pass):
            return
        if isinstance(action, Bid):
            if self.level:
                raise _error("frozen")
            ladder = self._bids
            index = ladder.index.get(action)
            if index is None:
                raise bid_error(self.rules, action)
            start = 0 if self.best is None else ladder.next_higher[ladder.index[self.best]]
            if index < start or (not action.capot and self._capot_side not in (-1, self.rules.side_of(seat))):
                if self.best is not None and action.rank() <= self.best.rank():
                    raise _error("bid_too_low", bid=self.best)
                raise _error("capot_only")
            return
        if isinstance(action, Coinche):
            if not self.rules.coinche:
                raise _error("no_coinche")
            if self.best is None or self.level or not (self.best_seat - seat) & 1:
                raise _error("bad_coinche")
            return
        if isinstance(action, Surcoinche):
            if self.level != 1 or not self.rules.surcoinche or (self.best_seat - seat) & 1:
                raise _error("bad_surcoinche")
            return
        raise _error("not_a_call", action=action)

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
            self.best, self.best_seat, self.passes, self._standing = action, seat, 0, None
            if action.capot and self.rules.capot_bid_min:
                self._capot_side = self.rules.side_of(seat)
        elif isinstance(action, Coinche):
            self.level, self.passes, self.coincher, self._standing = 1, 0, seat, None
        elif isinstance(action, Surcoinche):
            self.level, self.surcoincher, self._standing = 2, seat, None
            self.finished = True
        self.turn = (seat + 1) % self.rules.players

    @property
    def contract(self) -> Contract | None:
        return self.standing if self.finished else None

    @property
    def standing(self) -> Contract | None:
        bid = self.best
        if bid is None:
            return None
        if self._standing is None:  # kept until a bid or a coinche changes it: a pass leaves it as it is
            self._standing = Contract(
                bid.value, bid.strain, self.best_seat, self.level, bid.capot, self.coincher, self.surcoincher
            )
        return self._standing


def bid_error(rules: Ruleset, bid: Bid) -> IllegalAction:
    """Why ``bid`` is not a bid of ``rules`` at all (whatever the auction so far)."""
    if bid.strain not in rules.strains():
        return _error("bad_strain", strain=strain_mark(bid.strain))
    if bid.capot and not rules.capot_bid:
        return _error("no_capot")
    if bid.capot and rules.capot_bid_min and bid.value < rules.capot_bid_min:
        return _error("bad_bid", "capot_min", value=rules.capot_bid_min)
    top = rules.highest_bid_in(bid.strain)
    low, step = rules.min_bid, rules.bid_step
    if top != rules.highest_bid:  # this strain's ceiling is its own
        return _error("bad_bid", "bad_bid_in", low=low, high=top, step=step, strain=strain_mark(bid.strain))
    return _error("bad_bid", low=low, high=top, step=step)


def is_bid(rules: Ruleset, bid: Bid) -> bool:
    """Is ``bid`` one of the bids of ``rules`` (its value, strain and capot allowed)?"""
    return bid in _bid_ladder(rules).index


def bids(rules: Ruleset) -> tuple[Bid, ...]:
    """Every bid of ``rules``, lowest first (none where the auction takes a suit without a value, as in classique).

    >>> [b.label("en") for b in bids(Ruleset.preset("contree"))][:5]
    ['80 ♠', '80 ♥', '80 ♦', '80 ♣', '80 NT']
    """
    if rules.auction == "retourne":
        return ()
    return tuple(_bid_ladder(rules).bids)


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


def next_higher_bids(rules: Ruleset) -> tuple[int, ...]:
    """For each bid of :func:`bids`, the index of the first bid above it (the number of bids if none is).

    >>> next_higher_bids(Ruleset.preset("contree"))[:7]
    (6, 6, 6, 6, 6, 6, 12)
    """
    return tuple(_bid_ladder(rules).next_higher) if rules.auction != "retourne" else ()


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
            raise _error("not_a_call", "not_a_take", action=action)
        if self.round == 1 and action.suit != self.retourne_suit:
            raise _error("first_round")
        if self.round == 2 and action.suit == self.retourne_suit:
            raise _error("second_round")

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
        return self.standing

    @property
    def standing(self) -> Contract | None:
        return Contract(0, self.trump, self.taker) if self.taker >= 0 else None


_TAKES = tuple(Take(s) for s in range(4))


def new_auction(rules: Ruleset, dealer: int, retourne: int | None) -> Auction:
    if rules.auction == "retourne":
        return TakingAuction(rules, dealer, retourne)
    return BiddingAuction(rules, dealer)
