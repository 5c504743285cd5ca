"""Game records (text and JSON), the referee, and position strings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from atout import Deal, NotationError, RecordError, Ruleset
from atout.cli import main
from atout.record import Record, read_records
from conformance import played

#: The error messages these tests read are the English ones.
pytestmark = pytest.mark.usefixtures("english")

HANDS = ["AKQJT987...", ".AKQJT987..", "..AKQJT987.", "...AKQJT987"]


def fixed_deal() -> Deal:
    """North (seat 0) holds every spade, West hearts, South diamonds, East clubs; North bids 80♠."""
    deal = Deal.from_hands(Ruleset.preset("coinche"), HANDS, dealer=3)
    for call in ["80S", "P", "P", "P"]:
        deal.apply(call)
    return deal


def test_record_text_lists_tags_auction_tricks_and_result() -> None:
    deal = played()
    text = Record.from_deal(deal, Event="Club", South="Chloé").to_text()
    lines = text.splitlines()
    assert lines[0] == '[Event "Club"]' and '[South "Chloé"]' in lines
    assert any(line.startswith("[Fingerprint ") for line in lines)
    trick_lines = [line for line in lines if " = " in line and ":" in line]
    assert len(trick_lines) == 8
    assert lines[-1].startswith("[Marks ") or lines[-1] == '[Result "passed"]'


@pytest.mark.parametrize("preset", ["coinche", "contree", "classique", "bazar", "deux", "trois"])
def test_records_round_trip_exactly(preset: str) -> None:
    record = Record.from_deal(played(preset, seed=8))
    text = record.to_text()
    assert Record.from_text(text).to_text() == text
    assert Record.from_json(record.to_json()).to_json() == record.to_json()
    assert Record.from_text(text).replay().position() == record.replay().position()


def test_unfinished_deal_record() -> None:
    deal = fixed_deal()
    deal.apply("ann:-")  # North leads and declares nothing
    text = Record.from_deal(deal).to_text()
    assert '[Result "*"]' in text
    assert Record.from_text(text).replay().position() == deal.position()


def test_several_records_in_one_file() -> None:
    text = Record.from_deal(played(seed=1)).to_text() + "\n% a comment\n\n" + Record.from_deal(played(seed=2)).to_text()
    assert len(read_records(text)) == 2
    with pytest.raises(RecordError, match="expected one record"):
        Record.from_text(text)


def corrupt(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_an_illegal_card_is_reported_with_its_line() -> None:
    lines = Record.from_deal(fixed_deal()).to_text().splitlines()
    lines.insert(len(lines) - 1, "N: ann:- 7H")  # North does not hold 7♥
    with pytest.raises(RecordError, match="do not hold 7♥") as err:
        Record.from_text("\n".join(lines))
    assert err.value.line == len(lines) - 1


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('[Dealer "', '[Dealer "X', "unknown seat"),
        ('[Fingerprint "', '[Options "pisse=true"]\n[Fingerprint "', "unknown option"),
        ('[Fingerprint "', '[Fingerprint "0', "fingerprint"),
        ('[Result "', '[Result "x', "Result"),
        ('[Contract "', 'bogus\n[Contract "', "unknown action"),
    ],
)
def test_corrupt_records_get_a_clear_error(old: str, new: str, message: str) -> None:
    text = Record.from_deal(played(seed=4)).to_text()
    with pytest.raises(RecordError, match=message):
        Record.from_text(corrupt(text, old, new))


def test_wrong_trick_winner_is_caught() -> None:
    text = Record.from_deal(played(seed=6)).to_text()
    line = next(row for row in text.splitlines() if " = " in row)
    winner, points = line.split(" = ")[1].split()
    wrong = f"{winner} {int(points) + 1}"
    with pytest.raises(RecordError, match="trick is won by"):
        Record.from_text(text.replace(line, line.replace(f" = {winner} {points}", f" = {wrong}")))


def test_malformed_tag_and_stray_line() -> None:
    with pytest.raises(RecordError, match="malformed tag") as err:
        Record.from_text('[Event "x"]\n[Dealer N]\n')
    assert err.value.line == 2
    with pytest.raises(RecordError, match="outside"):
        Record.from_text('[Event "x"]\nhello\n')
    with pytest.raises(RecordError, match="missing tag"):
        Record.from_text('[Event "x"]\n')


def test_json_twin_checks_every_field_against_the_replay() -> None:
    data = json.loads(Record.from_deal(played(seed=7)).to_json())
    data["result"]["marks"]["0"] += 10
    with pytest.raises(RecordError, match="'result'"):
        Record.from_dict(data)
    data = json.loads(Record.from_deal(played(seed=7)).to_json())
    data["version"] = 99
    with pytest.raises(RecordError, match="version"):
        Record.from_dict(data)
    with pytest.raises(RecordError, match="malformed JSON"):
        Record.from_json("{")
    with pytest.raises(RecordError, match="not an atout record"):
        Record.from_dict({"format": "pbn"})


def test_referee_prints_the_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.txt"
    path.write_text(Record.from_deal(played(seed=9)).to_text(), encoding="utf-8")
    assert main(["referee", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Contract" in out or "all passed" in out


def test_referee_reports_the_first_illegal_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = fixed_deal()
    text = Record.from_deal(deal).to_text()
    # North leads, declaring nothing, a heart it does not hold.
    bad = text.replace('[Result "*"]', 'N: ann:- 7H\n[Result "*"]')
    path = tmp_path / "bad.txt"
    path.write_text(bad, encoding="utf-8")
    assert main(["referee", str(path), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:" in err and "do not hold" in err


def test_referee_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "/nonexistent/file.txt", "--lang", "en"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_referee_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(Record.from_deal(played(seed=10)).to_json(), encoding="utf-8")
    assert main(["referee", str(path), "--lang", "en"]) == 0


def test_demo_prints_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert ("[Deal " in out and "Contrat" in out) or "passe" in out


def test_position_errors_are_clear() -> None:
    good = fixed_deal().position()
    fields = good.split()
    with pytest.raises(NotationError, match="too few"):
        Deal.from_position("coinche N")
    with pytest.raises(NotationError, match="hands"):
        Deal.from_position(" ".join([*fields[:3], "AKQ...", *fields[4:]]))
    with pytest.raises(NotationError, match="contract"):
        Deal.from_position(" ".join([*fields[:4], "80S", *fields[5:]]))
    with pytest.raises(NotationError, match="points"):
        Deal.from_position(" ".join([*fields[:6], "1", *fields[7:]]))
    with pytest.raises(NotationError, match="bad rules"):
        Deal.from_position(" ".join(["coinche,target=x", *fields[1:]]))


def test_an_ending_can_be_set_up_from_a_position() -> None:
    """A two-trick ending: the deal plays on from the snapshot and scores."""
    text = "coinche N play A7.../.A7../..A7./...A7 80S@N N:- 108,0 6,0 -;0,0,0,0 =0,0 -"
    deal = Deal.from_position(text)
    assert deal.turn == 0 and deal.trick_number == 6
    for card in ["AS", "AH", "7D", "AC", "7S", "7H", "AD", "7C"]:
        deal.apply(card)
    assert deal.result is not None and deal.result.score is not None
    assert deal.result.card_points == {0: 252, 1: 0} and deal.result.score.capot == 0
    with pytest.raises(RecordError):
        Record.from_deal(deal)


def test_the_documented_examples_are_valid() -> None:
    """docs/record-format.md shows a real record and real positions."""
    doc = (Path(__file__).parent.parent / "docs" / "record-format.md").read_text(encoding="utf-8")
    blocks = doc.split("```")
    record_text = next(b for b in blocks if b.lstrip().startswith("[Event"))
    record = Record.from_text(record_text)
    assert record.replay().result is not None
    for block in blocks:
        line = block.strip()
        if line.startswith("coinche "):
            assert Deal.from_position(line).position() == line


def test_referee_refuses_a_ruleset_that_is_not_a_preset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A misspelt [Ruleset] would be refereed under rules it does not name: refused, with its line."""
    text = Record.from_deal(played(seed=9)).to_text()
    without_fingerprint = "\n".join(line for line in text.splitlines() if not line.startswith("[Fingerprint"))
    path = tmp_path / "deal.txt"
    path.write_text(corrupt(without_fingerprint, '[Ruleset "coinche"]', '[Ruleset "belotte"]'), encoding="utf-8")
    assert main(["referee", str(path), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "unknown ruleset 'belotte'" in err and "coinche, contree" in err
    data = json.loads(Record.from_deal(played(seed=9)).to_json())
    data["rules"]["name"] = "belotte"
    with pytest.raises(RecordError, match="unknown ruleset 'belotte'"):
        Record.from_dict(data)


def test_a_ruleset_named_otherwise_is_written_as_coinche_and_its_options() -> None:
    rules = Ruleset.preset("coinche", target=2000).replace(name="maison")
    deal = Deal.new(rules, dealer=1, seed=3)
    text = Record.from_deal(deal).to_text()
    assert '[Ruleset "coinche"]' in text and '[Options "target=2000"]' in text
    assert Record.from_text(text).rules.options() == rules.options()
    assert Record.from_json(Record.from_deal(deal).to_json()).rules.options() == rules.options()


def _written_then(then: Ruleset) -> str:
    """A record of a deal under a preset as it was before a correction: its fingerprint, no options."""
    text = Record.from_deal(Deal.new(then, dealer=1, seed=3)).to_text()
    return "\n".join(line for line in text.splitlines() if not line.startswith("[Options"))


def test_a_record_of_a_preset_since_corrected_is_read_under_its_own_rules() -> None:
    """A classique record written when the preset held 81–81 as a litige and shuffled after a deal nobody took,
    or one written when it only shuffled, carries that preset's fingerprint: it is still read, under the rules it
    was played with."""
    for then in (
        Ruleset.preset("classique", litige="next_winner", max_bid=160, redeal="shuffle"),
        Ruleset.preset("classique", redeal="shuffle"),
    ):
        old = _written_then(then)
        assert f'[Fingerprint "{then.fingerprint}"]' in old
        rules = Record.from_text(old).rules
        assert rules == then and rules.redeal == "shuffle"


def test_records_carry_the_options_added_since_and_the_contree_colver_preset() -> None:
    """A record of contree-colver names its preset; a ruleset with the options added since fingerprints were
    published (undertrump_partner, defence_keeps_belote, capot_bonus) writes them and reads them back, text
    and JSON, with a fingerprint that checks; a record written before they existed still reads (its
    fingerprint is unchanged)."""
    deal = played("contree-colver")
    text = Record.from_deal(deal).to_text()
    assert '[Ruleset "contree-colver"]' in text and "[Options" not in text
    assert Record.from_text(text).rules == deal.rules
    rules = Ruleset.preset("contree", overtrump_partner=True, undertrump_partner=True, capot_bonus="takers")
    house = Deal.new(rules, dealer=1, seed=3)
    text = Record.from_deal(house).to_text()
    assert "undertrump_partner=true" in text and "capot_bonus=takers" in text
    assert Record.from_text(text).rules == rules
    assert Record.from_json(Record.from_deal(house).to_json()).rules == rules
    then = Ruleset.preset("contree", defence_keeps_belote=False)
    before = _written_then(then)
    assert '[Fingerprint "19eb78e1"]' in before and Record.from_text(before).rules == then
