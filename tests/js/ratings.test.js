// A seated account's rating beside his name in the lobby, and a rated table's badge.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { translator } from "../../src/atout/web/static/js/core/format.js";
import { lobbyRow, ratedName } from "../../src/atout/web/static/js/core/lobby.js";

const t = translator({
  "common.seat.S": "Sud",
  "common.seat.N": "Nord",
  "web.preset.deux": "Belote à deux",
  "web.level.club": "club",
  "web.lobby.list.target": "en {points} points",
  "web.lobby.list.bots": "robots {level}",
  "web.lobby.list.free": "libre",
  "web.lobby.list.seat": "{seat}\u00a0: {who}",
  "web.lobby.list.sit_at": "S'asseoir à la place {seat}",
  "web.lobby.list.waiting": "En attente de joueurs",
  "web.ratings.badge": "partie classée",
  "web.ratings.seat_rating": "{name} ({rating})",
  "web.ratings.seat_provisional": "{name} ({rating}, provisoire)",
});

describe("ratedName", () => {
  it("gives a guest's name alone", () => {
    assert.equal(ratedName({ kind: "human", name: "Eve" }, t), "Eve");
  });
  it("puts an account's rating beside his name, marked when provisional", () => {
    assert.equal(ratedName({ kind: "human", name: "Ann", rating: 1612, provisional: false }, t), "Ann (1612)");
    assert.equal(
      ratedName({ kind: "human", name: "Bob", rating: 1500, provisional: true }, t),
      "Bob (1500, provisoire)",
    );
  });
});

describe("a rated table's row", () => {
  it("says it is rated and shows the seated account's rating", () => {
    const table = {
      code: "R",
      status: "lobby",
      preset: "deux",
      options: [],
      target: 500,
      bots: "club",
      rated: true,
      seats: [
        { seat: 0, letter: "N", kind: "open", name: "" },
        { seat: 1, letter: "S", kind: "human", name: "Ann", rating: 1578, provisional: true },
      ],
    };
    const row = lobbyRow(table, t, "fr");
    assert.equal(row.details, "en 500 points · robots club · partie classée");
    assert.deepEqual(
      row.seats.map((seat) => seat.text),
      ["Nord\u00a0: libre", "Sud\u00a0: Ann (1578, provisoire)"],
    );
  });
});
