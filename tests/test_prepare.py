"""Preparing the solver's compiled code (atout.solver.prepare): the progress it reports, its readiness,
and that what it prepares is what the solver calls. The compilation itself is simulated (numba's compile
events, sent by hand) where the test is about the reports; the real one is the suite's, done once and
cached like every solver test's."""

from __future__ import annotations

import asyncio
import importlib
import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import numba
import pytest
from numba.core import event
from numba.core.registry import CPUDispatcher

from atout import Deal, Ruleset
from atout.actions import PASS, Action
from atout.cli.table import TableApp
from atout.session import GameSession
from atout.solver import Solver, prepare


def _function(label: str) -> CPUDispatcher:
    module, name = label.rsplit(".", 1)
    found = getattr(importlib.import_module(module), name)
    assert isinstance(found, CPUDispatcher), label
    return found


def _compiling_by_hand(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make :func:`prepare.prepare` find nothing ready nor cached, and "compile" by sending numba's compile
    events for each of :data:`prepare.FUNCTIONS`; returns the threads that compiled."""
    ready = {"now": False}
    threads: list[str] = []

    def compile_by_hand() -> None:
        threads.append(threading.current_thread().name)
        for label in prepare.FUNCTIONS:
            data = {"dispatcher": SimpleNamespace(py_func=_function(label).py_func), "args": (), "return_type": None}
            with event.trigger_event("numba:compile", data=data):
                pass
        ready["now"] = True

    monkeypatch.setattr(prepare, "is_ready", lambda: ready["now"])
    monkeypatch.setattr(prepare, "needs_compiling", lambda: not ready["now"])
    monkeypatch.setattr(prepare, "_load", compile_by_hand)
    return threads


def test_the_progress_rises_step_by_step_to_its_total(monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _compiling_by_hand(monkeypatch)
    seen: list[tuple[int, int, str]] = []
    underway: list[tuple[int, int] | None] = []

    def progress(done: int, total: int, label: str) -> None:
        seen.append((done, total, label))
        underway.append(prepare.compiling())

    prepare.prepare(progress)
    total = len(prepare.FUNCTIONS)
    assert [done for done, _, _ in seen] == list(range(1, total + 1))  # monotone, one step at a time, to the total
    assert {t for _, t, _ in seen} == {total}
    assert [label for _, _, label in seen[:-1]] == list(prepare.FUNCTIONS[:-1]) and seen[-1][2] == ""
    assert underway[:-1] == [(done, total) for done in range(1, total)] and prepare.compiling() is None
    assert threads == ["atout-prepare"]  # compiled in a thread of its own (see _deep_stack)


def test_once_ready_preparing_again_does_nothing_but_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _compiling_by_hand(monkeypatch)
    prepare.prepare()
    seen: list[tuple[int, int, str]] = []
    prepare.prepare(lambda done, total, label: seen.append((done, total, label)))
    total = len(prepare.FUNCTIONS)
    assert seen == [(total, total, "")] and len(threads) == 1


def test_preparing_from_several_threads_compiles_once(monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _compiling_by_hand(monkeypatch)
    workers = [threading.Thread(target=prepare.prepare) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(threads) == 1


def test_a_failed_compilation_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise RuntimeError("no compiler")

    monkeypatch.setattr(prepare, "is_ready", lambda: False)
    monkeypatch.setattr(prepare, "needs_compiling", lambda: True)
    monkeypatch.setattr(prepare, "_load", broken)
    with pytest.raises(RuntimeError, match="no compiler"):
        prepare.prepare()
    assert prepare.compiling() is None


def test_the_steps_are_the_compiled_functions() -> None:
    """Each step names one of atout's compiled functions (none of them inlined: those are not compiled
    on their own), the search's entry point last."""
    functions = [_function(label) for label in prepare.FUNCTIONS]
    assert len(set(prepare.FUNCTIONS)) == len(functions)
    assert all(f.targetoptions.get("inline", "never") == "never" for f in functions)
    assert prepare.FUNCTIONS[-1] == "atout.solver.search.run"
    assert {f for f, _ in prepare.entry_points()} <= set(functions)


def test_after_preparing_the_solver_compiles_nothing() -> None:
    """The entry points' argument types are those the solver passes: once prepared, its queries (a
    solve, a value, a threshold) find their compiled code and add none."""
    prepare.prepare()
    assert prepare.is_ready() and not prepare.needs_compiling() and prepare.compiling() is None
    before = {label: len(_function(label).overloads) for label in prepare.FUNCTIONS}
    deal = Deal.from_position("coinche N play A7.../.A7../..A7./...A7 80S@N N:- 108,0 6,0 -;0,0,0,0 =0,0 -")
    solver = Solver(deal.rules, table_bits=10)
    assert (solver.solve(deal).value, solver.value(deal), solver.can_reach(deal, 0, 252)) == (144, 144, True)
    assert {label: len(_function(label).overloads) for label in prepare.FUNCTIONS} == before


def test_a_fresh_cache_needs_compiling(tmp_path: Path) -> None:
    """With an empty numba cache nothing is ready and preparing would compile (asked without compiling)."""
    code = (
        "from atout.solver.prepare import compiling, is_ready, needs_compiling\n"
        "assert needs_compiling() and not is_ready() and compiling() is None\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_without_the_compiler_everything_is_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    assert prepare.is_ready() and not prepare.needs_compiling()


# ---------------------------------------------------------------- what the interfaces say meanwhile


def _table_session(bots: str, stood_in: list[bool] | None = None) -> GameSession:
    """A coinche match in which a bot calls first, the bots passing (their search is not the point here);
    ``stood_in`` hears, for each bot's call, whether the club player's rules stood in for it."""
    session = GameSession(Ruleset.preset("coinche"), bots=bots, seed=1, hint="club")
    assert not session.human_to_play  # a bot calls first

    def passing(*, stand_in: bool = False) -> tuple[int, Action] | None:
        if stood_in is not None:
            stood_in.append(stand_in)
        turn = session.deal.turn
        return None if turn is None else (turn, PASS)

    session.bot_choice = passing  # type: ignore[method-assign]
    return session


async def _until_south_plays(pilot, app: TableApp) -> None:  # type: ignore[no-untyped-def]
    for _ in range(100):
        await pilot.pause()
        if app.session.human_to_play:
            return


def test_while_the_solver_compiles_the_expert_calls_by_the_club_rules_and_the_table_shows_the_progress() -> None:
    """While the solver compiles (once after an install, about 15 s), a bot that searches (the expert) does not
    keep the player waiting: the club player's rules decide for it meanwhile, and the table shows the
    preparation's progress on the bots' turns; once it is ready the expert searches again."""
    stood_in: list[bool] = []
    gate = threading.Event()
    progress = {"now": (3, 16)}
    said = "Préparation du moteur de calcul (une seule fois après l'installation)…"

    async def scenario() -> None:
        app = TableApp(
            _table_session("expert", stood_in), "fr", None, bot_delay=0, analyse=False, trick_pause=0,
            warm_up=gate.wait, preparation=lambda: progress["now"],
        )  # fmt: skip
        async with app.run_test(size=(80, 24)) as pilot:
            try:
                shown = app._preparing_text()
                assert f"{said} 3/16" in shown and "━" * 4 + "─" in shown  # 3/16 of the bar
                assert "les robots jouent comme au niveau club en attendant" in shown
                await _until_south_plays(pilot, app)
                assert app.session.human_to_play and not app.warmed.is_set()
                assert app.session.deal.auction.calls and stood_in and all(stood_in)  # by the club rules
            finally:
                gate.set()  # ready: from now on the expert searches
            await pilot.pause()
            assert app._preparing_text() == ""

    asyncio.run(scenario())


def test_the_club_player_does_not_wait_for_the_preparation() -> None:
    gate = threading.Event()

    async def scenario() -> None:
        app = TableApp(
            _table_session("club"), "fr", None, bot_delay=0, analyse=False, trick_pause=0,
            warm_up=gate.wait, preparation=lambda: (3, 16),
        )  # fmt: skip
        async with app.run_test(size=(80, 24)) as pilot:
            try:
                await _until_south_plays(pilot, app)
                assert app.session.human_to_play and not app.warmed.is_set()  # the bots called meanwhile
            finally:
                gate.set()

    asyncio.run(scenario())


def test_analyse_says_it_prepares_the_solver_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``atout analyse`` after an install: a line on stderr says what the wait is, with its progress
    (at the start and the end, stderr being no terminal here); the analysis follows on stdout."""
    from atout.cli.main import main

    steps: list[int] = []

    def compiling_by_hand(progress: prepare.Progress | None = None) -> None:
        assert progress is not None
        for done in range(1, 17):
            steps.append(done)
            progress(done, 16, "")

    monkeypatch.setattr(prepare, "needs_compiling", lambda: True)
    monkeypatch.setattr(prepare, "prepare", compiling_by_hand)
    assert main(["demo", "--seed", "1"]) == 0
    record = tmp_path / "demo.txt"
    record.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["analyse", str(record)]) == 0
    out, err = capsys.readouterr()
    said = "Préparation du moteur de calcul (une seule fois après l'installation)…"
    assert err.splitlines() == [f"{said} 0/16", f"{said} 16/16"] and steps == list(range(1, 17))
    assert "Meilleures cartes" in out
