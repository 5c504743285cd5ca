"""What card-play specs cost, double dummy, on the positions of recorded games.

Replays the boards of an arena results file and, at every card decision with a choice (one in
``--every``, picked by a hash of the position), lets each spec choose a card from the seat's own
observation. The double-dummy solver then values every legal card with the deal's real hands,
in the marks the search bot maximises (mine minus the opponents', the contract made or failed,
coinche, capot and belote counted, as the search bot's objective does); a card's cost is the
best card's utility minus its own. Positions where every card is worth the same are dropped.

Every spec meets the same positions, so the comparison is paired: the table gives each spec's
mean cost per position with its 95 % interval, and its difference with the first spec, the
interval taken over boards (positions of one board are not independent); a second table splits
the same positions by role (the taker's side, the defence), a third by trick. A cheap,
low-variance probe of card play, hundreds of positions a minute, and deterministic (node
budgets, seeds drawn from the positions); a match decides in the end, as double-dummy costs
flatter no one but are not marks won. A peer engine's bot is a spec like any other, so its cards
are compared on the same positions too.

With ``--recorded`` and no spec, the cards valued are those the two bots of the file played: the
marks a deal each bot's cards cost it, A's minus B's over the boards, and the mean cost of a
position by role (the taker's side, the defence) and by trick. In duplicate each bot held every
hand of a board once, so that difference compares their card play on the same cards (within the
contracts each table reached).

    python benchmarks/card_cost.py RESULTS.jsonl old.toml expert --every 3 --workers 2
    python benchmarks/card_cost.py RESULTS.jsonl old.toml expert --boards 5     # a quick look
    python benchmarks/card_cost.py RESULTS.jsonl --recorded --every 1 --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

from machine import machine_lines

from atout import Deal, Phase, Ruleset
from atout.actions import Play, parse_action
from atout.arena.run import read_results
from atout.arena.stats import Estimate, mean_ci
from atout.bots import BotSpec, build_agent, load_spec
from atout.bots.search import _Objective  # the search bot's own objective: the utility measured
from atout.cards import Card
from atout.observation import Observation
from atout.solver import Solver

Row = dict[str, Any]


def positions(args: tuple[Ruleset, Row, list[BotSpec], int]) -> list[Row]:
    """The costs of every spec (of the card played, without specs) at the sampled positions of
    one board."""
    rules, record, specs, every = args
    solver = Solver(rules)
    rows = []
    for number, play in enumerate(record["plays"]):
        if play["facts"] is None:
            continue
        deal = Deal.new(rules, dealer=record["dealer"], seed=record["seed"])
        for k, note in enumerate(play["actions"].split()):
            seat = deal.turn
            assert seat is not None
            salt = zlib.crc32(f"{record['board']}/{number}/{k}".encode())
            if deal.phase is Phase.PLAY and not deal.must_declare and salt % every == 0:
                utility = _utilities(deal, seat, solver)
                if utility is not None:
                    if specs:
                        row = _costs(deal.observation(seat), utility, specs, salt)
                    else:
                        row = _recorded_cost(deal, seat, note, play["a_seats"], utility)
                    rows.append(
                        {"board": record["board"], "role": _role(deal, seat), "trick": deal.trick_number + 1, **row}
                    )
            deal.apply(note, seat)
    return rows


def _utilities(deal: Deal, seat: int, solver: Solver) -> dict[Card, float] | None:
    """The search bot's utility of each legal card for ``seat``, with the real hands; None when
    there is no choice or every card is worth the same."""
    obs = deal.observation(seat)
    if len({a.card for a in obs.legal_actions() if isinstance(a, Play)}) < 2:
        return None
    objective = _Objective(obs)
    held = objective.held_belotes([deal.hand_mask(s) for s in range(deal.rules.players)])
    utility = {card: objective(value, held) for card, value in solver.solve(deal).values.items()}
    return None if max(utility.values()) == min(utility.values()) else utility


def _recorded_cost(deal: Deal, seat: int, note: str, a_seats: list[int], utility: dict[Card, float]) -> Row:
    """What the card played at this position cost, who played it and in which role."""
    action = parse_action(note)
    assert isinstance(action, Play)
    return {"bot": "a" if seat in a_seats else "b", "cost": max(utility.values()) - utility[action.card]}


def _role(deal: Deal, seat: int) -> str:
    """Whether ``seat`` plays on the taker's side or in defence."""
    contract = deal.contract
    assert contract is not None
    return "taker" if deal.rules.side_of(seat) == deal.rules.side_of(contract.taker) else "defence"


def _costs(obs: Observation, utility: dict[Card, float], specs: list[BotSpec], salt: int) -> Row:
    best = max(utility.values())
    row: Row = {}
    for spec in specs:
        began = time.process_time()
        action = build_agent(spec, seed=salt).act(obs)
        row[f"s:{spec.name}"] = time.process_time() - began
        assert isinstance(action, Play)
        row[spec.name] = best - utility[action.card]
    return row


def report(rows: list[Row], names: list[str]) -> list[str]:
    """Each spec's mean cost a position, and minus the first spec's (paired, over boards), on
    every position and then by role (the same positions for every spec, so roles compare here)."""
    boards = sorted({r["board"] for r in rows})
    lines = [
        f"{len(rows)} positions with a choice that matters, from {len(boards)} boards",
        "",
        f"| spec | mean cost [95 % CI] | minus {names[0]} [95 % CI] | processor s: mean | max |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in names:
        seconds = [r[f"s:{name}"] for r in rows]
        cost, paired = _paired(rows, name, names[0])
        lines.append(f"| {name} | {cost} | {paired} | {statistics.mean(seconds):.3f} | {max(seconds):.2f} |")
    lines += ["", f"| spec | taker's side [95 % CI] | minus {names[0]} | in defence [95 % CI] | minus {names[0]} |"]
    lines.append("|---|---:|---:|---:|---:|")
    taker = [r for r in rows if r["role"] == "taker"]
    defence = [r for r in rows if r["role"] == "defence"]
    for name in names:
        cells = [*_paired(taker, name, names[0]), *_paired(defence, name, names[0])]
        lines.append(f"| {name} | {' | '.join(cells)} |")
    lines.append(f"({len(taker)} positions of the taker's side, {len(defence)} in defence)")
    return [*lines, "", *by_trick({name: [(r["trick"], r[name]) for r in rows] for name in names})]


def by_trick(costs: dict[str, list[tuple[int, float]]]) -> list[str]:
    """The mean cost of a position at each trick, for each spec (or recorded bot) of ``costs``
    (its positions as pairs of trick and cost): where in the deal the marks are lost."""
    names = list(costs)
    at: dict[tuple[str, int], list[float]] = {}
    for name, pairs in costs.items():
        for trick, cost in pairs:
            at.setdefault((name, trick), []).append(cost)
    lines = [f"| trick | {' | '.join(names)} |", "|---:|" + "---:|" * len(names)]
    for trick in sorted({trick for _, trick in at}):
        found = [at.get((name, trick)) for name in names]
        cells = [f"{statistics.mean(xs):.1f} ({len(xs)})" if xs else "—" for xs in found]
        lines.append(f"| {trick} | {' | '.join(cells)} |")
    return lines


def _paired(rows: list[Row], name: str, reference: str) -> tuple[str, str]:
    """The mean cost of ``name`` over ``rows``, and its difference with ``reference``'s averaged
    within each board first (positions of one board are not independent)."""
    if not rows:
        return "—", "—"
    boards = sorted({r["board"] for r in rows})
    per_board = len(rows) / len(boards)
    diff: dict[int, float] = defaultdict(float)
    for r in rows:
        diff[r["board"]] += (r[name] - r[reference]) / per_board
    paired = "—" if name == reference else _interval(mean_ci([diff[b] for b in boards]))
    return _interval(mean_ci([r[name] for r in rows])), paired


def recorded_report(rows: list[Row], boards: list[int]) -> list[str]:
    """Marks a deal the two bots' own cards cost them, A's minus B's over the boards, and the mean
    cost of a position by role (each bot takes a different share of the contracts, so roles
    compare by position; those intervals take positions as independent, which they nearly are)."""
    lines = [
        f"{len(rows)} positions with a choice that matters, from {len(boards)} boards (two deals each)",
        "",
        "| cards of | marks a deal lost [95 % CI] | a position of the taker's side | a position in defence |",
        "|---|---:|---:|---:|",
    ]
    lost: dict[str, dict[int, float]] = {bot: dict.fromkeys(boards, 0.0) for bot in ("a", "b")}
    for r in rows:
        lost[r["bot"]][r["board"]] += r["cost"] / 2
    for bot in ("a", "b"):
        cells = [_interval(mean_ci(list(lost[bot].values())))]
        for role in ("taker", "defence"):
            cells.append(_interval(mean_ci([r["cost"] for r in rows if r["bot"] == bot and r["role"] == role])))
        lines.append(f"| {bot.upper()} | {' | '.join(cells)} |")
    difference = _interval(mean_ci([lost["a"][b] - lost["b"][b] for b in boards]))
    lines.append(f"| A minus B | {difference} | | |")
    costs = {bot.upper(): [(r["trick"], r["cost"]) for r in rows if r["bot"] == bot] for bot in ("a", "b")}
    return [*lines, "", *by_trick(costs)]


def _interval(estimate: Estimate) -> str:
    return f"{estimate.mean:+.2f} [{estimate.low:+.2f}, {estimate.high:+.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="an arena results file (JSON lines)")
    parser.add_argument("specs", nargs="*", help="levels or spec files; the first is the reference")
    parser.add_argument("--recorded", action="store_true", help="value the cards the file's bots played")
    parser.add_argument("--every", type=int, default=3, help="one card decision in EVERY (default 3)")
    parser.add_argument("--boards", type=int, default=0, help="only the first BOARDS boards (default: all)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.recorded == bool(args.specs):
        parser.error("give specs to compare, or --recorded (and no spec)")
    records = read_results(args.results)
    rules = Ruleset.from_dict(records[0]["rules"])
    specs = [load_spec(spec) for spec in args.specs]  # a bad spec stops here, before any work
    names = [spec.name for spec in specs]
    if len(set(names)) < len(names):
        parser.error(f"the specs' names must differ: {', '.join(names)}")
    boards = [r for r in records if r.get("type") == "board"][: args.boards or None]
    jobs = [(rules, r, specs, args.every) for r in boards]
    with multiprocessing.Pool(args.workers) as pool:
        rows = [row for board in pool.imap(positions, jobs) for row in board]
    print(f"Double-dummy cost of card play on {args.results.name} ({rules.name}), one decision in {args.every}")
    print()
    print("\n".join(machine_lines()))
    print()
    if specs:
        print("\n".join(report(rows, names)))
    else:
        heads = {side: records[0][side]["name"] for side in ("a", "b")}
        print(f"A: {heads['a']}, B: {heads['b']}")
        print()
        print("\n".join(recorded_report(rows, [r["board"] for r in boards])))


if __name__ == "__main__":
    main()
