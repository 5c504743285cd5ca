"""The search bot: sampled deals, solved double dummy, scored by the deal's own rules.

Card play: deals consistent with everything the seat has seen are sampled
(:mod:`atout.bots.knowledge`), each is solved by the double-dummy solver, and each
legal card gets the average over the samples of the deal score it leads to (each
sample weighted by how well it fits the other players' calls when the spec has a
``misfit_scale``; otherwise each is the best fit of ``auction_tries``) — the
takers' and the defenders' marks under the ruleset's scoring (contract made or
failed, coinche, capot, belote), not the raw card points. Sampling stops at
``samples`` deals or when the card's budget of solver nodes (``nodes_per_card``) is
spent: no deal is sampled when the largest sample so far would not fit in what is
left, and a solve that would overrun is stopped. When not one deal could be solved
within the budget, the club player's card is played.

Bidding: ``bid_samples`` completions of the hidden hands are solved once per deal
in every strain the hand could play (the double-dummy value is the same whoever
declares: the player after the dealer leads); each call (a bid, pass, coinche,
surcoinche, a take) gets the average score of the contract it would leave, and the
best is made. ``nodes_per_call`` bounds a call the same way: a completion that could
not be valued in every strain within it is dropped, and with none valued the club
player calls. Announcements and belote are always declared.

Budgets are counted in nodes, so a decision is a pure function of what the seat saw,
the spec and the seed, on any machine and under any load. An agent built with
``wall_clock=True`` (the interactive tables) also stops a decision at ``time_per_card``
or ``time_per_call`` seconds, a safety cap for a slow or busy machine: its seconds are
turned into a node limit at the speed the agent measured on its own solves.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from atout.actions import PASS, Action, Bid, Coinche, Declare, Pass, Play, Surcoinche, Take
from atout.announcements import best_announcements
from atout.auction import Contract
from atout.bots.heuristic import (
    HeuristicAgent,
    bid_ceiling,
    coinche_sound,
    contract_estimate,
    strain_value,
    surcoinche_sound,
)
from atout.bots.knowledge import STOCK, Knowledge
from atout.bots.learned import BidModel
from atout.bots.specs import BotSpec
from atout.cardplay import PlayState
from atout.cards import deck_mask
from atout.deal import Deal
from atout.observation import Observation
from atout.rules import Ruleset
from atout.scoring import DEAL_POINTS, DealFacts, score_deal
from atout.solver import SearchLimit, Solver
from atout.tables import DIX_DE_DER, play_mode

#: Nodes a second a solve is assumed to search until a ``wall_clock`` agent has timed its own solves.
START_RATE = 4_000_000
#: How often (over the samples) a capot (or a surcoinched contract) must be made to bid it;
#: the spec sets it for other bids and coinches: double-dummy values flatter the side that
#: knows every card, so bids and doubles want a margin.
MAKE_TO_BID_CAPOT = 0.85
#: How far below a bid a bidder's hand may value (the club player's margin).
BID_MARGIN = 20
#: How far above the club player's own ceiling the search bidder may go when its samples say so.
BID_STRETCH = 10
#: The values a learned model (``bid_model``) gives a strain: its expected spread's quantiles.
MODEL_VALUES = 32
_QUEEN_KING = (1 << 5) | (1 << 6)


@dataclass
class _BidTable:
    """Double-dummy card points of the bidder's side, by strain, over the sampled completions."""

    key: tuple[object, ...]
    values: dict[int, list[int]]
    #: Completions valued in every strain (the call's budget may stop them early).
    samples: int


class _Budget:
    """What one decision may still spend: solver nodes, and seconds when the agent keeps a clock.

    A sample (a deal solved, or a completion valued in every strain) is begun only while the
    largest sample so far (in nodes, and in seconds with a clock) still fits in what is left.
    """

    def __init__(self, nodes: int, seconds: float | None) -> None:
        self.nodes = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self._largest = 0
        self._slowest = 0.0
        self._sample_nodes = 0
        self._sample_start = 0.0

    def fits_another(self) -> bool:
        if self._largest > self.nodes:
            return False
        return self.deadline is None or time.perf_counter() + self._slowest <= self.deadline

    def begin_sample(self) -> None:
        self._sample_nodes = 0
        self._sample_start = time.perf_counter()

    def end_sample(self) -> None:
        self._largest = max(self._largest, self._sample_nodes)
        self._slowest = max(self._slowest, time.perf_counter() - self._sample_start)

    def limit(self, rate: float) -> int:
        """The nodes a search begun now may take (seconds count at ``rate`` nodes a second);
        :class:`SearchLimit` when nothing is left."""
        limit = self.nodes
        if self.deadline is not None:
            limit = min(limit, int((self.deadline - time.perf_counter()) * rate))
        if limit <= 0:
            raise SearchLimit("the decision's budget is spent")
        return limit

    def spend(self, nodes: int) -> None:
        self.nodes -= nodes
        self._sample_nodes += nodes


class SearchAgent:
    """Determinized double-dummy search (sampling + solver) for bidding and card play.

    Its decisions depend only on what it saw, its spec and ``seed``; with ``wall_clock``
    they also stop at the spec's seconds (and so may depend on the machine's speed).
    """

    def __init__(self, spec: BotSpec, seed: int, wall_clock: bool = False) -> None:
        self.name = spec.name
        self.spec = spec
        self.wall_clock = wall_clock
        self.rng = random.Random(seed)
        self._solvers: dict[str, Solver] = {}
        self._bids: _BidTable | None = None
        self._rate = float(START_RATE)
        self._fallback = HeuristicAgent(spec.name, spec.aggression)
        self._model = BidModel.load(spec.bid_model) if spec.bid_model else None
        #: What the last search (a card, or the valuing of the contracts) cost: solver nodes, samples.
        self.last_search = (0, 0)

    def _solver(self, rules: Ruleset) -> Solver:
        solver = self._solvers.get(rules.fingerprint)
        if solver is None:
            solver = self._solvers[rules.fingerprint] = Solver(rules)
        return solver

    def act(self, obs: Observation) -> Action:
        self.last_search = (0, 0)
        legal = obs.legal_actions()
        if len(legal) == 1 or isinstance(legal[0], Declare):
            return legal[0]
        if isinstance(legal[0], Play):
            return self._play(obs, legal)
        return self._call(obs, legal)

    # ------------------------------------------------------------------ play
    def _play(self, obs: Observation, legal: list[Action]) -> Action:
        by_card: dict[int, Action] = {}
        for a in legal:
            if isinstance(a, Play) and (a.card not in by_card or a.belote):
                by_card[a.card] = a  # say belote whenever it may be said
        if len(by_card) == 1:
            return next(iter(by_card.values()))
        know = Knowledge.of(obs, always_say_belote=True)
        solver = self._solver(obs.rules)
        objective = _Objective(obs)
        totals = dict.fromkeys(by_card, 0.0)
        budget = self._budget(self.spec.nodes_per_card, self.spec.time_per_card)
        count = 0
        while count < self.spec.samples and budget.fits_another():
            placed, weight = self._world(obs, know)
            deal = _snapshot(obs, placed)
            budget.begin_sample()
            try:
                with self._query(budget, solver) as limit:
                    solution = solver.solve(deal, node_limit=limit)
            except SearchLimit:
                break
            budget.spend(self.spec.nodes_per_sample)
            budget.end_sample()
            held = objective.held_belotes([deal.hand_mask(s) for s in range(obs.rules.players)])
            for card, value in solution.values.items():
                totals[card] += weight * objective(value, held)
            count += 1
        self.last_search = (self.spec.nodes_per_card - budget.nodes, count)
        if not count:
            return self._fallback.act(obs)
        best = max(totals, key=lambda c: (totals[c], -c))
        return by_card[best]

    def _budget(self, nodes: int, seconds: float) -> _Budget:
        return _Budget(nodes, seconds if self.wall_clock else None)

    @contextmanager
    def _query(self, budget: _Budget, solver: Solver) -> Iterator[int]:
        """The node limit of a solver query within ``budget`` (:class:`SearchLimit` if nothing is
        left); the query's nodes are spent from it, a search stopped at its limit's too, and an
        agent with a clock learns the solver's speed from it."""
        limit = budget.limit(self._rate)
        began = time.perf_counter()
        try:
            yield limit
        finally:
            budget.spend(solver.nodes)
            spent = time.perf_counter() - began
            if self.wall_clock and spent > 0.01:  # long enough to time the solver's own speed
                self._rate = (self._rate + solver.nodes / spent) / 2

    # --------------------------------------------------------------- auction
    def _call(self, obs: Observation, legal: list[Action]) -> Action:
        table = self._bid_table(obs)
        if table.values and not table.samples:
            return self._fallback.act(obs)
        me = obs.seat
        current: tuple[Bid, int] | None = None
        level = 0
        for seat, call in obs.calls:
            if isinstance(call, Bid):
                current, level = (call, seat), 0
            elif isinstance(call, Coinche):
                level = 1
        best: tuple[float, Action] = (-1e9, PASS)
        ceilings: dict[int, int | None] = {}
        for action in legal:
            if isinstance(action, Take):
                contract: Contract | None = Contract(0, action.suit, me)
                need = self.spec.bid_make_rate
            elif isinstance(action, Bid):
                if action.strain not in ceilings:
                    ceilings[action.strain] = bid_ceiling(obs, action.strain, self.spec.aggression)
                ceiling = ceilings[action.strain]
                beyond = ceiling is None or action.value > ceiling + BID_STRETCH
                if not action.capot and self._model is None and beyond:
                    continue  # beyond what the hand can show: a few samples are no reason to stretch (a model judges)
                contract = Contract(action.value, action.strain, me, 0, action.capot)
                need = MAKE_TO_BID_CAPOT if action.capot else self.spec.bid_make_rate
            elif isinstance(action, (Coinche, Surcoinche)) and current is not None:
                bid, taker = current
                sound = coinche_sound if isinstance(action, Coinche) else surcoinche_sound
                if not sound(obs.hand, bid):
                    continue  # the samples alone double too often (docs/strength.md): the hand must agree
                contract = Contract(bid.value, bid.strain, taker, 2 if isinstance(action, Surcoinche) else 1, bid.capot)
                # Coinche a contract the samples say fails; surcoinche one they say is made.
                need = -self.spec.coinche_fail_rate if isinstance(action, Coinche) else MAKE_TO_BID_CAPOT
            else:  # pass: the current contract stands (or nobody plays); passing wins ties
                contract = (
                    None
                    if current is None
                    else Contract(current[0].value, current[0].strain, current[1], level, current[0].capot)
                )
                need = None
            if contract is not None and contract.strain not in table.values:
                continue
            utility, made = (0.0, 0.0) if contract is None else self._expected(obs, table, contract)
            if need is not None and (made < need if need >= 0 else 1 - made < -need):
                continue
            if need is None:
                utility += 1e-6
            if utility > best[0]:
                best = (utility, action)
        return best[1]

    def _expected(self, obs: Observation, table: _BidTable, contract: Contract) -> tuple[float, float]:
        """Average score for the seat's side if ``contract`` is played, and how often it is made,
        over the sampled completions."""
        values = table.values[contract.strain]
        rules = obs.rules
        bonus = _own_bonus(obs, contract.strain) if rules.side_of(contract.taker) == rules.side_of(obs.seat) else 0
        total = 0.0
        made = 0
        for value in values:
            score, outcome = _score_for(rules, contract, obs.seat, value, bonus)
            total += score
            made += outcome == "made"
        return total / len(values), made / len(values)

    def _bid_table(self, obs: Observation) -> _BidTable:
        calls = tuple((seat, call) for seat, call in obs.calls if not isinstance(call, Pass))
        key = (obs.hand, obs.dealer, obs.seat, calls)
        if self._bids is not None and self._bids.key == key:
            return self._bids
        if self._model is not None:
            suits = {s for s in self._candidate_strains(obs, every=True) if s < 4}
            self._bids = _BidTable(key, {s: self._model.values(obs, s, MODEL_VALUES) for s in suits}, MODEL_VALUES)
            return self._bids
        rules = obs.rules
        know = Knowledge.of(obs)
        solver = self._solver(rules)
        strains = self._candidate_strains(obs)
        values: dict[int, list[int]] = {s: [] for s in strains}
        budget = self._budget(self.spec.nodes_per_call, self.spec.time_per_call)
        samples = 0
        side = rules.side_of(obs.seat)
        while samples < self.spec.bid_samples and budget.fits_another():
            placed = self._fit_auction(obs, know)
            sample: dict[int, int] = {}
            budget.begin_sample()
            try:
                for strain in strains:
                    deal = _completed_deal(obs, _complete(obs, placed, self.rng), strain)
                    with self._query(budget, solver) as limit:
                        sample[strain] = solver.value(deal, side=side, node_limit=limit)
            except SearchLimit:
                break
            budget.end_sample()
            for strain, value in sample.items():
                values[strain].append(value)
            samples += 1
        self.last_search = (self.spec.nodes_per_call - budget.nodes, samples)
        table = _BidTable(key, values, samples)
        if samples or not values:  # an empty table is not kept: the next call tries again
            self._bids = table
        return table

    def _world(self, obs: Observation, know: Knowledge) -> tuple[dict[int, int], float]:
        """A placement of the hidden cards for a card's search, and what it counts for: with a
        ``misfit_scale``, any placement the play allows, weighted by how well it fits the other
        players' calls (each ``misfit_scale`` points of misfit divide its weight by e); without,
        the best fit of a few tries, counting 1."""
        scale = self.spec.misfit_scale
        if not scale:
            return self._fit_auction(obs, know), 1.0
        placed = know.sample(self.rng)
        return placed, math.exp(-_auction_misfit(obs, placed, know.played) / scale)

    def _fit_auction(self, obs: Observation, know: Knowledge) -> dict[int, int]:
        """A placement of the hidden cards that the other players' calls make likely: each bid
        and take must be one a club player (:mod:`atout.bots.heuristic`) could make with that
        hand, within a margin (the best of a few tries when none fits)."""
        if self.spec.auction_tries == 1:
            return know.sample(self.rng)
        best: tuple[int, dict[int, int]] | None = None
        for _ in range(self.spec.auction_tries):
            placed = know.sample(self.rng)
            miss = _auction_misfit(obs, placed, know.played)
            if best is None or miss < best[0]:
                best = (miss, placed)
            if miss == 0:
                break
        assert best is not None
        return best[1]

    @staticmethod
    def _candidate_strains(obs: Observation, every: bool = False) -> list[int]:
        """Strains worth valuing: the two the hand likes best among those it may name (``every``: all of
        them), and any strain already bid (its contract may be doubled or left to stand)."""
        named: set[int] = set()
        for action in obs.legal_actions():
            if isinstance(action, Bid):
                named.add(action.strain)
            elif isinstance(action, Take):
                named.add(action.suit)
        hand = obs.hand | (1 << obs.retourne if obs.retourne is not None else 0)
        liked = sorted(named, key=lambda s: -strain_value(hand, s))[: None if every else 2]
        bid = {call.strain for _, call in obs.calls if isinstance(call, Bid)}
        return sorted(set(liked) | bid)


# ---------------------------------------------------------------- helpers
def _snapshot(obs: Observation, placed: dict[int, int]) -> Deal:
    """The sampled deal at the observation's moment, for the solver."""
    rules = obs.rules
    n = rules.players
    assert obs.contract is not None
    hands = [placed.get(s, 0) for s in range(n)]
    hands[obs.seat] = obs.hand
    leader = obs.trick[0][0] if obs.trick else obs.turn
    assert leader is not None
    points = {s: 0 for s in rules.sides}
    won = {s: 0 for s in rules.sides}
    for t in obs.tricks:
        side = rules.side_of(t.winner)
        points[side] += t.points
        won[side] += 1
    state = PlayState(
        obs.contract,
        tuple(hands),
        leader,
        tuple(c for _, c in obs.trick),
        tuple(points[s] for s in rules.sides),
        tuple(won[s] for s in rules.sides),
        (0,) * n,
        (0,) * n,
        rest=tuple(_bits(placed.get(STOCK, 0))),
    )
    return Deal.from_state(rules, obs.dealer, state)


def _completed_deal(obs: Observation, hands: list[int], strain: int) -> Deal:
    """A completion of the hidden hands at the start of the play, the seat declaring ``strain``."""
    rules = obs.rules
    contract = Contract(80 if rules.auction == "bids" else 0, strain, obs.seat)
    return Deal.from_state(
        rules, obs.dealer, PlayState.opening(rules, contract, hands, (obs.dealer + 1) % rules.players)
    )


def _bits(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _complete(obs: Observation, placed: dict[int, int], rng: random.Random) -> list[int]:
    """Full hands for the play from an auction-time placement (a retourne deal's second stage drawn
    at random from the stock, the seat taking)."""
    rules = obs.rules
    n = rules.players
    hands = [placed.get(s, 0) for s in range(n)]
    hands[obs.seat] = obs.hand
    if rules.auction != "retourne" or obs.retourne is None:
        return hands
    stock = _bits(placed.get(STOCK, 0))
    rng.shuffle(stock)
    hands[obs.seat] |= 1 << obs.retourne
    for seat in range(n):
        for _ in range(2 if seat == obs.seat else 3):
            hands[seat] |= 1 << stock.pop()
    return hands


def _own_bonus(obs: Observation, strain: int) -> int:
    """Belote and announcement points the seat itself brings to a contract in ``strain``."""
    rules = obs.rules
    hand = obs.hand | (1 << obs.retourne if obs.retourne is not None and rules.auction == "retourne" else 0)
    bonus = 0
    if rules.belote and strain < 4 and hand >> (8 * strain) & _QUEEN_KING == _QUEEN_KING:
        bonus += rules.belote_points
    if rules.announcements:
        bonus += sum(
            a.points(strain, rules.announcement_values)
            for a in best_announcements(hand, strain, rules.announcement_values, rules.announcement_tiebreak)
        )
    return bonus


def _points_in_play(rules: Ruleset, strain: int) -> int:
    """Card points of a deal, dix de der included (162 when the whole deck is played)."""
    if rules.players * rules.hand_size == (24 if rules.short_deck else 32):
        return DEAL_POINTS
    deck_points = sum(
        play_mode(strain, rules.ta_values).points[c] for c in range(32) if deck_mask(rules.short_deck) >> c & 1
    )
    return deck_points * rules.players * rules.hand_size // 32 + DIX_DE_DER


def _score_for(
    rules: Ruleset, contract: Contract, seat: int, mine: int, bonus: int, theirs: int = 0
) -> tuple[float, str]:
    """The seat's marks minus its opponents' (on average) when its side ends with ``mine`` card
    points, ``bonus`` belote and announcement points and its opponents ``theirs``. With three
    players the two defenders share their points equally, as the double-dummy value counts them
    together."""
    sides = rules.sides
    if rules.players == 3:
        together = [s for s in sides if s != contract.taker] if seat != contract.taker else [seat]
    else:
        together = [rules.side_of(seat)]
    others = [s for s in sides if s not in together]
    capot = None
    if mine >= rules.capot_points:
        card = {s: (rules.capot_points // len(together) if s in together else 0) for s in sides}
        capot = together[0] if len(together) == 1 else None
    else:
        rest = max(_points_in_play(rules, contract.strain) - mine, 0)
        card = {s: (mine // len(together) if s in together else rest // len(others)) for s in sides}
    own = rules.side_of(seat)
    belote = {own: bonus, others[0]: theirs} if theirs else {own: bonus}
    facts = DealFacts(contract, card, belote, {}, capot)
    score = score_deal(rules, facts, check=False)
    marks = score.marks
    return marks[own] - sum(marks[s] for s in sides if s not in together) / len(others), score.outcome


class _Objective:
    """The score the seat expects when its side takes ``value`` more card points from here, in a
    sampled deal where each side holds belotes still to be said: what is already won (tricks,
    belotes said, announcements scored) counts for the side that won it, the opponents' too, as
    their belote and announcements count toward their contract and marks."""

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        contract = obs.contract
        assert contract is not None
        self.obs = obs
        self.contract = contract
        if rules.players == 4:
            self.mine = {s for s in range(4) if rules.side_of(s) == rules.side_of(obs.seat)}
        elif rules.players == 3 and obs.seat != contract.taker:
            self.mine = {s for s in range(3) if s != contract.taker}
        else:
            self.mine = {obs.seat}
        self.taken = sum(t.points for t in obs.tricks if t.winner in self.mine)
        said = {(s, c >> 3) for s, c, _ in obs.belote_said}
        self.bonus = [0, 0]  # mine, theirs
        for seat, _ in said:
            self.bonus[seat not in self.mine] += rules.belote_points
        if obs.announcement_winner is not None:
            shown = sum(
                a.points(contract.strain, rules.announcement_values)
                for announced in obs.shown.values()
                for a in announced
            )
            self.bonus[rules.side_of(obs.seat) != obs.announcement_winner] += shown
        self.pairs = _belote_pairs(rules, contract.strain)
        self._cache: dict[tuple[int, int, int], float] = {}

    def held_belotes(self, hands: list[int]) -> tuple[int, int]:
        """Belote points each side (mine, theirs) holds still unsaid in a sampled deal's ``hands``."""
        held = [0, 0]
        for seat, hand in enumerate(hands):
            for pair in self.pairs:
                if hand & pair == pair:
                    held[seat not in self.mine] += self.obs.rules.belote_points
        return held[0], held[1]

    def __call__(self, value: int, held: tuple[int, int] = (0, 0)) -> float:
        key = (value, held[0], held[1])
        utility = self._cache.get(key)
        if utility is None:
            obs = self.obs
            mine, theirs = self.bonus[0] + held[0], self.bonus[1] + held[1]
            utility = _score_for(obs.rules, self.contract, obs.seat, self.taken + value, mine, theirs)[0]
            self._cache[key] = utility
        return utility


def _belote_pairs(rules: Ruleset, strain: int) -> tuple[int, ...]:
    """The king-queen pairs that make a belote in ``strain`` (every suit's at tout atout)."""
    if not rules.belote or not rules.belote_points or strain == 4:
        return ()
    return tuple(_QUEEN_KING << (8 * suit) for suit in (range(4) if strain == 5 else (strain,)))


def _auction_misfit(obs: Observation, placed: dict[int, int], played: dict[int, int]) -> int:
    """How far the placed hands (with the cards each seat already played) are from the other
    players' calls (0: every call fits)."""
    rules = obs.rules
    miss = 0
    named: set[tuple[int, int]] = set()
    retourne = obs.retourne
    for seat, call in obs.calls:
        if seat == obs.seat:
            if isinstance(call, Bid):
                named.add((rules.side_of(seat), call.strain))
            continue
        hand = placed.get(seat, 0) | played.get(seat, 0)
        if isinstance(call, Bid) and not call.capot:
            side = rules.side_of(seat)
            if (side, call.strain) not in named:
                miss += max(0, call.value - BID_MARGIN - contract_estimate(hand, call.strain))
            named.add((side, call.strain))
        elif isinstance(call, Take) and retourne is not None:
            miss += max(0, 60 - strain_value(hand | 1 << retourne, call.suit))
    return miss
