"""The wait for the compiled solver: from launch to the expert's first decision, and to ``atout analyse``'s
output, on a fresh empty numba cache (the first launch after an install) and on a warm one.

Each measurement is a fresh process; the time runs from its launch to the moment its answer reaches this
one. The expert's decision is the first call of a coinche deal (seed 1), made after
:func:`atout.solver.prepare.prepare`, as the terminal table's bot waits for it (the processor time counts
the process to its end: then the same expert plays a first card in another deal, whose own time is shown
on the next row: before the preparation the card compiled the rest of the solver); the analysis is
``python -m atout analyse`` of ``atout demo --seed 1``'s record, up to the first line after its
legend. A cold run gets a new empty cache (``NUMBA_CACHE_DIR``); the warm run after it reuses that
cache. Each kind is run ``--repeat`` times and the best is kept (the machine may be shared), with the
child's processor time (user and system, to its end), which other work on the machine disturbs less.
A table's first bot call is measured as ``atout play`` makes it (the expert at West, who calls first): the
solver prepared in the background, the club player's rules standing in for the expert while it compiles.
Prints a Markdown table with the machine and the date, and whether the goal is met: the expert bots' first
decision at a table within 5 s of a fresh install's first launch.

    python benchmarks/cold_start.py                       # about two minutes
    python benchmarks/cold_start.py --repeat 1
    python benchmarks/cold_start.py --before ../before/src   # the same for another checkout (PYTHONPATH)
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import machine_lines

from atout.i18n import tr

GOAL = 5.0

DECISION = """
import time
start = time.perf_counter()
from atout import Deal, Ruleset
from atout.bots import build_agent
try:
    from atout.solver.prepare import prepare
except ImportError:  # a checkout from before the preparation: the decision compiles
    prepare = None
if prepare is not None:
    prepare()
prepared = time.perf_counter()
expert = build_agent("expert", seed=1)
deal = Deal.new(Ruleset.preset("coinche"), dealer=0, seed=1)
expert.act(deal.observation(deal.turn))
called = time.perf_counter()
deal = Deal.new(Ruleset.preset("coinche"), dealer=0, seed=12)
for action in ("80H", "P", "P", "P", "ann:-"):
    deal.apply(action)
expert.act(deal.observation(deal.turn))
print(f"{prepared - start:.3f} {called - prepared:.3f} {time.perf_counter() - called:.3f}", flush=True)
"""

#: A terminal table's first bot call, as ``atout play`` makes it: the solver prepared in the background, the
#: expert's seat waiting for it only while it loads from the cache (:func:`atout.cli.table.solver_ready`),
#: the club player's rules standing in while it compiles.
TABLE = """
import threading, time
start = time.perf_counter()
from atout import Ruleset
from atout.cli.table import solver_ready
from atout.session import GameSession
from atout.solver import warm_up
from atout.solver.prepare import compiling
warmed = threading.Event()
def warm():
    try:
        warm_up()
    finally:
        warmed.set()
threading.Thread(target=warm, daemon=True).start()
session = GameSession(Ruleset.preset("coinche"), bots="expert", seed=1)  # West calls first
ready = solver_ready(warmed, compiling)
seat, action = session.bot_choice(stand_in=not ready)
print(f"{time.perf_counter() - start:.3f} {int(not ready)}", flush=True)
warmed.wait()  # the game goes on while the solver is compiled into the cache
"""


def _env(cache: str, src: str | None) -> dict[str, str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def _cpu() -> float:
    """Processor seconds (user and system) of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def decision(cache: str, src: str | None) -> tuple[float, float, float, float, float]:
    """Seconds from launch to the expert's first decisions received (a call, then a card of another deal),
    the child's processor seconds, and its own times: preparing, the call, the card."""
    start, cpu = time.perf_counter(), _cpu()
    out = subprocess.run(
        [sys.executable, "-c", DECISION], env=_env(cache, src), capture_output=True, text=True, check=True
    ).stdout
    total = time.perf_counter() - start
    prepared, called, card = (float(part) for part in out.split())
    return total - card, _cpu() - cpu, prepared, called, card


def table(cache: str, src: str | None) -> tuple[float, float, float]:
    """Seconds from launch to a terminal table's first bot call received, the child's processor seconds (to
    its end, once the solver is ready), and whether the club player's rules stood in (1) or the expert
    searched (0)."""
    start, cpu = time.perf_counter(), _cpu()
    child = subprocess.Popen([sys.executable, "-c", TABLE], env=_env(cache, src), stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    total = time.perf_counter() - start
    if child.wait() != 0 or not line:
        raise RuntimeError("the table's script failed")
    return total, _cpu() - cpu, float(line.split()[1])


def analysis(cache: str, src: str | None, record: Path) -> tuple[float, float]:
    """Seconds from launch to ``atout analyse``'s first line after its legend, and the child's processor
    seconds (to its end)."""
    legend = len(tr("text.analysis.legend", "fr").splitlines())
    start, cpu = time.perf_counter(), _cpu()
    child = subprocess.Popen(
        [sys.executable, "-m", "atout", "--lang", "fr", "analyse", str(record)],
        env=_env(cache, src),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None
    first = None
    for seen, _ in enumerate(child.stdout, start=1):
        if seen == legend + 1:
            first = time.perf_counter() - start
    if child.wait() != 0 or first is None:
        raise RuntimeError("atout analyse failed")
    return first, _cpu() - cpu


def measure(src: str | None, record: Path, repeat: int) -> dict[str, tuple[float, ...]]:
    """Best of ``repeat`` cold and warm runs of each measurement."""
    runs: dict[str, list[tuple[float, ...]]] = {}
    for _ in range(repeat):
        for kind in ("decision", "table", "analysis"):
            with tempfile.TemporaryDirectory() as cache:
                for state in ("cold", "warm"):
                    if kind == "decision":
                        result = decision(cache, src)
                    elif kind == "table":
                        result = table(cache, src)
                    else:
                        result = analysis(cache, src, record)
                    runs.setdefault(f"{kind} {state}", []).append(result)
    return {key: min(values) for key, values in runs.items()}


def _row(what: str, code: str, cold: tuple[float, ...], warm: tuple[float, ...]) -> str:
    def shown(values: tuple[float, ...]) -> str:
        parts = f" ({values[2]:.2f} preparing + {values[3]:.2f} deciding)" if len(values) > 2 else ""
        return f"{values[0]:.2f} s{parts} | {values[1]:.2f} s"

    return f"| {what} | {code} | {shown(cold)} | {shown(warm)} |"


def _table_row(code: str, cold: tuple[float, ...], warm: tuple[float, ...]) -> str:
    def shown(values: tuple[float, ...]) -> str:
        who = "the club rules standing in" if values[2] else "the expert's search"
        return f"{values[0]:.2f} s ({who}) | {values[1]:.2f} s"

    return f"| a table's first bot call (`atout play`, expert bots) | {code} | {shown(cold)} | {shown(warm)} |"


def _card_row(code: str, cold: tuple[float, ...], warm: tuple[float, ...]) -> str:
    return f"| then its first card (its own time) | {code} | {cold[4]:.2f} s | | {warm[4]:.2f} s | |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best is kept")
    parser.add_argument("--before", help="another checkout's src folder, measured the same way (PYTHONPATH)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "demo.txt"
        demo = [sys.executable, "-m", "atout", "demo", "--seed", "1"]
        record.write_text(subprocess.run(demo, capture_output=True, text=True, check=True).stdout, encoding="utf-8")
        codes = [("this checkout", None)] + ([("before", args.before)] if args.before else [])
        results = {code: measure(src, record, args.repeat) for code, src in codes}
    print(*machine_lines(), sep="\n")
    print(f"- best of {args.repeat} runs each\n")
    print("| from launch to | code | cold (empty numba cache): wall | processor | warm: wall | processor |")
    print("|---|---|---:|---:|---:|---:|")
    for code, found in results.items():
        print(_row("the expert's first decision (a call)", code, found["decision cold"], found["decision warm"]))
        print(_card_row(code, found["decision cold"], found["decision warm"]))
        if "table cold" in found:
            print(_table_row(code, found["table cold"], found["table warm"]))
        print(_row("`atout analyse`'s output", code, found["analysis cold"], found["analysis warm"]))
    found = results["this checkout"]
    at_table, searched = found["table cold"][0], found["decision cold"][0]
    verdict = "met" if at_table <= GOAL else "not met"
    goal = f"the expert bots' first decision at a table within {GOAL:.0f} s of a fresh install's first launch"
    print(f"\nGoal ({goal}): {verdict}, {at_table:.1f} s (by the club rules standing in;")
    print(f"the expert's own search is ready {searched:.1f} s after launch).")


if __name__ == "__main__":
    main()
