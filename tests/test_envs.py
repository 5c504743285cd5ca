"""The research environments (atout[rl]): action space, observation encoding, and the three APIs' own checkers."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from atout import Deal, Ruleset  # noqa: E402
from atout.actions import Bid  # noqa: E402
from atout.envs import aec, spiel  # noqa: E402
from atout.envs.actions import BIDS, DECLARE, PASS_INDEX, ActionSpace  # noqa: E402
from atout.envs.encoding import encode, layout_of  # noqa: E402
from atout.envs.gym_env import AtoutEnv  # noqa: E402
from atout.envs.policy import PolicyAgent, evaluate  # noqa: E402
from atout.envs.table import Table, deal_bound  # noqa: E402
from atout.errors import AtoutError  # noqa: E402
from atout.rules import PRESETS  # noqa: E402

PRESET_NAMES = list(PRESETS)
HOUSE = Ruleset.preset("coinche", sans_atout=True, tout_atout=True, max_bid=250, must_undertrump=True)
CARD_SECTIONS = ("hand", "dealt_hand", "retourne", "bergere", "played", "trick", "shown")


def random_steps(table: Table, rng: random.Random):
    """Play random legal actions to the end of the episode, yielding before each."""
    while not table.over:
        yield
        table.step(int(rng.choice(np.flatnonzero(table.legal_mask()))))
    yield


# ------------------------------------------------------------------ action space
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_action_index_round_trips(name: str) -> None:
    rules = Ruleset.preset(name)
    space = ActionSpace(rules)
    deal = Deal.new(rules, seed=1)
    assert space.size == BIDS + len(space.bids)
    for index in range(space.size):
        if DECLARE <= index < PASS_INDEX:
            continue
        assert space.index(space.action(index)) == index
    assert [space.action(i) for i in range(BIDS, space.size)] == [a for a in deal.legal_actions() if isinstance(a, Bid)]


def test_the_bid_ladder_follows_the_ruleset_options() -> None:
    """The bids come from min_bid, the highest bid, bid_step, the strains and capot, never from fixed numbers."""
    rules = Ruleset.preset("coinche")
    plain = ActionSpace(rules)
    values = (rules.highest_bid - rules.min_bid) // rules.bid_step + 1
    assert len(plain.bids) == values * 4 + 4
    assert plain.label(plain.size - 5) == f"{rules.highest_bid}C" and plain.label(plain.size - 4) == "capotS"
    wide = ActionSpace(HOUSE)
    assert len(wide.bids) == 18 * 6 + 6  # 80..250 in six strains, capot in six
    assert ActionSpace(Ruleset.preset("classique")).bids == ()


def test_declare_actions_name_subsets_of_the_best_announcements() -> None:
    rules = Ruleset.preset("coinche")
    deal = Deal.from_hands(rules, ["AKQJT987...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987"], dealer=3)
    for call in ["80S", "P", "P", "P"]:
        deal.apply(call)
    best = deal.observation(0).to_declare
    space = ActionSpace(rules)
    indices = sorted(space.index(a, best) for a in deal.legal_actions())
    assert indices == [DECLARE, DECLARE + 1, DECLARE + 2, DECLARE + 3]  # none, the cent, the tierce, both
    assert space.action(DECLARE + 3, best).notation() == "ann:TS-JS-QS-KS-AS+7S-8S-9S"
    with pytest.raises(AtoutError, match="does not have"):
        space.action(DECLARE + 4, best)


# ------------------------------------------------------------------ observations
@pytest.mark.parametrize(
    "rules", [Ruleset.preset(name) for name in PRESET_NAMES] + [HOUSE], ids=[*PRESET_NAMES, "house"]
)
def test_the_tracked_observation_equals_the_one_built_from_the_seat_observation(rules: Ruleset) -> None:
    """At every step of random deals and of a match, each seat's array and the mask are those encoded from
    ``deal.observation(seat)`` alone."""
    rng = random.Random(11)
    for episode, count in (("deal", 40), ("match", 1)):
        table = Table(rules, episode=episode)
        table.reset(seed=count)
        for _ in range(count):
            table.reset()
            deal, dealt = None, {}
            for _ in random_steps(table, rng):
                if table.deal is not deal:
                    deal = table.deal
                    dealt = {s: deal.hand_mask(s) for s in range(rules.players)}
                for seat in range(rules.players):
                    assert np.array_equal(table.observe(seat), expected_array(table, seat, dealt))
                if not table.over:
                    obs = deal.observation(deal.turn)
                    legal = {table.space.index(a, obs.to_declare) for a in obs.legal_actions()}
                    assert set(np.flatnonzero(table.legal_mask())) == legal
                    assert table.legal_actions() == sorted(legal)
                else:
                    assert table.legal_actions() == [] and not table.legal_mask().any()


@pytest.mark.parametrize("name", ["coinche", "classique", "deux", "trois"])
def test_seats_observed_now_and_then_get_the_same_arrays(name: str) -> None:
    """Seats observed at irregular times (some steps, some seats; one seat not before the fourth deal
    of a match) get the arrays encoded from ``deal.observation(seat)``."""
    rules = Ruleset.preset(name, target=100_000)
    rng = random.Random(7)
    table = Table(rules, episode="match")
    table.reset(seed=3)
    late = rules.players - 1
    deal, dealt, checked = None, {}, 0
    while len(table.match.entries) < 3:
        if table.deal is not deal:
            deal = table.deal
            dealt = {s: deal.hand_mask(s) for s in range(rules.players)}
        for seat in range(late):
            if rng.random() < 0.2:
                assert np.array_equal(table.observe(seat), expected_array(table, seat, dealt))
                checked += 1
        table.step(int(rng.choice(np.flatnonzero(table.legal_mask()))))
    dealt = {s: table.deal.hand_mask(s) for s in range(rules.players)}
    assert np.array_equal(table.observe(late), expected_array(table, late, dealt))
    assert checked > 10


def expected_array(table: Table, seat: int, dealt: dict[int, int]):  # type: ignore[no-untyped-def]
    """The seat's array encoded from ``deal.observation(seat)`` (its hand as dealt, and in a match the
    scores before the deal the arrays show)."""
    scores, held = None, 0
    if table.match is not None:
        past = table.match.entries[:-1] if table.over else table.match.entries
        scores, held = (past[-1].totals, past[-1].held) if past else (None, 0)
    return encode(table.deal.observation(seat), dealt[seat], scores, held)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_observation_never_shows_a_hidden_card(name: str) -> None:
    """Decoded, the array holds the seat's Observation (its hand, the tricks, the announcements it
    heard) and no card another seat holds unseen, at every step of many random deals."""
    rules = Ruleset.preset(name)
    layout = layout_of(rules)
    table = Table(rules)
    table.reset(seed=5)
    rng = random.Random(5)
    for _ in range(60):
        table.reset()
        deal = table.deal
        for _ in random_steps(table, rng):
            for seat in range(rules.players):
                obs = deal.observation(seat)
                array = table.observe(seat)
                bits = {
                    name: _cards(layout.blocks(array, name)) for name in CARD_SECTIONS if layout.sections[name].unit
                }
                assert bits["hand"] == obs.hand
                played = _mask(c for t in obs.tricks for c in t.cards) | _mask(c for _, c in obs.trick)
                assert bits["played"] == played == obs.played
                assert bits["trick"] == _mask(c for _, c in obs.trick)
                visible = obs.hand | obs.initial_hand | obs.played
                for shown in obs.shown.values():
                    visible |= _mask(c for a in shown for c in a.card_list())
                if obs.retourne is not None:
                    visible |= 1 << obs.retourne
                if obs.bergere is not None:
                    visible |= 1 << obs.bergere
                hidden = 0
                for other in range(rules.players):
                    if other != seat:
                        hidden |= deal.hand_mask(other)
                hidden &= ~visible
                for section, mask in bits.items():
                    assert not mask & hidden, f"{section} shows a card seat {seat} cannot see"
                if layout.sections["to_declare"].unit:
                    to_declare = layout.blocks(array, "to_declare")[0].reshape(3, -1)[:, :32]
                    assert [_cards(row[None]) for row in to_declare if row.any()] == [a.cards for a in obs.to_declare]
                    assert not _cards(to_declare) & hidden


def _cards(blocks) -> int:  # type: ignore[no-untyped-def]
    mask = 0
    for row in blocks:
        for card in np.flatnonzero(row[:32]):
            mask |= 1 << int(card)
    return mask


def _mask(cards) -> int:  # type: ignore[no-untyped-def]
    mask = 0
    for card in cards:
        mask |= 1 << int(card)
    return mask


# ------------------------------------------------------------------ rewards and options
def test_rewards_are_each_sides_marks_minus_the_others_and_sum_to_zero() -> None:
    for name in ("coinche", "trois", "deux"):
        rules = Ruleset.preset(name)
        table = Table(rules)
        rng = random.Random(3)
        table.reset(seed=3)
        for _ in range(20):
            table.reset()
            rewards = {}
            while not table.over:
                rewards = table.step(int(rng.choice(np.flatnonzero(table.legal_mask()))))
            assert abs(sum(rewards.values())) < 1e-9
            result = table.deal.result
            if not result.passed_out:
                marks = result.marks
                mine = marks[rules.side_of(0)]
                others = [v for s, v in marks.items() if s != rules.side_of(0)]
                assert rewards[0] == pytest.approx(mine - sum(others) / len(others))
                assert abs(rewards[0]) <= deal_bound(rules)


def test_a_match_episode_rewards_the_winner_with_one() -> None:
    rules = Ruleset.preset("coinche", target=300)
    table = Table(rules, episode="match", reward="win")
    table.reset(seed=2)
    rng = random.Random(2)
    rewards: dict[int, float] = {}
    while not table.over:
        rewards = table.step(int(rng.choice(np.flatnonzero(table.legal_mask()))))
    winner = table.match.winner
    assert table.match.finished
    assert rewards == {s: (1.0 if rules.side_of(s) == winner else -1.0) for s in range(4)}


def test_bad_options_and_illegal_actions_get_clear_errors() -> None:
    rules = Ruleset.preset("coinche")
    with pytest.raises(AtoutError, match="needs episode 'match'"):
        Table(rules, reward="win")
    with pytest.raises(AtoutError, match="episode must be one of"):
        Table(rules, episode="game")
    table = Table(rules, dealer=3)
    table.reset(seed=1)
    before = table.observe(0).copy()
    with pytest.raises(AtoutError, match=r"action 5 \(QS\) is not legal now"):
        table.step(5)
    with pytest.raises(AtoutError, match="out of range"):
        table.step(10_000)
    assert np.array_equal(table.observe(0), before) and table.deal.actions == []


# ------------------------------------------------------------------ PettingZoo
@pytest.mark.parametrize("rules", [*PRESET_NAMES, HOUSE], ids=[*PRESET_NAMES, "house"])
def test_pettingzoo_api_and_seed_tests_pass(rules: str | Ruleset) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation with its action mask draws advice, not errors
        api_test(aec.env(rules), num_cycles=100)
        seed_test(lambda: aec.env(rules), num_cycles=100)
        api_test(aec.env(rules, episode="match"), num_cycles=100)


def test_pettingzoo_illegal_action_raises_and_changes_nothing() -> None:
    game = aec.env("coinche", dealer=3)
    game.reset(seed=4)
    with pytest.raises(AtoutError, match="not legal"):
        game.step(0)
    assert game.agent_selection == "player_0"
    assert game.unwrapped.table.deal.actions == []


# ------------------------------------------------------------------ Gymnasium
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_gymnasium_check_env_passes(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "not able to test render modes without a spec": advice
        check_env(AtoutEnv(name, opponents="club"), skip_render_check=True)


def test_gymnasium_seats_bots_from_specs_and_ends_on_an_illegal_action() -> None:
    game = AtoutEnv("coinche", seat=1, partner="random", opponents=["club", "heuristic"])
    assert {s: spec.name for s, spec in game.specs.items()} == {3: "random", 2: "club", 0: "heuristic"}
    obs, info = game.reset(seed=9)
    assert game.table.turn == 1 and obs.shape == game.observation_space.shape
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, done, _, info = game.step(illegal)
    assert done and info["illegal_action"] and reward == -deal_bound(game.rules)
    with pytest.raises(AtoutError, match="a partner needs four players"):
        AtoutEnv("trois", partner="club")
    with pytest.raises(AtoutError, match="one per opponent"):
        AtoutEnv("trois", opponents=["club", "club", "club"])


def test_gymnasium_episodes_after_a_seeded_reset_are_reproducible() -> None:
    """The table and the bots are seeded by reset(seed=...) and play on through the next episodes."""

    def episodes(game: AtoutEnv) -> list[tuple[bytes, float]]:
        out = []
        _, info = game.reset(seed=11)
        for _ in range(3):
            done = False
            while not done:
                obs, reward, done, _, info = game.step(int(np.flatnonzero(info["action_mask"])[0]))
            out.append((obs.tobytes(), reward))
            _, info = game.reset()
        return out

    game = AtoutEnv("coinche", opponents="random")
    first = episodes(game)
    assert episodes(game) == first == episodes(AtoutEnv("coinche", opponents="random"))
    assert len(set(first)) == 3


# ------------------------------------------------------------------ OpenSpiel
@pytest.mark.parametrize(
    "name,sims", [("coinche", 1), ("contree", 1), ("classique", 2), ("bazar", 1), ("deux", 2), ("trois", 2)]
)
def test_openspiel_random_simulation_checks_pass(name: str, sims: int) -> None:
    game = pyspiel.load_game("python_atout", {"preset": name})
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_openspiel_game_takes_house_rules_and_gives_the_seat_tensor() -> None:
    game = pyspiel.load_game("python_atout", {"preset": "coinche", "options": '{"sans_atout": true}', "dealer": 0})
    state = game.new_initial_state()
    rng = random.Random(0)
    state.apply_action(5)
    with pytest.raises(pyspiel.SpielError, match="not a card left to deal"):
        state.apply_action(5)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    assert state.current_player() == 1
    tensor = np.array(state.information_state_tensor(1), np.float32)
    assert np.array_equal(tensor, encode(state.deal.observation(1), state.dealt[1]))
    rules = spiel.ruleset_from_params({"options": '{"sans_atout": true}'})
    bids = sum((rules.highest_bid_in(strain) - 80) // 10 + 1 for strain in rules.strains()) + 5  # and capot in 5
    assert game.num_distinct_actions() == BIDS + bids
    with pytest.raises(AtoutError, match="JSON object"):
        spiel.ruleset_from_params({"preset": "coinche", "options": "[1]"})


def test_an_openspiel_clone_plays_on_alone_with_its_own_tensors() -> None:
    """OpenSpiel clones a Python state by deep-copying its attributes: the clone's table must track its own moves."""
    game = pyspiel.load_game("python_atout", {"preset": "coinche"})
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node() or len(state.history()) < 45:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    before = state.information_state_tensor(player)
    twin = state.clone()
    assert twin.information_state_tensor(player) == before
    while not twin.is_terminal():
        twin.apply_action(rng.choice(twin.legal_actions()))
        for seat in range(4):
            assert np.array_equal(twin.table.observe(seat), encode(twin.deal.observation(seat)))
    assert state.information_state_tensor(player) == before and not state.is_terminal()


def test_openspiel_outcome_sampling_mccfr_runs_on_the_game() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game("python_atout", {"preset": "coinche"})
    np.random.seed(0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(4):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_openspiel_resampling_keeps_the_information_state_and_is_mcts_runs() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_atout", {"preset": "coinche"})
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(14):  # the auction and the first tricks, announcements included
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(5)]
    for world in worlds:
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
    others = [s for s in range(4) if s != player]
    assert any(w.deal.hand_mask(s) != state.deal.hand_mask(s) for w in worlds for s in others)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 8, random_state=np.random.RandomState(0)
    )
    assert bot.step(state) in state.legal_actions()


# ------------------------------------------------------------------ arena
def test_a_policy_plays_in_the_arena_against_bots() -> None:
    calls = []

    def first_legal(observation, mask):  # type: ignore[no-untyped-def]
        calls.append(observation.shape)
        return int(np.flatnonzero(mask)[0])

    result = evaluate(first_legal, Ruleset.preset("classique"), opponent="club", deals=2, seed=1)
    assert result.a == "policy" and result.b == "club" and len(result.boards) == 2
    assert calls and set(calls) == {(layout_of(Ruleset.preset("classique")).size,)}


def test_a_policy_that_chooses_an_illegal_action_is_named() -> None:
    rules = Ruleset.preset("coinche")
    agent = PolicyAgent(lambda observation, mask: 0, rules, name="mine")
    deal = Deal.new(rules, dealer=3, seed=1)
    with pytest.raises(AtoutError, match="policy 'mine' chose action 0"):
        agent.act(deal.observation(0))
