"""A plain minimax (no pruning, no table, no ordering) to hold the solver to, and helpers."""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from atout import Deal, Phase, Ruleset
from atout.fast.kernels import POINTS, beats, legal_mask, lowest
from atout.solver import Position, position_of


# Not cached: numba cannot cache a recursive function (numba issue #6061).
@njit(cache=False)
def minimax(
    hands: np.ndarray,
    leader: int,
    trick: np.ndarray,
    count: int,
    win: int,
    tricks_left: int,
    capot0: bool,
    capot1: bool,
    me: int,
    seat_side: np.ndarray,
    players: int,
    partners: bool,
    over_partner: bool,
    undertrump: bool,
    under_partner: bool,
    mode: int,
    capot_bonus: int,
) -> int:
    """Points side ``me`` takes from this node with best play by everyone."""
    if count == 0 and tricks_left == 0:
        return 0
    seat = (leader + count) % players
    hand = hands[seat]
    if count == 0:
        legal = hand
    else:
        partner_winning = partners and count >= 2 and win == count - 2
        legal = legal_mask(hand, trick[0], trick[win], partner_winning, mode, over_partner, undertrump, under_partner)
    maximizing = seat_side[seat] == me
    best = -1 if maximizing else 1 << 30
    moves = legal
    while moves:
        card = lowest(moves)
        moves &= moves - 1
        child_hands = hands.copy()
        child_hands[seat] = hand & ~(1 << card)
        child_trick = trick.copy()
        child_trick[count] = card
        new_win = win
        if count > 0 and beats(card, trick[win], mode):
            new_win = count
        if count + 1 == players:
            winner = (leader + new_win) % players
            side = seat_side[winner]
            points = 0
            for k in range(players):
                points += POINTS[mode, child_trick[k]]
            c0 = capot0 and side == 0
            c1 = capot1 and side == 1
            if tricks_left == 1:
                points += capot_bonus if (c0 or c1) else 10
            value = (points if side == me else 0) + minimax(
                child_hands,
                winner,
                np.zeros(4, np.int64),
                0,
                0,
                tricks_left - 1,
                c0,
                c1,
                me,
                seat_side,
                players,
                partners,
                over_partner,
                undertrump,
                under_partner,
                mode,
                capot_bonus,
            )
        else:
            value = minimax(
                child_hands,
                leader,
                child_trick,
                count + 1,
                new_win,
                tricks_left,
                capot0,
                capot1,
                me,
                seat_side,
                players,
                partners,
                over_partner,
                undertrump,
                under_partner,
                mode,
                capot_bonus,
            )
        if (maximizing and value > best) or (not maximizing and value < best):
            best = value
    return best


def reference_value(rules: Ruleset, pos: Position, card: int) -> int:
    """Minimax value, for the mover's side, of playing ``card`` in ``pos``."""
    n = len(pos.hands)
    seat = pos.mover
    hands = np.array(pos.hands, np.int64)
    hands[seat] &= ~(1 << card)
    trick = np.zeros(4, np.int64)
    for i, c in enumerate(pos.trick):
        trick[i] = c
    count = len(pos.trick)
    trick[count] = card
    win = 0
    for i in range(1, count + 1):
        if beats(trick[i], trick[win], pos.mode):
            win = i
    me = pos.seat_side[seat]
    args = (
        me,
        np.array(pos.seat_side, np.int64),
        n,
        n == 4,
        rules.overtrump_partner,
        rules.must_undertrump,
        rules.undertrump_partner,
        pos.mode,
        pos.capot_bonus,
    )
    if count + 1 < n:
        return int(
            minimax(hands, pos.leader, trick, count + 1, win, pos.tricks_left, pos.capot[0], pos.capot[1], *args)
        )
    winner = (pos.leader + win) % n
    side = pos.seat_side[winner]
    points = sum(int(POINTS[pos.mode, trick[k]]) for k in range(n))
    capot = (pos.capot[0] and side == 0, pos.capot[1] and side == 1)
    if pos.tricks_left == 1:
        points += pos.capot_bonus if any(capot) else 10
    gained = points if side == me else 0
    return gained + int(
        minimax(hands, winner, np.zeros(4, np.int64), 0, 0, pos.tricks_left - 1, capot[0], capot[1], *args)
    )


def reference_trick_start_value(rules: Ruleset, pos: Position, side: int) -> int:
    """Minimax value, for solver side ``side``, of a position at the start of a trick."""
    assert not pos.trick
    n = len(pos.hands)
    return int(
        minimax(
            np.array(pos.hands, np.int64),
            pos.leader,
            np.zeros(4, np.int64),
            0,
            0,
            pos.tricks_left,
            pos.capot[0],
            pos.capot[1],
            side,
            np.array(pos.seat_side, np.int64),
            n,
            n == 4,
            rules.overtrump_partner,
            rules.must_undertrump,
            rules.undertrump_partner,
            pos.mode,
            pos.capot_bonus,
        )
    )


def contract_for(rules: Ruleset, strain: int) -> str:
    return f"80{('S', 'H', 'D', 'C', 'SA', 'TA')[strain]}" if rules.auction == "bids" else f"take{'SHDC'[strain]}"


def random_positions(rules: Ruleset, strain: int, count: int, seed: int, min_done: int) -> list[Deal]:
    """Deals in ``strain`` stopped at random moments once ``min_done`` tricks are over."""
    rng = random.Random(seed)
    out: list[Deal] = []
    deal_seed = seed * 7919
    while len(out) < count:
        deal_seed += 1
        deal = Deal.new(rules, dealer=deal_seed % rules.players, seed=deal_seed)
        if rules.auction == "retourne":
            if deal.retourne is None or deal.retourne.suit != strain:
                continue
            deal.apply(contract_for(rules, strain))
        else:
            deal.apply(contract_for(rules, strain))
            for _ in range(3):
                deal.apply("P")
        stop = rng.randrange(min_done * rules.players, rules.hand_size * rules.players)
        played = 0
        while deal.phase is Phase.PLAY and played < stop:
            action = rng.choice(deal.legal_actions())
            deal.apply(action)
            played += hasattr(action, "card")
        if deal.phase is Phase.PLAY and not deal.must_declare:
            out.append(deal)
    return out


__all__ = [
    "contract_for",
    "minimax",
    "position_of",
    "random_positions",
    "reference_trick_start_value",
    "reference_value",
]
