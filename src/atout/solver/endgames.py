"""The last tricks, solved by nested loops over scalars, one loop per player, which the compiler
keeps in registers: the last trick plays itself, the last two are solved by alpha-beta over the
first of them, and with four players a trick start with three tricks left is searched as the
general search would, its two-trick endings read from the table or solved and stored."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from atout.fast.cache import guard
from atout.fast.kernels import POINTS, beats, legal_mask, lowest
from atout.solver.context import (
    CAPOT_BONUS,
    INF,
    ME,
    MODE,
    NO,
    OVER_PARTNER,
    PLAYERS,
    TABLES,
    UNDER_PARTNER,
    UNDERTRUMP,
    helper,
    seat,
)
from atout.solver.ordering import NO_CARD, killed, killer_slot, last_can_beat, order3
from atout.solver.table import canonical, key_without, place, probe, store


@njit(cache=True, inline="always")
def last_trick(
    hands: np.ndarray, leader: int, played: int, capot0: bool, capot1: bool, seat_side: np.ndarray, ctx: np.ndarray
) -> int:
    """Points side ``ctx[ME]`` takes from the last trick, which plays itself: each hand, less the
    cards of ``played``, holds one card."""
    players = ctx[PLAYERS]
    mode = ctx[MODE]
    points = 0
    winner = leader
    best = -1
    for k in range(players):
        s = seat(leader + k, players)
        card = lowest(hands[s] & ~played)
        points += POINTS[mode, card]
        if k == 0 or beats(card, best, mode):
            winner = s
            best = card
    side = seat_side[winner]
    points += ctx[CAPOT_BONUS] if (capot0 if side == 0 else capot1) else 10
    return points if side == ctx[ME] else 0


@njit(cache=True, inline="always")
def _minimax_step(v: int, best: int, alpha: int, beta: int, maximise: bool) -> tuple[int, int, int]:
    """One child's value ``v`` taken into a node's best value and window."""
    if maximise:
        if v > best:
            best = v
            alpha = max(alpha, v)
    elif v < best:
        best = v
        beta = min(beta, v)
    return best, alpha, beta


@njit(cache=True, inline="always")
def _two_trick_line(
    r0: int,
    r1: int,
    r2: int,
    r3: int,
    w: int,
    first: int,
    mine: int,
    first_mine: bool,
    total: int,
    capot_mine: bool,
    mode: int,
    bonus: int,
) -> int:
    """Points for side ``ctx[ME]`` of one line of the last two tricks. The first trick (``first``
    points) is over, ``w`` the index of its winner (``first_mine``: of our side); in the last one each
    plays his other card (``r0`` to ``r3``, 0 for no player), the first trick's winner leading.
    ``mine``: our side's cards among them; ``capot_mine``: we took every trick before these two."""
    led = r0 if w == 0 else (r1 if w == 1 else (r2 if w == 2 else r3))
    top = lowest(led)
    for r in (r0, r1, r2, r3):
        if r and beats(lowest(r), top, mode):
            top = lowest(r)
    v = first if first_mine else 0
    if (mine >> top) & 1:
        v += total - first + (bonus if first_mine and capot_mine else 10)
    return v


@helper
def last_two(
    hands: np.ndarray, leader: int, capot0: bool, capot1: bool, seat_side: np.ndarray, ctx: np.ndarray, total: int
) -> int:
    """The exact points side ``ctx[ME]`` takes from the last two tricks (everyone holds two cards,
    worth ``total`` points), by alpha-beta over the first of them (at most 16 lines), the last one
    playing itself. Nested loops over scalars, one per player: cheaper than a table probe."""
    players = ctx[PLAYERS]
    mode = ctx[MODE]
    me = ctx[ME]
    over = ctx[OVER_PARTNER] == 1
    under = ctx[UNDERTRUMP] == 1
    under_partner = ctx[UNDER_PARTNER] == 1
    s0 = leader
    s1 = seat(leader + 1, players)
    s2 = seat(s1 + 1, players)
    s3 = seat(s2 + 1, players)
    h0 = hands[s0]
    h1 = hands[s1]
    h2 = hands[s2] if players > 2 else 0
    h3 = hands[s3] if players > 3 else 0
    max0 = seat_side[s0] == me
    max1 = seat_side[s1] == me
    max2 = seat_side[s2] == me
    max3 = seat_side[s3] == me
    capot_mine = capot0 if me == 0 else capot1
    bonus = ctx[CAPOT_BONUS]
    best0 = -INF if max0 else INF
    a0 = -INF
    b0 = INF
    m0 = h0
    while m0 and a0 < b0:
        c0 = lowest(m0)
        m0 &= m0 - 1
        best1 = -INF if max1 else INF
        a1 = a0
        b1 = b0
        m1 = legal_mask(h1, c0, c0, NO, mode, over, under, under_partner)
        while m1 and a1 < b1:
            c1 = lowest(m1)
            m1 &= m1 - 1
            w1 = 1 if beats(c1, c0, mode) else 0
            top1 = c1 if w1 else c0
            p1 = POINTS[mode, c0] + POINTS[mode, c1]
            if players == 2:
                r0 = h0 & ~(1 << c0)
                r1 = h1 & ~(1 << c1)
                v1 = _two_trick_line(
                    r0, r1, 0, 0, w1, p1, (r0 if max0 else r1), max0 == (w1 == 0), total, capot_mine, mode, bonus
                )
            else:
                best2 = -INF if max2 else INF
                a2 = a1
                b2 = b1
                m2 = legal_mask(h2, c0, top1, players == 4 and w1 == 0, mode, over, under, under_partner)
                while m2 and a2 < b2:
                    c2 = lowest(m2)
                    m2 &= m2 - 1
                    w2 = 2 if beats(c2, top1, mode) else w1
                    top2 = c2 if w2 == 2 else top1
                    p2 = p1 + POINTS[mode, c2]
                    if players == 3:
                        r0 = h0 & ~(1 << c0)
                        r1 = h1 & ~(1 << c1)
                        r2 = h2 & ~(1 << c2)
                        mine = (r0 if max0 else 0) | (r1 if max1 else 0) | (r2 if max2 else 0)
                        v2 = _two_trick_line(
                            r0, r1, r2, 0, w2, p2, mine, (max0, max1, max2)[w2], total, capot_mine, mode, bonus
                        )
                    else:
                        best3 = -INF if max3 else INF
                        a3 = a2
                        b3 = b2
                        m3 = legal_mask(h3, c0, top2, w2 == 1, mode, over, under, under_partner)
                        while m3 and a3 < b3:
                            c3 = lowest(m3)
                            m3 &= m3 - 1
                            w3 = 3 if beats(c3, top2, mode) else w2
                            r0 = h0 & ~(1 << c0)
                            r2 = h2 & ~(1 << c2)
                            mine = r0 | r2 if max0 else (h1 & ~(1 << c1)) | (h3 & ~(1 << c3))
                            v3 = _two_trick_line(
                                r0,
                                h1 & ~(1 << c1),
                                r2,
                                h3 & ~(1 << c3),
                                w3,
                                p2 + POINTS[mode, c3],
                                mine,
                                max0 == (w3 & 1 == 0),
                                total,
                                capot_mine,
                                mode,
                                bonus,
                            )
                            best3, a3, b3 = _minimax_step(v3, best3, a3, b3, max3)
                        v2 = best3
                    best2, a2, b2 = _minimax_step(v2, best2, a2, b2, max2)
                v1 = best2
            best1, a1, b1 = _minimax_step(v1, best1, a1, b1, max1)
        best0, a0, b0 = _minimax_step(best1, best0, a0, b0, max0)
    return best0


@helper
def three_tricks(
    hands: np.ndarray,
    leader: int,
    capot0: bool,
    capot1: bool,
    alpha: int,
    beta: int,
    tt_best: int,
    remaining: int,
    pts: int,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    keys: np.ndarray,
) -> tuple[int, int, int]:
    """Four players, a trick start with three tricks left (``remaining`` the cards, worth ``pts``):
    the points side ``ctx[ME]`` takes, searched in the window (alpha, beta) (fail-soft); the best
    card; the nodes searched. The search's own alpha-beta, with its ordering and killers, written as
    one nested loop per player over scalars (as :func:`last_two`), the endings of two tricks valued
    from the table or by :func:`last_two` and stored: it costs about half as much as the general
    search, which keeps every node in arrays."""
    mode = ctx[MODE]
    me = ctx[ME]
    over = ctx[OVER_PARTNER] == 1
    under = ctx[UNDERTRUMP] == 1
    under_partner = ctx[UNDER_PARTNER] == 1
    s1 = seat(leader + 1, 4)
    s2 = seat(leader + 2, 4)
    s3 = seat(leader + 3, 4)
    h0 = hands[leader]
    h1 = hands[s1]
    h2 = hands[s2]
    h3 = hands[s3]
    ours = seat_side[leader] == me  # the leader and the third player play for ctx[ME]
    nodes = 0
    best_card = -1
    best0 = -INF if ours else INF
    a0 = alpha
    b0 = beta
    key0 = canonical(remaining, keys)
    lead_killers = killer_slot(3, 0, 0)
    for k in order3(h0, remaining, mode, -1, False, False, True, tt_best, ctx[lead_killers], ctx[lead_killers + 1]):
        if k == NO_CARD or a0 >= b0:
            break
        c0 = 63 - (k & 63)
        nodes += 1
        key1 = key_without(key0, remaining, c0, keys)
        rem1 = remaining & ~(1 << c0)
        best1 = INF if ours else -INF
        a1 = a0
        b1 = b0
        legal = legal_mask(h1, c0, c0, NO, mode, over, under, under_partner)
        for k in order3(legal, remaining, mode, c0, False, False, False, -1, -1, -1):
            if k == NO_CARD or a1 >= b1:
                break
            c1 = 63 - (k & 63)
            nodes += 1
            key2 = key_without(key1, rem1, c1, keys)
            rem2 = rem1 & ~(1 << c1)
            w1 = 1 if beats(c1, c0, mode) else 0
            top1 = c1 if w1 else c0
            best2 = -INF if ours else INF
            a2 = a1
            b2 = b1
            legal = legal_mask(h2, c0, top1, w1 == 0, mode, over, under, under_partner)
            holds = w1 == 0 and not last_can_beat(h3, c0, top1, mode, ctx)
            third_killers = killer_slot(3, 2, c0)
            for k in order3(
                legal, remaining, mode, top1, holds, False, False, ctx[third_killers], ctx[third_killers + 1], -1
            ):
                if k == NO_CARD or a2 >= b2:
                    break
                c2 = 63 - (k & 63)
                nodes += 1
                key3 = key_without(key2, rem2, c2, keys)
                rem3 = rem2 & ~(1 << c2)
                w2 = 2 if beats(c2, top1, mode) else w1
                top2 = c2 if w2 == 2 else top1
                best3 = INF if ours else -INF
                a3 = a2
                b3 = b2
                legal = legal_mask(h3, c0, top2, w2 == 1, mode, over, under, under_partner)
                for k in order3(legal, remaining, mode, top2, w2 == 1, True, False, -1, -1, -1):
                    if k == NO_CARD or a3 >= b3:
                        break
                    c3 = 63 - (k & 63)
                    nodes += 1
                    winner = seat(leader + (3 if beats(c3, top2, mode) else w2), 4)
                    wside = seat_side[winner]
                    trick = POINTS[mode, c0] + POINTS[mode, c1] + POINTS[mode, c2] + POINTS[mode, c3]
                    c0_after = capot0 and wside == 0
                    c1_after = capot1 and wside == 1
                    key = key_without(key3, rem3, c3, keys)
                    meta, slot = place(key, winner, c0_after, c1_after, ctx)
                    hit, rest, _, _ = probe(table, slot, key, meta)  # two tricks left: stored exact
                    if not hit:
                        hands[leader] = h0 & ~(1 << c0)
                        hands[s1] = h1 & ~(1 << c1)
                        hands[s2] = h2 & ~(1 << c2)
                        hands[s3] = h3 & ~(1 << c3)
                        rest = last_two(hands, winner, c0_after, c1_after, seat_side, ctx, pts - trick)
                        hands[leader] = h0
                        hands[s1] = h1
                        hands[s2] = h2
                        hands[s3] = h3
                        store(table, slot, key, meta, rest, rest, 255)
                    v = rest + (trick if wside == me else 0)
                    best3, a3, b3 = _minimax_step(v, best3, a3, b3, not ours)
                best2, a2, b2 = _minimax_step(best3, best2, a2, b2, ours)
                if a2 >= b2:
                    killed(third_killers, c2, ctx)
            best1, a1, b1 = _minimax_step(best2, best1, a1, b1, not ours)
        before = best0
        best0, a0, b0 = _minimax_step(best1, best0, a0, b0, ours)
        if best0 != before or best_card < 0:
            best_card = c0
        if a0 >= b0:
            killed(lead_killers, c0, ctx)
    return best0, best_card, nodes


guard(sys.modules[__name__], TABLES)
