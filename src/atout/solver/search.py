"""The double-dummy search: alpha-beta over single cards with a transposition table.

Values are the card points the side ``me`` takes from a node on: the cards of the
trick in progress, every later trick, and the last trick's bonus (10, or what
makes a capot worth ``capot_points`` when one side takes every trick of the deal).
Both sides' preferences agree with this one scalar (a side never prefers to give
the other more points), so the two sides play max and min on it.

Techniques: a transposition table at trick boundaries (key: the cards still in
play, each suit's pointless bottom cards renamed the lowest ones with their holders,
the leader, which sides have won every trick so far, ``me``; two bounds and the
best card), move ordering (the table's card first, then winning and point
heuristics), equivalent cards (touching cards of one suit in one hand, of equal
points, are searched once), bounds without search at each trick (sure top trumps,
and the masters the leader can cash at once), and zero-window searches for exact
values and thresholds. The general search keeps its nodes in arrays (an explicit
stack); the last three tricks (four players) and the last two are searched by nested
loops over scalars, which the compiler keeps in registers.
"""

from __future__ import annotations

import sys

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from atout.fast.cache import guard
from atout.fast.kernels import POINTS, STRENGTH, beats, legal_mask, lowest, popcount

#: Slots of the context array ``ctx`` shared by every call of one search.
PLAYERS, PARTNERS, OVER_PARTNER, UNDERTRUMP, MODE, CAPOT_BONUS, ME, GENERATION, TT_BITS, NODES = range(10)
#: ``ctx[NODE_LIMIT]`` > 0 stops a search once ``ctx[NODES]`` passes it, setting ``ctx[ABORTED]``;
#: what it returns then means nothing, but the table keeps only finished nodes, so it stays sound.
NODE_LIMIT, ABORTED = 10, 11
#: ``ctx[UNDER_PARTNER]``: the ruleset's ``undertrump_partner`` (1 or 0).
UNDER_PARTNER = 12
#: From ``ctx[KILLERS]``, two cards for each point of a trick (tricks left, place in the trick, suit
#: led): the last two that made a cut-off there (killer moves). See :func:`_killer_slot`.
KILLERS = 13
#: The largest hand a ruleset allows (``Ruleset.hand_size``), so the most cards a player may choose from.
MAX_HAND = 10
CTX_SIZE = KILLERS + 2 * 16 * (MAX_HAND + 1)
#: A table entry is two int64: the position's key, then lower bound | upper bound << 16 |
#: best card << 32 | leader, capot flags and side << 40 | generation << 48.
INF = 10_000
#: ``_SUITS[s]``: the mask of suit ``s``.
_SUITS = np.array([0xFF << (8 * s) for s in range(4)], np.int64)
#: For helpers that allocate nothing: without numba's reference counting, a call no longer costs an
#: atomic increment and decrement per array argument (they took 14% of a solve's time).
_helper = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # a numba option its stubs omit


@njit(cache=True, inline="always")
def _seat(k: int, players: int) -> int:
    """``k % players`` for ``0 <= k < 2 * players``, without the division (a costly instruction)."""
    return k - players if k >= players else k


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


@_helper
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
        seat = _seat(leader + j, players)
        side = seat_side[seat]
        partner_winning = ctx[PARTNERS] == 1 and j >= 2 and w == j - 2
        legal = legal_mask(
            hands[seat],
            led,
            top,
            partner_winning,
            mode,
            ctx[OVER_PARTNER] == 1,
            ctx[UNDERTRUMP] == 1,
            ctx[UNDER_PARTNER] == 1,
        )
        holds = seat_side[_seat(leader + w, players)] == side
        best = -1
        best_score = -(1 << 30)
        m = legal
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
    mover_side = seat_side[_seat(leader + count, players)]
    return points if seat_side[_seat(leader + w, players)] == mover_side else -points


@njit(cache=True, inline="always")
def _last_can_beat(hand: int, led: int, winning: int, mode: int, ctx: np.ndarray) -> bool:
    """Whether the last player of a four-player trick, holding ``hand``, has a legal card that
    beats ``winning``."""
    over, under, under_partner = ctx[OVER_PARTNER] == 1, ctx[UNDERTRUMP] == 1, ctx[UNDER_PARTNER] == 1
    m = legal_mask(hand, led, winning, False, mode, over, under, under_partner)
    while m:
        if beats(lowest(m), winning, mode):
            return True
        m &= m - 1
    return False


@_helper
def _order(
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
    seat = _seat(leader + count, players)
    holds = count > 0 and seat_side[_seat(leader + win, players)] == seat_side[seat]
    if holds and count == 2 and players == 4:  # the third player: will his partner's card hold?
        holds = not _last_can_beat(hands[(leader + 3) % 4], trick[0], trick[win], mode, ctx)
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


@_helper
def _equivalents(card: int, legal: int, remaining: int, trick: np.ndarray, count: int, mode: int) -> int:
    """The cards of ``legal`` equivalent to ``card`` (itself included): touching it in its suit, among
    the cards in play, through cards of ``legal`` all worth the same points."""
    in_play = remaining
    for i in range(count):
        in_play |= 1 << trick[i]
    top = _group_top(card, legal, in_play, mode)
    group = 0
    m = legal & _SUITS[card >> 3]
    while m:
        c = lowest(m)
        m &= m - 1
        if _group_top(c, legal, in_play, mode) == top:
            group |= 1 << c
    return group


@njit(cache=True, inline="always")
def _killer_slot(tricks_left: int, count: int, led: int) -> int:
    """Where the killer cards of a point of a trick are kept in ``ctx`` (``led``: the card led, if
    ``count`` > 0)."""
    return KILLERS + 2 * (16 * tricks_left + 4 * count + (led >> 3 if count else 0))


@njit(cache=True, inline="always")
def _killers_to(place: int, moves: np.ndarray, d: int, n: int, ctx: np.ndarray, slot: int) -> None:
    """Move the two killer cards at ``ctx[slot:slot + 2]`` that are among ``moves[d, place:n]`` to
    ``place`` and after, most recent first."""
    for k in range(2):
        killer = ctx[slot + k]
        for i in range(place, n):
            if moves[d, i] == killer:
                for j in range(i, place, -1):
                    moves[d, j] = moves[d, j - 1]
                moves[d, place] = killer
                place += 1
                break


@njit(cache=True, inline="always")
def _tt_index(key: int, meta: int, bits: int) -> int:
    """The table slot of a position (int64 arithmetic, wrapping on overflow). The key's high half
    (the holders of the pointless cards) is folded in first, as the product only carries bits up."""
    h = (key ^ (key >> 32) ^ (meta * 0x9E3779B1)) * 0x2545F4914F6CDD1D
    h ^= h >> 29
    return h & ((1 << bits) - 1)


@intrinsic
def _prefetch(typingctx, table, slot):  # type: ignore[no-untyped-def]
    """Start loading ``table[slot]`` into the processor's cache (LLVM's prefetch), so that a later
    probe does not wait for memory."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        entries = context.make_array(signature.args[0])(context, builder, args[0])
        address = builder.gep(entries.data, [builder.mul(args[1], ir.Constant(ir.IntType(64), 2))])
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        prefetch = builder.module.declare_intrinsic(
            "llvm.prefetch", [byte_ptr], ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        )
        read, keep, data = ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)
        builder.call(prefetch, [builder.bitcast(address, byte_ptr), read, keep, data])
        return context.get_dummy_value()

    return types.void(table, slot), codegen


def _strength_orders() -> np.ndarray:
    """For each mode and suit, the cards of the suit from strongest to weakest."""
    out = np.zeros((7, 4, 8), np.int64)
    for mode in range(7):
        for suit in range(4):
            cards = sorted(range(8 * suit, 8 * suit + 8), key=lambda c: -STRENGTH[mode, c])
            out[mode, suit] = cards
    return out


_BY_STRENGTH = _strength_orders()


def _zero_runs() -> np.ndarray:
    """``[mode, suit]``: the suit's weakest cards worth no points (the 7, 8 and maybe 9), as a mask.
    (The short deck has no 7 or 8: its 9 then takes the 7's place in a key, which is harmless.)"""
    out = np.zeros((7, 4), np.int64)
    for mode in range(7):
        for suit in range(4):
            for c in _BY_STRENGTH[mode, suit][::-1]:
                if POINTS[mode, c]:
                    break
                out[mode, suit] |= 1 << c
    return out


_ZERO_RUNS = _zero_runs()


@njit(cache=True)
def _suit_keys(hands: np.ndarray, players: int, mode: int, keys: np.ndarray) -> None:
    """Fill ``keys`` (4 × 256) for :func:`_canonical`: for each suit and each set of its cards in
    play (a byte), its part of the key: the cards (the pointless bottom ones, always the suit's
    two or three lowest ranks, renamed the lowest, their order kept) and, in the suit's six bits
    from bit 32 + 6 × suit, their holders' seats in ``hands`` (2 bits each, from the weakest)."""
    renamed = np.empty(8, np.int64)
    seats = np.empty(8, np.int64)
    for suit in range(4):
        run = _ZERO_RUNS[mode, suit] >> (8 * suit)
        for low in range(8):
            if low & ~run:
                continue
            seats[low] = 0
            bits = 0
            for rank in range(3):
                if (low >> rank) & 1:
                    for s in range(players):
                        if (hands[s] >> (8 * suit + rank)) & 1:
                            seats[low] |= s << bits
                    bits += 2
            renamed[low] = (1 << (bits // 2)) - 1
        for byte in range(256):
            low = byte & run
            keys[suit, byte] = (((byte & ~run) | renamed[low]) << (8 * suit)) | (seats[low] << (32 + 6 * suit))


@njit(cache=True, inline="always")
def _canonical(remaining: int, keys: np.ndarray) -> int:
    """The table key of the cards in play: in each suit, the pointless bottom cards still in play
    become the lowest ones (their order kept), and their holders' seats go in bits 32 and up.
    Positions of one deal that differ only there (a player kept his 9 rather than his 7, the 8
    between them gone) play alike, so they share an entry. Four lookups in ``keys``
    (:func:`_suit_keys`), one a suit, each on its own bits, so that :func:`_key_without` can
    change one suit's part alone."""
    return (
        keys[0, remaining & 0xFF]
        | keys[1, (remaining >> 8) & 0xFF]
        | keys[2, (remaining >> 16) & 0xFF]
        | keys[3, (remaining >> 24) & 0xFF]
    )


@njit(cache=True, inline="always")
def _key_without(key: int, remaining: int, card: int, keys: np.ndarray) -> int:
    """The key of ``remaining`` less ``card`` from ``key``, that of ``remaining``: only its suit's
    part changes."""
    byte = (remaining >> (card & 24)) & 0xFF
    return key ^ keys[card >> 3, byte] ^ keys[card >> 3, byte & ~(1 << (card & 7))]


@njit(cache=True, inline="always")
def _tt_place(key: int, leader: int, capot0: bool, capot1: bool, ctx: np.ndarray) -> tuple[int, int]:
    """A trick start's table meta (the leader, the capot flags, the side counted, the deal's
    generation) and slot, from its key (:func:`_canonical`)."""
    meta = leader | (int(capot0) << 2) | (int(capot1) << 3) | (ctx[ME] << 4) | (ctx[GENERATION] << 8)
    return meta, _tt_index(key, meta, ctx[TT_BITS])


@_helper
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
        c = _BY_STRENGTH[mode, mode, k]
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


@_helper
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


@_helper
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
            trumps |= popcount(hands[s] & _SUITS[mode]) << (4 * s)
    total = 0
    for step in range(4):
        suit = (mode + step) % 4 if mode < 4 else step
        mine = hands[leader] & _SUITS[suit]
        if mine == 0:
            continue
        limit = 8
        if mode < 4 and suit != mode:
            for s in range(players):
                exempt = s == leader or (players == 4 and seat_side[s] == side)
                if not exempt and (trumps >> (4 * s)) & 15:
                    limit = min(limit, popcount(hands[s] & _SUITS[suit]))
        k = 0
        for j in range(8):
            c = _BY_STRENGTH[mode, suit, j]
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
            held = hands[s] & _SUITS[suit]
            n = popcount(held)
            if (followed >> s) & 1:
                total += _cheapest(held, min(k, n), mode)
            if k > n:
                followed &= ~(1 << s)
            if suit == mode and k >= n:
                trumps &= ~(15 << (4 * s))
    return total


@njit(cache=True, inline="always")
def _last_trick(
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
        s = _seat(leader + k, players)
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


@_helper
def _last_two(
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
    s1 = _seat(leader + 1, players)
    s2 = _seat(s1 + 1, players)
    s3 = _seat(s2 + 1, players)
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
        m1 = legal_mask(h1, c0, c0, False, mode, over, under, under_partner)
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


#: An empty place in :func:`_order3`'s keys.
_NO_CARD = -(1 << 40)


@njit(cache=True, inline="always")
def _order3(
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
    (score × 64 + 63 − card, or ``_NO_CARD``): scored as :func:`_order` does below five tricks, raised
    for ``first``, ``second`` and ``third`` (the table's card, the killers), equivalent cards skipped."""
    k0 = k1 = k2 = _NO_CARD
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


@njit(cache=True, inline="always")
def _killed(slot: int, card: int, ctx: np.ndarray) -> None:
    """Record ``card`` as the latest killer at ``ctx[slot:slot + 2]``."""
    if ctx[slot] != card:
        ctx[slot + 1] = ctx[slot]
        ctx[slot] = card


@_helper
def _three_tricks(
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
    one nested loop per player over scalars (as :func:`_last_two`), the endings of two tricks valued
    from the table or by :func:`_last_two` and stored: it costs about half as much as the general
    search, which keeps every node in arrays."""
    mode = ctx[MODE]
    me = ctx[ME]
    over = ctx[OVER_PARTNER] == 1
    under = ctx[UNDERTRUMP] == 1
    under_partner = ctx[UNDER_PARTNER] == 1
    s1 = _seat(leader + 1, 4)
    s2 = _seat(leader + 2, 4)
    s3 = _seat(leader + 3, 4)
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
    key0 = _canonical(remaining, keys)
    lead_killers = _killer_slot(3, 0, 0)
    for k in _order3(h0, remaining, mode, -1, False, False, True, tt_best, ctx[lead_killers], ctx[lead_killers + 1]):
        if k == _NO_CARD or a0 >= b0:
            break
        c0 = 63 - (k & 63)
        nodes += 1
        key1 = _key_without(key0, remaining, c0, keys)
        rem1 = remaining & ~(1 << c0)
        best1 = INF if ours else -INF
        a1 = a0
        b1 = b0
        legal = legal_mask(h1, c0, c0, False, mode, over, under, under_partner)
        for k in _order3(legal, remaining, mode, c0, False, False, False, -1, -1, -1):
            if k == _NO_CARD or a1 >= b1:
                break
            c1 = 63 - (k & 63)
            nodes += 1
            key2 = _key_without(key1, rem1, c1, keys)
            rem2 = rem1 & ~(1 << c1)
            w1 = 1 if beats(c1, c0, mode) else 0
            top1 = c1 if w1 else c0
            best2 = -INF if ours else INF
            a2 = a1
            b2 = b1
            legal = legal_mask(h2, c0, top1, w1 == 0, mode, over, under, under_partner)
            holds = w1 == 0 and not _last_can_beat(h3, c0, top1, mode, ctx)
            third_killers = _killer_slot(3, 2, c0)
            for k in _order3(
                legal, remaining, mode, top1, holds, False, False, ctx[third_killers], ctx[third_killers + 1], -1
            ):
                if k == _NO_CARD or a2 >= b2:
                    break
                c2 = 63 - (k & 63)
                nodes += 1
                key3 = _key_without(key2, rem2, c2, keys)
                rem3 = rem2 & ~(1 << c2)
                w2 = 2 if beats(c2, top1, mode) else w1
                top2 = c2 if w2 == 2 else top1
                best3 = INF if ours else -INF
                a3 = a2
                b3 = b2
                legal = legal_mask(h3, c0, top2, w2 == 1, mode, over, under, under_partner)
                for k in _order3(legal, remaining, mode, top2, w2 == 1, True, False, -1, -1, -1):
                    if k == _NO_CARD or a3 >= b3:
                        break
                    c3 = 63 - (k & 63)
                    nodes += 1
                    winner = _seat(leader + (3 if beats(c3, top2, mode) else w2), 4)
                    wside = seat_side[winner]
                    trick = POINTS[mode, c0] + POINTS[mode, c1] + POINTS[mode, c2] + POINTS[mode, c3]
                    c0_after = capot0 and wside == 0
                    c1_after = capot1 and wside == 1
                    key = _key_without(key3, rem3, c3, keys)
                    meta, slot = _tt_place(key, winner, c0_after, c1_after, ctx)
                    entry = table[slot, 1]
                    if table[slot, 0] == key and (entry >> 40) == meta:
                        rest = entry & 0xFFFF  # two tricks left: stored exact
                    else:
                        hands[leader] = h0 & ~(1 << c0)
                        hands[s1] = h1 & ~(1 << c1)
                        hands[s2] = h2 & ~(1 << c2)
                        hands[s3] = h3 & ~(1 << c3)
                        rest = _last_two(hands, winner, c0_after, c1_after, seat_side, ctx, pts - trick)
                        hands[leader] = h0
                        hands[s1] = h1
                        hands[s2] = h2
                        hands[s3] = h3
                        table[slot, 0] = key
                        table[slot, 1] = rest | (rest << 16) | (255 << 32) | (meta << 40)
                    v = rest + (trick if wside == me else 0)
                    best3, a3, b3 = _minimax_step(v, best3, a3, b3, not ours)
                best2, a2, b2 = _minimax_step(best3, best2, a2, b2, ours)
                if a2 >= b2:
                    _killed(third_killers, c2, ctx)
            best1, a1, b1 = _minimax_step(best2, best1, a1, b1, not ours)
        before = best0
        best0, a0, b0 = _minimax_step(best1, best0, a0, b0, ours)
        if best0 != before or best_card < 0:
            best_card = c0
        if a0 >= b0:
            _killed(lead_killers, c0, ctx)
    return best0, best_card, nodes


@_helper
def _leader_sure(
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
        mask = _SUITS[suit]
        mine = hands[leader] & mask
        if mine == 0 or hands[partner] & mask == 0:
            continue
        top = -1
        for j in range(8):
            c = _BY_STRENGTH[mode, suit, j]
            if (held_by_all >> c) & 1:
                top = c
                break
        if not (hands[partner] >> top) & 1:
            continue
        entry = POINTS[mode, top] + _cheapest(mine, 1, mode)
        followed = everyone
        safe = True
        for s in range(4):
            if seat_side[s] == seat_side[leader]:
                continue
            held = hands[s] & mask
            if held:
                entry += _cheapest(held, 1, mode)
            elif mode < 4 and hands[s] & _SUITS[mode]:
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


_ENTER, _NEXT, _RETURN, _STORE = 0, 1, 2, 3
#: Deepest stack: every card of the largest deal, plus the root.
_MAX_DEPTH = 40


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
    ``win`` the index of the one holding it); deeper tricks use lower rows. The search
    is iterative (an explicit stack), as numba cannot cache recursive functions.
    """
    players = ctx[PLAYERS]
    mode = ctx[MODE]
    me = ctx[ME]
    capot_bonus = ctx[CAPOT_BONUS]
    # The stack, one entry per node on the current line of play.
    st_leader = np.empty(_MAX_DEPTH, np.int64)
    st_count = np.empty(_MAX_DEPTH, np.int64)
    st_win = np.empty(_MAX_DEPTH, np.int64)
    st_left = np.empty(_MAX_DEPTH, np.int64)
    st_c0 = np.empty(_MAX_DEPTH, np.bool_)
    st_c1 = np.empty(_MAX_DEPTH, np.bool_)
    st_alpha = np.empty(_MAX_DEPTH, np.int64)
    st_beta = np.empty(_MAX_DEPTH, np.int64)
    st_alpha0 = np.empty(_MAX_DEPTH, np.int64)
    st_beta0 = np.empty(_MAX_DEPTH, np.int64)
    st_best = np.empty(_MAX_DEPTH, np.int64)
    st_best_card = np.empty(_MAX_DEPTH, np.int64)
    st_slot = np.empty(_MAX_DEPTH, np.int64)
    st_key = np.empty(_MAX_DEPTH, np.int64)
    st_seat = np.empty(_MAX_DEPTH, np.int64)
    st_hand = np.empty(_MAX_DEPTH, np.int64)
    st_n = np.empty(_MAX_DEPTH, np.int64)
    st_i = np.empty(_MAX_DEPTH, np.int64)
    st_gained = np.empty(_MAX_DEPTH, np.int64)
    st_moves = np.empty((_MAX_DEPTH, MAX_HAND), np.int64)
    st_staged = np.empty(_MAX_DEPTH, np.int64)
    st_legal = np.empty(_MAX_DEPTH, np.int64)
    scratch = np.empty(MAX_HAND, np.int64)
    work = np.empty(4, np.int64)
    st_rem = np.empty(_MAX_DEPTH, np.int64)
    st_pts = np.empty(_MAX_DEPTH, np.int64)
    st_meta = np.empty(_MAX_DEPTH, np.int64)
    # At the last player's node: for each legal card, the table key, meta and slot of the trick start
    # it leads to (computed for the prefetch, then read by that child), if st_ahead_set.
    st_ahead = np.empty((_MAX_DEPTH, 32, 3), np.int64)
    st_ahead_set = np.zeros(_MAX_DEPTH, np.bool_)

    # Built here rather than passed in: the compiler then knows no store of the search touches it
    # (trick-1 time -8 %).
    keys = np.empty((4, 256), np.int64)
    _suit_keys(hands, players, mode, keys)
    d = 0
    st_leader[0] = leader
    st_count[0] = count
    st_win[0] = win
    st_left[0] = tricks_left
    st_c0[0] = capot0
    st_c1[0] = capot1
    st_alpha[0] = alpha
    st_beta[0] = beta
    st_gained[0] = 0
    rem = 0
    for s in range(players):
        rem |= hands[s]
    st_rem[0] = rem
    pts = 0
    while rem:
        c = lowest(rem)
        rem &= rem - 1
        pts += POINTS[mode, c]
    st_pts[0] = pts
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
                    hands[st_seat[k]] = st_hand[k]
                return 0
            lead = st_leader[d]
            cnt = st_count[d]
            left = st_left[d]
            a = st_alpha[d]
            b = st_beta[d]
            remaining = st_rem[d]
            st_slot[d] = -1
            st_ahead_set[d] = False
            tt_best = -1
            action = _NEXT
            if cnt == 0:
                if left == 0:
                    value = 0
                    action = _RETURN
                elif left == 1:
                    value = _last_trick(hands, lead, 0, st_c0[d], st_c1[d], seat_side, ctx)
                    action = _RETURN
                else:
                    if d > 0 and st_ahead_set[d - 1]:
                        ahead = st_ahead[d - 1, st_moves[d - 1, st_i[d - 1]]]
                        key, meta, slot = ahead[0], ahead[1], ahead[2]
                    else:
                        key = _canonical(remaining, keys)
                        meta, slot = _tt_place(key, lead, st_c0[d], st_c1[d], ctx)
                    st_slot[d] = slot
                    st_key[d] = key
                    st_meta[d] = meta
                    entry = table[slot, 1]
                    if table[slot, 0] == key and (entry >> 40) == meta:
                        lo = entry & 0xFFFF
                        hi = (entry >> 16) & 0xFFFF
                        tt_best = (entry >> 32) & 0xFF
                        if tt_best >= 32:
                            tt_best = -1
                        if lo >= b:
                            value = lo
                            action = _RETURN
                        elif hi <= a:
                            value = hi
                            action = _RETURN
                        else:
                            if lo > a:
                                a = lo
                            if hi < b:
                                b = hi
                            if a >= b:  # (only with a window wider than one point) the value is known
                                value = lo
                                action = _RETURN
                    if action == _NEXT and left == 2:
                        value = _last_two(hands, lead, st_c0[d], st_c1[d], seat_side, ctx, st_pts[d])
                        table[slot, 0] = key
                        table[slot, 1] = value | (value << 16) | (255 << 32) | (meta << 40)
                        st_slot[d] = -1
                        action = _RETURN
                    if action == _NEXT:
                        # Bounds without search: top trumps are sure to win their trick, and so are
                        # the masters the leader cashes at once; the rest and the bonus may go either way.
                        sure_me, sure_them = _sure_points(hands, players, seat_side, me, mode)
                        bonus = capot_bonus if (st_c0[d] if me == 0 else st_c1[d]) else 10
                        if seat_side[lead] == me:
                            sure_me = max(sure_me, _leader_sure(hands, lead, players, seat_side, mode, b, work))
                        else:
                            sure_them = max(
                                sure_them,
                                _leader_sure(hands, lead, players, seat_side, mode, st_pts[d] + bonus - a, work),
                            )
                        most = st_pts[d] - sure_them + bonus
                        if most <= a:
                            value = most
                            action = _RETURN
                            st_slot[d] = -1
                        elif sure_me >= b:
                            value = sure_me
                            action = _RETURN
                            st_slot[d] = -1
                        elif left == 3 and players == 4:
                            value, card, searched = _three_tricks(
                                hands,
                                lead,
                                st_c0[d],
                                st_c1[d],
                                a,
                                b,
                                tt_best,
                                remaining,
                                st_pts[d],
                                seat_side,
                                ctx,
                                table,
                                keys,
                            )
                            nodes += searched
                            # Finish as a node whose every card was tried: the result goes to the table.
                            st_best[d] = value
                            st_best_card[d] = card
                            st_alpha0[d] = a
                            st_beta0[d] = b
                            st_alpha[d] = a
                            st_beta[d] = b
                            st_n[d] = 0
                            st_i[d] = 0
                            st_staged[d] = -1
                            action = _STORE
            if action == _STORE:
                action = _NEXT
            elif action == _NEXT:
                trick = tricks[left]
                seat = _seat(lead + cnt, players)
                hand = hands[seat]
                if cnt == 0:
                    legal = hand
                else:
                    w = st_win[d]
                    partner_winning = ctx[PARTNERS] == 1 and cnt >= 2 and w == cnt - 2
                    legal = legal_mask(
                        hand,
                        trick[0],
                        trick[w],
                        partner_winning,
                        mode,
                        ctx[OVER_PARTNER] == 1,
                        ctx[UNDERTRUMP] == 1,
                        ctx[UNDER_PARTNER] == 1,
                    )
                moves = st_moves[d]
                if cnt == players - 1 and left >= 3 and ctx[TT_BITS] >= 16:
                    # The table outgrows the processor's cache: fetch the entries of the
                    # positions this trick can end in while the moves are ordered.
                    base = _canonical(remaining, keys)
                    m = legal
                    while m:
                        card = lowest(m)
                        m &= m - 1
                        w = cnt if beats(card, trick[st_win[d]], mode) else st_win[d]
                        winner = _seat(lead + w, players)
                        wside = seat_side[winner]
                        key = _key_without(base, remaining, card, keys)
                        meta, slot = _tt_place(key, winner, st_c0[d] and wside == 0, st_c1[d] and wside == 1, ctx)
                        st_ahead[d, card, 0] = key
                        st_ahead[d, card, 1] = meta
                        st_ahead[d, card, 2] = slot
                        _prefetch(table, slot)  # type: ignore[call-arg]
                    st_ahead_set[d] = True
                # Staged generation: the table's card, else the first killer where killers come first,
                # is tried alone; the others are ordered only if it does not cut off.
                first = tt_best if cnt == 0 else -1
                if first < 0 and (cnt == 0 or (cnt == 2 and players == 4)):
                    first = ctx[_killer_slot(left, cnt, trick[0])]
                if legal & (legal - 1) == 0:
                    moves[0] = lowest(legal)
                    n = 1
                    st_staged[d] = -1
                elif first >= 0 and (legal >> first) & 1:
                    moves[0] = first
                    n = 1
                    st_staged[d] = first
                else:
                    n = _order(
                        legal,
                        hands,
                        remaining,
                        trick,
                        cnt,
                        st_win[d],
                        seat_side,
                        lead,
                        players,
                        mode,
                        moves,
                        ctx,
                        scratch,
                        left,
                    )
                    # At the first and third places of a trick the killers come first (there they
                    # beat the rules and the trick simulation), elsewhere second.
                    _killers_to(0 if cnt % 2 == 0 else 1, st_moves, d, n, ctx, _killer_slot(left, cnt, trick[0]))
                    st_staged[d] = -1
                st_legal[d] = legal
                st_n[d] = n
                st_i[d] = 0
                st_seat[d] = seat
                st_hand[d] = hand
                st_alpha[d] = a
                st_beta[d] = b
                st_alpha0[d] = a
                st_beta0[d] = b
                st_best[d] = -INF if seat_side[seat] == me else INF
                st_best_card[d] = moves[0]
        if action == _NEXT:
            if st_i[d] == st_n[d] and st_staged[d] >= 0 and st_alpha[d] < st_beta[d]:
                first = st_staged[d]
                st_staged[d] = -1
                rest = st_moves[d, 1:]
                remaining = st_rem[d]
                trick = tricks[st_left[d]]
                legal = st_legal[d] & ~_equivalents(first, st_legal[d], remaining, trick, st_count[d], mode)
                k = _order(
                    legal,
                    hands,
                    remaining,
                    trick,
                    st_count[d],
                    st_win[d],
                    seat_side,
                    st_leader[d],
                    players,
                    mode,
                    rest,
                    ctx,
                    scratch,
                    st_left[d],
                )
                st_n[d] = 1 + k
                _killers_to(1, st_moves, d, st_n[d], ctx, _killer_slot(st_left[d], st_count[d], tricks[st_left[d], 0]))
            if st_i[d] < st_n[d] and st_alpha[d] < st_beta[d]:
                card = st_moves[d, st_i[d]]
                seat = st_seat[d]
                cnt = st_count[d]
                left = st_left[d]
                trick = tricks[left]
                hands[seat] = st_hand[d] & ~(1 << card)
                trick[cnt] = card
                w = st_win[d]
                if cnt > 0 and beats(card, trick[w], mode):
                    w = cnt
                if cnt + 1 == players:
                    winner = _seat(st_leader[d] + w, players)
                    wside = seat_side[winner]
                    points = 0
                    for k in range(players):
                        points += POINTS[mode, trick[k]]
                    c0 = st_c0[d] and wside == 0
                    c1 = st_c1[d] and wside == 1
                    if left == 1:
                        points += capot_bonus if (c0 or c1) else 10
                    gained = points if wside == me else 0
                    st_leader[d + 1] = winner
                    st_count[d + 1] = 0
                    st_win[d + 1] = 0
                    st_left[d + 1] = left - 1
                    st_c0[d + 1] = c0
                    st_c1[d + 1] = c1
                else:
                    gained = 0
                    st_leader[d + 1] = st_leader[d]
                    st_count[d + 1] = cnt + 1
                    st_win[d + 1] = w
                    st_left[d + 1] = left
                    st_c0[d + 1] = st_c0[d]
                    st_c1[d + 1] = st_c1[d]
                st_gained[d + 1] = gained
                st_rem[d + 1] = st_rem[d] & ~(1 << card)
                st_pts[d + 1] = st_pts[d] - POINTS[mode, card]
                st_alpha[d + 1] = st_alpha[d] - gained
                st_beta[d + 1] = st_beta[d] - gained
                d += 1
                action = _ENTER
                continue
            # Every move tried (or a cut-off): store the result at a trick boundary.
            best = st_best[d]
            slot = st_slot[d]
            if slot >= 0:
                key = st_key[d]
                meta = st_meta[d]
                entry = table[slot, 1]
                if table[slot, 0] == key and (entry >> 40) == meta:
                    lo = entry & 0xFFFF
                    hi = (entry >> 16) & 0xFFFF
                    move = (entry >> 32) & 0xFF
                else:
                    lo = 0
                    hi = INF
                    move = 255
                if best <= st_alpha0[d]:
                    hi = best
                else:
                    move = st_best_card[d]
                    lo = best
                    if best < st_beta0[d]:
                        hi = best
                table[slot, 0] = key
                table[slot, 1] = lo | (hi << 16) | (move << 32) | (meta << 40)
            value = best
            action = _RETURN
        if action == _RETURN:
            if d == 0:
                ctx[NODES] = nodes
                return value
            v = value + st_gained[d]
            d -= 1
            seat = st_seat[d]
            hands[seat] = st_hand[d]
            card = st_moves[d, st_i[d]]
            if seat_side[seat] == me:
                if v > st_best[d]:
                    st_best[d] = v
                    st_best_card[d] = card
                if v > st_alpha[d]:
                    st_alpha[d] = v
            else:
                if v < st_best[d]:
                    st_best[d] = v
                    st_best_card[d] = card
                if v < st_beta[d]:
                    st_beta[d] = v
            if st_alpha[d] >= st_beta[d]:
                killers = _killer_slot(st_left[d], st_count[d], tricks[st_left[d], 0])
                if ctx[killers] != card:
                    ctx[killers + 1] = ctx[killers]
                    ctx[killers] = card
            st_i[d] += 1
            action = _NEXT


@njit(cache=True)
def upper_bound(hands: np.ndarray, tricks: np.ndarray, count: int, tricks_left: int, ctx: np.ndarray) -> int:
    """More than any side can take from a node: every point in play and the largest bonus, plus one."""
    mode = ctx[MODE]
    upper = max(ctx[CAPOT_BONUS], 10) + 1
    for s in range(ctx[PLAYERS]):
        m = hands[s]
        while m:
            c = lowest(m)
            m &= m - 1
            upper += POINTS[mode, c]
    for i in range(count):
        upper += POINTS[mode, tricks[tricks_left, i]]
    return upper


@njit(cache=True)
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
        g = search(hands, leader, tricks, count, win, tricks_left, capot0, capot1, b - 1, b, seat_side, ctx, table)
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


@njit(cache=True)
def _equivalent_above(card: int, done: np.ndarray, in_play: int, mode: int) -> int:
    """Index in ``done`` of a card touching ``card`` from above (the next card still in play in its
    suit) and worth the same points, whose value is then the same (-1: none)."""
    nxt = _next_up_in(card, in_play, mode)
    if nxt < 0 or POINTS[mode, nxt] != POINTS[mode, card]:
        return -1
    for j in range(len(done)):
        if done[j] == nxt:
            return j
    return -1


@njit(cache=True)
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
) -> None:
    """The exact value, for the mover's side (``ctx[ME]``), of playing each of ``cards``.

    Each card's search starts at the best value found so far: a card worth as much is settled
    by one search, and the values of one position's cards lie close together."""
    players = ctx[PLAYERS]
    mode = ctx[MODE]
    me = ctx[ME]
    upper = upper_bound(hands, tricks, count, tricks_left, ctx)
    best = 0
    trick = tricks[tricks_left]
    seat = _seat(leader + count, players)
    hand = hands[seat]
    in_play = 0
    for s in range(players):
        in_play |= hands[s]
    for i in range(count):
        in_play |= 1 << trick[i]
    for i in range(len(cards)):
        card = cards[i]
        twin = _equivalent_above(card, cards[:i], in_play, mode)
        if twin >= 0:
            out[i] = out[twin]
            continue
        hands[seat] = hand & ~(1 << card)
        trick[count] = card
        w = win
        if count > 0 and beats(card, trick[w], mode):
            w = count
        if count + 1 == players:
            winner = _seat(leader + w, players)
            wside = seat_side[winner]
            points = 0
            for k in range(players):
                points += POINTS[mode, trick[k]]
            c0 = capot0 and wside == 0
            c1 = capot1 and wside == 1
            if tricks_left == 1:
                points += ctx[CAPOT_BONUS] if (c0 or c1) else 10
            gained = points if wside == me else 0
            rest = 0
            if tricks_left > 1:
                rest = exact(
                    hands,
                    winner,
                    tricks,
                    0,
                    0,
                    tricks_left - 1,
                    c0,
                    c1,
                    0,
                    upper - gained,
                    best - gained,
                    seat_side,
                    ctx,
                    table,
                )
            out[i] = gained + rest
        else:
            out[i] = exact(
                hands, leader, tricks, count + 1, w, tricks_left, capot0, capot1, 0, upper, best, seat_side, ctx, table
            )
        best = max(best, out[i])
        hands[seat] = hand
        if ctx[ABORTED]:
            return


guard(sys.modules[__name__], (POINTS, STRENGTH, _SUITS, _NEXT_UP, _BY_STRENGTH, _ZERO_RUNS))
