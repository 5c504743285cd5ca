"""A concours with real cards, through the web app on SQLite and PostgreSQL: the organiser creates it, teams
register at the desk and by the link, rounds are drawn, two phones enter and confirm a table's deals, the
standings follow, and every change is logged. Integrity: only the organiser changes the concours, a table
enters only its own scores, a confirmed score changes only by the organiser, bad input is refused in the
visitor's language and changes nothing; a restart loses nothing.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from harness import LOCAL, fast_settings

from atout.web.app import create_app
from atout.web.settings import Settings

pytestmark = pytest.mark.timeout(120)

#: One deal that ends a game of one deal: 90 ♥ by the first side, 100 card points.
DEAL = {"taker": "0", "bid": "90", "strain": "1", "level": "0", "result": "points", "points": "100"}


class Visitor:
    """Another browser on the same app (its own cookies), through the one test client (one event loop)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}

    def __enter__(self) -> TestClient:
        self.saved = dict(self.client.cookies)
        self.client.cookies.clear()
        self.client.cookies.update(self.cookies)
        return self.client

    def __exit__(self, *_: object) -> None:
        self.cookies = dict(self.client.cookies)
        self.client.cookies.clear()
        self.client.cookies.update(self.saved)


def csrf_of(client: TestClient) -> str:
    """The visitor's CSRF token (a page sets the cookie)."""
    if "csrf" not in client.cookies:
        client.get("/signin")
    return str(client.cookies["csrf"])


def post(client: TestClient, path: str, data: dict[str, str] | None = None) -> object:
    return client.post(path, data={**(data or {}), "csrf": csrf_of(client)}, follow_redirects=False)


def sign_up(client: TestClient, name: str) -> None:
    response = post(client, "/signup", {"name": name, "password": "secret-password"})
    assert response.status_code == 303, response.text  # type: ignore[attr-defined]


def create_concours(client: TestClient, **fields: str) -> str:
    form = {"name": "Concours du samedi", "rounds": "3", "draw": "random", "ranking": "points", "preset": "coinche"}
    form |= {"end": "deals", "count": "1", "open_registration": "on", **fields}
    response = post(client, "/concours", form)
    assert response.status_code == 303, response.text  # type: ignore[attr-defined]
    return str(response.headers["location"]).rsplit("/", 1)[-1]  # type: ignore[attr-defined]


def alert(response: object) -> str:
    """The page's error message (its ``role="alert"`` paragraph), unescaped."""
    found = re.search(r'role="alert">([^<]*)<', response.text)  # type: ignore[attr-defined]
    assert found is not None, "no error on the page"
    return html.unescape(found[1]).replace("\u00a0", " ")


def tokens(client: TestClient, code: str) -> list[str]:
    """The sheets of the current round's tables, as the desk links them."""
    return list(dict.fromkeys(re.findall(r'href="/s/([\w-]+)"', client.get(f"/c/{code}").text)))


def settings_for(tmp_path: Path, database_url: str) -> Settings:
    return fast_settings(tmp_path, database_url=database_url)


def test_a_concours_from_the_desk_to_the_standings(tmp_path: Path, database_url: str) -> None:
    with TestClient(create_app(settings_for(tmp_path, database_url)), client=LOCAL) as desk:
        sign_up(desk, "Organisatrice")  # the first account is the administrator, an organiser
        code = create_concours(desk)
        for n in range(1, 4):
            assert (
                post(desk, f"/c/{code}/entrants", {"name": f"Équipe {n}", "player1": "A", "player2": "B"}).status_code
                == 303
            )  # type: ignore[attr-defined]
        with Visitor(desk) as guest:  # a fourth team registers by the link
            answer = post(guest, f"/c/{code}/join", {"name": "Les Invités"})
            assert "est inscrit" in answer.text  # type: ignore[attr-defined]
            assert guest.get(f"/c/{code}", follow_redirects=False).status_code == 303  # the desk is not his
        assert post(desk, f"/c/{code}/draw").status_code == 303  # type: ignore[attr-defined]
        first, second = tokens(desk, code)
        phone_a, phone_b = Visitor(desk), Visitor(desk)
        with phone_a as client:
            post(client, f"/s/{first}/side", {"side": "0"})
            assert post(client, f"/s/{first}/deals", DEAL).status_code == 303  # type: ignore[attr-defined]
        with phone_b as client:
            post(client, f"/s/{first}/side", {"side": "1"})
            # The other team does not enter on this sheet.
            refused = post(client, f"/s/{first}/deals", DEAL)
            assert refused.status_code == 400 and "tient la feuille" in refused.text  # type: ignore[attr-defined]
        with phone_a as client:  # the team that entered does not confirm its own entries
            own = post(client, f"/s/{first}/confirm")
            said = alert(own)
            assert own.status_code == 400 and said.startswith("C'est à l'équipe ") and said.endswith(" de confirmer.")
        with phone_b as client:
            assert post(client, f"/s/{first}/confirm").status_code == 303  # type: ignore[attr-defined]
        with phone_a as client:  # once confirmed, the table's phones change nothing more
            assert post(client, f"/s/{first}/undo").status_code == 400  # type: ignore[attr-defined]
        data = desk.get(f"/c/{code}/standings.json").json()
        assert data["confirmed"] == 1 and data["tables"] == 2
        top = data["standings"][0]
        assert (top["points"], top["wins"], top["played"]) == (190, 1.0, 1)  # 90 + 100 card points, rounded
        # Round 2 waits for the second table.
        refused = post(desk, f"/c/{code}/draw")
        assert refused.status_code == 400 and "confirmé leur résultat\u00a0: 2" in refused.text  # type: ignore[attr-defined]
        with Visitor(desk) as phone:
            post(phone, f"/s/{second}/side", {"side": "1"})
            post(phone, f"/s/{second}/deals", {**DEAL, "taker": "1"})
        post(desk, f"/s/{second}/confirm")  # the organiser confirms for a table
        assert post(desk, f"/c/{code}/draw").status_code == 303  # type: ignore[attr-defined]
        board = desk.get(f"/c/{code}/export.json").json()
        pairs = [frozenset(tuple(s) for s in t["sides"]) for t in board["tables"]]
        assert len(pairs) == len(set(pairs)) == 4  # round 2 repeats no pair of round 1
        whats = [c["what"] for c in board["changes"]]
        assert whats.count("deal.enter") == 2 and whats.count("sheet.confirm") == 2 and "round.draw" in whats
        rows = list(csv.reader(io.StringIO(desk.get(f"/c/{code}/standings.csv").text)))
        assert rows[0][0] == "Rang" and len(rows) == 5
        log = html.unescape(desk.get(f"/c/{code}/changes").text).replace("\u00a0", " ")
        assert "donne 1 : 90 ♥, preneurs côté 1, 100 points" in log and "190 – 60" in log


def test_impossible_facts_are_refused_and_nothing_is_written(tmp_path: Path, database_url: str) -> None:
    with TestClient(create_app(settings_for(tmp_path, database_url)), client=LOCAL) as client:
        sign_up(client, "Alice")
        post(client, "/keeper", {"us": "Nous", "them": "Eux", "preset": "coinche", "end": "target", "count": "1000"})
        token = tokens_of_home(client)
        for bad, said in (
            ({**DEAL, "points": "170"}, "162"),  # more than the deck holds
            ({**DEAL, "points": "douze"}, "douze"),
            ({**DEAL, "bid": "85"}, "choisissez dans la liste"),
        ):
            answer = client.post(f"/s/{token}/deals", data={**bad, "csrf": csrf_of(client)})
            assert answer.status_code == 400 and said in answer.text
        page = client.get(f"/s/{token}").text
        assert "Aucune donne notée" in page
        english = client.post(f"/s/{token}/deals?lang=en", data={**DEAL, "points": "x", "csrf": csrf_of(client)})
        assert "is not a number" in english.text


def tokens_of_home(client: TestClient) -> str:
    found = re.findall(r'href="/s/([\w-]+)"', client.get("/keeper").text)
    assert found, "the account lists its sheet"
    return str(found[0])


def test_only_the_organiser_changes_the_concours(tmp_path: Path, database_url: str) -> None:
    with TestClient(create_app(settings_for(tmp_path, database_url)), client=LOCAL) as organiser:
        sign_up(organiser, "Orga")
        code = create_concours(organiser)
        with Visitor(organiser) as other:
            sign_up(other, "Bob")  # a player: no concours of his own, none of hers to change
            assert other.get("/concours").status_code == 403
            for path in (f"/c/{code}/draw", f"/c/{code}/entrants", f"/c/{code}/registration"):
                assert post(other, path, {"name": "X"}).status_code == 403  # type: ignore[attr-defined]
            assert other.get(f"/c/{code}/changes").status_code == 403
        # A form without the CSRF token changes nothing.
        assert organiser.post(f"/c/{code}/entrants", data={"name": "Y"}).status_code == 403
        assert "Y" not in [e["name"] for e in organiser.get(f"/c/{code}/export.json").json()["entrants"]]


def test_a_restart_mid_round_loses_nothing(tmp_path: Path, database_url: str) -> None:
    settings = settings_for(tmp_path, database_url)
    with TestClient(create_app(settings), client=LOCAL) as desk:
        sign_up(desk, "Orga")
        code = create_concours(desk, count="3")
        for n in range(4):
            post(desk, f"/c/{code}/entrants", {"name": f"T{n}"})
        post(desk, f"/c/{code}/draw")
        token = tokens(desk, code)[0]
        post(desk, f"/s/{token}/deals", DEAL)
        cookies = dict(desk.cookies)
    with TestClient(create_app(settings), cookies=cookies, client=LOCAL) as again:
        page = again.get(f"/s/{token}").text
        assert "<td>90 ♥ · " in page and "Donne 2" in page  # the deal entered, in the sheet's table
        assert json.loads(again.get(f"/c/{code}/export.json").text)["tables"][0]["deals"]


def test_the_last_round_confirmed_ends_the_concours_with_its_podium(tmp_path: Path, database_url: str) -> None:
    with TestClient(create_app(settings_for(tmp_path, database_url)), client=LOCAL) as desk:
        sign_up(desk, "Orga")
        code = create_concours(desk, rounds="1")
        for name in ("Les As", "Rebelote", "Tierce"):
            post(desk, f"/c/{code}/entrants", {"name": name})
        post(desk, f"/c/{code}/draw")
        token = tokens(desk, code)[0]
        post(desk, f"/s/{token}/deals", DEAL)
        assert desk.get(f"/c/{code}/standings.json").json()["finished"] is False
        post(desk, f"/s/{token}/confirm")
        data = desk.get(f"/c/{code}/standings.json").json()
        assert data["finished"] is True and data["confirmed"] == data["tables"] == 1
        page = desk.get(f"/c/{code}").text
        assert "Podium" in page and "Tirer la manche" not in page
        assert 'class="podium"' in desk.get(f"/c/{code}/standings").text
        # The bye counts as a win with the round's mean points: (190 + 60) / 2, rounded half up.
        bye = next(row for row in data["standings"] if row["played"] == 1 and row["points"] == 125)
        assert bye["wins"] == 1.0 and bye["difference"] == 0
        refused = post(desk, f"/c/{code}/draw")
        assert refused.status_code == 400 and "ont été tirées" in refused.text  # type: ignore[attr-defined]


def test_the_organisers_guards_exports_bad_numbers_and_the_hall_address(tmp_path: Path, database_url: str) -> None:
    """The JSON export is the organiser's; a name that looks like a formula is text in the CSV; digits that are
    no ASCII digits are refused, not a server error; registration by link is limited per device; a desk opened
    by « localhost » says the address phones can reach."""
    settings = fast_settings(tmp_path, database_url=database_url, registrations_per_hour=2)
    with TestClient(create_app(settings), client=LOCAL) as desk:
        sign_up(desk, "Orga")
        code = create_concours(desk)
        with Visitor(desk) as guest:
            assert post(guest, f"/c/{code}/join", {"name": '=HYPERLINK("http://x","As")'}).status_code == 200  # type: ignore[attr-defined]
            assert post(guest, f"/c/{code}/join", {"name": "Deux"}).status_code == 200  # type: ignore[attr-defined]
            third = post(guest, f"/c/{code}/join", {"name": "Trois"})
            assert third.status_code == 429 and "Trop d'inscriptions" in alert(third)  # type: ignore[attr-defined]
            assert guest.get(f"/c/{code}/export.json").status_code == 403
            assert post(guest, f"/c/{code}/draw").status_code == 403  # type: ignore[attr-defined]
        rows = list(csv.reader(io.StringIO(desk.get(f"/c/{code}/standings.csv").text)))
        assert any(row[2] == '\'=HYPERLINK("http://x","As")' for row in rows)
        for path, form in (
            ("/concours", {"rounds": "²", "name": "X"}),
            ("/keeper", {"us": "A", "them": "B", "count": "①"}),
        ):
            answer = post(
                desk, path, {"preset": "coinche", "draw": "random", "ranking": "points", "end": "target", **form}
            )
            assert answer.status_code == 400  # type: ignore[attr-defined]
        assert "localhost" not in desk.get(f"/c/{code}").text.split("</header>")[1]
        local = desk.get(f"http://localhost/c/{code}").text
        assert "que les téléphones ne peuvent pas ouvrir" in html.unescape(local)
