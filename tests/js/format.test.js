// Formatting: the catalogue's words, signed points, score sheets, suits in their colours.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  capitalized,
  heardText,
  sheetRows,
  signed,
  suitParts,
  translator,
} from "../../src/atout/web/static/js/core/format.js";

describe("translator", () => {
  const t = translator({ "web.table.trick_won": "{name} remporte le pli ({points} points)" });

  it("fills the placeholders it is given and leaves the others", () => {
    assert.equal(t("web.table.trick_won", { name: "Nord", points: 14 }), "Nord remporte le pli (14 points)");
    assert.equal(t("web.table.trick_won", { name: "Nord" }), "Nord remporte le pli ({points} points)");
  });

  it("says a missing key as it is", () => {
    assert.equal(t("web.nothing"), "web.nothing");
  });
});

describe("numbers and words", () => {
  it("signs points as a score sheet does, with a true minus", () => {
    assert.deepEqual([90, -3, 0].map(signed), ["+90", "−3", "0"]);
  });

  it("capitalizes a text's first letter", () => {
    assert.equal(capitalized("contrat réussi"), "Contrat réussi");
  });

  it("cuts a text around its suit symbols, each in its colour", () => {
    assert.deepEqual(suitParts("90 ♥ coinché"), [
      { text: "90 ", colour: null },
      { text: "♥", colour: "red" },
      { text: " coinché", colour: null },
    ]);
    assert.deepEqual(suitParts("♠"), [{ text: "♠", colour: "black" }]);
  });

  it("says an announcement's points where they are known", () => {
    assert.equal(heardText({ label: "Tierce", points: 20 }), "Tierce (20)");
    assert.equal(heardText({ label: "Carré", points: null }), "Carré");
  });
});

describe("sheetRows", () => {
  const sides = [
    { side: 0, name: "Nord–Sud" },
    { side: 1, name: "Est–Ouest" },
  ];

  it("gives one row per term, each side's points summed, in the terms' order", () => {
    const lines = [
      { side: 0, label: "points des plis", points: 87, detail: "" },
      { side: 1, label: "points des plis", points: 75, detail: "" },
      { side: 0, label: "arrondi", points: 3, detail: "" },
      { side: 1, label: "arrondi", points: 5, detail: "" },
    ];
    assert.deepEqual(sheetRows(lines, sides), [
      { label: "Points des plis", details: [], points: [87, 75] },
      { label: "Arrondi", details: [], points: [3, 5] },
    ]);
  });

  it("says under a term what it adds up, once", () => {
    const detail = "(Chute 160 + Contrat 100) × 2";
    const lines = [{ side: 1, label: "Chute × 2", points: 520, detail }];
    assert.deepEqual(sheetRows(lines, sides), [{ label: "Chute × 2", details: [detail], points: [0, 520] }]);
  });
});
