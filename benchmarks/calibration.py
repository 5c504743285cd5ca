"""How well sampled deals foresee falls and capots, on the contracts of recorded games.

The search bidder coinches and bids capot on the word of the deals it samples. This probe
replays an arena results file and asks the same questions of a larger sample, to see how far
that word can be trusted:

* coinche: for each contract that was not coinched at the table, at the first turn after its
  last bid of a player of the other side, ``--samples`` deals of the hidden cards consistent with
  what that player saw, each solved double dummy in the contract's strain and scored by the
  deal's rules (belote included): the share in which the contract fails, plain and with each deal
  weighted by how well it fits the calls (e^(-misfit/20), as the expert's card play weighs its
  deals), binned against the share of those contracts that did fall at the table;
* capot: at the taking side's last call, the share of the samples in which it takes every trick,
  binned against the capots it made.

A coinche pays only when the contract falls more often than its break-even share (about 70 % in
``contree-colver``: a fall coinched wins the contract's value again, a coinche made loses the
takers' card points and the contract twice); a capot bid, when the capot is made more than about
85 % of the time. Deterministic (the samples are drawn from each board's seed).

    python benchmarks/calibration.py RESULTS.jsonl --workers 2
    python benchmarks/calibration.py RESULTS.jsonl --takers b --samples 48     # B's contracts
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import random
from pathlib import Path
from typing import Any

from machine import machine_lines

from atout import Deal, Phase, Ruleset
from atout.actions import Bid, parse_action
from atout.arena.run import read_results
from atout.auction import Contract
from atout.bots.knowledge import Knowledge
from atout.bots.search import _auction_misfit, _complete, _completed_deal, _score_for
from atout.observation import Observation
from atout.solver import Solver

Row = dict[str, Any]
#: The bins of the samples' share (the last one includes 1).
EDGES = {"coinche": (0.0, 0.2, 0.4, 0.6, 0.75, 0.9, 1.0), "capot": (0.0, 0.1, 0.3, 0.5, 0.7, 0.85, 1.0)}
MISFIT_SCALE = 20.0
_QUEEN_KING = (1 << 5) | (1 << 6)


def judgements(args: tuple[Ruleset, Row, int, str]) -> list[Row]:
    """The samples' judgements of the contracts of one board, with what happened at the table."""
    rules, record, samples, takers = args
    solver = Solver(rules)
    rng = random.Random(record["seed"])
    rows = []
    for play in record["plays"]:
        facts = play["facts"]
        if facts is None or takers not in ("any", play["takers"]):
            continue
        deal = Deal.new(rules, dealer=record["dealer"], seed=record["seed"])
        turns: list[Observation] = []
        last_bid = 0
        for note in play["actions"].split():
            if deal.phase is not Phase.AUCTION:
                break
            assert deal.turn is not None
            if isinstance(parse_action(note), Bid):
                last_bid = len(turns)
            turns.append(deal.observation(deal.turn))
            deal.apply(note)
        contract = deal.contract
        assert contract is not None
        side = rules.side_of(contract.taker)
        if not contract.level and not contract.capot:
            defender = next(obs for obs in turns[last_bid + 1 :] if rules.side_of(obs.seat) != side)
            said = [(outcome == "chute", w) for outcome, w in _outcomes(solver, defender, contract, samples, rng)]
            rows.append(_row("coinche", said, play["outcome"] == "chute"))
        declarer = [obs for obs in turns if rules.side_of(obs.seat) == side][-1]
        said = [(outcome == "capot", w) for outcome, w in _outcomes(solver, declarer, contract, samples, rng)]
        rows.append(_row("capot", said, facts["capot"] == side))
    return rows


def _outcomes(
    solver: Solver, obs: Observation, contract: Contract, samples: int, rng: random.Random
) -> list[tuple[str, float]]:
    """For ``samples`` deals consistent with ``obs``: how ``contract`` ends double dummy (its
    outcome, or "capot" when the takers win every trick), and how well the deal fits the calls."""
    rules = obs.rules
    know = Knowledge.of(obs)
    side = rules.side_of(contract.taker)
    out = []
    for _ in range(samples):
        placed = know.sample(rng)
        hands = _complete(obs, placed, rng)
        value = solver.value(_completed_deal(obs, hands, contract.strain), side=side)
        belote = [0, 0]
        for seat, hand in enumerate(hands):
            if contract.strain < 4 and hand >> (8 * contract.strain) & _QUEEN_KING == _QUEEN_KING:
                belote[rules.side_of(seat) != side] += rules.belote_points
        outcome = _score_for(rules, contract, contract.taker, value, belote[0], belote[1])[1]
        weight = math.exp(-_auction_misfit(obs, placed, know.played) / MISFIT_SCALE)
        out.append(("capot" if value >= rules.capot_points else outcome, weight))
    return out


def _row(kind: str, said: list[tuple[bool, float]], happened: bool) -> Row:
    weights = sum(w for _, w in said)
    return {
        "kind": kind,
        "plain": sum(s for s, _ in said) / len(said),
        "weighted": sum(s * w for s, w in said) / weights,
        "happened": happened,
    }


def report(rows: list[Row], kind: str) -> list[str]:
    """The contracts binned by the samples' share, plain and weighted, against what happened."""
    what = {"coinche": ("fails", "fell"), "capot": ("is a capot", "capot made")}[kind]
    edges = EDGES[kind]
    chosen = [r for r in rows if r["kind"] == kind]
    lines = [f"| share of samples in which the contract {what[0]} | {what[1]}: plain | weighted |", "|---|---:|---:|"]
    for low, high in itertools.pairwise(edges):
        cells = []
        for key in ("plain", "weighted"):
            inside = [r for r in chosen if low <= r[key] < high or (high == 1.0 and r[key] == 1.0)]
            shown = sum(r["happened"] for r in inside)
            cells.append(f"{shown} / {len(inside)}" + (f" = {shown / len(inside):.0%}" if inside else ""))
        lines.append(f"| {low:.2f} to {high:.2f} | {cells[0]} | {cells[1]} |")
    happened = sum(r["happened"] for r in chosen)
    lines.append(f"| all | {happened} / {len(chosen)} | |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="an arena results file (JSON lines)")
    parser.add_argument("--samples", type=int, default=24, help="deals sampled a judgement (default 24)")
    parser.add_argument("--takers", choices=("a", "b", "any"), default="any", help="whose contracts (default any)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    records = read_results(args.results)
    rules = Ruleset.from_dict(records[0]["rules"])
    jobs = [(rules, r, args.samples, args.takers) for r in records if r.get("type") == "board"]
    with multiprocessing.Pool(args.workers) as pool:
        rows = [row for board in pool.imap(judgements, jobs) for row in board]
    heads = {side: records[0][side]["name"] for side in ("a", "b")}
    print(f"Samples against the table on {args.results.name} ({rules.name}), {args.samples} samples a judgement")
    print()
    print("\n".join(machine_lines()))
    print()
    print(f"A: {heads['a']}, B: {heads['b']}; contracts of: {args.takers}")
    print()
    print("Coinche: the contracts not coinched at the table, judged by the first player of the other side after")
    print("the last bid")
    print()
    print("\n".join(report(rows, "coinche")))
    print()
    print("Capot: every contract, judged at the taking side's last call")
    print()
    print("\n".join(report(rows, "capot")))


if __name__ == "__main__":
    main()
