"""The transposition table: keys of trick starts, probes, stores and prefetches.

An entry is two int64: the position's key (:func:`canonical`), then lower bound | upper bound << 16 |
best card << 32 | meta << 40, the meta being the leader, the capot flags, the side counted and the
deal's generation (:func:`place`). A best card of 255 means none.
"""

from __future__ import annotations

import sys

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from atout.fast.cache import guard
from atout.fast.kernels import POINTS, beats, lowest
from atout.solver.context import BY_STRENGTH, GENERATION, INF, ME, MODE, PLAYERS, TABLES, TT_BITS, seat
from atout.solver.stack import Stack


def _zero_runs() -> np.ndarray:
    """``[mode, suit]``: the suit's weakest cards worth no points (the 7, 8 and maybe 9), as a mask.
    (The short deck has no 7 or 8: its 9 then takes the 7's place in a key, which is harmless.)"""
    out = np.zeros((7, 4), np.int64)
    for mode in range(7):
        for suit in range(4):
            for c in BY_STRENGTH[mode, suit][::-1]:
                if POINTS[mode, c]:
                    break
                out[mode, suit] |= 1 << c
    return out


_ZERO_RUNS = _zero_runs()


@njit(cache=True)
def suit_keys(hands: np.ndarray, players: int, mode: int, keys: np.ndarray) -> None:
    """Fill ``keys`` (4 × 256) for :func:`canonical`: for each suit and each set of its cards in
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
def canonical(remaining: int, keys: np.ndarray) -> int:
    """The table key of the cards in play: in each suit, the pointless bottom cards still in play
    become the lowest ones (their order kept), and their holders' seats go in bits 32 and up.
    Positions of one deal that differ only there (a player kept his 9 rather than his 7, the 8
    between them gone) play alike, so they share an entry. Four lookups in ``keys``
    (:func:`suit_keys`), one a suit, each on its own bits, so that :func:`key_without` can
    change one suit's part alone."""
    return (
        keys[0, remaining & 0xFF]
        | keys[1, (remaining >> 8) & 0xFF]
        | keys[2, (remaining >> 16) & 0xFF]
        | keys[3, (remaining >> 24) & 0xFF]
    )


@njit(cache=True, inline="always")
def key_without(key: int, remaining: int, card: int, keys: np.ndarray) -> int:
    """The key of ``remaining`` less ``card`` from ``key``, that of ``remaining``: only its suit's
    part changes."""
    byte = (remaining >> (card & 24)) & 0xFF
    return key ^ keys[card >> 3, byte] ^ keys[card >> 3, byte & ~(1 << (card & 7))]


@njit(cache=True, inline="always")
def _index(key: int, meta: int, bits: int) -> int:
    """The table slot of a position (int64 arithmetic, wrapping on overflow). The key's high half
    (the holders of the pointless cards) is folded in first, as the product only carries bits up."""
    h = (key ^ (key >> 32) ^ (meta * 0x9E3779B1)) * 0x2545F4914F6CDD1D
    h ^= h >> 29
    return h & ((1 << bits) - 1)


@njit(cache=True, inline="always")
def place(key: int, leader: int, capot0: bool, capot1: bool, ctx: np.ndarray) -> tuple[int, int]:
    """A trick start's table meta (the leader, the capot flags, the side counted, the deal's
    generation) and slot, from its key (:func:`canonical`)."""
    meta = leader | (int(capot0) << 2) | (int(capot1) << 3) | (ctx[ME] << 4) | (ctx[GENERATION] << 8)
    return meta, _index(key, meta, ctx[TT_BITS])


@njit(cache=True, inline="always")
def probe(table: np.ndarray, slot: int, key: int, meta: int) -> tuple[bool, int, int, int]:
    """Whether the table holds the position, and its lower bound, upper bound and best card (0,
    ``INF`` and 255 if not)."""
    entry = table[slot, 1]
    if table[slot, 0] == key and (entry >> 40) == meta:
        return True, entry & 0xFFFF, (entry >> 16) & 0xFFFF, (entry >> 32) & 0xFF
    return False, 0, INF, 255


@njit(cache=True, inline="always")
def store(table: np.ndarray, slot: int, key: int, meta: int, lower: int, upper: int, card: int) -> None:
    """Write a position's entry."""
    table[slot, 0] = key
    table[slot, 1] = lower | (upper << 16) | (card << 32) | (meta << 40)


@njit(cache=True, inline="always")
def store_result(
    table: np.ndarray, slot: int, key: int, meta: int, best: int, alpha: int, beta: int, card: int
) -> None:
    """Merge into a position's entry what a search in the window (``alpha``, ``beta``) found: the
    value ``best`` (fail-soft) and its card."""
    _, lower, upper, move = probe(table, slot, key, meta)
    if best <= alpha:
        upper = best
    else:
        move = card
        lower = best
        if best < beta:
            upper = best
    store(table, slot, key, meta, lower, upper, move)


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


@njit(cache=True, inline="always")
def prefetch_trick_ends(
    st: Stack,
    d: int,
    legal: int,
    trick: np.ndarray,
    seat_side: np.ndarray,
    ctx: np.ndarray,
    table: np.ndarray,
    keys: np.ndarray,
) -> None:
    """At the last player's node, start loading the entries of the positions his ``legal`` cards
    end the trick in, and keep their keys, metas and slots for those positions' own probes
    (``st.ahead[d]``)."""
    players = ctx[PLAYERS]
    mode = ctx[MODE]
    remaining = st.remaining[d]
    capot0 = st.capot0[d] == 1
    capot1 = st.capot1[d] == 1
    base = canonical(remaining, keys)
    m = legal
    while m:
        card = lowest(m)
        m &= m - 1
        w = st.count[d] if beats(card, trick[st.win[d]], mode) else st.win[d]
        winner = seat(st.leader[d] + w, players)
        wside = seat_side[winner]
        key = key_without(base, remaining, card, keys)
        meta, slot = place(key, winner, capot0 and wside == 0, capot1 and wside == 1, ctx)
        st.ahead[d, card, 0] = key
        st.ahead[d, card, 1] = meta
        st.ahead[d, card, 2] = slot
        _prefetch(table, slot)  # type: ignore[call-arg]
    st.ahead_set[d] = True


@njit(cache=True, inline="always")
def trick_start_entry(st: Stack, d: int, ctx: np.ndarray, keys: np.ndarray) -> tuple[int, int, int]:
    """The key, meta and slot of the trick start at depth ``d`` of the stack ``st``: kept by the
    prefetch of the node before, else computed."""
    if d > 0 and st.ahead_set[d - 1]:
        ahead = st.ahead[d - 1, st.moves[d - 1, st.i[d - 1]]]
        return ahead[0], ahead[1], ahead[2]
    key = canonical(st.remaining[d], keys)
    meta, slot = place(key, st.leader[d], st.capot0[d] == 1, st.capot1[d] == 1, ctx)
    return key, meta, slot


guard(sys.modules[__name__], TABLES)
