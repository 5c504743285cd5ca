"""How much of a deal's value one hand tells: double dummy, and in play by the club player.

Deals random hands in a suit-trump preset and, for each suit as trumps, values the deal two ways:
double dummy (every seat's side, the seat after the dealer leading) and played out by the club
player (`HeuristicAgent`) for every seat, one taker drawn from each side. For each way, a linear
model of the hand (its trumps card by card, trump length, side aces, tens, kings, voids and
singletons, and a few products of them) is fitted by least squares on half of the deals and
compared, on the other half, with the club player's own estimate of the hand (`contract_estimate`,
fitted linearly the same way): the share of the variance each explains (R²), over every hand and
over the hands the club player might bid on (three trumps or more and an estimate of 70 or more).
It also prints, for those hands, the mean value minus the club player's estimate by the seat's
place after the dealer, and the fitted worth of each trump card.

    python benchmarks/hand_value.py --deals 20000 --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import random

import numpy as np
from machine import machine_lines

from atout import Deal, Ruleset
from atout.auction import Contract
from atout.bots.heuristic import HeuristicAgent, contract_estimate
from atout.cardplay import PlayState
from atout.cards import SUIT_MASKS, Rank
from atout.solver import Solver

RANKS = "789TJQKA"
_A, _10, _K, _J, _9 = Rank.ACE, Rank.TEN, Rank.KING, Rank.JACK, Rank.NINE


def _has(hand: int, suit: int, rank: int) -> int:
    return hand >> (8 * suit + rank) & 1


def _length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()


def features(hand: int, trump: int) -> list[float]:
    """The model's inputs for a hand with ``trump`` as trumps (the first is a constant)."""
    n = _length(hand, trump)
    row = [1.0] + [float(_has(hand, trump, r)) for r in range(8)] + [float(n == k) for k in range(9)]
    sides = [s for s in range(4) if s != trump]
    aces = sum(_has(hand, s, _A) for s in sides)
    ace_tens = sum(_has(hand, s, _A) & _has(hand, s, _10) for s in sides)
    guarded_tens = sum(_has(hand, s, _10) and not _has(hand, s, _A) and _length(hand, s) >= 2 for s in sides)
    kings = sum(_has(hand, s, _K) for s in sides)
    voids = sum(_length(hand, s) == 0 for s in sides)
    singletons = sum(_length(hand, s) == 1 for s in sides)
    jack, nine = _has(hand, trump, _J), _has(hand, trump, _9)
    row += [aces, ace_tens, guarded_tens, kings, voids, singletons]
    row += [jack * nine, jack * n, nine * n, aces * n, voids * n, singletons * n]
    return row


def value_deal(args: tuple[Ruleset, int]) -> list[tuple[int, int, int, str, int]]:
    """Rows (hand, trump, place after the dealer, "dd" or "play", the hand's side's points) of one
    deal, dealer 0."""
    rules, seed = args
    rng = random.Random(seed)
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[8 * k : 8 * k + 8]) for k in range(4)]
    solver = Solver(rules)
    agent = HeuristicAgent()
    rows = []
    for trump in range(4):
        deal = Deal.from_state(rules, 0, PlayState.opening(rules, Contract(80, trump, 1), hands, 1))
        points = {0: solver.value(deal, side=0)}
        points[1] = {0: rules.capot_points, rules.capot_points: 0}.get(points[0], 162 - points[0])
        rows += [(hands[k], trump, (k - 1) % 4, "dd", points[k % 2]) for k in range(4)]
        for taker in (rng.choice((0, 2)), rng.choice((1, 3))):
            deal = Deal.from_state(rules, 0, PlayState.opening(rules, Contract(80, trump, taker), hands, 1))
            while deal.turn is not None:
                deal.apply(agent.act(deal.observation(deal.turn)))
            side = taker % 2
            won = deal.tricks_won()
            value = rules.capot_points if won[1 - side] == 0 else deal.points()[side]
            rows.append((hands[taker], trump, (taker - 1) % 4, "play", value))
    return rows


def r2(predicted: np.ndarray, actual: np.ndarray) -> float:
    return float(1 - ((actual - predicted) ** 2).mean() / actual.var())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="contree-colver", help="a preset with suit trumps (default contree-colver)")
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    rules = Ruleset.preset(args.preset)
    if rules.players != 4 or rules.short_deck:
        parser.error(f"{args.preset} is not a four-player preset with the 32-card deck")
    jobs = [(rules, args.seed * 1_000_003 + i) for i in range(args.deals)]
    with multiprocessing.Pool(args.workers) as pool:
        deals = pool.map(value_deal, jobs, chunksize=20)
    print(f"What one hand tells of a deal's value ({rules.name}), {args.deals} deals, seed {args.seed}")
    print()
    print("\n".join(machine_lines()))
    print()
    print(
        "| value | rows | R² of the club estimate: every hand / biddable "
        "| R² of the fitted model: every hand / biddable | "
        "value minus the estimate (biddable), by place after the dealer 1st / 2nd / 3rd / 4th | "
        "fitted worth of the trump " + " ".join(RANKS) + " |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    half = args.deals // 2
    for way in ("dd", "play"):
        parts = []
        for chunk in (deals[:half], deals[half:]):
            rows = [r for d in chunk for r in d if r[3] == way]
            x = np.array([features(h, t) + [float(p == k) for k in range(1, 4)] for h, t, p, _, _ in rows])
            estimate = np.array([contract_estimate(h, t) for h, t, _, _, _ in rows], float)
            places = np.array([p for _, _, p, _, _ in rows])
            parts.append((x, estimate, places, np.array([r[4] for r in rows], float)))
        (x_fit, est_fit, _, y_fit), (x, est, places, y) = parts
        club = np.polyfit(est_fit, y_fit, 1)
        weights = np.linalg.lstsq(x_fit, y_fit, rcond=None)[0]
        trump_count = x[:, 9:18].argmax(axis=1)
        biddable = (trump_count >= 3) & (est >= 70)
        club_r2 = f"{r2(np.polyval(club, est), y):.2f} / {r2(np.polyval(club, est)[biddable], y[biddable]):.2f}"
        fit_r2 = f"{r2(x @ weights, y):.2f} / {r2((x @ weights)[biddable], y[biddable]):.2f}"
        by_place = " / ".join(f"{(y - est)[biddable & (places == p)].mean():+.1f}" for p in range(4))
        trumps = " ".join(f"{w:+.0f}" for w in weights[1:9])
        name = "double dummy" if way == "dd" else "the club player's play"
        print(f"| {name} | {len(y)} | {club_r2} | {fit_r2} | {by_place} | {trumps} |")


if __name__ == "__main__":
    main()
