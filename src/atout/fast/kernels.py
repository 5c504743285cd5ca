"""The numba kernels and their tables (built from the rules core's :mod:`atout.tables`)."""

from __future__ import annotations

import sys

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from atout.fast.cache import guard
from atout.rules import Ruleset
from atout.tables import SANS_ATOUT, TOUT_ATOUT, play_mode

#: Table rows: 0..3 trump suit, 4 sans atout, 5 tout atout (FFB), 6 tout atout (FunBelote).
MODES = 7


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    points = np.zeros((MODES, 32), np.int64)
    strength = np.zeros((MODES, 32), np.int64)
    above = np.zeros((MODES, 32), np.int64)
    trump = np.zeros(MODES, np.int64)
    for row in range(MODES):
        mode = play_mode(min(row, TOUT_ATOUT), "funbelote" if row == 6 else "ffb")
        points[row] = mode.points
        strength[row] = mode.strength
        above[row] = mode.above
        trump[row] = mode.trump_mask
    return points, strength, above, trump


POINTS, STRENGTH, ABOVE, TRUMP_MASK = _tables()
_SUIT = np.array([0xFF << (8 * s) for s in range(4)], np.int64)


def mode_of(strain: int, rules: Ruleset) -> int:
    """The table row for a strain under a ruleset (tout atout's values depend on ``ta_values``)."""
    if strain == TOUT_ATOUT and rules.ta_values == "funbelote":
        return 6
    if not 0 <= strain <= TOUT_ATOUT:
        raise ValueError(f"strain must be 0..5, not {strain!r}")
    return strain


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's population count (one instruction on current CPUs)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's count of trailing zeros, undefined for zero (one instruction on current CPUs)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """Number of set bits of a non-negative mask."""
    return _ctpop(x)  # type: ignore[call-arg]  # numba supplies the typing context


@njit(cache=True, inline="always")
def lowest(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return _cttz(x)  # type: ignore[call-arg]  # numba supplies the typing context


@njit(cache=True)
def legal_mask(
    hand: int,
    led: int,
    winner: int,
    partner_winning: bool,
    mode: int,
    over_partner: bool,
    undertrump: bool,
    under_partner: bool,
) -> int:
    """The legal cards of ``hand`` (same rules as :func:`atout.play.legal_mask`)."""
    if led < 0:
        return hand
    follow = hand & _SUIT[led >> 3]
    if mode >= TOUT_ATOUT:
        if follow == 0:
            return hand
        if partner_winning and not over_partner:
            return follow
        higher = follow & ABOVE[mode, winner]
        return higher if higher else follow
    if mode == SANS_ATOUT:
        return follow if follow else hand
    if follow:
        if (led >> 3) != mode or (partner_winning and not over_partner):
            return follow
        higher = follow & ABOVE[mode, winner]
        return higher if higher else follow
    trump_mask = TRUMP_MASK[mode]
    trumps = hand & trump_mask
    if trumps == 0:
        return hand
    winner_is_trump = (trump_mask >> winner) & 1
    if partner_winning:
        if not over_partner or under_partner or not winner_is_trump or hand == trumps:
            return hand
        higher = trumps & ABOVE[mode, winner]
        return (hand & ~trump_mask) | (higher if higher else trumps)
    if winner_is_trump:
        higher = trumps & ABOVE[mode, winner]
        if higher:
            return higher
        return trumps if undertrump else hand
    return trumps


@njit(cache=True, inline="always")
def beats(card: int, winner: int, mode: int) -> bool:
    if (card >> 3) == (winner >> 3):
        return STRENGTH[mode, card] > STRENGTH[mode, winner]
    trump_mask = TRUMP_MASK[mode]
    return ((trump_mask >> card) & 1) == 1 and ((trump_mask >> winner) & 1) == 0


@njit(cache=True)
def trick_winner(cards: np.ndarray, count: int, mode: int) -> int:
    """Index (in play order) of the card that wins a trick of ``count`` cards."""
    best = 0
    for i in range(1, count):
        if beats(cards[i], cards[best], mode):
            best = i
    return best


@njit(cache=True)
def card_points(mask: int, mode: int) -> int:
    """Total points of the cards of ``mask``."""
    total = 0
    while mask:
        card = lowest(mask)
        total += POINTS[mode, card]
        mask &= mask - 1
    return total


@njit(cache=True, inline="always")
def _next_random(state: np.ndarray) -> int:
    """xorshift64*; ``state`` is a one-element uint64 array."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return int((x * np.uint64(2685821657736338717)) >> np.uint64(33))


@njit(cache=True, inline="always")
def _pick(mask: int, state: np.ndarray) -> int:
    k = _next_random(state) % popcount(mask)
    for _ in range(k):
        mask &= mask - 1
    return lowest(mask)


@njit(cache=True)
def rollout(
    hands: np.ndarray,
    players: int,
    leader: int,
    trick: np.ndarray,
    trick_count: int,
    mode: int,
    partners: bool,
    over_partner: bool,
    undertrump: bool,
    under_partner: bool,
    state: np.ndarray,
    points: np.ndarray,
    tricks: np.ndarray,
) -> None:
    """Play the rest of a deal at random from a position.

    ``hands`` (masks by seat) is modified; ``trick`` holds the ``trick_count`` cards
    already played to the current trick (led by ``leader``). Adds each seat's card
    points (the last trick's 10 included) to ``points`` and its tricks to ``tricks``.
    """
    cards = np.empty(4, np.int64)
    for i in range(trick_count):
        cards[i] = trick[i]
    count = trick_count
    win = 0
    for i in range(1, count):
        if beats(cards[i], cards[win], mode):
            win = i
    remaining = 0
    for seat in range(players):
        remaining |= hands[seat]
    while remaining:
        seat = (leader + count) % players
        if count == 0:
            card = _pick(hands[seat], state)
        else:
            partner_winning = partners and count >= 2 and win == count - 2
            legal = legal_mask(
                hands[seat], cards[0], cards[win], partner_winning, mode, over_partner, undertrump, under_partner
            )
            card = _pick(legal, state)
        hands[seat] &= ~(1 << card)
        remaining &= ~(1 << card)
        cards[count] = card
        if count > 0 and beats(card, cards[win], mode):
            win = count
        count += 1
        if count == players:
            winner = (leader + win) % players
            value = 0
            for i in range(players):
                value += POINTS[mode, cards[i]]
            if remaining == 0:
                value += 10
            points[winner] += value
            tricks[winner] += 1
            leader = winner
            count = 0
            win = 0


@njit(cache=True)
def rollouts(
    hands: np.ndarray,
    players: int,
    leader: int,
    mode: int,
    partners: bool,
    over_partner: bool,
    undertrump: bool,
    under_partner: bool,
    count: int,
    seed: int,
) -> np.ndarray:
    """``count`` random playouts of a deal from the start of a trick: card points by seat, one row each."""
    out = np.zeros((count, players), np.int64)
    tricks = np.zeros(players, np.int64)
    work = np.empty(players, np.int64)
    empty = np.empty(0, np.int64)
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed * 2 + 1)
    for r in range(count):
        for s in range(players):
            work[s] = hands[s]
        rollout(
            work,
            players,
            leader,
            empty,
            0,
            mode,
            partners,
            over_partner,
            undertrump,
            under_partner,
            state,
            out[r],
            tricks,
        )
    return out


def warm_up() -> None:
    """Compile (or load from the disk cache) every kernel, e.g. in a background thread at start-up."""
    hands = np.array([0xFF, 0xFF00, 0xFF0000, 0xFF000000], np.int64)
    rollouts(hands, 4, 0, 0, True, True, False, False, 1, 1)
    legal_mask(0xFF, 0, 0, False, 0, True, False, False)
    trick_winner(np.zeros(4, np.int64), 4, 0)
    card_points(0xFF, 0)


guard(sys.modules[__name__], (POINTS, STRENGTH, ABOVE, TRUMP_MASK, _SUIT))
