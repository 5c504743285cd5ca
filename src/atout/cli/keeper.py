"""``atout score``: keep the score of a game played with real cards.

Each deal is asked question by question (contract, takers, coinche, points, belote,
announcements), each answer checked as it is given, or typed on one line:
``90C Nous 102 x belote=Nous annonces=Nous:50`` (suit letters as the player's language
writes them, see :mod:`atout.cli.typed`; a letter of the other language is asked about).
The contract is said back in words before anything is recorded. The marks, the totals
and the winner come from the ruleset's own scoring. Commands at the contract's question:
``annuler`` (undo the last deal), ``corriger`` (enter the last deal again), ``scores``,
``aide``, ``quitter``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from functools import partial
from typing import Literal, TypeVar

from atout.actions import Bid
from atout.auction import Contract
from atout.cli.text import bid_words, contract_text
from atout.cli.typed import Reading, read_call, read_strain, read_yes, which
from atout.errors import AtoutError, excerpt
from atout.i18n import Message, tr
from atout.notation import parse_seat
from atout.scorebook import ScoreBook, Sheet
from atout.scoring import DealFacts, check_contract
from atout.tables import SANS_ATOUT

T = TypeVar("T")
_UNDO = ("annuler", "undo")
_EDIT = ("corriger", "edit")
_SCORES = ("scores", "tableau", "table")
_QUIT = ("quitter", "quit", "q", "exit")
_HELP = ("aide", "help", "?")
_PASS = ("passe", "pass", "p", "personne", "nobody")
_NONE = ("", "personne", "nobody", "aucune", "none", "non", "no", "-")


class _Refused(Enum):
    """An answer the keeper refused (it said why); nothing is recorded."""

    REFUSED = 0


class Keeper:
    """The question-and-answer loop of one score sheet."""

    def __init__(
        self,
        book: ScoreBook,
        sheet_id: int,
        lang: str = "fr",
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
    ) -> None:
        self.book = book
        self.sheet_id = sheet_id
        self.lang = lang
        self.ask = ask
        self.say = say

    @property
    def sheet(self) -> Sheet:
        return self.book.load(self.sheet_id)

    def tr(self, key: str, /, **values: object) -> str:
        return tr(f"keeper.{key}", self.lang, **values)

    def run(self) -> None:
        """Ask deal after deal until the game is won or the player quits; the input's end quits too (a deal
        typed only in part is not recorded)."""
        self.say(self.scores_line(self.sheet))
        try:
            while self._turn():
                pass
        except EOFError:
            self.say("")
            self.say(self.tr("saved", id=self.sheet_id))

    def _turn(self) -> bool:
        """One answer to the contract's question and what follows; False when the keeper is done."""
        sheet = self.sheet
        if sheet.match.finished:
            self.say(self.tr("winner", name=sheet.sides[sheet.match.winner or 0]))
            return False
        line = self.ask(self._first_question(sheet)).strip()
        word = line.lower()
        if word in _QUIT:
            self.say(self.tr("saved", id=self.sheet_id))
            return False
        if word in _HELP:
            self.say(self.tr("help"))
        elif word in _SCORES:
            self.say(self.table(sheet))
        elif word in _UNDO:
            self._guard(lambda: self.book.undo(self.sheet_id), self.tr("undone"))
        elif word in _EDIT:
            if not sheet.entries:
                self.say(self.tr("nothing"))
                return True
            edited = self._deal(sheet, self.ask(self._first_question(sheet, len(sheet.entries))).strip())
            if edited is not _Refused.REFUSED:
                self._guard(partial(self.book.replace_last, self.sheet_id, edited), None)
        elif line:
            added = self._deal(sheet, line)
            if added is not _Refused.REFUSED:
                self._guard(partial(self.book.add, self.sheet_id, added), None)
        return True

    def _refuse(self, err: AtoutError) -> None:
        self.say(self.tr("error", why=err.message(self.lang)))

    def _guard(self, change: Callable[[], object], done: str | None) -> None:
        try:
            change()
        except AtoutError as err:
            self._refuse(err)
            return
        if done:
            self.say(done)
        self.say(self.scores_line(self.sheet))

    def _first_question(self, sheet: Sheet, number: int | None = None) -> str:
        n = number if number is not None else len(sheet.entries) + 1
        return self.tr("trump_q" if sheet.rules.auction == "retourne" else "contract_q", n=n)

    # ------------------------------------------------------------ entry
    def _deal(self, sheet: Sheet, first: str) -> DealFacts | Literal[_Refused.REFUSED] | None:
        """The facts of a deal (None: passed out) from its first answer and more questions."""
        if first.lower() in _PASS:
            return None
        tokens = first.split()
        try:
            contract, used = self._contract(sheet, tokens)
            if contract is None:
                return _Refused.REFUSED
            if len(tokens) > used:
                facts = self._one_line(sheet, contract, tokens[used:])
                self.say(self.tr("echo", contract=self._contract_words(sheet, facts.contract)))
                return facts
            self.say(self.tr("echo", contract=self._contract_words(sheet, contract, taker=False)))
            return self._questions(sheet, contract)
        except AtoutError as err:
            self._refuse(err)
            return _Refused.REFUSED

    def _contract(self, sheet: Sheet, tokens: list[str]) -> tuple[Contract | None, int]:
        """The contract the first words give (one word, 90C, or two, « 100 cœur »), and how many words it took;
        None if the player did not confirm what an ambiguous letter meant."""
        rules = sheet.rules
        if rules.auction == "retourne":
            strains = read_strain(tokens[0], self.lang, (0, 1, 2, 3))
            picked = self._pick(Reading(tuple(Bid(0, s) for s in strains), len(strains) == 1), tokens[0])
            return (None if picked is None else Contract(0, picked.strain, 0)), 1
        for size in (2, 1) if len(tokens) >= 2 else (1,):
            text = " ".join(tokens[:size])
            try:
                reading = read_call(text, self.lang, rules)
            except AtoutError:
                if size == 1:
                    raise
                continue
            picked = self._pick(reading, text)
            if picked is None:
                return None, size
            contract = Contract(picked.value, picked.strain, 0, 0, picked.capot)
            check_contract(rules, contract)
            return contract, size
        raise AssertionError("unreachable")

    def _pick(self, reading: Reading, text: str) -> Bid | None:
        """The bid a reading means, asking the player when a letter may mean more than one thing."""
        bids = [a for a in reading.actions if isinstance(a, Bid)]
        if not bids:
            raise AtoutError(Message("keeper.not_a_contract", text=excerpt(text)))
        if reading.sure:
            return bids[0]
        question = which(text, [self._bid_words(b) for b in bids], self.lang) + " "
        if len(bids) == 1:
            return bids[0] if self._ask_until(question, self._yes) else None
        return bids[self._ask_until(question, partial(_choice, count=len(bids))) - 1]

    def _yes(self, answer: str) -> bool:
        yes = read_yes(answer, self.lang)
        if yes is None:
            raise AtoutError(Message("keeper.yes_no"))
        return yes

    def _bid_words(self, bid: Bid) -> str:
        return bid_words(bid.value, bid.strain, bid.capot, self.lang)

    def _contract_words(self, sheet: Sheet, contract: Contract, taker: bool = True) -> str:
        if not taker:
            return self._bid_words(Bid(contract.value, contract.strain, contract.capot))
        takers = sheet.sides[sheet.rules.side_of(contract.taker)]
        return contract_text(sheet.rules, contract, self.lang, taker=takers)

    def _questions(self, sheet: Sheet, contract: Contract) -> DealFacts:
        """Every other fact, question by question; each answer is checked against the facts so far."""
        rules = sheet.rules
        names = "/".join(sheet.sides)
        taker = self._ask_until(self.tr("takers_q", names=names), lambda a: self._side(sheet, a))
        level = self._ask_until(self.tr("coinche_q"), _level) if rules.coinche else 0
        contract = Contract(contract.value, contract.strain, taker, level, contract.capot)

        def checked(facts: DealFacts) -> DealFacts:
            facts.check(rules)
            return facts

        if len(rules.sides) == 2 and rules.whole_deck:
            question = self.tr("points_q", total=162)
            facts = self._ask_until(question, lambda a: checked(self._card_points(sheet, contract, a)))
        else:  # each side's points (three players; two, who play 18 of the 32 cards): a capot is its points
            facts = self._each_sides_points(sheet, contract, checked)
        if rules.belote and contract.strain != SANS_ATOUT:  # no trump, no belote
            question = self.tr("belote_q", names=names)
            facts = self._ask_until(question, lambda a: checked(replace(facts, belote=self._belote(sheet, a))))
        if rules.announcements:
            question = self.tr("ann_q", a=sheet.sides[0], b=sheet.sides[-1])
            facts = self._ask_until(
                question, lambda a: checked(replace(facts, announcements=self._announcements(sheet, a)))
            )
        return facts

    def _each_sides_points(
        self, sheet: Sheet, contract: Contract, checked: Callable[[DealFacts], DealFacts]
    ) -> DealFacts:
        rules = sheet.rules
        while True:
            card = {s: self._ask_until(self.tr("points_each_q", name=sheet.sides[s]), _number) for s in rules.sides}
            capot = next((s for s, v in card.items() if v >= rules.capot_points), None)
            try:
                return checked(DealFacts(contract, card, capot=capot))
            except AtoutError as err:
                self._refuse(err)

    def _card_points(self, sheet: Sheet, contract: Contract, text: str) -> DealFacts:
        """The takers' card points (or a capot) as the facts of the deal so far."""
        rules = sheet.rules
        taker = contract.taker
        points, capot = self._points(text, taker)
        card = {taker: points, 1 - taker: 162 - points} if capot is None else {capot: rules.capot_points, 1 - capot: 0}
        return DealFacts(contract, card, capot=capot)

    def _one_line(self, sheet: Sheet, contract: Contract, tokens: list[str]) -> DealFacts:
        """``Nous 102 x belote=Nous annonces=Nous:50``: a field given twice adds up (two belotes are then refused)."""
        rules = sheet.rules
        if len(rules.sides) != 2 or not rules.whole_deck:
            raise AtoutError(Message("keeper.questions_only"))
        taker = self._side(sheet, tokens[0])
        level: int | None = None
        belote: dict[int, int] = {}
        announcements: dict[int, int] = {}
        for token in tokens[2:]:
            key, _, value = token.partition("=")
            if token.lower() in ("x", "xx", "coinche", "surcoinche"):
                if level is not None:
                    raise AtoutError(Message("keeper.coinche_twice", text=excerpt(token)))
                level = _level(token)
            elif key.lower() == "belote":
                _merge(belote, self._belote(sheet, value.replace(":", " ")))
            elif key.lower() in ("annonces", "announcements", "ann"):
                _merge(announcements, self._announcements(sheet, value.replace(":", " ")))
            else:
                raise AtoutError(Message("keeper.unknown_field", text=excerpt(token)))
        contract = Contract(contract.value, contract.strain, taker, level or 0, contract.capot)
        facts = self._card_points(sheet, contract, tokens[1] if len(tokens) > 1 else "")
        return replace(facts, belote=belote, announcements=announcements)

    def _ask_until(self, question: str, parse: Callable[[str], T]) -> T:
        """Ask again until the answer parses and fits the facts so far (a bad answer says why)."""
        while True:
            answer = self.ask(question).strip()
            try:
                return parse(answer)
            except AtoutError as err:
                self._refuse(err)

    def _side(self, sheet: Sheet, text: str) -> int:
        key = text.strip().lower()
        for i, name in enumerate(sheet.sides):
            if key == name.lower():
                return i
        try:
            return sheet.rules.side_of(parse_seat(sheet.rules, text))
        except AtoutError:
            raise AtoutError(Message("keeper.not_a_side", text=excerpt(text), sides=", ".join(sheet.sides))) from None

    def _points(self, text: str, taker: int) -> tuple[int, int | None]:
        key = text.strip().lower().replace("é", "e")
        if key in ("capot", "capot preneurs", "capot takers"):
            return 162, taker
        if key.startswith("capot"):
            return 0, 1 - taker
        value = _number(text)
        if value > 162:
            raise AtoutError(Message("keeper.at_most_162"))
        return value, None

    def _belote(self, sheet: Sheet, text: str) -> dict[int, int]:
        out: dict[int, int] = {}
        key = text.strip().lower()
        if key in _NONE:
            return out
        for part in key.replace(",", " ").split():
            _merge(out, {self._side(sheet, part): sheet.rules.belote_points})
        return out

    def _announcements(self, sheet: Sheet, text: str) -> dict[int, int]:
        out: dict[int, int] = {}
        key = text.strip()
        if key.lower() in _NONE:
            return out
        for part in key.split(","):
            words = part.split()
            if len(words) != 2:
                raise AtoutError(Message("keeper.side_then_points", text=excerpt(part)))
            _merge(out, {self._side(sheet, words[0]): _number(words[1])})
        return out

    # ------------------------------------------------------------ output
    def scores_line(self, sheet: Sheet) -> str:
        entries = sheet.entries
        marks = ", ".join(
            f"{sheet.sides[s]} {v}"
            for s, v in (entries[-1].marks if entries else {s: 0 for s in sheet.rules.sides}).items()
        )
        totals = ", ".join(f"{sheet.sides[s]} {v}" for s, v in sheet.match.scores.items())
        line = self.tr("marks", marks=marks, totals=totals)
        if entries and entries[-1].score is not None:
            line = f"{self.tr(f'outcome.{entries[-1].score.outcome}')} · {line}"
        if sheet.match.held:
            line += self.tr("held", n=sheet.match.held)
        return line

    def table(self, sheet: Sheet) -> str:
        """Every deal: its contract with who took it, made or failed, the marks; then the totals and the winner."""
        width = 10
        head = self.tr("table_head", contract=self.tr("contract"), outcome=self.tr("outcome_head"))
        rows = [head + "".join(f"{name:>{width}}" for name in sheet.sides)]
        for i, entry in enumerate(sheet.entries, start=1):
            if entry.facts is None or entry.score is None:
                contract, outcome = self.tr("passed"), ""
            else:
                contract = self._contract_words(sheet, entry.facts.contract)
                outcome = self.tr(f"outcome.{entry.score.outcome}")
            marks = "".join(f"{entry.marks[s]:>{width}}" for s in sheet.rules.sides)
            rows.append(f"{i:>3}  {_fit(contract, 44)}  {_fit(outcome, 8)}{marks}")
        totals = "".join(f"{v:>{width}}" for v in sheet.match.scores.values())
        rows.append(f"     {_fit(self.tr('totals'), 44)}  {_fit('', 8)}{totals}")
        if sheet.match.winner is not None:
            rows.append(self.tr("winner", name=sheet.sides[sheet.match.winner]))
        return "\n".join(rows)


def _fit(text: str, width: int) -> str:
    return text[: width - 1] + "…" if len(text) > width else text.ljust(width)


def _merge(into: dict[int, int], more: dict[int, int]) -> None:
    for side, points in more.items():
        into[side] = into.get(side, 0) + points


def _choice(text: str, count: int) -> int:
    number = _number(text)
    if not 1 <= number <= count:
        raise AtoutError(Message("keeper.choice", count=count))
    return number


def _level(text: str) -> int:
    key = text.strip().lower()
    if key in ("", "non", "no", "0", "-"):
        return 0
    if key in ("x", "coinche", "coinché", "contre", "1"):
        return 1
    if key in ("xx", "surcoinche", "surcoinché", "surcontre", "2"):
        return 2
    raise AtoutError(Message("keeper.level", text=excerpt(text)))


def _number(text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise AtoutError(Message("keeper.not_a_number", text=excerpt(text))) from None
    if value < 0:
        raise AtoutError(Message("keeper.negative"))
    return value
