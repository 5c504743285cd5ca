// The call to an online concours's table: its identity, the page's words, the tab's title, and that a new
// round's table alerts the player once, as it happens (with the table's turn alerts, core/turn.js).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { callKey, callLines, callTitle, changed } from "../../src/atout/web/static/js/core/call.js";
import { translator } from "../../src/atout/web/static/js/core/format.js";
import { alerts } from "../../src/atout/web/static/js/core/turn.js";

const t = translator({
  "web.online.not_registered": "Pas inscrit.",
  "web.online.your_table": "Table {number}",
  "web.online.table_finished": "Partie finie.",
  "web.online.go_table": "Aller à ma table",
  "web.online.your_bye": "Exempt.",
  "web.online.wait_draw": "Attendez le tirage.",
  "web.online.paused_call": "En pause.",
  "web.online.call_title": "À votre table !",
  "web.concours.finished": "Concours terminé",
});

const TABLE = { code: "ABCDEFGHJKMN", number: 2, names: ["Les As", "Rebelote"], status: "playing" };
const called = (round, table = TABLE) => ({ round, rounds: 3, registered: true, paused: false, table });
const waiting = { round: 0, rounds: 3, registered: true, paused: false, table: null, bye: false, finished: false };

describe("the call", () => {
  it("is its round and table while the table plays, nothing otherwise", () => {
    assert.equal(callKey(called(1)), "1:ABCDEFGHJKMN");
    assert.equal(callKey(called(1, { ...TABLE, status: "finished" })), "");
    assert.equal(callKey(waiting), "");
    assert.equal(callKey(null), "");
  });

  it("words the table and its link, a bye, the draw to come, an unregistered player", () => {
    assert.deepEqual(callLines(called(1), t), {
      lines: ["Table 2", "Les As – Rebelote"],
      link: "/t/ABCDEFGHJKMN",
      linkText: "Aller à ma table",
    });
    const over = callLines({ ...called(1, { ...TABLE, status: "finished" }), paused: true }, t);
    assert.deepEqual(over.lines, ["Table 2", "Les As – Rebelote", "Partie finie.", "En pause."]);
    assert.deepEqual(callLines({ ...waiting, bye: true }, t).lines, ["Exempt."]);
    assert.deepEqual(callLines(waiting, t), { lines: ["Attendez le tirage."], link: null, linkText: "" });
    assert.deepEqual(callLines({ ...waiting, finished: true }, t).lines, ["Concours terminé"]);
    assert.deepEqual(callLines({ ...waiting, registered: false }, t).lines, ["Pas inscrit."]);
  });

  it("puts « À votre table ! » first in the tab's title while the table calls", () => {
    assert.equal(callTitle("Concours · Votre table", true, t), "À votre table ! · Concours · Votre table");
    assert.equal(callTitle("Concours · Votre table", false, t), "Concours · Votre table");
  });

  it("rings when a new round's table appears, not on the page's first look nor twice", () => {
    const options = { sound: true, notify: true, permission: "granted", hidden: true };
    const step = (was, data, live) =>
      alerts({ was: was === callKey(data), mine: callKey(data) !== "", live, ...options });
    assert.deepEqual(step(null, called(1), false), { sound: false, notify: false }); // he opened the page himself
    assert.deepEqual(step("", called(1), true), { sound: true, notify: true }); // round 1 drawn meanwhile
    assert.deepEqual(step("1:ABCDEFGHJKMN", called(1), true), { sound: false, notify: false }); // the same call
    const next = called(2, { ...TABLE, code: "PQRSTUVWXYZ2" });
    assert.deepEqual(step("1:ABCDEFGHJKMN", next, true), { sound: true, notify: true }); // round 2's table
  });

  it("is drawn anew only when the server's answer changed", () => {
    const shown = JSON.stringify(called(1));
    assert.equal(changed(shown, called(1)), false);
    assert.equal(changed(shown, called(2)), true);
  });
});
