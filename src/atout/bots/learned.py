"""A learned judgement of a hand in the auction: what the seat's side makes double dummy in a suit.

:class:`BidModel` reads a seat's hand and the calls so far (:func:`features`) and gives, for a suit as
trumps, the mean and spread of the card points its side takes with best play (the opening leader
being the seat after the dealer, as in the corpus it learned from: :mod:`atout.envs.corpus`). It is a
small network trained by :mod:`atout.learn.bidding` and shipped as NumPy arrays
(``atout/bots/models/<name>.npz``): using it needs NumPy alone. The expert's calls use it with
``bid_model`` in a bot spec (:mod:`atout.bots.search`).

>>> from atout import Deal, Ruleset
>>> model = BidModel.load("contree-colver")
>>> deal = Deal.new(Ruleset.preset("contree-colver"), dealer=0, seed=2)
>>> mean, spread = model.predict(deal.observation(1), 0)
>>> 0 <= mean <= 162 and spread > 0
True
"""

from __future__ import annotations

import math
import zipfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from atout.actions import Action, Bid, Coinche, Pass
from atout.bots.heuristic import contract_estimate
from atout.errors import AtoutError, excerpt
from atout.i18n import Message
from atout.observation import Observation

#: The version of :func:`features`: a model records the one it was trained with.
FEATURES_VERSION = 1
#: Bid values and card points are scaled by these.
VALUE_SCALE = 160.0
POINTS_SCALE = 162.0
MODELS = Path(__file__).parent / "models"
#: The smallest spread a judgement gives (card points).
MIN_SPREAD = 5.0
_NORMAL = NormalDist()
#: A normal's standard deviation over its mean absolute deviation.
_ERROR_TO_SPREAD = (math.pi / 2) ** 0.5
Floats = npt.NDArray[np.float64]


def _byte(hand: int, suit: int) -> int:
    return hand >> (8 * suit) & 255


def features(hand: int, seat: int, dealer: int, calls: Sequence[tuple[int, Action]], strain: int) -> list[float]:
    """The network's inputs for ``seat`` (four players) judging ``strain`` (a suit) as trumps: its trumps
    card by card and their number, the three other suits (longest first) card by card with their
    length, its place after the dealer, the club player's estimate of the hand, and for each seat from
    itself (then its left, its partner, its right) its highest bid in the suit and in the other suits,
    its passes and whether it coinched, with the highest bid so far and whether its side made it."""
    trump = _byte(hand, strain)
    row = [float(trump >> rank & 1) for rank in range(8)]
    count = trump.bit_count()
    row += [float(count == k) for k in range(9)]
    sides = sorted((s for s in range(4) if s != strain), key=lambda s: (_byte(hand, s).bit_count(), _byte(hand, s)))
    for suit in reversed(sides):
        byte = _byte(hand, suit)
        row += [float(byte >> rank & 1) for rank in range(8)]
        row.append(byte.bit_count() / 8)
    place = (seat - dealer - 1) % 4
    row += [float(place == k) for k in range(4)]
    row.append(contract_estimate(hand, strain) / POINTS_SCALE)
    same, other, passes, coinched = [0.0] * 4, [0.0] * 4, [0.0] * 4, [0.0] * 4
    highest, ours = 0.0, 0.0
    for who, call in calls:
        where = (who - seat) % 4
        if isinstance(call, Bid):
            value = (call.value or 250) / VALUE_SCALE
            if call.strain == strain:
                same[where] = max(same[where], value)
            else:
                other[where] = max(other[where], value)
            highest, ours = value, float(where % 2 == 0)
        elif isinstance(call, Pass):
            passes[where] = min(passes[where] + 1, 3)
        elif isinstance(call, Coinche):
            coinched[where] = 1.0
    row += same + other + [p / 3 for p in passes] + coinched + [highest, ours]
    return row


def observation_features(obs: Observation, strain: int) -> list[float]:
    """:func:`features` of a seat's observation."""
    return features(obs.hand, obs.seat, obs.dealer, obs.calls, strain)


class BidModel:
    """A trained network and its spread: ``predict`` gives the mean and standard deviation of the side's
    double-dummy card points in a suit."""

    def __init__(self, arrays: dict[str, npt.NDArray[np.float64]], name: str = "") -> None:
        self.name = name
        try:
            self.mean = arrays["input_mean"]
            self.scale = arrays["input_scale"]
            self.weights = [(arrays[f"w{k}"], arrays[f"b{k}"]) for k in range(int(arrays["layers"]))]
            self.spreads = [(arrays[f"sw{k}"], arrays[f"sb{k}"]) for k in range(int(arrays["spread_layers"]))]
            version = int(arrays["features_version"])
        except (KeyError, ValueError, TypeError) as err:
            raise _refused(name, Message("bots.bid_model_file", reason=excerpt(str(err)))) from None
        if version != FEATURES_VERSION:
            raise _refused(name, Message("bots.bid_model_file", reason=f"features {version} ≠ {FEATURES_VERSION}"))

    @staticmethod
    def load(name: str) -> BidModel:
        """A shipped model by name (``atout/bots/models/<name>.npz``) or a model file's path."""
        return _load(name)

    def _forward(self, rows: npt.NDArray[np.float64], layers: list[tuple[Floats, Floats]]) -> Floats:
        x = (rows - self.mean) / self.scale
        for k, (w, b) in enumerate(layers):
            x = x @ w + b
            if k < len(layers) - 1:
                x = np.maximum(x, 0.0)
        return np.clip(x[:, 0] * POINTS_SCALE, 0.0, POINTS_SCALE)

    def predict_many(self, rows: Floats) -> Floats:
        """The mean card points (0 to 162) of many rows of :func:`features`."""
        return self._forward(rows, self.weights)

    def spread_many(self, rows: Floats) -> Floats:
        """The standard deviation around the mean of many rows (a normal's, from the expected absolute error)."""
        spread: Floats = np.maximum(self._forward(rows, self.spreads) * _ERROR_TO_SPREAD, MIN_SPREAD)
        return spread

    def predict(self, obs: Observation, strain: int) -> tuple[float, float]:
        """The mean and standard deviation of the seat's side's card points with ``strain`` as trumps."""
        row = np.array([observation_features(obs, strain)], np.float64)
        return float(self.predict_many(row)[0]), float(self.spread_many(row)[0])

    def values(self, obs: Observation, strain: int, count: int) -> list[int]:
        """``count`` card-point values spread as the model expects them (its normal's quantiles), for
        weighing contracts as sampled deals are."""
        mean, spread = self.predict(obs, strain)
        out = []
        for k in range(count):
            z = _NORMAL.inv_cdf((k + 0.5) / count)
            out.append(round(min(POINTS_SCALE, max(0.0, mean + z * spread))))
        return out


@cache
def _load(name: str) -> BidModel:
    path = Path(name) if name.endswith(".npz") else MODELS / f"{name}.npz"
    try:
        with np.load(path) as data:
            arrays = {key: data[key] for key in data.files}
    except FileNotFoundError:
        shipped = ", ".join(sorted(p.stem for p in MODELS.glob("*.npz"))) or "-"
        raise _refused(name, Message("bots.bid_model_missing", shipped=shipped)) from None
    except (OSError, ValueError, zipfile.BadZipFile) as err:
        raise _refused(name, Message("bots.bid_model_file", reason=excerpt(str(err)))) from None
    return BidModel(arrays, name)


def _refused(name: str, reason: Message) -> AtoutError:
    return AtoutError(Message("bots.bid_model", value=excerpt(repr(name)), reason=reason))


__all__ = ["FEATURES_VERSION", "BidModel", "features", "observation_features"]
