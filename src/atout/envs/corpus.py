"""A corpus of deals and their double-dummy values in every strain, for learning to judge a hand.

Deal ``i`` of a corpus is ``Deal.new(rules, dealer=i % 4, seed=seed * 10**9 + i)``: the corpus reproduces
from its preset and seed. It is written in shards of ``SHARD`` deals, one NumPy ``.npz`` file each,
``<preset>-<seed>-<shard:05d>.npz``, each written whole or not at all (a temporary file renamed), so that a
run stopped at any moment resumes where it was (the shards already there are kept) and several processes
share the work. A shard holds:

==========  ===============  ==================================================================
array       shape, type      what it holds
==========  ===============  ==================================================================
``index``   n, int64         each deal's number in the corpus (its seed: ``seed * 10**9 + index``)
``dealer``  n, uint8         the dealer (``index % 4``)
``hands``   n × 4, uint32    each seat's hand as a card mask (``suit * 8 + rank``)
``dd``      n × 6, int16     the card points (the dix de der included; all the tricks: the
                             ruleset's ``capot_points``) the opening leader's side (the seat after
                             the dealer, and its partner) takes with best play for everyone, with
                             ♠ ♥ ♦ ♣, sans atout, tout atout as the contract's strain; -1 where
                             the ruleset has no such strain. The other side takes the rest.
==========  ===============  ==================================================================

    python -m atout.envs.corpus --preset contree-colver --deals 100000 --out corpus/ --workers 2

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> written = build("contree-colver", deals=2, seed=1, out=folder, shard=2)
>>> part = load(written[0])
>>> part["hands"].shape, part["dd"].shape, int(part["dd"][0, 4])       # no sans atout in this preset
((2, 4), (2, 6), -1)
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from atout import Deal, Ruleset
from atout.auction import Contract
from atout.cardplay import PlayState
from atout.envs.aec import ruleset_of
from atout.errors import AtoutError
from atout.solver import Solver

#: Deals a shard holds.
SHARD = 1000
STRAINS = 6
_ARRAYS = {"index": (1, np.int64), "dealer": (1, np.uint8), "hands": (2, np.uint32), "dd": (2, np.int16)}


def deal_of(rules: Ruleset, seed: int, index: int) -> Deal:
    """Deal ``index`` of the corpus of ``rules`` and ``seed``."""
    return Deal.new(rules, dealer=index % rules.players, seed=seed * 10**9 + index)


def values(rules: Ruleset, deal: Deal, solver: Solver) -> list[int]:
    """The opening leader's side's card points with best play, by strain (-1: not a strain of ``rules``)."""
    hands = [deal.hand_mask(seat) for seat in range(rules.players)]
    leader = (deal.dealer + 1) % rules.players
    out = []
    for strain in range(STRAINS):
        if strain not in rules.strains():
            out.append(-1)
            continue
        contract = Contract(rules.min_bid, strain, leader)
        start = Deal.from_state(rules, deal.dealer, PlayState.opening(rules, contract, hands, leader))
        out.append(solver.value(start, side=rules.side_of(leader)))
    return out


def shard_path(out: Path, rules: Ruleset, seed: int, shard: int) -> Path:
    return out / f"{rules.name}-{seed}-{shard:05d}.npz"


def _write_shard(job: tuple[Ruleset, int, int, int, int, str]) -> str:
    rules, seed, shard, first, count, folder = job
    path = shard_path(Path(folder), rules, seed, shard)
    solver = Solver(rules)
    index = np.arange(first, first + count, dtype=np.int64)
    hands = np.zeros((count, 4), np.uint32)
    dd = np.zeros((count, STRAINS), np.int16)
    for row, i in enumerate(index.tolist()):
        deal = deal_of(rules, seed, i)
        hands[row] = [deal.hand_mask(seat) for seat in range(4)]
        dd[row] = values(rules, deal, solver)
    temporary = path.with_suffix(".tmp.npz")
    np.savez_compressed(temporary, index=index, dealer=(index % 4).astype(np.uint8), hands=hands, dd=dd)
    os.replace(temporary, path)
    return str(path)


def build(
    rules: Ruleset | str, deals: int, seed: int, out: str | Path, workers: int = 1, shard: int = SHARD
) -> list[Path]:
    """Write the corpus's shards that are missing (the first ``deals`` deals); return every shard's path."""
    rules = ruleset_of(rules)
    if rules.players != 4 or rules.short_deck:
        raise AtoutError(f"the corpus holds four-player deals of 32 cards, not {rules.name!r}'s")
    if deals < 1 or shard < 1:
        raise AtoutError("deals and shard must be positive")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    jobs = []
    paths = []
    for number, first in enumerate(range(0, deals, shard)):
        path = shard_path(folder, rules, seed, number)
        paths.append(path)
        if not path.exists():
            jobs.append((rules, seed, number, first, min(shard, deals - first), str(folder)))
    if workers > 1 and len(jobs) > 1:
        with multiprocessing.Pool(workers) as pool:
            for _ in pool.imap_unordered(_write_shard, jobs):
                pass
    else:
        for job in jobs:
            _write_shard(job)
    return paths


def load(path: str | Path) -> dict[str, npt.NDArray[Any]]:
    """A shard's arrays, checked; a missing, corrupt or foreign file raises :class:`AtoutError` naming it."""
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in _ARRAYS}
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as err:
        raise AtoutError(f"{path}: not a corpus shard ({err})") from None
    rows = len(arrays["index"])
    for name, (dims, kind) in _ARRAYS.items():
        array = arrays[name]
        shape_ok = array.ndim == dims and len(array) == rows
        if not shape_ok or array.dtype != kind or (name == "hands" and array.shape[1] != 4):
            raise AtoutError(f"{path}: the array {name!r} is not as a corpus shard holds it")
    if arrays["dd"].shape[1] != STRAINS:
        raise AtoutError(f"{path}: the array 'dd' is not as a corpus shard holds it")
    return arrays


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m atout.envs.corpus", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--preset", default="contree-colver")
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="corpus")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        paths = build(args.preset, args.deals, args.seed, args.out, args.workers)
    except AtoutError as err:
        parser.exit(2, f"atout: {err}\n")
    print(f"{len(paths)} shards in {args.out}")


if __name__ == "__main__":
    main()


__all__ = ["SHARD", "build", "deal_of", "load", "values"]
