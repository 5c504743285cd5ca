"""Rulesets: one frozen value holds every option on which the rulebooks disagree.

A variant is a :class:`Ruleset`, never a subclass: code asks the ruleset
("may one undertrump?"), not the preset's name. Named presets give each source's
values; ``replace`` turns house rules into options; every ruleset validates on
construction and has a short stable :attr:`~Ruleset.fingerprint` that records,
arena results and saved games carry.

>>> rules = Ruleset.preset("coinche")
>>> rules.players, rules.min_bid, rules.rounding
(4, 80, 'nearest')
>>> house = rules.replace(sans_atout=True, tout_atout=True, target=2000)
>>> house.fingerprint != rules.fingerprint
True
>>> Ruleset.from_toml(house.to_toml()) == house
True
>>> try:
...     Ruleset.preset("belote")
... except RulesError as err:
...     print(err.message("en"))
unknown preset 'belote' (known: coinche, contree, contree-colver, classique, bazar, deux, trois)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from atout.announcements import possible_totals
from atout.errors import RulesError, excerpt
from atout.i18n import Message
from atout.tables import SANS_ATOUT, TOUT_ATOUT


def _opt(
    default: Any,
    doc: str,
    choices: tuple[Any, ...] | None = None,
    low: int | None = None,
    high: int | None = None,
    *,
    added: bool = False,
) -> Any:
    """An option's field; ``added`` marks an option added after fingerprints were first published
    (records and results files carry them): it enters the fingerprint only away from its default."""
    meta = {"doc": doc, "choices": choices, "low": low, "high": high, "added": added}
    return field(default=default, metadata=meta)


@dataclass(frozen=True, repr=False)
class Ruleset:
    """Every option of a belote variant. Defaults are the FFB coinche values."""

    name: str = _opt("coinche", "Label of the ruleset (the preset it came from); not part of the fingerprint.")
    # --- table and cards
    players: int = _opt(
        4, "Number of players: 4 (two partnerships 0+2 / 1+3), 3 or 2 (each for himself).", choices=(2, 3, 4)
    )
    short_deck: bool = _opt(False, "Play with 24 cards (no 7s and 8s), as the three-player form does.")
    hand_size: int = _opt(8, "Cards each player holds for the play (9 in the two-player form).", low=6, high=10)
    direction: str = _opt(
        "counterclockwise",
        "Direction of play around the table (drawing only: seats are numbered in playing order).",
        choices=("counterclockwise", "clockwise"),
    )
    # --- dealing
    packets: str = _opt(
        "3-2-3",
        "Packet pattern of the deal, e.g. 3-2-3, 3-3-2, 2-3-3; with a retourne, the "
        "pattern of the first stage (3-2, 2-3, 3-3). 'any' lets each deal pick a valid pattern.",
    )
    traditional_deal: bool = _opt(False, "Do not shuffle between deals: gather the tricks in order, cut, deal.")
    redeal: str = _opt(
        "shuffle",
        "After a deal nobody took, the next dealer deals a new shuffle ('shuffle', FFB §3) or the cards the "
        "players give back, cut and not shuffled ('recut', Classique: « les joueurs rendent leurs cartes, on "
        "recoupe et on redistribue »).",
        choices=("shuffle", "recut"),
        added=True,
    )
    cut_min: int = _opt(3, "Fewest cards in each packet of the cut (FFB §3.3).", low=1, high=10)
    # --- auction
    auction: str = _opt(
        "bids",
        "'bids': numbered bids and capot with a strain (coinche, contrée, bazar); 'retourne': "
        "take the turned card's suit, then name another (classique).",
        choices=("bids", "retourne"),
    )
    min_bid: int = _opt(80, "Lowest bid (80 FFB; 82 in some clubs).", low=20, high=500)
    max_bid: int = _opt(
        0,
        "Highest numbered bid; capot is above it. 0: no ceiling of its own (FFB §4.1 sets none), so the "
        "most a side can score: capot, belotes and announcements (Ruleset.highest_bid).",
        low=0,
        high=1000,
    )
    bid_step: int = _opt(10, "Bids go up by this step.", low=1, high=100)
    capot_bid: bool = _opt(True, "Capot may be bid.")
    capot_bid_min: int = _opt(
        0,
        "0: capot is a bid of its own, above every number (FFB). Otherwise capot is a "
        "flag on a numbered bid of at least this value (bazar: above 250).",
        low=0,
        high=1000,
    )
    sans_atout: bool = _opt(False, "Sans atout (no trump) may be bid (FFB §11).")
    tout_atout: bool = _opt(False, "Tout atout (every suit trump) may be bid (FFB §11).")
    coinche: bool = _opt(True, "An opponent may coinche (contrer) the contract: score x2.")
    surcoinche: bool = _opt(True, "The coinched side may surcoinche (surcontrer).")
    # --- card play
    overtrump_partner: bool = _opt(
        True,
        "One must go above a partner's trump too (FFB §5.2); if False, a "
        "partner holding the trick frees you from overtrumping.",
    )
    must_undertrump: bool = _opt(
        False,
        "When an opponent has overtrumped and you only hold lower trumps, you "
        "must still play one (pisser). FFB §5.2: you need not.",
    )
    undertrump_partner: bool = _opt(
        False,
        "Void in the suit led while your partner holds the trick with a trump, you may trump below him "
        "even holding other cards (« On peut également jouer atout si bon nous semble », FFB §5.2 read "
        "literally; a common house rule). Off: discard or overtrump him (§5.2's last point). Only "
        "with overtrump_partner, whose absence frees this case already.",
        added=True,
    )
    ta_values: str = _opt(
        "ffb",
        "Card values at tout atout: 'ffb' (J 13, 9 9, A 6, 10 5, K 3, Q 2) or 'funbelote' (J 14 ... Q 1).",
        choices=("ffb", "funbelote"),
    )
    # --- belote and announcements
    belote: bool = _opt(True, "King and queen of trump in one hand score belote/rebelote.")
    belote_imprenable: bool = _opt(
        True,
        "Imprenable: the belote stays with its holder whatever happens (FFB §7). "
        "Prenable: it goes to the side that wins the deal.",
    )
    belote_points: int = _opt(20, "Points of one belote.", low=0, high=100)
    belote_tolerance: bool = _opt(
        False,
        "A belote whose « rebelote » was forgotten still counts, once per side "
        "and match (FFB, Règles de la coinche, older wording).",
    )
    defence_keeps_belote: bool = _opt(
        False,
        "With a prenable belote, the defence keeps its own belote when the contract is made and not "
        "coinched (each side scores its own points); a fall or a coinche still gives every belote to "
        "the side that wins the deal. Off: the winner of the deal takes every belote. An imprenable belote "
        "stays with its holder either way.",
        added=True,
    )
    announcements: bool = _opt(True, "Tierce, cinquante, cent and carrés are announced (FFB §8).")
    announcement_values: str = _opt(
        "ffb",
        "Value table of announcements: 'ffb' or 'bazar' (carré of 9 = 140, carré of A at sans atout = 190).",
        choices=("ffb", "bazar"),
    )
    announcement_tiebreak: str = _opt(
        "ffb",
        "Equal best announcements: 'ffb' (higher card, then trump, else "
        "nobody) or 'bazar' (more trumps in it, else the first to show).",
        choices=("ffb", "bazar"),
    )
    # --- scoring
    scoring: str = _opt(
        "ffb",
        "Scoring formula: 'ffb' (FFB §10), contrée's 'faits_annonces', 'faits' and "
        "'annonces', or 'classique' (each side its points; a fall gives all to the defence).",
        choices=("ffb", "faits_annonces", "faits", "annonces", "classique"),
    )
    min_points: int = _opt(0, "Points the takers must reach whatever the bid (82 in bazar).", low=0, high=500)
    must_beat_defence: bool = _opt(True, "Takers must also score more than the defence (FFB §4.2).")
    goal_points: str = _opt(
        "total",
        "What the takers' goal (the bid, min_points, beating the defence) counts: 'total', card points with "
        "belote and announcements (FFB §4.2, the online game's classique), or 'cards', card points only "
        "(Classique: « plus de la moitié des points, c'est-à-dire 82 points ou plus »).",
        choices=("total", "cards"),
        added=True,
    )
    three_player_goal: str = _opt(
        "half",
        "Three players: the taker must beat the two others together ('half') or each of them ('each').",
        choices=("half", "each"),
    )
    chute_points: int = _opt(
        160, "What a fall gives the defence before bonuses (160 FFB; 162 in some clubs).", low=0, high=500
    )
    coinche_multiplier: int = _opt(2, "Multiplier of a coinched contract.", low=1, high=10)
    surcoinche_multiplier: int = _opt(4, "Multiplier of a surcoinched contract (4; 3 in some clubs).", low=1, high=20)
    multiplier_scope: str = _opt(
        "all",
        "The coinche multiplier applies to the whole score ('all') or to the contract only ('contract').",
        choices=("all", "contract"),
    )
    capot_points: int = _opt(
        252,
        "Card points of a side that wins every trick (252 FFB §9.2: the last trick is worth 100; 250 in classique).",
        low=162,
        high=1000,
    )
    capot_contract: int = _opt(250, "Value of a bid capot as a contract (FFB §10.1.1).", low=0, high=2000)
    capot_bonus: str = _opt(
        "uncoinched",
        "What a side that wins every trick scores in the contrée methods ('faits_annonces', 'faits'): "
        "'uncoinched': its capot's card points, by either side, unless the contract is coinched "
        "(Contrée: « Le capot non demandé vaut 250 points + le contrat »); 'takers': only the takers' "
        "capot counts, coinched or not (its card points then replace chute_points), and the "
        "defence's capot is scored as a plain fall.",
        choices=("uncoinched", "takers"),
        added=True,
    )
    capot_prime: int = _opt(
        0,
        "If not 0, a bid capot scores this flat prime to the side that wins it, made or "
        "failed (contrée: 500), instead of counting as a contract.",
        low=0,
        high=5000,
    )
    rounding: str = _opt(
        "nearest",
        "Rounding of the marks: 'nearest' ten (85 → 90, 84 → 80), 'none', or "
        "'dizaines' (classique count in tens: the lower side rounds up from 7, the other "
        "gets the rest of 160).",
        choices=("nearest", "none", "dizaines"),
    )
    litige: str = _opt(
        "next_contract",
        "Equal totals: 'off', 'next_contract' (the takers' points go to the "
        "side making the next contract, FFB §10.1.3) or 'next_winner' (to the next deal's "
        "winner, classique).",
        choices=("off", "next_contract", "next_winner"),
    )
    tie: str = _opt(
        "chute",
        "Without litige, equal totals make the contract fail ('chute') or succeed ('made').",
        choices=("chute", "made"),
    )
    # --- match
    target: int = _opt(1000, "Points to reach to win the game (0: play a fixed number of deals).", low=0, high=100000)
    deals: int = _opt(0, "Fixed number of deals instead of a target (0: play to the target).", low=0, high=1000)
    game_end: str = _opt(
        "reach", "'reach': the target reached or passed wins; 'pass': it must be passed.", choices=("reach", "pass")
    )
    both_past: str = _opt(
        "excess",
        "Both sides past the target on one deal: the larger excess wins ('excess', "
        "FFB §10.3) or the takers win ('takers', classique).",
        choices=("excess", "takers"),
    )
    belote_only_rule: bool = _opt(
        True,
        "A side that fell or was capot and reaches the target only through its "
        "belote needs one more trick (FFB §10.3).",
    )

    def __post_init__(self) -> None:
        _validate(self)

    # ------------------------------------------------------------------ presets
    @classmethod
    def preset(cls, name: str, **options: Any) -> Ruleset:
        """A named preset, optionally with options replaced.

        >>> Ruleset.preset("contree").scoring
        'faits_annonces'
        >>> Ruleset.preset("coinche", sans_atout=True).sans_atout
        True
        """
        key = str(name).strip().lower().replace("é", "e")
        if key not in PRESETS:
            raise RulesError(Message("rules.preset", name=excerpt(str(name)), presets=", ".join(PRESETS)))
        base = {"name": key, **PRESETS[key]}
        return cls(**base).replace(**options) if options else cls(**base)

    def replace(self, **options: Any) -> Ruleset:
        """A copy with some options changed; raises :class:`RulesError` on a bad option."""
        unknown = sorted(set(options) - set(OPTION_NAMES) - {"name"})
        if unknown:
            raise RulesError(Message("rules.unknown_option", options=excerpt(", ".join(unknown))))
        return dataclasses.replace(self, **options)

    # ------------------------------------------------------------ identity & I/O
    def options(self) -> dict[str, Any]:
        """Every option but the name, in declaration order."""
        return {name: getattr(self, name) for name in OPTION_NAMES}

    @cached_property
    def fingerprint(self) -> str:
        """Eight hex digits identifying the options (not the name). An option added since
        fingerprints were first published counts only away from its default, so every ruleset
        that could be written before keeps its fingerprint.

        >>> Ruleset.preset("coinche").fingerprint == Ruleset.preset("coinche").fingerprint
        True
        >>> Ruleset.preset("contree").fingerprint     # the same since the preset's last correction
        'd3e55cc3'
        """
        options = {
            name: value
            for name, value in self.options().items()
            if not (_FIELDS[name].metadata["added"] and value == _FIELDS[name].default)
        }
        canonical = json.dumps(options, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:8]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **self.options()}

    def __repr__(self) -> str:
        """The preset and the options that differ from it, as code that builds the same ruleset.

        >>> Ruleset.preset("contree", sans_atout=False)
        Ruleset.preset('contree', sans_atout=False)
        """
        if self.name in PRESETS:
            base = Ruleset.preset(self.name)
            changed = [f"{k}={v!r}" for k, v in self.options().items() if getattr(base, k) != v]
            return f"Ruleset.preset({', '.join([repr(self.name), *changed])})"
        changed = [f"{k}={v!r}" for k, v in self.options().items() if getattr(Ruleset, k) != v]
        return f"Ruleset({', '.join([f'name={self.name!r}', *changed])})"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """Build from a dict: ``preset`` (or ``name``) names the base, other keys replace options."""
        if not isinstance(data, dict):
            raise RulesError(Message("rules.not_a_table"))
        data = dict(data)
        base = data.pop("preset", None) or data.get("name") or "coinche"
        name = data.pop("name", base)
        if str(base).lower().replace("é", "e") in PRESETS:
            return cls.preset(base).replace(name=name, **data)
        return cls().replace(name=name, **data)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Ruleset:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RulesError(Message("rules.json", line=err.lineno, column=err.colno, reason=err.msg)) from None
        return cls.from_dict(data)

    def to_toml(self) -> str:
        lines = []
        for key, value in self.to_dict().items():
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, int):
                text = str(value)
            else:
                text = json.dumps(value, ensure_ascii=False)
            lines.append(f"{key} = {text}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_toml(cls, text: str) -> Ruleset:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise RulesError(Message("rules.toml", reason=str(err))) from None
        return cls.from_dict(data.get("rules", data))

    # ------------------------------------------------------------- derived facts
    @property
    def partnerships(self) -> bool:
        """Four players play in two partnerships (seats 0+2 and 1+3)."""
        return self.players == 4

    @property
    def tricks(self) -> int:
        return self.hand_size

    @property
    def deck_size(self) -> int:
        """32 cards, or 24 without the 7s and 8s."""
        return 24 if self.short_deck else 32

    @property
    def whole_deck(self) -> bool:
        """Every card of the deck is played (not with two players, who leave a stock aside)."""
        return self.players * self.hand_size == self.deck_size

    @property
    def first_stage(self) -> int:
        """Cards each player gets before the auction."""
        return self.hand_size - 3 if self.auction == "retourne" else self.hand_size

    @cached_property
    def highest_bid(self) -> int:
        """The highest numbered bid in any strain (see :meth:`highest_bid_in`).

        >>> Ruleset.preset("coinche").highest_bid, Ruleset.preset("contree").highest_bid
        (820, 160)
        >>> Ruleset.preset("coinche", announcements=False).highest_bid    # 252 + a belote 20
        270
        """
        return max(self.highest_bid_in(strain) for strain in self.strains())

    def highest_bid_in(self, strain: int) -> int:
        """The highest numbered bid in ``strain``: ``max_bid``, or without one (``max_bid = 0``: FFB
        §4.1 asks « de 80 au minimum [...] supérieure à l'enchère précédente » and sets no maximum)
        the most a side can total in that strain, as belote and announcements count toward the
        contract (FFB §4.2): no higher bid could ever be made.

        >>> rules = Ruleset.preset("coinche", sans_atout=True, tout_atout=True)
        >>> [rules.highest_bid_in(strain) for strain in (1, 4, 5)]    # no belote at SA, four at TA
        [820, 800, 880]
        """
        if self.max_bid:
            return self.max_bid
        return max(self.min_bid, self.most_points_in(strain) // self.bid_step * self.bid_step)

    @cached_property
    def most_points(self) -> int:
        """The most points a side can total in one deal, in the best strain (coinche: 252 + 20 + 550 = 822)."""
        return max(self.most_points_in(strain) for strain in self.strains())

    def most_points_in(self, strain: int) -> int:
        """The most points a side can total in one deal played in ``strain``: a capot's card points,
        every belote it may hold (four at tout atout, none at sans atout) and the most announcements
        its hands can show."""
        hands = self.players // len(self.sides)
        belotes = 4 if strain == TOUT_ATOUT else 0 if strain == SANS_ATOUT else 1
        shown = 0
        if self.announcements:
            totals = possible_totals(
                strain, self.announcement_values, hands=hands, hand_size=self.hand_size, short_deck=self.short_deck
            )
            shown = max(totals)
        return self.capot_points + belotes * self.belote * self.belote_points + shown

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat: its partnership (0 or 1) with four players, else the seat."""
        return seat & 1 if self.players == 4 else seat

    def partner_of(self, seat: int) -> int | None:
        """A seat's partner, across the table with four players; None when each plays for himself.

        >>> Ruleset.preset("coinche").partner_of(1), Ruleset.preset("trois").partner_of(1)
        (3, None)
        """
        return (seat + 2) % 4 if self.players == 4 else None

    @property
    def sides(self) -> tuple[int, ...]:
        return (0, 1) if self.players == 4 else tuple(range(self.players))

    def strains(self) -> tuple[int, ...]:
        """The strains a contract may be played in: suits 0..3, then 4 (SA) and 5 (TA) if allowed."""
        out = [0, 1, 2, 3]
        if self.sans_atout:
            out.append(4)
        if self.tout_atout:
            out.append(5)
        return tuple(out)

    def packet_patterns(self) -> tuple[tuple[int, ...], ...]:
        """The packet patterns a deal may use."""
        return self._patterns

    @cached_property
    def _patterns(self) -> tuple[tuple[int, ...], ...]:
        if self.packets != "any":
            return (tuple(int(p) for p in self.packets.split("-")),)
        return _patterns_summing_to(self.first_stage)

    def round_marks(self, points: int) -> int:
        """Round a mark by the ruleset's rounding (``dizaines`` rounds like ``nearest`` here)."""
        if self.rounding == "none":
            return points
        return (points + 5) // 10 * 10

    @staticmethod
    def describe() -> str:
        """One line per option: name, default (coinche) and meaning."""
        rows = []
        for f in dataclasses.fields(Ruleset):
            meta = f.metadata
            allowed = ""
            if meta.get("choices"):
                allowed = " [" + " | ".join(str(c) for c in meta["choices"]) + "]"
            elif meta.get("low") is not None:
                allowed = f" [{meta['low']}..{meta['high']}]"
            rows.append(f"{f.name} = {f.default!r}{allowed}: {meta.get('doc', '')}")
        return "\n".join(rows)


def _patterns_summing_to(total: int) -> tuple[tuple[int, ...], ...]:
    if total == 8:
        return ((3, 2, 3), (3, 3, 2), (2, 3, 3))
    if total == 5:
        return ((3, 2), (2, 3))
    if total == 6:
        return ((3, 3),)
    return ((total,),)


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Ruleset) if f.name != "name")
_FIELDS = {f.name: f for f in dataclasses.fields(Ruleset)}


def _validate(rules: Ruleset) -> None:
    for name, f in _FIELDS.items():
        value = getattr(rules, name)
        meta = f.metadata
        if isinstance(f.default, bool):
            if not isinstance(value, bool):
                raise RulesError(Message("rules.boolean", option=name, value=excerpt(repr(value))))
        elif isinstance(f.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(Message("rules.integer", option=name, value=excerpt(repr(value))))
        elif not isinstance(value, str):
            raise RulesError(Message("rules.text", option=name, value=excerpt(repr(value))))
        if meta.get("choices") and value not in meta["choices"]:
            allowed = ", ".join(str(c) for c in meta["choices"])
            raise RulesError(Message("rules.choice", option=name, value=excerpt(repr(value)), allowed=allowed))
        if meta.get("low") is not None and not meta["low"] <= value <= meta["high"]:
            raise RulesError(
                Message("rules.range", option=name, value=excerpt(repr(value)), low=meta["low"], high=meta["high"])
            )
    deck = rules.deck_size
    if rules.players * rules.hand_size > deck:
        raise RulesError(Message("rules.deck", players=rules.players, hand_size=rules.hand_size, deck=deck))
    if rules.auction == "bids" and rules.players != 4:
        raise RulesError(Message("rules.bids_players"))
    if rules.auction == "bids" and not rules.whole_deck:
        raise RulesError(Message("rules.bids_deck"))
    if rules.auction == "retourne" and rules.first_stage < 3:
        raise RulesError(Message("rules.retourne_hand"))
    if rules.max_bid and rules.max_bid < rules.min_bid:
        raise RulesError(Message("rules.max_bid", max_bid=rules.max_bid, min_bid=rules.min_bid))
    if rules.packets != "any":
        packets = excerpt(repr(rules.packets))
        try:
            pattern = [int(p) for p in rules.packets.split("-")]
        except ValueError:
            raise RulesError(Message("rules.packets", value=packets)) from None
        if any(p < 1 for p in pattern) or sum(pattern) != rules.first_stage:
            raise RulesError(Message("rules.packets_sum", value=packets, cards=rules.first_stage))
    if rules.cut_min * 2 > deck:
        raise RulesError(Message("rules.cut_min", value=rules.cut_min, deck=deck))
    if rules.surcoinche and not rules.coinche:
        raise RulesError(Message("rules.surcoinche"))
    if rules.scoring != "classique" and rules.players != 4:
        raise RulesError(Message("rules.scoring_players", scoring=repr(rules.scoring)))
    if rules.rounding == "dizaines" and (rules.scoring != "classique" or rules.players == 3):
        raise RulesError(Message("rules.dizaines"))
    if rules.target == 0 and rules.deals == 0:
        raise RulesError(Message("rules.no_end"))
    if (rules.sans_atout or rules.tout_atout) and rules.auction == "retourne":
        raise RulesError(Message("rules.sa_ta"))
    if rules.undertrump_partner and not rules.overtrump_partner:
        raise RulesError(Message("rules.undertrump_partner"))
    if rules.capot_bonus != "uncoinched" and rules.scoring not in ("faits_annonces", "faits"):
        raise RulesError(Message("rules.capot_bonus", value=repr(rules.capot_bonus)))


#: The presets: the options each differs from the FFB coinche defaults in, with their source.
PRESETS: dict[str, dict[str, Any]] = {
    # FFB, Règles officielles de la belote coinchée: bids from 80 with no ceiling but what a side can score.
    "coinche": {},
    # FunBelote, Belote contrée: bids « de 80 à 160 », no announcements but belote, prenable belote (the
    # defence keeps its own on a contract made and not contré: « Les défenseurs marquent le nombre de points
    # qu'ils ont réalisés »), reaching the bid is enough, "points faits + annoncés", SA and TA allowed, capot
    # bid worth a flat 500, and on a trump lead a partner holding the trick frees one from going above him.
    "contree": {
        "max_bid": 160,
        "overtrump_partner": False,
        "sans_atout": True,
        "tout_atout": True,
        "announcements": False,
        "belote_imprenable": False,
        "defence_keeps_belote": True,
        "must_beat_defence": False,
        "scoring": "faits_annonces",
        "multiplier_scope": "contract",
        "capot_points": 250,
        "capot_prime": 500,
        "litige": "off",
        "tie": "made",
    },
    # colver, the open contrée engine (its documented rules: « points faits + points demandés », the coinche
    # (x2) and surcoinche (x3) multiplying the contract only, nothing rounded, a fall marking 162 + the
    # contract), with the rest found by playing it: no SA/TA, above a partner's trump on a trump lead but
    # free to trump below him when void, a capot bid worth 250 as a contract, only the takers' capot
    # counting (252 card points), the defence keeping its belote on a contract made and not coinched.
    "contree-colver": {
        "max_bid": 160,
        "undertrump_partner": True,
        "announcements": False,
        "belote_imprenable": False,
        "defence_keeps_belote": True,
        "must_beat_defence": False,
        "scoring": "faits_annonces",
        "chute_points": 162,
        "surcoinche_multiplier": 3,
        "multiplier_scope": "contract",
        "capot_bonus": "takers",
        "rounding": "none",
        "litige": "off",
        "tie": "made",
    },
    # Règles de la belote classique (short rulebook), the online game's classique, Décompte en dizaines:
    # retourne, 82 to make and more than the defence (81–81 is a fall), capot 250, each side its points, a deal
    # nobody takes recut and dealt again without shuffling.
    "classique": {
        "auction": "retourne",
        "redeal": "recut",
        "packets": "3-2",
        "direction": "clockwise",
        "capot_bid": False,
        "coinche": False,
        "surcoinche": False,
        "scoring": "classique",
        "capot_points": 250,
        "rounding": "none",
        "litige": "off",
        "both_past": "takers",
        "belote_only_rule": False,
    },
    # Belote bazar (the online game's rules): bids in tens, announcements count toward the bid, capot flag above 250,
    # 162 to the defence on a fall, game to 501.
    "bazar": {
        "direction": "clockwise",
        "max_bid": 500,
        "capot_bid_min": 260,
        "sans_atout": True,
        "announcement_values": "bazar",
        "announcement_tiebreak": "bazar",
        "scoring": "classique",
        "min_points": 82,
        "must_beat_defence": False,
        "capot_points": 250,
        "rounding": "none",
        "litige": "off",
        "tie": "made",
        "target": 501,
        "belote_only_rule": False,
    },
    # Belote face à face, two players: classique for two, 9-card hands, game to 101.
    "deux": {
        "players": 2,
        "hand_size": 9,
        "auction": "retourne",
        "redeal": "recut",
        "packets": "3-3",
        "direction": "clockwise",
        "capot_bid": False,
        "coinche": False,
        "surcoinche": False,
        "scoring": "classique",
        "capot_points": 250,
        "rounding": "none",
        "litige": "off",
        "tie": "chute",
        "target": 101,
        "both_past": "excess",
        "belote_only_rule": False,
    },
    # Belote à trois sans 7 et 8, and common practice: 24 cards, retourne, the taker alone
    # against the two others, who must undertrump.
    "trois": {
        "players": 3,
        "short_deck": True,
        "auction": "retourne",
        "packets": "3-2",
        "direction": "clockwise",
        "capot_bid": False,
        "coinche": False,
        "surcoinche": False,
        "must_undertrump": True,
        "scoring": "classique",
        "capot_points": 250,
        "rounding": "none",
        "litige": "off",
        "tie": "chute",
        "target": 500,
        "belote_only_rule": False,
    },
}

#: What a preset was before a correction, newest first: a record written then carries the old
#: preset's fingerprint, and is read under the rules it was played with (see atout.record).
FORMER_PRESETS: dict[str, tuple[dict[str, Any], ...]] = {
    "coinche": ({"max_bid": 160},),
    "contree": ({"defence_keeps_belote": False}, {"defence_keeps_belote": False, "overtrump_partner": True}),
    "classique": ({"redeal": "shuffle"}, {"redeal": "shuffle", "litige": "next_winner", "max_bid": 160}),
    "deux": ({"redeal": "shuffle"}, {"redeal": "shuffle", "max_bid": 160}),
    "trois": ({"max_bid": 160},),
}


_Built = TypeVar("_Built")


def per_ruleset(build: Callable[[Ruleset], _Built]) -> Callable[[Ruleset], _Built]:
    """``build`` made once per ruleset and shared: equal rulesets (one fingerprint) share the result."""
    built: dict[str, _Built] = {}

    @functools.wraps(build)
    def shared(rules: Ruleset) -> _Built:
        found = built.get(rules.fingerprint)
        if found is None:
            found = built[rules.fingerprint] = build(rules)
        return found

    return shared
