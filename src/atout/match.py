"""A match: deals until a target score (or a number of deals), with every end-of-game rule.

The dealer moves to the next seat after every deal, a void deal included (FFB
§3.1, §4.1). A litige's takers' points wait for the side that makes the next
contract (or wins the next deal, classique). The game ends (FFB §10.3) when a
side reaches the target (or passes it, by option); if both sides get there on the
same deal the larger excess wins (or the takers, classique) and a tie means one
more deal; a side that fell or was capot and reaches the target only through its
belote needs one more trick.

>>> from atout import Match, Ruleset
>>> match = Match(Ruleset.preset("coinche", target=300), seed=5)
>>> import random
>>> rng = random.Random(5)
>>> while not match.finished:
...     deal = match.new_deal()
...     while deal.turn is not None:
...         _ = deal.apply(rng.choice(deal.legal_actions()))
...     _ = match.record(deal)
>>> match.winner in (0, 1) and max(match.scores.values()) >= 300
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from atout.deal import Deal
from atout.errors import AtoutError, excerpt
from atout.i18n import Message
from atout.rules import Ruleset
from atout.scoring import LITIGE, MADE, DealFacts, DealScore, score_deal


@dataclass(frozen=True)
class MatchEntry:
    """One deal of a match: who dealt, its score (None if nobody bid) and the running totals after it."""

    dealer: int
    score: DealScore | None
    facts: DealFacts | None
    marks: dict[int, int]
    totals: dict[int, int]
    held: int
    deal: Deal | None = None
    #: Belotes whose rebelote was forgotten, by side (see the ``belote_tolerance`` option).
    forgotten_rebelote: dict[int, int] = field(default_factory=dict)


class Match:
    """Deals, running scores and the end of the game under one ruleset."""

    def __init__(self, rules: Ruleset, *, first_dealer: int = 0, seed: int | None = None) -> None:
        if not 0 <= first_dealer < rules.players:
            raise AtoutError(
                Message("match.seat", name="first_dealer", last=rules.players - 1, value=excerpt(repr(first_dealer)))
            )
        self.rules = rules
        self.first_dealer = first_dealer
        #: Deal ``i`` of the match is shuffled from (seed, i): a saved match resumes identically.
        self.seed = seed if seed is not None else random.randrange(1 << 62)
        self.entries: list[MatchEntry] = []
        self._recompute()

    # ------------------------------------------------------------------ state
    @property
    def dealer(self) -> int:
        """The seat dealing the next deal."""
        return (self.first_dealer + len(self.entries)) % self.rules.players

    @property
    def scores(self) -> dict[int, int]:
        return dict(self._scores)

    @property
    def held(self) -> int:
        """Points of a litige waiting for the next contract."""
        return self._held

    @property
    def finished(self) -> bool:
        return self.winner is not None

    # ---------------------------------------------------------------- playing
    def new_deal(self) -> Deal:
        """The next deal, dealt by :attr:`dealer`: shuffled, or the last deal's cards gathered and cut (the
        traditional deal; ``redeal = "recut"`` after a deal nobody took)."""
        if self.finished:
            raise AtoutError(Message("match.over"))
        deck = self._gathered_deck()
        return Deal.new(self.rules, dealer=self.dealer, seed=self.deal_seed(len(self.entries)), deck=deck)

    def _gathered_deck(self) -> list[int] | None:
        """The last deal's cards gathered without shuffling, when the next deal is dealt from them."""
        last = self.entries[-1].deal if self.entries else None
        if last is None or last.result is None:
            return None
        if self.rules.traditional_deal or (self.rules.redeal == "recut" and last.result.passed_out):
            return last.gathered_deck()
        return None

    def deal_seed(self, index: int) -> int:
        """The shuffle seed of deal ``index`` (0 for the first)."""
        return random.Random(f"{self.seed}:{index}").getrandbits(63)

    def record(self, deal: Deal) -> MatchEntry:
        """Add a finished deal (played or void) to the match."""
        if deal.result is None:
            raise AtoutError(Message("match.unfinished"))
        if deal.rules != self.rules:
            raise AtoutError(Message("match.other_rules"))
        if deal.dealer != self.dealer:
            raise AtoutError(Message("match.dealer", dealer=deal.dealer, expected=self.dealer))
        if self.finished:
            raise AtoutError(Message("match.over"))
        result = deal.result
        self.entries.append(self._entry(result.score, result.facts, deal, result.forgotten_rebelote))
        self._recompute()
        return self.entries[-1]

    def add_facts(self, facts: DealFacts | None, *, stored: bool = False) -> MatchEntry:
        """Score keeper: add a deal played with real cards from its facts (None: nobody bid).

        Facts that cannot happen raise :class:`~atout.errors.FactsError` and nothing is added.
        ``stored``: facts read back from a score sheet, checked when they were entered; only
        their form is checked again, so a sheet kept by an earlier atout still opens.
        """
        if self.finished:
            raise AtoutError(Message("match.over"))
        if facts is not None and stored:
            facts.check_form(self.rules)
        score = score_deal(self.rules, facts, check=not stored) if facts is not None else None
        self.entries.append(self._entry(score, facts, None))
        self._recompute()
        return self.entries[-1]

    def undo(self) -> MatchEntry:
        """Remove the last deal and return it."""
        if not self.entries:
            raise AtoutError(Message("match.nothing_to_undo"))
        entry = self.entries.pop()
        self._recompute()
        return entry

    def replace_last(self, facts: DealFacts | None) -> MatchEntry:
        """Correct the last deal's facts."""
        if not self.entries:
            raise AtoutError(Message("match.nothing_to_edit"))
        old = self.entries.pop()
        try:
            score = score_deal(self.rules, facts) if facts is not None else None
        except AtoutError:
            self.entries.append(old)
            raise
        self.entries.append(self._entry(score, facts, None))
        self._recompute()
        return self.entries[-1]

    # --------------------------------------------------------------- internals
    def _entry(
        self,
        score: DealScore | None,
        facts: DealFacts | None,
        deal: Deal | None,
        forgotten: dict[int, int] | None = None,
    ) -> MatchEntry:
        zeros = {s: 0 for s in self.rules.sides}
        return MatchEntry(self.dealer, score, facts, zeros, zeros, 0, deal, dict(forgotten or {}))

    def _recompute(self) -> None:
        """Replay every entry from zero: totals, litige, pending belote-only sides and the winner."""
        rules = self.rules
        self._scores = {s: 0 for s in rules.sides}
        self._held = 0
        self.winner: int | None = None
        pending: set[int] = set()
        tolerated: set[int] = set()
        rebuilt = []
        for index, entry in enumerate(self.entries):
            if self.winner is not None:
                raise AtoutError(Message("match.after_end"))
            marks = {s: 0 for s in rules.sides}
            score = entry.score
            if rules.belote_tolerance and entry.facts is not None:
                score = self._tolerate(entry, tolerated) or score
            if score is not None:
                marks = dict(score.marks)
                self._award_litige(score, marks)
                before = dict(self._scores)
                for side, points in marks.items():
                    self._scores[side] += points
                tricks = entry.facts.tricks if entry.facts and entry.facts.tricks else None
                for side in list(pending):
                    took = tricks[side] if tricks else (entry.facts.card_points.get(side, 0) if entry.facts else 0)
                    if took:
                        pending.discard(side)
                if rules.belote_only_rule:
                    for side in score.belote_only:
                        if self._reached(self._scores[side]) and not self._reached(before[side]):
                            pending.add(side)
            rebuilt.append(
                MatchEntry(
                    entry.dealer,
                    score,
                    entry.facts,
                    marks,
                    dict(self._scores),
                    self._held,
                    entry.deal,
                    entry.forgotten_rebelote,
                )
            )
            if score is not None:
                self.winner = self._end_check(index + 1, score, pending)
        self.entries = rebuilt
        self.pending_belote = frozenset(pending)

    def _tolerate(self, entry: MatchEntry, tolerated: set[int]) -> DealScore | None:
        """Count a belote whose rebelote was forgotten, once per side and match (FFB, older wording)."""
        assert entry.facts is not None
        sides = [s for s, n in entry.forgotten_rebelote.items() if n and s not in tolerated]
        if not sides:
            return None
        belote = dict(entry.facts.belote)
        for side in sides:
            belote[side] = belote.get(side, 0) + self.rules.belote_points
            tolerated.add(side)
        return score_deal(self.rules, replace(entry.facts, belote=belote), check=False)

    def _award_litige(self, score: DealScore, marks: dict[int, int]) -> None:
        if score.outcome == LITIGE:
            self._held += score.held
            return
        if not self._held:
            return
        if score.outcome == MADE:
            marks[score.takers] += self._held
            self._held = 0
        elif self.rules.litige == "next_winner":
            defence = [s for s in self.rules.sides if s != score.takers]
            share, extra = divmod(self._held, len(defence))
            for i, side in enumerate(defence):
                marks[side] += share + (1 if i < extra else 0)
            self._held = 0

    def _reached(self, total: int) -> bool:
        target = self.rules.target
        return total >= target if self.rules.game_end == "reach" else total > target

    def _end_check(self, deals_played: int, score: DealScore, pending: set[int]) -> int | None:
        rules = self.rules
        scores = self._scores
        if rules.deals:
            if deals_played < rules.deals:
                return None
            best = max(scores.values())
            leaders = [s for s, v in scores.items() if v == best]
            return leaders[0] if len(leaders) == 1 else None
        reached = [s for s in rules.sides if self._reached(scores[s]) and s not in pending]
        if not reached:
            return None
        if len(reached) == 1:
            return reached[0]
        if rules.both_past == "takers" and score.takers in reached:
            return score.takers
        best = max(scores[s] for s in reached)
        leaders = [s for s in reached if scores[s] == best]
        return leaders[0] if len(leaders) == 1 else None
