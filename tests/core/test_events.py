"""What an action did, said once by the rules core: the events of random deals of every preset rebuild each seat's
public history, and no seat's events name a card it may not know at that moment."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout import PRESETS, Card, Deal, Ruleset
from atout.cardplay import Trick
from atout.events import (
    Called,
    CardPlayed,
    DealOver,
    Declared,
    Event,
    Heard,
    PassedOut,
    PublicDeclaration,
    Resolved,
    Settled,
    TrickWon,
)
from atout.observation import Observation


class History:
    """A seat's public history of a deal, rebuilt from nothing but the events it was given."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.players = players
        self.calls: list[tuple[int, object]] = []
        self.contract = None
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[Trick] = []
        self.belote_said: list[tuple[int, Card, str]] = []
        self.heard: dict[int, tuple[PublicDeclaration, ...]] = {}
        self.declared: tuple | None = None
        self.shown: dict[int, tuple] = {}
        self.winner: int | None = None
        self.result = None
        self.passed_out = False

    def add(self, event: Event) -> None:
        if isinstance(event, Called):
            self.calls.append((event.seat, event.call))
        elif isinstance(event, Settled):
            self.contract = event.contract
        elif isinstance(event, PassedOut):
            self.passed_out = True
        elif isinstance(event, Declared):
            assert event.seat == self.seat, "another seat's declaration reached this seat whole"
            self.declared = event.announcements
        elif isinstance(event, Heard):
            assert event.seat != self.seat
            if event.declarations:
                self.heard[event.seat] = event.declarations
        elif isinstance(event, CardPlayed):
            self.trick.append((event.seat, event.card))
            if event.word:
                self.belote_said.append((event.seat, event.card, event.word))
        elif isinstance(event, TrickWon):
            assert [c for _, c in self.trick] == list(event.cards) and self.trick[0][0] == event.leader
            self.tricks.append(Trick(event.leader, event.cards, event.winner, event.points))
            self.trick = []
        elif isinstance(event, Resolved):
            self.shown = dict(event.shown)
            self.winner = event.winner
        elif isinstance(event, DealOver):
            self.result = event.result

    def check(self, obs: Observation) -> None:
        """Everything the history holds is what the seat's observation says."""
        assert self.calls == list(obs.calls)
        assert self.contract == obs.contract
        assert self.tricks == list(obs.tricks) and self.trick == list(obs.trick)
        assert self.belote_said == list(obs.belote_said)
        assert self.heard == obs.heard
        if self.declared is not None:
            assert self.declared == obs.declared
        assert self.shown == obs.shown and self.winner == obs.announcement_winner
        assert self.result is obs.result


def named_cards(event: Event) -> int:
    """The cards an event names."""
    mask = 0
    if isinstance(event, CardPlayed):
        mask |= 1 << event.card
    elif isinstance(event, TrickWon):
        for c in event.cards:
            mask |= 1 << c
    elif isinstance(event, Declared):
        for a in event.announcements:
            mask |= a.cards
    elif isinstance(event, Resolved):
        for shown in event.shown.values():
            for a in shown:
                mask |= a.cards
    return mask


def play_out(rules: Ruleset, seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal.new(rules, dealer=seed % rules.players, seed=seed)
    n = rules.players
    histories = [History(seat, n) for seat in range(n)]
    spectator = History(-1, n)
    while deal.turn is not None:
        events = deal.apply(rng.choice(deal.legal_actions()))
        assert events and all(isinstance(e, Event) for e in events)
        for seat in range(n):
            obs = deal.observation(seat)
            for event in events:
                seen = event.seen_by(seat)
                assert named_cards(seen) & obs.unseen == 0, f"{seen} names a card seat {seat} does not know"
                histories[seat].add(seen)
            histories[seat].check(obs)
        for event in events:
            seen = event.seen_by(None)
            assert not isinstance(seen, Declared)
            spectator.add(seen)
    assert isinstance(events[-1], DealOver) and events[-1].result is deal.result
    assert spectator.passed_out == deal.result.passed_out
    assert spectator.tricks == deal.tricks and spectator.calls == deal.actions[: len(spectator.calls)]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_events_rebuild_each_seats_history_and_name_no_hidden_card(preset: str, seed: int) -> None:
    play_out(Ruleset.preset(preset), seed)


def test_a_trick_won_says_its_dix_de_der_and_the_words_said() -> None:
    """The last trick adds the dix de der (FFB §9.1); « belote » is said with the first of the king and queen of
    trump, « rebelote » with the second (FFB §7)."""
    rules = Ruleset.preset("coinche", announcements=False)
    deal = Deal.from_hands(rules, ["AKQJT987...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987"], dealer=3)
    for call in ("80S", "P", "P", "P"):
        deal.apply(call)
    assert [e.word for e in deal.apply("KS!") if isinstance(e, CardPlayed)] == ["belote"]
    for _ in range(3):
        deal.apply(deal.legal_actions()[0])
    assert [e.word for e in deal.apply("QS!") if isinstance(e, CardPlayed)] == ["rebelote"]
    last: tuple[Event, ...] = ()
    while deal.turn is not None:
        last = deal.apply(deal.legal_actions()[0])
    won = [e for e in last if isinstance(e, TrickWon)]
    assert len(won) == 1 and won[0].number == 8 and won[0].dix_de_der == 10 and won[0].total == won[0].points + 10
    assert isinstance(last[-1], DealOver)
