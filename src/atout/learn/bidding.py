"""Train the learned bidding judgement (:mod:`atout.bots.learned`) on a corpus of deals valued double dummy.

In each deal of the corpus (:mod:`atout.envs.corpus`) four club players bid; at each call every suit
gives a row: the features of the seat's hand and of the calls so far (:func:`atout.bots.learned.features`)
and the target, the card points the seat's side takes double dummy with that suit as trumps. The deals
are split by their number: 80 % to train, 10 % to choose the epoch (validation), 10 % to report (test).
A network of two hidden layers (scikit-learn's ``MLPRegressor``) is fitted epoch by epoch; the epoch with
the lowest validation error is kept, and its spread is the validation residuals' standard deviation. The
baseline is the club player's estimate of the hand (``contract_estimate``), fitted linearly to the target
on the training rows.

    python -m atout.learn.bidding --corpus corpus/ --out src/atout/bots/models/contree-colver.npz
"""

from __future__ import annotations

import argparse
import multiprocessing
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
from sklearn.neural_network import MLPRegressor

from atout import Deal, Phase, Ruleset
from atout.bots.heuristic import HeuristicAgent, contract_estimate
from atout.bots.learned import FEATURES_VERSION, POINTS_SCALE, BidModel, observation_features
from atout.envs import corpus
from atout.errors import AtoutError

Floats = npt.NDArray[np.float64]
#: Which part of the corpus a deal belongs to, by its number modulo 10.
VALIDATION, TEST = 8, 9


@dataclass
class Rows:
    """The rows of a set of deals: features, target (card points), the club estimate, the deal's number,
    and whether the row's call was the seat's first."""

    x: Floats
    y: Floats
    estimate: Floats
    deal: npt.NDArray[np.int64]
    first: npt.NDArray[np.bool_]


@dataclass
class Report:
    """What training measured: the curve (epoch, train and validation RMSE) and the test's figures."""

    curve: list[tuple[int, float, float]] = field(default_factory=list)
    best_epoch: int = 0
    test: dict[str, tuple[float, float]] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    #: The share of the test rows whose value is within the predicted spread of the mean (a normal: 68 %).
    within: float = 0.0


def side_value(rules: Ruleset, leader_side_value: int, same_side: bool) -> int:
    """A side's double-dummy card points from the opening leader's side's (the other side has the rest; a
    side with every trick has ``capot_points``)."""
    if same_side:
        return leader_side_value
    if leader_side_value == 0:
        return rules.capot_points
    return 0 if leader_side_value == rules.capot_points else 162 - leader_side_value


def deal_rows(rules: Ruleset, deal: Deal, dd: list[int]) -> list[tuple[list[float], int, int, bool]]:
    """The rows of one deal, its auction bid by four club players: (features, target, estimate, first call)."""
    agents = [HeuristicAgent() for _ in range(rules.players)]
    leader_side = rules.side_of((deal.dealer + 1) % rules.players)
    spoken: set[int] = set()
    out = []
    while deal.phase is Phase.AUCTION:
        seat = deal.turn
        assert seat is not None
        obs = deal.observation(seat)
        same = rules.side_of(seat) == leader_side
        for strain in range(4):
            target = side_value(rules, dd[strain], same)
            out.append(
                (observation_features(obs, strain), target, contract_estimate(obs.hand, strain), seat not in spoken)
            )
        spoken.add(seat)
        deal.apply(agents[seat].act(obs))
    return out


def _shard_rows(job: tuple[Ruleset, str, int]) -> tuple[list[list[float]], list[int], list[int], list[int], list[bool]]:
    rules, path, seed = job
    shard = corpus.load(path)
    x, y, estimate, number, first = [], [], [], [], []
    for index, dd in zip(shard["index"].tolist(), shard["dd"].tolist(), strict=True):
        for features, target, guess, opening in deal_rows(rules, corpus.deal_of(rules, seed, index), dd):
            x.append(features)
            y.append(target)
            estimate.append(guess)
            number.append(index)
            first.append(opening)
    return x, y, estimate, number, first


def dataset(rules: Ruleset, paths: list[Path], seed: int, workers: int = 1) -> Rows:
    """The rows of the corpus's shards (``seed``: the corpus's)."""
    jobs = [(rules, str(path), seed) for path in paths]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            parts = pool.map(_shard_rows, jobs)
    else:
        parts = [_shard_rows(job) for job in jobs]
    if not parts:
        raise AtoutError("the corpus has no shard")
    return Rows(
        np.array([row for part in parts for row in part[0]], np.float64),
        np.array([v for part in parts for v in part[1]], np.float64),
        np.array([v for part in parts for v in part[2]], np.float64),
        np.array([v for part in parts for v in part[3]], np.int64),
        np.array([v for part in parts for v in part[4]], np.bool_),
    )


def _rmse(predicted: Floats, actual: Floats) -> float:
    return float(np.sqrt(((predicted - actual) ** 2).mean()))


def _r2(predicted: Floats, actual: Floats) -> float:
    return float(1 - ((actual - predicted) ** 2).mean() / actual.var())


def _fit(
    x: Floats, y: Floats, valid: tuple[Floats, Floats], hidden: tuple[int, ...], epochs: int, seed: int
) -> tuple[list[Floats], list[Floats], list[tuple[int, float, float]], int]:
    """Fit a network epoch by epoch; keep the epoch with the lowest validation error. Returns its weights,
    biases, the curve (epoch, train and validation RMSE in card points) and the epoch kept."""
    network = MLPRegressor(hidden_layer_sizes=hidden, batch_size=512, learning_rate_init=1e-3, random_state=seed)
    rng = np.random.default_rng(seed)
    sample = rng.choice(len(y), size=min(len(y), 50_000), replace=False)
    curve = []
    best: tuple[float, int, list[Floats], list[Floats]] = (float("inf"), 0, [], [])
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(y))
        for start in range(0, len(order), 65_536):
            chunk = order[start : start + 65_536]
            network.partial_fit(x[chunk], y[chunk])
        fit = _rmse(network.predict(x[sample]), y[sample]) * POINTS_SCALE
        error = _rmse(network.predict(valid[0]), valid[1]) * POINTS_SCALE
        curve.append((epoch, fit, error))
        if error < best[0]:
            best = (error, epoch, [w.copy() for w in network.coefs_], [b.copy() for b in network.intercepts_])
    return best[2], best[3], curve, best[1]


def train(
    rows: Rows, epochs: int = 30, hidden: tuple[int, ...] = (64, 32), seed: int = 1
) -> tuple[dict[str, npt.NDArray[np.float64]], Report]:
    """Fit the network of the mean, then a smaller one of the spread (the mean's absolute error); return the
    model's arrays (as :class:`~atout.bots.learned.BidModel` reads them) and the report."""
    part = rows.deal % 10
    train_rows, valid_rows, test_rows = part < VALIDATION, part == VALIDATION, part == TEST
    if not (train_rows.any() and valid_rows.any() and test_rows.any()):
        raise AtoutError("too few deals to split into training, validation and test (at least ten)")
    mean = rows.x[train_rows].mean(axis=0)
    scale = rows.x[train_rows].std(axis=0)
    scale[scale == 0] = 1.0
    x = (rows.x - mean) / scale
    y = rows.y / POINTS_SCALE
    report = Report(
        rows={"train": int(train_rows.sum()), "validation": int(valid_rows.sum()), "test": int(test_rows.sum())}
    )
    weights, biases, report.curve, report.best_epoch = _fit(
        x[train_rows], y[train_rows], (x[valid_rows], y[valid_rows]), hidden, epochs, seed
    )
    arrays: dict[str, npt.NDArray[np.float64]] = {
        "input_mean": mean,
        "input_scale": scale,
        "features_version": np.array(FEATURES_VERSION),
        "layers": np.array(len(weights)),
        "spread_layers": np.array(0),
    }
    for k, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"w{k}"], arrays[f"b{k}"] = w, b
    error = np.abs(BidModel(arrays).predict_many(rows.x) - rows.y) / POINTS_SCALE
    weights, biases, _, _ = _fit(
        x[train_rows], error[train_rows], (x[valid_rows], error[valid_rows]), hidden[-1:], max(3, epochs // 3), seed
    )
    arrays["spread_layers"] = np.array(len(weights))
    for k, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"sw{k}"], arrays[f"sb{k}"] = w, b
    model = BidModel(arrays)
    # The baseline: the club estimate, fitted linearly on the training rows.
    slope, intercept = np.polyfit(rows.estimate[train_rows], rows.y[train_rows], 1)
    for name, chosen in (
        ("every call", test_rows),
        ("first calls", test_rows & rows.first),
        ("later calls", test_rows & ~rows.first),
    ):
        actual = rows.y[chosen]
        guess = slope * rows.estimate[chosen] + intercept
        report.test[f"club estimate, {name}"] = (_rmse(guess, actual), _r2(guess, actual))
        predicted = model.predict_many(rows.x[chosen])
        report.test[f"network, {name}"] = (_rmse(predicted, actual), _r2(predicted, actual))
    spread = model.spread_many(rows.x[test_rows])
    report.within = float((np.abs(model.predict_many(rows.x[test_rows]) - rows.y[test_rows]) <= spread).mean())
    return arrays, report


def print_report(report: Report) -> None:
    """The report as Markdown tables."""
    rows = ", ".join(f"{name} {count:,}" for name, count in report.rows.items())
    print(f"Rows: {rows}; the epoch kept: {report.best_epoch}.")
    print()
    print("| epoch | train RMSE | validation RMSE |")
    print("|---:|---:|---:|")
    for epoch, fit, valid in report.curve:
        print(f"| {epoch} | {fit:.2f} | {valid:.2f} |")
    print()
    print("| test rows | RMSE (card points) | R² |")
    print("|---|---:|---:|")
    for name, (rmse, r2) in report.test.items():
        print(f"| {name} | {rmse:.2f} | {r2:.3f} |")
    print()
    print(f"Test rows within one predicted spread of the mean: {report.within:.1%} (a normal: 68.3 %).")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m atout.learn.bidding", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", default="corpus", help="the corpus's folder")
    parser.add_argument("--preset", default="contree-colver")
    parser.add_argument("--seed", type=int, default=1, help="the corpus's seed")
    parser.add_argument("--out", required=True, help="the model file to write (.npz)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Ruleset.preset(args.preset)
    paths = sorted(Path(args.corpus).glob(f"{rules.name}-{args.seed}-*[0-9].npz"))
    try:
        rows = dataset(rules, paths, args.seed, args.workers)
        arrays, report = train(rows, args.epochs)
    except AtoutError as err:
        parser.exit(2, f"atout: {err}\n")
    np.savez(args.out, **arrays)  # type: ignore[arg-type]  # NumPy's stubs type the keywords' values loosely
    print_report(report)


if __name__ == "__main__":
    main()


__all__ = ["Report", "Rows", "dataset", "deal_rows", "main", "side_value", "train"]
