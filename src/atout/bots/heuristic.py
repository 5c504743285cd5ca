"""A good club player written as rules: hand evaluation for bidding, standard card play.

Bidding: a hand is valued in each strain (trump honours and length, side aces and
tens, belote, shortness, its announcements), plus what a partner brings on average;
the player opens or overbids when that value reaches a bid, raises a partner's
opening with support, and coinches an opponents' contract his own trumps and aces make unlikely.
Play: the taking side draws trumps with the master trump, everyone cashes master
cards, a partner holding the trick gets points (« charger ») when it is safe, a
trick is won as cheaply as possible (with the most points when last to play), and a
lost trick gets the cheapest card. Announcements and belote are always declared.
Every decision takes well under a millisecond.
"""

from __future__ import annotations

from atout.actions import PASS, Action, Bid, Coinche, Declare, Play, Surcoinche, Take
from atout.announcements import best_announcements
from atout.cards import SUIT_MASKS
from atout.observation import Observation
from atout.play import trick_winner_index
from atout.tables import SANS_ATOUT, TOUT_ATOUT, PlayMode, play_mode

_J, _9, _A, _10, _K, _Q = 4, 2, 7, 3, 6, 5
#: What a partner brings to a contract on average, in card points.
PARTNER_SHARE = 25


def _has(hand: int, suit: int, rank: int) -> bool:
    return bool(hand >> (8 * suit + rank) & 1)


def _length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()


def strain_value(hand: int, strain: int) -> int:
    """Card points this hand is worth toward a contract in ``strain`` (partner excluded)."""
    value = 0
    if strain < 4:
        t = strain
        trumps = _length(hand, t)
        if trumps == 0:
            return 0
        value += 30 * _has(hand, t, _J) + (20 if _has(hand, t, _J) or trumps >= 3 else 12) * _has(hand, t, _9)
        value += 14 * _has(hand, t, _A) + 10 * _has(hand, t, _10) + 4 * _has(hand, t, _K) + 3 * _has(hand, t, _Q)
        value += 20 * (_has(hand, t, _K) and _has(hand, t, _Q))
        value += 10 * max(0, trumps - 3)
        for s in range(4):
            if s == t:
                continue
            n = _length(hand, s)
            value += 14 * _has(hand, s, _A) + 6 * (_has(hand, s, _10) and (_has(hand, s, _A) or n >= 3))
            if trumps >= 3 and n <= 1:
                value += 8 if n == 0 else 3
        return value
    if strain == SANS_ATOUT:
        for s in range(4):
            n = _length(hand, s)
            value += 28 * _has(hand, s, _A) + 12 * (_has(hand, s, _10) and (_has(hand, s, _A) or n >= 3))
            value += 4 * _has(hand, s, _K) * (n >= 3)
        return value
    for s in range(4):
        n = _length(hand, s)
        value += 24 * _has(hand, s, _J) + (12 if _has(hand, s, _J) else 5) * _has(hand, s, _9)
        value += 3 * _has(hand, s, _A) + 8 * (_has(hand, s, _K) and _has(hand, s, _Q)) + 2 * max(0, n - 3)
    return value


def contract_estimate(hand: int, strain: int) -> int:
    """Card points the side is likely to make in ``strain`` with an average partner."""
    value = strain_value(hand, strain)
    return value + PARTNER_SHARE if value else 0


def _current_bid(obs: Observation) -> tuple[Bid, int] | None:
    current = None
    for seat, call in obs.calls:
        if isinstance(call, Bid):
            current = (call, seat)
    return current


def _opening(obs: Observation, strain: int) -> tuple[Bid, int] | None:
    """The first bid of the seat's side in ``strain``, and the seat that made it."""
    side = obs.rules.side_of(obs.seat)
    return next(
        (
            (call, seat)
            for seat, call in obs.calls
            if isinstance(call, Bid) and call.strain == strain and obs.rules.side_of(seat) == side
        ),
        None,
    )


def bid_ceiling(obs: Observation, strain: int, aggression: int = 0) -> int | None:
    """The highest bid the club player would make in ``strain`` (None: not a strain for him):
    his hand's estimate, or, in a strain his partner opened, that opening plus the support he
    brings to it (only the opening: raising on a raise would count each hand's values again,
    and the bids would climb to the ceiling); plus his announcements, which count toward the
    contract (FFB §4.2)."""
    rules = obs.rules
    shown = 0
    if rules.announcements:
        found = best_announcements(obs.hand, strain, rules.announcement_values, rules.announcement_tiebreak)
        shown = sum(a.points(strain, rules.announcement_values) for a in found)
    opening = _opening(obs, strain)
    if opening is not None and opening[1] != obs.seat:
        return opening[0].value + HeuristicAgent._support(obs.hand, strain) + shown
    if strain < 4 and _length(obs.hand, strain) < 3:
        return None
    return contract_estimate(obs.hand, strain) + aggression + shown


def coinche_sound(hand: int, bid: Bid) -> bool:
    """Would the club player coinche this opponents' bid: 100 or more, and his trumps and aces make
    it unlikely?"""
    if bid.value < 100:
        return False
    if bid.strain < 4:
        t = bid.strain
        stoppers = 2 * _has(hand, t, _J) + _has(hand, t, _9) + (_length(hand, t) >= 3)
        aces = sum(_has(hand, s, _A) for s in range(4) if s != t)
        return stoppers + aces >= 4
    return sum(_has(hand, s, _A) for s in range(4)) >= 3


def surcoinche_sound(hand: int, bid: Bid, aggression: int = 0) -> bool:
    """Would the club player surcoinche his side's coinched bid: his hand alone worth 30 more?"""
    return contract_estimate(hand, bid.strain) + aggression >= bid.value + 30


class HeuristicAgent:
    """Rule-based bidding and card play (a solid club player)."""

    def __init__(self, name: str = "heuristic", aggression: int = 0) -> None:
        self.name = name
        #: Points added to the estimates before bidding (a bolder or more careful bidder).
        self.aggression = aggression

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        first = legal[0]
        if isinstance(first, Declare):
            return legal[0]  # every announcement held
        if isinstance(first, Play):
            return self._play(obs, legal)
        if any(isinstance(a, Take) for a in legal):
            return self._take(obs, legal)
        return self._bid(obs, legal)

    # ---------------------------------------------------------------- auction
    def _bid(self, obs: Observation, legal: list[Action]) -> Action:
        rules = obs.rules
        me = obs.seat
        current = _current_bid(obs)
        best, best_seat = current if current is not None else (None, -1)
        if any(isinstance(a, Surcoinche) for a in legal):
            assert best is not None
            if surcoinche_sound(obs.hand, best, self.aggression):
                return next(a for a in legal if isinstance(a, Surcoinche))
            return PASS
        coinche = next((a for a in legal if isinstance(a, Coinche)), None)
        partner_bid = best_seat == obs.rules.partner_of(me)
        if coinche is not None and best is not None and not partner_bid and coinche_sound(obs.hand, best):
            return coinche
        choice: tuple[int, int] | None = None  # (estimate, strain)
        for strain in rules.strains():
            estimate = bid_ceiling(obs, strain, self.aggression)
            if estimate is not None and (choice is None or estimate > choice[0]):
                choice = (estimate, strain)
        if choice is None:
            return PASS
        estimate, strain = choice
        bids = [a for a in legal if isinstance(a, Bid) and a.strain == strain and not a.capot and a.value <= estimate]
        if not bids:
            return PASS
        return min(bids, key=lambda b: b.value)

    @staticmethod
    def _support(hand: int, strain: int) -> int:
        """What a hand adds to a partner's contract in ``strain``."""
        if strain >= 4:
            return sum(10 * _has(hand, s, _A if strain == SANS_ATOUT else _J) for s in range(4)) - 10
        extra = 20 * _has(hand, strain, _J) + 10 * _has(hand, strain, _9) + 10 * _has(hand, strain, _A)
        extra += sum(10 * _has(hand, s, _A) for s in range(4) if s != strain)
        return extra - 10

    def _take(self, obs: Observation, legal: list[Action]) -> Action:
        takes = [a for a in legal if isinstance(a, Take)]
        retourne = obs.retourne
        best: tuple[int, Action] = (0, PASS)
        for take in takes:
            hand = obs.hand | (1 << retourne if retourne is not None else 0)
            value = strain_value(hand, take.suit) + self.aggression
            needed = 60 if take.suit == (retourne >> 3 if retourne is not None else -1) else 68
            if value >= needed and value > best[0]:
                best = (value, take)
        return best[1]

    # ------------------------------------------------------------------ play
    def _play(self, obs: Observation, legal: list[Action]) -> Action:
        assert obs.contract is not None
        rules = obs.rules
        mode = play_mode(obs.contract.strain, rules.ta_values)
        cards: dict[int, Action] = {a.card: a for a in legal if isinstance(a, Play) and not a.belote}
        for a in legal:
            if isinstance(a, Play) and a.belote:
                cards[a.card] = a  # say belote whenever it may be said
        played = obs.played
        gone = played | obs.hand
        if not obs.trick:
            return cards[self._lead(obs, mode, list(cards), gone)]
        return cards[self._follow(obs, mode, list(cards), gone)]

    @staticmethod
    def _is_master(card: int, mode: PlayMode, gone: int) -> bool:
        """No unseen card of its suit beats it."""
        return mode.above[card] & ~gone == 0

    def _lead(self, obs: Observation, mode: PlayMode, cards: list[int], gone: int) -> int:
        assert obs.contract is not None
        n = obs.rules.players
        takers = obs.rules.side_of(obs.contract.taker) == obs.rules.side_of(obs.seat)
        trump_mask = mode.trump_mask if mode.strain < 4 else 0
        outstanding = trump_mask & ~gone
        trumps = [c for c in cards if trump_mask >> c & 1]
        if takers and trumps and outstanding:
            masters = [c for c in trumps if self._is_master(c, mode, gone)]
            if masters:
                return max(masters, key=lambda c: mode.strength[c])
            if len(trumps) >= 3 or n < 4:
                return min(trumps, key=lambda c: mode.strength[c])
        plain = [c for c in cards if not trump_mask >> c & 1] or cards
        masters = [c for c in plain if self._is_master(c, mode, gone)]
        if masters:
            return max(masters, key=lambda c: (mode.points[c], mode.strength[c]))

        # No sure winner: a low card of the longest plain suit, keeping tens guarded.
        def length(c: int) -> int:
            return (obs.hand & SUIT_MASKS[c >> 3]).bit_count()

        return min(plain, key=lambda c: (mode.points[c], -length(c), mode.strength[c]))

    def _follow(self, obs: Observation, mode: PlayMode, cards: list[int], gone: int) -> int:
        rules = obs.rules
        n = rules.players
        trick = [c for _, c in obs.trick]
        seats = [s for s, _ in obs.trick]
        win = trick_winner_index(trick, mode)
        winner_seat, winning = seats[win], trick[win]
        partner_holds = winner_seat == obs.rules.partner_of(obs.seat)
        last = len(trick) == n - 1
        trump_mask = mode.trump_mask

        def beats(c: int) -> bool:
            return mode.beats(c, winning)

        if partner_holds and (last or self._holds_safely(winning, mode, gone)):
            # « Charger »: give the partner points, but keep trumps and masters.
            spare = [c for c in cards if not trump_mask >> c & 1 and not self._is_master(c, mode, gone)] or cards
            return max(spare, key=lambda c: (mode.points[c], -mode.strength[c]))
        winners = [c for c in cards if beats(c)]
        if winners and not partner_holds:
            if last:
                return max(winners, key=lambda c: (mode.points[c], -mode.strength[c]))
            safe = [c for c in winners if self._is_master(c, mode, gone)]
            if safe:
                return min(safe, key=lambda c: mode.strength[c] + (16 if trump_mask >> c & 1 else 0))
            return min(winners, key=lambda c: (mode.points[c], mode.strength[c]))
        # Losing (or partner holding without certainty): the cheapest card, plain before trump.
        return min(
            cards,
            key=lambda c: (bool(trump_mask >> c & 1) and mode.strain != TOUT_ATOUT, mode.points[c], mode.strength[c]),
        )

    @staticmethod
    def _holds_safely(card: int, mode: PlayMode, gone: int) -> bool:
        """Will the partner's card most likely hold the trick? Master in its suit and, if a plain
        card, trumps are gone or its suit is still held by the players to come."""
        if mode.above[card] & ~gone:
            return False
        if mode.trump_mask >> card & 1 or mode.strain >= 4:
            return True
        return mode.trump_mask & ~gone == 0
