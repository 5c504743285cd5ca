"""``atout score``: keep the score of a game played with real cards.

Each deal is asked question by question (contract, takers, coinche, points, belote,
announcements), each answer checked as it is given, or typed on one line:
``90C Nous 102 x belote=Nous annonces=Nous:50`` (suit letters as the player's language
writes them, see :mod:`atout.cli.typed`; a letter of the other language is asked about).
The contract is said back in words before anything is recorded. The marks, the totals
and the winner come from the ruleset's own scoring. Commands at the contract's question:
``annuler`` (undo the last deal), ``corriger`` (enter the last deal again), ``scores``,
``aide``, ``quitter``. Once the game is won the keeper still takes ``annuler`` and ``corriger`` (a
sheet resumed after its last deal too): if the last deal no longer ends the game, play goes on.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from functools import partial
from typing import Literal, TypeVar

from atout.actions import Bid
from atout.auction import Contract
from atout.cli.text import bid_words, contract_text, doubling
from atout.cli.typed import Reading, letter, read_call, read_strain, read_yes, which
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
#: The partnerships by their seats' letters or names, whatever the sheet calls them (side 0 is North–South).
_PARTNERSHIPS = {"ns": 0, "nordsud": 0, "northsouth": 0, "eo": 1, "ew": 1, "estouest": 1, "eastwest": 1}


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
        sheet = self.sheet
        self.say(self.scores_line(sheet))
        self._say_winner(sheet)
        try:
            while self._turn():
                pass
        except EOFError:
            self.say("")
            self.say(self.tr("saved", id=self.sheet_id))

    def _turn(self) -> bool:
        """One answer to the contract's question and what follows; False when the keeper is done."""
        sheet = self.sheet
        over = sheet.match.finished  # only the last deal can then be undone or corrected
        line = self.ask(self.tr("over_q") if over else self._first_question(sheet)).strip()
        word = line.lower()
        if word in _QUIT or (over and not word):
            self.say(self.tr("saved", id=self.sheet_id))
            return False
        if word in _HELP:
            self.say(self.help(sheet))
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
        elif over:
            self._refuse(AtoutError(Message("keeper.over")))
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
        sheet = self.sheet
        self.say(self.scores_line(sheet))
        self._say_winner(sheet)

    def _say_winner(self, sheet: Sheet) -> None:
        if sheet.match.winner is not None:
            self.say(self.tr("winner", name=sheet.sides[sheet.match.winner]))

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
        level = self._ask_until(self.tr(f"{doubling(rules)}_q"), _level) if rules.coinche else 0
        contract = Contract(contract.value, contract.strain, taker, level, contract.capot)

        def checked(facts: DealFacts) -> DealFacts:
            facts.check(rules, sheet.sides)  # a refusal names the sheet's sides, not seats
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
            card = {s: self._ask_until(self._points_question(sheet.sides[s]), _number) for s in rules.sides}
            capot = next((s for s, v in card.items() if v >= rules.capot_points), None)
            try:
                return checked(DealFacts(contract, card, capot=capot))
            except AtoutError as err:
                self._refuse(err)

    def _points_question(self, name: str) -> str:
        """« Points de Bob », « Points d'Alice » (French elides « de » before a vowel or a mute h)."""
        return self.tr("points_each_q_elided" if elides(name) else "points_each_q", name=name)

    def _card_points(self, sheet: Sheet, contract: Contract, text: str) -> DealFacts:
        """The takers' card points (or a capot) as the facts of the deal so far."""
        rules = sheet.rules
        taker = contract.taker
        points, capot = self._points(sheet, text, taker)
        card = {taker: points, 1 - taker: 162 - points} if capot is None else {capot: rules.capot_points, 1 - capot: 0}
        return DealFacts(contract, card, capot=capot)

    def _one_line(self, sheet: Sheet, contract: Contract, tokens: list[str]) -> DealFacts:
        """``Nous 102 x belote=Nous annonces=Nous:50``: a field given twice adds up (two belotes are then refused)."""
        rules = sheet.rules
        if len(rules.sides) != 2 or not rules.whole_deck:
            raise AtoutError(Message("keeper.questions_only"))
        taker = self._side(sheet, tokens[0])
        points = tokens[1] if len(tokens) > 1 else ""
        fields = tokens[2:]
        if points.lower() == "capot" and fields and "=" not in fields[0] and _level_word(fields[0]) is None:
            points, fields = f"{points} {fields[0]}", fields[1:]  # « capot défense », « capot Eux »
        level: int | None = None
        belote: dict[int, int] = {}
        announcements: dict[int, int] = {}
        for token in fields:
            key, _, value = token.partition("=")
            if _level_word(token) is not None:
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
        facts = self._card_points(sheet, contract, points)
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
        """A side from its name on the sheet, a partnership's letters (NS, EO or EW), or a seat."""
        key = text.strip().lower()
        for i, name in enumerate(sheet.sides):
            if key == name.lower():
                return i
        letters = "".join(c for c in key if c.isalpha())
        if sheet.rules.partnerships and letters in _PARTNERSHIPS:
            return _PARTNERSHIPS[letters]
        if not key:
            raise AtoutError(Message("keeper.side_needed", sides=", ".join(sheet.sides)))
        try:
            return sheet.rules.side_of(parse_seat(sheet.rules, text))
        except AtoutError:
            raise AtoutError(Message("keeper.not_a_side", text=excerpt(text), sides=", ".join(sheet.sides))) from None

    def _points(self, sheet: Sheet, text: str, taker: int) -> tuple[int, int | None]:
        """The takers' card points, or a capot: « capot » (the takers'), « capot défense », « capot » and a side."""
        words = text.strip().replace("-", " ").split()
        if words and words[0].lower() == "capot":
            who = " ".join(words[1:])
            key = who.lower().replace("é", "e")
            if key in ("", "preneur", "preneurs", "taker", "takers"):
                return 162, taker
            if key in ("defense", "defence"):
                return 0, 1 - taker
            side = self._side(sheet, who)
            return (162, taker) if side == taker else (0, side)
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
    def help(self, sheet: Sheet) -> str:
        """What the player may type, for this sheet's rules only (no coinche, sans atout... where there is none)."""
        rules = sheet.rules
        side = sheet.sides[0]
        if len(rules.sides) == 2 and rules.whole_deck:  # the one-line form
            heart = letter(1, self.lang)
            words = [heart if rules.auction == "retourne" else f"90{heart}", side, "102"]
            if rules.coinche:
                words.append("x")
            if rules.belote:
                words.append(f"belote={side}")
            if rules.announcements:
                words.append(self.tr("help_ann", side=side))
            lines = [self.tr("help_line", example=" ".join(words))]
        else:
            lines = [self.tr("help_questions")]
        suits = [self.tr("help_suits")]
        if rules.auction != "retourne":
            suits += [
                self.tr(key) for key, has in (("help_sa", rules.sans_atout), ("help_ta", rules.tout_atout)) if has
            ]
        return "\n".join([*lines, " ".join(suits), self.tr("help_commands")])

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


def elides(name: str) -> bool:
    """Whether French elides « de » before ``name``: a vowel or a mute h (d'Alice, d'Émile, d'Hugo), a y
    sounded as a vowel (d'Yves, but de Yann).

    >>> [elides(n) for n in ("Alice", "Émile", "Hugo", "Yves", "Yann", "Bob", "NS")]
    [True, True, True, True, False, False, False]
    """
    letters = "".join(c for c in unicodedata.normalize("NFD", name.strip().lower()) if c.isalpha())
    if letters[:1] == "y":
        return letters[1:2] not in ("", *"aeiouy")
    return letters[:1] in ("a", "e", "i", "o", "u", "h")


def _level_word(text: str) -> int | None:
    """The coinche a one-line field gives (x, xx, coinche, surcoinche), or None."""
    return {"x": 1, "coinche": 1, "xx": 2, "surcoinche": 2}.get(text.lower())


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
