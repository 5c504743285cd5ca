"""Move ordering: which cards a node searches, best guesses first.

The table's card first; with five tricks or more left, the leader's and the second player's cards
by what they win in the trick if everyone after answers with his best-looking card; otherwise
simple rules (win cheaply, give points to a partner who holds the trick, else discard low). Then
the killer cards, the last two that made a cut-off at the same point of a trick. Equivalent cards
(touching cards of one hand and one suit, worth the same points) are searched once.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from atout.fast.cache import guard
from atout.fast.kernels import POINTS, STRENGTH, beats, lowest
from atout.solver.context import KILLERS, MODE, NO, PARTNERS, PLAYERS, SUITS, TABLES, helper, legal_cards, seat
from atout.solver.stack import Stack


def _next_up() -> np.ndarray:
    """``[mode, card, cards of its suit still in play (a byte)]``: the weakest of those cards
    stronger than ``card``, or -1."""
    out = np.full((7, 32, 256), -1, np.int8)
    for mode in range(7):
        for card in range(32):
            stronger = [c for c in range(card & ~7, (card & ~7) + 8) if STRENGTH[mode, c] > STRENGTH[mode, card]]
            for byte in range(256):
                above = [c for c in stronger if (byte >> (c & 7)) & 1]
                if above:
                    out[mode, card, byte] = min(above, key=lambda c: STRENGTH[mode, c])
    return out


_NEXT_UP = _next_up()
#: An empty place in :func:`order3`'s keys.
NO_CARD = -(1 << 40)


@njit(cache=True, inline="always")
def _next_up_in(card: int, in_play: int, mode: int) -> int:
    """The next card above ``card`` in its suit among ``in_play`` (-1: none)."""
    return _NEXT_UP[mode, card, (in_play >> (card & 24)) & 0xFF]


@njit(cache=True, inline="always")
def _follow_score(card: int, winning_card: int, partner_holds: bool, last: bool, mode: int) -> int:
    """How good a card looks for a player who is not leading (a higher score first)."""
    pts = POINTS[mode, card]
    if beats(card, winning_card, mode):
        if partner_holds:
            return 300 + pts
        if last:
            return 2000 + pts * 4 - STRENGTH[mode, card]
        return 1500 + STRENGTH[mode, card] + pts
    if partner_holds:
        return 900 + pts * 4
    return 500 - pts * 4 - STRENGTH[mode, card]


@njit(cache=True, inline="always")
def _equivalent_below(card: int, legal: int, in_play: int, mode: int) -> bool:
    """Whether ``card``'s next higher card still in play (in a hand or on the table) in its suit is
    also legal and worth the same points: the two are equivalent, and only the higher is searched."""
    nxt = _next_up_in(card, in_play, mode)
    return nxt >= 0 and (legal >> nxt) & 1 == 1 and POINTS[mode, nxt] == POINTS[mode, card]


@njit(cache=True, inline="always")
def _rule_score(card: int, top: int, holds: bool, last: bool, leading: bool, mode: int) -> int:
    """The simple ordering rules' score of a card: strong and rich first for the leader, else
    :func:`_follow_score`."""
    return STRENGTH[mode, card] + POINTS[mode, card] * 4 if leading else _follow_score(card, top, holds, last, mode)


@helper
def _trick_guess(
    hands: np.ndarray,
    leader: int,
    trick: np.ndarray,
    count: int,
    win: int,
    card: int,
    seat_side: np.ndarray,
    players: int,
    mode: int,
    ctx: np.ndarray,
) -> int:
    """Play ``card`` and let the others answer with their best-looking card: the points the
    mover's side wins in the trick (negative if it loses them)."""
    led = trick[0] if count else card
    top = trick[win] if count else card
    w = win
    if count > 0 and beats(card, top, mode):
        w = count
        top = card
    points = POINTS[mode, card]
    for i in range(count):
        points += POINTS[mode, trick[i]]
    for j in range(count + 1, players):
        s = seat(leader + j, players)
        side = seat_side[s]
        partner_winning = ctx[PARTNERS] == 1 and j >= 2 and w == j - 2
        allowed = legal_cards(hands[s], led, top, partner_winning, mode, ctx)
        holds = seat_side[seat(leader + w, players)] == side
        best = -1
        best_score = -(1 << 30)
        m = allowed
        while m:
            c = lowest(m)
            m &= m - 1
            sc = _follow_score(c, top, holds, j == players - 1, mode)
            if sc > best_score:
                best_score = sc
                best = c
        points += POINTS[mode, best]
        if beats(best, top, mode):
            w = j
            top = best
    mover_side = seat_side[seat(leader + count, players)]
    return points if seat_side[seat(leader + w, players)] == mover_side else -points


@njit(cache=True, inline="always")
def last_can_beat(hand: int, led: int, winning: int, mode: int, ctx: np.ndarray) -> bool:
    """Whether the last player of a four-player trick, holding ``hand``, has a legal card that
    beats ``winning``."""
    m = legal_cards(hand, led, winning, NO, mode, ctx)
    while m:
        if beats(lowest(m), winning, mode):
            return True
        m &= m - 1
    return False


@helper
def order(
    legal: int,
    hands: np.ndarray,
    remaining: int,
    trick: np.ndarray,
    count: int,
    win: int,
    seat_side: np.ndarray,
    leader: int,
    players: int,
    mode: int,
    moves: np.ndarray,
    ctx: np.ndarray,
    scores: np.ndarray,
    tricks_left: int,
) -> int:
    """Fill ``moves`` with the cards worth searching, best guesses first; return how many
    (``scores`` is scratch space, ``MAX_HAND`` entries).

    With five tricks or more left, the leader's and the second player's cards are
    ordered by what they win in the trick if everyone after answers with his
    best-looking card (worth its cost where subtrees are large); otherwise by simple
    rules (win cheaply, give points to a partner who holds the trick and whom the last player
    cannot beat, else discard low)."""
    in_play = remaining
    for i in range(count):
        in_play |= 1 << trick[i]
    mover = seat(leader + count, players)
    holds = count > 0 and seat_side[seat(leader + win, players)] == seat_side[mover]
    if holds and count == 2 and players == 4:  # the third player: will his partner's card hold?
        holds = not last_can_beat(hands[(leader + 3) % 4], trick[0], trick[win], mode, ctx)
    n = 0
    m = legal
    while m:
        card = lowest(m)
        m &= m - 1
        if _equivalent_below(card, legal, in_play, mode):
            continue
        if count <= 1 and players > 2 and tricks_left >= 5:
            score = (
                _trick_guess(hands, leader, trick, count, win, card, seat_side, players, mode, ctx) * 64
                + STRENGTH[mode, card]
            )
        else:
            score = _rule_score(card, trick[win], holds, count == players - 1, count == 0, mode)
        # insertion sort, highest score first
        i = n
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            moves[i] = moves[i - 1]
            i -= 1
        scores[i] = score
        moves[i] = card
        n += 1
    return n


@njit(cache=True, inline="always")
def _group_top(card: int, legal: int, in_play: int, mode: int) -> int:
    """The highest card reached from ``card`` by climbing, among the cards in play, through the
    next cards of its suit that are in ``legal`` and worth the same points."""
    while True:
        nxt = _next_up_in(card, in_play, mode)
        if nxt < 0 or not (legal >> nxt) & 1 or POINTS[mode, nxt] != POINTS[mode, card]:
            return card
        card = nxt


@helper
def equivalents(card: int, legal: int, remaining: int, trick: np.ndarray, count: int, mode: int) -> int:
    """The cards of ``legal`` equivalent to ``card`` (itself included): touching it in its suit, among
    the cards in play, through cards of ``legal`` all worth the same points."""
    in_play = remaining
    for i in range(count):
        in_play |= 1 << trick[i]
    top = _group_top(card, legal, in_play, mode)
    group = 0
    m = legal & SUITS[card >> 3]
    while m:
        c = lowest(m)
        m &= m - 1
        if _group_top(c, legal, in_play, mode) == top:
            group |= 1 << c
    return group


@njit(cache=True)
def equivalent_above(card: int, done: np.ndarray, in_play: int, mode: int) -> int:
    """Index in ``done`` of a card touching ``card`` from above (the next card still in play in its
    suit) and worth the same points, whose value is then the same (-1: none)."""
    nxt = _next_up_in(card, in_play, mode)
    if nxt < 0 or POINTS[mode, nxt] != POINTS[mode, card]:
        return -1
    for j in range(len(done)):
        if done[j] == nxt:
            return j
    return -1


@njit(cache=True, inline="always")
def killer_slot(tricks_left: int, count: int, led: int) -> int:
    """Where the killer cards of a point of a trick are kept in ``ctx`` (``led``: the card led, if
    ``count`` > 0)."""
    return KILLERS + 2 * (16 * tricks_left + 4 * count + (led >> 3 if count else 0))


@njit(cache=True, inline="always")
def killers_to(place: int, moves: np.ndarray, n: int, ctx: np.ndarray, slot: int) -> None:
    """Move the two killer cards at ``ctx[slot:slot + 2]`` that are among ``moves[place:n]`` to
    ``place`` and after, most recent first."""
    for k in range(2):
        killer = ctx[slot + k]
        for i in range(place, n):
            if moves[i] == killer:
                for j in range(i, place, -1):
                    moves[j] = moves[j - 1]
                moves[place] = killer
                place += 1
                break


@njit(cache=True, inline="always")
def killed(slot: int, card: int, ctx: np.ndarray) -> None:
    """Record ``card`` as the latest killer at ``ctx[slot:slot + 2]``."""
    if ctx[slot] != card:
        ctx[slot + 1] = ctx[slot]
        ctx[slot] = card


@njit(cache=True, inline="always")
def _ordered(
    st: Stack,
    d: int,
    legal: int,
    start: int,
    place: int,
    hands: np.ndarray,
    trick: np.ndarray,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """Put the cards of ``legal`` worth searching in the node's moves from ``start`` on, ordered by
    :func:`order`, the killers at ``place`` and after; return how many moves the node then has."""
    n = start + order(
        legal,
        hands,
        st.remaining[d],
        trick,
        st.count[d],
        st.win[d],
        seat_side,
        st.leader[d],
        ctx[PLAYERS],
        ctx[MODE],
        st.moves[d, start:],
        ctx,
        scratch,
        st.left[d],
    )
    killers_to(place, st.moves[d], n, ctx, killer_slot(st.left[d], st.count[d], trick[0]))
    return n


@njit(cache=True, inline="always")
def first_moves(
    st: Stack,
    d: int,
    legal: int,
    tt_best: int,
    hands: np.ndarray,
    trick: np.ndarray,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    scratch: np.ndarray,
) -> tuple[int, int]:
    """Put in the node's moves the first cards it searches among ``legal``: the staged card alone
    (the table's card ``tt_best`` at a trick start, else the first killer where killers come first),
    if legal, else all of them ordered. Return how many, and the staged card (-1: none)."""
    count = st.count[d]
    first = tt_best if count == 0 else -1
    if first < 0 and (count == 0 or (count == 2 and ctx[PLAYERS] == 4)):
        first = ctx[killer_slot(st.left[d], count, trick[0])]
    if legal & (legal - 1) == 0:
        st.moves[d, 0] = lowest(legal)
        return 1, -1
    if first >= 0 and (legal >> first) & 1:
        st.moves[d, 0] = first
        return 1, first
    # At the first and third places of a trick the killers come first (there they beat the rules
    # and the trick simulation), elsewhere second.
    return _ordered(st, d, legal, 0, 0 if count % 2 == 0 else 1, hands, trick, seat_side, ctx, scratch), -1


@njit(cache=True, inline="always")
def rest_moves(
    st: Stack, d: int, hands: np.ndarray, trick: np.ndarray, seat_side: np.ndarray, ctx: np.ndarray, scratch: np.ndarray
) -> int:
    """The node's staged card did not cut off: order its other legal cards after it, but those
    equivalent to it; return how many moves the node then has."""
    first = st.staged[d]
    st.staged[d] = -1
    legal = st.legal[d] & ~equivalents(first, st.legal[d], st.remaining[d], trick, st.count[d], ctx[MODE])
    return _ordered(st, d, legal, 1, 1, hands, trick, seat_side, ctx, scratch)


@njit(cache=True, inline="always")
def order3(
    legal: int,
    in_play: int,
    mode: int,
    top: int,
    holds: bool,
    last: bool,
    leading: bool,
    first: int,
    second: int,
    third: int,
) -> tuple[int, int, int]:
    """The cards worth searching of a hand of at most three, best guesses first, as three keys
    (score × 64 + 63 − card, or ``NO_CARD``): scored as :func:`order` does below five tricks, raised
    for ``first``, ``second`` and ``third`` (the table's card, the killers), equivalent cards skipped."""
    k0 = k1 = k2 = NO_CARD
    i = 0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        if _equivalent_below(c, legal, in_play, mode):
            continue
        score = _rule_score(c, top, holds, last, leading, mode)
        if c == first:
            score += 1 << 22
        elif c == second:
            score += 1 << 21
        elif c == third:
            score += 1 << 20
        key = score * 64 + 63 - c
        if i == 0:
            k0 = key
        elif i == 1:
            k1 = key
        else:
            k2 = key
        i += 1
    if k0 < k1:
        k0, k1 = k1, k0
    if k1 < k2:
        k1, k2 = k2, k1
    if k0 < k1:
        k0, k1 = k1, k0
    return k0, k1, k2


guard(sys.modules[__name__], TABLES)
