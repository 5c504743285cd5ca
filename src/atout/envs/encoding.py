"""The observation of one seat as a fixed-size array of float32, and its documented layout.

The array is a concatenation of named sections. A *seat* section holds one block
per seat, in order from the observer: its own block first, then the next player's
(with four players, block 2 is the partner's). A *side* section holds one block per
scoring side, the observer's side first. Card blocks have 32 entries indexed by
card (``suit * 8 + rank``; ♠ ♥ ♦ ♣, 7 8 9 10 J Q K A), even with a 24-card deck.
Sections a ruleset cannot use (the retourne without one, bids around a retourne,
announcements when there are none) have no entries, so the size depends on the
ruleset only. :meth:`Layout.describe` lists the sections of a ruleset.

:func:`encode` builds the array from an :class:`~atout.observation.Observation`
alone, which holds only what the seat may know; the environments keep the arrays
up to date action by action instead (see :mod:`atout.envs.table`), and the tests
check that both agree at every step of many random deals.

>>> from atout import Deal, Ruleset
>>> rules = Ruleset.preset("coinche")
>>> layout = Layout(rules)
>>> layout.size
1932
>>> deal = Deal.new(rules, dealer=0, seed=1)
>>> array = encode(deal.observation(2))
>>> int(array[layout.slices["hand"]].sum())              # eight cards in hand
8
>>> float(layout.blocks(array, "turn")[3, 0])            # seat 1 speaks: three seats after seat 2
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from atout.actions import Bid, Coinche, Pass, Surcoinche, Take
from atout.announcements import KINDS, Announcement
from atout.envs.actions import MAX_ANNOUNCEMENTS, ruleset_bids
from atout.observation import Observation
from atout.rules import Ruleset, per_ruleset
from atout.tables import DIX_DE_DER

#: Scales: points of an announcement, card points of a deal, marks and scores.
ANNOUNCEMENT_SCALE = 200.0
CARD_POINTS_SCALE = 162.0
SCORE_SCALE = 1000.0
#: Upper bound of the score sections (in thousands of points).
SCORE_HIGH = 1000.0
#: An announcement block: its kind (tierce, cinquante, cent, carré) and its points / 200.
ANNOUNCEMENT_UNIT = len(KINDS) + 1

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Section:
    """One named part of the observation."""

    name: str
    #: ``global`` (one block), ``seat`` (one block per seat), ``side`` (one per side) or ``own``
    #: (the observer's private block).
    scope: str
    unit: int
    doc: str
    #: Where its first block starts in the observation and in the state :func:`encode` fills (every
    #: seat's blocks, from which it gathers the observer's view).
    offset: int = 0
    state_offset: int = 0

    def blocks(self, players: int, sides: int) -> int:
        return {"global": 1, "own": 1, "seat": players, "side": sides}[self.scope]

    def state_blocks(self, players: int, sides: int) -> int:
        return players if self.scope == "own" else self.blocks(players, sides)


class Layout:
    """The sections of a ruleset's observation and how each seat's view is gathered."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        n = rules.players
        self.players = n
        self.sides = len(rules.sides)
        self.bids = ruleset_bids(rules)
        self.bid_index = {bid: i for i, bid in enumerate(self.bids)}
        retourne = rules.auction == "retourne"
        announcing = rules.announcements
        k = MAX_ANNOUNCEMENTS
        specs: list[tuple[str, str, int, str, bool]] = [
            ("phase", "global", 3, "auction, play, over", True),
            ("dealer", "seat", 1, "the dealer", True),
            ("turn", "seat", 1, "the seat to act (none once the deal is over)", True),
            ("hand", "own", 32, "the cards in the observer's hand", True),
            ("dealt_hand", "own", 32, "the observer's hand as dealt, before the retourne was taken", retourne),
            (
                "to_declare",
                "own",
                k * (32 + ANNOUNCEMENT_UNIT),
                "the observer's best announcements while it may declare them, strongest first: "
                "for each, its cards (32), kind and points",
                announcing,
            ),
            ("retourne", "global", 32, "the turned card", retourne),
            ("bergere", "global", 32, "the last card of the stock, turned face up (two players)", n == 2),
            ("bids", "seat", len(self.bids), "the bids each seat made, by ladder index", not retourne),
            ("coinche", "seat", 1, "the seat that coinched", not retourne),
            ("surcoinche", "seat", 1, "the seat that surcoinched", not retourne),
            ("take_passes", "seat", 2, "the seat passed in the first, the second round", retourne),
            ("take", "seat", 4, "the seat took, with this trump suit", retourne),
            ("contract_strain", "global", 6, "♠ ♥ ♦ ♣, sans atout, tout atout", True),
            ("contract_level", "global", 3, "plain, coinched, surcoinched", True),
            ("contract_capot", "global", 1, "capot was bid", True),
            ("contract_value", "global", 1, "the bid's value / the ruleset's highest bid", True),
            ("taker", "seat", 1, "the taker", True),
            ("played", "seat", 32, "the cards each seat played", True),
            (
                "trick_of_card",
                "global",
                32,
                "for each card played, the trick it was played in: (t + 1) / tricks in a deal, t = 0 for the first",
                True,
            ),
            ("trick", "seat", 32, "the cards of the trick in progress, by who played them", True),
            ("leader", "seat", 1, "the seat that led the trick in progress", True),
            ("voids", "seat", 4, "the seat showed out of the suit (did not follow it)", True),
            ("tricks_won", "side", 1, "tricks won / tricks in a deal", True),
            ("card_points", "side", 1, "card points won in tricks (dix de der included) / 162", True),
            (
                "declared",
                "seat",
                k * ANNOUNCEMENT_UNIT,
                "the announcements each seat declared, as heard: kind, and points / 200 where the kind tells them "
                "(a sequence; another seat's carré is 0 until shown, FFB §8.2)",
                announcing,
            ),
            ("shown", "seat", 32, "the cards each seat showed for its announcements", announcing),
            ("announcement_winner", "side", 1, "the side whose announcements count", announcing),
            ("belote", "seat", 8, "belote / rebelote said with the queen, king of ♠ ♥ ♦ ♣", rules.belote),
            ("deal_marks", "side", 1, "the deal's marks once it is over / 1000", True),
            ("match_scores", "side", 1, "the match's scores before this deal / 1000", True),
            ("held", "global", 1, "the points of a litige waiting for the next contract / 1000", True),
        ]
        self.sections: dict[str, Section] = {}
        offset = state_offset = 0
        for name, scope, unit, doc, present in specs:
            section = Section(name, scope, unit if present else 0, doc, offset, state_offset)
            self.sections[name] = section
            offset += section.unit * section.blocks(n, self.sides)
            state_offset += section.unit * section.state_blocks(n, self.sides)
        self.size = offset
        self.state_size = state_offset
        self.seat_sides = [self.side(seat) for seat in range(n)]
        #: By section, for each of its blocks (one per seat for an ``own`` section): where the block
        #: starts in each observation that shows it, the seats' observations laid end to end.
        self.block_positions = {s.name: self._block_positions(s) for s in self.sections.values()}
        self.slices = {
            s.name: slice(s.offset, s.offset + s.unit * s.blocks(n, self.sides)) for s in self.sections.values()
        }
        self.low = np.zeros(self.size, np.float32)
        self.high = np.ones(self.size, np.float32)
        for name in ("deal_marks", "match_scores", "held"):
            self.high[self.slices[name]] = SCORE_HIGH
        self.gather = [self._gather(seat) for seat in range(n)]

    def side(self, seat: int) -> int:
        """The index of a seat's side among the sides."""
        return self.rules.sides.index(self.rules.side_of(seat))

    def _block_positions(self, s: Section) -> list[tuple[int, ...]]:
        n, size, seats = self.players, self.size, range(self.players)
        if s.scope == "own":
            return [(seat * size + s.offset,) for seat in seats]
        if s.scope == "global":
            return [tuple(viewer * size + s.offset for viewer in seats)]
        if s.scope == "seat":
            return [
                tuple(viewer * size + s.offset + (seat - viewer) % n * s.unit for viewer in seats) for seat in seats
            ]
        return [
            tuple(viewer * size + s.offset + (side - self.seat_sides[viewer]) % self.sides * s.unit for viewer in seats)
            for side in range(self.sides)
        ]

    def _gather(self, viewer: int) -> npt.NDArray[np.intp]:
        """For each entry of ``viewer``'s observation, the index of the state entry it shows."""
        n, sides = self.players, self.sides
        my_side = self.side(viewer)
        out: list[int] = []
        for s in self.sections.values():
            if s.scope == "global":
                order: Sequence[int] = (0,)
            elif s.scope == "own":
                order = (viewer,)
            elif s.scope == "seat":
                order = [(viewer + r) % n for r in range(n)]
            else:
                order = [(my_side + r) % sides for r in range(sides)]
            for block in order:
                start = s.state_offset + block * s.unit
                out.extend(range(start, start + s.unit))
        return np.array(out, dtype=np.intp)

    def blocks(self, observation: FloatArray, name: str) -> FloatArray:
        """A section of an observation as an array of blocks (one row per block)."""
        s = self.sections[name]
        return observation[self.slices[name]].reshape(s.blocks(self.players, self.sides), s.unit)

    def describe(self) -> list[tuple[str, int, int, str]]:
        """Each section: name, offset, size and meaning (scope included)."""
        rows = []
        for s in self.sections.values():
            size = s.unit * s.blocks(self.players, self.sides)
            if size:
                scope = {"global": "", "own": "", "seat": f" ({s.unit} per seat)", "side": f" ({s.unit} per side)"}
                rows.append((s.name, s.offset, size, s.doc + scope[s.scope]))
        return rows


#: The (shared) layout of a ruleset.
layout_of = per_ruleset(Layout)


def announcement_entries(announcement: Announcement, points: int) -> list[float]:
    """An announcement block: its kind one-hot and its points / 200."""
    out = [0.0] * ANNOUNCEMENT_UNIT
    out[KINDS.index(announcement.kind)] = 1.0
    out[-1] = points / ANNOUNCEMENT_SCALE
    return out


def encode(
    obs: Observation,
    dealt_hand: int | None = None,
    scores: dict[int, int] | None = None,
    held: int = 0,
) -> FloatArray:
    """The observation array of ``obs.seat``, from the observation alone.

    ``dealt_hand`` is the seat's hand as dealt (rulesets with a retourne: the observation
    only holds the hand since the play started; during the auction it is ``obs.hand``);
    ``scores`` and ``held`` are the match's scores and litige before this deal.
    """
    rules = obs.rules
    layout = layout_of(rules)
    n = rules.players
    state = np.zeros(layout.state_size, np.float32)
    sections = layout.sections

    def put(name: str, block: int, index: int, value: float = 1.0) -> None:
        s = sections[name]
        state[s.state_offset + block * s.unit + index] = value

    def put_cards(name: str, block: int, mask: int, base: int = 0) -> None:
        for card in range(32):
            if mask >> card & 1:
                put(name, block, base + card)

    seat = obs.seat
    put("phase", 0, ("auction", "play", "done").index(obs.phase.value))
    put("dealer", obs.dealer, 0)
    if obs.turn is not None:
        put("turn", obs.turn, 0)
    put_cards("hand", seat, obs.hand)
    if sections["dealt_hand"].unit:
        put_cards("dealt_hand", seat, obs.hand if dealt_hand is None else dealt_hand)
    if obs.retourne is not None and sections["retourne"].unit:
        put("retourne", 0, int(obs.retourne))
    if obs.bergere is not None:
        put("bergere", 0, int(obs.bergere))
    unit = 32 + ANNOUNCEMENT_UNIT
    strain = obs.contract.strain if obs.contract else 0
    for i, a in enumerate(obs.to_declare):
        put_cards("to_declare", seat, a.cards, i * unit)
        for j, value in enumerate(announcement_entries(a, a.points(strain, rules.announcement_values))):
            put("to_declare", seat, i * unit + 32 + j, value)
    passes = 0
    for who, call in obs.calls:
        if isinstance(call, Bid):
            put("bids", who, layout.bid_index[call])
        elif isinstance(call, Coinche):
            put("coinche", who, 0)
        elif isinstance(call, Surcoinche):
            put("surcoinche", who, 0)
        elif isinstance(call, Take):
            put("take", who, call.suit)
        elif isinstance(call, Pass) and sections["take_passes"].unit:
            put("take_passes", who, passes // n)
            passes += 1
    contract = obs.contract
    if contract is not None:
        put("contract_strain", 0, contract.strain)
        put("contract_level", 0, contract.level)
        put("contract_capot", 0, 0, float(contract.capot))
        put("contract_value", 0, 0, contract.value / rules.highest_bid)
        put("taker", contract.taker, 0)
    points = [0] * layout.sides
    won = [0] * layout.sides
    for number, trick in enumerate(obs.tricks):
        led = trick.cards[0] >> 3
        for i, card in enumerate(trick.cards):
            who = (trick.leader + i) % n
            put("played", who, card)
            put("trick_of_card", 0, card, (number + 1) / rules.hand_size)
            if card >> 3 != led:
                put("voids", who, led)
        side = layout.side(trick.winner)
        won[side] += 1
        points[side] += trick.points + (DIX_DE_DER if number == rules.hand_size - 1 else 0)
    for side in range(layout.sides):
        put("tricks_won", side, 0, won[side] / rules.hand_size)
        put("card_points", side, 0, points[side] / CARD_POINTS_SCALE)
    if obs.phase.value == "play":
        leader = obs.trick[0][0] if obs.trick else (obs.tricks[-1].winner if obs.tricks else (obs.dealer + 1) % n)
        put("leader", leader, 0)
    for i, (who, card) in enumerate(obs.trick):
        put("played", who, card)
        put("trick_of_card", 0, card, (len(obs.tricks) + 1) / rules.hand_size)
        put("trick", who, card)
        if i and card >> 3 != obs.trick[0][1] >> 3:
            put("voids", who, obs.trick[0][1] >> 3)
    heard = {who: [(d.kind, d.points or 0) for d in declared] for who, declared in obs.heard.items()}
    if obs.declared:
        heard[seat] = [(a.kind, a.points(strain, rules.announcement_values)) for a in obs.declared]
    for who, declared in heard.items():
        for i, (kind, value) in enumerate(declared):
            put("declared", who, i * ANNOUNCEMENT_UNIT + KINDS.index(kind))
            put("declared", who, i * ANNOUNCEMENT_UNIT + len(KINDS), value / ANNOUNCEMENT_SCALE)
    for who, shown in obs.shown.items():
        for a in shown:
            put_cards("shown", who, a.cards)
    if obs.announcement_winner is not None:
        put("announcement_winner", rules.sides.index(obs.announcement_winner), 0)
    for who, card, _ in obs.belote_said:
        put("belote", who, 2 * (card >> 3) + (card & 7) - 5)
    if obs.result is not None and not obs.result.passed_out:
        for side, marks in obs.result.marks.items():
            put("deal_marks", rules.sides.index(side), 0, marks / SCORE_SCALE)
    for side, score in (scores or {}).items():
        put("match_scores", rules.sides.index(side), 0, score / SCORE_SCALE)
    put("held", 0, 0, held / SCORE_SCALE)
    return state[layout.gather[seat]]


__all__ = ["Layout", "Section", "encode", "layout_of"]
