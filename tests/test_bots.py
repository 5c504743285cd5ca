"""Computer players: legal play everywhere, no peeking, specs, and what a seat can deduce."""

from __future__ import annotations

import math
import random

import pytest

from atout import AtoutError, Deal, Ruleset
from atout.actions import PASS, Bid, Play
from atout.bots import LEVELS, build_agent, load_spec, play_deal
from atout.bots.heuristic import contract_estimate
from atout.bots.knowledge import Knowledge
from atout.bots.search import SearchAgent, _auction_misfit, _Objective
from atout.cards import Card
from atout.rules import PRESETS
from conformance import first_card

#: The error messages these tests read are the English ones.
pytestmark = pytest.mark.usefixtures("english")

CHEAP = ("random", "debutant", "club")


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("level", CHEAP)
def test_cheap_bots_only_play_legal_actions(preset: str, level: str) -> None:
    """Hundreds of deals of every preset: a bot's action is always accepted by the rules core."""
    rules = Ruleset.preset(preset)
    agents = [build_agent(level, seed=s) for s in range(rules.players)]
    for i in range(150):
        deal = play_deal(Deal.new(rules, dealer=i % rules.players, seed=i), agents)
        assert deal.result is not None


@pytest.mark.parametrize(
    "options",
    [
        {"sans_atout": True, "tout_atout": True},
        {"must_undertrump": True},
        {"tout_atout": True, "overtrump_partner": False},
    ],
)
def test_club_bots_play_every_option(options: dict[str, object]) -> None:
    rules = Ruleset.preset("coinche", **options)
    agents = [build_agent("club", seed=s) for s in range(4)]
    for i in range(150):
        assert play_deal(Deal.new(rules, dealer=i % 4, seed=i), agents).result is not None


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_expert_plays_every_preset(preset: str) -> None:
    rules = Ruleset.preset(preset)
    spec = load_spec(
        {
            "name": "quick-expert",
            "bidder": "search",
            "player": "search",
            "samples": 3,
            "nodes_per_card": 100_000,
            "bid_samples": 2,
            "nodes_per_call": 200_000,
        }
    )
    agents = [build_agent(spec, seed=s) for s in range(rules.players)]
    deal = play_deal(Deal.new(rules, dealer=0, seed=7), agents)
    assert deal.result is not None


def test_knowledge_never_rules_out_the_real_cards() -> None:
    """Whatever a seat deduces (voids, trump ceilings, known cards, counts) holds for the real deal;
    between bots that always say belote, so does the belote card not held by who played the other
    without saying it."""
    for preset in ("coinche", "classique", "trois", "deux", "contree-colver"):
        rules = Ruleset.preset(preset)
        agents = [build_agent("club", seed=s) for s in range(rules.players)]
        rng = random.Random(3)
        for i in range(40):
            deal = Deal.new(rules, dealer=i % rules.players, seed=100 + i)
            while deal.turn is not None:
                seat = deal.turn
                obs = deal.observation(seat)
                know = Knowledge.of(obs, always_say_belote=True)
                for other in range(rules.players):
                    if other == seat:
                        continue
                    real = deal.dealt.hands[other] if deal.phase.value == "auction" else deal.hand_mask(other)
                    assert real & know.excluded.get(other, 0) == 0
                    assert know.known.get(other, 0) & ~real == 0
                    assert (real & ~know.known.get(other, 0)).bit_count() == know.counts[other]
                placed = know.sample(rng)
                for holder, count in know.counts.items():
                    assert (placed[holder] & ~know.known.get(holder, 0)).bit_count() == count
                    assert placed[holder] & know.excluded.get(holder, 0) == 0
                deal.apply(agents[seat].act(obs), seat)


#: North: hearts and diamonds; West: two low trumps and clubs; South: low hearts and diamonds;
#: East: the high trumps and two clubs. Spades are trump, taken by East.
VOID_HANDS = [".AKQJ.AKQJ.", "87...AKQJT9", ".T987.T987.", "AKQJT9...87"]


def test_voids_and_trumps_are_deduced_from_the_play() -> None:
    """Not following suit shows a void; discarding when one must trump shows no trump at all
    (FFB coinche §5.2)."""
    rules = Ruleset.preset("coinche", announcements=False)
    deal = Deal.from_hands(rules, VOID_HANDS, dealer=3)
    for call in ("P", "P", "P", "80S", "P", "P", "P"):
        deal.apply(call)
    for card in ("AH", "7S", "TH", "8C"):  # West ruffs, East (partner holding) discards
        deal.apply(card)
    south = Knowledge.of(deal.observation(2))
    hearts = 0xFF << 8
    assert south.excluded[1] & hearts == south.unseen & hearts != 0
    assert south.excluded[3] & hearts == south.unseen & hearts
    for card in ("AC", "9D", "7C", "AD"):  # West leads clubs; North, void and trumpless, discards
        deal.apply(card)
    east = Knowledge.of(deal.observation(3))
    spades = 0xFF
    assert east.excluded[0] & spades == east.unseen & spades != 0


def test_the_search_bot_cannot_see_hidden_cards() -> None:
    """Two deals that look the same to seat 0 (the other hands swapped) get the same decision."""
    rules = Ruleset.preset("coinche")
    spec = load_spec({"name": "e", "bidder": "search", "player": "search", "samples": 4, "bid_samples": 2})
    base = Deal.new(rules, dealer=3, seed=11)
    hands = [base.hand_mask(s) for s in range(4)]
    twin = Deal.from_hands(rules, [hands[0], hands[3], hands[2], hands[1]], dealer=3)
    for deal in (base, twin):
        for call in ("P", "90H", "P", "P", "P"):
            deal.apply(call)
        while deal.must_declare:
            deal.apply(deal.legal_actions()[0])
    assert base.turn == twin.turn == 0
    assert base.observation(0) == twin.observation(0)
    first = build_agent(spec, seed=5).act(base.observation(0))
    second = build_agent(spec, seed=5).act(twin.observation(0))
    assert isinstance(first, Play) and first == second


def test_levels_and_specs() -> None:
    for level in LEVELS:
        assert load_spec(level).name == level
    assert load_spec("expert").player == "search"
    with pytest.raises(AtoutError, match="unknown field"):
        load_spec({"name": "x", "depth": 3})
    with pytest.raises(AtoutError, match="noise"):
        load_spec({"name": "x", "noise": 2})
    with pytest.raises(AtoutError, match="malformed TOML"):
        load_spec('name = "x"\nbidder = ')
    with pytest.raises(AtoutError, match="cannot read"):
        load_spec("/nonexistent/bot.toml")
    with pytest.raises(AtoutError, match="needs a name"):
        load_spec({"bidder": "random"})
    with pytest.raises(AtoutError, match="agents are needed"):
        play_deal(Deal.new(Ruleset.preset("coinche"), seed=1), [build_agent("random")])


def test_spec_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bold.toml"
    path.write_text(
        '[bot]\nname = "bold"\nbidder = "heuristic"\nplayer = "heuristic"\naggression = 20\n', encoding="utf-8"
    )
    spec = load_spec(path)
    assert spec.name == "bold" and spec.aggression == 20
    assert load_spec(str(path)) == spec


def test_agents_are_reproducible_from_their_seed() -> None:
    rules = Ruleset.preset("coinche")
    one = play_deal(Deal.new(rules, seed=4), [build_agent("debutant", seed=s) for s in range(4)])
    two = play_deal(Deal.new(rules, seed=4), [build_agent("debutant", seed=s) for s in range(4)])
    assert one.actions == two.actions


def test_the_taker_decides_around_a_retourne_and_the_bidder_elsewhere() -> None:
    spec = load_spec({"name": "mixed", "bidder": "random", "taker": "heuristic", "player": "heuristic"})
    classique = Deal.new(Ruleset.preset("classique"), seed=3)
    heuristic = build_agent("club")
    for _ in range(2):  # the first round of the retourne auction
        seat = classique.turn
        assert seat is not None
        call = build_agent(spec, seed=1).act(classique.observation(seat))
        assert call == heuristic.act(classique.observation(seat))
        classique.apply(call, seat)
    coinche = Deal.new(Ruleset.preset("coinche"), seed=3)
    seat = coinche.turn
    assert seat is not None
    calls = {build_agent(spec, seed=s).act(coinche.observation(seat)) for s in range(12)}
    assert len(calls) > 1  # the random bidder, not the club player's single choice
    with pytest.raises(AtoutError, match="taker 'psychic'"):
        load_spec({"name": "x", "taker": "psychic"})
    assert load_spec("expert").taker == "heuristic" and load_spec("club").taker is None


@pytest.mark.parametrize(("budget", "wall_clock"), [({"nodes_per_card": 1}, False), ({"time_per_card": 1e-9}, True)])
def test_a_search_bot_out_of_budget_plays_the_club_players_card(budget: dict[str, float], wall_clock: bool) -> None:
    """``nodes_per_card`` is a hard limit, and so is ``time_per_card`` for a bot with a clock: with no
    deal solved within it, the club player's card is played."""
    deal = first_card()
    seat = deal.turn
    assert seat is not None
    hurried = build_agent({"name": "hurried", "player": "search", **budget}, wall_clock=wall_clock)
    assert hurried.act(deal.observation(seat)) == build_agent("club").act(deal.observation(seat))


@pytest.mark.parametrize(("budget", "wall_clock"), [({"nodes_per_call": 1}, False), ({"time_per_call": 1e-9}, True)])
def test_a_search_bidder_out_of_budget_makes_the_club_players_call(budget: dict[str, float], wall_clock: bool) -> None:
    """``nodes_per_call`` is a hard limit, and so is ``time_per_call`` for a bot with a clock: with no
    completion valued within it, the club player calls."""
    deal = Deal.new(Ruleset.preset("coinche"), dealer=0, seed=3)
    seat = deal.turn
    assert seat is not None
    hurried = build_agent({"name": "hurried", "bidder": "search", **budget}, wall_clock=wall_clock)
    assert hurried.act(deal.observation(seat)) == build_agent("club").act(deal.observation(seat))


def test_aggression_moves_the_search_bidders_ceiling() -> None:
    """The search bidder bids only within 10 points of what its hand can show (the club player's
    estimate plus ``aggression``): an opener valued 78 in diamonds bids 80, and passes when
    ``aggression`` takes 40 off that estimate, although its samples are the same."""
    deal = Deal.new(Ruleset.preset("coinche"), dealer=3, seed=5)
    seat = deal.turn
    assert seat is not None
    spec = {"name": "s", "bidder": "search", "bid_samples": 4, "nodes_per_call": 2_000_000, "bid_make_rate": 0.5}
    obs = deal.observation(seat)
    assert contract_estimate(obs.hand, 2) == 78
    assert build_agent(spec, 1).act(obs) == Bid(80, 2)
    assert build_agent({**spec, "aggression": -40}, 1).act(obs) == PASS


def test_a_card_searches_within_its_node_budget() -> None:
    """The budget binds before the samples run out, and a search stopped at the limit overruns it by
    no more than the few nodes it takes to stop."""
    deal = first_card()
    seat = deal.turn
    assert seat is not None
    agent = SearchAgent(load_spec({"name": "e", "player": "search", "samples": 50, "nodes_per_card": 300_000}), 1)
    agent.act(deal.observation(seat))
    nodes, samples = agent.last_search
    assert 0 < samples < 50 and 0 < nodes <= 300_000 + 100


def test_a_clock_left_unused_changes_nothing() -> None:
    """With seconds to spare, a bot with a clock decides as the same bot without one: the node budget binds."""
    deal = first_card()
    seat = deal.turn
    assert seat is not None
    spec = {"name": "e", "player": "search", "samples": 6, "nodes_per_card": 300_000, "time_per_card": 60}
    assert [build_agent(spec, seed=s, wall_clock=True).act(deal.observation(seat)) for s in range(3)] == [
        build_agent(spec, seed=s).act(deal.observation(seat)) for s in range(3)
    ]


def test_budgets_are_checked() -> None:
    with pytest.raises(AtoutError, match="time_per_call must be between 0 and 60 seconds"):
        load_spec({"name": "x", "time_per_call": 0})
    for bad in (0, 2.5, True, 10**11):
        with pytest.raises(AtoutError, match="nodes_per_card must be a whole number between 1 and 10_000_000_000"):
            load_spec({"name": "x", "nodes_per_card": bad})
    expert = load_spec("expert")
    assert (expert.nodes_per_card, expert.nodes_per_call) == (8_000_000, 20_000_000)
    assert (expert.time_per_card, expert.time_per_call) == (1.0, 2.0)


def test_club_partners_do_not_climb_on_each_others_raises() -> None:
    """Coinche bids go up to 820 (FFB §4.1 sets no ceiling): a partner raises on the opening, not on a raise,
    so the auctions stop where the hands do, far below the ceiling."""
    rules = Ruleset.preset("coinche")
    agents = [build_agent("club", seed=s) for s in range(4)]
    values = []
    for i in range(300):
        deal = Deal.new(rules, dealer=i % 4, seed=i)
        while deal.contract is None and deal.result is None:
            seat = deal.turn
            assert seat is not None
            deal.apply(agents[seat].act(deal.observation(seat)))
        if deal.contract is not None:
            values.append(deal.contract.value)
    assert len(values) > 250 and max(values) < 250
    assert sum(v >= 160 for v in values) < len(values) // 20


#: East (seat 1) holds the four jacks, A K 10 9 of hearts: a carré of 200 on top of a fine heart hand.
CARRE_HANDS = ["AKQT9.Q8.A.", "J.AKJT9.J.J", "87.7.KQT.AK", "..987.QT987"]


def test_club_bidder_counts_its_announcements_above_160() -> None:
    """Announcements count toward the contract (FFB §4.2): over 160♠, the carré of jacks lets East bid 170♥;
    without announcements his hand is worth far less and he passes."""
    for options, expected in (({}, "170H"), ({"announcements": False}, "P")):
        deal = Deal.from_hands(Ruleset.preset("coinche", **options), CARRE_HANDS, dealer=3)
        deal.apply("160S")
        assert build_agent("club", seed=0).act(deal.observation(1)).notation() == expected


def test_a_belote_card_played_unsaid_places_the_other_elsewhere() -> None:
    """With ``always_say_belote`` (players who always say it, as atout's bots and colver's engine do), the
    king or queen of trump played without « belote » shows that its player lacks the other (FFB coinche
    §7: the belote is said with the first of the two played); said, it shows that he holds it."""
    rules = Ruleset.preset("contree-colver")
    hands = ["KQ.A7.A7.A7", "AJ.KQ.KQ.KQ", "T9.JT.JT.JT", "87.98.98.98"]
    for belote, excluded in ((False, True), (True, False)):
        deal = Deal.from_hands(rules, hands, dealer=3)
        for call in ("80S", "P", "P", "P"):
            deal.apply(call)
        deal.apply(Play(Card.parse("KS"), belote))
        east = deal.observation(1)
        queen = 1 << Card.parse("QS")
        assert not Knowledge.of(east).assumed.get(0, 0) & queen
        assert bool(Knowledge.of(east, always_say_belote=True).assumed.get(0, 0) & queen) is excluded
        assert bool(Knowledge.of(east).known.get(0, 0) & queen) is belote


def test_a_belote_left_unsaid_by_its_holder_still_gets_a_placement() -> None:
    """Saying belote is a choice (FFB coinche §7: « Pour être valable, elle doit être annoncée »): a player
    may hold both and keep quiet. East plays the king of trump without a word, North and West show they
    have no trump (FFB §5, rule 1: « On doit toujours fournir la couleur demandée à l'entame si l'on en
    possède »), so the queen can only be East's: the habit of always saying it is given up, and every
    sampled deal puts the queen with East."""
    rules = Ruleset.preset("coinche")
    hands = ["AJT987.A.A.", "KQ.KQ.KQ.KQ", ".JT98.JT98.", ".7.7.AJT987"]
    deal = Deal.from_hands(rules, hands, dealer=3)
    for call in ("80S", "P", "P", "P"):
        deal.apply(call)
    for card in ("7S", "KS", "JH", "7H"):
        if not deal.legal_cards():  # declare nothing first where the seat could announce
            deal.apply("ann:-")
        deal.apply(Play(Card.parse(card), False))
    know = Knowledge.of(deal.observation(0), always_say_belote=True)
    queen = 1 << Card.parse("QS")
    assert know.assumed[1] & queen and know.excluded[2] & queen and know.excluded[3] & queen
    rng = random.Random(3)
    for _ in range(20):
        assert know.sample(rng)[1] & queen
    assert know.assumed == {}


def test_the_search_objective_counts_each_sides_belote_still_to_be_said() -> None:
    """The belote counts for the side that holds it, toward its contract and its marks (FFB coinche
    §6 and §10): in a sampled deal, a king–queen of trump the takers' opponents hold costs the takers
    at least its 20 points, one they hold gains them as much."""
    deal = first_card()
    seat = deal.turn
    assert seat is not None
    objective = _Objective(deal.observation(seat))
    king_queen_of_hearts = 0b0110_0000 << 8
    opponent = (seat + 1) % 4
    hands = [0, 0, 0, 0]
    hands[opponent] = king_queen_of_hearts
    assert objective.held_belotes(hands) == (0, 20)
    hands[opponent], hands[(seat + 2) % 4] = 0, king_queen_of_hearts
    assert objective.held_belotes(hands) == (20, 0)
    for value in (60, 100, 140):
        assert objective(value, (0, 20)) <= objective(value) - 20
        assert objective(value, (20, 0)) >= objective(value) + 20


def test_a_sampling_charge_stops_a_card_after_fewer_samples() -> None:
    """``nodes_per_sample`` charges each sampled deal to the card's node budget (its sampling's own cost)."""
    deal = first_card()
    seat = deal.turn
    assert seat is not None
    spec = {"name": "e", "player": "search", "samples": 50, "nodes_per_card": 300_000, "nodes_per_sample": 100_000}
    agent = SearchAgent(load_spec(spec), 1)
    agent.act(deal.observation(seat))
    assert 1 <= agent.last_search[1] <= 3


def test_sampling_fields_are_checked_and_left_out_of_records_at_their_default() -> None:
    bad_values = (("auction_tries", 0), ("auction_tries", 1001), ("nodes_per_sample", -1), ("samples", 10_001))
    for field, bad in (*bad_values, ("misfit_scale", -1), ("misfit_scale", 1001), ("misfit_scale", "20")):
        with pytest.raises(AtoutError, match=field):
            load_spec({"name": "x", field: bad})
    assert not {"auction_tries", "nodes_per_sample", "misfit_scale"} & set(load_spec("club").to_dict())
    spec = load_spec({"name": "x", "auction_tries": 1, "nodes_per_sample": 5_000, "misfit_scale": 12.5})
    assert load_spec(spec.to_dict()) == spec


def test_one_auction_try_draws_any_placement_the_play_allows() -> None:
    """With ``auction_tries = 1`` the calls are not read: the placement is the first one drawn, where
    more tries look past a first draw that does not fit the calls."""
    obs = first_card().observation(2)  # a defender: the taker's 80 ♥ says something of his hand
    know = Knowledge.of(obs)
    differs = 0
    for seed in range(20):
        first = know.sample(random.Random(seed))
        one = SearchAgent(load_spec({"name": "u", "player": "search", "auction_tries": 1}), seed)
        assert one._fit_auction(obs, know) == first
        many = SearchAgent(load_spec({"name": "m", "player": "search"}), seed)
        differs += many._fit_auction(obs, know) != first
    assert differs > 0


def test_a_misfit_scale_weighs_any_placement_by_the_calls() -> None:
    """With ``misfit_scale`` a card's worlds are the placements the play allows, drawn as with one
    auction try, each counting less the further its hands fall short of the others' bids."""
    obs = first_card().observation(2)  # a defender: the taker's 80 ♥ says something of his hand
    know = Knowledge.of(obs)
    weights = []
    for seed in range(20):
        first = know.sample(random.Random(seed))
        soft = SearchAgent(load_spec({"name": "s", "player": "search", "misfit_scale": 20.0}), seed)
        placed, weight = soft._world(obs, know)
        assert placed == first
        miss = _auction_misfit(obs, placed, know.played)
        assert weight == pytest.approx(math.exp(-miss / 20))
        weights.append(weight)
    assert 1.0 in weights and min(weights) < 0.5  # some placements fit the 80 ♥, some fall far short
    hard = SearchAgent(load_spec({"name": "h", "player": "search"}), 0)
    assert hard._world(obs, know)[1] == 1.0
