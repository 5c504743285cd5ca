"""Game records: a line-oriented text format (PBN in spirit) and its JSON twin.

The actions are the truth: a record holds the ruleset, the dealer, the cards as
dealt and every action in order; everything else it prints (contract, trick
winners and points, belote, announcements, card points, result, marks) is what
replaying the actions gives, and reading a record checks that it is so. The text
format is specified in ``docs/record-format.md``.

>>> from atout import Deal, Ruleset
>>> import random
>>> deal = Deal.new(Ruleset.preset("coinche"), dealer=1, seed=4)
>>> rng = random.Random(4)
>>> while deal.turn is not None:
...     _ = deal.apply(rng.choice(deal.legal_actions()))
>>> record = Record.from_deal(deal, Event="Démo")
>>> text = record.to_text()
>>> Record.from_text(text).to_text() == text
True
>>> Record.from_json(record.to_json()).to_json() == record.to_json()
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from atout.actions import Action, Bid, Play, parse_action
from atout.cards import Card, format_hand, parse_hand
from atout.deal import Deal, Phase
from atout.errors import AtoutError, RecordError, excerpt, json_reason
from atout.i18n import Message
from atout.notation import format_deal_line, parse_deal_line, parse_seat, seat_letter
from atout.rules import FORMER_PRESETS, OPTION_NAMES, PRESETS, Ruleset

FORMAT = "atout-record"
VERSION = 1
_SEAT_TAGS_EN = {"N": "North", "E": "East", "S": "South", "W": "West"}
_TAG_ORDER = ("Event", "Site", "Date", "North", "East", "South", "West")


@dataclass
class Record:
    """One deal: tags, ruleset, dealer, the cards as dealt and the actions in order."""

    rules: Ruleset
    dealer: int
    hands: list[int]
    retourne: int | None = None
    stock: tuple[int, ...] = ()
    actions: list[Action] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    #: Line of each action, and of each tag, in the text it was read from (for error messages).
    lines: list[int] = field(default_factory=list, repr=False, compare=False)
    tag_lines: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    # ------------------------------------------------------------------ build
    @classmethod
    def from_deal(cls, deal: Deal, **tags: str) -> Record:
        """The record of a deal (finished or not); ``tags`` e.g. ``Event="Club"``, ``South="Alice"``."""
        if not deal.has_history:
            raise RecordError(Message("record.snapshot"))
        all_tags = {"Event": "?", "Site": "?", "Date": date.today().strftime("%Y.%m.%d")}
        for seat in range(deal.rules.players):
            all_tags[_SEAT_TAGS_EN[seat_letter(deal.rules, seat)]] = "?"
        all_tags.update(tags)
        return cls(
            deal.rules,
            deal.dealer,
            list(deal.dealt.hands),
            deal.dealt.retourne,
            tuple(deal.dealt.stock),
            [a for _, a in deal.actions],
            all_tags,
        )

    def replay(self) -> Deal:
        """The deal these actions give; raises :class:`RecordError` at the first illegal action."""
        try:
            deal = Deal.from_hands(self.rules, self.hands, self.dealer, retourne=self.retourne, stock=self.stock)
        except AtoutError as err:
            raise RecordError(Message("record.no_deal", reason=err), self.tag_lines.get("Deal")) from None
        for i, action in enumerate(self.actions):
            try:
                deal.apply(action)
            except AtoutError as err:
                line = self.lines[i] if i < len(self.lines) else None
                raise RecordError(
                    Message("record.action", number=i + 1, action=action.notation(), reason=err), line
                ) from None
        return deal

    # ------------------------------------------------------------------- text
    def to_text(self) -> str:
        deal = self.replay()
        rules = self.rules
        out = []
        tags = dict(self.tags)
        for key in _TAG_ORDER:
            if key in tags:
                out.append(_tag(key, tags.pop(key)))
        for key in sorted(tags):
            out.append(_tag(key, tags[key]))
        out.append(_tag("Ruleset", preset_of(rules)))
        options = _changed_options(rules)
        if options:
            out.append(_tag("Options", options))
        out.append(_tag("Fingerprint", rules.fingerprint))
        out.append(_tag("Dealer", seat_letter(rules, self.dealer)))
        out.append(_tag("Deal", format_deal_line(rules, self.hands, 0)))
        if self.retourne is not None:
            out.append(_tag("Retourne", Card(self.retourne).code))
            out.append(_tag("Stock", " ".join(Card(c).code for c in self.stock)))
        n = rules.players
        calls = [a for _, a in deal.actions[: len(deal.auction.calls)]]
        out.append(_tag("Auction", seat_letter(rules, (self.dealer + 1) % n)))
        for start in range(0, len(calls), n):
            out.append(" ".join(a.notation() for a in calls[start : start + n]))
        out.append(_tag("Contract", _contract_text(deal)))
        if deal.phase is not Phase.AUCTION and deal.contract is not None:
            out.append(_tag("Play", seat_letter(rules, (self.dealer + 1) % n)))
            out.extend(_trick_lines(deal))
        if deal.result is not None and not deal.result.passed_out:
            res = deal.result
            out.append(_tag("Announcements", _sides_text(rules, res.announcements)))
            out.append(_tag("Belote", _sides_text(rules, res.belote)))
            out.append(_tag("CardPoints", _sides_text(rules, res.card_points)))
            assert res.score is not None
            out.append(_tag("Result", res.score.outcome))
            out.append(_tag("Marks", _sides_text(rules, res.score.marks)))
        else:
            out.append(_tag("Result", "passed" if deal.result is not None else "*"))
        return "\n".join(out) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        """Read one record; see :func:`read_records` for a file holding several."""
        records = list(_parse_records(text))
        if len(records) != 1:
            raise RecordError(Message("record.not_one", count=len(records)))
        return records[0]

    # ------------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        deal = self.replay()
        rules = self.rules
        result: dict[str, Any] | None = None
        if deal.result is not None:
            res = deal.result
            result = {"passed_out": res.passed_out}
            if res.score is not None:
                result.update(
                    {
                        "outcome": res.score.outcome,
                        "card_points": _keyed(res.card_points),
                        "tricks": _keyed(res.tricks),
                        "belote": _keyed(res.belote),
                        "announcements": _keyed(res.announcements),
                        "marks": _keyed(res.score.marks),
                        "held": res.score.held,
                    }
                )
        contract = None
        if deal.contract is not None:
            c = deal.contract
            contract = {"value": c.value, "strain": c.strain, "taker": c.taker, "level": c.level, "capot": c.capot}
        return {
            "format": FORMAT,
            "version": VERSION,
            "tags": dict(self.tags),
            "rules": {**rules.to_dict(), "name": preset_of(rules)},
            "fingerprint": rules.fingerprint,
            "dealer": self.dealer,
            "hands": [format_hand(h) for h in self.hands],
            "retourne": Card(self.retourne).code if self.retourne is not None else None,
            "stock": [Card(c).code for c in self.stock],
            "actions": [a.notation() for a in self.actions],
            "contract": contract,
            "tricks": [
                {"leader": t.leader, "cards": [c.code for c in t.cards], "winner": t.winner, "points": t.points}
                for t in deal.tricks
            ],
            "result": result,
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(Message("record.not_a_record", format=FORMAT))
        if data.get("version") != VERSION:
            raise RecordError(Message("record.version", version=excerpt(repr(data.get("version"))), known=VERSION))
        part = "rules"  # the field read when a value turns out wrong
        try:
            named = data["rules"].get("name") if isinstance(data["rules"], dict) else None
            if named not in PRESETS:
                raise RecordError(
                    Message("record.unknown_ruleset", name=excerpt(str(named)), presets=", ".join(PRESETS))
                )
            rules = Ruleset.from_dict(data["rules"])
            if rules.fingerprint != data.get("fingerprint"):
                raise RecordError(
                    Message(
                        "record.json_fingerprint", says=excerpt(repr(data.get("fingerprint"))), own=rules.fingerprint
                    )
                )
            part = "hands"
            hands = [parse_hand(h) for h in data["hands"]]
            part = "retourne"
            retourne = Card.parse(data["retourne"]) if data.get("retourne") else None
            part = "stock"
            stock = tuple(Card.parse(c) for c in data.get("stock", []))
            part = "actions"
            actions = [parse_action(a) for a in data["actions"]]
            part = "dealer"
            dealer = int(data["dealer"])
            part = "tags"
            tags = dict(data.get("tags", {}))
            record = cls(rules, dealer, hands, retourne, stock, actions, tags)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            if isinstance(err, RecordError):
                raise
            # Python's own words (English) never reach the reader: the field is named instead.
            key = "record.json_missing" if isinstance(err, KeyError) else "record.json_value"
            reason = err if isinstance(err, AtoutError) else Message(key, field=part)
            raise RecordError(Message("record.malformed", reason=reason)) from None
        expected = record.to_dict()
        for key in ("contract", "tricks", "result"):
            if key in data and data[key] != expected[key]:
                raise RecordError(Message("record.field", field=key))
        return record

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(Message("record.json", reason=json_reason(err)), err.lineno) from None
        except RecursionError:
            raise RecordError(Message("record.json", reason=Message("errors.json.too_deep"))) from None
        return cls.from_dict(data)


# ---------------------------------------------------------------- text helpers
def _tag(key: str, value: str) -> str:
    return f'[{key} "{_escape(value)}"]'


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def preset_of(rules: Ruleset) -> str:
    """The preset a record names for ``rules``: its own name, or ``coinche`` (the defaults) for a ruleset
    named otherwise, whose options then say the rest."""
    return rules.name if rules.name in PRESETS else "coinche"


def _changed_options(rules: Ruleset) -> str:
    base = Ruleset.preset(preset_of(rules))
    changed = []
    for name in OPTION_NAMES:
        value = getattr(rules, name)
        if value != getattr(base, name):
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            changed.append(f"{name}={text}")
    return ",".join(changed)


def _parse_options(text: str, line: int) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, raw = item.partition("=")
        if not sep:
            raise RecordError(Message("record.option", option=excerpt(item)), line)
        value: Any = raw
        if raw in ("true", "false"):
            value = raw == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        options[key.strip()] = value
    return options


def _contract_text(deal: Deal) -> str:
    c = deal.contract
    if c is None:
        return "-" if deal.phase is Phase.DONE else "*"
    bid = Bid(c.value, c.strain, c.capot).notation() if c.value or c.capot else "take" + "SHDC"[c.strain]
    level = (" X", " XX")[c.level - 1] if c.level else ""
    return f"{bid}{level} {seat_letter(deal.rules, c.taker)}"


def _sides_text(rules: Ruleset, values: dict[int, int]) -> str:
    return " ".join(f"{side_label(rules, s)} {values.get(s, 0)}" for s in rules.sides)


def side_label(rules: Ruleset, side: int) -> str:
    """``NS``/``EW`` for the partnerships; a seat's letter when each plays for himself."""
    if rules.players == 4:
        return ("NS", "EW")[side]
    return seat_letter(rules, side)


def _trick_lines(deal: Deal) -> list[str]:
    rules = deal.rules
    lines = []
    actions = deal.actions[len(deal.auction.calls) :]
    index = 0
    tricks = deal.tricks
    for number in range(len(tricks) + 1):
        tokens = []
        cards = 0
        while index < len(actions) and cards < rules.players:
            action = actions[index][1]
            tokens.append(action.notation())
            cards += isinstance(action, Play)
            index += 1
        if not tokens:
            break
        if number < len(tricks):
            t = tricks[number]
            leader = t.leader
            tail = f" = {seat_letter(rules, t.winner)} {t.points}"
        else:
            leader = deal.current_trick[0][0] if deal.current_trick else actions[index - 1][0]
            tail = ""
        lines.append(f"{seat_letter(rules, leader)}: {' '.join(tokens)}{tail}")
    return lines


def read_records(text: str) -> list[Record]:
    """Every record of a text (records are separated by blank lines)."""
    return list(_parse_records(text))


def _unescape(value: str) -> str:
    out = []
    chars = iter(value)
    for ch in chars:
        out.append(next(chars, "") if ch == "\\" else ch)
    return "".join(out)


def _split_blocks(text: str) -> Iterator[list[tuple[int, str]]]:
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("%"):
            continue
        if not line:
            if block:
                yield block
                block = []
            continue
        block.append((number, line))
    if block:
        yield block


def _parse_records(text: str) -> Iterator[Record]:
    for block in _split_blocks(text):
        yield _parse_block(block)


def _parse_block(block: list[tuple[int, str]]) -> Record:
    tags: dict[str, tuple[str, int]] = {}
    sections: dict[str, list[tuple[int, str]]] = {"Auction": [], "Play": []}
    current: str | None = None
    for number, line in block:
        if line.startswith("["):
            if not line.endswith('"]') or ' "' not in line:
                raise RecordError(Message("record.tag", line=excerpt(line)), number)
            key, _, value = line[1:-2].partition(' "')
            key = key.strip()
            if not key.isidentifier() or key in tags:
                raise RecordError(Message("record.bad_tag", tag=excerpt(key)), number)
            tags[key] = (_unescape(value), number)
            current = key if key in sections else None
        elif current is None:
            raise RecordError(Message("record.unexpected", line=excerpt(line)), number)
        else:
            sections[current].append((number, line))
    for needed in ("Ruleset", "Dealer", "Deal", "Auction"):
        if needed not in tags:
            raise RecordError(Message("record.missing_tag", tag=needed), block[0][0])
    rules = _rules_from_tags(tags)
    dealer = _seat(rules, tags["Dealer"])
    try:
        hands = parse_deal_line(rules, tags["Deal"][0])
    except AtoutError as err:
        raise RecordError(err.reason, tags["Deal"][1]) from None
    retourne = None
    stock: tuple[int, ...] = ()
    if "Retourne" in tags:
        try:
            retourne = Card.parse(tags["Retourne"][0])
            stock = tuple(Card.parse(c) for c in tags.get("Stock", ("", 0))[0].split())
        except AtoutError as err:
            raise RecordError(err.reason, tags["Retourne"][1]) from None
    actions: list[Action] = []
    lines: list[int] = []
    for number, line in sections["Auction"]:
        for token in line.split():
            actions.append(_action(token, number))
            lines.append(number)
    expected_winners: list[tuple[int, int, int]] = []
    for number, line in sections["Play"]:
        head, sep, body = line.partition(":")
        if not sep:
            raise RecordError(Message("record.trick_line", line=excerpt(line)), number)
        _seat(rules, (head, number))
        moves, eq, tail = body.partition("=")
        for token in moves.split():
            actions.append(_action(token, number))
            lines.append(number)
        if eq:
            parts = tail.split()
            if len(parts) != 2 or not parts[1].isdigit():
                raise RecordError(Message("record.trick_result", result=excerpt(tail)), number)
            expected_winners.append((number, _seat(rules, (parts[0], number)), int(parts[1])))
    public = {
        k: v[0]
        for k, v in tags.items()
        if k
        not in (
            "Ruleset",
            "Options",
            "Fingerprint",
            "Dealer",
            "Deal",
            "Retourne",
            "Stock",
            "Auction",
            "Contract",
            "Play",
            "Announcements",
            "Belote",
            "CardPoints",
            "Result",
            "Marks",
        )
    }
    record = Record(rules, dealer, hands, retourne, stock, actions, public, lines, {k: v[1] for k, v in tags.items()})
    deal = record.replay()
    _check_derived(record, deal, tags, expected_winners)
    return record


def _rules_from_tags(tags: dict[str, tuple[str, int]]) -> Ruleset:
    """The record's ruleset: a preset's name (anything else would be read under rules it does not
    name), its options, and its fingerprint checked; a preset corrected since the record was
    written is read as it was then (:data:`~atout.rules.FORMER_PRESETS`)."""
    name, line = tags["Ruleset"]
    if name not in PRESETS:
        raise RecordError(Message("record.unknown_ruleset", name=excerpt(name), presets=", ".join(PRESETS)), line)
    try:
        options = _parse_options(*tags["Options"]) if "Options" in tags else {}
        rules = Ruleset.preset(name).replace(**options)
        if "Fingerprint" in tags and tags["Fingerprint"][0] != rules.fingerprint:
            for former in FORMER_PRESETS.get(name, ()):
                then = Ruleset.preset(name).replace(**former).replace(**options)
                if then.fingerprint == tags["Fingerprint"][0]:
                    return then
    except AtoutError as err:
        raise RecordError(err.reason, tags.get("Options", (name, line))[1]) from None
    if "Fingerprint" in tags and tags["Fingerprint"][0] != rules.fingerprint:
        raise RecordError(
            Message("record.fingerprint", own=rules.fingerprint, says=excerpt(tags["Fingerprint"][0])),
            tags["Fingerprint"][1],
        )
    return rules


def _seat(rules: Ruleset, tag: tuple[str, int]) -> int:
    try:
        return parse_seat(rules, tag[0])
    except AtoutError as err:
        raise RecordError(err.reason, tag[1]) from None


def _action(token: str, line: int) -> Action:
    try:
        return parse_action(token)
    except AtoutError as err:
        raise RecordError(err.reason, line) from None


def _check_derived(
    record: Record, deal: Deal, tags: dict[str, tuple[str, int]], winners: list[tuple[int, int, int]]
) -> None:
    rules = record.rules
    for (line, winner, points), trick in zip(winners, deal.tricks, strict=False):
        if (winner, points) != (trick.winner, trick.points):
            raise RecordError(
                Message(
                    "record.trick_winner",
                    winner=seat_letter(rules, trick.winner),
                    points=trick.points,
                    says=f"{seat_letter(rules, winner)} {points}",
                ),
                line,
            )
    if len(winners) > len(deal.tricks):
        raise RecordError(Message("record.unfinished_trick"), winners[len(deal.tricks)][0])
    derived = {"Contract": _contract_text(deal)}
    res = deal.result
    if res is not None and res.score is not None:
        derived.update(
            {
                "Announcements": _sides_text(rules, res.announcements),
                "Belote": _sides_text(rules, res.belote),
                "CardPoints": _sides_text(rules, res.card_points),
                "Result": res.score.outcome,
                "Marks": _sides_text(rules, res.score.marks),
            }
        )
    else:
        derived["Result"] = "passed" if deal.result is not None else "*"
    for key, value in derived.items():
        if key in tags and tags[key][0] != value:
            raise RecordError(Message("record.derived", tag=key, says=excerpt(tags[key][0]), value=value), tags[key][1])


def _keyed(values: dict[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in values.items()}


__all__ = ["Record", "read_records", "side_label"]
