"""What every part of the search shares: the slots of the context array ``ctx`` (the ruleset, the
query, the counters and the killer cards of one search), seats around the table, card tables, and
the compile options of the helpers."""

from __future__ import annotations

import sys
from typing import cast

import numpy as np
from numba import njit

from atout.fast.cache import guard
from atout.fast.kernels import ABOVE, POINTS, STRENGTH, TRUMP_MASK, legal_mask

#: The rules core's tables, which the compiled code bakes in (the solver's own are built from them):
#: each solver module stamps numba's cache with them (:func:`atout.fast.cache.guard`).
TABLES = (POINTS, STRENGTH, ABOVE, TRUMP_MASK)
#: Slots of the context array ``ctx`` shared by every call of one search.
PLAYERS, PARTNERS, OVER_PARTNER, UNDERTRUMP, MODE, CAPOT_BONUS, ME, GENERATION, TT_BITS, NODES = range(10)
#: ``ctx[NODE_LIMIT]`` > 0 stops a search once ``ctx[NODES]`` passes it, setting ``ctx[ABORTED]``;
#: what it returns then means nothing, but the table keeps only finished nodes, so it stays sound.
NODE_LIMIT, ABORTED = 10, 11
#: ``ctx[UNDER_PARTNER]``: the ruleset's ``undertrump_partner`` (1 or 0).
UNDER_PARTNER = 12
#: From ``ctx[KILLERS]``, two cards for each point of a trick (tricks left, place in the trick, suit
#: led): the last two that made a cut-off there (killer moves). See :func:`atout.solver.ordering.killer_slot`.
KILLERS = 13
#: The largest hand a ruleset allows (``Ruleset.hand_size``), so the most cards a player may choose from.
MAX_HAND = 10
CTX_SIZE = KILLERS + 2 * 16 * (MAX_HAND + 1)
#: More than any value: the best value of a node before its first card.
INF = 10_000
#: ``False``, ``1`` and ``0`` for the arguments of compiled calls (and the first value of a variable
#: passed to one): numba compiles a function once more for each literal constant it is called with
#: (``legal_mask(..., False, ...)`` beside ``legal_mask(..., partner_winning, ...)``), and it types a
#: NumPy scalar as any variable of its type. (``cast``: for mypy, which knows them as ``bool`` and ``int``.)
NO = cast(bool, np.bool_(False))
ONE = cast(int, np.int64(1))
ZERO = cast(int, np.int64(0))
#: ``SUITS[s]``: the mask of suit ``s``.
SUITS = np.array([0xFF << (8 * s) for s in range(4)], np.int64)


def _strength_orders() -> np.ndarray:
    """For each mode and suit, the cards of the suit from strongest to weakest."""
    out = np.zeros((7, 4, 8), np.int64)
    for mode in range(7):
        for suit in range(4):
            out[mode, suit] = sorted(range(8 * suit, 8 * suit + 8), key=lambda c: -STRENGTH[mode, c])
    return out


#: ``BY_STRENGTH[mode, suit]``: the cards of the suit, strongest first.
BY_STRENGTH = _strength_orders()

#: For helpers that allocate nothing: without numba's reference counting, a call no longer costs an
#: atomic increment and decrement per array argument (they took 14% of a solve's time).
helper = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # a numba option its stubs omit


@njit(cache=True, inline="always")
def seat(k: int, players: int) -> int:
    """``k % players`` for ``0 <= k < 2 * players``, without the division (a costly instruction)."""
    return k - players if k >= players else k


@njit(cache=True, inline="always")
def legal_cards(hand: int, led: int, top: int, partner_winning: bool, mode: int, ctx: np.ndarray) -> int:
    """The cards of ``hand`` a player may play to a trick led with ``led``, held by ``top``, under
    the ruleset's options in ``ctx``."""
    over, under, under_partner = ctx[OVER_PARTNER] == 1, ctx[UNDERTRUMP] == 1, ctx[UNDER_PARTNER] == 1
    return legal_mask(hand, led, top, partner_winning, mode, over, under, under_partner)


guard(sys.modules[__name__], TABLES)
