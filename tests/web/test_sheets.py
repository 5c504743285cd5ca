"""Score sheets and concours in the store, on SQLite and PostgreSQL: who may change a sheet and when, corrections
and their log, the draws of a concours (Swiss, à la mêlée, withdrawals), and the form's answers read as facts."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert

from atout.errors import AtoutError, FactsError
from atout.rules import Ruleset
from atout.web import schema
from atout.web.concours import ConcoursService
from atout.web.keeper_form import choices, facts_from_form, form_from_facts
from atout.web.sheets import Actor, Sheets, SheetStatus
from atout.web.store import Store

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(120)]

#: One deal of 90 ♥ by side 0 with 100 card points: the takers make it, 190 to 60.
MADE = {"taker": "0", "bid": "90", "strain": "1", "level": "0", "points": "100"}
MARKER = Actor("Les As (table 1)", side=0, device="phone-a")
OTHER = Actor("Rebelote (table 1)", side=1, device="phone-b")
ORGANISER = Actor("Martine", organiser=True)


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    opened = Store(database_url)
    await opened.open()

    async def organiser(conn: object) -> None:
        await conn.execute(  # type: ignore[attr-defined]
            insert(schema.accounts).values(
                id=1, name="Martine", name_key="martine", password="-", role="organiser", created_at=datetime.now(UTC)
            )
        )

    await opened.transaction(organiser)  # type: ignore[arg-type]
    yield opened
    await opened.close()


async def concours_of(store: Store, teams: int, draw: str = "random", deals: int = 1) -> tuple[ConcoursService, str]:
    service = ConcoursService(store)
    rules = Ruleset.preset("coinche", target=0, deals=deals)
    code = await service.create(1, "Martine", "Samedi", rules, 4, draw, "points", seed=7)
    for n in range(1, teams + 1):
        await service.register(code, f"Équipe {n}", [], "Martine", desk=True)
    return service, code


async def first_table(store: Store, deals: int = 2) -> tuple[Sheets, str]:
    service, code = await concours_of(store, 2, deals=deals)
    await service.draw(code, "Martine")
    board = await service.board(code)
    assert board is not None
    return Sheets(store), board.tables[0].token


def facts(**answers: str) -> object:
    return facts_from_form(Ruleset.preset("coinche", target=0, deals=2), {**MADE, **answers})


async def test_the_marker_corrects_his_last_deal_only_and_the_organiser_any_even_confirmed(store: Store) -> None:
    sheets, token = await first_table(store)
    await sheets.enter(token, facts(), MARKER)  # type: ignore[arg-type]
    await sheets.enter(token, facts(points="60"), MARKER)  # type: ignore[arg-type]
    with pytest.raises(AtoutError, match="dernière donne") as refused:
        await sheets.correct(token, 1, facts(points="90"), MARKER)  # type: ignore[arg-type]
    assert refused.value.message("fr")
    await sheets.correct(token, 2, facts(points="120"), MARKER)  # type: ignore[arg-type]
    await sheets.confirm(token, OTHER)
    with pytest.raises(AtoutError):
        await sheets.correct(token, 2, facts(points="62"), MARKER)  # type: ignore[arg-type]
    await sheets.correct(token, 1, facts(points="82"), ORGANISER)  # type: ignore[arg-type]
    sheet = await sheets.get(token)
    assert sheet is not None and sheet.status == SheetStatus.CONFIRMED
    # Deal 1 falls (82 < 90: the defence scores 160 + 90); deal 2 is made (120 + 90; the defence's 42 is 40).
    assert sheet.match().scores == {0: 0 + 210, 1: 250 + 40}
    log = [c for c in reversed(await ConcoursService(store).changes(sheet.concours_id or 0)) if c.sheet_id]
    assert [c.what for c in log] == ["deal.enter", "deal.enter", "deal.correct", "sheet.confirm", "deal.correct"]
    last = log[-1]
    assert last.who == "Martine" and last.before["facts"]["card_points"]["0"] == 100
    assert last.after["facts"]["card_points"]["0"] == 82


async def test_a_side_does_not_confirm_its_own_entries_nor_from_the_markers_phone(store: Store) -> None:
    sheets, token = await first_table(store, deals=1)
    with pytest.raises(AtoutError, match="pas finie"):
        await sheets.confirm(token, OTHER)
    await sheets.enter(token, facts(), MARKER)  # type: ignore[arg-type]
    with pytest.raises(AtoutError, match="confirmer"):
        await sheets.confirm(token, MARKER)
    with pytest.raises(AtoutError, match="téléphone de l'autre équipe"):
        await sheets.confirm(token, Actor("x", side=1, device="phone-a"))
    with pytest.raises(AtoutError, match="partie est finie"):
        await sheets.enter(token, facts(), MARKER)  # type: ignore[arg-type]
    await sheets.confirm(token, OTHER)
    with pytest.raises(AtoutError, match="confirmé"):
        await sheets.confirm(token, OTHER)


async def test_a_correction_that_ends_the_game_earlier_is_refused(store: Store) -> None:
    """A game to 1000: a first deal corrected to a capot coinched cannot leave a second deal after the end."""
    sheets = Sheets(store)
    rules = Ruleset.preset("coinche")  # to 1000
    token = await sheets.create(rules, ["Nous", "Eux"])
    home = Actor("—")
    await sheets.enter(token, facts_from_form(rules, MADE), home)
    await sheets.enter(token, facts_from_form(rules, MADE), home)
    capot = {**MADE, "bid": "capot", "level": "2", "result": "capot_takers"}
    with pytest.raises(AtoutError, match="donne 1"):
        await sheets.correct(token, 1, facts_from_form(rules, capot), ORGANISER)
    sheet = await sheets.get(token)
    assert sheet is not None and sheet.match().scores == {0: 380, 1: 120}  # nothing changed


async def test_a_sheet_at_home_is_not_confirmed_and_takes_only_partnership_games(store: Store) -> None:
    sheets = Sheets(store)
    token = await sheets.create(Ruleset.preset("contree"), ["Nous", "Eux"], owner_id=1)
    with pytest.raises(AtoutError, match="ne se confirme pas"):
        await sheets.confirm(token, Actor("Martine"))
    assert [s.token for s in await sheets.owned_by(1)] == [token]
    for bad in (Ruleset.preset("trois"), Ruleset.preset("deux")):
        with pytest.raises(AtoutError, match="deux équipes"):
            await sheets.create(bad, ["A", "B"])
    for names in (["Nous", "nous"], ["Nous", " "], ["Seul"]):
        with pytest.raises(AtoutError):
            await sheets.create(Ruleset.preset("coinche"), names)


async def test_swiss_round_two_pairs_the_winners_and_a_withdrawn_team_is_not_drawn(store: Store) -> None:
    service, code = await concours_of(store, 5, draw="swiss")
    await service.draw(code, "Martine")
    board = await service.board(code)
    assert board is not None
    sheets = Sheets(store)
    for table in board.round(1):
        if table.status == SheetStatus.BYE:
            continue
        await sheets.enter(table.token, facts(), ORGANISER)  # type: ignore[arg-type]
        await sheets.confirm(table.token, ORGANISER)
    await service.withdraw(code, 5, "Martine")
    await service.draw(code, "Martine")
    board = await service.board(code)
    assert board is not None
    winners = {s.entrant for s in board.standings() if s.wins == 1 and s.byes == 0}
    second = [t for t in board.round(2) if t.status != SheetStatus.BYE]
    assert len(second) == 2  # four teams left: no bye
    assert any(set(t.sides[0] + t.sides[1]) == winners for t in second)  # the two winners meet on table 1
    assert second[0].table_no == 1 and set(second[0].sides[0] + second[0].sides[1]) == winners
    withdrawn = next(e.id for e in board.entrants if e.number == 5)
    assert all(withdrawn not in t.sides[0] + t.sides[1] for t in board.round(2))


async def test_a_melee_draws_players_into_new_teams_named_after_them(store: Store) -> None:
    service = ConcoursService(store)
    code = await service.create(1, "Martine", "Mêlée", Ruleset.preset("coinche"), 3, "melee", "wins", seed=3)
    for n in range(1, 10):
        await service.register(code, f"Joueur {n}", ["ignored"], "Martine", desk=True)
    await service.draw(code, "Martine")
    board = await service.board(code)
    assert board is not None
    tables = [t for t in board.round(1) if t.status != SheetStatus.BYE]
    byes = [t for t in board.round(1) if t.status == SheetStatus.BYE]
    assert len(tables) == 2 and len(byes) == 1  # nine players: two tables of four, one sits out
    assert all(len(side) == 2 and " & " in name for t in tables for side, name in zip(t.sides, t.names, strict=True))
    assert all(e.players == [e.name] for e in board.entrants)


async def test_registration_refuses_what_it_should(store: Store) -> None:
    service, code = await concours_of(store, 2)
    with pytest.raises(AtoutError, match="déjà inscrit"):
        await service.register(code, "équipe 1", [], "x", desk=False)
    with pytest.raises(AtoutError, match="deux joueurs au plus"):
        await service.register(code, "Trio", ["A", "B", "C"], "x", desk=False)
    await service.set_registration(code, False, "Martine")
    with pytest.raises(AtoutError, match="fermées"):
        await service.register(code, "Tard", [], "x", desk=False)
    await service.register(code, "Au bureau", [], "Martine", desk=True)  # the desk still registers
    await service.draw(code, "Martine")
    with pytest.raises(AtoutError, match="commencé"):
        await service.register(code, "Encore", [], "Martine", desk=True)
    for bad in ("", "x" * 41, "bell\x07"):
        with pytest.raises(AtoutError):
            await service.create(1, "Martine", bad, Ruleset.preset("coinche"), 3, "random", "points")
    with pytest.raises(AtoutError, match="manches"):
        await service.create(1, "Martine", "Trop", Ruleset.preset("coinche"), 21, "random", "points")


def test_the_form_offers_the_rulesets_own_questions() -> None:
    """Classique takes a suit without a value; contrée bids 80 to 160 with coinche; coinche (FFB) has its capot
    bid; sans atout and tout atout only where the options allow them."""
    classique, contree, coinche = (Ruleset.preset(p) for p in ("classique", "contree", "coinche"))
    assert choices(classique).values == () and not choices(classique).coinche
    assert choices(contree).values[0] == "80" and "160" in choices(contree).values and choices(contree).surcoinche
    assert "capot" in choices(coinche).values
    assert choices(coinche.replace(sans_atout=True, tout_atout=True)).strains == (0, 1, 2, 3, 4, 5)
    made = facts_from_form(classique, {"taker": "1", "strain": "3", "points": "100", "belote": "1"})
    assert made is not None and made.contract.value == 0 and dict(made.belote) == {1: 20}


@pytest.mark.parametrize(
    "answers",
    [
        {**MADE, "level": "2", "result": "capot_defence", "belote": "1", "ann1": "50"},
        {**MADE, "bid": "capot", "result": "capot_takers"},
        {"taker": "none"},
        MADE,
    ],
)
def test_a_deal_read_back_from_its_facts_gives_the_same_facts(answers: dict[str, str]) -> None:
    rules = Ruleset.preset("coinche")
    facts = facts_from_form(rules, answers)
    assert facts_from_form(rules, form_from_facts(facts)) == facts


@pytest.mark.parametrize(
    ("answers", "said"),
    [
        ({**MADE, "taker": "2"}, "Preneurs"),
        ({**MADE, "points": "163"}, "162"),
        ({**MADE, "points": "12345"}, "12345"),
        ({**MADE, "ann0": "-20"}, "Annonces"),
        ({**MADE, "level": "3"}, "Coinche"),
        ({**MADE, "result": "nul"}, "Résultat"),
        ({**MADE, "strain": "4"}, "Atout"),
    ],
)
def test_malformed_answers_are_refused_by_name(answers: dict[str, str], said: str) -> None:
    with pytest.raises((AtoutError, FactsError)) as refused:
        facts_from_form(Ruleset.preset("coinche"), answers)
    assert said in refused.value.message("fr")


async def test_a_confirmed_result_stays_a_finished_game_and_is_confirmed_as_seen(store: Store) -> None:
    """The organiser's correction may not leave a confirmed game unfinished, nor may anyone undo its last deal;
    a confirmation sent from a page older than the sheet is refused (the marker changed it meanwhile)."""
    sheets, token = await first_table(store, deals=1)
    await sheets.enter(token, facts(), MARKER)  # type: ignore[arg-type]
    seen = (await sheets.get(token)).version  # type: ignore[union-attr]
    await sheets.correct(token, 1, facts(points="120"), MARKER)  # type: ignore[arg-type]
    with pytest.raises(AtoutError, match="a changé"):
        await sheets.confirm(token, OTHER, seen)
    await sheets.confirm(token, OTHER, (await sheets.get(token)).version)  # type: ignore[union-attr]
    with pytest.raises(AtoutError, match="confirmé"):
        await sheets.undo(token, ORGANISER)
    sheet = await sheets.get(token)
    assert sheet is not None and sheet.status == SheetStatus.CONFIRMED and len(sheet.deals) == 1


async def test_simultaneous_changes_are_made_one_after_the_other(store: Store) -> None:
    """Six registrations at once get six numbers; two draws at once draw one round; an undo and a confirmation
    at once leave either a confirmed game or an open one, never a confirmed sheet without its deal."""
    import asyncio

    service, code = await concours_of(store, 0)
    await asyncio.gather(*(service.register(code, f"T{n}", [], "x", desk=True) for n in range(6)))
    board = await service.board(code)
    assert board is not None and sorted(e.number for e in board.entrants) == [1, 2, 3, 4, 5, 6]
    drawn = await asyncio.gather(service.draw(code, "x"), service.draw(code, "x"), return_exceptions=True)
    assert 1 in drawn and all(d in (1, 2) for d in drawn if isinstance(d, int))
    board = await service.board(code)
    assert board is not None
    token = board.round(1)[0].token
    sheets = Sheets(store)
    await sheets.enter(token, facts(), MARKER)  # type: ignore[arg-type]
    await asyncio.gather(sheets.undo(token, MARKER), sheets.confirm(token, OTHER), return_exceptions=True)
    sheet = await sheets.get(token)
    assert sheet is not None
    assert (sheet.status, len(sheet.deals)) in ((SheetStatus.CONFIRMED, 1), (SheetStatus.OPEN, 0))
