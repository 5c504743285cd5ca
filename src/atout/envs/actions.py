"""The fixed integer action space of a ruleset: every card, call and announcement choice.

=================  ==============================================================
index              action
=================  ==============================================================
0 … 31             play card ``c`` (``suit * 8 + rank``: ♠ ♥ ♦ ♣, 7 8 9 10 J Q K A)
32 … 39            play a queen or king of trump saying belote / rebelote:
                   ``32 + 2 * suit`` the queen, ``33 + 2 * suit`` the king
40 … 47            declare announcements: ``40 + bits``, bit ``i`` set declares the
                   ``i``-th of the seat's best announcements (strongest first,
                   as the observation's ``to_declare`` lists them); 40 declares none
48                 pass
49                 coinche (contre)
50                 surcoinche (surcontre)
51 … 54            take with trump ♠ ♥ ♦ ♣ (auctions around a retourne)
55 …               the ruleset's bids, lowest first (none around a retourne)
=================  ==============================================================

Only the bids depend on the ruleset (its minimum, maximum, step, strains and
capot bids); every other index means the same thing in every variant. A hand of
at most ten cards holds at most three announcements, hence eight declare choices.

>>> from atout import Ruleset
>>> space = ActionSpace(Ruleset.preset("coinche"))
>>> space.size, space.label(55), space.label(space.size - 1), space.label(12)
(359, '80S', 'capotC', 'JH')
>>> ActionSpace(Ruleset.preset("classique")).size      # no bids: take or pass
55
"""

from __future__ import annotations

from atout.actions import (
    COINCHE,
    PASS,
    PLAYS,
    PLAYS_BELOTE,
    SURCOINCHE,
    Action,
    Bid,
    Coinche,
    Declare,
    Pass,
    Play,
    Surcoinche,
    Take,
)
from atout.announcements import Announcement
from atout.deal import Deal
from atout.errors import AtoutError
from atout.rules import Ruleset, per_ruleset

BELOTE = 32
DECLARE = 40
#: A hand of at most ten cards holds at most three announcements.
MAX_ANNOUNCEMENTS = 3
PASS_INDEX = DECLARE + (1 << MAX_ANNOUNCEMENTS)
COINCHE_INDEX = PASS_INDEX + 1
SURCOINCHE_INDEX = PASS_INDEX + 2
TAKE = PASS_INDEX + 3
BIDS = TAKE + 4
_QUEEN = 5


def ruleset_bids(rules: Ruleset) -> tuple[Bid, ...]:
    """Every bid of the ruleset, lowest first: the calls open to the first speaker of a deal."""
    opening = Deal.new(rules, seed=0).legal_actions()
    return tuple(a for a in opening if isinstance(a, Bid))


class ActionSpace:
    """The integer actions of one ruleset and their meaning (see the module's table)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.bids = ruleset_bids(rules)
        self.size = BIDS + len(self.bids)
        self._bid_index = {bid: BIDS + i for i, bid in enumerate(self.bids)}
        # The rules core hands out shared action objects, kept alive here (self.bids, the
        # module's PLAYS): most are found by identity, the others by value.
        self.by_id: dict[int, int] = {
            id(PASS): PASS_INDEX,
            id(COINCHE): COINCHE_INDEX,
            id(SURCOINCHE): SURCOINCHE_INDEX,
        }
        for bid, i in self._bid_index.items():
            self.by_id[id(bid)] = i
        for card in range(32):
            self.by_id[id(PLAYS[card])] = card
            if card & 7 >= _QUEEN and card & 7 <= _QUEEN + 1:
                self.by_id[id(PLAYS_BELOTE[card])] = belote_index(card)

    def index(self, action: Action, best: tuple[Announcement, ...] = ()) -> int:
        """The index of ``action``; ``best`` is the seat's best announcements (for a declaration)."""
        found = self.by_id.get(id(action))
        if found is not None:
            return found
        if type(action) is Play:
            return belote_index(action.card) if action.belote else int(action.card)
        if isinstance(action, Bid):
            bid = self._bid_index.get(action)
            if bid is None:
                raise AtoutError(f"{action.notation()} is not a bid of these rules")
            return bid
        if isinstance(action, Declare):
            try:
                return DECLARE + sum(1 << best.index(a) for a in action.announcements)
            except ValueError:
                raise AtoutError(f"{action.notation()} is not part of the seat's best announcements") from None
        if isinstance(action, Take):
            return TAKE + action.suit
        if isinstance(action, Pass):
            return PASS_INDEX
        if isinstance(action, Coinche):
            return COINCHE_INDEX
        if isinstance(action, Surcoinche):
            return SURCOINCHE_INDEX
        raise AtoutError(f"no index for the action {action!r}")

    def action(self, index: int, best: tuple[Announcement, ...] = ()) -> Action:
        """The action an index stands for (a declaration needs the seat's ``best`` announcements)."""
        if not 0 <= index < self.size:
            raise AtoutError(f"action {index} is outside this ruleset's action space (0..{self.size - 1})")
        if index < BELOTE:
            return PLAYS[index]
        if index < DECLARE:
            return PLAYS_BELOTE[belote_card(index)]
        if index < PASS_INDEX:
            bits = index - DECLARE
            if bits >> len(best):
                raise AtoutError(f"action {index} declares an announcement the seat does not have")
            return Declare(tuple(a for i, a in enumerate(best) if bits >> i & 1))
        if index >= BIDS:
            return self.bids[index - BIDS]
        if index >= TAKE:
            return Take(index - TAKE)
        return (PASS, COINCHE, SURCOINCHE)[index - PASS_INDEX]

    def label(self, index: int) -> str:
        """A short name for an index: the action's notation, ``ann:bits`` for a declaration."""
        if DECLARE <= index < PASS_INDEX:
            bits = index - DECLARE
            return "ann:" + ("-" if not bits else "+".join(f"#{i}" for i in range(MAX_ANNOUNCEMENTS) if bits >> i & 1))
        return self.action(index).notation()


#: The (shared) action space of a ruleset.
action_space_of = per_ruleset(ActionSpace)


def belote_index(card: int) -> int:
    """The index of playing ``card`` (a queen or king) with belote."""
    return BELOTE + 2 * (card >> 3) + (card & 7) - _QUEEN


def belote_card(index: int) -> int:
    """The card (a queen or king) that the belote index ``index`` plays."""
    return 8 * ((index - BELOTE) >> 1) + _QUEEN + ((index - BELOTE) & 1)


__all__ = ["ActionSpace", "action_space_of", "belote_card", "belote_index", "ruleset_bids"]
