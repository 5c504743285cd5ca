"""Running the arena: boards in parallel (processes, or Ray), results as JSON lines.

Every board is reproducible from its seed alone (board ``i`` of a run seeded ``s``
deals from seed ``s * 1_000_003 + i`` and seeds its bots from it), so results do
not depend on which worker played what. Each run writes a header line (the
provenance: atout's version, the ruleset and its fingerprint, the specs, the seed),
one line per board, and a summary line. A run that was cut short can be resumed
from its file: the boards already there are kept and only the missing ones are played.
"""

from __future__ import annotations

import gzip
import json
import multiprocessing
import os
import signal
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path
from typing import IO, Any

from atout import __version__
from atout.arena.duplicate import AgentMaker, Board, play_board
from atout.arena.stats import BOOTSTRAP_SEED, RESAMPLES, Estimate, elo, matches_played, mean_ci, win_rate_ci
from atout.bots.specs import BotSpec, build_agent
from atout.errors import AtoutError, excerpt
from atout.i18n import Message
from atout.rules import Ruleset

#: The first bytes of a gzip file.
GZIP_MAGIC = b"\x1f\x8b"


def board_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


@dataclass
class PairResult:
    """Bot A against bot B over a run of boards."""

    a: str
    b: str
    boards: list[Board]
    diff: Estimate
    #: Bot A's share of the matches won (see :func:`atout.arena.stats.win_rate_ci`).
    win_rate: Estimate
    wins: float
    matches: int
    seconds: dict[str, list[float]]

    def summary(self) -> dict[str, Any]:
        rate = self.win_rate
        return {
            "a": self.a,
            "b": self.b,
            "boards": len(self.boards),
            "diff_per_deal": self.diff.mean,
            "diff_ci95": [self.diff.low, self.diff.high],
            "significant": self.diff.significant,
            "match_wins_a": self.wins,
            "matches": self.matches,
            "win_rate_a": rate.mean,
            "win_rate_ci95": [rate.low, rate.high],
            "win_rate_bootstrap": {"resamples": RESAMPLES, "seed": BOOTSTRAP_SEED},
            "seconds_per_decision": {k: _timing(v) for k, v in self.seconds.items()},
        }


def _timing(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "mean": sum(values) / len(values),
        "median": ordered[len(ordered) // 2],
        "p99": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "max": ordered[-1],
        "decisions": len(values),
    }


Job = tuple[Ruleset, BotSpec, BotSpec, int, int, AgentMaker, BotSpec | None, BotSpec | None]


def _play(job: Job) -> Board:
    rules, a, b, index, seed, make_agent, bidder, player = job
    return play_board(rules, a, b, index, seed, make_agent, bidder, player)


def _boards(jobs: list[Job], workers: int, backend: str) -> Iterator[Board]:
    if backend == "ray":
        yield from _ray_boards(jobs, workers)
    elif workers <= 1:
        yield from map(_play, jobs)
    else:
        with _pool(workers) as pool:
            yield from pool.imap_unordered(_play, jobs, chunksize=1)


def _pool(workers: int) -> multiprocessing.pool.Pool:
    """Worker processes that leave Ctrl+C to the parent, which stops them: none prints a traceback.

    They are started with SIGINT ignored (a process started so keeps it ignored, Python included, even
    while it imports), and each ignores it again in case the platform does not pass that on.
    """
    previous = signal.getsignal(signal.SIGINT)  # None: a handler Python did not set, left alone
    if previous is not None:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread: the workers ignore it once started
            previous = None
    try:
        return multiprocessing.get_context("spawn").Pool(workers, initializer=_ignore_interrupts)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ray_boards(jobs: list[Job], workers: int) -> Iterator[Board]:
    try:
        import ray
    except ImportError:
        raise AtoutError(Message("arena.ray")) from None
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=workers or None, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(_play)
    pending = [remote.remote(job) for job in jobs]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def run_pair(
    rules: Ruleset,
    a: BotSpec,
    b: BotSpec,
    deals: int,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "process",
    out: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    previous: Sequence[dict[str, Any]] = (),
    make_agent: AgentMaker = build_agent,
    bidder: BotSpec | None = None,
    player: BotSpec | None = None,
) -> PairResult:
    """Play ``deals`` duplicate boards of A against B and summarise them.

    ``previous`` holds the records of an earlier results file (see :func:`read_results`):
    the boards of the same run found there (same rules, specs and seed) are kept, not replayed.
    ``make_agent`` builds each seat's agent from its spec and seed (a policy adapter may
    stand in for a spec: see :mod:`atout.envs.policy`); with worker processes it must pickle.
    ``bidder`` makes a play-only match (every seat calls with it), ``player`` a bidding-only one.
    """
    if deals < 1:
        raise AtoutError(Message("arena.no_deal"))
    if backend not in ("process", "ray"):
        raise AtoutError(Message("arena.backend", backend=excerpt(str(backend))))
    workers = (os.cpu_count() or 1) if workers is None else workers
    common = _common_roles(bidder, player)
    done = {i: board for i, board in _boards_of_run(previous, rules, a, b, seed, common).items() if i < deals}
    jobs = [(rules, a, b, i, board_seed(seed, i), make_agent, bidder, player) for i in range(deals) if i not in done]
    if out is not None:
        _write(
            out,
            {
                "type": "header",
                "atout": __version__,
                "date": datetime.now(UTC).isoformat(),
                "rules": rules.to_dict(),
                "fingerprint": rules.fingerprint,
                "seed": seed,
                "deals": deals,
                "a": a.to_dict(),
                "b": b.to_dict(),
                **common,
                "backend": backend,
                "workers": workers,
                "resumed_boards": len(done),
            },
        )
    boards: list[Board] = list(done.values())
    if progress is not None and done:
        progress(len(done))
    for board in _boards(jobs, workers, backend):
        boards.append(board)
        if out is not None:
            _write(out, {"type": "board", "a": a.name, "b": b.name, **board.to_dict()})
        if progress is not None:
            progress(1)
    boards.sort(key=lambda board: board.index)
    seconds: dict[str, list[float]] = {a.name + " (A)": [], b.name + " (B)": []}
    for board in boards:
        for play in board.plays:
            seconds[a.name + " (A)"].extend(play.seconds.get("a", []))
            seconds[b.name + " (B)"].extend(play.seconds.get("b", []))
    matches = matches_played(rules, boards)
    result = PairResult(
        a.name,
        b.name,
        boards,
        mean_ci([board.diff for board in boards]),
        win_rate_ci(matches, len(boards)),
        sum(match.won for match in matches),
        len(matches),
        seconds,
    )
    if out is not None:
        _write(out, {"type": "summary", **result.summary()})
    return result


def _common_roles(bidder: BotSpec | None, player: BotSpec | None) -> dict[str, Any]:
    """The header's record of a play-only (``bidder``) or bidding-only (``player``) match."""
    roles = {"bidder": bidder, "player": player}
    return {role: spec.to_dict() for role, spec in roles.items() if spec is not None}


def _boards_of_run(
    records: Sequence[dict[str, Any]],
    rules: Ruleset,
    a: BotSpec,
    b: BotSpec,
    seed: int,
    common: dict[str, Any] | None = None,
) -> dict[int, Board]:
    """The boards that ``records`` hold for this run, by index."""
    run = {"fingerprint": rules.fingerprint, "seed": seed, "a": a.to_dict(), "b": b.to_dict()}
    run |= {role: (common or {}).get(role) for role in ("bidder", "player")}
    boards: dict[int, Board] = {}
    same = False
    for record in records:
        if not isinstance(record, dict):
            raise AtoutError(Message("arena.not_a_record", line=excerpt(str(record))))
        if record.get("type") == "header":
            same = all(record.get(key) == value for key, value in run.items())
        elif record.get("type") == "board" and same:
            try:
                board = Board.from_dict(record)
            except (KeyError, TypeError, ValueError, AttributeError):
                raise AtoutError(Message("arena.board", line=excerpt(str(record)))) from None
            if board.seed != board_seed(seed, board.index):
                expected = board_seed(seed, board.index)
                raise AtoutError(Message("arena.seed", index=board.index, seed=board.seed, expected=expected))
            boards[board.index] = board
    return boards


def run_tournament(
    rules: Ruleset,
    specs: Sequence[BotSpec],
    deals: int,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "process",
    out: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    previous: Sequence[dict[str, Any]] = (),
    bidder: BotSpec | None = None,
    player: BotSpec | None = None,
) -> tuple[list[PairResult], dict[str, float]]:
    """Every pair of bots plays ``deals`` boards; Elo ratings from the boards won (a tie counts half).
    ``bidder`` and ``player`` as in :func:`run_pair`."""
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise AtoutError(Message("arena.names"))
    results = []
    pairwise: dict[tuple[str, str], tuple[float, int]] = {}
    for offset, (a, b) in enumerate(combinations(specs, 2)):
        pair = run_pair(
            rules, a, b, deals, seed + offset, workers, backend, out, progress, previous, bidder=bidder, player=player
        )
        results.append(pair)
        won = sum(1.0 if board.diff > 0 else 0.5 if board.diff == 0 else 0.0 for board in pair.boards)
        pairwise[(a.name, b.name)] = (won, len(pair.boards))
    ratings = elo(pairwise)
    if out is not None:
        _write(out, {"type": "elo", "ratings": ratings})
    return results, ratings


def _write(out: IO[str], record: dict[str, Any]) -> None:
    out.write(json.dumps(record, ensure_ascii=False) + "\n")
    out.flush()


def compressed(path: Path) -> bool:
    """Is the file at ``path`` compressed with gzip (its first bytes)?"""
    with path.open("rb") as raw:
        return raw.read(2) == GZIP_MAGIC


def read_results(path: Path) -> list[dict[str, Any]]:
    """The records of an arena results file, plain or compressed with gzip."""
    records = []
    with gzip.open(path, "rt", encoding="utf-8") if compressed(path) else path.open(encoding="utf-8") as handle:
        try:
            for number, line in enumerate(handle, start=1):
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except json.JSONDecodeError as err:
                        message = Message("arena.json_line", path=str(path), line=number, reason=err.msg)
                        raise AtoutError(message) from None
        except (EOFError, gzip.BadGzipFile, zlib.error):
            raise AtoutError(Message("arena.gzip", path=str(path))) from None
    return records
