"""``atout score``: keep the score of a game played with real cards.

Each deal is asked question by question (contract, takers, coinche, points, belote,
announcements), or typed on one line: ``90H Nous 102 x belote=Nous annonces=Nous:50``.
The marks, the totals and the winner come from the ruleset's own scoring. Commands
at the contract's question: ``annuler`` (undo the last deal), ``corriger`` (enter
the last deal again), ``scores``, ``aide``, ``quitter``. Sheets live in SQLite in
the user's data directory and can be listed, resumed and exported as CSV or JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from functools import partial
from typing import Literal, TypeVar

from atout.actions import Bid, parse_call, parse_strain
from atout.auction import Contract
from atout.errors import AtoutError
from atout.rules import Ruleset
from atout.scorebook import ScoreBook, Sheet
from atout.scoring import DealFacts, check_contract

_T: dict[str, tuple[str, str]] = {
    "contract_q": (
        "Donne {n} — contrat (90H, 100 coeur, capot pique), « passe » si personne n'a pris, ou « aide » : ",
        "Deal {n} — contract (90H, 100 hearts, capot spades), 'pass' if nobody took, or 'help': ",
    ),
    "trump_q": (
        "Donne {n} — atout (pique, coeur, carreau, trèfle), « passe » si personne n'a pris, ou « aide » : ",
        "Deal {n} — trump (spades, hearts, diamonds, clubs), 'pass' if nobody took, or 'help': ",
    ),
    "takers_q": ("Preneurs ({names}) : ", "Takers ({names}): "),
    "coinche_q": ("Coinche ? (non, coinche, surcoinche) [non] : ", "Doubled? (no, coinche, surcoinche) [no]: "),
    "points_q": (
        "Points des preneurs (0 à {total}), ou « capot » / « capot défense » : ",
        "Takers' card points (0 to {total}), or 'capot' / 'capot defence': ",
    ),
    "points_each_q": ("Points de {name} : ", "{name}'s card points: "),
    "belote_q": ("Belote ? (personne, {names}) [personne] : ", "Belote? (nobody, {names}) [nobody]: "),
    "ann_q": (
        "Annonces ? (« {a} 50 », « {b} 70 ») [aucune] : ",
        "Announcements? ('{a} 50', '{b} 70') [none]: ",
    ),
    "marks": ("Marques : {marks} · Totaux : {totals}", "Marks: {marks} · Totals: {totals}"),
    "held": (" · {n} points en litige", " · {n} points held (litige)"),
    "winner": ("Partie gagnée par {name} !", "{name} win the game!"),
    "undone": ("Dernière donne annulée.", "Last deal undone."),
    "nothing": ("Aucune donne.", "No deal yet."),
    "error": ("Saisie refusée : {why}", "Entry refused: {why}"),
    "saved": ("(Feuille n° {id} enregistrée.)", "(Sheet #{id} saved.)"),
    "outcome": ("{label}: {outcome}", "{label}: {outcome}"),
    "help": (
        "Une donne : répondez aux questions, ou tapez-la sur une ligne : 90H Nous 102 x belote=Nous "
        "annonces=Nous:50 (capot : « capot » ou « capot-defense »).\n"
        "Commandes : annuler, corriger, scores, quitter.",
        "A deal: answer the questions, or type it on one line: 90H Us 102 x belote=Us announcements=Us:50 "
        "(capot: 'capot' or 'capot-defence').\nCommands: undo, edit, scores, quit.",
    ),
}
OUTCOMES = {"made": ("réussi", "made"), "chute": ("chuté", "failed"), "litige": ("litige", "tie (litige)")}
T = TypeVar("T")
_UNDO = ("annuler", "undo")
_EDIT = ("corriger", "edit")
_SCORES = ("scores", "tableau", "table")
_QUIT = ("quitter", "quit", "q", "exit")
_HELP = ("aide", "help", "?")
_PASS = ("passe", "pass", "p", "personne", "nobody")


class _Refused(Enum):
    """An answer the keeper refused (it said why); nothing is recorded."""

    REFUSED = 0


def tr(key: str, lang: str, **values: object) -> str:
    fr, en = _T[key]
    return (fr if lang == "fr" else en).format(**values)


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

    def run(self) -> None:
        self.say(self.scores_line(self.sheet))
        while True:
            sheet = self.sheet
            if sheet.match.finished:
                self.say(tr("winner", self.lang, name=sheet.sides[sheet.match.winner or 0]))
                return
            try:
                line = self.ask(self._first_question(sheet)).strip()
            except EOFError:
                return
            word = line.lower()
            if word in _QUIT:
                self.say(tr("saved", self.lang, id=self.sheet_id))
                return
            if word in _HELP:
                self.say(tr("help", self.lang))
            elif word in _SCORES:
                self.say(self.table(sheet))
            elif word in _UNDO:
                self._guard(lambda: self.book.undo(self.sheet_id), tr("undone", self.lang))
            elif word in _EDIT:
                if not sheet.entries:
                    self.say(tr("nothing", self.lang))
                    continue
                edited = self._deal(sheet, self.ask(self._first_question(sheet, len(sheet.entries))).strip())
                if edited is not _Refused.REFUSED:
                    self._guard(partial(self.book.replace_last, self.sheet_id, edited), None)
            elif line:
                added = self._deal(sheet, line)
                if added is not _Refused.REFUSED:
                    self._guard(partial(self.book.add, self.sheet_id, added), None)

    def _guard(self, change: Callable[[], object], done: str | None) -> None:
        try:
            change()
        except AtoutError as err:
            self.say(tr("error", self.lang, why=err.message(self.lang)))
            return
        if done:
            self.say(done)
        self.say(self.scores_line(self.sheet))

    def _first_question(self, sheet: Sheet, number: int | None = None) -> str:
        n = number if number is not None else len(sheet.entries) + 1
        key = "trump_q" if sheet.rules.auction == "retourne" else "contract_q"
        return tr(key, self.lang, n=n)

    # ------------------------------------------------------------ entry
    def _deal(self, sheet: Sheet, first: str) -> DealFacts | Literal[_Refused.REFUSED] | None:
        """The facts of a deal (None: passed out) from its first answer and more questions."""
        rules = sheet.rules
        if first.lower() in _PASS:
            return None
        tokens = first.split()
        # The contract is one token (90H) or two (100 coeur, capot pique); what follows is the one-line form.
        size = 2 if len(tokens) >= 2 and _is_bid_words(" ".join(tokens[:2])) else 1
        try:
            text = " ".join(tokens[:size])
            if rules.auction == "retourne":
                contract = Contract(0, parse_strain(text), 0)
            else:
                call = parse_call(text)
                if not isinstance(call, Bid):
                    raise AtoutError(
                        f"« {text} » n'est pas un contrat" if self.lang == "fr" else f"'{text}' is not a contract"
                    )
                contract = Contract(call.value, call.strain, 0, 0, call.capot)
            check_contract(rules, contract)
            if len(tokens) > size:
                return self._one_line(sheet, contract, tokens[size:])
            return self._questions(sheet, contract)
        except AtoutError as err:
            self.say(tr("error", self.lang, why=err.message(self.lang)))
            return _Refused.REFUSED
        except (ValueError, IndexError) as err:
            self.say(tr("error", self.lang, why=err))
            return _Refused.REFUSED

    def _questions(self, sheet: Sheet, contract: Contract) -> DealFacts:
        rules, lang = sheet.rules, self.lang
        names = "/".join(sheet.sides)
        taker = self._ask_until(tr("takers_q", lang, names=names), lambda a: self._side(sheet, a))
        level = 0
        if rules.coinche:
            level = self._ask_until(tr("coinche_q", lang), _level)
        contract = Contract(contract.value, contract.strain, taker, level, contract.capot)
        if len(rules.sides) == 2 and rules.whole_deck:
            points, capot = self._ask_until(tr("points_q", lang, total=162), lambda a: self._points(sheet, a, taker))
            card = (
                {taker: points, 1 - taker: 162 - points} if capot is None else {capot: rules.capot_points, 1 - capot: 0}
            )
        else:  # each side's points (three players; two, who play 18 of the 32 cards): a capot is its points
            card = {s: self._ask_until(tr("points_each_q", lang, name=sheet.sides[s]), _number) for s in rules.sides}
            capot = next((s for s, v in card.items() if v >= rules.capot_points), None)
        belote: dict[int, int] = {}
        if rules.belote:
            belote = self._ask_until(tr("belote_q", lang, names=names), lambda a: self._belote(sheet, a))
        announcements: dict[int, int] = {}
        if rules.announcements:
            announcements = self._ask_until(
                tr("ann_q", lang, a=sheet.sides[0], b=sheet.sides[-1]), lambda a: self._announcements(sheet, a)
            )
        return DealFacts(contract, card, belote, announcements, capot)

    def _one_line(self, sheet: Sheet, contract: Contract, tokens: list[str]) -> DealFacts:
        rules = sheet.rules
        if len(rules.sides) != 2 or not rules.whole_deck:
            raise AtoutError(
                "tapez la donne question par question ici"
                if self.lang == "fr"
                else "enter this deal question by question"
            )
        taker = self._side(sheet, tokens[0])
        level = 0
        belote: dict[int, int] = {}
        announcements: dict[int, int] = {}
        points_token = tokens[1] if len(tokens) > 1 else ""
        for token in tokens[2:]:
            key, _, value = token.partition("=")
            if token.lower() in ("x", "xx", "coinche", "surcoinche"):
                level = _level(token)
            elif key.lower() == "belote":
                belote = self._belote(sheet, value.replace(":", " "))
            elif key.lower() in ("annonces", "announcements", "ann"):
                announcements = self._announcements(sheet, value.replace(":", " "))
            else:
                raise AtoutError(f"« {token} » ?" if self.lang == "fr" else f"'{token}'?")
        points, capot = self._points(sheet, points_token, taker)
        card = {taker: points, 1 - taker: 162 - points} if capot is None else {capot: rules.capot_points, 1 - capot: 0}
        contract = Contract(contract.value, contract.strain, taker, level, contract.capot)
        return DealFacts(contract, card, belote, announcements, capot)

    def _ask_until(self, question: str, parse: Callable[[str], T]) -> T:
        """Ask again until the answer parses (a bad answer says why)."""
        while True:
            answer = self.ask(question).strip()
            try:
                return parse(answer)
            except AtoutError as err:
                self.say(tr("error", self.lang, why=err.message(self.lang)))
            except ValueError as err:
                self.say(tr("error", self.lang, why=err))

    def _side(self, sheet: Sheet, text: str) -> int:
        key = text.strip().lower()
        for i, name in enumerate(sheet.sides):
            if key == name.lower():
                return i
        from atout.notation import parse_seat

        try:
            return sheet.rules.side_of(parse_seat(sheet.rules, text))
        except AtoutError:
            names = ", ".join(sheet.sides)
            raise AtoutError(
                f"« {text} » n'est pas un camp ({names})" if self.lang == "fr" else f"'{text}' is not a side ({names})"
            ) from None

    def _points(self, sheet: Sheet, text: str, taker: int) -> tuple[int, int | None]:
        key = text.strip().lower().replace("é", "e")
        if key in ("capot", "capot preneurs", "capot takers"):
            return sheet.rules.capot_points, taker
        if key.startswith("capot"):
            return 0, 1 - taker
        value = _number(text)
        if value > 162:
            raise AtoutError("162 au plus (ou « capot »)" if self.lang == "fr" else "at most 162 (or 'capot')")
        return value, None

    def _belote(self, sheet: Sheet, text: str) -> dict[int, int]:
        out: dict[int, int] = {}
        key = text.strip().lower()
        if key in ("", "personne", "nobody", "non", "no", "-"):
            return out
        for part in key.replace(",", " ").split():
            side = self._side(sheet, part)
            out[side] = out.get(side, 0) + sheet.rules.belote_points
        return out

    def _announcements(self, sheet: Sheet, text: str) -> dict[int, int]:
        out: dict[int, int] = {}
        key = text.strip()
        if key.lower() in ("", "aucune", "none", "non", "no", "-"):
            return out
        for part in key.split(","):
            words = part.split()
            if len(words) != 2:
                raise AtoutError(
                    f"« {part.strip()} » : camp puis points"
                    if self.lang == "fr"
                    else f"'{part.strip()}': side then points"
                )
            side = self._side(sheet, words[0])
            out[side] = out.get(side, 0) + _number(words[1])
        return out

    # ------------------------------------------------------------ output
    def scores_line(self, sheet: Sheet) -> str:
        lang = self.lang
        entries = sheet.entries
        marks = ", ".join(
            f"{sheet.sides[s]} {v}"
            for s, v in (entries[-1].marks if entries else {s: 0 for s in sheet.rules.sides}).items()
        )
        totals = ", ".join(f"{sheet.sides[s]} {v}" for s, v in sheet.match.scores.items())
        line = tr("marks", lang, marks=marks, totals=totals)
        if entries and entries[-1].score is not None:
            outcome = OUTCOMES[entries[-1].score.outcome][0 if lang == "fr" else 1]
            line = f"{outcome} · {line}"
        if sheet.match.held:
            line += tr("held", lang, n=sheet.match.held)
        return line

    def table(self, sheet: Sheet) -> str:
        rows = ["    " + "".join(f"{name:>10}" for name in sheet.sides)]
        for i, entry in enumerate(sheet.entries, start=1):
            label = (
                entry.facts.contract.label(self.lang) if entry.facts else ("passe" if self.lang == "fr" else "passed")
            )
            rows.append(f"{i:>3} " + "".join(f"{entry.marks[s]:>10}" for s in sheet.rules.sides) + f"   {label}")
        rows.append("    " + "".join(f"{v:>10}" for v in sheet.match.scores.values()))
        return "\n".join(rows)


def _is_bid_words(text: str) -> bool:
    """« 100 coeur », « capot pique »: a contract spelled in two words, nothing more."""
    words = text.split()
    if len(words) != 2:
        return False
    try:
        parse_strain(words[1])
    except AtoutError:
        return False
    return words[0].isdigit() or words[0].lower() == "capot"


def _level(text: str) -> int:
    key = text.strip().lower()
    if key in ("", "non", "no", "0", "-"):
        return 0
    if key in ("x", "coinche", "coinché", "contre", "1"):
        return 1
    if key in ("xx", "surcoinche", "surcoinché", "surcontre", "2"):
        return 2
    raise AtoutError(f"« {text} » : non, coinche ou surcoinche")


def _number(text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise AtoutError(f"« {text} » n'est pas un nombre") from None
    if value < 0:
        raise AtoutError("un nombre positif")
    return value


def new_sheet(book: ScoreBook, rules: Ruleset, name: str, sides: list[str] | None) -> int:
    return book.create(rules, name, sides).id
