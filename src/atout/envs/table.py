"""A deal or a match driven by integer actions, with every seat's observation kept up to date.

The environments share this driver. It applies actions to a :class:`~atout.deal.Deal`
through its public API and updates one state array, in which each seat's private
blocks (its hand, its announcements to declare) sit beside the public ones (calls,
tricks, announcements as heard, belotes, scores). A seat's observation gathers its
own blocks and the public ones (see :class:`~atout.envs.encoding.Layout`). The updates
read only the action taken, as the other seats perceive it, and the public outcome
of the deal (the contract, who won a trick, the announcements shown, the score); the
tests check them against :func:`~atout.envs.encoding.encode`, built from
``deal.observation(seat)``, at every step of many random deals.

Rewards come when a deal ends. With ``reward="marks"`` a seat gets its side's marks
minus the other sides' average (zero-sum; with ``episode="match"`` the marks the
match adds, a litige's points included when they are awarded). With ``reward="win"``
(``episode="match"`` only) the match's winners get 1 and the others share -1.

>>> from atout import Ruleset
>>> table = Table(Ruleset.preset("coinche"), dealer=3)
>>> table.reset(seed=1)
>>> table.deal.turn, int(table.legal_mask().sum())       # pass, or any of the 304 bids (80 … 820, capot)
(0, 305)
>>> table.step(48)                                       # pass
{}
"""

from __future__ import annotations

import random
from array import array

import numpy as np

from atout.actions import Action, Bid, Coinche, Declare, Play, Surcoinche, Take
from atout.announcements import best_announcements
from atout.deal import Deal, Phase
from atout.envs.actions import action_space_of
from atout.envs.encoding import (
    ANNOUNCEMENT_SCALE,
    ANNOUNCEMENT_UNIT,
    CARD_POINTS_SCALE,
    SCORE_SCALE,
    FloatArray,
    MaskArray,
    announcement_entries,
    layout_of,
)
from atout.errors import AtoutError
from atout.match import Match
from atout.rules import Ruleset

EPISODES = ("deal", "match")
REWARDS = ("marks", "win")
_MASK_CACHE = 50_000
#: By ruleset, the masks of the lists of legal actions met so far, by the identities of their actions.
_MASKS: dict[str, dict[tuple[int, ...], tuple[MaskArray, dict[int, Action]]]] = {}
_KIND = {"tierce": 0, "cinquante": 1, "cent": 2, "carre": 3}


def check_options(rules: Ruleset, episode: str, reward: str, dealer: int | None) -> None:
    """Raise a clear error on a bad environment option."""
    if episode not in EPISODES:
        raise AtoutError(f"episode must be one of {', '.join(EPISODES)}, not {episode!r}")
    if reward not in REWARDS:
        raise AtoutError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    if reward == "win" and episode != "match":
        raise AtoutError("reward 'win' needs episode 'match' (a deal has no winner)")
    if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < rules.players):
        raise AtoutError(f"dealer must be a seat 0..{rules.players - 1} or None, not {dealer!r}")


def deal_bound(rules: Ruleset) -> int:
    """An upper bound of the marks one side can get from one deal (used to bound rewards)."""
    contract = max(rules.highest_bid, rules.capot_contract, rules.min_points)
    announcements = rules.players * (rules.hand_size // 3) * 200 if rules.announcements else 0
    belotes = rules.players * 4 * rules.belote_points if rules.belote else 0
    multiplier = max(rules.coinche_multiplier, rules.surcoinche_multiplier) if rules.coinche else 1
    return (contract + rules.capot_points + announcements + belotes + 10) * multiplier + rules.capot_prime


def seat_rewards(rules: Ruleset, marks: dict[int, int]) -> dict[int, float]:
    """Each seat's reward: its side's marks minus the other sides' average (the rewards sum to 0)."""
    total = sum(marks.values())
    others = len(marks) - 1
    return {
        seat: float(marks[rules.side_of(seat)] - (total - marks[rules.side_of(seat)]) / others)
        for seat in range(rules.players)
    }


class Table:
    """One deal (``episode="deal"``) or one match (``"match"``) of a ruleset."""

    def __init__(self, rules: Ruleset, *, episode: str = "deal", reward: str = "marks", dealer: int | None = None):
        check_options(rules, episode, reward, dealer)
        self.rules = rules
        self.episode = episode
        self.reward = reward
        self.dealer = dealer
        self.layout = layout_of(rules)
        self.space = action_space_of(rules)
        self.players = rules.players
        self._side = [self.layout.side(s) for s in range(rules.players)]
        self._state = array("f", bytes(4 * self.layout.state_size))
        self._view = np.frombuffer(self._state, np.float32)
        self._at = {name: s.state_offset for name, s in self.layout.sections.items()}
        self._unit = {name: s.unit for name, s in self.layout.sections.items()}
        at = self._at
        self._turn_at = at["turn"]
        self._card_at = (at["played"], at["trick_of_card"], at["hand"], at["belote"], at["voids"], at["trick"])
        self._masks = _MASKS.setdefault(rules.fingerprint, {})
        self._no_mask = np.zeros(self.space.size, np.int8)
        self._no_mask.flags.writeable = False
        self._rng = random.Random()
        self.match: Match | None = None
        self.deal = Deal.new(rules, seed=0)
        self._turn: int | None = None
        self._passes = self._tricks = 0
        self._trick: list[tuple[int, int]] = []
        self._won = self._points = [0] * self.layout.sides
        self._shown = False
        self._mask: MaskArray | None = None
        self._legal: dict[int, Action] = {}
        #: The episode is over: the deal (or the match) has ended.
        self.over = False

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None) -> None:
        """Start a new episode; ``seed`` makes it (and the following ones) reproducible."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.match = None
        if self.episode == "match":
            first = self.dealer if self.dealer is not None else self._rng.randrange(self.players)
            self.match = Match(self.rules, first_dealer=first, seed=self._rng.getrandbits(62))
        self.over = False
        self._new_deal()

    def _new_deal(self) -> None:
        if self.match is not None:
            self.start(self.match.new_deal())
        else:
            dealer = self.dealer if self.dealer is not None else self._rng.randrange(self.players)
            self.start(Deal.new(self.rules, dealer=dealer, rng=self._rng))

    def start(self, deal: Deal) -> None:
        """Track ``deal`` (of these rules, not started yet) from now on."""
        rules = self.rules
        self.deal = deal
        self._view[:] = 0.0
        state, at = self._state, self._at
        state[at["phase"]] = 1.0
        state[at["dealer"] + deal.dealer] = 1.0
        self._turn = deal.turn
        if self._turn is not None:
            state[at["turn"] + self._turn] = 1.0
        for seat in range(self.players):
            self._put_cards("hand", seat, deal.hand_mask(seat))
            if self._unit["dealt_hand"]:
                self._put_cards("dealt_hand", seat, deal.hand_mask(seat))
        if deal.retourne is not None and self._unit["retourne"]:
            state[at["retourne"] + deal.retourne] = 1.0
        if self.match is not None:
            for side, score in self.match.scores.items():
                state[at["match_scores"] + self.rules.sides.index(side)] = score / SCORE_SCALE
            state[at["held"]] = self.match.held / SCORE_SCALE
        self._passes = 0
        self._trick = []
        self._tricks = 0
        self._won = [0] * self.layout.sides
        self._points = [0] * self.layout.sides
        self._shown = not rules.announcements
        self._mask = None
        self._legal = {}

    def copy(self) -> Table:
        """An independent copy of a single deal's table (the deal replayed by the rules core)."""
        if self.match is not None:
            raise AtoutError("only a table of one deal can be copied")
        twin = Table(self.rules, episode=self.episode, reward=self.reward, dealer=self.dealer)
        twin.deal = self.deal.copy()
        twin._view[:] = self._view
        twin._turn, twin.over, twin._passes, twin._tricks = self._turn, self.over, self._passes, self._tricks
        twin._trick, twin._won, twin._points = list(self._trick), list(self._won), list(self._points)
        twin._shown, twin._mask, twin._legal = self._shown, None, {}
        return twin

    # ------------------------------------------------------------------ queries
    @property
    def turn(self) -> int | None:
        """The seat to act, None once the episode is over."""
        return None if self.over else self._turn

    def observe(self, seat: int) -> FloatArray:
        """``seat``'s observation array (a new array)."""
        return self._view[self.layout.gather[seat]]

    def legal_mask(self) -> MaskArray:
        """1 for each legal action of the seat to act (int8, read-only; all 0 once the episode is over)."""
        if self._mask is None:
            if self.over:
                self._mask, self._legal = self._no_mask, {}
                return self._no_mask
            legal = self.deal.legal_actions()
            known = self._masks.get(tuple(map(id, legal)))
            if known is None:
                known = self._mask_of(legal)
            self._mask, self._legal = known
        return self._mask

    def _mask_of(self, legal: list[Action]) -> tuple[MaskArray, dict[int, Action]]:
        """The mask of a list of legal actions and the action of each index; kept in a cache when
        every action is one of the rules core's shared objects (which the action space keeps alive)."""
        by_id = self.space.by_id
        indices = [by_id.get(id(a), -1) for a in legal]
        shared = -1 not in indices
        if not shared:
            first = legal[0]
            best = first.announcements if type(first) is Declare else ()
            indices = [self.space.index(a, best) for a in legal]
        mask = np.zeros(self.space.size, np.int8)
        mask[indices] = 1
        mask.flags.writeable = False
        known = (mask, dict(zip(indices, legal, strict=True)))
        if shared:
            if len(self._masks) > _MASK_CACHE:
                self._masks.clear()
            self._masks[tuple(map(id, legal))] = known
        return known

    def action_of(self, index: int) -> Action:
        """The legal action an index stands for now; raises :class:`AtoutError` if it is not legal."""
        self.legal_mask()
        action = self._legal.get(int(index))
        if action is None:
            if self.over:
                raise AtoutError("the episode is over: reset the environment")
            name = self.space.label(int(index)) if 0 <= index < self.space.size else "out of range"
            raise AtoutError(f"action {index} ({name}) is not legal now")
        return action

    # ------------------------------------------------------------------ actions
    def step(self, index: int) -> dict[int, float]:
        """Apply the action of this index for the seat to act; return the rewards it gave, by seat."""
        action = self._legal.get(index) if self._mask is not None else None
        return self.apply(action if action is not None else self.action_of(index))

    def apply(self, action: Action) -> dict[int, float]:
        """Apply a legal action for the seat to act (checked by the rules core)."""
        if self.over:
            raise AtoutError("the episode is over: reset the environment")
        deal = self.deal
        seat = self._turn
        assert seat is not None
        auction = deal.phase is Phase.AUCTION
        deal.apply(action)
        self._mask = None
        if auction:
            self._track_call(seat, action)
        elif type(action) is Play:
            self._track_card(seat, action)
        else:
            assert isinstance(action, Declare)
            self._track_declaration(seat, action)
        state = self._state
        turn = deal.turn
        if turn != seat:
            state[self._turn_at + seat] = 0.0
            if turn is not None:
                state[self._turn_at + turn] = 1.0
            self._turn = turn
        if turn is None:
            return self._end_of_deal()
        return {}

    # ------------------------------------------------------------------ tracking
    def _put_cards(self, name: str, block: int, mask: int, base: int = 0, value: float = 1.0) -> None:
        start = self._at[name] + block * self._unit[name] + base
        state = self._state
        while mask:
            low = mask & -mask
            state[start + low.bit_length() - 1] = value
            mask ^= low

    def _track_call(self, seat: int, action: Action) -> None:
        at, state = self._at, self._state
        if isinstance(action, Bid):
            state[at["bids"] + seat * self._unit["bids"] + self.layout.bid_index[action]] = 1.0
        elif isinstance(action, Coinche):
            state[at["coinche"] + seat] = 1.0
        elif isinstance(action, Surcoinche):
            state[at["surcoinche"] + seat] = 1.0
        elif isinstance(action, Take):
            state[at["take"] + 4 * seat + action.suit] = 1.0
        elif self._unit["take_passes"]:
            state[at["take_passes"] + 2 * seat + self._passes // self.players] = 1.0
            self._passes += 1
        if self.deal.phase is Phase.PLAY:
            self._start_play()

    def _start_play(self) -> None:
        deal, rules, at, state = self.deal, self.rules, self._at, self._state
        contract = deal.contract
        assert contract is not None
        state[at["phase"]] = 0.0
        state[at["phase"] + 1] = 1.0
        state[at["contract_strain"] + contract.strain] = 1.0
        state[at["contract_level"] + contract.level] = 1.0
        state[at["contract_capot"]] = float(contract.capot)
        state[at["contract_value"]] = contract.value / rules.highest_bid
        state[at["taker"] + contract.taker] = 1.0
        state[at["leader"] + (deal.dealer + 1) % self.players] = 1.0
        unit = 32 + ANNOUNCEMENT_UNIT
        for seat in range(self.players):
            hand = deal.hand_mask(seat)
            if rules.auction == "retourne":
                self._put_cards("hand", seat, hand)  # the taking completed the hands
            if rules.announcements:
                best = best_announcements(hand, contract.strain, rules.announcement_values, rules.announcement_tiebreak)
                start = at["to_declare"] + seat * self._unit["to_declare"]
                for i, a in enumerate(best):
                    self._put_cards("to_declare", seat, a.cards, i * unit)
                    entries = announcement_entries(a, a.points(contract.strain, rules.announcement_values))
                    for j, value in enumerate(entries):
                        state[start + i * unit + 32 + j] = value
        if self.players == 2:
            bergere = deal.observation(deal.dealer).bergere
            if bergere is not None:
                state[at["bergere"] + bergere] = 1.0

    def _track_declaration(self, seat: int, action: Declare) -> None:
        at, state, rules = self._at, self._state, self.rules
        start = at["to_declare"] + seat * self._unit["to_declare"]
        self._view[start : start + self._unit["to_declare"]] = 0.0
        strain = self.deal.contract.strain if self.deal.contract else 0
        start = at["declared"] + seat * self._unit["declared"]
        for i, a in enumerate(action.announcements):
            state[start + i * ANNOUNCEMENT_UNIT + _KIND[a.kind]] = 1.0
            points = a.points(strain, rules.announcement_values)
            state[start + (i + 1) * ANNOUNCEMENT_UNIT - 1] = points / ANNOUNCEMENT_SCALE

    def _track_card(self, seat: int, action: Play) -> None:
        state = self._state
        played, trick_of_card, hand, belote, voids, in_trick = self._card_at
        card = int(action.card)
        state[played + 32 * seat + card] = 1.0
        state[trick_of_card + card] = (self._tricks + 1) / self.rules.hand_size
        state[hand + 32 * seat + card] = 0.0
        if action.belote:
            state[belote + 8 * seat + 2 * (card >> 3) + (card & 7) - 5] = 1.0
        trick = self._trick
        if trick and card >> 3 != trick[0][1] >> 3:
            state[voids + 4 * seat + (trick[0][1] >> 3)] = 1.0
        trick.append((seat, card))
        if len(trick) < self.players:
            state[in_trick + 32 * seat + card] = 1.0
        else:
            self._end_of_trick()
        if not self._shown and self._tricks:
            resolution = self.deal.resolution
            if resolution is not None:
                self._shown = True
                for who, shown in resolution.shown.items():
                    for a in shown:
                        self._put_cards("shown", who, a.cards)
                if resolution.winner is not None:
                    state[self._at["announcement_winner"] + self.rules.sides.index(resolution.winner)] = 1.0

    def _end_of_trick(self) -> None:
        at, state, rules = self._at, self._state, self.rules
        done = self.deal.tricks[-1]
        for who, card in self._trick[:-1]:
            state[at["trick"] + 32 * who + card] = 0.0
        self._trick = []
        self._tricks += 1
        side = self._side[done.winner]
        self._won[side] += 1
        self._points[side] += done.points + (10 if self._tricks == rules.hand_size else 0)
        state[at["tricks_won"] + side] = self._won[side] / rules.hand_size
        state[at["card_points"] + side] = self._points[side] / CARD_POINTS_SCALE
        state[at["leader"] + done.leader] = 0.0
        if self._tricks < rules.hand_size:
            state[at["leader"] + done.winner] = 1.0

    def _end_of_deal(self) -> dict[int, float]:
        """Score the deal, give the rewards, and deal the next one in a match."""
        deal, at, state, rules = self.deal, self._at, self._state, self.rules
        result = deal.result
        assert result is not None
        state[at["phase"]] = state[at["phase"] + 1] = 0.0
        state[at["phase"] + 2] = 1.0
        sides = rules.sides
        marks = {s: 0 for s in sides}
        if not result.passed_out:
            marks = result.marks
            for side, value in marks.items():
                state[at["deal_marks"] + sides.index(side)] = value / SCORE_SCALE
        if self.match is None:
            self.over = True
            return seat_rewards(self.rules, marks)
        before = self.match.scores
        self.match.record(deal)
        after = self.match.scores
        gained = {s: after[s] - before[s] for s in sides}
        if self.match.finished:
            self.over = True
            if self.reward == "win":
                winner = self.match.winner
                share = -1.0 / (len(sides) - 1)
                return {seat: 1.0 if rules.side_of(seat) == winner else share for seat in range(self.players)}
        rewards = seat_rewards(self.rules, gained) if self.reward == "marks" else {}
        if not self.over:
            self._new_deal()
        return rewards


__all__ = ["EPISODES", "REWARDS", "Table", "check_options", "deal_bound", "seat_rewards"]
