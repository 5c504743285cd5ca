"""The batched simulator (atout.envs.vector) against the rules core, action by action."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("numba")

from atout import Deal, Ruleset  # noqa: E402
from atout.envs.actions import PASS_INDEX  # noqa: E402
from atout.envs.encoding import encode, layout_of  # noqa: E402
from atout.envs.table import Table  # noqa: E402
from atout.envs.vector import VectorTable, unsupported  # noqa: E402
from atout.errors import AtoutError  # noqa: E402

#: The presets it plays, and house rules that move every option its kernels read.
RULESETS = [
    Ruleset.preset("coinche"),
    Ruleset.preset("coinche", sans_atout=True, tout_atout=True, belote_imprenable=False, max_bid=250),
    Ruleset.preset("coinche", litige="off", tie="made", multiplier_scope="contract", defence_keeps_belote=True),
    Ruleset.preset("contree"),
    Ruleset.preset("contree-colver"),
    Ruleset.preset("contree", capot_bid_min=90, ta_values="funbelote", overtrump_partner=True, must_undertrump=True),
    Ruleset.preset("contree", scoring="faits", tie="chute", must_beat_defence=True, belote_imprenable=True),
    Ruleset.preset("contree", scoring="annonces", goal_points="cards", min_points=82, rounding="none"),
    Ruleset.preset("contree-colver", multiplier_scope="all", capot_prime=0, defence_keeps_belote=False, bid_step=20),
]


def _core_deals(rules: Ruleset, count: int, rng: random.Random) -> list[Deal]:
    return [Deal.new(rules, dealer=rng.randrange(4), seed=rng.getrandbits(32)) for _ in range(count)]


def _start_both(rules: Ruleset, deals: list[Deal]) -> tuple[VectorTable, list[Table]]:
    envs = VectorTable(rules, num_envs=len(deals), autoreset=False)
    hands = np.array([[deal.hand_mask(seat) for seat in range(4)] for deal in deals], np.int64)
    envs.reset(seed=0, options={"hands": hands, "dealers": np.array([deal.dealer for deal in deals])})
    tables = []
    for deal in deals:
        table = Table(rules)
        table.start(deal)
        tables.append(table)
    return envs, tables


def _choose(table: Table, rng: random.Random, shyness: float) -> int:
    """A random legal action; in the auction, a pass with probability ``shyness`` (so that low contracts,
    made ones and belotes come as often as random bidding's capots)."""
    legal = table.legal_actions()
    if PASS_INDEX in legal and rng.random() < shyness:
        return PASS_INDEX
    return rng.choice(legal)


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: f"{r.name}-{r.fingerprint}")
def test_the_simulator_steps_as_the_rules_core_does(rules: Ruleset) -> None:
    """Same legal actions, every seat's observation, rewards and marks at every step of 240 random deals
    (the rules core's Table, itself held to encode(deal.observation(seat)), is the reference)."""
    rng = random.Random(rules.fingerprint)
    outcomes = {"passed": 0, "made": 0, "failed": 0, "coinched": 0, "belote": 0}
    for _ in range(6):
        deals = _core_deals(rules, 40, rng)
        envs, tables = _start_both(rules, deals)
        shyness = [rng.choice((0.0, 0.6, 0.85)) for _ in deals]
        mask, turn = envs._mask, envs.turn
        while True:
            for d, table in enumerate(tables):
                assert turn[d] == (-1 if table.over else table.turn), d
                assert (mask[d] == table.legal_mask()).all(), (d, table.deal)
                for seat in range(4):
                    assert (envs.observations[d, seat] == table.observe(seat)).all(), (d, seat, table.deal)
            if all(table.over for table in tables):
                break
            actions = np.array([0 if t.over else _choose(t, rng, shyness[d]) for d, t in enumerate(tables)])
            _, rewards, done, _, infos = envs.step(actions)
            mask, turn = infos["action_mask"], infos["turn"]
            for d, table in enumerate(tables):
                if table.over:
                    assert not done[d] and not rewards[d].any()
                    continue
                given = table.step(int(actions[d]))
                assert done[d] == table.over
                assert [rewards[d, seat] for seat in range(4)] == [given.get(seat, 0.0) for seat in range(4)]
                if table.over:
                    result = table.deal.result
                    marks = [0, 0] if result.passed_out else [result.marks[0], result.marks[1]]
                    assert list(infos["marks"][d]) == marks, table.deal
                    outcomes["passed" if result.passed_out else "made" if result.score.made else "failed"] += 1
                    if not result.passed_out:
                        outcomes["coinched"] += table.deal.contract.level > 0
                        outcomes["belote"] += any(result.facts.belote.values())
        for d, table in enumerate(tables):  # the final arrays, from each seat's observation too
            for seat in range(4):
                assert (envs.observations[d, seat] == encode(table.deal.observation(seat))).all()
    assert all(outcomes.values()), outcomes  # every branch of the deal met


def test_every_ruleset_it_cannot_play_is_refused_by_name() -> None:
    assert unsupported(Ruleset.preset("contree")) is None and unsupported(Ruleset.preset("coinche")) is None
    for name, word in [("bazar", "announcement_values"), ("classique", "auction"), ("trois", "players")]:
        reason = unsupported(Ruleset.preset(name))
        assert reason is not None and reason.startswith(word), reason
        with pytest.raises(AtoutError, match=word):
            VectorTable(name, num_envs=2)


def test_a_seed_deals_the_same_deals_whatever_the_number_of_deals() -> None:
    """Each deal draws from a stream of its own: row k's deals depend on the seed and k only."""
    small, large = VectorTable("contree", num_envs=3), VectorTable("contree", num_envs=5)
    first, _ = small.reset(seed=11)
    again, _ = large.reset(seed=11)
    assert (first == again[:3]).all()
    assert (small.observations == large.observations[:3]).all()
    other, _ = small.reset(seed=12)
    assert not (other == first).all()


def test_autoreset_deals_anew_in_the_same_step_and_rewards_sum_to_zero() -> None:
    envs = VectorTable("contree-colver", num_envs=64, copy=False)
    obs, infos = envs.reset(seed=3)
    auction = layout_of(envs.rules).sections["phase"].offset  # the phase section's first entry
    ended = 0
    for _ in range(400):
        obs, rewards, done, truncated, infos = envs.step(envs.sample_actions())
        assert envs.observation_space.contains(obs.copy())
        assert (rewards.sum(axis=1) == 0).all() and not truncated.any()
        assert (rewards[~done] == 0).all()
        assert (obs[done, auction] == 1).all()  # a deal that ended shows its next deal's first turn

        assert (infos["turn"] >= 0).all() and (infos["action_mask"].sum(axis=1) > 0).all()
        ended += int(done.sum())
    assert ended > 64


def test_deals_over_wait_for_reset_done_without_autoreset() -> None:
    envs = VectorTable("contree", num_envs=8, autoreset=False)
    envs.reset(seed=4)
    steps = 0
    while (envs.turn >= 0).any():
        actions = envs.sample_actions()
        assert ((actions == -1) == (envs.turn == -1)).all()
        envs.step(actions)
        steps += 1
    assert steps <= 60 and not envs.sample_actions().max() >= 0
    envs.reset_done()
    assert (envs.turn >= 0).all()


def test_an_illegal_action_is_named_and_changes_nothing() -> None:
    envs = VectorTable("contree", num_envs=3)
    envs.reset(seed=5)
    before = envs.observations.copy(), envs._state.copy(), envs._mask.copy()
    actions = envs.sample_actions()
    actions[1] = 0  # a card, in the auction
    with pytest.raises(AtoutError, match=r"deal 1: action 0 \(7S\) is not legal now"):
        envs.step(actions)
    actions[1] = 10_000
    with pytest.raises(AtoutError, match="out of range"):
        envs.step(actions)
    with pytest.raises(AtoutError, match="3 integers"):
        envs.step(np.zeros(2, np.int64))
    after = envs.observations, envs._state, envs._mask
    assert all((a == b).all() for a, b in zip(before, after, strict=True))


def test_bad_options_get_clear_errors() -> None:
    with pytest.raises(AtoutError, match="num_envs"):
        VectorTable("contree", num_envs=0)
    with pytest.raises(AtoutError, match="dealer"):
        VectorTable("contree", num_envs=1, dealer=4)
    envs = VectorTable("contree", num_envs=1)
    with pytest.raises(AtoutError, match="reset the environment"):
        envs.step(np.zeros(1, np.int64))
    with pytest.raises(AtoutError, match="deal 0: four hands"):
        envs.reset(options={"hands": np.array([[0xFF, 0xFF00, 0xFF0000, 0xFF]]), "dealers": np.array([0])})
    with pytest.raises(AtoutError, match="hands and dealers, not shuffle"):
        envs.reset(options={"shuffle": True})
    with pytest.raises(AtoutError, match="card masks"):
        envs.reset(options={"hands": [["AS", "KS", "QS", "JS"]]})
    with pytest.raises(AtoutError, match="one integer"):
        envs.reset(seed=[1, 2])


def test_the_compiled_best_announcements_are_the_rules_cores() -> None:
    """Every hand's best announcements, strongest first (cards, kind, points), in every strain: random hands,
    and hands made to hold one or two carrés (FFB §8)."""
    from atout.announcements import KINDS, best_announcements
    from atout.fast.simulate import best_announcements as compiled

    rng = random.Random(8)
    hands = [sum(1 << c for c in rng.sample(range(32), 8)) for _ in range(1500)]
    for _ in range(500):
        ranks = rng.sample(range(2, 8), rng.choice((1, 2)))
        carres = sum(0x01010101 << rank for rank in ranks)
        others = [c for c in range(32) if not carres >> c & 1]
        hands.append(carres | sum(1 << c for c in rng.sample(others, 8 - carres.bit_count())))
    out = np.zeros((3, 4), np.int64)
    for hand in hands:
        for strain in range(6):
            expected = [(a.cards, KINDS.index(a.kind), a.points(strain)) for a in best_announcements(hand, strain)]
            n = compiled(hand, strain, out)
            assert [tuple(int(v) for v in row[:3]) for row in out[:n]] == expected, (hex(hand), strain)


@pytest.mark.parametrize("rules", [Ruleset.preset("coinche"), RULESETS[4], RULESETS[5], RULESETS[7], RULESETS[8]])
def test_the_compiled_score_is_the_rules_cores(rules: Ruleset) -> None:
    """The marks of many deals' facts — every contract level, capot bid or made, belote on either side,
    announcements, ties and litiges — as the rules core's score_deal gives them."""
    from atout.auction import Contract
    from atout.fast import simulate as sim
    from atout.scoring import DealFacts, score_deal

    envs = VectorTable(rules, num_envs=1)
    ladder = envs._ladder
    rng = random.Random(rules.fingerprint)
    row = np.zeros((1, sim.COLUMNS), np.int64)
    for _ in range(3000):
        k = rng.randrange(len(ladder)) if rng.random() < 0.5 else rng.randrange(8)  # low bids: made, tied
        value, strain, capot_bid = (int(v) for v in ladder[k])
        taker, level = rng.randrange(4), rng.choice((0, 0, 1, 2))
        capot = rng.choice((None, None, None, None, 0, 1))
        taker_points = rng.choice((81, 82, 71, rng.randrange(163)))
        points = {taker % 2: taker_points, 1 - taker % 2: 162 - taker_points}
        won = {0: 4, 1: 4}
        if capot is not None:
            points, won = {capot: 162, 1 - capot: 0}, {capot: 8, 1 - capot: 0}
        belotes = [int(rng.random() < 0.2) if rules.belote else 0 for _ in range(4)]
        ann = {side: rng.choice((0, 0, 20, 50, 100, 150)) if rules.announcements else 0 for side in (0, 1)}
        if rng.random() < 0.5:
            ann[rng.randrange(2)] = 0  # mostly one side's announcements count
        row[:] = 0
        row[0, sim.BEST], row[0, sim.LEVEL], row[0, sim.TAKER] = k, level, taker
        for side in (0, 1):
            row[0, sim.POINTS_WON + side], row[0, sim.TRICKS_WON + side] = points[side], won[side]
            row[0, sim.ANN_POINTS + side] = ann[side]
        for seat in range(4):
            row[0, sim.BELOTES + seat] = belotes[seat]
        sim.score(row, 0, envs._config, ladder)
        card = {s: (rules.capot_points if capot == s else 0) if capot is not None else points[s] for s in (0, 1)}
        belote = {s: (belotes[s] + belotes[s + 2]) * rules.belote_points for s in (0, 1)}
        contract = Contract(value, strain, taker, level, bool(capot_bid))
        facts = DealFacts(contract, card, belote, ann, capot, won)
        assert list(row[0, sim.MARKS : sim.MARKS + 2]) == [
            score_deal(rules, facts, check=False).marks[s] for s in (0, 1)
        ], facts
