"""Glicko-2 ratings: Glickman's worked example, idle periods, symmetry, partnerships and bad input."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atout.competitions import Game, Rating, rate, rate_partnerships, rate_period, team_rating
from atout.competitions.ratings import MAX_DEVIATION, _volatility

PROPERTY = settings(max_examples=80, deadline=None, derandomize=True)

GLICKMAN = Rating(1500, 200, 0.06)
GLICKMAN_GAMES = [Game(Rating(1400, 30), 1), Game(Rating(1550, 100), 0), Game(Rating(1700, 300), 0)]


def test_glickman_worked_example_matches_the_paper() -> None:
    new = rate(GLICKMAN, GLICKMAN_GAMES, tau=0.5)
    # The paper's printed figures, from intermediate steps rounded to four decimals.
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)
    # The same steps in full precision, as independent implementations give them.
    assert new.rating == pytest.approx(1464.0506705393013, abs=1e-6)
    assert new.deviation == pytest.approx(151.51652412385727, abs=1e-6)
    assert new.volatility == pytest.approx(0.0599959842865, abs=1e-9)


def test_glickman_volatility_step() -> None:
    # Step 5 alone, from the paper's rounded v = 1.7785 and Δ = -0.4834: σ' = 0.05999.
    assert _volatility(200 / 173.7178, 0.06, 1.7785, -0.4834, 0.5) == pytest.approx(0.05999, abs=1e-5)


def close(a: Rating, b: Rating) -> bool:
    return (a.rating, a.deviation, a.volatility) == pytest.approx((b.rating, b.deviation, b.volatility))


def test_games_order_does_not_matter() -> None:
    assert close(rate(GLICKMAN, GLICKMAN_GAMES[::-1]), rate(GLICKMAN, GLICKMAN_GAMES))


def test_idle_period_grows_the_deviation_only() -> None:
    idle = rate(GLICKMAN, [])
    assert idle.rating == GLICKMAN.rating
    assert idle.volatility == GLICKMAN.volatility
    assert idle.deviation == pytest.approx(math.sqrt(200**2 + (0.06 * 173.7178) ** 2))
    assert GLICKMAN.deviation < idle.deviation <= MAX_DEVIATION


def test_idle_deviation_is_capped_at_350() -> None:
    assert rate(Rating(1500, 349.9), []).deviation == MAX_DEVIATION
    assert rate(Rating(), []).deviation == MAX_DEVIATION
    player = Rating(1800, 50)
    for _ in range(2000):
        player = rate(player, [])
    assert player.deviation == MAX_DEVIATION
    assert player.rating == 1800


def test_deviation_already_above_350_stays() -> None:
    assert rate(Rating(1500, 400), []).deviation == 400


def test_symmetric_period_between_equal_players() -> None:
    ratings = {"ann": Rating(1620, 120, 0.06), "bob": Rating(1620, 120, 0.06)}
    after = rate_period(ratings, [("ann", "bob", 1.0)])
    gain = after["ann"].rating - 1620
    loss = 1620 - after["bob"].rating
    assert gain > 0
    assert gain == pytest.approx(loss, abs=1e-9)
    assert after["ann"].deviation == pytest.approx(after["bob"].deviation)
    assert after["ann"].deviation < 120
    assert after["ann"].volatility == pytest.approx(after["bob"].volatility)


def test_draw_between_equals_changes_only_deviations() -> None:
    ratings = {"ann": Rating(1620, 120), "bob": Rating(1620, 120)}
    after = rate_period(ratings, [("ann", "bob", 0.5)])
    assert after["ann"].rating == 1620
    assert after["bob"].rating == 1620
    assert after["ann"].deviation == after["bob"].deviation < 120


def test_rate_period_rates_from_the_period_start() -> None:
    ratings = {"ann": Rating(1500, 200), "bob": Rating(1400, 30), "cat": Rating(1550, 100), "dan": Rating(1700, 300)}
    results = [("ann", "bob", 1.0), ("cat", "ann", 1.0), ("ann", "dan", 0.0)]
    after = rate_period(ratings, results)
    assert after["ann"] == rate(ratings["ann"], GLICKMAN_GAMES)
    assert after["bob"] == rate(ratings["bob"], [Game(ratings["ann"], 0.0)])
    again = rate_period(ratings, results[::-1])
    assert all(close(again[name], after[name]) for name in ratings)
    assert list(after) == list(ratings)


def test_rate_period_player_without_game_only_grows_deviation() -> None:
    ratings = {"ann": Rating(1500, 100), "bob": Rating(1500, 100), "cat": Rating(1700, 80)}
    after = rate_period(ratings, [("ann", "bob", 1.0)])
    assert after["cat"] == rate(ratings["cat"], [])
    assert after["cat"].rating == 1700
    assert after["cat"].deviation > 80


def test_team_rating_convention() -> None:
    team = team_rating(Rating(1600, 30, 0.05), Rating(1400, 40, 0.07))
    assert team.rating == 1500
    assert team.deviation == pytest.approx(math.sqrt((30**2 + 40**2) / 2))
    assert team.volatility == pytest.approx(0.06)
    assert close(team_rating(GLICKMAN, GLICKMAN), GLICKMAN)


def test_partnerships_rate_each_player_against_the_opposing_team() -> None:
    ratings = {"ann": Rating(1600, 80), "bob": Rating(1500, 120), "cat": Rating(1550, 90), "dan": Rating(1450, 350)}
    after = rate_partnerships(ratings, [(("ann", "bob"), ("cat", "dan"), 1.0)])
    theirs = team_rating(ratings["cat"], ratings["dan"])
    ours = team_rating(ratings["ann"], ratings["bob"])
    assert after["ann"] == rate(ratings["ann"], [Game(theirs, 1.0)])
    assert after["bob"] == rate(ratings["bob"], [Game(theirs, 1.0)])
    assert after["cat"] == rate(ratings["cat"], [Game(ours, 0.0)])
    assert after["dan"] == rate(ratings["dan"], [Game(ours, 0.0)])
    assert after["ann"].rating > 1600 and after["bob"].rating > 1500
    assert after["cat"].rating < 1550 and after["dan"].rating < 1450


def test_partner_rating_does_not_enter_the_update() -> None:
    results = [(("ann", "bob"), ("cat", "dan"), 0.0)]
    opponents = {"cat": Rating(1550, 90), "dan": Rating(1450, 200)}
    weak = rate_partnerships({"ann": Rating(1600, 80), "bob": Rating(1200, 300), **opponents}, results)
    strong = rate_partnerships({"ann": Rating(1600, 80), "bob": Rating(2000, 40), **opponents}, results)
    assert weak["ann"] == strong["ann"]


def test_partnerships_idle_players_and_several_games() -> None:
    ratings = {name: Rating() for name in "abcdef"}
    results = [(("a", "b"), ("c", "d"), 1.0), (("a", "b"), ("c", "d"), 0.5)]
    after = rate_partnerships(ratings, results)
    assert after["e"] == after["f"] == rate(Rating(), [])
    assert after["a"] == after["b"]
    assert after["a"].rating > 1500 > after["c"].rating


@pytest.mark.parametrize("score", [-0.1, 1.5, math.nan])
def test_score_outside_zero_one_is_rejected(score: float) -> None:
    with pytest.raises(ValueError, match="score must lie between 0"):
        Game(Rating(), score)
    with pytest.raises(ValueError, match="score must lie between 0"):
        rate_period({"a": Rating(), "b": Rating()}, [("a", "b", score)])
    with pytest.raises(ValueError, match="score must lie between 0"):
        rate_partnerships({name: Rating() for name in "abcd"}, [(("a", "b"), ("c", "d"), score)])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"deviation": -1.0}, "deviation must be a finite number ≥ 0"),
        ({"deviation": math.inf}, "deviation must be a finite number ≥ 0"),
        ({"volatility": 0.0}, "volatility must be a finite number > 0"),
        ({"rating": math.nan}, "rating must be a finite number"),
    ],
)
def test_bad_rating_is_rejected(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rating(**kwargs)


@pytest.mark.parametrize("tau", [0.0, -0.5, math.inf, math.nan])
def test_bad_tau_is_rejected(tau: float) -> None:
    with pytest.raises(ValueError, match="tau must be a finite number > 0"):
        rate(Rating(), [], tau=tau)
    with pytest.raises(ValueError, match="tau must be a finite number > 0"):
        rate_period({"a": Rating(), "b": Rating()}, [("a", "b", 1.0)], tau=tau)


def test_unknown_or_repeated_players_are_rejected() -> None:
    ratings = {name: Rating() for name in "abcd"}
    with pytest.raises(ValueError, match="result 1 names players without a rating: z"):
        rate_period(ratings, [("a", "z", 1.0)])
    with pytest.raises(ValueError, match="result 2 names a player twice"):
        rate_period(ratings, [("a", "b", 1.0), ("c", "c", 0.5)])
    with pytest.raises(ValueError, match="names a player twice"):
        rate_partnerships(ratings, [(("a", "b"), ("b", "c"), 1.0)])
    with pytest.raises(ValueError, match="without a rating: x"):
        rate_partnerships(ratings, [(("a", "x"), ("c", "d"), 1.0)])


def test_zero_deviation_opponent_and_player() -> None:
    new = rate(Rating(1500, 0.0), [Game(Rating(1500, 0.0), 1.0)])
    assert new.rating > 1500
    assert 0 < new.deviation < 0.06 * 173.7178


def test_hopeless_game_carries_no_information() -> None:
    # So far apart that the expected score is 1 to the last bit: only the deviation's growth.
    player = Rating(100_000, 50)
    assert rate(player, [Game(Rating(0, 0.0), 1.0)]) == rate(player, [])


ratings_st = st.builds(
    Rating,
    st.floats(0, 3000),
    st.floats(0, 350),
    st.floats(0.01, 0.2),
)


@PROPERTY
@given(ratings_st, st.lists(st.tuples(ratings_st, st.sampled_from([0.0, 0.5, 1.0])), max_size=12), st.floats(0.3, 1.2))
def test_rate_stays_finite_and_bounded(player: Rating, games: list[tuple[Rating, float]], tau: float) -> None:
    new = rate(player, [Game(opponent, score) for opponent, score in games], tau)
    assert math.isfinite(new.rating)
    assert 0 < new.deviation <= MAX_DEVIATION
    assert new.volatility > 0
    if games:
        # Below the deviation grown by the new volatility (step 6): games only make a rating more certain.
        assert new.deviation <= math.hypot(player.deviation, new.volatility * 173.7178) + 1e-9
    if games and all(score == 1.0 for _, score in games):
        assert new.rating > player.rating
    if games and all(score == 0.0 for _, score in games):
        assert new.rating < player.rating
