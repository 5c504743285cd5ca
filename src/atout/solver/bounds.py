"""Bounds without search, at a trick start: the sure top trumps, the masters the leader (or his
partner, given the lead) can cash at once, and every point left plus the best bonus."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from atout.fast.cache import guard
from atout.fast.kernels import POINTS, card_points, lowest, popcount
from atout.solver.context import BY_STRENGTH, CAPOT_BONUS, MODE, ONE, PLAYERS, SUITS, TABLES, helper


@helper
def _sure_points(hands: np.ndarray, players: int, seat_side: np.ndarray, me: int, mode: int) -> tuple[int, int]:
    """Points sure for ``me`` and sure for the other side.

    Only the top trumps are sure: a run of the highest remaining trumps held by one
    side wins whenever played, while any other card may have to be discarded."""
    sure_me = 0
    sure_them = 0
    if mode >= 4:
        return sure_me, sure_them
    side0 = 0
    side1 = 0
    for s in range(players):
        if seat_side[s] == 0:
            side0 |= hands[s]
        else:
            side1 |= hands[s]
    remaining = side0 | side1
    top_side = -1
    for k in range(8):
        c = BY_STRENGTH[mode, mode, k]
        if not (remaining >> c) & 1:
            continue
        side = 0 if (side0 >> c) & 1 else 1
        if top_side < 0:
            top_side = side
        if side != top_side:
            break
        if side == me:
            sure_me += POINTS[mode, c]
        else:
            sure_them += POINTS[mode, c]
    return sure_me, sure_them


@helper
def _cheapest(cards: int, k: int, mode: int) -> int:
    """The points of the ``k`` cheapest of ``cards``."""
    total = 0
    for _ in range(k):
        best = -1
        m = cards
        while m:
            c = lowest(m)
            m &= m - 1
            if best < 0 or POINTS[mode, c] < POINTS[mode, best]:
                best = c
        total += POINTS[mode, best]
        cards &= ~(1 << best)
    return total


@helper
def _quick_points(hands: np.ndarray, leader: int, players: int, seat_side: np.ndarray, mode: int, followed: int) -> int:
    """Points sure for the leader's side: the leader cashes the unbroken top of his trumps, then of
    each other suit for as long as nobody with trumps left could ruff (his partner, in the
    four-player game, need not: the leader holds the trick; with three players the other defender
    must, and would take the lead), while everyone else follows with what he must (counted at its
    cheapest; a player who has had to discard, or is not in ``followed``, is counted for nothing,
    as he may have thrown anything)."""
    side = seat_side[leader]
    others = 0
    trumps = 0  # 4 bits a seat: an opponent's trumps left (sans atout and tout atout: none)
    for s in range(players):
        if s != leader:
            others |= hands[s]
        if mode < 4:
            trumps |= popcount(hands[s] & SUITS[mode]) << (4 * s)
    total = 0
    for step in range(4):
        suit = (mode + step) % 4 if mode < 4 else step
        mine = hands[leader] & SUITS[suit]
        if mine == 0:
            continue
        limit = 8
        if mode < 4 and suit != mode:
            for s in range(players):
                exempt = s == leader or (players == 4 and seat_side[s] == side)
                if not exempt and (trumps >> (4 * s)) & 15:
                    limit = min(limit, popcount(hands[s] & SUITS[suit]))
        k = 0
        for j in range(8):
            c = BY_STRENGTH[mode, suit, j]
            if k == limit or (others >> c) & 1:
                break
            if (mine >> c) & 1:
                k += 1
                total += POINTS[mode, c]
        if k == 0:
            continue
        for s in range(players):
            if s == leader:
                continue
            held = hands[s] & SUITS[suit]
            n = popcount(held)
            if (followed >> s) & 1:
                total += _cheapest(held, min(k, n), mode)
            if k > n:
                followed &= ~(1 << s)
            if suit == mode and k >= n:
                trumps &= ~(15 << (4 * s))
    return total


@helper
def leader_sure(
    hands: np.ndarray, leader: int, players: int, seat_side: np.ndarray, mode: int, need: int, work: np.ndarray
) -> int:
    """Points sure for the leader's side (see :func:`_quick_points`). If that is less than ``need``,
    the leader may also give the lead to his partner: a low card of a suit whose master the partner
    holds (a side suit no opponent with trumps can ruff), the partner then cashing his own masters
    in the other suits. ``work`` is scratch space (at least 4 entries)."""
    everyone = (1 << players) - 1
    best = _quick_points(hands, leader, players, seat_side, mode, everyone)
    if best >= need or players != 4:
        return best
    partner = (leader + 2) % 4
    held_by_all = hands[0] | hands[1] | hands[2] | hands[3]
    for suit in range(4):
        if suit == mode:
            continue
        mask = SUITS[suit]
        mine = hands[leader] & mask
        if mine == 0 or hands[partner] & mask == 0:
            continue
        top = -1
        for j in range(8):
            c = BY_STRENGTH[mode, suit, j]
            if (held_by_all >> c) & 1:
                top = c
                break
        if not (hands[partner] >> top) & 1:
            continue
        entry = POINTS[mode, top] + _cheapest(mine, ONE, mode)
        followed = everyone
        safe = True
        for s in range(4):
            if seat_side[s] == seat_side[leader]:
                continue
            held = hands[s] & mask
            if held:
                entry += _cheapest(held, ONE, mode)
            elif mode < 4 and hands[s] & SUITS[mode]:
                safe = False
            else:
                followed &= ~(1 << s)
        if not safe:
            continue
        for s in range(4):
            work[s] = hands[s] & ~mask
        total = entry + _quick_points(work, partner, players, seat_side, mode, followed)
        if total > best:
            best = total
            if best >= need:
                return best
    return best


@njit(cache=True, inline="always")
def quick_bounds(
    hands: np.ndarray,
    leader: int,
    alpha: int,
    beta: int,
    points: int,
    bonus: int,
    me: int,
    seat_side: np.ndarray,
    players: int,
    mode: int,
    work: np.ndarray,
) -> tuple[int, int]:
    """The least and the most side ``me`` takes from a trick start whose cards in play are worth
    ``points``, ``bonus`` being what the last trick can bring it: top trumps are sure to win their
    trick, and so are the masters the leader cashes at once; the rest and the bonus may go either
    way. The leader's cashing is searched only as far as the window (``alpha``, ``beta``) needs."""
    sure_me, sure_them = _sure_points(hands, players, seat_side, me, mode)
    if seat_side[leader] == me:
        sure_me = max(sure_me, leader_sure(hands, leader, players, seat_side, mode, beta, work))
    else:
        sure_them = max(sure_them, leader_sure(hands, leader, players, seat_side, mode, points + bonus - alpha, work))
    return sure_me, points - sure_them + bonus


@njit(cache=True)
def upper_bound(hands: np.ndarray, tricks: np.ndarray, count: int, tricks_left: int, ctx: np.ndarray) -> int:
    """More than any side can take from a node: every point in play and the largest bonus, plus one."""
    mode = ctx[MODE]
    upper = max(ctx[CAPOT_BONUS], 10) + 1
    for s in range(ctx[PLAYERS]):
        upper += card_points(hands[s], mode)
    for i in range(count):
        upper += POINTS[mode, tricks[tricks_left, i]]
    return upper


guard(sys.modules[__name__], TABLES)
