"""A match between one human and bots: what every table interface (terminal, web) shares.

The session owns the match, the current deal and the bots; an interface shows the
human's observation, passes on his actions (an illegal one raises
:class:`~atout.errors.IllegalAction` and changes nothing), lets the bots play, and
asks for hints and the double-dummy analysis. A session saves to a file of game
records (one per deal, the last one possibly unfinished) and resumes from it.

>>> from atout import Ruleset
>>> session = GameSession(Ruleset.preset("coinche", target=500), bots="club", seed=3)
>>> _ = session.run_bots()
>>> session.human_to_play and session.observation().seat == 2
True
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from atout.actions import Action
from atout.bots import LEVELS, HeuristicAgent, build_agent, load_spec
from atout.bots.base import Agent
from atout.bots.specs import BotSpec
from atout.deal import Deal, Phase
from atout.errors import AtoutError, IllegalAction, RecordError, excerpt, os_reason
from atout.events import Event
from atout.i18n import Message
from atout.match import Match
from atout.notation import parse_seat, seat_letter, seat_letters
from atout.observation import Observation
from atout.record import Record, read_records
from atout.rules import Ruleset


class GameSession:
    """One human seat against (and with) bots, deal after deal until the match ends."""

    def __init__(
        self,
        rules: Ruleset,
        *,
        bots: str | BotSpec | Sequence[str | BotSpec] = "club",
        human: int | None = None,
        seed: int | None = None,
        hint: str | BotSpec = "expert",
        first_dealer: int = 0,
    ) -> None:
        if human is None:  # South, at every table (seat 1 of two players, 2 of three or four)
            human = seat_letters(rules).index("S")
        if not 0 <= human < rules.players:
            raise AtoutError(Message("match.seat", name="human", last=rules.players - 1, value=excerpt(repr(human))))
        self.rules = rules
        self.human = human
        specs = [bots] * (rules.players - 1) if isinstance(bots, (str, BotSpec)) else list(bots)
        if len(specs) != rules.players - 1:
            raise AtoutError(Message("session.bots", count=rules.players - 1, given=len(specs)))
        self.bot_specs = [load_spec(s) for s in specs]
        self.hint_spec = load_spec(hint)
        self.match = Match(rules, seed=seed, first_dealer=first_dealer)
        self.deal = self.match.new_deal()
        self._agents = self._make_agents()
        #: The record of each finished deal already saved, by its place in the match (a save rewrites the
        #: whole match after every action: the finished deals are written once).
        self._texts: dict[int, tuple[Deal, str, str]] = {}

    # ------------------------------------------------------------------ state
    @property
    def seats(self) -> list[int]:
        """The bots' seats, in order."""
        return [s for s in range(self.rules.players) if s != self.human]

    def spec_of(self, seat: int) -> BotSpec:
        return self.bot_specs[self.seats.index(seat)]

    @property
    def human_to_play(self) -> bool:
        return self.deal.turn == self.human

    @property
    def deal_over(self) -> bool:
        return self.deal.phase is Phase.DONE

    @property
    def match_over(self) -> bool:
        return self.match.finished

    def observation(self) -> Observation:
        """What the human may know now."""
        return self.deal.observation(self.human)

    def legal_actions(self) -> list[Action]:
        return self.observation().legal_actions()

    # ---------------------------------------------------------------- playing
    def play(self, action: Action | str) -> tuple[Event, ...]:
        """The human's action, and what it did as the human sees it; raises :class:`IllegalAction` (nothing
        changes) if it is not legal."""
        if self.deal_over:
            raise IllegalAction(Message("illegal.over"), code="over")
        if not self.human_to_play:
            raise IllegalAction(Message("illegal.not_your_turn"), code="turn")
        return self._seen(self.deal.apply(action, self.human))

    def bot_choice(self, *, stand_in: bool = False) -> tuple[int, Action] | None:
        """The action of the bot in turn, not yet applied (None if no bot is to act).

        Interfaces may compute it in a worker thread and apply it with :meth:`apply_bot`. ``stand_in``: the
        club player's rules decide for the bot, with its spec's boldness (a table asks for it while the
        solver is compiled, once after an install, rather than keep the player waiting).
        """
        seat = self.deal.turn
        if seat is None or seat == self.human:
            return None
        spec = self.spec_of(seat)
        agent = HeuristicAgent(spec.name, spec.aggression) if stand_in else self._agents[seat]
        return seat, agent.act(self.deal.observation(seat))

    def apply_bot(self, seat: int, action: Action) -> tuple[Event, ...]:
        """A bot's action, and what it did as the human sees it."""
        return self._seen(self.deal.apply(action, seat))

    def _seen(self, events: tuple[Event, ...]) -> tuple[Event, ...]:
        return tuple(e.seen_by(self.human) for e in events)

    def step(self) -> tuple[int, Action] | None:
        """One bot action, if a bot is to act; returns it with its seat."""
        choice = self.bot_choice()
        if choice is not None:
            self.apply_bot(*choice)
        return choice

    def run_bots(self) -> list[tuple[int, Action]]:
        """Let the bots act until it is the human's turn or the deal is over."""
        done = []
        while (move := self.step()) is not None:
            done.append(move)
        return done

    def finish_deal(self) -> None:
        """Record the finished deal in the match (so the score and the winner are up to date)."""
        if not self.deal_over:
            raise AtoutError(Message("session.not_over"))
        if not self._recorded:
            self.match.record(self.deal)

    def next_deal(self) -> Deal:
        """Record the finished deal in the match and deal the next one."""
        self.finish_deal()
        if self.match.finished:
            raise AtoutError(Message("match.over"))
        self.deal = self.match.new_deal()
        self._agents = self._make_agents()
        return self.deal

    @property
    def _recorded(self) -> bool:
        """Is the current deal already in the match?"""
        return len(self.match.entries) > self._deal_index

    def _make_agents(self) -> dict[int, Agent]:
        self._deal_index = len(self.match.entries)
        base = self.match.deal_seed(self._deal_index)
        # At a table the bots keep a clock: a slow or busy machine does not keep the player waiting.
        return {
            seat: build_agent(self.spec_of(seat), seed=(base + seat) % (1 << 62), wall_clock=True)
            for seat in self.seats
        }

    # ------------------------------------------------------------ assistance
    def hint(self, observation: Observation | None = None) -> Action:
        """What the hint bot (the expert by default) would do in the human's place.

        ``observation``: the human's, taken when the hint was asked (an interface that computes the
        hint in a thread while the game goes on passes it, and drops a hint that comes too late).
        """
        observation = observation or self.observation()
        if observation.turn != self.human:
            raise AtoutError(Message("session.hint"))
        seed = (self.match.deal_seed(self._deal_index) + 97) % (1 << 62)
        agent = build_agent(self.hint_spec, seed=seed, wall_clock=True)
        return agent.act(observation)

    def analysis(self, deal: Deal | None = None) -> list[object]:
        """The double-dummy value and cost of each card the human played in the finished deal (``deal``:
        one of this match's, taken when the analysis was asked; default: the current one)."""
        from atout.solver.analysis import analyse

        deal = deal or self.deal
        if deal.phase is not Phase.DONE or deal.contract is None:
            return []
        return [a for a in analyse(deal) if a.seat == self.human]

    # ---------------------------------------------------------- save, resume
    def save(self, path: str | Path, human: str = "Human") -> None:
        """Write every deal of the match so far (the current one too, finished or not), atomically:
        a temporary file in the same folder, then renamed over the save. Raises :class:`OSError` if it
        cannot be written (the save as it was is kept).

        ``human`` names the human's seat in the records (the interface gives it in its language).
        """
        tags = {
            "Event": "atout play",
            "Human": seat_letter(self.rules, self.human),
            "Bots": json.dumps([_spec_ref(s) for s in self.bot_specs]),
            "Hint": json.dumps(_spec_ref(self.hint_spec)),
            "MatchSeed": str(self.match.seed),
            "FirstDealer": seat_letter(self.rules, self.match.first_dealer),
        }
        for seat in range(self.rules.players):
            tags[_SEAT_TAGS[seat_letter(self.rules, seat)]] = human if seat == self.human else self.spec_of(seat).name
        deals = [e.deal for e in self.match.entries if e.deal is not None]
        if not self._recorded:
            deals.append(self.deal)
        texts = []
        for index, deal in enumerate(deals):
            cached = self._texts.get(index)
            if cached is None or cached[0] is not deal or cached[1] != human:
                cached = (deal, human, Record.from_deal(deal, **tags).to_text())
                if deal.phase is Phase.DONE:
                    self._texts[index] = cached
            texts.append(cached[2])
        _write_atomically(Path(path), "\n".join(texts))

    @classmethod
    def load(cls, path: str | Path) -> GameSession:
        """Resume a saved match; raises :class:`RecordError` (with the line) on a bad file."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            reason = os_reason(err) if isinstance(err, OSError) else Message("session.not_text")
            raise AtoutError(Message("session.cannot_read", path=str(path), reason=reason)) from None
        return cls.from_text(text)

    @classmethod
    def from_text(cls, text: str) -> GameSession:
        """Resume the match a save holds (its text); raises :class:`RecordError` (with the line) if it is not one."""
        records = read_records(text)
        if not records:
            raise RecordError(Message("session.empty"))
        first = records[0]
        tags = first.tags
        for key in ("Human", "Bots", "MatchSeed", "FirstDealer"):
            if key not in tags:
                raise RecordError(Message("session.not_a_save", tag=key))
        rules = first.rules
        try:
            session = cls(
                rules,
                bots=json.loads(tags["Bots"]),
                human=parse_seat(rules, tags["Human"]),
                seed=int(tags["MatchSeed"]),
                hint=json.loads(tags.get("Hint", '"expert"')),
                first_dealer=parse_seat(rules, tags["FirstDealer"]),
            )
        except (ValueError, TypeError, AtoutError) as err:
            reason: AtoutError | Message = err if isinstance(err, AtoutError) else Message("session.bad_value")
            raise RecordError(Message("session.bad_tags", reason=reason)) from None
        for number, record in enumerate(records):
            if record.rules != rules:
                raise RecordError(Message("session.other_rules", deal=number + 1))
            deal = record.replay()
            if deal.dealer != session.match.dealer:
                raise RecordError(Message("session.wrong_dealer", deal=number + 1))
            session.deal = deal
            session._agents = session._make_agents()
            if deal.phase is Phase.DONE and number < len(records) - 1:
                session.match.record(deal)
        return session


_SEAT_TAGS = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``target``, then rename it over ``target``: a save is
    whole or not there, never half-written."""
    if not target.parent.exists():
        target.parent.mkdir(parents=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _spec_ref(spec: BotSpec) -> str | dict[str, object]:
    """A level's name when the spec is that level, else the whole spec."""
    if spec.name in LEVELS and load_spec(spec.name) == spec:
        return spec.name
    return spec.to_dict()


__all__ = ["GameSession"]
