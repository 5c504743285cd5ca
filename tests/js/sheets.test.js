// Score sheets on a phone: when to reload, and the sheets this browser keeps.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KEPT_MAX, keep, keptSheets, shouldReload } from "../../src/atout/web/static/js/core/sheets.js";

describe("reloading a sheet changed elsewhere", () => {
  it("reloads on a new version, never while the player types, nor without an answer", () => {
    assert.equal(shouldReload("3.open.1", "4.open.2", false), true);
    assert.equal(shouldReload("3.open.1", "4.open.2", true), false);
    assert.equal(shouldReload("3.open.1", "3.open.1", false), false);
    assert.equal(shouldReload("3.open.1", undefined, false), false);
  });
});

describe("the kept sheets", () => {
  it("read back what was kept, and nothing from a corrupt entry", () => {
    assert.deepEqual(keptSheets('[{"token":"abc","names":"Nous – Eux"}]'), [{ token: "abc", names: "Nous – Eux" }]);
    assert.deepEqual(keptSheets("{not json"), []);
    assert.deepEqual(keptSheets('{"token":"abc"}'), []);
    assert.deepEqual(keptSheets('[{"token":3,"names":"x"},null]'), []);
    assert.deepEqual(keptSheets(null), []);
  });
  it("put the latest first, once, and keep at most the limit", () => {
    let list = [];
    for (let i = 0; i < KEPT_MAX + 5; i++) list = keep(list, `t${i}`, `n${i}`);
    assert.equal(list.length, KEPT_MAX);
    list = keep(list, "t10", "renamed");
    assert.deepEqual(list[0], { token: "t10", names: "renamed" });
    assert.equal(list.filter((s) => s.token === "t10").length, 1);
  });
});
