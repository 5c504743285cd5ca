"""What a seat can deduce about the hidden cards, and deals sampled consistently with it.

From an :class:`~atout.observation.Observation` only: the cards it cannot see, how
many each other hand (and, with two players, the undealt stock) holds, the cards
known to be in a hand (shown announcements, the other card of a belote, the
retourne taken), and the cards a hand cannot hold because the rules would have
forbidden a card it played (a void shown by not following suit, a trump ceiling
shown by not overtrumping, no trump at all shown by not trumping). A card is
ruled out for a seat when holding it would have made one of its plays illegal;
legality only gets stricter as a hand grows, so this never rules out a possible card.

>>> from atout import Deal, Ruleset
>>> deal = Deal.new(Ruleset.preset("coinche"), seed=5)
>>> know = Knowledge.of(deal.observation(0))
>>> know.counts, bin(know.unseen).count("1")
({1: 8, 2: 8, 3: 8}, 24)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from atout.announcements import best_announcements
from atout.cards import deck_mask
from atout.observation import Observation
from atout.play import legal_mask, trick_winner_index
from atout.tables import SANS_ATOUT, TOUT_ATOUT, play_mode

#: The pseudo-seat holding the undealt cards (two players' stock).
STOCK = -1
_QUEEN_KING = (1 << 5) | (1 << 6)


@dataclass
class Knowledge:
    """The hidden cards as one seat sees them."""

    seat: int
    #: Cards whose place the seat does not know.
    unseen: int
    #: How many unknown cards each other holder has (``STOCK`` for undealt cards).
    counts: dict[int, int]
    #: Cards known to be in a holder's hand (not counted in ``unseen``).
    known: dict[int, int] = field(default_factory=dict)
    #: Cards a holder cannot have.
    excluded: dict[int, int] = field(default_factory=dict)
    #: Announcement kinds a seat declared: its first hand must contain them.
    declared: dict[int, tuple[str, ...]] = field(default_factory=dict)
    #: Cards each seat has played (to rebuild its first hand).
    played: dict[int, int] = field(default_factory=dict)
    #: Cards a holder is only assumed not to have (a habit of the players, not a rule): given up
    #: when no placement fits them, as when a player did not say a belote he held.
    assumed: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, obs: Observation, *, always_say_belote: bool = False) -> Knowledge:
        """What ``obs`` tells. ``always_say_belote``: the other players say belote whenever they
        may (atout's bots do, and the colver engine announces it itself), so a seat that played the
        king or queen of trump without saying it does not hold the other."""
        rules = obs.rules
        n = rules.players
        played = {s: 0 for s in range(n)}
        for t in obs.tricks:
            for i, c in enumerate(t.cards):
                played[(t.leader + i) % n] |= 1 << c
        for s, c in obs.trick:
            played[s] |= 1 << c
        known = {s: 0 for s in range(n) if s != obs.seat}
        for s, announced in obs.shown.items():
            if s != obs.seat:
                for a in announced:
                    known[s] |= a.cards & ~played[s]
        for s, c, _ in obs.belote_said:
            if s != obs.seat:
                pair = _QUEEN_KING << (c & ~7)
                known[s] |= pair & ~(1 << c) & ~played[s]
        taker = obs.contract.taker if obs.contract is not None else obs.seat
        if (
            obs.retourne is not None
            and taker != obs.seat
            and obs.phase.value != "auction"
            and not played[taker] >> obs.retourne & 1
        ):
            known[taker] |= 1 << obs.retourne
        all_played = 0
        for mask in played.values():
            all_played |= mask
        known_mask = 0
        for mask in known.values():
            known_mask |= mask
        unseen = deck_mask(rules.short_deck) & ~obs.hand & ~all_played & ~known_mask
        if obs.bergere is not None:
            unseen &= ~(1 << obs.bergere)
        if obs.retourne is not None and obs.phase.value == "auction":
            unseen &= ~(1 << obs.retourne)
        counts = {}
        for s in range(n):
            if s != obs.seat:
                counts[s] = _hand_size(obs, played[s]) - known[s].bit_count()
        rest = unseen.bit_count() - sum(counts.values())
        if rest:
            counts[STOCK] = rest
        know = cls(obs.seat, unseen, counts, {s: m for s, m in known.items() if m}, {}, {}, played)
        know.excluded = _exclusions(obs, unseen)
        if always_say_belote:
            know.assumed = _unsaid_belotes(obs, played, unseen)
        know.declared = {s: tuple(d.kind for d in heard) for s, heard in obs.heard.items()}
        return know

    def sample(self, rng: random.Random, tries: int = 100) -> dict[int, int]:
        """One placement of the unseen cards consistent with what is known, by holder.

        Declared announcements are honoured when a placement holding them is found within
        ``tries``; the placement of every card always respects the exclusions (it exists:
        the real deal is one).
        """
        holders = list(self.counts)
        excluded = dict(self.excluded)
        for s, mask in self.assumed.items():
            excluded[s] = excluded.get(s, 0) | mask
        fallback = None
        for attempt in range(tries * 5):
            hands = _place(self, excluded, holders, rng)
            if hands is None:
                continue
            if fallback is None:
                fallback = hands
            if attempt < tries and not self._announcements_fit(hands):
                continue
            break
        else:
            hands = fallback
        if hands is None:
            if self.assumed:  # the players did not behave as assumed: keep to what the rules say
                self.assumed = {}
                return self.sample(rng, tries)
            raise RuntimeError("no placement of the hidden cards fits the observation")
        for s, mask in self.known.items():
            hands[s] = hands.get(s, 0) | mask
        return hands

    def _announcements_fit(self, hands: dict[int, int]) -> bool:
        return all(
            _holds(hands.get(s, 0) | self.known.get(s, 0) | self.played.get(s, 0), kinds)
            for s, kinds in self.declared.items()
        )


def _hand_size(obs: Observation, played: int) -> int:
    rules = obs.rules
    if obs.phase.value == "auction":
        return rules.first_stage
    return rules.hand_size - played.bit_count()


def _exclusions(obs: Observation, unseen: int) -> dict[int, int]:
    """For each other seat, the unseen cards that would have made one of its plays illegal."""
    if obs.contract is None:
        return {}
    rules = obs.rules
    n = rules.players
    mode = play_mode(obs.contract.strain, rules.ta_values)
    excluded: dict[int, int] = {}
    tricks = [(t.leader, list(t.cards)) for t in obs.tricks]
    if obs.trick:
        tricks.append((obs.trick[0][0], [c for _, c in obs.trick]))
    for leader, cards in tricks:
        for i in range(1, len(cards)):
            seat = (leader + i) % n
            if seat == obs.seat:
                continue
            card = cards[i]
            win = trick_winner_index(cards[:i], mode)
            partner = n == 4 and win == i - 2
            rule_out = 0
            candidates = unseen & ~excluded.get(seat, 0)
            while candidates:
                low = candidates & -candidates
                candidates ^= low
                mask, _ = legal_mask(
                    (1 << card) | low,
                    cards[0],
                    cards[win],
                    partner,
                    mode,
                    rules.overtrump_partner,
                    rules.must_undertrump,
                    rules.undertrump_partner,
                )
                if not mask >> card & 1:
                    rule_out |= low
            if rule_out:
                excluded[seat] = excluded.get(seat, 0) | rule_out
    return excluded


def _unsaid_belotes(obs: Observation, played: dict[int, int], unseen: int) -> dict[int, int]:
    """For each other seat, the unseen king or queen of trump whose partner card it played without
    saying belote."""
    if obs.contract is None or not obs.rules.belote or obs.contract.strain == SANS_ATOUT:
        return {}
    suits = range(4) if obs.contract.strain == TOUT_ATOUT else (obs.contract.strain,)
    said = {(s, c >> 3) for s, c, _ in obs.belote_said}
    out: dict[int, int] = {}
    for seat, mask in played.items():
        if seat == obs.seat:
            continue
        for suit in suits:
            pair = _QUEEN_KING << (8 * suit)
            if (seat, suit) not in said and mask & pair and (pair & ~mask) & unseen:
                out[seat] = out.get(seat, 0) | (pair & ~mask)
    return out


def _place(know: Knowledge, excluded: dict[int, int], holders: list[int], rng: random.Random) -> dict[int, int] | None:
    """Deal the unseen cards to the holders, most constrained cards first, weighted by free room."""
    room = dict(know.counts)
    hands = {h: 0 for h in holders}
    cards = [c for c in range(32) if know.unseen >> c & 1]
    rng.shuffle(cards)
    options = {c: [h for h in holders if not excluded.get(h, 0) >> c & 1] for c in cards}
    cards.sort(key=lambda c: len(options[c]))
    for card in cards:
        choices = [h for h in options[card] if room[h] > 0]
        if not choices:
            return None
        total = sum(room[h] for h in choices)
        pick = rng.randrange(total)
        for h in choices:
            pick -= room[h]
            if pick < 0:
                break
        hands[h] |= 1 << card
        room[h] -= 1
    return hands


def _holds(first_hand: int, kinds: tuple[str, ...]) -> bool:
    """Does a first hand hold announcements of these kinds?"""
    found = {a.kind for a in best_announcements(first_hand, 0)}
    return all(kind in found for kind in kinds)
