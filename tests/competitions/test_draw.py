"""The draws of a concours: everyone placed once, the fewest repeats possible, byes to those without one."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.competitions import Round, draw_melee, draw_random, draw_swiss
from atout.competitions.draw import _adjacency, _remove

PROPERTY = settings(max_examples=60, deadline=None, derandomize=True)

#: Entrant ids, the pairs that already met, the entrants that had a bye.
Field = tuple[list[int], set[frozenset[int]], set[int]]


@st.composite
def fields(draw: st.DrawFn, least: int, most: int) -> Field:
    """Entrant ids (shuffled, not 0..n-1), pairs that already met (sparse to dense) and entrants that had a bye."""
    size = draw(st.integers(least, most))
    ids = draw(st.permutations([10 * i + 3 for i in range(size)]))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7, 0.9]))
    rng = draw(st.randoms(use_true_random=False))
    met = {frozenset(pair) for pair in itertools.combinations(ids, 2) if rng.random() < density}
    had_bye = draw(st.sets(st.sampled_from(ids)))
    return ids, met, had_bye


def placed(drawn: Round) -> list[int]:
    """Every entrant id the round places, at a table or exempt, with repeats."""
    sides = [side for table in drawn.tables for side in table] + list(drawn.byes)
    return [entrant for side in sides for entrant in side]


def repeats(drawn: Round, met: set[frozenset[int]]) -> int:
    return sum(frozenset(a + b) in met for a, b in drawn.tables)


def pairings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair ``items``, the first item's opponent in order first (lexicographic order)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for tail in pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def byes_allowed(ids: list[int], had_bye: set[int]) -> list[int]:
    return [entrant for entrant in ids if entrant not in had_bye] or ids


def least_repeats(ids: list[int], met: set[frozenset[int]], had_bye: set[int]) -> int:
    """The brute-force minimum of repeated pairs over every bye allowed and every pairing."""
    choices = [[entrant] for entrant in byes_allowed(ids, had_bye)] if len(ids) % 2 else [[]]
    return min(
        sum(frozenset(pair) in met for pair in pairing)
        for bye in choices
        for pairing in pairings([entrant for entrant in ids if entrant not in bye])
    )


# Every draw places every entrant once.


@PROPERTY
@given(fields(2, 40), st.integers(0, 2**32))
def test_random_and_swiss_place_every_team_once(field: Field, seed: int) -> None:
    ids, met, had_bye = field
    for drawn in (draw_random(ids, met, seed, had_bye), draw_swiss(ids, met, seed, had_bye)):
        assert sorted(placed(drawn)) == sorted(ids)
        assert all(len(side) == 1 for table in drawn.tables for side in table)
        assert len(drawn.byes) == len(ids) % 2


@PROPERTY
@given(fields(4, 40), st.integers(0, 2**32))
def test_melee_places_every_player_once(field: Field, seed: int) -> None:
    ids, met, had_bye = field
    drawn = draw_melee(ids, met, met, seed, had_bye)
    assert sorted(placed(drawn)) == sorted(ids)
    assert all(len(side) == 2 for table in drawn.tables for side in table)
    assert [len(side) for side in drawn.byes] == [1] * (len(ids) % 4)
    exempt = {side[0] for side in drawn.byes}
    assert exempt <= set(byes_allowed(ids, had_bye)) or set(byes_allowed(ids, had_bye)) <= exempt


@PROPERTY
@given(fields(2, 20), st.integers(0, 2**32))
def test_draws_are_reproducible_from_the_seed(field: Field, seed: int) -> None:
    ids, met, had_bye = field
    assert draw_random(ids, met, seed, had_bye) == draw_random(ids, met, seed, had_bye)
    if len(ids) >= 4:
        assert draw_melee(ids, met, met, seed, had_bye) == draw_melee(ids, met, met, seed, had_bye)


# The random draw: the fewest repeats, a round-robin where one is possible, byes in turn.


@settings(max_examples=150, deadline=None, derandomize=True)
@given(fields(2, 8), st.integers(0, 2**32))
def test_random_draw_repeats_the_fewest_pairs(field: Field, seed: int) -> None:
    ids, met, had_bye = field
    drawn = draw_random(ids, met, seed, had_bye)
    assert repeats(drawn, met) == least_repeats(ids, met, had_bye)
    assert {side[0] for side in drawn.byes} <= set(byes_allowed(ids, had_bye))


def play_concours(teams: list[int], rounds: int, seed: int) -> tuple[list[frozenset[int]], list[int]]:
    """Random draws round after round: the pairs that met (with repeats) and the teams exempt."""
    met: list[frozenset[int]] = []
    exempt: list[int] = []
    for round_no in range(rounds):
        drawn = draw_random(teams, set(met), seed + round_no, set(exempt))
        met += [frozenset(a + b) for a, b in drawn.tables]
        exempt += [side[0] for side in drawn.byes]
    return met, exempt


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 2**32))
def test_seven_random_rounds_of_eight_teams_are_a_round_robin(seed: int) -> None:
    met, exempt = play_concours([1, 2, 3, 4, 5, 6, 7, 8], 7, seed)
    assert len(met) == len(set(met)) == 28
    assert exempt == []


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 2**32))
def test_seven_random_rounds_of_seven_teams_give_each_one_bye(seed: int) -> None:
    met, exempt = play_concours([1, 2, 3, 4, 5, 6, 7], 7, seed)
    assert len(met) == len(set(met)) == 21
    assert sorted(exempt) == [1, 2, 3, 4, 5, 6, 7]


def test_random_draw_repeats_a_pair_only_when_forced() -> None:
    drawn = draw_random([1, 2], {frozenset({1, 2})}, seed=0)
    assert drawn == Round((((1,), (2,)),)) or drawn == Round((((2,), (1,)),))


def test_random_draw_of_two_hundred_teams_after_five_rounds_repeats_no_pair() -> None:
    teams = list(range(1, 201))
    met, _ = play_concours(teams, 5, seed=11)
    drawn = draw_random(teams, set(met), seed=99)
    assert repeats(drawn, set(met)) == 0  # its time: benchmarks/bench_concours.py


# The Swiss draw.


def test_swiss_second_round_pairs_winners_with_winners() -> None:
    # Round 1: 1 beat 2, 3 beat 4, 5 beat 6, 7 beat 8; the standing ranks the winners first.
    met = {frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6}), frozenset({7, 8})}
    drawn = draw_swiss([3, 1, 7, 5, 2, 8, 4, 6], met, seed=0)
    assert drawn.tables == (((3,), (1,)), ((7,), (5,)), ((2,), (8,)), ((4,), (6,)))


def test_swiss_pairs_the_best_with_the_next_best_not_met() -> None:
    drawn = draw_swiss([1, 2, 3, 4, 5, 6], {frozenset({1, 2}), frozenset({3, 4})}, seed=0)
    assert drawn.tables == (((1,), (3,)), ((2,), (4,)), ((5,), (6,)))


def test_swiss_backtracks_rather_than_force_a_rematch() -> None:
    # 1v2 first would leave 3v4, who met: 1v3, 2v4 is the closest round without a rematch.
    drawn = draw_swiss([1, 2, 3, 4], {frozenset({3, 4})}, seed=0)
    assert drawn.tables == (((1,), (3,)), ((2,), (4,)))


def test_swiss_gives_the_bye_to_the_lowest_without_one() -> None:
    assert draw_swiss([1, 2, 3, 4, 5], set(), 0, had_bye={5}).byes == ((4,),)
    assert draw_swiss([1, 2, 3, 4, 5], set(), 0, had_bye={4, 5}).byes == ((3,),)
    assert draw_swiss([1, 2, 3], set(), 0, had_bye={1, 2, 3}).byes == ((3,),)


def test_swiss_passes_over_a_bye_that_would_force_a_rematch() -> None:
    # Exempting 3 leaves 1 and 2, who met; exempting 2 (the next lowest without a bye) avoids it.
    drawn = draw_swiss([1, 2, 3], {frozenset({1, 2})}, seed=0)
    assert drawn == Round((((1,), (3,)),), ((2,),))


def swiss_by_hand(ranked: list[int], met: set[frozenset[int]], had_bye: set[int]) -> Round:
    """The Swiss rule by brute force: the lowest allowed bye keeping the fewest repeats, then among the pairings
    with the fewest repeats the first in order, each team from the top preferring an opponent it has not met."""

    def best(teams: list[int]) -> list[tuple[int, int]]:
        def key(pairs: list[tuple[int, int]]) -> tuple[int, list[tuple[bool, int]]]:
            steps = [(frozenset(pair) in met, ranked.index(pair[1])) for pair in pairs]
            return sum(repeat for repeat, _ in steps), steps

        return min(pairings(teams), key=key)

    def cost(teams: list[int]) -> int:
        return sum(frozenset(pair) in met for pair in best(teams))

    byes: list[int] = []
    if len(ranked) % 2:
        allowed = [entrant for entrant in reversed(ranked) if entrant in byes_allowed(ranked, had_bye)]
        costs = [cost([t for t in ranked if t != bye]) for bye in allowed]
        byes = [allowed[costs.index(min(costs))]]
    pairs = best([t for t in ranked if t not in byes])
    return Round(tuple(((a,), (b,)) for a, b in pairs), tuple((bye,) for bye in byes))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(fields(2, 9))
def test_swiss_matches_the_rule_by_brute_force(field: Field) -> None:
    ranked, met, had_bye = field
    drawn = draw_swiss(ranked, met, 0, had_bye)
    assert drawn == swiss_by_hand(ranked, met, had_bye)
    assert repeats(drawn, met) == least_repeats(ranked, met, had_bye)


# The mêlée.


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(0, 2**32))
def test_melee_eight_players_three_rounds_never_share_a_partner_twice(seed: int) -> None:
    partnered: list[frozenset[int]] = []
    for round_no in range(3):
        drawn = draw_melee(range(1, 9), set(partnered), set(), seed + round_no)
        partnered += [frozenset(side) for table in drawn.tables for side in table]
    assert len(partnered) == len(set(partnered)) == 12


def test_melee_second_round_avoids_old_partners_and_opponents() -> None:
    # Round 1: 1-2 against 3-4, 5-6 against 7-8. Round 2 can pair new partners against new opponents.
    partnered = {frozenset({1, 2}), frozenset({3, 4}), frozenset({5, 6}), frozenset({7, 8})}
    met = {frozenset(p) for p in itertools.product((1, 2), (3, 4))} | {
        frozenset(p) for p in itertools.product((5, 6), (7, 8))
    }
    for seed in range(20):
        drawn = draw_melee(range(1, 9), partnered, met, seed)
        assert not {frozenset(side) for table in drawn.tables for side in table} & partnered
        assert not {frozenset((a, b)) for one, two in drawn.tables for a in one for b in two} & met


def test_melee_ten_players_leave_two_exempt_in_turn() -> None:
    exempt: list[int] = []
    for round_no in range(5):
        drawn = draw_melee(range(1, 11), set(), set(), round_no, had_bye=set(exempt))
        assert len(drawn.tables) == 2
        assert len(drawn.byes) == 2
        assert all(len(side) == 1 for side in drawn.byes)
        exempt += [side[0] for side in drawn.byes]
    assert sorted(exempt) == list(range(1, 11))


def test_melee_repeats_a_partner_only_when_forced() -> None:
    # Four players, everyone partnered before: some partner comes back, and only two pairs play.
    everyone = {frozenset(pair) for pair in itertools.combinations(range(1, 5), 2)}
    drawn = draw_melee([1, 2, 3, 4], everyone, set(), seed=3)
    assert sorted(placed(drawn)) == [1, 2, 3, 4]
    assert len(drawn.tables) == 1


# Bad input.


@pytest.mark.parametrize(
    ("draw", "message"),
    [
        (lambda: draw_random([1, 2, 2, 3], set(), 0), "duplicate teams in the draw: 2"),
        (lambda: draw_swiss([4, 1, 4, 1], set(), 0), "duplicate teams in the draw: 1, 4"),
        (lambda: draw_melee([1, 2, 3, 3, 5], set(), set(), 0), "duplicate players in the draw: 3"),
        (lambda: draw_random([1], set(), 0), "a draw needs at least 2 teams, not 1"),
        (lambda: draw_swiss([], set(), 0), "a draw needs at least 2 teams, not 0"),
        (lambda: draw_melee([1, 2, 3], set(), set(), 0), "a draw needs at least 4 players, not 3"),
    ],
)
def test_bad_fields_are_refused(draw: object, message: str) -> None:
    assert callable(draw)
    with pytest.raises(ValueError, match=f"^{message}$"):
        draw()


def test_removing_a_pair_keeps_the_matching_maximum() -> None:
    # The matching 1-3, 2-4 (indices 0-2, 1-3) is maximum; teams 5 and 6 are free. Without 1 and 2, the freed 3
    # and 4 may pair with each other, which leaves 5-3-4-6 to augment: the size must come back to two.
    allowed = {(0, 2), (1, 3), (2, 3), (4, 2), (3, 5)}
    blocked = [{w for w in range(6) if w != v and (v, w) not in allowed and (w, v) not in allowed} for v in range(6)]
    adjacency = _adjacency(range(6), blocked, 6)
    alive = [True] * 6
    matching, change = _remove(adjacency, [2, 3, 0, 1, -1, -1], alive, (0, 1), 0)
    assert change == 0
    assert sorted((v, matching[v]) for v in range(2, 6)) == [(2, 4), (3, 5), (4, 2), (5, 3)]
