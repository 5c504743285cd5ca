"""Differential tests: the compiled kernels give exactly the rules core's legal sets,
trick winners and points, on at least 10,000 random positions per preset and play mode."""

from __future__ import annotations

import importlib
import os
import pkgutil
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from atout import Deal, Phase, Ruleset
from atout.actions import Declare
from atout.fast import card_points, legal_mask, mode_of, rollouts, trick_winner
from atout.fast.cache import COMPILED
from atout.tables import play_mode

POSITIONS = 10_000

#: (preset, options, strain) — every play mode of every preset, and the card-play options.
CASES = [
    ("coinche", {}, 1),
    ("coinche", {"sans_atout": True}, 4),
    ("coinche", {"tout_atout": True}, 5),
    ("coinche", {"tout_atout": True, "ta_values": "funbelote"}, 5),
    ("coinche", {"overtrump_partner": False, "must_undertrump": True}, 2),
    ("coinche", {"tout_atout": True, "overtrump_partner": False}, 5),
    ("contree", {}, 0),
    ("contree", {}, 4),
    ("contree", {}, 5),
    ("classique", {}, 3),
    ("bazar", {}, 1),
    ("bazar", {}, 4),
    ("deux", {}, 0),
    ("trois", {}, 2),
    ("trois", {"must_undertrump": False}, 1),
    ("coinche", {"undertrump_partner": True}, 3),
    ("coinche", {"undertrump_partner": True, "must_undertrump": True}, 1),
    ("contree-colver", {}, 2),
]


def _into_play(rules: Ruleset, strain: int, seed: int) -> Deal | None:
    """A deal whose contract is in ``strain`` (None if the retourne's suit differs)."""
    deal = Deal.new(rules, dealer=seed % rules.players, seed=seed)
    if rules.auction == "bids":
        deal.apply(f"80{('S', 'H', 'D', 'C', 'SA', 'TA')[strain]}")
        for _ in range(3):
            deal.apply("P")
    else:
        if deal.retourne is None or deal.retourne.suit != strain:
            return None
        deal.apply(f"take{'SHDC'[strain]}")
    assert deal.phase is Phase.PLAY
    return deal


@pytest.mark.parametrize(
    ("preset", "options", "strain"), CASES, ids=[f"{p}-{s}-{i}" for i, (p, _, s) in enumerate(CASES)]
)
def test_kernels_agree_with_the_rules_core(preset: str, options: dict[str, object], strain: int) -> None:
    rules = Ruleset.preset(preset, **options)
    mode = mode_of(strain, rules)
    table = play_mode(strain, rules.ta_values)
    rng = random.Random(strain * 1000 + len(options))
    positions = tricks_checked = 0
    seed = 0
    while positions < POSITIONS:
        seed += 1
        deal = _into_play(rules, strain, seed)
        if deal is None:
            continue
        while deal.phase is Phase.PLAY:
            legal = deal.legal_actions()
            if isinstance(legal[0], Declare):
                deal.apply(rng.choice(legal))
                continue
            seat = deal.turn
            assert seat is not None
            trick = deal.current_trick
            core_mask = 0
            for action in legal:
                core_mask |= 1 << action.card  # type: ignore[attr-defined]
            if trick:
                cards = np.array([c for _, c in trick], np.int64)
                win = trick_winner(cards, len(trick), mode)
                partner = rules.players == 4 and trick[win][0] == (seat + 2) % 4
                kernel = legal_mask(
                    deal.hand_mask(seat),
                    int(trick[0][1]),
                    int(trick[win][1]),
                    partner,
                    mode,
                    rules.overtrump_partner,
                    rules.must_undertrump,
                    rules.undertrump_partner,
                )
            else:
                kernel = legal_mask(deal.hand_mask(seat), -1, 0, False, mode, True, False, False)
            assert kernel == core_mask, deal.position()
            positions += 1
            before = len(deal.tricks)
            deal.apply(rng.choice(legal))
            if len(deal.tricks) > before:
                done = deal.tricks[-1]
                cards = np.array(done.cards, np.int64)
                assert done.leader + trick_winner(cards, rules.players, mode) in (
                    done.winner,
                    done.winner + rules.players,
                )
                mask = sum(1 << c for c in done.cards)
                assert card_points(mask, mode) == done.points == sum(table.points[c] for c in done.cards)
                tricks_checked += 1
    assert tricks_checked > POSITIONS // rules.players // 2


@pytest.mark.parametrize("preset", ["coinche", "trois", "deux", "contree-colver"])
def test_rollouts_deal_every_point(preset: str) -> None:
    rules = Ruleset.preset(preset)
    deal = None
    for seed in range(50):
        deal = _into_play(rules, 0, seed)
        if deal is not None:
            break
    assert deal is not None
    if rules.announcements:
        while isinstance(deal.legal_actions()[0], Declare):
            deal.apply("ann:-")
    hands = np.array([deal.hand_mask(s) for s in range(rules.players)], np.int64)
    assert not deal.current_trick
    out = rollouts(
        hands,
        rules.players,
        deal.turn,
        mode_of(0, rules),
        rules.players == 4,
        rules.overtrump_partner,
        rules.must_undertrump,
        rules.undertrump_partner,
        500,
        3,
    )
    in_play = sum(play_mode(0).points[c] for s in range(rules.players) for c in deal.hand(s))
    assert set(out.sum(axis=1)) == {in_play + 10}
    assert len({tuple(row) for row in out}) > 10  # they are random
    again = rollouts(
        hands,
        rules.players,
        deal.turn,
        mode_of(0, rules),
        rules.players == 4,
        rules.overtrump_partner,
        rules.must_undertrump,
        rules.undertrump_partner,
        500,
        3,
    )
    assert (again == out).all()  # and reproducible from the seed


def test_the_disk_cache_never_runs_with_stale_tables(tmp_path: Path) -> None:
    """numba keys a cached function on its own file only; the guard flushes the cache when the tables a
    kernel bakes in change, so a second process compiles afresh instead of answering with the old table."""
    (tmp_path / "baked.py").write_text(
        "import os, sys\n"
        "import numpy as np\n"
        "from numba import njit\n"
        "from atout.fast.cache import guard\n"
        "TABLE = np.array([int(os.environ['VALUE'])], np.int64)\n"
        "@njit(cache=True)\n"
        "def value():\n"
        "    return TABLE[0]\n"
        "guard(sys.modules[__name__], (TABLE,))\n"
        "print(value())\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    seen = []
    for value in ("11", "11", "22"):
        run = subprocess.run([sys.executable, "-c", "import baked"], env={**env, "VALUE": value}, capture_output=True)
        assert run.returncode == 0, run.stderr.decode()
        seen.append(run.stdout.decode().strip())
    assert seen == ["11", "11", "22"]
    assert list((tmp_path / "cache").rglob("*.nbi")) and list((tmp_path / "cache").rglob("*.stamp"))


def _compiled_modules() -> set[str]:
    """The modules of the compiled packages that define a compiled function."""
    found = set()
    for package in COMPILED:
        for info in pkgutil.iter_modules(importlib.import_module(f"atout.{package}").__path__):
            name = f"atout.{package}.{info.name}"
            functions = vars(importlib.import_module(name)).values()
            if any(isinstance(f, CPUDispatcher) and f.py_func.__module__ == name for f in functions):
                found.add(name)
    return found


def test_every_compiled_module_guards_its_cache(tmp_path: Path) -> None:
    """Each module that defines compiled functions calls the guard when imported (each inlines code of
    other files, which numba does not watch): a fresh cache then holds that module's stamp."""
    compiled = _compiled_modules()
    assert {"atout.fast.kernels", "atout.solver.search", "atout.solver.endgames"} <= compiled
    script = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", script, *sorted(compiled)], env=env, capture_output=True)
    assert run.returncode == 0, run.stderr.decode()
    stamped = {name for name in compiled if list(tmp_path.rglob(f"{name}.*.stamp"))}
    assert stamped == compiled
