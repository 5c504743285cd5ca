"""A match at a web table: the deal in play, the action log's position, and the public events.

:class:`TableGame` is synchronous and knows nothing of the network: the table's
actor calls it. It checks an action without changing anything (:meth:`check`),
applies a checked one (:meth:`apply`) and says what happened as public events (a
call, a card, a trick won, the contract, the announcements shown, the end of the
deal and of the match), and rebuilds itself from a log of actions (:meth:`replay`).
Events hold only what every player at the table sees; what one seat may see alone
goes into its view (:mod:`atout.web.views`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from atout.actions import Action, Declare, Play, parse_action
from atout.deal import Deal, Phase
from atout.errors import IllegalAction, NotationError
from atout.i18n import tr
from atout.match import Match
from atout.notation import seat_letters
from atout.observation import PublicDeclaration
from atout.record import Record
from atout.rules import Ruleset

Event = dict[str, Any]


@dataclass(frozen=True)
class LoggedAction:
    """One action of the log: the deal it belongs to, the seat and the action's notation."""

    deal_no: int
    seat: int
    action: str


class TableGame:
    """One match of a table, played action by action."""

    def __init__(self, rules: Ruleset, seed: int, first_dealer: int = 0) -> None:
        self.rules = rules
        self.match = Match(rules, seed=seed, first_dealer=first_dealer)
        self.deal: Deal = self.match.new_deal()
        #: Deals started so far, minus one: the number of the deal in play (0 for the first).
        self.deal_no = 0
        #: Actions applied in this match: the sequence number of the next one in the log.
        self.seq = 0

    # ---------------------------------------------------------------- state
    @property
    def deal_over(self) -> bool:
        return self.deal.phase is Phase.DONE

    @property
    def finished(self) -> bool:
        return self.match.finished

    @property
    def turn(self) -> int | None:
        return self.deal.turn

    # -------------------------------------------------------------- actions
    def check(self, seat: int, action: Action | str) -> Action:
        """The action, parsed and legal for ``seat`` now; :class:`IllegalAction` (nothing changes) if not."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except NotationError:
                raise _refusal("malformed") from None
        if self.deal_over:
            raise _refusal("over")
        if self.deal.turn != seat:
            raise _refusal("turn")
        if action in self.deal.legal_actions():
            return action
        self.deal.copy().apply(action, seat)  # raises the rules core's reason, on a copy
        raise _refusal("illegal")

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a checked action for ``seat`` and return the public events it caused."""
        deal = self.deal
        tricks = deal.trick_number
        phase = deal.phase
        shown = deal.resolution is not None
        word = _belote_word(deal, seat, action)
        deal.apply(action, seat)
        self.seq += 1
        events: list[Event] = []
        if isinstance(action, Play):
            events.append({"kind": "play", "seat": seat, "card": action.card.code, "belote": word})
        elif isinstance(action, Declare):
            heard = [PublicDeclaration(a.kind) for a in action.announcements]
            events.append(
                {"kind": "declare", "seat": seat, "heard": [{"kind": h.kind, "points": h.points} for h in heard]}
            )
        else:
            events.append({"kind": "call", "seat": seat, "action": action.notation()})
        if phase is Phase.AUCTION and deal.phase is not Phase.AUCTION:
            if deal.contract is None:
                events.append({"kind": "passed_out"})
            else:
                events.append({"kind": "contract", "contract": contract_data(deal)})
        if deal.trick_number > tricks:
            trick = deal.tricks[-1]
            events.append(
                {
                    "kind": "trick",
                    "leader": trick.leader,
                    "winner": trick.winner,
                    "points": trick.points,
                    "cards": [c.code for c in trick.cards],
                }
            )
        if not shown and deal.resolution is not None:
            events.append({"kind": "shown", "winner": deal.resolution.winner})
        if deal.phase is Phase.DONE:
            self.match.record(deal)
            events.append({"kind": "deal_end", "number": self.deal_no})
            if self.match.finished:
                events.append({"kind": "match_end", "winner": self.match.winner})
        return events

    def next_deal(self) -> list[Event]:
        """Deal the next deal of the match (the last one is over and recorded)."""
        if not self.deal_over or self.finished:
            raise _refusal("not_over")
        self.deal = self.match.new_deal()
        self.deal_no += 1
        return [{"kind": "deal_start", "number": self.deal_no, "dealer": self.deal.dealer}]

    @classmethod
    def replay(cls, rules: Ruleset, seed: int, first_dealer: int, log: Iterable[LoggedAction]) -> TableGame:
        """The match a log of actions gives (a server restart rebuilds its live tables so)."""
        game = cls(rules, seed, first_dealer)
        for entry in log:
            while entry.deal_no > game.deal_no:
                game.next_deal()
            game.apply(entry.seat, parse_action(entry.action))
        return game

    # -------------------------------------------------------------- records
    def records(self, names: list[str], event: str) -> str:
        """Every finished deal of the match as atout records (text), players named."""
        letters = seat_letters(self.rules)
        tags = {"Event": event, **{_SEAT_TAG[letter]: names[i] for i, letter in enumerate(letters)}}
        texts = [Record.from_deal(e.deal, **tags).to_text() for e in self.match.entries if e.deal is not None]
        return "\n".join(texts)


def contract_data(deal: Deal) -> dict[str, Any] | None:
    c = deal.contract
    if c is None:
        return None
    return {"value": c.value, "strain": c.strain, "taker": c.taker, "level": c.level, "capot": c.capot}


def _belote_word(deal: Deal, seat: int, action: Action) -> str | None:
    """« belote » on the first of the pair said, « rebelote » on the second."""
    if not (isinstance(action, Play) and action.belote):
        return None
    suit = action.card >> 3
    said = sum(1 for s, a in deal.actions if s == seat and isinstance(a, Play) and a.belote and a.card >> 3 == suit)
    return "rebelote" if said else "belote"


_SEAT_TAG = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _refusal(code: str) -> IllegalAction:
    key = f"web.refusal.{code}"
    return IllegalAction(tr(key, "fr"), tr(key, "en"), code=code)
