"""Table codes and seat tokens.

A table's code is 12 characters drawn at random from 32 unambiguous letters and
digits (60 bits): it cannot be guessed, and it reads well aloud
(``K7QM-2XHD-9PRT``). A player's token is signed with the installation's secret
(HMAC through itsdangerous): it names the table and the player, so only its holder
can act for the seat that player sits in.

>>> normalize_code(" k7qm 2xhd-9prt ")
'K7QM2XHD9PRT'
>>> format_code("K7QM2XHD9PRT"), code_shard("K7QM2XHD9PRT") % 2
('K7QM-2XHD-9PRT', 1)
>>> signer = Signer("secret")
>>> token = signer.token("K7QM2XHD9PRT", "p1")
>>> signer.player(token, "K7QM2XHD9PRT"), signer.player(token, "OTHERTABLE12"), signer.player("forged", "K7QM2XHD9PRT")
('p1', None, None)
"""

from __future__ import annotations

import secrets

from itsdangerous import BadSignature, URLSafeSerializer

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 12


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_player_id() -> str:
    return secrets.token_urlsafe(12)


def account_player(account_id: int) -> str:
    """The player id of an account's seat (a competition's or a rated table's): ``@`` never begins a random
    one (:func:`new_player_id` draws from the URL-safe alphabet).

    >>> account_player(7), player_account("@7"), player_account("x1Yz")
    ('@7', 7, None)
    """
    return f"@{account_id}"


def player_account(player: str | None) -> int | None:
    """The account a seat's player id names, if it names one."""
    if player is None or not player.startswith("@") or not player[1:].isdigit():
        return None
    return int(player[1:])


def normalize_code(text: str) -> str:
    """A code as typed (any case, spaces or dashes) in its stored form."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def format_code(code: str) -> str:
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


def code_shard(code: str) -> int:
    """The shard number of a code, 0..31: the index of its first character in :data:`ALPHABET`.

    With N servers sharing one database (N dividing 32), server K serves the codes whose
    shard number is K modulo N, and a reverse proxy routes a table by its code's first
    character alone.
    """
    return ALPHABET.index(code[0]) if code and code[0] in ALPHABET else 0


class Signer:
    """Makes and checks seat tokens with the installation's secret."""

    def __init__(self, secret: str) -> None:
        self._serializer = URLSafeSerializer(secret, salt="atout-seat")

    def token(self, code: str, player: str) -> str:
        return self._serializer.dumps({"t": code, "p": player})

    def player(self, token: str, code: str) -> str | None:
        """The player a token names at table ``code``; None if it is forged or for another table."""
        try:
            data = self._serializer.loads(token)
        except BadSignature:
            return None
        if not isinstance(data, dict) or data.get("t") != code or not isinstance(data.get("p"), str):
            return None
        return str(data["p"])
