"""The double-dummy search: alpha-beta over single cards with a transposition table.

Values are the card points the side ``me`` takes from a node on: the cards of the
trick in progress, every later trick, and the last trick's bonus (10, or what
makes a capot worth ``capot_points`` when one side takes every trick of the deal).
Both sides' preferences agree with this one scalar (a side never prefers to give
the other more points), so the two sides play max and min on it.

:func:`search` walks the tree with an explicit stack (:mod:`atout.solver.stack`), as numba caches no
recursive function. A trick start is first settled, if it can be, by the transposition table
(:mod:`atout.solver.table`), by bounds without search (:mod:`atout.solver.bounds`), or near the end
by the nested loops of :mod:`atout.solver.endgames`; otherwise its cards are searched in the order
:mod:`atout.solver.ordering` gives. :func:`exact` finds a value by zero-window searches, and
:func:`solve_moves` the value of each card of the player to move. The solver calls :func:`run`, one
compiled function for all three, with scratch arrays it keeps (:func:`buffers`).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from atout.fast.cache import guard
from atout.fast.kernels import POINTS, beats, card_points
from atout.solver.bounds import quick_bounds, upper_bound
from atout.solver.context import (
    ABORTED,
    CAPOT_BONUS,
    INF,
    MAX_HAND,
    ME,
    MODE,
    NODE_LIMIT,
    NODES,
    PARTNERS,
    PLAYERS,
    TABLES,
    TT_BITS,
    ZERO,
    helper,
    legal_cards,
    seat,
)
from atout.solver.endgames import last_trick, last_two, three_tricks
from atout.solver.ordering import equivalent_above, first_moves, killed, killer_slot, rest_moves
from atout.solver.stack import STACK, Stack
from atout.solver.table import (
    prefetch_trick_ends,
    probe,
    store,
    store_result,
    suit_keys,
    trick_start_entry,
)

#: What the search's loop does next at the node on top of the stack: enter it, set up its cards,
#: search its next card, store its result once its cards are done, or return its value to its parent.
_ENTER, _MOVES, _NEXT, _DONE, _RETURN = range(5)


@njit(cache=True, inline="always")
def _trick_start(
    st: Stack,
    d: int,
    hands: np.ndarray,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    keys: np.ndarray,
    work: np.ndarray,
) -> tuple[int, int, int, int, int, int]:
    """Settle the trick start at depth ``d`` without searching its cards, if it can be: by the last
    trick, the table, the last two tricks, the bounds or the last three tricks. Return what to do
    next (``_RETURN`` with its value; ``_DONE`` once :func:`three_tricks` has searched it; else
    ``_MOVES``), its window narrowed by the table, the table's card, and the nodes searched."""
    lead = st.leader[d]
    left = st.left[d]
    capot0 = st.capot0[d] == 1
    capot1 = st.capot1[d] == 1
    a = st.alpha[d]
    b = st.beta[d]
    if left <= 1:
        value = last_trick(hands, lead, 0, capot0, capot1, seat_side, ctx) if left else 0
        return _RETURN, value, a, b, -1, 0
    key, meta, slot = trick_start_entry(st, d, ctx, keys)
    tt_best = -1
    hit, lower, upper, move = probe(table, slot, key, meta)
    if hit:
        tt_best = move if move < 32 else -1
        if lower >= b:
            return _RETURN, lower, a, b, tt_best, 0
        if upper <= a:
            return _RETURN, upper, a, b, tt_best, 0
        a = max(a, lower)
        b = min(b, upper)
        if a >= b:  # (only with a window wider than one point) the value is known
            return _RETURN, lower, a, b, tt_best, 0
    if left == 2:
        value = last_two(hands, lead, capot0, capot1, seat_side, ctx, st.points[d])
        store(table, slot, key, meta, value, value, 255)
        return _RETURN, value, a, b, tt_best, 0
    players = ctx[PLAYERS]
    me = ctx[ME]
    bonus = ctx[CAPOT_BONUS] if (capot0 if me == 0 else capot1) else 10
    least, most = quick_bounds(hands, lead, a, b, st.points[d], bonus, me, seat_side, players, ctx[MODE], work)
    if most <= a:
        return _RETURN, most, a, b, tt_best, 0
    if least >= b:
        return _RETURN, least, a, b, tt_best, 0
    st.slot[d] = slot
    st.key[d] = key
    st.meta[d] = meta
    if left == 3 and players == 4:
        value, card, searched = three_tricks(
            hands,
            lead,
            capot0,
            capot1,
            a,
            b,
            tt_best,
            st.remaining[d],
            st.points[d],
            seat_side,
            ctx,
            table,
            keys,
        )
        st.best[d] = value
        st.best_card[d] = card
        st.alpha0[d] = a
        st.beta0[d] = b
        return _DONE, value, a, b, tt_best, searched
    return _MOVES, 0, a, b, tt_best, 0


@njit(cache=True, inline="always")
def _open(
    st: Stack,
    d: int,
    alpha: int,
    beta: int,
    tt_best: int,
    hands: np.ndarray,
    tricks: np.ndarray,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    keys: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """Set up a node to search its cards in the window (``alpha``, ``beta``): the player to move, his
    legal cards, the first of them to search (:func:`first_moves`)."""
    players = ctx[PLAYERS]
    count = st.count[d]
    left = st.left[d]
    trick = tricks[left]
    mover = seat(st.leader[d] + count, players)
    hand = hands[mover]
    if count == 0:
        legal = hand
    else:
        w = st.win[d]
        partner_winning = ctx[PARTNERS] == 1 and count >= 2 and w == count - 2
        legal = legal_cards(hand, trick[0], trick[w], partner_winning, ctx[MODE], ctx)
    if count == players - 1 and left >= 3 and ctx[TT_BITS] >= 16:
        # The table outgrows the processor's cache: fetch the entries of the positions this trick
        # can end in while the moves are ordered.
        prefetch_trick_ends(st, d, legal, trick, seat_side, ctx, table, keys)
    n, staged = first_moves(st, d, legal, tt_best, hands, trick, seat_side, ctx, scratch)
    st.n[d] = n
    st.staged[d] = staged
    st.legal[d] = legal
    st.i[d] = 0
    st.seat[d] = mover
    st.hand[d] = hand
    st.alpha[d] = alpha
    st.beta[d] = beta
    st.alpha0[d] = alpha
    st.beta0[d] = beta
    st.best[d] = -INF if seat_side[mover] == ctx[ME] else INF
    st.best_card[d] = st.moves[d, 0]


@njit(cache=True, inline="always")
def _play(
    card: int,
    hands: np.ndarray,
    mover: int,
    hand: int,
    trick: np.ndarray,
    leader: int,
    count: int,
    win: int,
    tricks_left: int,
    capot0: bool,
    capot1: bool,
    seat_side: np.ndarray,
    players: int,
    mode: int,
    me: int,
    capot_bonus: int,
) -> tuple[int, int, int, int, bool, bool, int]:
    """Play ``card`` from ``hand``, the mover's, to ``trick``. Return the next node's leader, cards in
    the trick, index of the one holding it, tricks left and capot flags, and the points side ``me``
    gains (those of the trick, if the card ends it)."""
    hands[mover] = hand & ~(1 << card)
    trick[count] = card
    w = count if count > 0 and beats(card, trick[win], mode) else win
    if count + 1 < players:
        return leader, count + 1, w, tricks_left, capot0, capot1, 0
    winner = seat(leader + w, players)
    wside = seat_side[winner]
    points = 0
    for k in range(players):
        points += POINTS[mode, trick[k]]
    capot0 = capot0 and wside == 0
    capot1 = capot1 and wside == 1
    if tricks_left == 1:
        points += capot_bonus if (capot0 or capot1) else 10
    return winner, 0, 0, tricks_left - 1, capot0, capot1, points if wside == me else 0


@njit(cache=True, inline="always")
def _push(
    st: Stack,
    d: int,
    hands: np.ndarray,
    tricks: np.ndarray,
    seat_side: np.ndarray,
    players: int,
    mode: int,
    me: int,
    capot_bonus: int,
) -> None:
    """Play node ``d``'s next card, and set up the node it leads to at ``d + 1``."""
    card = st.moves[d, st.i[d]]
    left = st.left[d]
    leader, count, win, left, capot0, capot1, gained = _play(
        card,
        hands,
        st.seat[d],
        st.hand[d],
        tricks[left],
        st.leader[d],
        st.count[d],
        st.win[d],
        left,
        st.capot0[d] == 1,
        st.capot1[d] == 1,
        seat_side,
        players,
        mode,
        me,
        capot_bonus,
    )
    child = d + 1
    st.leader[child] = leader
    st.count[child] = count
    st.win[child] = win
    st.left[child] = left
    st.capot0[child] = capot0
    st.capot1[child] = capot1
    st.gained[child] = gained
    st.remaining[child] = st.remaining[d] & ~(1 << card)
    st.points[child] = st.points[d] - POINTS[mode, card]
    st.alpha[child] = st.alpha[d] - gained
    st.beta[child] = st.beta[d] - gained


@njit(cache=True, inline="always")
def _start(
    hands: np.ndarray,
    leader: int,
    tricks: np.ndarray,
    count: int,
    win: int,
    tricks_left: int,
    capot0: bool,
    capot1: bool,
    alpha: int,
    beta: int,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    stack: np.ndarray,
    keys: np.ndarray,
    scratch: np.ndarray,
    work: np.ndarray,
) -> int:
    """:func:`search` in the scratch arrays of :func:`buffers`: the root node, the table's keys, then
    :func:`_search`."""
    players = ctx[PLAYERS]
    mode = ctx[MODE]
    st = stack[0]
    st.leader[0] = leader
    st.count[0] = count
    st.win[0] = win
    st.left[0] = tricks_left
    st.capot0[0] = capot0
    st.capot1[0] = capot1
    st.alpha[0] = alpha
    st.beta[0] = beta
    st.gained[0] = 0
    remaining = ZERO
    for s in range(players):
        remaining |= hands[s]
    st.remaining[0] = remaining
    st.points[0] = card_points(remaining, mode)
    suit_keys(hands, players, mode, keys)
    return _search(stack, hands, tricks, seat_side, ctx, table, keys, scratch, work)


@njit(cache=True)
def search(
    hands: np.ndarray,
    leader: int,
    tricks: np.ndarray,
    count: int,
    win: int,
    tricks_left: int,
    capot0: bool,
    capot1: bool,
    alpha: int,
    beta: int,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
) -> int:
    """Points side ``ctx[ME]`` takes from this node, searched in the window (alpha, beta) (fail-soft).

    ``tricks[tricks_left]`` holds the cards of the trick in progress (``count`` of them,
    ``win`` the index of the one holding it); deeper tricks use lower rows. (The solver asks
    :func:`run`, which does the same in arrays it keeps.)
    """
    stack = np.empty(1, STACK)
    keys = np.empty((4, 256), np.int64)
    scratch = np.empty(MAX_HAND, np.int64)
    work = np.empty(4, np.int64)
    return _start(
        hands,
        leader,
        tricks,
        count,
        win,
        tricks_left,
        capot0,
        capot1,
        alpha,
        beta,
        seat_side,
        ctx,
        table,
        stack,
        keys,
        scratch,
        work,
    )


@helper
def _search(
    stack: np.ndarray,
    hands: np.ndarray,
    tricks: np.ndarray,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    keys: np.ndarray,
    scratch: np.ndarray,
    work: np.ndarray,
) -> int:
    """:func:`search` from the root, the first node of the stack ``stack[0]``, with the table's keys
    (:func:`suit_keys`) and scratch space. Compiled without reference counting: it would cost an
    atomic operation each time a helper inlined here takes an array."""
    players = ctx[PLAYERS]
    mode = ctx[MODE]
    me = ctx[ME]
    capot_bonus = ctx[CAPOT_BONUS]
    st = stack[0]
    d = 0
    action = _ENTER
    value = 0
    # Counted in a local, written back on return: a store to ctx at each node cost 4 %.
    nodes = ctx[NODES]
    limit = ctx[NODE_LIMIT] if ctx[NODE_LIMIT] > 0 else (1 << 62)
    while True:
        if action == _ENTER:
            nodes += 1
            if nodes > limit:
                ctx[NODES] = nodes
                ctx[ABORTED] = 1
                for k in range(d - 1, -1, -1):  # give back the cards taken on the way down
                    hands[st.seat[k]] = st.hand[k]
                return 0
            st.slot[d] = -1
            st.ahead_set[d] = False
            if st.count[d] == 0:
                action, value, a, b, tt_best, searched = _trick_start(st, d, hands, seat_side, ctx, table, keys, work)
                nodes += searched
            else:
                action, a, b, tt_best = _MOVES, st.alpha[d], st.beta[d], -1
            if action == _MOVES:
                _open(st, d, a, b, tt_best, hands, tricks, seat_side, ctx, table, keys, scratch)
                action = _NEXT
        if action == _NEXT:
            if st.i[d] == st.n[d] and st.staged[d] >= 0 and st.alpha[d] < st.beta[d]:
                st.n[d] = rest_moves(st, d, hands, tricks[st.left[d]], seat_side, ctx, scratch)
            if st.i[d] < st.n[d] and st.alpha[d] < st.beta[d]:
                _push(st, d, hands, tricks, seat_side, players, mode, me, capot_bonus)
                d += 1
                action = _ENTER
                continue
            action = _DONE
        if action == _DONE:  # every card tried, or a cut-off: the result goes to the table
            if st.slot[d] >= 0:
                store_result(
                    table, st.slot[d], st.key[d], st.meta[d], st.best[d], st.alpha0[d], st.beta0[d], st.best_card[d]
                )
            value = st.best[d]
            action = _RETURN
        if action == _RETURN:
            if d == 0:
                ctx[NODES] = nodes
                return value
            v = value + st.gained[d]
            d -= 1
            hands[st.seat[d]] = st.hand[d]
            card = st.moves[d, st.i[d]]
            if seat_side[st.seat[d]] == me:
                if v > st.best[d]:
                    st.best[d] = v
                    st.best_card[d] = card
                if v > st.alpha[d]:
                    st.alpha[d] = v
            else:
                if v < st.best[d]:
                    st.best[d] = v
                    st.best_card[d] = card
                if v < st.beta[d]:
                    st.beta[d] = v
            if st.alpha[d] >= st.beta[d]:
                killed(killer_slot(st.left[d], st.count[d], tricks[st.left[d], 0]), card, ctx)
            st.i[d] += 1
            action = _NEXT


@njit(cache=True, inline="always")
def exact(
    hands: np.ndarray,
    leader: int,
    tricks: np.ndarray,
    count: int,
    win: int,
    tricks_left: int,
    capot0: bool,
    capot1: bool,
    lower: int,
    upper: int,
    probe: int,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    stack: np.ndarray,
    keys: np.ndarray,
    scratch: np.ndarray,
    work: np.ndarray,
) -> int:
    """The exact value of a node known to lie in [lower, upper), by zero-window searches, the
    first at ``probe``. After a fail-high the next one gallops up from the bound found (2, 4, 8...
    points, as values usually lie near the probe; plain MTD(f) would climb one point per search,
    as a fail-high seldom returns more than it was asked) but never past the middle of what is
    left. After a fail-low it tests the new upper bound itself: proving "at least b" for a b
    below the value costs about twice as much as proving "less than b" above it, so the value is
    best approached from above."""
    b = min(max(probe, lower + 1), upper - 1)
    step = 2
    while lower + 1 < upper:
        g = _start(
            hands,
            leader,
            tricks,
            count,
            win,
            tricks_left,
            capot0,
            capot1,
            b - 1,
            b,
            seat_side,
            ctx,
            table,
            stack,
            keys,
            scratch,
            work,
        )
        if ctx[ABORTED]:
            return lower
        if g >= b:
            lower = g
            b = min(lower + step, (lower + upper + 1) // 2)
            step *= 2
        else:
            upper = g + 1
            b = upper - 1
        b = min(max(b, lower + 1), upper - 1)
    return lower


@njit(cache=True, inline="always")
def solve_moves(
    hands: np.ndarray,
    leader: int,
    tricks: np.ndarray,
    count: int,
    win: int,
    tricks_left: int,
    capot0: bool,
    capot1: bool,
    cards: np.ndarray,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    out: np.ndarray,
    stack: np.ndarray,
    keys: np.ndarray,
    scratch: np.ndarray,
    work: np.ndarray,
) -> None:
    """The exact value, for the mover's side (``ctx[ME]``), of playing each of ``cards``.

    Each card's search starts at the best value found so far: a card worth as much is settled
    by one search, and the values of one position's cards lie close together."""
    players = ctx[PLAYERS]
    mode = ctx[MODE]
    upper = upper_bound(hands, tricks, count, tricks_left, ctx)
    best = 0
    trick = tricks[tricks_left]
    mover = seat(leader + count, players)
    hand = hands[mover]
    in_play = ZERO
    for s in range(players):
        in_play |= hands[s]
    for i in range(count):
        in_play |= 1 << trick[i]
    for i in range(len(cards)):
        card = cards[i]
        twin = equivalent_above(card, cards[:i], in_play, mode)
        if twin >= 0:
            out[i] = out[twin]
            continue
        lead, cnt, w, left, c0, c1, gained = _play(
            card,
            hands,
            mover,
            hand,
            trick,
            leader,
            count,
            win,
            tricks_left,
            capot0,
            capot1,
            seat_side,
            players,
            mode,
            ctx[ME],
            ctx[CAPOT_BONUS],
        )
        rest = 0
        if left > 0:
            rest = exact(
                hands,
                lead,
                tricks,
                cnt,
                w,
                left,
                c0,
                c1,
                0,
                upper - gained,
                best - gained,
                seat_side,
                ctx,
                table,
                stack,
                keys,
                scratch,
                work,
            )
        out[i] = gained + rest
        best = max(best, out[i])
        hands[mover] = hand
        if ctx[ABORTED]:
            return


#: What :func:`run` computes: the value of each of the root's cards (:func:`solve_moves`), the node's
#: exact value (:func:`exact`), or a search in a window (:func:`search`).
SOLVE, EXACT, WINDOW = range(3)


def buffers() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The scratch arrays :func:`run` searches in: the stack, the table's keys, and two scratch arrays."""
    return np.zeros(1, STACK), np.zeros((4, 256), np.int64), np.zeros(MAX_HAND, np.int64), np.zeros(4, np.int64)


@njit(cache=True)
def run(
    op: int,
    hands: np.ndarray,
    leader: int,
    tricks: np.ndarray,
    count: int,
    win: int,
    tricks_left: int,
    capot0: bool,
    capot1: bool,
    lower: int,
    upper: int,
    probe: int,
    cards: np.ndarray,
    out: np.ndarray,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    stack: np.ndarray,
    keys: np.ndarray,
    scratch: np.ndarray,
    work: np.ndarray,
) -> int:
    """Every query of the solver, in the one function it calls: ``op`` ``SOLVE``, the value of each
    of ``cards`` into ``out`` (:func:`solve_moves`); ``EXACT``, the node's exact value, known to lie in
    [lower, upper), the first probe at ``probe`` (:func:`exact`); ``WINDOW``, the node searched in the
    window (lower, upper) (:func:`search`). ``stack`` to ``work``: :func:`buffers`.

    One function, because numba compiles into each compiled caller of :func:`_search` the whole search
    again (about a second each): solving, valuing and searching each in its own function, one calling
    the other, compiled it four times after an install (docs/performance.md)."""
    if op == SOLVE:
        solve_moves(
            hands,
            leader,
            tricks,
            count,
            win,
            tricks_left,
            capot0,
            capot1,
            cards,
            seat_side,
            ctx,
            table,
            out,
            stack,
            keys,
            scratch,
            work,
        )
        return 0
    if op == EXACT:
        return exact(
            hands,
            leader,
            tricks,
            count,
            win,
            tricks_left,
            capot0,
            capot1,
            lower,
            upper,
            probe,
            seat_side,
            ctx,
            table,
            stack,
            keys,
            scratch,
            work,
        )
    return _start(
        hands,
        leader,
        tricks,
        count,
        win,
        tricks_left,
        capot0,
        capot1,
        lower,
        upper,
        seat_side,
        ctx,
        table,
        stack,
        keys,
        scratch,
        work,
    )


guard(sys.modules[__name__], TABLES)
