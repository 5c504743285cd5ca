"""Work off the event loop: bot decisions and deal analyses, in worker processes (default), threads or Ray.

A table's actor sends a :class:`BotRequest` (the bot's spec, a seed and the seat's
observation: never the deal) and awaits the action. The server never waits for a
bot longer than its spec's time budget and a margin: past that, the club player's
rules decide (they take well under a millisecond), so a slow or stuck worker
cannot stall a table.

Worker processes run at a lower priority than the server (a bot's search never
delays the broadcast of a person's move) and end with it: each watches its parent
and exits when the parent is gone, even after a ``kill -9``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, TypedDict

from atout.actions import Action, parse_action
from atout.bots import build_agent, load_spec
from atout.bots.base import Agent
from atout.bots.heuristic import HeuristicAgent
from atout.bots.specs import BotSpec
from atout.observation import Observation

log = logging.getLogger("atout.web")
#: Seconds a decision may take beyond its spec's own budget before the fallback decides.
MARGIN = 3.0
#: Agents kept by each worker (an expert keeps what it learnt about a deal's bidding).
AGENTS_KEPT = 64
BACKENDS = ("process", "thread", "ray")
#: How much lower than the server's a worker process's scheduling priority is (nice increment).
WORKER_NICENESS = 10
#: Seconds between a worker's looks at whether its parent is still there.
PARENT_CHECK = 0.25


@dataclass(frozen=True)
class BotRequest:
    """One decision: who decides (spec and seed), for which table seat and deal, and what it sees."""

    spec: BotSpec
    seed: int
    #: Identifies the agent across one deal's decisions (table code, game, deal, seat).
    key: tuple[str, int, int, int]
    observation: Observation


_agents: OrderedDict[tuple[Any, ...], Agent] = OrderedDict()


def decide(request: BotRequest) -> str:
    """Run in a worker: the action's notation (agents are kept per deal and seat, a few at a time)."""
    key = (*request.key, request.spec)
    agent = _agents.get(key)
    if agent is None:
        agent = _agents[key] = build_agent(request.spec, seed=request.seed, wall_clock=True)
        while len(_agents) > AGENTS_KEPT:
            _agents.popitem(last=False)
    else:
        _agents.move_to_end(key)
    return agent.act(request.observation).notation()


class AnalysisRow(TypedDict):
    """A card of an analysed deal, as it is kept: its trick, seat and code, its double-dummy value, the best
    value, what it cost, the best cards' codes and how many cards the player could choose from."""

    trick: int
    seat: int
    card: str
    value: int
    best: int
    cost: int
    best_cards: list[str]
    choices: int


class AnalysisTooLong(RuntimeError):
    """An analysis that took longer than it was given."""


def analyse_deal(records: str, deal_no: int, time_limit: float) -> list[AnalysisRow]:
    """Run in a worker: the double-dummy value and cost of every card of deal ``deal_no`` of a game; past
    ``time_limit`` seconds it stops (between two cards) with :class:`AnalysisTooLong`."""
    from atout.record import read_records
    from atout.solver.analysis import analyse_actions

    deadline = time.monotonic() + time_limit
    deals = read_records(records)
    if not 0 <= deal_no < len(deals):
        raise ValueError(f"the game has no deal {deal_no}")
    deal = deals[deal_no].replay()
    rows: list[AnalysisRow] = []
    if deal.contract is None:
        return rows
    for a in analyse_actions(deal):
        if time.monotonic() > deadline:
            raise AnalysisTooLong(f"deal {deal_no} took more than {time_limit} s")
        rows.append(
            AnalysisRow(
                trick=a.trick,
                seat=a.seat,
                card=a.card.code,
                value=a.value,
                best=a.best,
                cost=a.cost,
                best_cards=[c.code for c in a.best_cards],
                choices=a.choices,
            )
        )
    return rows


def start_worker(parent: int) -> None:
    """Run in each worker process as it starts: yield the processor to the server, and exit with it."""
    if hasattr(os, "nice"):  # POSIX
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_watch_parent, args=(parent,), name="atout-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)  # the server is gone (killed, or stopped without waiting for us)


def warm(spec_names: tuple[str, ...]) -> bool:
    """Run in a worker at start: load the compiled kernels the given bots need."""
    if any(load_spec(name).player == "search" or load_spec(name).bidder == "search" for name in spec_names):
        from atout.solver import warm_up

        warm_up()
    return True


def budget(spec: BotSpec) -> float:
    """The longest the server waits for one decision of ``spec``."""
    searching = "search" in (spec.player, spec.bidder)
    return (max(spec.time_per_card, spec.time_per_call) if searching else 0.0) + MARGIN


class BotPool:
    """Runs bot decisions on an executor (processes or threads) or on Ray."""

    def __init__(self, backend: str = "process", workers: int | None = None, analysis_time: float = 60.0) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"bot backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        self.backend = backend
        self.workers = workers or max(1, os.cpu_count() or 1)
        #: Seconds an analysis may take before it is given up.
        self.analysis_time = analysis_time
        self._executor: Executor | None = None
        self._ray_decide: Any = None
        self._warming: list[asyncio.Future[bool]] = []
        self.fallbacks = 0

    async def start(self, levels: tuple[str, ...] = ("club", "expert")) -> None:
        """Start the workers; each loads what the given levels need in the background (a minute the first
        time after an install, while numba compiles), so the server answers at once."""
        loop = asyncio.get_running_loop()
        if self.backend == "ray":
            import ray

            if not ray.is_initialized():
                ray.init(
                    address=os.environ.get("RAY_ADDRESS") or None,
                    ignore_reinit_error=True,
                    include_dashboard=False,
                    log_to_driver=False,
                )
            self._ray_decide = ray.remote(decide)
            return
        if self.backend == "process":
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=get_context("spawn"), initializer=start_worker, initargs=(os.getpid(),)
            )
            self._warming = [loop.run_in_executor(self._executor, warm, levels) for _ in range(self.workers)]
        else:  # threads share the process's kernels: load them once, beside the deciding threads
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="atout-bot")
            self._warming = [loop.run_in_executor(None, warm, levels)]

    async def ready(self) -> None:
        """Wait until every worker has loaded what it needs."""
        await asyncio.gather(*self._warming)

    async def close(self) -> None:
        """Stop the workers: what is queued is dropped, and a worker still thinking is ended."""
        if self._executor is not None:
            # The executor keeps its processes to itself: take them before it forgets them.
            processes: dict[int, Any] = getattr(self._executor, "_processes", None) or {}
            workers = list(processes.values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            for process in workers:
                process.terminate()

    async def decide(self, request: BotRequest) -> Action:
        """The bot's action; the club player's if the bot takes longer than its budget or fails."""
        try:
            notation = await asyncio.wait_for(self._run(request), budget(request.spec))
            return parse_action(notation)
        except Exception as err:  # a timeout or a failure: a bot must never stop a table
            self.fallbacks += 1
            log.warning("bot %s fell back to the club player: %r", request.spec.name, err)
            return HeuristicAgent(request.spec.name, request.spec.aggression).act(request.observation)

    async def analyse(self, records: str, deal_no: int) -> list[AnalysisRow]:
        """The analysis of one deal of a game (:func:`analyse_deal`), computed by a worker within the pool's
        ``analysis_time`` (and a margin while it waits in the queue): past that, :class:`AnalysisTooLong`."""
        limit = self.analysis_time
        try:
            return await asyncio.wait_for(self._analyse(records, deal_no, limit), limit + MARGIN)
        except TimeoutError:
            raise AnalysisTooLong(f"deal {deal_no} took more than {limit} s") from None

    async def _analyse(self, records: str, deal_no: int, time_limit: float) -> list[AnalysisRow]:
        if self._ray_decide is not None:
            import ray

            return list(await ray.remote(analyse_deal).remote(records, deal_no, time_limit))
        if self._executor is None:
            raise RuntimeError("the pool is not started")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, analyse_deal, records, deal_no, time_limit)

    async def _run(self, request: BotRequest) -> str:
        if self._ray_decide is not None:
            return str(await self._ray_decide.remote(request))
        if self._executor is None:
            raise RuntimeError("the bot pool is not started")
        return await asyncio.get_running_loop().run_in_executor(self._executor, decide, request)
