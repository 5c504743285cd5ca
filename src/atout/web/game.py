"""A match at a web table: the deal in play, the action log's position, and what each action did.

:class:`TableGame` is synchronous and knows nothing of the network: the table's
actor calls it. It checks an action without changing anything (:meth:`check`),
applies a checked one (:meth:`apply`) and says what happened: the rules core's events
(:mod:`atout.events`) and the match's end, and rebuilds itself from a log of actions
(:meth:`replay`). Each recipient perceives the events as his seat may
(:func:`atout.web.serialize.event`); what one seat may see alone goes into its view
(:mod:`atout.web.views`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from atout.actions import Action, Play, parse_action
from atout.deal import Deal, Phase
from atout.errors import IllegalAction, NotationError
from atout.events import CardPlayed, DealOver, Event
from atout.i18n import Message
from atout.match import Match
from atout.notation import seat_letters
from atout.record import Record
from atout.rules import Ruleset
from atout.web.events import DealStarted, MatchOver


@dataclass(frozen=True)
class LoggedAction:
    """One action of the log: the deal it belongs to, the seat and the action's notation."""

    deal_no: int
    seat: int
    action: str


class TableGame:
    """One match of a table, played action by action.

    ``fixed_deals``: a challenge's game, exactly that many deals, passed-out ones included, each shuffled from
    the seed alone (the ruleset must shuffle every deal), so that every table with the same seed and first
    dealer is dealt the same cards whatever is played; it ends after its last deal, a winner or not."""

    def __init__(self, rules: Ruleset, seed: int, first_dealer: int = 0, fixed_deals: int | None = None) -> None:
        if fixed_deals is not None and (rules.traditional_deal or rules.redeal != "shuffle"):
            raise ValueError("a game of fixed deals needs a ruleset that shuffles every deal")
        self.rules = rules
        self.fixed_deals = fixed_deals
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
        if self.fixed_deals is not None:
            return len(self.match.entries) >= self.fixed_deals
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
        """Apply a checked action for ``seat``: the rules core's events, and :class:`MatchOver` after the
        deal that ends the match (each recipient perceives them as :func:`atout.web.serialize.event` says)."""
        events: list[Event] = list(self.deal.apply(action, seat))
        self.seq += 1
        if isinstance(events[-1], DealOver):
            self.match.record(self.deal)
            if self.finished:
                events.append(MatchOver(self.match.winner))
        return events

    def belote_word(self, seat: int, play: Play) -> str | None:
        """The word ``seat`` would say with ``play`` (« belote » or « rebelote »), as the rules core has it."""
        for event in self.deal.copy().apply(play, seat):
            if isinstance(event, CardPlayed):
                return event.word
        return None

    def next_deal(self) -> list[Event]:
        """Deal the next deal of the match (the last one is over and recorded)."""
        if not self.deal_over or self.finished:
            raise _refusal("not_over")
        self.deal = self.match.new_deal()
        self.deal_no += 1
        return [DealStarted(self.deal_no, self.deal.dealer)]

    @classmethod
    def replay(
        cls,
        rules: Ruleset,
        seed: int,
        first_dealer: int,
        log: Iterable[LoggedAction],
        fixed_deals: int | None = None,
    ) -> TableGame:
        """The match a log of actions gives (a server restart rebuilds its live tables so)."""
        game = cls(rules, seed, first_dealer, fixed_deals)
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


_SEAT_TAG = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _refusal(code: str) -> IllegalAction:
    return IllegalAction(Message(f"web.refusal.{code}"), code=code)
