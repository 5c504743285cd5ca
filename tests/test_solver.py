"""The double-dummy solver: exact against a plain minimax, consistent along its own best play,
and tied to the rules core."""

from __future__ import annotations

import dataclasses
import itertools
import random
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

from atout import AtoutError, Deal, Phase, Ruleset
from atout.fast import ABOVE, POINTS, STRENGTH
from atout.solver import Position, SearchLimit, Solver, bounds, context, endgames, ordering, position_of, search, table
from conformance import first_card
from solver_reference import minimax, random_positions, reference_trick_start_value, reference_value

#: (preset, options, strain): every play mode, every table size, the card-play options.
MODES = [
    ("coinche", {}, 1),
    ("coinche", {"sans_atout": True}, 4),
    ("coinche", {"tout_atout": True}, 5),
    ("coinche", {"tout_atout": True, "ta_values": "funbelote", "overtrump_partner": False}, 5),
    ("coinche", {"must_undertrump": True, "overtrump_partner": False, "capot_points": 250}, 0),
    ("coinche", {"undertrump_partner": True, "must_undertrump": True}, 3),
    ("contree-colver", {}, 1),
    ("classique", {}, 2),
    ("trois", {}, 3),
    ("deux", {}, 1),
]


@pytest.mark.parametrize(
    ("preset", "options", "strain"), MODES, ids=[f"{p}-{s}-{i}" for i, (p, _, s) in enumerate(MODES)]
)
def test_solver_matches_plain_minimax(preset: str, options: dict[str, object], strain: int) -> None:
    """0 mismatches on 1,000 random positions with at most four tricks left."""
    rules = Ruleset.preset(preset, **options)
    solver = Solver(rules, table_bits=16)
    checked = 0
    for deal in random_positions(rules, strain, 1000, seed=strain + 10 * len(options), min_done=rules.hand_size - 4):
        solution = solver.solve(deal)
        pos = position_of(deal)
        for card, value in solution.values.items():
            assert value == reference_value(rules, pos, card), deal.position()
            checked += 1
    assert checked >= 1000


def _trick_starts(
    solver: Solver, strain: int, count: int, seed: int, tricks_left: int
) -> Iterator[tuple[Deal, Position]]:
    """The trick starts with ``tricks_left`` tricks left among ``count`` random positions, each
    prepared for ``solver`` as it is given (the solver's context then holds that deal)."""
    rules = solver.rules
    for deal in random_positions(rules, strain, count, seed=seed, min_done=rules.hand_size - tricks_left):
        pos = solver._prepare(deal)
        if not pos.trick and pos.tricks_left == tricks_left:
            yield deal, pos


@pytest.mark.parametrize(
    ("preset", "options", "strain"), MODES, ids=[f"{p}-{s}-{i}" for i, (p, _, s) in enumerate(MODES)]
)
def test_the_last_two_tricks_match_plain_minimax(preset: str, options: dict[str, object], strain: int) -> None:
    """``last_two`` (the search's valuation of a trick start with two tricks left) gives the plain
    minimax's value for either side, with and without each side's capot hopes."""
    rules = Ruleset.preset(preset, **options)
    solver = Solver(rules)
    checked = 0
    for deal, pos in _trick_starts(solver, strain, 1000, seed=strain + 5, tricks_left=2):
        hands = np.array(pos.hands, np.int64)
        total = int(sum(POINTS[pos.mode, c] for h in pos.hands for c in range(32) if h >> c & 1))
        for side, capot in itertools.product((0, 1), ((False, False), (True, False), (False, True))):
            solver._ctx[context.ME] = side
            fast = endgames.last_two(hands, pos.leader, *capot, solver._seat_side, solver._ctx, total)
            exact = reference_trick_start_value(rules, dataclasses.replace(pos, capot=capot), side)
            assert fast == exact, (deal.position(), side, capot)
            checked += 1
    assert checked >= 600


FOUR_PLAYER_MODES = [m for m in MODES if Ruleset.preset(m[0]).players == 4]


@pytest.mark.parametrize(
    ("preset", "options", "strain"),
    FOUR_PLAYER_MODES,
    ids=[f"{p}-{s}-{i}" for i, (p, _, s) in enumerate(FOUR_PLAYER_MODES)],
)
def test_the_last_three_tricks_match_plain_minimax(preset: str, options: dict[str, object], strain: int) -> None:
    """``three_tricks`` (the search's nested loops for a four-player trick start with three tricks
    left) gives the plain minimax's value in an open window, a sound fail-soft bound in a zero
    window on either side of it, and a best card that keeps the value."""
    rules = Ruleset.preset(preset, **options)
    solver = Solver(rules)
    checked = 0
    for deal, pos in _trick_starts(solver, strain, 1200, seed=strain + 7, tricks_left=3):
        hands = np.array(pos.hands, np.int64)
        remaining = int(sum(pos.hands))
        total = int(sum(POINTS[pos.mode, c] for c in range(32) if remaining >> c & 1))
        keys = np.zeros((4, 256), np.int64)
        table.suit_keys(hands, 4, pos.mode, keys)
        args = (solver._seat_side, solver._ctx, solver._table, keys)
        for side in (0, 1):
            solver._ctx[context.ME] = side
            exact = reference_trick_start_value(rules, pos, side)
            value, card, nodes = endgames.three_tricks(
                hands, pos.leader, *pos.capot, -1, 10**4, -1, remaining, total, *args
            )
            assert value == exact and nodes > 0, (deal.position(), side)
            high = endgames.three_tricks(hands, pos.leader, *pos.capot, exact - 1, exact, -1, remaining, total, *args)
            low = endgames.three_tricks(hands, pos.leader, *pos.capot, exact, exact + 1, -1, remaining, total, *args)
            assert high[0] >= exact >= low[0], (deal.position(), side)
            if pos.seat_side[pos.leader] == side:
                assert reference_value(rules, pos, card) == exact
            checked += 1
    assert checked >= 160


def _pv_is_consistent(rules: Ruleset, deal: Deal, solver: Solver) -> None:
    """Along the best play, each side's value is what it takes next plus its value after."""
    while deal.phase is Phase.PLAY:
        if deal.must_declare:
            deal.apply("ann:-")
            continue
        solution = solver.solve(deal)
        side = solution.side
        pos = position_of(deal)
        before = pos.taken[side]
        best = solution.best
        belote = [a for a in deal.legal_actions() if getattr(a, "card", None) == best]
        deal.apply(belote[0])
        if deal.phase is Phase.DONE:
            assert deal.result is not None
            final = deal.result.card_points
            ours = sum(v for s, v in final.items() if (position_side(rules, deal, s) == side))
            assert ours - before == solution.value
            return
        after = position_of(deal)
        assert solver.value(deal, side=side_of_solver(rules, deal, side)) + after.taken[side] - before == solution.value


def position_side(rules: Ruleset, deal: Deal, scoring_side: int) -> int:
    if rules.players == 3:
        assert deal.contract is not None
        return 0 if scoring_side == deal.contract.taker else 1
    return scoring_side


def side_of_solver(rules: Ruleset, deal: Deal, solver_side: int) -> int:
    """A scoring side that maps onto ``solver_side`` (a defender's seat with three players)."""
    if rules.players == 3:
        assert deal.contract is not None
        taker = deal.contract.taker
        return taker if solver_side == 0 else (taker + 1) % 3
    return solver_side


@pytest.mark.parametrize("preset", ["coinche", "trois"])
def test_values_are_consistent_along_the_principal_variation(preset: str) -> None:
    rules = Ruleset.preset(preset)
    solver = Solver(rules)
    for deal in random_positions(rules, 0, 3, seed=5, min_done=3):
        _pv_is_consistent(rules, deal, solver)


def test_threshold_query_agrees_with_the_value() -> None:
    rules = Ruleset.preset("coinche")
    solver = Solver(rules, table_bits=16)
    for deal in random_positions(rules, 1, 40, seed=9, min_done=4):
        for side in (0, 1):
            best = solver.value(deal, side=side) + deal.points()[side]
            assert solver.can_reach(deal, side, best)
            assert not solver.can_reach(deal, side, best + 1)


def test_full_deal_from_trick_one() -> None:
    """A whole deal: the value of the best card equals what best play then takes."""
    deal = first_card()
    solution = Solver(deal.rules).solve(deal)
    assert set(int(c) for c in solution.values) == {a.card for a in deal.legal_actions()}  # type: ignore[attr-defined]
    assert 0 <= solution.value <= 252


#: (preset, options, strain, tricks done at least, nodes on two positions of each of the seeds 1, 2 and 3:
#: solve, value for the takers and "can the takers reach 82?", each from an empty table, then solve
#: with the table the case's earlier positions left). The search's layout and speed may change; a
#: change of these counts is a change of the search itself, to be measured (docs/performance.md).
NODE_COUNTS = [
    (
        "coinche",
        {},
        1,
        0,
        [
            (31523, 26410, 451, 31523),
            (6588, 7588, 166, 6601),
            (84034, 60254, 10118, 55112),
            (499, 501, 394, 499),
            (377, 361, 263, 373),
            (1066, 258, 512, 1189),
        ],
    ),
    (
        "coinche",
        {},
        1,
        3,
        [(937, 896, 304, 937), (18, 12, 5, 18), (213, 218, 4, 213), (8, 1, 1, 8), (13, 12, 12, 13), (46, 47, 7, 46)],
    ),
    (
        "coinche",
        {"sans_atout": True},
        4,
        2,
        [(1177, 258, 107, 1177), (4, 5, 2, 4), (1096, 1097, 41, 1096), (2, 2, 0, 2), (922, 745, 31, 954), (8, 1, 1, 8)],
    ),
    (
        "coinche",
        {"tout_atout": True},
        5,
        2,
        [
            (4949, 3247, 1353, 4949),
            (4, 3, 3, 4),
            (4059, 4050, 653, 4031),
            (3317, 3324, 269, 3566),
            (411, 499, 27, 411),
            (67, 13, 11, 65),
        ],
    ),
    (
        "coinche",
        {"must_undertrump": True, "overtrump_partner": False, "capot_points": 250},
        0,
        3,
        [
            (206, 48, 1, 206),
            (25, 30, 2, 25),
            (1026, 961, 95, 1026),
            (26, 1, 1, 26),
            (91, 146, 69, 91),
            (1808, 414, 96, 1808),
        ],
    ),
    (
        "coinche",
        {"undertrump_partner": True, "must_undertrump": True},
        3,
        4,
        [(63, 37, 11, 63), (598, 441, 80, 598), (138, 150, 109, 138), (36, 51, 5, 36), (4, 8, 3, 4), (8, 9, 9, 8)],
    ),
    (
        "trois",
        {},
        3,
        2,
        [
            (208, 162, 14, 208),
            (6, 1, 1, 6),
            (1405, 789, 45, 1405),
            (191, 156, 55, 191),
            (25, 30, 3, 25),
            (11, 8, 8, 11),
        ],
    ),
    ("deux", {}, 1, 4, [(68, 23, 1, 68), (4, 1, 1, 4), (48, 7, 1, 48), (0, 2, 2, 0), (31, 36, 18, 31), (4, 2, 1, 4)]),
]


@pytest.mark.parametrize(
    ("preset", "options", "strain", "min_done", "expected"),
    NODE_COUNTS,
    ids=[f"{p}-{s}-{d}-{i}" for i, (p, _, s, d, _) in enumerate(NODE_COUNTS)],
)
def test_node_counts_on_fixed_positions(
    preset: str, options: dict[str, object], strain: int, min_done: int, expected: list[tuple[int, ...]]
) -> None:
    rules = Ruleset.preset(preset, **options)
    warm = Solver(rules)
    found = []
    for seed in (1, 2, 3):
        for deal in random_positions(rules, strain, 2, seed=seed, min_done=min_done):
            assert deal.contract is not None
            side = rules.side_of(deal.contract.taker)
            value = Solver(rules)
            value.value(deal, side)
            reach = Solver(rules)
            reach.can_reach(deal, side, 82)
            found.append((Solver(rules).solve(deal).nodes, value.nodes, reach.nodes, warm.solve(deal).nodes))
    assert found == expected


def test_a_node_limit_stops_a_solve_without_spoiling_the_next() -> None:
    deal = first_card()
    rules = deal.rules
    before = deal.position()
    solver = Solver(rules)
    with pytest.raises(SearchLimit, match="more than 2,000 nodes"):
        solver.solve(deal, node_limit=2000)
    assert deal.position() == before
    assert solver.solve(deal).values == Solver(rules).solve(deal).values
    assert solver.solve(deal, node_limit=10**9).values == Solver(rules).solve(deal).values


def test_bad_positions_are_refused() -> None:
    rules = Ruleset.preset("coinche")
    solver = Solver(rules)
    deal = Deal.new(rules, seed=1)
    with pytest.raises(AtoutError, match="play phase"):
        solver.solve(deal)
    with pytest.raises(AtoutError, match="other rules"):
        Solver(Ruleset.preset("contree")).solve(deal)
    with pytest.raises(AtoutError, match="table_bits"):
        Solver(rules, table_bits=40)
    rng = random.Random(1)
    for call in ("80S", "P", "P", "P"):
        deal.apply(call)
    if deal.must_declare:
        with pytest.raises(AtoutError, match="declare"):
            solver.solve(deal)
    while deal.turn is not None:
        deal.apply(rng.choice(deal.legal_actions()))
    with pytest.raises(AtoutError, match="play phase"):
        solver.solve(deal)


@pytest.mark.parametrize(
    ("preset", "options", "strain"), MODES, ids=[f"{p}-{s}-{i}" for i, (p, _, s) in enumerate(MODES)]
)
def test_cashable_masters_never_exceed_what_the_leaders_side_takes(
    preset: str, options: dict[str, object], strain: int
) -> None:
    """The bound from the masters the leader (or his partner, given the lead) cashes at once is
    sound, held to the plain minimax (at most the exact value), and not empty (it is reached,
    and often positive)."""
    rules = Ruleset.preset(preset, **options)
    positive = reached = 0
    for deal in random_positions(rules, strain, 400, seed=strain + 3, min_done=rules.hand_size - 4):
        pos = position_of(deal)
        if pos.trick:
            continue
        side = pos.seat_side[pos.leader]
        quick = bounds.leader_sure(
            np.array(pos.hands, np.int64),
            pos.leader,
            rules.players,
            np.array(pos.seat_side, np.int64),
            pos.mode,
            10**6,
            np.zeros(4, np.int64),
        )
        value = reference_trick_start_value(rules, pos, side)
        assert quick <= value, deal.position()
        positive += quick > 0
        reached += quick == value
    assert positive >= 10 and reached >= 1


def test_with_three_players_the_other_defender_ruffing_ends_the_cashing() -> None:
    """Three players: the other defender is no partner (he must ruff a master he cannot follow, and
    takes the lead), so the leader's later masters are not sure. Found in review, four tricks left,
    spades trump: seat 1 holds the queen and ten of hearts, the best left, and leads them; seat 2,
    void in hearts with the eight of spades, must ruff the first."""
    hands = np.array([0x980100, 0x1022800, 0x450002], np.int64)
    seat_side = np.array([0, 1, 1], np.int64)
    quick = bounds.leader_sure(hands.copy(), 1, 3, seat_side, 0, 10**6, np.zeros(4, np.int64))
    exact = minimax(
        hands.copy(), 1, np.zeros(4, np.int64), 0, 0, 4, False, False, 1, seat_side, 3, False, True, True, False, 0, 250
    )
    assert quick <= exact == 10


def test_next_card_up_table_matches_the_rules_tables() -> None:
    """``_NEXT_UP`` gives the weakest card still in play above a card of its suit (the rules core's
    ``above`` masks and strengths)."""
    for mode in range(7):
        for card in range(32):
            for byte in range(256):
                in_play = byte << (card & 24)
                above = [c for c in range(32) if (ABOVE[mode, card] >> c) & 1 and (in_play >> c) & 1]
                expected = min(above, key=lambda c: STRENGTH[mode, c]) if above else -1
                assert ordering._NEXT_UP[mode, card, byte] == expected


def test_each_deal_uses_a_part_of_the_table_sized_to_its_cards_left() -> None:
    """2**(2 * tricks left + 3) entries, at most ``table_bits``, fixed at a deal's first call."""
    rules = Ruleset.preset("coinche")
    deal = first_card()
    solver = Solver(rules, table_bits=18)
    solver.solve(deal)
    assert solver._ctx[context.TT_BITS] == 18
    for _ in range(12):  # three tricks later, the same deal keeps its part of the table
        deal.apply(deal.legal_actions()[0])
    assert position_of(deal).tricks_left == 5
    solver.solve(deal)
    assert solver._ctx[context.TT_BITS] == 18
    late = random_positions(rules, 1, 1, seed=2, min_done=5)[0]
    solver.solve(late)
    assert solver._ctx[context.TT_BITS] == max(10, 2 * position_of(late).tricks_left + 3)


#: The three-player form's short deck has at most one pointless card a suit (the 9), so nothing merges.
FULL_DECK_MODES = [m for m in MODES if m[0] != "trois"]


@pytest.mark.parametrize(
    ("preset", "options", "strain"),
    FULL_DECK_MODES,
    ids=[f"{p}-{s}-{i}" for i, (p, _, s) in enumerate(FULL_DECK_MODES)],
)
def test_positions_sharing_a_table_key_have_the_same_value(
    preset: str, options: dict[str, object], strain: int
) -> None:
    """The table key renames each suit's pointless bottom cards (7, 8, sometimes 9) to the lowest
    ones, keeping their holders: positions of one deal that differ only there (a player kept his 9
    rather than his 7, the 8 between them gone) share an entry, so their values must be equal.
    Checked with the plain minimax on every way to take one card from each hand of random
    positions with three or four tricks left."""
    rules = Ruleset.preset(preset, **options)
    merged = 0
    for deal in random_positions(rules, strain, 300, seed=strain + 5, min_done=rules.hand_size - 4):
        pos = position_of(deal)
        if pos.trick or pos.tricks_left < 3:
            continue
        keys = np.zeros((4, 256), np.int64)
        table.suit_keys(np.array(pos.hands, np.int64), rules.players, pos.mode, keys)
        groups: dict[int, list[tuple[int, ...]]] = {}
        for taken in itertools.product(*[[c for c in range(32) if (h >> c) & 1] for h in pos.hands]):
            hands = tuple(h & ~(1 << c) for h, c in zip(pos.hands, taken, strict=True))
            key = table.canonical(sum(hands), keys)
            groups.setdefault(key, []).append(hands)
        side = pos.seat_side[pos.leader]
        for members in groups.values():
            if len(members) < 2:
                continue
            later = [dataclasses.replace(pos, hands=h, tricks_left=pos.tricks_left - 1) for h in members[:3]]
            values = {reference_trick_start_value(rules, p, side) for p in later}
            assert len(values) == 1, (deal.position(), members)
            merged += 1
    assert merged >= 5


def test_killer_cards_go_right_after_the_first_choice() -> None:
    """Move ordering: the two cards that last made a cut-off at this point of a trick are tried
    second and third (most recent first), when they are among the moves; the first choice stays.
    (The leader's and the third player's killers go first.)"""
    moves = np.array([[9, 3, 5, 12, 20]], np.int64)
    ctx = np.zeros(4, np.int64)
    ctx[2:4] = (12, 20)
    ordering.killers_to(1, moves[0], 5, ctx, 2)
    assert moves[0].tolist() == [9, 12, 20, 3, 5]
    ctx[2:4] = (9, 7)  # the first choice and a card not among the moves: nothing moves
    ordering.killers_to(1, moves[0], 5, ctx, 2)
    assert moves[0].tolist() == [9, 12, 20, 3, 5]
    ctx[2:4] = (3, 20)
    ordering.killers_to(0, moves[0], 5, ctx, 2)
    assert moves[0].tolist() == [3, 20, 9, 12, 5]


def test_killer_cards_are_kept_apart_by_point_of_the_trick_and_suit_led() -> None:
    """Each (tricks left, place in the trick, suit led) has its own two killers within ``ctx``;
    the leader's (no suit led yet) do not depend on the card passed."""
    slots = {
        ordering.killer_slot(left, count, led) for left in range(11) for count in range(1, 4) for led in (0, 8, 16, 24)
    }
    slots |= {ordering.killer_slot(left, 0, 0) for left in range(11)}
    assert len(slots) == 11 * 13
    assert min(slots) >= context.KILLERS and max(slots) + 2 <= context.CTX_SIZE
    assert ordering.killer_slot(5, 0, 0) == ordering.killer_slot(5, 0, 24)


def test_ordering_asks_whether_the_last_player_can_beat_the_partners_card() -> None:
    """The third player gives points to his partner's trick only if the last player cannot take it:
    he can with a higher card of the led suit, or by ruffing when void (FFB coinche §5.1, §5.2); he
    cannot with only lower cards of the suit, or void without trumps."""
    ctx = np.zeros(context.CTX_SIZE, np.int64)
    ctx[context.OVER_PARTNER] = 1
    queen, king, seven = 8 + 5, 8 + 6, 8 + 0  # hearts (suit 1): Q, K, 7
    assert ordering.last_can_beat(1 << king, queen, queen, 4, ctx)  # sans atout, a higher heart
    assert not ordering.last_can_beat((1 << seven) | (1 << 23), queen, queen, 4, ctx)  # only a lower heart
    assert ordering.last_can_beat(1 << 0, queen, queen, 0, ctx)  # spades trump, void in hearts: ruffs
    assert not ordering.last_can_beat(1 << 16, queen, queen, 0, ctx)  # void, no trump: discards


def test_ten_card_hands_fit_the_search() -> None:
    """A player may choose among ten cards (``hand_size`` up to 10): the search's move lists hold
    them all. Found in review: with room for nine, the tenth overwrote a deeper node's first move,
    and the value (230) disagreed with the cards' values (63)."""
    deal = Deal.from_position(
        "deux,hand_size=10,packets=4-3 S play QT.KT8.KJT.A7/J8.AQJ9.Q98.J takeS@N N:- 0,0 0,0 "
        "-;0,0 ?/? AD,7D,TC,KS,AS,QC,7H,8C,7S,9C,9S,KC"
    )
    assert len(deal.legal_actions()) == 10
    value = Solver(deal.rules).value(deal)
    assert value == Solver(deal.rules).solve(deal).value == 63
    with pytest.raises(AtoutError, match="hand_size"):
        Ruleset.preset("deux", hand_size=context.MAX_HAND + 1)


def test_equivalent_cards_are_grouped_through_touching_cards_of_equal_points() -> None:
    """Equivalent-card reduction: cards of one hand touching in their suit (once the cards out of play
    are skipped) and worth the same points share a value, so a staged card's equivalents are not
    searched again. Sans atout (mode 4): the 7, 8 and 9 are worth nothing, the jack 2."""
    seven, eight, nine, jack = 8, 9, 10, 12  # hearts
    trick = np.zeros(4, np.int64)
    run = (1 << seven) | (1 << eight) | (1 << nine)
    assert ordering.equivalents(eight, run | 1 << jack, run | 1 << jack, trick, 0, 4) == run
    # The 8 is another player's: the 7 and the 9 no longer touch.
    assert ordering.equivalents(seven, (1 << seven) | (1 << nine), run, trick, 0, 4) == 1 << seven
    # The 8 is in the trick: still in play, so still between them.
    trick[0] = eight
    assert ordering.equivalents(nine, (1 << seven) | (1 << nine), (1 << seven) | (1 << nine), trick, 1, 4) == 1 << nine
    # The 8 is gone: the 7 and the 9 touch.
    assert ordering.equivalents(nine, (1 << seven) | (1 << nine), (1 << seven) | (1 << nine), trick, 0, 4) == (
        1 << seven
    ) | (1 << nine)


@pytest.mark.parametrize(
    ("preset", "options", "strain"), MODES[:3] + MODES[6:], ids=[f"{p}-{s}" for p, _, s in MODES[:3] + MODES[6:]]
)
def test_a_window_wider_than_one_point_gives_the_exact_value(
    preset: str, options: dict[str, object], strain: int
) -> None:
    """The solver's own queries use one-point windows; a wider window must still give the exact value
    when it lies inside, also once the table holds that value (its bounds then meet)."""
    rules = Ruleset.preset(preset, **options)
    rng = random.Random(strain)
    for deal in random_positions(rules, strain, 60, seed=strain, min_done=rules.hand_size - 4):
        solver = Solver(rules, table_bits=12)
        value = solver.value(deal)
        for warm in (True, False):
            if not warm:
                solver = Solver(rules, table_bits=12)
            pos = solver._prepare(deal)
            solver._ctx[context.ME] = pos.seat_side[pos.mover]
            hands, win = solver._load(pos)
            alpha, beta = value - rng.randint(1, 20), value + rng.randint(1, 20)
            found = search.search(
                hands,
                pos.leader,
                solver._tricks,
                len(pos.trick),
                win,
                pos.tricks_left,
                pos.capot[0],
                pos.capot[1],
                alpha,
                beta,
                solver._seat_side,
                solver._ctx,
                solver._table,
            )
            assert found == value, deal.position()


def test_warm_up_compiles_the_solver_in_a_fresh_process() -> None:
    """``warm_up`` (run by the terminal at start-up) leaves the search compiled, so that no first
    hint or computer card waits for the compiler; in a fresh process nothing is compiled before."""
    code = (
        "from atout.solver import search, warm_up\n"
        "functions = (search.run,)  # the one compiled function the solver calls\n"
        "assert not any(f.signatures for f in functions)\n"
        "warm_up()\n"
        "assert all(f.signatures for f in functions)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
