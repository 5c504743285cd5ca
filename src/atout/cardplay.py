"""The card play as a state machine, and its frozen state.

:class:`PlayState` is one moment of the play: what the rules need to go on from it, and exactly
what a position string writes (:mod:`atout.position`). :class:`CardPlay` plays from such a
state: it answers the legal actions of the seat in turn and applies cards and declarations, the
belote and the announcements' resolution included (FFB coinche §5–§9). A :class:`~atout.deal.Deal`
drives one once the auction is over; on its own it is the engine of endings and puzzles.

>>> from atout import Ruleset
>>> from atout.auction import Contract
>>> rules = Ruleset.preset("coinche", announcements=False)
>>> state = PlayState.opening(rules, Contract(80, 1, 0), [0xF, 0xF0, 0xF00, 0xF000], leader=0)
>>> play = CardPlay(rules, state)
>>> play.turn, [a.notation() for a in play.legal_actions()]
(0, ['7S', '8S', '9S', 'TS'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from atout.actions import PLAYS, Action, Declare, Play, plays_of
from atout.announcements import Announcement, Resolution, best_announcements, resolve
from atout.auction import Contract
from atout.cards import ALL_CARDS, Card, Rank
from atout.errors import IllegalAction, NotationError
from atout.events import CardPlayed, Declared, Event, Resolved, TrickWon
from atout.i18n import Message
from atout.play import illegal_card, legal_mask
from atout.rules import Ruleset
from atout.tables import DIX_DE_DER, SANS_ATOUT, TOUT_ATOUT, PlayMode, play_mode

_QUEEN_KING = (1 << Rank.QUEEN) | (1 << Rank.KING)


class Trick(NamedTuple):
    """A completed trick: who led, the cards in play order, who won it and its points."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, index: int, players: int) -> int:
        return (self.leader + index) % players


@dataclass(frozen=True)
class PlayState:
    """One moment of the play, by seat or by scoring side as each field says.

    ``hands`` are the cards still held (the current trick's excluded); ``trick`` the cards of the
    trick in progress from ``leader``; ``points`` and ``won`` the card points and tricks taken so far
    by side; ``belote_ok`` the cards each seat may still say belote or rebelote with, ``belotes``
    the belotes each has completed; ``declared`` trick 1's declarations while they are being made
    (None: not yet declared; the field itself None once trick 1 is over or without announcements),
    ``announcement_points`` what each side scores for them once resolved; ``rest`` the cards dealt
    but out of play (two players' stock).
    """

    contract: Contract
    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    points: tuple[int, ...]
    won: tuple[int, ...]
    belote_ok: tuple[int, ...]
    belotes: tuple[int, ...]
    declared: tuple[tuple[Announcement, ...] | None, ...] | None = None
    announcement_points: Mapping[int, int] | None = None
    rest: tuple[int, ...] = ()

    @classmethod
    def opening(
        cls, rules: Ruleset, contract: Contract, hands: Sequence[int], leader: int, rest: Sequence[int] = ()
    ) -> PlayState:
        """The state before the first card, the hands as given, nothing declared or said (an ending or
        a sampled deal: no announcements, as nobody declared any)."""
        sides, n = len(rules.sides), rules.players
        return cls(contract, tuple(hands), leader, (), (0,) * sides, (0,) * sides, (0,) * n, (0,) * n, rest=tuple(rest))

    @property
    def tricks_done(self) -> int:
        return sum(self.won)


class CardPlay:
    """The play of one deal, from a :class:`PlayState` to its last trick."""

    __slots__ = (
        "_belote_cards",
        "_belote_said",
        "_best",
        "_decl_open",
        "_legal",
        "_over_partner",
        "_published",
        "_side",
        "_under_partner",
        "_undertrump",
        "_win_card",
        "_win_pos",
        "base_tricks",
        "belote_ok",
        "belotes",
        "contract",
        "declared",
        "forgot",
        "hands",
        "initial",
        "leader",
        "mode",
        "players",
        "points",
        "resolution",
        "rest",
        "rules",
        "said",
        "trick",
        "tricks",
        "won",
    )

    def __init__(self, rules: Ruleset, state: PlayState, *, fresh: bool = False) -> None:
        """Play on from ``state``. ``fresh``: the state is the start of a dealt deal's play, whose
        seats find their belote and announcements in their hands (otherwise they are as ``state`` says)."""
        n = rules.players
        self.rules = rules
        self.players = n
        self.contract = state.contract
        strain = state.contract.strain
        self.mode: PlayMode = play_mode(strain, rules.ta_values)
        self._side = [rules.side_of(s) for s in range(n)]
        self._over_partner = rules.overtrump_partner
        self._undertrump = rules.must_undertrump
        self._under_partner = rules.undertrump_partner
        self._legal: tuple[int, str] | None = None
        # The hands as the play started: those of this state with the trick's cards back.
        self.initial = list(state.hands)
        for i, card in enumerate(state.trick):
            self.initial[(state.leader + i) % n] |= 1 << card
        self.hands = list(self.initial)
        self.rest = state.rest
        self.leader = state.leader
        self.trick: list[int] = []
        self._win_card = -1
        self._win_pos = 0
        self.tricks: list[Trick] = []
        self.base_tricks = state.tricks_done
        self.points = [0] * n
        self.won = [0] * n
        for side, (value, count) in enumerate(zip(state.points, state.won, strict=True)):
            self.points[side], self.won[side] = value, count
        self.belotes = list(state.belotes)
        self.forgot = [0] * n
        self.declared: list[tuple[Announcement, ...] | None] = [None] * n
        self.resolution: Resolution | None = None
        self._published = False
        self._belote_cards = [self._belote_pair(h) for h in self.hands] if fresh else [0] * n
        self.belote_ok = list(self._belote_cards)
        self._belote_said = [0] * n
        #: The cards played saying belote or rebelote since this state, by seat, with the word said.
        self.said: list[tuple[int, Card, str]] = []
        # Announcements are declared during trick 1 only: from a later state there are none to make.
        self._best: list[tuple[Announcement, ...]] = []
        if rules.announcements:
            if fresh or state.declared is not None:
                values, tiebreak = rules.announcement_values, rules.announcement_tiebreak
                self._best = [best_announcements(h, strain, values, tiebreak) for h in self.initial]
            else:
                self._best = [()] * n
        self._decl_open = bool(self._best) and (fresh or state.declared is not None)
        if state.declared is not None and rules.announcements:
            self._load_declarations(state)
        for card in state.trick:
            self.play((self.leader + len(self.trick)) % n, PLAYS[card])
        if not fresh:
            self._load_belote(state.belote_ok)
        if state.announcement_points is not None:
            resolved = state.announcement_points
            winner = max(resolved, key=lambda s: resolved[s]) if any(resolved.values()) else None
            self.resolution = Resolution(winner, dict(resolved), {}, {})
            self._published = self.base_tricks > 1 or bool(state.trick)
        self._legal = None

    def _belote_pair(self, hand: int) -> int:
        """The king and queen of trump ``hand`` holds together (every suit's at tout atout)."""
        strain = self.contract.strain
        if not self.rules.belote or strain == SANS_ATOUT:
            return 0
        held = 0
        for suit in range(4) if strain == TOUT_ATOUT else (strain,):
            pair = _QUEEN_KING << (8 * suit)
            if hand & pair == pair:
                held |= pair
        return held

    def _load_belote(self, belote_ok: Sequence[int]) -> None:
        for seat, mask in enumerate(belote_ok):
            if mask & ~self.hands[seat]:
                raise NotationError(Message("notation.belote_held"))
        self._belote_cards = list(belote_ok)
        self.belote_ok = list(belote_ok)
        # A lone king or queen left: its partner card was played with « belote ».
        self._belote_said = [0] * self.players
        for seat, mask in enumerate(belote_ok):
            for suit in range(4):
                pair = _QUEEN_KING << (8 * suit)
                if (mask & pair).bit_count() == 1:
                    self._belote_said[seat] |= pair & ~mask

    def _load_declarations(self, state: PlayState) -> None:
        n = self.players
        declared = state.declared
        assert declared is not None
        if len(declared) != n or state.tricks_done:
            raise NotationError(Message("notation.declared_trick1"))
        played = {(state.leader + i) % n for i in range(len(state.trick))}
        if any(declared[s] is None for s in played):
            raise NotationError(Message("notation.declared_before_play"))
        self.declared = list(declared)

    # ------------------------------------------------------------------ queries
    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    @property
    def finished(self) -> bool:
        return self.base_tricks + len(self.tricks) == self.rules.hand_size

    @property
    def must_declare(self) -> bool:
        """The seat in turn holds announcements and must first declare them (or none)."""
        seat = self.turn
        return self._decl_open and self.declared[seat] is None and bool(self._best[seat])

    def to_declare(self, seat: int) -> tuple[Announcement, ...]:
        """The announcements ``seat`` still has to declare (or not) with its first card."""
        if self._decl_open and self.declared[seat] is None:
            return self._best[seat]
        return ()

    @property
    def published_resolution(self) -> Resolution | None:
        """The announcements' resolution, public from the first card of trick 2 (FFB §8.3)."""
        return self.resolution if self._published else None

    def state(self) -> PlayState:
        """This moment of the play, frozen."""
        rules = self.rules
        sides = rules.sides
        declared = tuple(self.declared) if self._decl_open else None
        points: Mapping[int, int] | None = None
        if self._best and not self._decl_open:
            points = {s: (self.resolution.points.get(s, 0) if self.resolution else 0) for s in sides}
        return PlayState(
            self.contract,
            tuple(self.hands),
            self.leader,
            tuple(self.trick),
            tuple(self.points[s] for s in sides),
            tuple(self.won[s] for s in sides),
            tuple(self.belote_ok),
            tuple(self.belotes),
            declared,
            points,
            self.rest,
        )

    def legal_actions(self) -> list[Action]:
        """Every action the seat in turn may take now."""
        seat = (self.leader + len(self.trick)) % self.players
        if self._decl_open and self.declared[seat] is None and self._best[seat]:
            return declare_options(self._best[seat])
        mask = (self._legal or self._compute_legal())[0]
        out: list[Action] = plays_of(mask)
        belote = mask & self.belote_ok[seat]
        if belote:
            out.extend(plays_of(belote, True))
        return out

    def legal_cards(self) -> int:
        """Mask of the cards the seat in turn may play now (0 while it must first declare)."""
        seat = (self.leader + len(self.trick)) % self.players
        if self._decl_open and self.declared[seat] is None and self._best[seat]:
            return 0
        return (self._legal or self._compute_legal())[0]

    def _compute_legal(self) -> tuple[int, str]:
        trick = self.trick
        seat = (self.leader + len(trick)) % self.players
        if trick:
            partner = self.players == 4 and len(trick) >= 2 and self._win_pos == len(trick) - 2
            legal = legal_mask(
                self.hands[seat],
                trick[0],
                self._win_card,
                partner,
                self.mode,
                self._over_partner,
                self._undertrump,
                self._under_partner,
            )
        else:
            legal = (self.hands[seat], "any")
        self._legal = legal
        return legal

    # ------------------------------------------------------------------ actions
    def declare(self, seat: int, action: Declare) -> Declared:
        """Declare announcements with one's first card (checked; changes nothing if refused)."""
        if not self.rules.announcements:
            raise IllegalAction(Message("illegal.no_announcements"), code="no_announcements")
        if not self._decl_open or self.declared[seat] is not None:
            raise IllegalAction(Message("illegal.late_announcement"), code="late_announcement")
        used = 0
        for a in action.announcements:
            if used & a.cards:
                raise IllegalAction(Message("illegal.overlap"), code="overlap")
            used |= a.cards
        self.declared[seat] = action.announcements
        return Declared(seat, action.announcements)

    def play(self, seat: int, action: Play) -> tuple[Event, ...]:
        """Play a card for ``seat``, the seat in turn (checked; changes nothing if refused). Returns what it
        did: the card played (with the word said), then the announcements resolved at the first card of
        trick 2, or the trick won."""
        card = action.card
        if self._decl_open and self.declared[seat] is None and self._best[seat]:
            raise IllegalAction(Message("illegal.declare_first"), code="declare_first")
        mask, rule = self._legal or self._compute_legal()
        trick = self.trick
        if not mask >> card & 1:
            raise illegal_card(card, self.hands[seat], rule, trick[0] if trick else -1)
        bit = 1 << card
        word = None
        if self._belote_cards[seat] & bit:
            word = self._say_belote(seat, card, action.belote)
        elif action.belote:
            raise IllegalAction(Message("illegal.belote_card", card=card), code="belote")
        self.hands[seat] ^= bit
        self._legal = None
        if self._decl_open and self.declared[seat] is None:
            self.declared[seat] = ()
        played = CardPlayed(seat, ALL_CARDS[card], word)
        if word is not None:
            self.said.append((seat, played.card, word))
        trick.append(card)
        if len(trick) == 1:
            self._win_card = card
            self._win_pos = 0
            if self.resolution is not None and not self._published:
                self._published = True
                return played, self._resolved()
        else:
            win = self._win_card
            mode = self.mode
            if (
                mode.strength[card] > mode.strength[win]
                if card >> 3 == win >> 3
                else mode.trump_mask >> card & 1 and not mode.trump_mask >> win & 1
            ):
                self._win_card = card
                self._win_pos = len(trick) - 1
        if len(trick) == self.players:
            return played, *self._finish_trick()
        return (played,)

    def _say_belote(self, seat: int, card: int, said: bool) -> str | None:
        """Belote on the first of K/Q of trump, rebelote on the second (FFB §7); checked before any change.
        Returns the word said, if any."""
        bit = 1 << card
        other = bit ^ (_QUEEN_KING << (card & ~7))
        word = None
        if said:
            if not self.belote_ok[seat] & bit:
                raise IllegalAction(Message("illegal.rebelote"), code="belote")
            word = "belote"
            if self._belote_said[seat] & other:
                self.belotes[seat] += 1
                word = "rebelote"
            self._belote_said[seat] |= bit
        else:
            if self._belote_said[seat] & other:
                self.forgot[seat] += 1
            self.belote_ok[seat] &= ~other
        self.belote_ok[seat] &= ~bit
        return word

    def _resolved(self) -> Resolved:
        """The announcements' resolution, as it is made public."""
        assert self.resolution is not None
        r = self.resolution
        return Resolved(r.winner, dict(r.points), {s: a for s, a in r.shown.items() if a})

    def _finish_trick(self) -> tuple[Event, ...]:
        trick = self.trick
        winner = (self.leader + self._win_pos) % self.players
        points = self.mode.points
        value = 0
        for c in trick:
            value += points[c]
        side = self._side[winner]
        cards = tuple([ALL_CARDS[c] for c in trick])
        leader = self.leader
        self.tricks.append(Trick(leader, cards, winner, value))
        self.points[side] += value
        self.won[side] += 1
        self.trick = []
        self.leader = winner
        if self._decl_open:
            self._decl_open = False
            self.resolution = resolve(
                [d or () for d in self.declared],
                self.initial,
                self._side,
                # The order of showing: each player shows before his card of trick 2 (Belote bazar).
                [(winner + i) % self.players for i in range(self.players)],
                self.contract.strain,
                self.rules.announcement_values,
                self.rules.announcement_tiebreak,
            )
        number = self.base_tricks + len(self.tricks)
        if not self.finished:
            return (TrickWon(number, leader, cards, winner, value),)
        self.points[side] += DIX_DE_DER
        won = TrickWon(number, leader, cards, winner, value, DIX_DE_DER)
        if self.resolution is not None and not self._published:
            self._published = True
            return won, self._resolved()
        return (won,)

    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards of the trick in progress, with their seats."""
        return [((self.leader + i) % self.players, Card(c)) for i, c in enumerate(self.trick)]


_DECLARE_CACHE: dict[tuple[Announcement, ...], list[Action]] = {}


def declare_options(best: tuple[Announcement, ...]) -> list[Action]:
    """Declare all of one's announcements, any part of them, or none."""
    options = _DECLARE_CACHE.get(best)
    if options is None:
        options = [Declare(tuple(sub)) for size in range(len(best), -1, -1) for sub in combinations(best, size)]
        _DECLARE_CACHE[best] = options
    return list(options)


def check_state(rules: Ruleset, state: PlayState) -> None:
    """Raise :class:`NotationError` unless ``state`` is a moment some deal of ``rules`` can reach."""
    n = rules.players
    done = sum(state.won)
    contract = state.contract
    if not 0 <= done <= rules.hand_size:
        raise NotationError(Message("notation.tricks_won", done=done, tricks=rules.hand_size))
    if not 0 <= contract.taker < n or not 0 <= state.leader < n:
        raise NotationError(Message("notation.seats"))
    if contract.strain not in rules.strains() and not (rules.auction == "retourne" and contract.strain < 4):
        raise NotationError(Message("notation.strain"))
    if len(state.hands) != n:
        raise NotationError(Message("notation.hands", count=n, given=len(state.hands)))
    full = list(state.hands)
    for i, card in enumerate(state.trick):
        full[(state.leader + i) % n] |= 1 << card
    seen = 0
    for mask in full:
        if mask & seen:
            raise NotationError(Message("notation.card_twice_position"))
        seen |= mask
    if len(state.trick) >= n:
        raise NotationError(Message("notation.trick_complete"))
    if done == rules.hand_size and (state.trick or seen):
        raise NotationError(Message("notation.cards_after_end"))
    for seat in range(n):
        if full[seat].bit_count() != rules.hand_size - done:
            held, size = full[seat].bit_count(), rules.hand_size - done
            raise NotationError(Message("notation.held_cards", seat=seat, held=held, done=done, size=size))
    sides = len(rules.sides)
    if len(state.points) != sides or len(state.won) != sides or len(state.belotes) != n or len(state.belote_ok) != n:
        raise NotationError(Message("notation.by_side"))


__all__ = ["CardPlay", "PlayState", "Trick", "check_state", "declare_options"]
