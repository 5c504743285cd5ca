"""atout's ``contree-colver`` preset against colver's engine, and colver's bots at atout's tables.

The differential test deals the same cards to both engines (atout's cards and seats mapped to
colver's, the same dealer, the player after him speaking and leading first), drives a random
auction (coinches, surcoinches and capot bids included) and a random play from atout, and checks
at every step that the seat to move and the set of legal calls or cards are the same, and at the
end that the card points, tricks, belotes and marks are. The source of the preset's rules is
colver's documented behaviour (its README's rules, its engine): this test is where it is read.

colver comes with the extra ``atout[peers]`` (CI installs it through ``atout[test]`` and sets
``ATOUT_REQUIRE_PEERS``, so there a missing colver fails instead of skipping).
"""

from __future__ import annotations

import os
import random
from importlib.util import find_spec

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atout import AtoutError, Deal, Phase, Ruleset
from atout.actions import PASS, Action, Bid, Play
from atout.bots import build_agent, load_spec, play_deal
from atout.bots.peers import (
    COLVER_SPECS,
    ColverAgent,
    check_rules,
    colver_env,
    from_colver_action,
    from_colver_card,
    legal_answer,
    placed_hands,
    to_colver_action,
    to_colver_card,
)
from atout.tables import play_mode

if find_spec("colver") is None:
    if os.environ.get("ATOUT_REQUIRE_PEERS"):
        raise RuntimeError("ATOUT_REQUIRE_PEERS is set but colver is not installed (pip install 'atout[peers]')")
    pytest.skip("colver is not installed (pip install 'atout[peers]')", allow_module_level=True)

RULES = Ruleset.preset("contree-colver")
#: Deals the differential test plays in both engines (about two seconds on the CI machine).
DEALS = 3000
#: How often a random auction passes (about one deal in seven is then passed out).
PASS_RATE = 0.6


def _random_call(rng: random.Random, legal: list[Action]) -> Action:
    """A pass, a coinche or surcoinche when there is one, the lowest bid (so that low contracts, the
    ones often made, are common), or any call."""
    others = [a for a in legal if a != PASS]
    if not others or rng.random() < PASS_RATE:
        return PASS
    doubles = [a for a in others if not isinstance(a, Bid)]
    pick = rng.random()
    if doubles and pick < 0.3:
        return rng.choice(doubles)
    return others[0] if pick < 0.7 else rng.choice(others)


def _random_card(rng: random.Random, deal: Deal, legal: list[Action], strong: bool) -> Action:
    """A random card, or for a ``strong`` side the strongest (made contracts and capots then come
    more often), with belote when it may be said (colver announces it itself)."""
    cards = [a.card for a in legal if isinstance(a, Play)]
    if strong:
        assert deal.contract is not None
        strain = deal.contract.strain
        strength = play_mode(strain).strength
        card = max(cards, key=lambda c: strength[c] + 16 * (c >> 3 == strain))
    else:
        card = rng.choice(cards)
    return legal_answer(Play(card), legal)


def play_both(seed: int) -> tuple[Deal, dict[str, int]]:
    """Play one random deal in both engines, checking them step by step; the deal and what it covered."""
    rng = random.Random(seed)
    deal = Deal.new(RULES, dealer=seed % 4, seed=seed)
    env = colver_env(deal.dealer, list(deal.dealt.hands))
    strong = rng.choice((0, 1, None))  # the side that plays its strongest cards, if any
    steps = 0
    while deal.phase is not Phase.DONE:
        legal = deal.legal_actions()
        assert env.current_player() == deal.turn, (seed, deal.position())
        assert sorted({to_colver_action(a) for a in legal}) == sorted(env.legal_actions()), (seed, deal.position())
        if deal.phase is Phase.AUCTION:
            action = _random_call(rng, legal)
        else:
            assert deal.contract is not None and deal.turn is not None
            strong_turn = RULES.side_of(deal.turn) == strong
            action = _random_card(rng, deal, legal, strong_turn)
        deal.apply(action)
        env.step(to_colver_action(action))
        steps += 1
    assert env.is_terminal()
    result = deal.result
    assert result is not None
    if result.passed_out:
        assert tuple(env.rewards()) == (0, 0)
        return deal, {"passed": 1, "steps": steps}
    assert result.contract is not None and result.score is not None
    assert tuple(env.get_points()) == (result.card_points[0], result.card_points[1]), seed
    assert tuple(env.get_tricks_won()) == (result.tricks[0], result.tricks[1]), seed
    # colver counts the belote cards played by their holder: 2 is a belote and rebelote.
    assert tuple(20 * (said // 2) for said in env.get_belote()) == (result.belote[0], result.belote[1]), seed
    assert tuple(env.rewards()) == (result.score.marks[0], result.score.marks[1]), (seed, result.facts)
    contract = result.contract
    covered = {
        "steps": steps,
        "coinched": contract.level == 1,
        "surcoinched": contract.level == 2,
        "capot_bid": contract.capot,
        "made": result.score.made,
        "coinched_made": contract.level > 0 and result.score.made,
        "capot_bid_made": contract.capot and result.score.made,
        "capot": result.score.capot is not None,
        "belote": bool(sum(result.belote.values())),
    }
    return deal, {key: int(value) for key, value in covered.items()}


def test_contree_colver_plays_exactly_as_colver_s_engine() -> None:
    """3,000 random deals (seeds 0..2999): every legal set, the card points, tricks, belotes and marks
    are colver's; the deals cover passed-out deals, coinches, surcoinches, capot bids made and failed,
    unbid capots, belotes, made contracts and falls."""
    totals: dict[str, int] = {}
    for seed in range(DEALS):
        _, covered = play_both(seed)
        for key, value in covered.items():
            totals[key] = totals.get(key, 0) + value
    assert totals["steps"] > 30 * DEALS
    least = {"passed": 300, "coinched": 300, "surcoinched": 300, "capot_bid": 300, "made": 300}
    least |= {"coinched_made": 100, "capot": 50, "belote": 300, "capot_bid_made": 5}
    assert all(totals[key] >= count for key, count in least.items()), totals


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=DEALS, max_value=2**40))
def test_contree_colver_matches_colver_on_any_seed(seed: int) -> None:
    """The same check on deals hypothesis draws beyond the fixed seeds (derandomized: the same each run)."""
    play_both(seed)


def test_cards_and_calls_map_both_ways() -> None:
    """Every card and every call of contree-colver has its colver number and back (colver's layout:
    suits ♠ ♥ ♦ ♣, ranks 7 8 9 J Q K 10 A; calls 0 pass, 1..36 bids, 37..40 capot, 41 and 42 the coinches)."""
    assert sorted(to_colver_card(c) for c in range(32)) == list(range(32))
    assert all(from_colver_card(to_colver_card(c)) == c for c in range(32))
    deal = Deal.new(RULES, dealer=0, seed=1)
    calls = deal.legal_actions()
    assert sorted(to_colver_action(a) for a in calls) == list(range(41))
    assert all(from_colver_action(to_colver_action(a), "auction") == a for a in calls)
    with pytest.raises(AtoutError, match="no action"):
        to_colver_action(Bid(80, 4))  # sans atout: colver has none


@pytest.mark.usefixtures("english")  # the messages read here are the English ones
def test_colver_bots_refuse_other_rules() -> None:
    """colver's bots play contree-colver only; the match options may differ."""
    check_rules(RULES.replace(target=2000, deals=10))
    with pytest.raises(AtoutError, match="contree-colver preset only"):
        check_rules(Ruleset.preset("contree"))


@pytest.mark.usefixtures("english")  # the messages read here are the English ones
def test_colver_specs_by_name_file_and_table(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """colver:NAME, colver:FILE and a TOML spec with engine = "colver" give the same kind of bot."""
    named = load_spec("colver:improved_heuristic")
    assert named.engine == "colver" and named.peer_spec == COLVER_SPECS["improved_heuristic"]
    path = tmp_path / "quick.toml"
    path.write_text(COLVER_SPECS["improved_heuristic"], encoding="utf-8")
    from_file = load_spec(f"colver:{path}")
    assert from_file.name == "colver:quick" and from_file.peer_spec == named.peer_spec
    table = load_spec(
        {
            "name": "t",
            "engine": "colver",
            "peer_spec": {"bid": {"strategy": "improved_v2"}, "play": {"method": "heuristic"}},
        }
    )
    assert table.peer_spec == '[bid]\nstrategy = "improved_v2"\n[play]\nmethod = "heuristic"\n'
    assert load_spec(table.to_dict()) == table
    assert "engine" not in load_spec("club").to_dict()  # atout's own specs are written as before
    with pytest.raises(AtoutError, match="unknown colver bot"):
        load_spec("colver:nonesuch")
    with pytest.raises(AtoutError, match="colver refuses its spec"):
        build_agent({"name": "bad", "engine": "colver", "peer_spec": '[play]\nmethod = "zzz"\n'})


#: colver's IS-DD counting its worlds (no clock), one thread: its decisions replay exactly.
COUNTED_ISDD = """[bid]
strategy = "improved_v2"
[play]
method = "isdd"
time_ms = 0
determinizations = 6
parallel = false
[worlds]
source = "uniform"
"""


def test_colver_bots_play_whole_deals_at_atout_s_table() -> None:
    """colver bots (built through build_agent) and atout's club bots play whole deals, atout refereeing."""
    agents = [build_agent("colver:improved_heuristic" if s % 2 else "club", seed=s) for s in range(4)]
    for i in range(8):
        deal = play_deal(Deal.new(RULES, dealer=i % 4, seed=i), agents)
        assert deal.result is not None
    assert agents[1].last_decision["action"] in range(43)  # type: ignore[attr-defined]


def test_colver_s_decision_does_not_depend_on_the_hidden_cards() -> None:
    """The adapter deals colver's Env a placement of the cards the seat cannot see; colver's agent reads
    only its own hand, so three placements and the real deal give the same card and the same values
    (IS-DD counting its worlds, the same seed), from the fourth trick on."""
    spec = load_spec({"name": "counted", "engine": "colver", "peer_spec": COUNTED_ISDD})
    probe = build_agent(spec, seed=5)
    assert isinstance(probe, ColverAgent)
    players = [build_agent("colver:improved_heuristic", seed=s) for s in range(4)]
    positions = 0
    for i in range(3):
        deal = Deal.new(RULES, dealer=i, seed=40 + i)
        while deal.turn is not None:
            seat = deal.turn
            obs = deal.observation(seat)
            cards = {a.card for a in obs.legal_actions() if isinstance(a, Play)}
            if len(cards) > 1 and len(deal.tricks) >= 3:
                fills = [placed_hands(obs, random.Random(f)) for f in range(3)] + [list(deal.initial_hands)]
                answers = set()
                for hands in fills:
                    env, agent = probe.replay(obs, hands)
                    decision = agent.decide(env)
                    answers.add((decision["action"], tuple(sorted(decision["candidates"]))))
                assert len(answers) == 1, deal.position()
                positions += 1
            deal.apply(players[seat].act(obs), seat)
    assert positions >= 15
