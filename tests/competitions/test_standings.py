"""The standings of a concours, worked by hand: both rankings, draws, byes, shared ranks, mêlée players."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.competitions import Bye, Result, Standing, bye_takers, met_pairs, partner_pairs, standings

# Six teams, two rounds. Everyone but team 6 scores 1800 points, so the difference decides.
SIX = [
    Result(1, ((1,), (2,)), (1000, 800)),
    Result(1, ((3,), (4,)), (800, 800)),
    Result(1, ((5,), (6,)), (900, 700)),
    Result(2, ((1,), (3,)), (800, 1000)),
    Result(2, ((2,), (5,)), (1000, 900)),
    Result(2, ((4,), (6,)), (1000, 700)),
]


def line(entrant: int, rank: int, wins: Fraction | int, points: int, against: int, byes: int = 0) -> Standing:
    return Standing(entrant, rank, 2, Fraction(wins), points, against, byes)


def test_points_ranking_orders_by_points_then_difference() -> None:
    assert standings(range(1, 7), SIX) == [
        line(4, 1, Fraction(3, 2), 1800, 1500),
        line(3, 2, Fraction(3, 2), 1800, 1600),
        line(5, 3, 1, 1800, 1700),
        line(1, 4, 1, 1800, 1800),
        line(2, 5, 1, 1800, 1900),
        line(6, 6, 0, 1400, 1900),
    ]


def test_wins_ranking_orders_by_wins_then_points_then_difference() -> None:
    table = standings(range(1, 7), SIX, ranking="wins")
    assert [(s.rank, s.entrant, s.wins) for s in table] == [
        (1, 4, Fraction(3, 2)),
        (2, 3, Fraction(3, 2)),
        (3, 5, 1),
        (4, 1, 1),
        (5, 2, 1),
        (6, 6, 0),
    ]
    assert [s.difference for s in table] == [300, 200, 100, 0, -100, -500]


def test_wins_ranking_puts_points_before_difference() -> None:
    # Team 1 wins narrowly with many points, team 3 wins big with fewer.
    results = [Result(1, ((1,), (2,)), (1500, 1400)), Result(1, ((3,), (4,)), (1200, 300))]
    assert [s.entrant for s in standings([1, 2, 3, 4], results, ranking="wins")] == [1, 3, 2, 4]
    assert [s.entrant for s in standings([1, 2, 3, 4], results)] == [1, 2, 3, 4]


def test_points_ranking_falls_back_on_wins() -> None:
    # Teams 1 and 2 both have 1800 points for 1600: team 1 won and drew (1½ wins), team 2 won and lost (1).
    results = [
        Result(1, ((1,), (3,)), (1000, 800)),
        Result(1, ((2,), (4,)), (1100, 800)),
        Result(2, ((1,), (4,)), (800, 800)),
        Result(2, ((2,), (3,)), (700, 800)),
    ]
    table = standings([2, 1, 3, 4], results)
    assert [(s.entrant, s.points, s.difference, s.wins) for s in table[:2]] == [
        (1, 1800, 200, Fraction(3, 2)),
        (2, 1800, 200, Fraction(1)),
    ]


def test_a_draw_gives_half_a_win_to_each_side() -> None:
    table = standings([7, 9], [Result(1, ((9,), (7,)), (1000, 1000))])
    assert [(s.entrant, s.rank, s.wins, s.points, s.against) for s in table] == [
        (7, 1, Fraction(1, 2), 1000, 1000),
        (9, 1, Fraction(1, 2), 1000, 1000),
    ]


def test_equals_share_a_rank_and_are_listed_by_id() -> None:
    results = [
        Result(1, ((1,), (6,)), (1100, 700)),
        Result(1, ((4,), (5,)), (900, 800)),
        Result(1, ((2,), (3,)), (900, 800)),
    ]
    table = standings([6, 5, 4, 3, 2, 1], results)
    assert [(s.rank, s.entrant) for s in table] == [(1, 1), (2, 2), (2, 4), (4, 3), (4, 5), (6, 6)]


def test_a_bye_scores_the_round_mean_rounded_half_up() -> None:
    round_one = [Result(1, ((1,), (2,)), (1000, 801)), Result(1, ((3,), (4,)), (900, 900))]
    # (1000 + 801 + 900 + 900) / 4 = 900.25: 900.
    exempt = next(s for s in standings(range(1, 6), round_one, [Bye(1, (5,))]) if s.entrant == 5)
    assert exempt == Standing(5, exempt.rank, 1, Fraction(1), 900, 900, 1)
    # (1000 + 802 + 900 + 900) / 4 = 900.5: 901.
    round_one[0] = Result(1, ((1,), (2,)), (1000, 802))
    exempt = next(s for s in standings(range(1, 6), round_one, [Bye(1, (5,))]) if s.entrant == 5)
    assert (exempt.points, exempt.against, exempt.wins) == (901, 901, Fraction(1))


def test_a_bye_in_a_round_without_tables_scores_nothing_but_a_win() -> None:
    table = standings([1, 2], [], [Bye(3, (2,))])
    assert table == [Standing(2, 1, 1, Fraction(1), 0, 0, 1), Standing(1, 2, 0, Fraction(0), 0, 0, 0)]


def test_melee_players_take_their_sides_figures() -> None:
    results = [Result(1, ((1, 2), (3, 4)), (1000, 700)), Result(2, ((1, 3), (2, 4)), (600, 900))]
    table = {s.entrant: s for s in standings([1, 2, 3, 4, 5], results, [Bye(1, (5,)), Bye(2, (5,))])}
    assert (table[1].points, table[1].against, table[1].wins) == (1600, 1600, Fraction(1))
    assert (table[2].points, table[2].against, table[2].wins) == (1900, 1300, Fraction(2))
    assert (table[3].points, table[3].against, table[3].wins) == (1300, 1900, Fraction(0))
    assert (table[4].points, table[4].against, table[4].wins) == (1600, 1600, Fraction(1))
    # Player 5 sat out both rounds: (1000 + 700) / 2 + (600 + 900) / 2 points, and two wins.
    assert table[5] == Standing(5, 2, 2, Fraction(2), 1600, 1600, 2)
    # 1600 points and an even difference for 1, 4 and 5: player 5's two wins put him ahead.
    assert [table[n].rank for n in (2, 5, 1, 4, 3)] == [1, 2, 3, 3, 5]
    assert met_pairs(results) == {frozenset(p) for p in [(1, 3), (1, 4), (2, 3), (2, 4), (1, 2), (3, 4)]}
    assert partner_pairs(results) == {frozenset(p) for p in [(1, 2), (3, 4), (1, 3), (2, 4)]}
    assert bye_takers([Bye(1, (5,)), Bye(2, (6,))]) == {5, 6}


def test_team_pairs_are_the_team_ids() -> None:
    assert met_pairs(SIX[:3]) == {frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6})}
    assert partner_pairs(SIX) == set()


@st.composite
def concours(draw: st.DrawFn) -> tuple[list[int], list[Result], list[Bye]]:
    """Random rounds of random teams and totals, an odd team out exempt."""
    teams = list(range(1, draw(st.integers(2, 11)) + 1))
    results: list[Result] = []
    byes: list[Bye] = []
    for round_no in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(teams))
        if len(order) % 2:
            byes.append(Bye(round_no, (order.pop(),)))
        for a, b in zip(order[::2], order[1::2], strict=True):
            points = (draw(st.integers(0, 2000)), draw(st.integers(0, 2000)))
            results.append(Result(round_no, ((a,), (b,)), points))
    return teams, results, byes


@settings(max_examples=100, deadline=None, derandomize=True)
@given(concours(), st.sampled_from(["points", "wins"]))
def test_standings_are_consistent(field: tuple[list[int], list[Result], list[Bye]], ranking: str) -> None:
    teams, results, byes = field
    table = standings(teams, results, byes, ranking="wins" if ranking == "wins" else "points")
    assert sorted(s.entrant for s in table) == teams
    assert sum(s.wins for s in table) == len(results) + len(byes)
    assert sum(s.played for s in table) == 2 * len(results) + len(byes)
    assert sum(s.points - s.against for s in table) == 0  # a bye scores what it concedes
    for position, s in enumerate(table):
        better = [other for other in table if _criteria(other, ranking) > _criteria(s, ranking)]
        assert s.rank == len(better) + 1
        assert s.rank <= position + 1


def _criteria(s: Standing, ranking: str) -> tuple[Fraction, ...]:
    if ranking == "wins":
        return (s.wins, Fraction(s.points), Fraction(s.difference))
    return (Fraction(s.points), Fraction(s.difference), s.wins)


@pytest.mark.parametrize(
    ("entrants", "results", "byes", "message"),
    [
        ([1, 2, 2], [], [], "duplicate entrants in the standings: 2"),
        ([1, 2], [Result(3, ((1,), (5,)), (900, 800))], [], "round 3 names entrants not in the field: 5"),
        ([1, 2], [], [Bye(2, (8,))], "round 2 names entrants not in the field: 8"),
    ],
)
def test_bad_input_is_refused(entrants: list[int], results: list[Result], byes: list[Bye], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        standings(entrants, results, byes)


def test_an_unknown_ranking_is_refused() -> None:
    with pytest.raises(ValueError, match="ranking must be 'points' or 'wins', not 'elo'"):
        standings([1, 2], [], ranking="elo")  # type: ignore[arg-type]
