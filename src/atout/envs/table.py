"""A deal or a match driven by integer actions, with every seat's observation kept up to date.

The environments share this driver. It applies actions to a :class:`~atout.deal.Deal`
through its public API and keeps every seat's observation array up to date (see
:class:`~atout.envs.encoding.Layout`), writing each fact in each array that shows it, so
that observing is a copy; the turn and the trick in progress, which move at every step,
are written in the copy only. The updates read only the action taken, as the other seats
perceive it, and the public outcome of the deal (the contract, who won a trick, the
announcements shown, the score); the tests check them against
:func:`~atout.envs.encoding.encode`, built from ``deal.observation(seat)``, at every step
of many random deals.

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
from typing import Any, TypeVar

import numpy as np

from atout.actions import PLAYS, PLAYS_BELOTE, Action, Declare, Play
from atout.deal import Deal, Phase
from atout.envs.actions import (
    BELOTE,
    BIDS,
    COINCHE_INDEX,
    DECLARE,
    SURCOINCHE_INDEX,
    TAKE,
    action_space_of,
    belote_card,
)
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
from atout.events import Resolved, TrickWon
from atout.match import Match
from atout.rules import Ruleset, per_ruleset
from atout.tables import DIX_DE_DER

_T = TypeVar("_T")
EPISODES = ("deal", "match")
REWARDS = ("marks", "win")
#: Play masks kept per ruleset before that cache starts afresh.
_PLAY_MASK_LIMIT = 16_384
#: The mask entries of a suit's eight cards, by the suit's byte of a card mask; of its queen and
#: king played with belote, by the two bits (queen, king) of its byte.
_SUIT_BYTES = tuple(bytes(byte >> rank & 1 for rank in range(8)) for byte in range(256))
_PAIR_BYTES = tuple(bytes((pair & 1, pair >> 1)) for pair in range(4))
#: The ranks of a suit's byte of a card mask.
_RANKS = tuple(tuple(rank for rank in range(8) if byte >> rank & 1) for byte in range(256))
_KIND = {"tierce": 0, "cinquante": 1, "cent": 2, "carre": 3}
_BLANK_DEALS: dict[str, Deal] = {}


def _blank_deal(rules: Ruleset) -> Deal:
    """A deal of these rules that has not started (a table's deal before its first reset)."""
    first = _BLANK_DEALS.get(rules.fingerprint)
    if first is None:
        first = _BLANK_DEALS[rules.fingerprint] = Deal.new(rules, seed=0)
    return Deal(rules, first.dealt, first.dealer, first.pattern)


def _cards(mask: int) -> list[int]:
    """The cards of a mask, in order."""
    return [8 * suit + rank for suit in range(4) for rank in _RANKS[mask >> 8 * suit & 255]]


class _Plan:
    """Where a ruleset's tables write, their seats' arrays laid end to end, and their mask caches."""

    def __init__(self, rules: Ruleset) -> None:
        self.layout = layout = layout_of(rules)
        self.space = space = action_space_of(rules)
        n, positions, sections = rules.players, layout.block_positions, layout.sections
        #: By section every seat sees, block and entry: the entry's position in each seat's array.
        self.cells = {
            name: [[tuple(at + i for at in block) for i in range(s.unit)] for block in positions[name]]
            for name, s in sections.items()
            if s.scope != "own"
        }
        #: The positions of the one-entry blocks the end of a trick writes, by side or seat.
        self.tricks_won = [cells for (cells,) in self.cells["tricks_won"]]
        self.card_points = [cells for (cells,) in self.cells["card_points"]]
        self.leader = [cells for (cells,) in self.cells["leader"]]
        #: By section only its seat sees (``own``), where each seat's block starts.
        self.own = {name: [at for (at,) in positions[name]] for name, s in sections.items() if s.scope == "own"}
        #: By own section of cards, the entries of every seat's 32 cards.
        self.hand_entries = {
            name: np.add.outer(self.own[name], np.arange(32)).ravel()
            for name in ("hand", "dealt_hand")
            if sections[name].unit
        }
        turn, trick = sections["turn"].offset, sections["trick"].offset
        #: By observer, where each seat's turn entry and trick block are in its observation.
        self.turn_entry = [[turn + (seat - viewer) % n for seat in range(n)] for viewer in range(n)]
        self.trick_at = [[trick + (seat - viewer) % n * 32 for seat in range(n)] for viewer in range(n)]
        #: The masks and legal indices of the auction's lists of legal calls, with the call of each
        #: index (see Table._list_entry); the masks, and the legal indices, of the plays, by their
        #: legal cards and belote cards (``cards | belote << 32``).
        self.call_masks: dict[tuple[int, ...], tuple[MaskArray, tuple[int, ...], dict[int, Action]]] = {}
        self.play_masks: dict[int, MaskArray] = {}
        self.play_indices: dict[int, tuple[int, ...]] = {}
        self.no_mask = np.zeros(space.size, np.int8)
        self.no_mask.flags.writeable = False
        self.mask_tail = bytes(space.size - DECLARE)


_plan_of = per_ruleset(_Plan)


def _remember(cache: dict[int, _T], key: int, value: _T) -> _T:
    """Put ``value`` in one of the play caches (emptied when full), and return it."""
    if len(cache) >= _PLAY_MASK_LIMIT:
        cache.clear()
    cache[key] = value
    return value


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
    return (contract + rules.capot_points + announcements + belotes + DIX_DE_DER) * multiplier + rules.capot_prime


def seat_rewards(rules: Ruleset, marks: dict[int, int]) -> dict[int, float]:
    """Each seat's reward: its side's marks minus the other sides' average (the rewards sum to 0)."""
    total = sum(marks.values())
    others = len(marks) - 1
    by_side = {side: float(own - (total - own) / others) for side, own in marks.items()}
    return {seat: by_side[rules.side_of(seat)] for seat in range(rules.players)}


class Table:
    """One deal (``episode="deal"``) or one match (``"match"``) of a ruleset."""

    def __init__(self, rules: Ruleset, *, episode: str = "deal", reward: str = "marks", dealer: int | None = None):
        check_options(rules, episode, reward, dealer)
        self.rules = rules
        self.episode = episode
        self.reward = reward
        self.dealer = dealer
        self._plan = plan = _plan_of(rules)
        self.layout = layout = plan.layout
        self.space = plan.space
        self.players = n = rules.players
        #: The seats' arrays end to end (but for the turn and the trick, see observe), and each seat's.
        buffer = bytearray(4 * n * layout.size)
        self._state = memoryview(buffer).cast("f")
        self._flat = np.frombuffer(buffer, np.float32)
        self._views = [self._flat[seat * layout.size : (seat + 1) * layout.size] for seat in range(n)]
        self._cells = plan.cells
        self._played = plan.cells["played"]
        (self._trick_of_card,) = plan.cells["trick_of_card"]
        self._hand_at = plan.own["hand"]
        self._turn_entry, self._trick_at = plan.turn_entry, plan.trick_at
        self._rng: random.Random | None = None
        self.match: Match | None = None
        self.deal = _blank_deal(rules)
        self._turn: int | None = None
        self._passes = self._tricks = 0
        #: The value of trick_of_card for the cards of the trick in progress.
        self._trick_value = 0.0
        self._trick: list[tuple[int, int]] = []
        self._won = self._points = [0] * layout.sides
        #: Someone may say belote in this deal's play.
        self._belote = False
        self._mask: MaskArray | None = None
        #: The legal indices outside the play's cards (those follow from the cards, see legal_actions).
        self._indices: tuple[int, ...] = ()
        #: In the play, the legal cards and those of them that may be played saying belote (their
        #: actions follow from the index); otherwise 0, and the action of each legal index.
        self._cards = self._belote_cards = 0
        self._legal: dict[int, Action] = {}
        #: The episode is over: the deal (or the match) has ended (or none has started: call reset).
        self.over = True

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None) -> None:
        """Start a new episode; ``seed`` makes it (and the following ones) reproducible."""
        if seed is not None or self._rng is None:
            self._rng = rng = random.Random(seed)
        else:
            rng = self._rng
        self.match = None
        if self.episode == "match":
            first = self.dealer if self.dealer is not None else rng.randrange(self.players)
            self.match = Match(self.rules, first_dealer=first, seed=rng.getrandbits(62))
            self.start(self.match.new_deal())
        else:
            dealer = self.dealer if self.dealer is not None else rng.randrange(self.players)
            self.start(Deal.new(self.rules, dealer=dealer, rng=rng))

    def start(self, deal: Deal) -> None:
        """Track ``deal`` (of these rules, not started yet) from now on."""
        self.deal = deal
        self._turn = deal.turn
        self.over = self._turn is None
        self._flat.fill(0.0)
        self._set("phase", 0, 0)
        self._set("dealer", deal.dealer, 0)
        retourne = self.rules.auction == "retourne"
        self._put_hands("hand")
        if retourne:
            self._put_hands("dealt_hand")
        if deal.retourne is not None and retourne:
            self._set("retourne", 0, deal.retourne)
        if self.match is not None:
            for side, score in self.match.scores.items():
                self._set("match_scores", self.rules.sides.index(side), 0, score / SCORE_SCALE)
            self._set("held", 0, 0, self.match.held / SCORE_SCALE)
        self._passes = 0
        self._trick = []
        self._tricks = 0
        self._trick_value = 1 / self.rules.hand_size
        self._won = [0] * self.layout.sides
        self._points = [0] * self.layout.sides
        self._belote = False
        self._mask = None
        self._cards = self._belote_cards = 0

    def copy(self) -> Table:
        """An independent copy of a single deal's table (the deal replayed by the rules core)."""
        if self.match is not None:
            raise AtoutError("only a table of one deal can be copied")
        twin = Table(self.rules, episode=self.episode, reward=self.reward, dealer=self.dealer)
        twin.deal = self.deal.copy()
        twin._flat[:] = self._flat
        twin._turn, twin.over, twin._passes, twin._tricks = self._turn, self.over, self._passes, self._tricks
        twin._trick, twin._won, twin._points = list(self._trick), list(self._won), list(self._points)
        twin._trick_value, twin._belote = self._trick_value, self._belote
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.copy()

    # ------------------------------------------------------------------ queries
    @property
    def turn(self) -> int | None:
        """The seat to act, None once the episode is over."""
        return None if self.over else self._turn

    def observe(self, seat: int) -> FloatArray:
        """``seat``'s observation array (a new array)."""
        observation = self._views[seat].copy()
        turn = self._turn
        if turn is not None:  # the turn and the trick move at every step: written here only
            observation[self._turn_entry[seat][turn]] = 1.0
            if self._trick:
                trick_at = self._trick_at[seat]
                for who, card in self._trick:
                    observation[trick_at[who] + card] = 1.0
        return observation

    def legal_mask(self) -> MaskArray:
        """1 for each legal action of the seat to act (int8, read-only; all 0 once the episode is over)."""
        mask = self._mask
        if mask is None:
            mask = self._find_mask()
        return mask

    def legal_actions(self) -> list[int]:
        """The indices of the legal actions of the seat to act, in order (a new list; empty once over)."""
        if self.over:
            return []
        if self._mask is None:
            self._find_mask()
        if not self._cards:
            return list(self._indices)
        key = self._cards | self._belote_cards << 32
        indices = self._plan.play_indices.get(key)
        if indices is None:
            indices = _remember(self._plan.play_indices, key, tuple(self.legal_mask().nonzero()[0].tolist()))
        return list(indices)

    def _find_mask(self) -> MaskArray:
        if self.over:
            self._legal, self._indices = {}, ()
            self._mask = none = self._plan.no_mask
            return none
        deal = self.deal
        cards = key = self._cards = deal.legal_cards()
        if cards:
            if self._belote:
                seat = self._turn
                assert seat is not None
                belote = self._belote_cards = cards & deal.belote_cards(seat)
                key |= belote << 32
            mask = self._plan.play_masks.get(key)
            if mask is None:
                mask = _remember(self._plan.play_masks, key, self._play_mask(key))
            self._mask = mask
            return mask
        legal = deal.legal_actions()
        if deal.phase is Phase.PLAY:  # announcements to declare
            entry = self._list_entry(legal)
        else:
            # An auction's legal calls are pass, a run of the bid ladder (or of its capot bids)
            # and coinche or surcoinche, or pass and at most three takes: their number, the last
            # and the first four name them. The entry holds those calls, so that their
            # identities stay theirs.
            calls = (len(legal), id(legal[-1]), *map(id, legal[:4]))
            found = self._plan.call_masks.get(calls)
            if found is None:
                found = self._plan.call_masks[calls] = self._list_entry(legal)
            entry = found
        self._mask, self._indices, self._legal = entry
        return entry[0]

    def _play_mask(self, key: int) -> MaskArray:
        """The mask of legal cards and those of them playable saying belote (``cards | belote << 32``)."""
        cards, belote = key & 0xFFFFFFFF, key >> 32
        suit, pair = _SUIT_BYTES, _PAIR_BYTES
        head = (
            suit[cards & 255],
            suit[cards >> 8 & 255],
            suit[cards >> 16 & 255],
            suit[cards >> 24],
            pair[belote >> 5 & 3],
            pair[belote >> 13 & 3],
            pair[belote >> 21 & 3],
            pair[belote >> 29 & 3],
            self._plan.mask_tail,
        )
        return np.frombuffer(b"".join(head), np.int8)

    def _list_entry(self, legal: list[Action]) -> tuple[MaskArray, tuple[int, ...], dict[int, Action]]:
        """The mask of a list of legal actions, their indices in order, and the action of each index."""
        first = legal[0]
        best = first.announcements if type(first) is Declare else ()
        indices = [self.space.index(a, best) for a in legal]
        raw = bytearray(self.space.size)
        for i in indices:
            raw[i] = 1
        return np.frombuffer(bytes(raw), np.int8), tuple(sorted(indices)), dict(zip(indices, legal, strict=True))

    def action_of(self, index: int) -> Action:
        """The legal action an index stands for now; raises :class:`AtoutError` if it is not legal."""
        if self._mask is None:
            self._find_mask()
        index = int(index)
        cards = self._cards
        if cards:
            if 0 <= index < BELOTE:
                if cards >> index & 1:
                    return PLAYS[index]
            elif BELOTE <= index < DECLARE:
                card = belote_card(index)
                if self._belote_cards >> card & 1:
                    return PLAYS_BELOTE[card]
        else:
            action = self._legal.get(index)
            if action is not None:
                return action
        if self.over:
            raise AtoutError("the episode is over: reset the environment")
        name = self.space.label(index) if 0 <= index < self.space.size else "out of range"
        raise AtoutError(f"action {index} ({name}) is not legal now")

    # ------------------------------------------------------------------ actions
    def step(self, index: int) -> dict[int, float]:
        """Apply the action of this index for the seat to act; return the rewards it gave, by seat."""
        if self._mask is None:
            self._find_mask()
        index = int(index)
        cards = self._cards
        if cards:
            if 0 <= index < BELOTE and cards >> index & 1:
                return self._play(index, PLAYS[index])
            return self.apply(self.action_of(index))
        action = self._legal.get(index)
        return self.apply(action if action is not None else self.action_of(index))

    def apply(self, action: Action) -> dict[int, float]:
        """Apply a legal action for the seat to act (checked by the rules core)."""
        if self.over:
            raise AtoutError("the episode is over: reset the environment")
        deal = self.deal
        if type(action) is Play and deal.phase is Phase.PLAY:
            return self._play(int(action.card), action)
        seat = self._turn
        assert seat is not None
        auction = deal.phase is Phase.AUCTION
        deal.apply(action)
        self._mask = None
        if auction:
            self._track_call(seat, action)
        else:
            assert isinstance(action, Declare)
            self._track_declaration(seat, action)
        self._turn = deal.turn
        if self._turn is None:
            return self._end_of_deal()
        return {}

    # ------------------------------------------------------------------ tracking
    def _set(self, name: str, block: int, index: int, value: float = 1.0) -> None:
        """Write an entry of a section's block that every seat sees, in every seat's array."""
        state = self._state
        for at in self._cells[name][block][index]:
            state[at] = value

    def _write(self, cells: tuple[int, ...], value: float) -> None:
        """Write an entry at its positions in the seats' arrays."""
        state = self._state
        for at in cells:
            state[at] = value

    def _set_cards(self, name: str, block: int, mask: int) -> None:
        """Write the cards of a mask in a section's block that every seat sees."""
        for card in _cards(mask):
            self._set(name, block, card)

    def _own(self, name: str, seat: int, index: int, value: float = 1.0) -> None:
        """Write an entry of ``seat``'s own block of a section (only its array shows it)."""
        self._state[self._plan.own[name][seat] + index] = value

    def _put_hands(self, name: str) -> None:
        """Write each seat's hand in its block of an ``own`` section of cards."""
        hands = np.array([self.deal.hand_mask(seat) for seat in range(self.players)], "<u4")
        self._flat[self._plan.hand_entries[name]] = np.unpackbits(hands.view(np.uint8), bitorder="little")

    def _track_call(self, seat: int, action: Action) -> None:
        index = self.space.index(action)
        if index >= BIDS:
            self._set("bids", seat, index - BIDS)
        elif index >= TAKE:
            self._set("take", seat, index - TAKE)
        elif index == COINCHE_INDEX:
            self._set("coinche", seat, 0)
        elif index == SURCOINCHE_INDEX:
            self._set("surcoinche", seat, 0)
        elif self.rules.auction == "retourne":
            self._set("take_passes", seat, self._passes // self.players)
            self._passes += 1
        if self.deal.phase is Phase.PLAY:
            self._start_play()

    def _start_play(self) -> None:
        deal, rules = self.deal, self.rules
        contract = deal.contract
        assert contract is not None
        self._set("phase", 0, 0, 0.0)
        self._set("phase", 0, 1)
        self._set("contract_strain", 0, contract.strain)
        self._set("contract_level", 0, contract.level)
        self._set("contract_capot", 0, 0, float(contract.capot))
        self._set("contract_value", 0, 0, contract.value / rules.highest_bid)
        self._set("taker", contract.taker, 0)
        self._set("leader", (deal.dealer + 1) % self.players, 0)
        if rules.auction == "retourne":
            self._put_hands("hand")  # the taking completed the hands
        unit = 32 + ANNOUNCEMENT_UNIT
        for seat in range(self.players):
            for i, a in enumerate(deal.to_declare(seat)):
                for card in _cards(a.cards):
                    self._own("to_declare", seat, i * unit + card)
                entries = announcement_entries(a, a.points(contract.strain, rules.announcement_values))
                for j, value in enumerate(entries):
                    self._own("to_declare", seat, i * unit + 32 + j, value)
        self._belote = any(deal.belote_cards(seat) for seat in range(self.players))
        if deal.bergere is not None:
            self._set("bergere", 0, deal.bergere)

    def _track_declaration(self, seat: int, action: Declare) -> None:
        rules = self.rules
        start = self._plan.own["to_declare"][seat]
        self._flat[start : start + self.layout.sections["to_declare"].unit] = 0.0
        strain = self.deal.contract.strain if self.deal.contract else 0
        for i, a in enumerate(action.announcements):
            self._set("declared", seat, i * ANNOUNCEMENT_UNIT + _KIND[a.kind])
            value = a.points(strain, rules.announcement_values) / ANNOUNCEMENT_SCALE
            cells = self._cells["declared"][seat][(i + 1) * ANNOUNCEMENT_UNIT - 1]
            # The others hear a sequence's points, not a carré's (FFB §8.2); cells are by viewer.
            self._write(cells if a.kind != "carre" else cells[seat : seat + 1], value)

    def _play(self, card: int, action: Play) -> dict[int, float]:
        """Play ``action`` (of ``card``) for the seat in turn, and track it."""
        seat = self._turn
        assert seat is not None
        events = self.deal.apply(action)
        self._mask = None
        self._cards = 0
        state = self._state
        state[self._hand_at[seat] + card] = 0.0
        value = self._trick_value
        for at in self._trick_of_card[card]:
            state[at] = value
        for at in self._played[seat][card]:
            state[at] = 1.0
        if action.belote:
            self._set("belote", seat, 2 * (card >> 3) + (card & 7) - 5)
        trick = self._trick
        if trick and card >> 3 != trick[0][1] >> 3:
            self._set("voids", seat, trick[0][1] >> 3)
        trick.append((seat, card))
        self._turn = seat + 1 if seat + 1 < self.players else 0
        for event in events[1:]:  # what the card did: the announcements shown, the trick won, the deal over
            if type(event) is TrickWon:
                self._end_of_trick(event)
            elif type(event) is Resolved:
                self._show_announcements(event)
        if self._turn is None:
            return self._end_of_deal()
        return {}

    def _show_announcements(self, resolved: Resolved) -> None:
        """At the first card of trick 2, the announcements' cards are shown."""
        for who, shown in resolved.shown.items():
            for a in shown:
                self._set_cards("shown", who, a.cards)
        if resolved.winner is not None:
            self._set("announcement_winner", self.rules.sides.index(resolved.winner), 0)

    def _end_of_trick(self, done: TrickWon) -> None:
        """Track the trick just completed, and its winner's turn (none after the last trick)."""
        hand_size = self.rules.hand_size
        self._trick = []
        self._tricks = tricks = self._tricks + 1
        self._trick_value = (tricks + 1) / hand_size
        side = self.layout.seat_sides[done.winner]
        self._won[side] += 1
        self._points[side] += done.total
        plan = self._plan
        self._write(plan.tricks_won[side], self._won[side] / hand_size)
        self._write(plan.card_points[side], self._points[side] / CARD_POINTS_SCALE)
        self._write(plan.leader[done.leader], 0.0)
        self._turn = done.winner if tricks < hand_size else None
        if self._turn is not None:
            self._write(plan.leader[done.winner], 1.0)

    def _end_of_deal(self) -> dict[int, float]:
        """Score the deal, give the rewards, and deal the next one in a match."""
        deal, rules = self.deal, self.rules
        result = deal.result
        assert result is not None
        self._set("phase", 0, 0, 0.0)
        self._set("phase", 0, 1, 0.0)
        self._set("phase", 0, 2)
        sides = rules.sides
        marks = {s: 0 for s in sides}
        if not result.passed_out:
            marks = result.marks
            for side, value in marks.items():
                self._set("deal_marks", sides.index(side), 0, value / SCORE_SCALE)
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
            self.start(self.match.new_deal())
        return rewards


__all__ = ["EPISODES", "REWARDS", "Table", "check_options", "deal_bound", "seat_rewards"]
