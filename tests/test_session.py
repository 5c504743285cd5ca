"""A human's match against bots, saved and resumed."""

from __future__ import annotations

import errno
import random
from pathlib import Path

import pytest

from atout import AtoutError, IllegalAction, RecordError, Ruleset
from atout.notation import seat_letter
from atout.session import GameSession

#: The error messages these tests read are the English ones.
pytestmark = pytest.mark.usefixtures("english")


def human_plays(session: GameSession, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        session.run_bots()
        if session.deal_over:
            return
        session.play(rng.choice(session.legal_actions()))


def test_a_whole_match_against_bots() -> None:
    session = GameSession(Ruleset.preset("coinche", target=500), bots="club", seed=2, hint="club")
    rng = random.Random(2)
    for _ in range(60):
        human_plays(session, rng, 100)
        if session.deal_over:
            session.finish_deal()
            if session.match_over:
                break
            session.next_deal()
    assert session.match_over and session.match.winner in (0, 1)
    with pytest.raises(AtoutError, match="over"):
        session.next_deal()


@pytest.mark.parametrize("preset", ["coinche", "classique", "trois", "deux"])
def test_save_and_resume_mid_deal(tmp_path: Path, preset: str) -> None:
    session = GameSession(
        Ruleset.preset(preset, target=5000), bots="club", seed=7, hint="club", human=Ruleset.preset(preset).players - 1
    )
    rng = random.Random(7)
    for _ in range(3):  # a few deals, then stop in the middle of one
        human_plays(session, rng, 200)
        session.next_deal()
    human_plays(session, rng, 3)
    path = tmp_path / "game.txt"
    session.save(path)
    resumed = GameSession.load(path)
    assert resumed.deal.position() == session.deal.position()
    assert resumed.match.scores == session.match.scores and len(resumed.match.entries) == 3
    # Both carry on identically: same deals, same bots.
    human_plays(session, random.Random(1), 50)
    human_plays(resumed, random.Random(1), 50)
    assert resumed.deal.position() == session.deal.position()


def test_the_human_cannot_play_out_of_turn_or_illegally() -> None:
    session = GameSession(Ruleset.preset("coinche"), bots="club", seed=4, hint="club", human=1)
    session.run_bots()
    before = session.deal.position()
    with pytest.raises(IllegalAction):
        session.play("AS" if session.deal.phase.value == "auction" else "P")
    assert session.deal.position() == before
    session.play("P")
    if not session.human_to_play:
        with pytest.raises(IllegalAction, match="not your turn"):
            session.play("P")


def test_hint_and_analysis() -> None:
    session = GameSession(Ruleset.preset("coinche"), bots="club", seed=6, hint="club")
    session.run_bots()
    assert session.hint() in session.legal_actions()
    rng = random.Random(6)
    while not session.deal_over:
        session.play(rng.choice(session.legal_actions()))
        session.run_bots()
    analysis = session.analysis()
    if session.deal.contract is not None:
        assert len(analysis) == 8 and all(a.seat == 2 for a in analysis)  # type: ignore[attr-defined]


def test_bad_sessions() -> None:
    rules = Ruleset.preset("coinche")
    with pytest.raises(AtoutError, match="seat"):
        GameSession(rules, human=4)
    with pytest.raises(AtoutError, match="3 bots"):
        GameSession(rules, bots=["club", "club"])
    with pytest.raises(AtoutError, match="cannot read"):
        GameSession.load("/nonexistent/game.txt")


def test_a_plain_record_is_not_a_saved_match(tmp_path: Path) -> None:
    from atout import Deal
    from atout.record import Record

    path = tmp_path / "deal.txt"
    path.write_text(Record.from_deal(Deal.new(Ruleset.preset("coinche"), seed=1)).to_text(), encoding="utf-8")
    with pytest.raises(RecordError, match="not a saved match"):
        GameSession.load(path)


@pytest.mark.parametrize("preset", ["coinche", "classique", "trois", "deux"])
def test_the_human_is_south_at_every_table(preset: str) -> None:
    session = GameSession(Ruleset.preset(preset), bots="random", seed=1)
    assert seat_letter(session.rules, session.human) == "S"


def test_a_hint_is_for_the_position_it_was_asked_in() -> None:
    """An interface computing the hint in a thread gives the observation of when it was asked."""
    session = GameSession(Ruleset.preset("coinche"), bots="club", seed=6, hint="club")
    session.run_bots()
    asked = session.observation()
    session.play("P")
    with pytest.raises(AtoutError, match="human's turn"):
        session.hint()
    assert session.hint(asked) in asked.legal_actions()


def test_a_failed_save_keeps_the_previous_one_and_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = GameSession(Ruleset.preset("coinche"), bots="club", seed=6, hint="club")
    path = tmp_path / "sub" / "game.txt"
    session.save(path)  # the folder is made
    before = path.read_text(encoding="utf-8")
    session.run_bots()
    session.play("P")

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("atout.session.os.replace", full)
    with pytest.raises(OSError):
        session.save(path)
    assert path.read_text(encoding="utf-8") == before and [p.name for p in path.parent.iterdir()] == ["game.txt"]


def test_a_bot_stood_in_for_decides_as_the_club_player_with_its_boldness() -> None:
    """While the solver is compiled (once after an install) a table asks the club player's rules to stand in for
    the expert: the same call as a club player of the expert's spec, and nothing applied."""
    from atout.bots import HeuristicAgent

    session = GameSession(Ruleset.preset("coinche"), bots="expert", seed=3)
    choice = session.bot_choice(stand_in=True)
    assert choice is not None
    seat, action = choice
    spec = session.spec_of(seat)
    assert action == HeuristicAgent(spec.name, spec.aggression).act(session.deal.observation(seat))
    assert not session.deal.auction.calls
