// The projector's standings: rows, wins with halves, the round's line, the podium, redrawing only on change.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { translator } from "../../src/atout/web/static/js/core/format.js";
import {
  fingerprint,
  formatWins,
  podium,
  roundLine,
  standingsRows,
} from "../../src/atout/web/static/js/core/standings.js";

const DATA = {
  round: 2,
  rounds: 4,
  confirmed: 3,
  tables: 4,
  finished: false,
  standings: [
    { rank: 1, name: "Les As", wins: 2, points: 1820, difference: 410 },
    { rank: 2, name: "Belote & Co", wins: 1.5, points: 1500, difference: -12 },
    { rank: 2, name: "Carreau", wins: 1.5, points: 1500, difference: -12 },
    { rank: 4, name: "Dix de der", wins: 0, points: 900, difference: 0 },
  ],
};
const t = translator({
  "web.concours.finished": "Concours terminé",
  "web.concours.round_progress": "Tour {round} sur {rounds} · {confirmed}/{tables} tables terminées",
});

describe("standings rows", () => {
  it("give rank, name, wins, points and a signed difference", () => {
    assert.deepEqual(standingsRows(DATA)[1], ["2", "Belote & Co", "1,5", "1500", "−12"]);
    assert.deepEqual(standingsRows(DATA, "en")[0], ["1", "Les As", "2", "1820", "+410"]);
  });
  it("are none for data without standings", () => {
    assert.deepEqual(standingsRows({}), []);
  });
});

describe("wins", () => {
  it("write a draw's half in the reader's language", () => {
    assert.equal(formatWins(2.5, "fr"), "2,5");
    assert.equal(formatWins(2.5, "en"), "2.5");
    assert.equal(formatWins(3, "fr"), "3");
  });
});

describe("the round's line", () => {
  it("counts the confirmed tables, or says the concours is over", () => {
    assert.equal(roundLine(DATA, t), "Tour 2 sur 4 · 3/4 tables terminées");
    assert.equal(roundLine({ ...DATA, finished: true }, t), "Concours terminé");
  });
});

describe("the podium", () => {
  it("shows only at the end, with everyone ranked third or better (shared ranks included)", () => {
    assert.deepEqual(podium(DATA), []);
    const names = podium({ ...DATA, finished: true }).map((p) => p.name);
    assert.deepEqual(names, ["Les As", "Belote & Co", "Carreau"]);
  });
});

describe("the fingerprint", () => {
  it("changes when a result does, not otherwise", () => {
    assert.equal(fingerprint(DATA), fingerprint(structuredClone(DATA)));
    const moved = structuredClone(DATA);
    moved.standings[3].points = 950;
    assert.notEqual(fingerprint(DATA), fingerprint(moved));
  });
});
