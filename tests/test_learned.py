"""The learned bidding judgement: its features, the shipped model, its training and its use by the expert's calls."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("sklearn")
pytest.importorskip("gymnasium")

from atout import Deal, Ruleset  # noqa: E402
from atout.actions import PASS, Bid, Coinche  # noqa: E402
from atout.bots import build_agent, load_spec  # noqa: E402
from atout.bots.learned import BidModel, features  # noqa: E402
from atout.cards import parse_hand  # noqa: E402
from atout.envs import corpus  # noqa: E402
from atout.errors import AtoutError  # noqa: E402
from atout.learn import bidding  # noqa: E402

RULES = Ruleset.preset("contree-colver")


def test_the_features_read_the_hand_around_the_trump_and_the_calls_by_seat() -> None:
    hand = parse_hand("JT9.A7.K.")  # ♠ J 10 9, ♥ A 7, ♦ K: six cards are enough here
    calls = [(1, Bid(80, 0)), (2, PASS), (3, Bid(90, 1)), (0, Coinche())]
    row = features(hand, seat=2, dealer=0, calls=calls, strain=0)
    assert row[:8] == [0, 0, 1, 1, 1, 0, 0, 0]  # the trumps 9 10 J
    assert row[8 + 3] == 1.0 and sum(row[8:17]) == 1.0  # three trumps
    assert row[17:26] == [1, 0, 0, 0, 0, 0, 0, 1, 2 / 8]  # the longest other suit first: ♥ A 7
    assert row[26:35] == [0, 0, 0, 0, 0, 0, 1, 0, 1 / 8] and row[35:44] == [0] * 9  # then ♦ K, then ♣
    place = row[44:48]
    assert place == [0, 1, 0, 0]  # seat 2 speaks second after dealer 0
    same, other, passes, coinched = row[49:53], row[53:57], row[57:61], row[61:65]
    assert same == [0, 0, 0, 80 / 160]  # seat 1, on the right of seat 2, bid 80 ♠
    assert other == [0, 90 / 160, 0, 0]  # seat 3, on its left, 90 ♥
    assert passes == [1 / 3, 0, 0, 0] and coinched == [0, 0, 1, 0]
    assert row[65:] == [90 / 160, 0.0]  # the highest bid, the other side's
    assert len(row) == 67


def test_the_shipped_model_gives_a_mean_and_its_spread_as_values() -> None:
    model = BidModel.load("contree-colver")
    deal = Deal.new(RULES, dealer=0, seed=4)
    obs = deal.observation(1)
    mean, spread = model.predict(obs, 2)
    values = model.values(obs, 2, 32)
    assert 0 <= mean <= 162 and 20 < spread < 80
    assert values == sorted(values) and abs(sum(values) / 32 - mean) < 8


def test_a_missing_or_corrupt_model_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(AtoutError) as missing:
        BidModel.load("nope")
    assert "contree-colver" in missing.value.message("en")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"garbage")
    with pytest.raises(AtoutError, match="pas un modèle d'enchères"):  # the default language: French
        BidModel.load(str(broken))
    old = tmp_path / "old.npz"
    with np.load(Path(bidding.__file__).parents[1] / "bots" / "models" / "contree-colver.npz") as shipped:
        np.savez(old, **{**dict(shipped), "features_version": np.array(0)})
    with pytest.raises(AtoutError, match="features 0"):
        BidModel.load(str(old))


def test_a_spec_with_a_bid_model_needs_the_search_bidder() -> None:
    with pytest.raises(AtoutError, match='demande bidder = "search"'):
        load_spec({"name": "x", "bid_model": "contree-colver"})
    with pytest.raises(AtoutError, match="bid_model"):
        load_spec({"name": "x", "bidder": "search", "bid_model": 3})
    assert "bid_model" not in load_spec("expert").to_dict()  # records written before the field stay the same


def test_the_expert_calls_with_the_model_without_searching() -> None:
    spec = {"name": "learned", "bidder": "search", "player": "heuristic", "bid_model": "contree-colver"}
    agents = [build_agent(spec, seed=seat) for seat in range(4)]
    contracts = 0
    for seed in range(12):
        deal = Deal.new(RULES, dealer=seed % 4, seed=seed)
        while deal.turn is not None:
            agent = agents[deal.turn]
            action = agent.act(deal.observation(deal.turn))
            if isinstance(action, Bid):
                assert agent.bidder.last_search == (0, 0) and not action.capot  # no solver: the model judged
            deal.apply(action)
        contracts += deal.contract is not None
    assert contracts >= 6


def test_training_reads_a_corpus_and_writes_a_model_the_bots_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A small corpus trains a model the bots can read; the report holds the curve and the test's figures
    for the network and the club estimate."""
    corpus.build(RULES, deals=40, seed=3, out=tmp_path, shard=20)
    out = tmp_path / "model.npz"
    bidding.main(["--corpus", str(tmp_path), "--seed", "3", "--out", str(out), "--epochs", "3"])
    printed = capsys.readouterr().out
    assert "| 3 |" in printed and "club estimate, every call" in printed and "network, later calls" in printed
    model = BidModel.load(str(out))
    deal = Deal.new(RULES, dealer=1, seed=9)
    assert 0 <= model.predict(deal.observation(2), 0)[0] <= 162
    with pytest.raises(SystemExit) as stopped:
        bidding.main(["--corpus", str(tmp_path / "none"), "--out", str(out)])
    assert stopped.value.code == 2 and "no shard" in capsys.readouterr().err


def test_a_side_value_is_the_rest_of_the_deal_or_the_capot() -> None:
    assert bidding.side_value(RULES, 100, True) == 100
    assert bidding.side_value(RULES, 100, False) == 62
    assert bidding.side_value(RULES, 0, False) == RULES.capot_points
    assert bidding.side_value(RULES, RULES.capot_points, False) == 0
