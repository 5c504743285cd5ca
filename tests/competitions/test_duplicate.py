"""Duplicate challenges, worked by hand: match points per deal, percentages, standings of unfinished players."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.competitions import ChallengeStanding, challenge_standings, match_points, percentages

PROPERTY = settings(max_examples=80, deadline=None, derandomize=True)

DEAL_1 = {"A": 120, "B": 80, "C": 80}
DEAL_2 = {"A": 0, "B": 160, "C": 90}


def test_match_points_worked_by_hand() -> None:
    assert match_points(DEAL_1) == {"A": 4.0, "B": 1.0, "C": 1.0}
    assert match_points(DEAL_2) == {"A": 0.0, "B": 4.0, "C": 2.0}


def test_match_points_top_and_all_tied() -> None:
    scores = {1: 10, 2: 20, 3: 30, 4: 40, 5: 162}
    assert match_points(scores) == {1: 0.0, 2: 2.0, 3: 4.0, 4: 6.0, 5: 8.0}
    assert match_points({1: 81, 2: 81, 3: 81, 4: 81}) == {1: 3.0, 2: 3.0, 3: 3.0, 4: 3.0}
    assert match_points({}) == {}
    assert match_points({"lone": 100}) == {"lone": 0.0}


def test_percentages() -> None:
    assert percentages(DEAL_1) == {"A": 100.0, "B": 25.0, "C": 25.0}
    assert percentages(DEAL_2) == {"A": 0.0, "B": 100.0, "C": 50.0}
    assert percentages({"lone": 100}) == {"lone": 50.0}
    assert percentages({"x": 80, "y": 80}) == {"x": 50.0, "y": 50.0}
    assert percentages({}) == {}


def test_standings_worked_by_hand() -> None:
    # A: 4 + 0 = 4 of 8 (50 %), B: 1 + 4 = 5 (62.5 %), C: 1 + 2 = 3 (37.5 %).
    assert challenge_standings({1: DEAL_1, 2: DEAL_2}) == [
        ChallengeStanding("B", 1, 2, 5.0, 62.5, 240),
        ChallengeStanding("A", 2, 2, 4.0, 50.0, 120),
        ChallengeStanding("C", 3, 2, 3.0, 37.5, 170),
    ]


def test_participant_who_played_one_deal_is_compared_on_it_only() -> None:
    # D played deal 1 only, with 100 points: he beat B and C (80), lost to A (120). Deal 1 has four players
    # (top 6): A 6, D 4, B 1, C 1. Deal 2 as before (top 4): A 0, B 4, C 2.
    deal_1 = {**DEAL_1, "D": 100}
    table = challenge_standings({1: deal_1, 2: DEAL_2})
    assert [(s.participant, s.rank, s.deals, s.match_points, s.points) for s in table] == [
        ("D", 1, 1, 4.0, 100),
        ("A", 2, 2, 6.0, 120),
        ("B", 3, 2, 5.0, 240),
        ("C", 4, 2, 3.0, 170),
    ]
    shares = {s.participant: s.percentage for s in table}
    assert shares["D"] == 400 / 6
    assert shares == {"D": 400 / 6, "A": 60.0, "B": 50.0, "C": 30.0}


def test_ties_share_a_rank_and_are_listed_by_participant() -> None:
    # Four on deal 7 (top 6): 1 and 3 tie for the top, 5 of 6 each; 2 and 4 tie below, 1 each. 5 plays alone.
    table = challenge_standings({7: {3: 100, 1: 100, 4: 50, 2: 50}, 8: {5: 40}})
    assert [(s.rank, s.participant, s.percentage) for s in table] == [
        (1, 1, 250 / 3),
        (1, 3, 250 / 3),
        (3, 5, 50.0),
        (4, 2, 50 / 3),
        (4, 4, 50 / 3),
    ]


def test_equal_percentage_is_split_by_total_points() -> None:
    # Both win one deal and lose the other, 50 % each; B scored more.
    table = challenge_standings({1: {"A": 100, "B": 90}, 2: {"A": 10, "B": 60}})
    assert [(s.rank, s.participant, s.percentage, s.points) for s in table] == [
        (1, "B", 50.0, 150),
        (2, "A", 50.0, 110),
    ]


def test_participants_that_do_not_compare_are_listed_by_str() -> None:
    table = challenge_standings({1: {"b": 50, 2: 50, "a": 50}})
    assert [(s.rank, s.participant) for s in table] == [(1, 2), (1, "a"), (1, "b")]


def test_no_deals() -> None:
    assert challenge_standings({}) == []
    assert challenge_standings({1: {}}) == []


scores_st = st.dictionaries(st.integers(0, 40), st.integers(0, 252), max_size=12)


@PROPERTY
@given(scores_st)
def test_a_deal_shares_n_times_n_minus_1_match_points(scores: dict[int, int]) -> None:
    n = len(scores)
    points = match_points(scores)
    assert sum(points.values()) == n * (n - 1)
    assert all(0 <= won <= 2 * (n - 1) for won in points.values())
    assert all(0 <= share <= 100 for share in percentages(scores).values())


@PROPERTY
@given(st.dictionaries(st.integers(1, 9), scores_st, max_size=6))
def test_standings_percentages_and_ranks(results: dict[int, dict[int, int]]) -> None:
    table = challenge_standings(results)
    assert sorted(s.participant for s in table) == sorted({p for scores in results.values() for p in scores})
    assert all(0 <= s.percentage <= 100 for s in table)
    assert [s.rank for s in table] == sorted(s.rank for s in table)
    assert all((s.percentage, s.points) >= (t.percentage, t.points) for s, t in itertools.pairwise(table))
    assert sum(s.match_points for s in table) == sum(len(d) * (len(d) - 1) for d in results.values())
