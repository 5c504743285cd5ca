// The bidding box's choices, and the two ways it made people bid what they did not mean.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bidFor, choices, chosenValue, QUICK_VALUES, turnOf } from "../../src/atout/web/static/js/core/bidding.js";

const STRAINS = [
  { label: "♠", red: false },
  { label: "♥", red: true },
  { label: "♦", red: true },
  { label: "♣", red: false },
  { label: "SA", red: false },
];

/** The server's box for bids from `lowest` up to 160 and capot (capot but in sans atout). */
function box(lowest = 80, { coinche = false } = {}) {
  const values = [];
  for (let value = lowest; value <= 160; value += 10) {
    values.push({ label: String(value), capot: false, bids: STRAINS.map((s) => `${value}${s.label}`) });
  }
  values.push({ label: "capot", capot: true, bids: STRAINS.map((s) => (s.label === "SA" ? null : `capot${s.label}`)) });
  const calls = [{ action: "P", label: "Passe", kind: "pass" }];
  if (coinche) calls.push({ action: "X", label: "Coinche", kind: "coinche" });
  return { strains: STRAINS, values, calls };
}

describe("choices", () => {
  it("offers the five lowest values and capot as buttons, the others in a list", () => {
    const shown = choices(box(), "80");
    assert.equal(QUICK_VALUES, 5);
    assert.deepEqual(
      shown.quick.map((v) => v.label),
      ["80", "90", "100", "110", "120", "capot"],
    );
    assert.deepEqual(
      shown.more.map((v) => v.label),
      ["130", "140", "150", "160"],
    );
    assert.deepEqual(
      shown.quick.filter((v) => v.chosen).map((v) => v.label),
      ["80"],
    );
  });

  it("shows the strains of the chosen value with their bids, and the other calls", () => {
    const shown = choices(box(80, { coinche: true }), "140");
    assert.deepEqual(
      shown.strains.map((s) => s.action),
      ["140♠", "140♥", "140♦", "140♣", "140SA"],
    );
    assert.deepEqual(
      shown.calls.map((call) => call.kind),
      ["pass", "coinche"],
    );
    assert.equal(shown.more.find((v) => v.label === "140").chosen, true);
  });

  it("leaves out a strain that may not be bid at the chosen value", () => {
    assert.deepEqual(
      choices(box(), "capot").strains.map((s) => s.label),
      ["♠", "♥", "♦", "♣"],
    );
  });

  it("has no value to offer when only calls are left", () => {
    const shown = choices({ strains: [], values: [], calls: [{ action: "P", label: "Passe", kind: "pass" }] }, null);
    assert.deepEqual([shown.quick, shown.more, shown.strains], [[], [], []]);
  });
});

/** The server's box of bazar's first call: 80 to 500, and a capot at each value from 260. */
function bazarBox() {
  const values = [];
  for (let value = 80; value <= 500; value += 10) {
    values.push({ label: String(value), capot: false, bids: STRAINS.map((s) => `${value}${s.label}`) });
    if (value >= 260)
      values.push({ label: `${value} capot`, capot: true, bids: STRAINS.map((s) => `${value}C${s.label}`) });
  }
  return { strains: STRAINS, values, calls: [{ action: "P", label: "Passe", kind: "pass" }] };
}

/** The server's box of coinche's first call: 80 to 820 and capot. */
function coincheBox() {
  const values = [];
  for (let value = 80; value <= 820; value += 10) {
    values.push({ label: String(value), capot: false, bids: STRAINS.map((s) => `${value}${s.label}`) });
  }
  values.push({ label: "capot", capot: true, bids: STRAINS.map((s) => `capot${s.label}`) });
  return { strains: STRAINS, values, calls: [{ action: "P", label: "Passe", kind: "pass" }] };
}

describe("a box of many values (issue 35)", () => {
  it("offers bazar's lowest capot as a button and its other capots in the list, on demand", () => {
    const shown = choices(bazarBox(), "80");
    assert.deepEqual(
      shown.quick.map((v) => v.label),
      ["80", "90", "100", "110", "120", "260 capot"],
    );
    assert.deepEqual(
      shown.more.map((v) => v.label),
      ["130", "140", "150", "160"],
    );
    assert.equal(shown.rest.filter((v) => v.capot).length, 24);
    assert.equal(shown.rest.at(-1).label, "500 capot");
  });

  it("lists coinche's likely values first and the others on demand", () => {
    const shown = choices(coincheBox(), "80");
    assert.deepEqual(
      shown.quick.map((v) => v.label),
      ["80", "90", "100", "110", "120", "capot"],
    );
    assert.deepEqual(
      shown.more.map((v) => v.label),
      ["130", "140", "150", "160"],
    );
    assert.equal(shown.rest.length, 66);
    assert.deepEqual([shown.rest[0].label, shown.rest.at(-1).label], ["170", "820"]);
    const all = choices(coincheBox(), "80", { all: true });
    assert.equal(all.more.length, 70);
    assert.deepEqual(all.rest, []);
  });

  it("lists every value when one asked for on demand is chosen", () => {
    const shown = choices(coincheBox(), "500");
    assert.deepEqual(shown.rest, []);
    assert.equal(shown.more.find((v) => v.chosen).label, "500");
    assert.deepEqual(
      shown.strains.map((s) => s.action),
      ["500♠", "500♥", "500♦", "500♣", "500SA"],
    );
  });

  it("starts each turn on the lowest value, even after a capot chosen", () => {
    const deal = (number, calls) => ({ number, calls: Array.from({ length: calls }, () => ({})) });
    const chosen = { turn: turnOf(deal(1, 0)), value: "300 capot" };
    assert.equal(chosenValue(bazarBox(), chosen, turnOf(deal(1, 4))), "80");
  });
});

describe("the value chosen", () => {
  const deal = (number, calls) => ({ number, calls: Array.from({ length: calls }, () => ({})) });

  it("starts at the lowest value", () => {
    assert.equal(chosenValue(box(), null, turnOf(deal(1, 0))), "80");
  });

  it("stays chosen within its turn", () => {
    const turn = turnOf(deal(1, 1));
    assert.equal(chosenValue(box(), { turn, value: "130" }, turn), "130");
  });

  it("is forgotten at the next turn and the next deal, where it was bid by mistake (bug 1)", () => {
    const chosen = { turn: turnOf(deal(1, 1)), value: "130" };
    assert.equal(chosenValue(box(90), chosen, turnOf(deal(1, 5))), "90");
    assert.equal(chosenValue(box(), chosen, turnOf(deal(2, 1))), "80");
  });

  it("falls back to the lowest when it is no longer offered", () => {
    const turn = turnOf(deal(1, 1));
    assert.equal(chosenValue(box(140), { turn, value: "130" }, turn), "140");
  });
});

describe("bidFor", () => {
  it("bids the strain at the value chosen when it is pressed, not at the value drawn (bug 2)", () => {
    const offered = box();
    const drawn = choices(offered, "80").strains[1]; // ♥, drawn when 80 was chosen
    assert.equal(bidFor(offered, "150", drawn.index), "150♥"); // 150 chosen since, the box not yet redrawn
    assert.equal(bidFor(offered, "capot", 3), "capot♣");
  });

  it("bids nothing where the strain may not be bid, or the value is not offered", () => {
    assert.equal(bidFor(box(), "capot", 4), null);
    assert.equal(bidFor(box(), "70", 1), null);
  });
});
