"""The search's stack: for each node on the current line of play, indexed by depth, its position,
its window, its table entry and its moves.

numba caches no recursive function, so :func:`atout.solver.search.search` walks the tree with an
explicit stack: one NumPy record whose named fields are arrays indexed by depth (``st.alpha[d]``).
numba knows each field's offset and shape, so an access is one load or store, as with separate
arrays. (A named tuple of arrays reads as well, but numba counts the references to each of its
arrays at each access: the search ran three times slower.)
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from atout.solver.context import MAX_HAND

#: Deepest stack: every card of the largest deal, plus the root.
MAX_DEPTH = 40

Ints = npt.NDArray[np.int64]
#: 1 or 0 (numba has no arrays of booleans inside a record).
Flags = npt.NDArray[np.uint8]


class Stack(Protocol):
    """The fields of the stack, each an array indexed by depth. :data:`STACK` is made from them."""

    # The position: the trick's leader, its cards played and the index of the one holding it; the
    # tricks left; whether each side has won every trick so far; the cards in play and their points;
    # what side ``ctx[ME]`` gained by the card that led here.
    leader: Ints
    count: Ints
    win: Ints
    left: Ints
    capot0: Flags
    capot1: Flags
    remaining: Ints
    points: Ints
    gained: Ints
    # The window (alpha0, beta0: as the node's cards were first ordered), the best value and card.
    alpha: Ints
    beta: Ints
    alpha0: Ints
    beta0: Ints
    best: Ints
    best_card: Ints
    # A trick start's table entry: its slot (-1: nothing to store), key and meta.
    slot: Ints
    key: Ints
    meta: Ints
    # The player to move and his hand, his legal cards, the cards to search (``moves[d, :n[d]]``), the
    # next one's index, and the staged card (-1: none), tried alone before the others are ordered.
    seat: Ints
    hand: Ints
    legal: Ints
    n: Ints
    i: Ints
    staged: Ints
    moves: Ints
    # At the last player's node, if ``ahead_set``: for each legal card, the table key, meta and slot
    # of the trick start it leads to (computed for the prefetch, then read by that child).
    ahead_set: Flags
    ahead: Ints


_TYPES = {"Ints": np.int64, "Flags": np.uint8}
_SHAPES = {"moves": (MAX_DEPTH, MAX_HAND), "ahead": (MAX_DEPTH, 32, 3)}
#: The stack's record type: the fields of :class:`Stack`, of :data:`MAX_DEPTH` entries unless said.
STACK = np.dtype(
    [(name, _TYPES[kind], _SHAPES.get(name, (MAX_DEPTH,))) for name, kind in Stack.__annotations__.items()],
    align=True,
)
