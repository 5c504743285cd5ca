"""Duplicate boards: the same deal played once per orientation, so luck cancels out.

With four players, bot A holds North-South then East-West (B the other seats); with
two, A sits at each seat in turn; with three, A takes each seat in turn against two
copies of B. A board's result is A's marks minus B's, summed over the orientations
and divided by their number: the score difference per deal.

With the specs' own bots (:func:`atout.bots.build_agent`, the default), a board is a pure
function of the rules, the two specs and its seed: the bots are built without a clock (their
search budgets are counted in solver nodes), so it replays action for action on any machine,
whatever its load. (Another engine's bot may keep a clock of its own: colver's ``time_ms``.)

A play-only match gives every seat the same ``bidder`` (its auction calls; each seat's bidder is
seeded by its seat alone, so a deterministic bidder makes the same auction in every orientation)
and leaves the cards to A and B: only card play then differs. A bidding-only match gives every
seat the same card ``player`` instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from atout.bots import Agent, build_agent
from atout.bots.specs import BotSpec, ComposedAgent
from atout.deal import Deal
from atout.rules import Ruleset
from atout.scoring import DealFacts


@dataclass
class Orientation:
    """One play of a board: the seats bot A held, the marks by side, the facts, the seconds
    each decision took for bot ``"a"`` and bot ``"b"``, every action in its notation, the
    outcome (``made``, ``chute``, ``litige``, or ``passed`` when nobody bid), and the processor
    seconds (every thread of the process) each bot's decisions took in all: against their
    seconds, the cores a bot had while it decided (a clock-bound bot searches less when other
    work takes its cores)."""

    a_seats: tuple[int, ...]
    marks: dict[int, int]
    a_marks: float
    b_marks: float
    facts: DealFacts | None
    seconds: dict[str, list[float]] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    outcome: str = ""
    processor: dict[str, float] = field(default_factory=dict)

    @property
    def takers(self) -> str | None:
        """Whose side took the contract: ``"a"``, ``"b"``, or None when nobody bid."""
        if self.facts is None:
            return None
        return "a" if self.facts.contract.taker in self.a_seats else "b"


@dataclass
class Board:
    """A board: its seed and dealer, and every orientation's play."""

    index: int
    seed: int
    dealer: int
    plays: list[Orientation]

    @property
    def diff(self) -> float:
        """A's marks minus B's per deal, averaged over the orientations."""
        return sum(p.a_marks - p.b_marks for p in self.plays) / len(self.plays)

    def to_dict(self) -> dict[str, Any]:
        return {
            "board": self.index,
            "seed": self.seed,
            "dealer": self.dealer,
            "diff": self.diff,
            "plays": [
                {
                    "a_seats": list(p.a_seats),
                    "marks": {str(k): v for k, v in p.marks.items()},
                    "a": p.a_marks,
                    "b": p.b_marks,
                    "facts": p.facts.to_dict() if p.facts else None,
                    "seconds": {name: [round(x, 6) for x in xs] for name, xs in p.seconds.items()},
                    "actions": " ".join(p.actions),
                    "outcome": p.outcome,
                    "processor": {name: round(x, 6) for name, x in p.processor.items()},
                    "takers": p.takers,
                    "contract": p.facts.contract.label("en") if p.facts else None,
                }
                for p in self.plays
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Board:
        """A board read back from a results file."""
        plays = [
            Orientation(
                tuple(p["a_seats"]),
                {int(k): v for k, v in p["marks"].items()},
                p["a"],
                p["b"],
                DealFacts.from_dict(p["facts"]) if p["facts"] else None,
                {name: list(xs) for name, xs in p["seconds"].items()},
                p.get("actions", "").split(),
                p.get("outcome", ""),
                {name: float(x) for name, x in p.get("processor", {}).items()},
            )
            for p in data["plays"]
        ]
        return cls(data["board"], data["seed"], data["dealer"], plays)


def orientations(players: int) -> list[tuple[int, ...]]:
    """The seats bot A holds in each play of a board."""
    if players == 4:
        return [(0, 2), (1, 3)]
    return [(seat,) for seat in range(players)]


#: Builds the agent of a spec with a seed (:func:`atout.bots.build_agent`, or a policy adapter's).
AgentMaker = Callable[[BotSpec, int], Agent]


def play_board(
    rules: Ruleset,
    spec_a: BotSpec,
    spec_b: BotSpec,
    index: int,
    seed: int,
    make_agent: AgentMaker = build_agent,
    bidder: BotSpec | None = None,
    player: BotSpec | None = None,
) -> Board:
    """Play board ``index`` (cards from ``seed``) in every orientation; bots are seeded from the board.
    ``bidder`` (``player``) makes every seat's calls (cards) instead of A's and B's."""
    dealer = index % rules.players
    plays = []
    for number, a_seats in enumerate(orientations(rules.players)):
        agents = []
        for seat in range(rules.players):
            agent = make_agent(spec_a if seat in a_seats else spec_b, seed * 16 + number * 4 + seat)
            if bidder is not None or player is not None:
                calls = agent if bidder is None else make_agent(bidder, seed * 16 + 8 + seat)
                cards = agent if player is None else make_agent(player, seed * 16 + 12 + seat)
                agent = ComposedAgent(agent.name, calls, cards, 0.0, seed)
            agents.append(agent)
        deal = Deal.new(rules, dealer=dealer, seed=seed)
        seconds: dict[str, list[float]] = {"a": [], "b": []}
        processor = {"a": 0.0, "b": 0.0}
        actions = []
        while deal.turn is not None:
            seat = deal.turn
            bot = "a" if seat in a_seats else "b"
            start, start_processor = time.perf_counter(), time.process_time()
            action = agents[seat].act(deal.observation(seat))
            seconds[bot].append(time.perf_counter() - start)
            processor[bot] += time.process_time() - start_processor
            deal.apply(action, seat)
            actions.append(action.notation())
        assert deal.result is not None
        marks = deal.result.marks or {s: 0 for s in rules.sides}
        a_sides = {rules.side_of(s) for s in a_seats}
        b_sides = [s for s in rules.sides if s not in a_sides]
        a_marks = sum(marks.get(s, 0) for s in a_sides) / len(a_sides)
        b_marks = sum(marks.get(s, 0) for s in b_sides) / len(b_sides)
        score = deal.result.score
        outcome = score.outcome if score is not None else "passed"
        plays.append(
            Orientation(a_seats, dict(marks), a_marks, b_marks, deal.result.facts, seconds, actions, outcome, processor)
        )
    return Board(index, seed, dealer, plays)
