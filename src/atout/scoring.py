"""Scoring a deal from its facts: one function for played deals and for the score keeper.

The facts are what a score keeper types after a deal played with real cards: the
contract (with who took and the coinche level), the card points each side took
(dix de der included, capot already counted), the belotes and the announcements
each side scores. :func:`score_deal` applies the ruleset's formula:

* ``ffb`` (FFB coinche §10.1): made → takers their total + the contract,
  defence its total; coinched made → takers (160 or 250 on capot + announcements
  of both sides + their belote + contract) × 2 or × 4; chute → defence 160 +
  announcements of both sides + its belote + contract, × 2 or × 4 if coinched;
  capot by the takers takes the defence's announcements; belote imprenable.
* contrée (FunBelote, *Belote contrée*): ``faits_annonces``, ``faits`` and ``annonces``.
* ``classique``: each side scores its own total; a fall gives everything to the
  defence (162 and the announcements); bazar multiplies by the contre.

Rounding never makes a contract: made or failed is decided on the raw totals.
:meth:`DealFacts.check` refuses facts no real deal can give (the score keeper's typos).

>>> from atout.auction import Contract
>>> from atout.rules import Ruleset
>>> rules = Ruleset.preset("coinche")
>>> facts = DealFacts.from_takers_points(rules, Contract(80, 1, taker=0), takers_points=95)
>>> score = score_deal(rules, facts)
>>> score.outcome, score.marks        # 95 + 80 = 175 → 180; 67 → 70 (FFB §10.2)
('made', {0: 180, 1: 70})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from atout.actions import Bid
from atout.announcements import possible_totals
from atout.auction import Contract, bid_error, is_bid
from atout.cards import deck_mask
from atout.errors import AtoutError, FactsError, excerpt
from atout.i18n import Message, tr
from atout.notation import seat_words
from atout.rules import Ruleset
from atout.tables import DIX_DE_DER, SANS_ATOUT, TOUT_ATOUT, play_mode

MADE, CHUTE, LITIGE = "made", "chute", "litige"
#: The card points of a whole deck's deal without capot, dix de der included (FFB §9).
DEAL_POINTS = 162


@dataclass(frozen=True)
class DealFacts:
    """The facts of a finished deal, by scoring side.

    ``card_points`` include the dix de der; a side that took every trick has
    ``rules.capot_points`` and is named in ``capot``.
    """

    contract: Contract
    card_points: Mapping[int, int]
    belote: Mapping[int, int] = field(default_factory=dict)
    announcements: Mapping[int, int] = field(default_factory=dict)
    capot: int | None = None
    tricks: Mapping[int, int] | None = None

    @classmethod
    def from_takers_points(
        cls,
        rules: Ruleset,
        contract: Contract,
        takers_points: int | None = None,
        *,
        capot: str | None = None,
        belote: Mapping[int, int] | None = None,
        announcements: Mapping[int, int] | None = None,
    ) -> DealFacts:
        """Facts of a two-sided deal from the takers' card points (score keeper form).

        ``capot`` is ``"takers"`` or ``"defence"`` when one side took every trick
        (then ``takers_points`` is not needed). The defence gets the rest of 162, so
        the whole deck must be played: with three players, or two (who play 18 of
        the 32 cards), give each side's points to the class itself.

        >>> rules = Ruleset.preset("coinche")
        >>> DealFacts.from_takers_points(rules, Contract(0, 0, 1, capot=True), capot="takers").card_points
        {1: 252, 0: 0}
        """
        if len(rules.sides) != 2:
            raise _facts("each_side", "each_player")
        if not rules.whole_deck:
            raise _facts("each_side", played=rules.players * rules.hand_size, deck=rules.deck_size)
        takers = rules.side_of(contract.taker)
        defence = 1 - takers
        total = DEAL_POINTS
        capot_side = None
        if capot is not None:
            if capot not in ("takers", "defence"):
                raise AtoutError(Message("scoring.capot", value=excerpt(repr(capot))))
            capot_side = takers if capot == "takers" else defence
            points = {capot_side: rules.capot_points, 1 - capot_side: 0}
        else:
            if takers_points is None:
                raise AtoutError(Message("scoring.no_points"))
            if isinstance(takers_points, bool) or not isinstance(takers_points, int):
                raise AtoutError(Message("scoring.points", value=excerpt(repr(takers_points))))
            if not 0 <= takers_points <= total:
                raise AtoutError(Message("scoring.points_range", total=total, value=takers_points))
            points = {takers: takers_points, defence: total - takers_points}
        facts = cls(contract, points, dict(belote or {}), dict(announcements or {}), capot_side)
        facts.check(rules)
        return facts

    def to_dict(self) -> dict[str, Any]:
        """The facts as JSON-ready data (sides as string keys); :meth:`from_dict` reads them back."""
        c = self.contract
        return {
            "contract": {"value": c.value, "strain": c.strain, "taker": c.taker, "level": c.level, "capot": c.capot},
            "card_points": {str(k): v for k, v in self.card_points.items()},
            "belote": {str(k): v for k, v in self.belote.items()},
            "announcements": {str(k): v for k, v in self.announcements.items()},
            "capot": self.capot,
            "tricks": None if self.tricks is None else {str(k): v for k, v in self.tricks.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealFacts:
        """Facts from :meth:`to_dict`'s data; :class:`AtoutError` names what is corrupt.

        >>> facts = DealFacts(Contract(80, 0, 1), {0: 100, 1: 62})
        >>> DealFacts.from_dict(facts.to_dict()) == facts
        True
        """
        try:
            c = data["contract"]
            contract = Contract(int(c["value"]), int(c["strain"]), int(c["taker"]), int(c["level"]), bool(c["capot"]))
            capot, tricks = data.get("capot"), data.get("tricks")
            return cls(
                contract,
                {int(k): int(v) for k, v in data["card_points"].items()},
                {int(k): int(v) for k, v in data.get("belote", {}).items()},
                {int(k): int(v) for k, v in data.get("announcements", {}).items()},
                None if capot is None else int(capot),
                None if tricks is None else {int(k): int(v) for k, v in tricks.items()},
            )
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise AtoutError(Message("scoring.corrupt", reason=excerpt(repr(err)))) from None

    def check(self, rules: Ruleset, names: Sequence[str] | None = None) -> None:
        """Raise :class:`~atout.errors.FactsError` (in French and English) if the facts cannot
        happen in a deal of ``rules``: their form, the contract, card points, belotes, announcements.
        ``names``: the sides' names the reason gives when each plays for himself (else his seat's).

        >>> rules = Ruleset.preset("contree")
        >>> try:
        ...     DealFacts(Contract(80, 4, 0), {0: 100, 1: 62}, belote={0: 20}).check(rules)
        ... except FactsError as err:
        ...     err.code, err.message("en")
        ('belote', 'no belote at sans atout: there is no trump (FFB §11.2)')
        """
        self.check_form(rules)
        check_contract(rules, self.contract)
        _check_card_points(rules, self, names)
        _check_belote(rules, self, names)
        _check_announcements(rules, self, names)

    def check_form(self, rules: Ruleset) -> None:
        """Raise :class:`~atout.errors.FactsError` unless every value has the right type and names a
        side, a seat or a coinche level of ``rules`` (all a stored score sheet is checked for again)."""
        sides = set(rules.sides)
        tables = [
            ("table_card_points", self.card_points),
            ("table_belote", self.belote),
            ("table_announcements", self.announcements),
        ]
        if self.tricks is not None:
            tables.append(("table_tricks", self.tricks))
        for key, table in tables:
            what = Message(f"facts.{key}")
            unknown = sorted(set(table) - sides)
            if unknown:
                raise _facts("side", "unknown_side", what=what, unknown=unknown, sides=sorted(sides))
            for side, value in table.items():
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise _facts("number", what=what, side=side, value=excerpt(repr(value)))
        if not 0 <= self.contract.taker < rules.players:
            raise _facts("taker", last=rules.players - 1, value=self.contract.taker)
        if self.contract.level not in (0, 1, 2):
            raise _facts("level", value=self.contract.level)
        if self.capot is not None and self.capot not in sides:
            raise _facts("side", "capot_side", value=self.capot)


def check_contract(rules: Ruleset, contract: Contract) -> None:
    """Raise :class:`~atout.errors.FactsError` unless ``contract`` is one the auction of ``rules`` can end on.

    >>> check_contract(Ruleset.preset("coinche"), Contract(200, 1, 0))    # FFB §4.1 sets no ceiling
    >>> try:
    ...     check_contract(Ruleset.preset("contree"), Contract(200, 1, 0))    # « de 80 à 160 »
    ... except FactsError as err:
    ...     err.message("en")
    'invalid bid: 80 to 160 in steps of 10'
    """
    if rules.auction == "retourne":
        if contract.value or contract.capot or contract.strain not in range(4):
            raise _facts("bad_bid", "take_no_value")
    else:
        bid = Bid(contract.value, contract.strain, contract.capot)
        if not is_bid(rules, bid):
            err = bid_error(rules, bid)
            raise FactsError(err.reason, code=err.code)
    if contract.level and not rules.coinche:
        raise _facts("no_coinche")
    if contract.level == 2 and not rules.surcoinche:
        raise _facts("no_coinche", "no_surcoinche")


def _facts(code: str, key: str | None = None, **values: object) -> FactsError:
    """Facts that cannot happen: the reason (``facts.<key>``, the code by default) and its code."""
    return FactsError(Message(f"facts.{key or code}", **values), code=code)


def _who(rules: Ruleset, facts: DealFacts, side: int, names: Sequence[str] | None = None) -> Message:
    """Who the facts are wrong about: the takers or the defence (a player, or a seat, with two or three)."""
    takers = side == rules.side_of(facts.contract.taker)
    if rules.partnerships:
        return Message("facts.takers" if takers else "facts.defence")
    role = Message("facts.role_taker" if takers else "facts.role_defence")
    name = names[side] if names is not None else seat_words(rules, side)
    return Message("facts.player", name=name, role=role)


def _check_card_points(rules: Ruleset, facts: DealFacts, names: Sequence[str] | None = None) -> None:
    points = {s: facts.card_points.get(s, 0) for s in rules.sides}
    tricks = facts.tricks
    if facts.capot is not None:
        if points[facts.capot] != rules.capot_points or any(points[s] for s in rules.sides if s != facts.capot):
            who = _who(rules, facts, facts.capot, names)
            raise _facts("card_points", "capot_points", who=who, points=rules.capot_points)
    else:
        sums = _trick_sums(rules, facts.contract.strain)
        for side, value in points.items():
            who = _who(rules, facts, side, names)
            if value > DEAL_POINTS:
                raise _facts("card_points", "above_deal", who=who, value=value, deal=DEAL_POINTS)
            if value not in sums and value - DIX_DE_DER not in sums:
                raise _facts("card_points", "no_tricks_worth", who=who, value=value)
        total = sum(points.values())
        if rules.whole_deck and total != DEAL_POINTS:
            raise _facts("card_points", "deal_total", deal=DEAL_POINTS, total=total)
        played = _played_sums(rules, facts.contract.strain)
        if not rules.whole_deck and total - DIX_DE_DER not in played:
            low, high = min(played) + DIX_DE_DER, max(played) + DIX_DE_DER
            cards = rules.players * rules.hand_size
            raise _facts("card_points", "played_total", cards=cards, low=low, high=high, total=total)
    if tricks is not None:
        if sum(tricks.values()) != rules.tricks:
            raise _facts("tricks", "trick_count", tricks=rules.tricks, value=sum(tricks.values()))
        for side in rules.sides:
            took = tricks.get(side, 0)
            who = _who(rules, facts, side, names)
            if (took == rules.tricks) != (facts.capot == side):
                raise _facts("tricks", "capot_tricks", who=who, took=took, tricks=rules.tricks)
            if not took and points[side]:
                raise _facts("tricks", "no_trick_points", who=who, value=points[side])


@cache
def _sums_by_count(short_deck: bool, strain: int, ta_values: str) -> tuple[frozenset[int], ...]:
    """For each number of cards, every sum of card values that many cards of the deck can hold."""
    mode = play_mode(strain, ta_values)
    sums: list[set[int]] = [{0}]
    for card in range(32):
        if deck_mask(short_deck) >> card & 1:
            sums.append(set())
            for count in range(len(sums) - 1, 0, -1):
                sums[count] |= {s + mode.points[card] for s in sums[count - 1]}
    return tuple(frozenset(s) for s in sums)


def _trick_sums(rules: Ruleset, strain: int) -> frozenset[int]:
    """Every sum of card values a set of tricks can hold (dix de der apart): whole tricks of cards."""
    by_count = _sums_by_count(rules.short_deck, strain, rules.ta_values)
    played = rules.players * rules.hand_size
    return frozenset().union(*(by_count[count] for count in range(0, played + 1, rules.players)))


def _played_sums(rules: Ruleset, strain: int) -> frozenset[int]:
    """Every sum of card values the cards played in a deal can hold (two players leave a stock aside)."""
    return _sums_by_count(rules.short_deck, strain, rules.ta_values)[rules.players * rules.hand_size]


def _check_belote(rules: Ruleset, facts: DealFacts, names: Sequence[str] | None = None) -> None:
    held = {s: v for s, v in facts.belote.items() if v}
    if not held:
        return
    if not rules.belote or not rules.belote_points:
        raise _facts("belote", "no_belote")
    for side, value in held.items():
        if value % rules.belote_points:
            who = _who(rules, facts, side, names)
            raise _facts("belote", "belote_value", who=who, points=rules.belote_points, value=value)
    strain = facts.contract.strain
    if strain == SANS_ATOUT:
        raise _facts("belote", "belote_sans_atout")
    count = sum(held.values()) // rules.belote_points
    if strain == TOUT_ATOUT and count > 4:
        raise _facts("belote", "belotes_tout_atout", count=count)
    if strain != TOUT_ATOUT and count > 1:
        raise _facts("belote", "belotes_one", count=count)


def _check_announcements(rules: Ruleset, facts: DealFacts, names: Sequence[str] | None = None) -> None:
    shown = {s: v for s, v in facts.announcements.items() if v}
    if not shown:
        return
    if not rules.announcements:
        raise _facts("no_announcements")
    if len(shown) > 1:
        raise _facts("announcements", "one_side_announces")
    hands = rules.players // len(rules.sides)
    totals = possible_totals(
        facts.contract.strain,
        rules.announcement_values,
        hands=hands,
        hand_size=rules.hand_size,
        short_deck=rules.short_deck,
    )
    for side, value in shown.items():
        if value in totals:
            continue
        below = max((t for t in totals if t < value), default=None)
        above = min((t for t in totals if t > value), default=None)
        near: object = below if above is None else above if below is None else Message("facts.or", a=below, b=above)
        who = _who(rules, facts, side, names)
        cards = hands * rules.hand_size
        raise _facts("announcements", "announcement_total", who=who, cards=cards, value=value, near=near)


@dataclass(frozen=True)
class ScoreTerm:
    """One of the amounts a multiplied score line adds up (the fall's 160, the announcements...)."""

    #: Its name: a key of the catalogue's ``score`` section.
    key: str
    points: int

    def label(self, lang: str | None = None) -> str:
        """Its name in ``lang`` (by default the current language)."""
        return tr(f"score.{self.key}", lang)


@dataclass(frozen=True)
class ScoreLine:
    """One term of a deal's score, for the deal summary; a deal's lines add up to its marks.

    A line that is a sum multiplied (a coinched contract) gives its ``parts`` and ``factor``:
    ``points == sum(part.points for part in parts) * factor``. The last lines of a side may be
    its rounding (``rounding``).
    """

    side: int
    #: Its name: a key of the catalogue's ``score`` section, which ``values`` fill in.
    key: str
    points: int
    factor: int = 1
    parts: tuple[ScoreTerm, ...] = ()
    rounding: bool = False
    values: tuple[tuple[str, int], ...] = ()

    def label(self, lang: str | None = None) -> str:
        """Its name in ``lang`` (by default the current language), with ``× factor`` when it multiplies.

        >>> ScoreLine(1, "failed", 520, 2).label("fr"), ScoreLine(1, "failed", 520, 2).label("en")
        ('Chute × 2', 'contract failed × 2')
        """
        name = tr(f"score.{self.key}", lang, **dict(self.values))
        return f"{name} × {self.factor}" if self.factor > 1 else name


@dataclass(frozen=True)
class DealScore:
    """A scored deal: outcome, each side's totals for the contract and its marks."""

    outcome: str
    takers: int
    totals: dict[int, int]
    marks: dict[int, int]
    held: int = 0
    capot: int | None = None
    belote_only: frozenset[int] = frozenset()
    lines: tuple[ScoreLine, ...] = ()

    @property
    def made(self) -> bool:
        return self.outcome == MADE


def _multiplier(rules: Ruleset, level: int) -> int:
    return (1, rules.coinche_multiplier, rules.surcoinche_multiplier)[level]


def score_deal(rules: Ruleset, facts: DealFacts, *, check: bool = True) -> DealScore:
    """Score one deal under ``rules`` (see the module's doc for the formulas).

    ``check=False`` skips validating the facts (for facts the engine itself built).
    """
    if check:
        facts.check(rules)
    return _Scorer(rules, facts).run()


class _Scorer:
    def __init__(self, rules: Ruleset, facts: DealFacts) -> None:
        self.rules = rules
        self.facts = facts
        self.contract = facts.contract
        self.sides = rules.sides
        self.takers = rules.side_of(facts.contract.taker)
        self.defence = [s for s in self.sides if s != self.takers]
        self.card = {s: facts.card_points.get(s, 0) for s in self.sides}
        if rules.rounding == "dizaines":
            self.card = _dizaines(self.card, self.takers)
        self.belote = {s: facts.belote.get(s, 0) for s in self.sides}
        self.ann = {s: facts.announcements.get(s, 0) for s in self.sides}
        self.totals = {s: self.card[s] + self.belote[s] + self.ann[s] for s in self.sides}
        self.marks = {s: 0 for s in self.sides}
        self.lines: list[ScoreLine] = []
        self.mult = _multiplier(rules, facts.contract.level)
        c = facts.contract
        self.amount = rules.capot_contract if c.capot and not c.value else c.value

    def add(
        self,
        side: int,
        points: int,
        key: str,
        factor: int = 1,
        parts: Sequence[ScoreTerm] = (),
        values: tuple[tuple[str, int], ...] = (),
    ) -> None:
        if points:
            self.marks[side] += points
            self.lines.append(ScoreLine(side, key, points, factor, tuple(p for p in parts if p.points), values=values))

    def product(self, side: int, parts: Sequence[ScoreTerm], factor: int, key: str) -> None:
        """Add the sum of ``parts`` times ``factor`` as one line (labelled ``× factor`` when it is above 1)."""
        total = sum(p.points for p in parts) * factor
        self.add(side, total, key, factor, parts)

    def outcome(self) -> str:
        rules, c, t = self.rules, self.contract, self.takers
        counted = self.card if rules.goal_points == "cards" else self.totals
        total = counted[t]
        goal = max(c.value, rules.min_points)
        reached = total >= goal and (not c.capot or self.facts.capot == t)
        if len(self.defence) > 1 and rules.three_player_goal == "each":
            opposing = max(counted[d] for d in self.defence)
        else:
            opposing = sum(counted[d] for d in self.defence)
        if not reached:
            return CHUTE
        if not rules.must_beat_defence or total > opposing:
            return MADE
        if total == opposing:
            if rules.litige != "off" and c.level == 0:
                return LITIGE
            return MADE if rules.tie == "made" else CHUTE
        return CHUTE

    def run(self) -> DealScore:
        outcome = self.outcome()
        held = 0
        if outcome == LITIGE:
            for d in self.defence:
                self._side_points(d)
            held = self.rules.round_marks(self.totals[self.takers])
        else:
            getattr(self, "_" + self.rules.scoring)(outcome == MADE)
        rounded = {s: self._round(v) for s, v in self.marks.items()}
        for side, value in rounded.items():
            if value != self.marks[side]:
                self.lines.append(ScoreLine(side, "rounding", value - self.marks[side], rounding=True))
        losers = set()
        if outcome != MADE:
            losers.add(self.takers)
        if self.facts.capot is not None:
            losers.update(s for s in self.sides if s != self.facts.capot)
        belote_only = frozenset(s for s in losers if rounded[s] > 0)
        return DealScore(
            outcome, self.takers, dict(self.totals), rounded, held, self.facts.capot, belote_only, tuple(self.lines)
        )

    def _round(self, points: int) -> int:
        return points if self.rules.rounding != "nearest" else self.rules.round_marks(points)

    # ----------------------------------------------------------- shared terms
    def _side_points(self, side: int, belote: bool = True) -> None:
        self.add(side, self.card[side], "card_points")
        if belote:
            self.add(side, self.belote[side], "belote")
        self.add(side, self.ann[side], "announcements")

    def _belotes_to(self, winner: int) -> None:
        """Belote: imprenable stays with its holder, prenable goes to the deal's winner (but the
        defence's stays with it on a contract made and not coinched, with ``defence_keeps_belote``)."""
        keep = self.rules.belote_imprenable or (winner == self.takers and not self._defence_belote_taken())
        for s in self.sides:
            if self.belote[s]:
                self.add(s if keep else winner, self.belote[s], "belote")

    def _defence_belote_taken(self) -> bool:
        """Does a made contract take the defence's belote (prenable, and not kept by the defence)?"""
        rules = self.rules
        return not rules.belote_imprenable and not (rules.defence_keeps_belote and self.contract.level == 0)

    def _coinched_base(self, made: bool) -> int:
        """What a coinched contract gives its winner before the contract: ``chute_points``, or with
        ``capot_bonus = "takers"`` the capot's card points when the takers made it."""
        if made and self.rules.capot_bonus == "takers" and self.facts.capot == self.takers:
            return self.rules.capot_points
        return self.rules.chute_points

    def _scoped(self, side: int, base: Sequence[ScoreTerm], key: str) -> None:
        """Add ``base`` plus the contract, the coinche multiplier applied by ``multiplier_scope``."""
        contract = ScoreTerm("contract", self.amount)
        if self.rules.multiplier_scope == "all" or self.mult == 1:
            self.product(side, [*base, contract], self.mult, key)
        else:
            self.product(side, base, 1, key)
            self.product(side, [contract], self.mult, "contract")

    # ----------------------------------------------------------- the formulas
    def _ffb(self, made: bool) -> None:
        t, rules = self.takers, self.rules
        d = self.defence[0]
        prenable = not rules.belote_imprenable
        if made and self.contract.level == 0:
            taken = self._defence_belote_taken()
            self._side_points(t)
            self.add(t, self.amount, "contract")
            if self.facts.capot == t:
                self.add(t, self.ann[d], "opponents_announcements_capot")
                self.add(d, self.belote[d] * (not taken), "belote")
            else:
                self._side_points(d, belote=not taken)
            self.add(t, self.belote[d] * taken, "opponents_belote")
        elif made:
            first = (
                ScoreTerm("capot", rules.capot_contract)
                if self.facts.capot == t
                else ScoreTerm("deal_points", rules.chute_points)
            )
            base = [first, *self._bonuses(t, self.belote[t]), *self._bonuses(d, self.belote[d] * prenable)]
            self._scoped(t, base, "coinched_made")
            self.add(d, self.belote[d] * (not prenable), "belote")
        else:
            self.add(t, self.belote[t] * (not prenable), "belote")
            fall = ScoreTerm("fall", rules.chute_points)
            base = [fall, *self._bonuses(d, self.belote[d]), *self._bonuses(t, self.belote[t] * prenable)]
            self._scoped(d, base, "failed")

    def _bonuses(self, side: int, belote: int) -> list[ScoreTerm]:
        """A side's announcements and the belote it brings to a multiplied score."""
        if side == self.takers:
            return [
                ScoreTerm("takers_announcements", self.ann[side]),
                ScoreTerm("takers_belote", belote),
            ]
        return [
            ScoreTerm("defence_announcements", self.ann[side]),
            ScoreTerm("defence_belote", belote),
        ]

    def _winner(self, made: bool) -> int:
        return self.takers if made else self.defence[0]

    def _capot_prime(self, made: bool, prime: int, *, belotes: bool = True) -> bool:
        """A bid capot scored as a flat prime to the side that wins it, with every belote unless
        ``belotes`` is off (the method marks the contract alone). Returns True if it applied."""
        if not (self.contract.capot and prime):
            return False
        winner = self._winner(made)
        self.product(winner, [ScoreTerm("capot", prime)], self.mult, "capot")
        if belotes:
            self._belotes_to(winner)
        return True

    def _defence_capot(self) -> bool:
        """The defence took every trick of a contract that was not coinched: a capot not bid, which
        scores as a capot unless ``capot_bonus`` counts the takers' only."""
        return self.facts.capot == self.defence[0] and not self.contract.level and self.rules.capot_bonus != "takers"

    def _faits_annonces(self, made: bool) -> None:
        t, d, w = self.takers, self.defence[0], self._winner(made)
        if self._capot_prime(made, self.rules.capot_prime):
            return
        if self.contract.level:
            self._scoped(
                w,
                [ScoreTerm("deal_points", self._coinched_base(made))],
                "doubled_made" if made else "doubled_failed",
            )
        elif made:
            self.add(t, self.card[t], "card_points")
            self.add(t, self.amount, "contract")
            self.add(d, self.card[d], "card_points")
        elif self._defence_capot():  # « Le capot non demandé vaut 250 points + le contrat », whoever makes it
            self.add(d, self.card[d] + self.amount, "capot_and_contract", values=(("capot", self.card[d]),))
        else:
            fall = self.rules.chute_points
            self.add(d, fall + self.amount, "fall_and_contract", values=(("fall", fall),))
        self._belotes_to(w)

    def _faits(self, made: bool) -> None:
        t, d, w = self.takers, self.defence[0], self._winner(made)
        if self._capot_prime(made, self.rules.capot_prime):
            return
        if self.contract.level:
            self.product(
                w,
                [ScoreTerm("deal_points", self._coinched_base(made))],
                self.mult,
                "doubled",
            )
        elif made:
            self.add(t, self.card[t], "card_points")
            self.add(d, self.card[d], "card_points")
        elif self._defence_capot():  # « Le capot non demandé vaut 250 », whoever makes it
            self.add(d, self.card[d], "capot")
        else:
            self.add(d, self.rules.chute_points, "fall")
        self._belotes_to(w)

    def _annonces(self, made: bool) -> None:
        w = self._winner(made)
        if self._capot_prime(made, self.rules.capot_contract, belotes=False):
            return
        if self.contract.level:
            self.product(w, [ScoreTerm("contract", self.amount)], self.mult, "doubled_contract")
        elif made:
            self.add(w, self.amount, "contract")
        else:
            self.add(w, self.rules.chute_points, "fall")

    def _classique(self, made: bool) -> None:
        t, rules = self.takers, self.rules
        prenable = not rules.belote_imprenable
        if made:
            lose = self._defence_belote_taken()
            self.product(t, self._own(t), self.mult, "points")
            for d in self.defence:
                self._side_points(d, belote=not lose)
                self.add(t, self.belote[d] * lose, "opponents_belote")
            return
        self.add(t, self.belote[t] * (not prenable), "belote")
        # A fall passes the deal's card points, not a capot's: the takers can only take every trick and fall on a
        # bid above 250, where « sinon 162 points sont attribués à l'équipe adverse » (Belote bazar).
        card = DEAL_POINTS if self.facts.capot == t else self.card[t]
        lost = card + self.ann[t] + self.belote[t] * prenable
        share, extra = divmod(lost, len(self.defence))
        for i, d in enumerate(self.defence):
            taken = ScoreTerm("takers_points", share + (1 if i < extra else 0))
            self.product(d, [*self._own(d), taken], self.mult, "fall_all")

    def _own(self, side: int) -> list[ScoreTerm]:
        """A side's card points, belote and announcements, as terms."""
        return [
            ScoreTerm("card_points", self.card[side]),
            ScoreTerm("belote", self.belote[side]),
            ScoreTerm("announcements", self.ann[side]),
        ]


def _dizaines(card: dict[int, int], takers: int) -> dict[int, int]:
    """Classique count in tens (*Décompte en dizaines*): the lower side rounds down to its ten unless
    its last digit is 7, 8 or 9; the other side gets the rest of the rounded total (160 of
    162). Special case: takers with « 80 points (75 à 80+) », i.e. 75 to 84, split 80/80.

    >>> _dizaines({0: 64, 1: 98}, 1), _dizaines({0: 105, 1: 57}, 0), _dizaines({0: 106, 1: 56}, 0)
    ({0: 60, 1: 100}, {0: 100, 1: 60}, {0: 110, 1: 50})
    >>> _dizaines({0: 75, 1: 87}, 0)
    {0: 80, 1: 80}
    """
    total = sum(card.values()) // 10 * 10
    if total == 160 and 75 <= card[takers] <= 84:
        return {s: 80 for s in card}
    low_side = min(card, key=lambda s: (card[s], s))
    low = (card[low_side] + 3) // 10 * 10
    return {s: (low if s == low_side else total - low) for s in card}
