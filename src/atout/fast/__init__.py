"""Compiled bitboard kernels (numba): legal cards, trick winners, card points, random rollouts.

The rules core (:mod:`atout.play`, :mod:`atout.tables`) is the reference; these kernels
compute the same things for the search layer, thousands of times faster, and the
differential tests hold them to it. Compiled code is cached on disk (``cache=True``):
the first call in a fresh install compiles (see docs/performance.md for the cost).

A *mode* is a row of the tables: 0..3 a trump suit, 4 sans atout, 5 tout atout (FFB
values), 6 tout atout (FunBelote values); :func:`mode_of` maps a strain and a ruleset.

>>> from atout.fast import mode_of, legal_mask, trick_winner, card_points
>>> from atout.cards import parse_hand, Card
>>> from atout.rules import Ruleset
>>> mode = mode_of(1, Ruleset.preset("coinche"))     # hearts trump
>>> hand = parse_hand("A7.9.K.8")
>>> led = int(Card.parse("KS"))
>>> legal_mask(hand, led, led, False, mode, True, False, False) == parse_hand("A7...")
True
>>> import numpy as np
>>> trick_winner(np.array([int(Card.parse(c)) for c in ("KS", "7H", "AS", "9S")], np.int64), 4, mode)
1
>>> card_points(parse_hand("JH 9H AS"), mode)
45
"""

from atout.fast.kernels import (
    ABOVE,
    POINTS,
    STRENGTH,
    TRUMP_MASK,
    card_points,
    legal_mask,
    mode_of,
    rollout,
    rollouts,
    trick_winner,
    warm_up,
)

__all__ = [
    "ABOVE",
    "POINTS",
    "STRENGTH",
    "TRUMP_MASK",
    "card_points",
    "legal_mask",
    "mode_of",
    "rollout",
    "rollouts",
    "trick_winner",
    "warm_up",
]
