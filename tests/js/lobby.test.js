// The lobby's list: its messages applied, its order, and a table put into words from the catalogue.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { translator } from "../../src/atout/web/static/js/core/format.js";
import { applyLobby, listed, lobbyRow, points } from "../../src/atout/web/static/js/core/lobby.js";

const t = translator({
  "common.seat.N": "Nord",
  "common.seat.E": "Est",
  "common.seat.S": "Sud",
  "common.seat.W": "Ouest",
  "web.preset.coinche": "Belote coinchée (FFB)",
  "web.level.club": "club",
  "web.lobby.list.target": "en {points} points",
  "web.lobby.list.bots": "robots {level}",
  "web.lobby.list.bot": "robot",
  "web.lobby.list.free": "libre",
  "web.lobby.list.seat": "{seat}\u00a0: {who}",
  "web.lobby.list.sit_at": "S'asseoir à la place {seat}",
  "web.lobby.list.waiting": "En attente de joueurs",
  "web.lobby.list.playing": "Partie en cours",
  "web.lobby.option.sans_atout": "sans atout",
  "web.lobby.option.no_announcements": "sans annonces",
});

function table(code, status = "lobby", kinds = ["human", "open", "open", "open"]) {
  return {
    code,
    status,
    preset: "coinche",
    options: [],
    target: 1000,
    bots: "club",
    seats: kinds.map((kind, seat) => ({ seat, letter: "NWSE"[seat], kind, name: kind === "human" ? `P${seat}` : "" })),
  };
}

describe("applyLobby", () => {
  it("takes the whole list from a snapshot", () => {
    assert.deepEqual(applyLobby([table("OLD")], { type: "lobby", tables: [table("A")] }), [table("A")]);
  });

  it("changes a table in its place, removes those gone and adds the new ones last", () => {
    const before = [table("A"), table("B"), table("C")];
    const changedB = table("B", "playing", ["human", "bot", "bot", "bot"]);
    const after = applyLobby(before, { type: "lobby_change", tables: [table("D"), changedB], gone: ["A"] });
    assert.deepEqual(
      after.map((x) => [x.code, x.status]),
      [
        ["B", "playing"],
        ["C", "lobby"],
        ["D", "lobby"],
      ],
    );
  });

  it("leaves the list as it is for any other message", () => {
    const before = [table("A")];
    assert.equal(applyLobby(before, { type: "pong" }), before);
  });
});

describe("listed", () => {
  it("lists the tables waiting for players before those in play", () => {
    const tables = [table("P", "playing"), table("A"), table("Q", "playing"), table("B")];
    assert.deepEqual(
      listed(tables).map((x) => x.code),
      ["A", "B", "P", "Q"],
    );
  });
});

describe("lobbyRow", () => {
  it("says a table waiting for players: its variant, options, target, bots, seats and the free ones", () => {
    const row = lobbyRow({ ...table("K7QM"), options: ["sans_atout", "no_announcements"] }, t, "fr");
    assert.equal(row.title, "Belote coinchée (FFB)");
    assert.equal(row.href, "/t/K7QM");
    assert.equal(row.status, "En attente de joueurs");
    assert.equal(row.details, "sans atout · sans annonces · en 1\u202f000 points · robots club");
    assert.deepEqual(
      row.seats.map((s) => s.text),
      ["Nord\u00a0: P0", "Ouest\u00a0: libre", "Sud\u00a0: libre", "Est\u00a0: libre"],
    );
    assert.deepEqual(
      row.free.map((s) => [s.seat, s.name]),
      [
        [1, "Ouest"],
        [2, "Sud"],
        [3, "Est"],
      ],
    );
    assert.equal(row.free[0].label, "S'asseoir à la place Ouest");
    assert.equal(row.watch, false);
  });

  it("shows a bot as a bot during the game, whose seat one may take, and offers to watch", () => {
    const row = lobbyRow(table("P", "playing", ["human", "bot", "human", "bot"]), t, "fr");
    assert.equal(row.status, "Partie en cours");
    assert.deepEqual(
      row.seats.map((s) => s.text),
      ["Nord\u00a0: P0", "Ouest\u00a0: robot", "Sud\u00a0: P2", "Est\u00a0: robot"],
    );
    assert.deepEqual(
      row.free.map((s) => s.seat),
      [1, 3],
    );
    assert.equal(row.watch, true);
  });

  it("leaves out an option the catalogue has no words for", () => {
    const row = lobbyRow({ ...table("X"), options: ["some_new_option"] }, t, "fr");
    assert.equal(row.details, "en 1\u202f000 points · robots club");
  });

  it("says a practice table is one", () => {
    const words = (key, values) => (key === "web.practice.badge" ? "entraînement" : t(key, values));
    const row = lobbyRow({ ...table("T"), practice: true }, words, "fr");
    assert.equal(row.details, "en 1\u202f000 points · robots club · entraînement");
    assert.equal(lobbyRow(table("U"), words, "fr").details, "en 1\u202f000 points · robots club");
  });
});

describe("points", () => {
  it("groups digits as each language writes them", () => {
    assert.equal(points(100000, "fr"), "100\u202f000");
    assert.equal(points(100000, "en"), "100,000");
    assert.equal(points(501, "fr"), "501");
  });
});
