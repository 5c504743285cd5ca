"""An exact double-dummy solver for every variant and play mode.

Given a deal in its play phase, with every hand visible, the solver says for each
legal card of the player to move how many card points his side will take from
here on under perfect play by everyone (the cards of the trick in progress, later
tricks, the dix de der, and the capot's bonus up to ``capot_points``). With three
players the two defenders count as one side. A :class:`Solver` keeps its
transposition table between successive calls on the same deal.

>>> from atout import Deal, Ruleset
>>> ending = "coinche N play A7.../.A7../..A7./...A7 80S@N N:- 108,0 6,0 -;0,0,0,0 =0,0 -"
>>> deal = Deal.from_position(ending)                 # North-South won 6 tricks; spades are trump
>>> solver = Solver(deal.rules)
>>> solution = solver.solve(deal)
>>> {str(card): value for card, value in solution.values.items()}  # 44 card points left + the capot's 100
{'7♠': 144, 'A♠': 144}
>>> solver.can_reach(deal, side=0, points=252), solver.can_reach(deal, side=1, points=1)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from atout.actions import Play
from atout.cards import ALL_CARDS, Card
from atout.deal import Deal, Phase
from atout.errors import AtoutError
from atout.fast import mode_of
from atout.fast.kernels import card_points
from atout.play import trick_winner_index
from atout.rules import Ruleset
from atout.solver import bounds, context, search
from atout.tables import play_mode

__all__ = ["Position", "SearchLimit", "Solution", "Solver", "position_of", "warm_up"]


class SearchLimit(AtoutError):
    """A solve stopped at its node limit before it knew the answer."""


@dataclass(frozen=True)
class Position:
    """A play-phase position in the solver's terms."""

    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    tricks_left: int
    capot: tuple[bool, bool]
    seat_side: tuple[int, ...]
    mode: int
    capot_bonus: int
    #: Card points each solver side (0, 1) has taken so far.
    taken: tuple[int, int]

    @property
    def mover(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)


def position_of(deal: Deal) -> Position:
    """The solver's view of a deal in its play phase; raises :class:`AtoutError` otherwise."""
    if deal.phase is not Phase.PLAY or deal.contract is None:
        raise AtoutError("the solver needs a deal in its play phase")
    if deal.must_declare:
        raise AtoutError("the player to move must first declare his announcements")
    rules = deal.rules
    n = rules.players
    if n == 4:
        seat_side = tuple(s & 1 for s in range(4))
    elif n == 3:
        seat_side = tuple(0 if s == deal.contract.taker else 1 for s in range(3))
    else:
        seat_side = (0, 1)
    trick = deal.current_trick
    leader = trick[0][0] if trick else deal.turn
    assert leader is not None
    done = deal.trick_number
    won = {0: 0, 1: 0}
    taken = [0, 0]
    for side, count in deal.tricks_won().items():
        solver_side = seat_side[side] if n == 3 else side
        won[solver_side] += count
    for side, value in deal.points().items():
        solver_side = seat_side[side] if n == 3 else side
        taken[solver_side] += value
    mode = mode_of(deal.contract.strain, rules)
    hands = tuple(deal.hand_mask(s) for s in range(n))
    in_play = (
        sum(taken)
        + sum(card_points(h, mode) for h in hands)
        + sum(play_mode(deal.contract.strain, rules.ta_values).points[c] for _, c in trick)
    )
    return Position(
        hands,
        leader,
        tuple(int(c) for _, c in trick),
        rules.hand_size - done,
        (won[0] == done, won[1] == done),
        seat_side,
        mode,
        rules.capot_points - in_play,
        (taken[0], taken[1]),
    )


@dataclass(frozen=True)
class Solution:
    """The values of the legal cards for the side to move, and the best card."""

    values: dict[Card, int]
    side: int
    nodes: int

    @property
    def best(self) -> Card:
        return max(self.values, key=lambda c: (self.values[c], -c))

    @property
    def value(self) -> int:
        return max(self.values.values())


class Solver:
    """Double-dummy solver for one ruleset; reuses its table across calls on the same deal.

    ``table_bits`` sets the transposition table's largest size (2**bits entries, 16 bytes each).
    Each deal uses only the part of it its size calls for, fixed when the deal is first seen:
    2**(2 * tricks left + 3) entries (524,288 for a full deal, 8,192 from trick 4), so that
    small searches stay in the processor's cache (see docs/performance.md).
    """

    def __init__(self, rules: Ruleset, table_bits: int = 20) -> None:
        if not 10 <= table_bits <= 26:
            raise AtoutError(f"table_bits must be between 10 and 26, not {table_bits}")
        self.rules = rules
        self.table_bits = table_bits
        size = 1 << table_bits
        self._table = np.zeros((size, 2), np.int64)
        self._ctx = np.zeros(context.CTX_SIZE, np.int64)
        self._ctx[context.PLAYERS] = rules.players
        self._ctx[context.PARTNERS] = int(rules.players == 4)
        self._ctx[context.OVER_PARTNER] = int(rules.overtrump_partner)
        self._ctx[context.UNDERTRUMP] = int(rules.must_undertrump)
        self._ctx[context.UNDER_PARTNER] = int(rules.undertrump_partner)
        self._ctx[context.KILLERS :] = -1  # no killer card yet
        self._identity: tuple[object, ...] | None = None
        self._tricks = np.zeros((rules.hand_size + 1, 4), np.int64)
        self._seat_side = np.zeros(rules.players, np.int64)
        self._buffers = search.buffers()
        self._no_cards = np.zeros(0, np.int64)

    # --------------------------------------------------------------- queries
    def solve(self, deal: Deal, node_limit: int = 0) -> Solution:
        """The value of every legal card of the player to move (equal cards share a value).

        With ``node_limit`` > 0, a solve that would search more nodes stops and raises
        :class:`SearchLimit` (the table keeps what was learnt; later calls stay exact).
        """
        pos = self._prepare(deal)
        me = pos.seat_side[pos.mover]
        cards = self._root_cards(deal)
        values = np.zeros(len(cards), np.int64)
        self._ctx[context.ME] = me
        hands, win = self._load(pos)
        with self._limit(node_limit):
            search.run(
                search.SOLVE,
                hands,
                pos.leader,
                self._tricks,
                len(pos.trick),
                win,
                pos.tricks_left,
                pos.capot[0],
                pos.capot[1],
                0,
                0,
                0,
                np.array(cards, np.int64),
                values,
                self._seat_side,
                self._ctx,
                self._table,
                *self._buffers,
            )
        by_card = sorted(zip(cards, values, strict=True))
        return Solution({ALL_CARDS[c]: int(v) for c, v in by_card}, me, int(self._ctx[context.NODES]))

    def value(self, deal: Deal, side: int | None = None, guess: int = 0, node_limit: int = 0) -> int:
        """Card points ``side`` (default: the side to move) takes from here on with best play.

        A ``guess`` close to the answer saves searches; ``node_limit`` works as in :meth:`solve`.
        """
        pos = self._prepare(deal)
        self._ctx[context.ME] = pos.seat_side[pos.mover] if side is None else self._solver_side(pos, side)
        hands, win = self._load(pos)
        upper = bounds.upper_bound(hands, self._tricks, len(pos.trick), pos.tricks_left, self._ctx)
        with self._limit(node_limit):
            value = search.run(
                search.EXACT,
                hands,
                pos.leader,
                self._tricks,
                len(pos.trick),
                win,
                pos.tricks_left,
                pos.capot[0],
                pos.capot[1],
                0,
                upper,
                guess,
                self._no_cards,
                self._no_cards,
                self._seat_side,
                self._ctx,
                self._table,
                *self._buffers,
            )
        return int(value)

    @property
    def nodes(self) -> int:
        """Nodes searched by the last query (:meth:`solve`, :meth:`value` or :meth:`can_reach`)."""
        return int(self._ctx[context.NODES])

    def can_reach(self, deal: Deal, side: int, points: int) -> bool:
        """Threshold query: can ``side`` end the deal with at least ``points`` card points?

        ``side`` is a scoring side of the ruleset (with three players, the taker's seat
        or a defender's, both defenders counting together).
        """
        pos = self._prepare(deal)
        me = self._solver_side(pos, side)
        need = points - pos.taken[me]
        if need <= 0:
            return True
        self._ctx[context.ME] = me
        hands, win = self._load(pos)
        with self._limit(0):
            found = search.run(
                search.WINDOW,
                hands,
                pos.leader,
                self._tricks,
                len(pos.trick),
                win,
                pos.tricks_left,
                pos.capot[0],
                pos.capot[1],
                need - 1,
                need,
                0,
                self._no_cards,
                self._no_cards,
                self._seat_side,
                self._ctx,
                self._table,
                *self._buffers,
            )
        return bool(found >= need)

    # -------------------------------------------------------------- internals
    @contextmanager
    def _limit(self, node_limit: int) -> Iterator[None]:
        """Count a search's nodes and stop it past ``node_limit`` (0: no limit) with :class:`SearchLimit`."""
        self._ctx[context.NODES] = 0
        self._ctx[context.NODE_LIMIT] = max(0, node_limit)
        try:
            yield
        finally:
            self._ctx[context.NODE_LIMIT] = 0
        if self._ctx[context.ABORTED]:
            self._ctx[context.ABORTED] = 0
            raise SearchLimit(f"the solve needed more than {node_limit:,} nodes")

    def _solver_side(self, pos: Position, side: int) -> int:
        if self.rules.players == 3:
            return pos.seat_side[side]
        if side not in (0, 1):
            raise AtoutError(f"side must be 0 or 1, not {side!r}")
        return side

    def _prepare(self, deal: Deal) -> Position:
        if deal.rules is not self.rules and deal.rules.fingerprint != self.rules.fingerprint:
            raise AtoutError("this solver was made for other rules than the deal's")
        pos = position_of(deal)
        identity = (tuple(deal.initial_hands), deal.contract, self.rules.fingerprint)
        if identity != self._identity:
            self._identity = identity
            self._ctx[context.GENERATION] += 1
            self._ctx[context.TT_BITS] = min(self.table_bits, max(10, 2 * pos.tricks_left + 3))
            if self._ctx[context.GENERATION] >= 1 << 15:
                self._table[:] = 0
                self._ctx[context.GENERATION] = 1
        self._ctx[context.MODE] = pos.mode
        self._ctx[context.CAPOT_BONUS] = pos.capot_bonus
        self._seat_side[:] = pos.seat_side
        return pos

    def _root_cards(self, deal: Deal) -> list[int]:
        """The legal cards, strongest of each suit first (so a touching lower card can share its value)."""
        assert deal.contract is not None
        strength = play_mode(deal.contract.strain, self.rules.ta_values).strength
        cards = {int(a.card) for a in deal.legal_actions() if isinstance(a, Play)}
        return sorted(cards, key=lambda c: (c >> 3, -strength[c]))

    def _load(self, pos: Position) -> tuple[np.ndarray, int]:
        """Copy the position into the search's arrays; return the hands and the trick's winning index."""
        row = self._tricks[pos.tricks_left]
        for i, card in enumerate(pos.trick):
            row[i] = card
        win = 0
        if pos.trick:
            win = trick_winner_index(list(pos.trick), play_mode(min(pos.mode, 5), self.rules.ta_values))
        return np.array(pos.hands, np.int64), win


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the solver, e.g. in a background thread at start-up, so
    that no hint or computer player's first card waits for the compiler: about fifteen seconds once after
    an install, under a second from the cache. (:func:`atout.solver.prepare.prepare`, which this calls,
    also reports its progress.)"""
    from atout.solver.prepare import prepare

    prepare()
