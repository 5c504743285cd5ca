// Talk at the table: a message checked before sending, the log's rows, the mute list in storage.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  addLine,
  checkText,
  clock,
  logRows,
  mayTalk,
  mutedSpeakers,
  muteKey,
  QUICK_KEYS,
  readMuted,
  sayMessage,
  TALK_LENGTH,
  toggleMuted,
} from "../../src/atout/web/static/js/core/talk.js";

/** A storage like the browser's localStorage, in memory. */
function memoryStorage(entries = {}) {
  const data = new Map(Object.entries(entries));
  return {
    getItem: (key) => (data.has(key) ? data.get(key) : null),
    setItem: (key, value) => data.set(key, String(value)),
    data,
  };
}

const line = (id, who, name, text, extra = {}) => ({
  id,
  seat: 0,
  name,
  who,
  quick: null,
  text,
  at: "2026-11-28T13:05:00+00:00",
  ...extra,
});

describe("checkText", () => {
  it("strips the text and keeps it as typed, markup included", () => {
    assert.deepEqual(checkText("  <img src=x onerror=alert(1)>  "), { text: "<img src=x onerror=alert(1)>" });
  });

  it("refuses an empty text, control characters and bidirectional overrides", () => {
    assert.deepEqual(checkText("   "), { error: "empty" });
    assert.deepEqual(checkText(undefined), { error: "empty" });
    assert.deepEqual(checkText("bip\u0007"), { error: "control" });
    assert.deepEqual(checkText("a\nb"), { error: "control" });
    assert.deepEqual(checkText("a\u202eb"), { error: "control" });
    assert.deepEqual(checkText("a\ud800b"), { error: "control" });
  });

  it("counts characters, not UTF-16 units, up to the limit", () => {
    assert.deepEqual(checkText("🂡".repeat(TALK_LENGTH)), { text: "🂡".repeat(TALK_LENGTH) });
    assert.deepEqual(checkText("x".repeat(TALK_LENGTH + 1)), { error: "too_long" });
    assert.deepEqual(checkText(` ${"é".repeat(TALK_LENGTH)} `), { text: "é".repeat(TALK_LENGTH) });
  });
});

describe("messages and rights", () => {
  it("sends a quick message by its key, free text as text", () => {
    assert.deepEqual(sayMessage({ quick: "thanks" }), { type: "say", quick: "thanks" });
    assert.deepEqual(sayMessage({ text: "salut" }), { type: "say", text: "salut" });
    assert.ok(QUICK_KEYS.includes("bravo_partner") && QUICK_KEYS.length === 5);
  });

  it("lets a seated player talk, a spectator only where the host allows, free text only where it is on", () => {
    assert.deepEqual(mayTalk({ you: 0 }, { free_text: true, spectators: false }), { talk: true, type: true });
    assert.deepEqual(mayTalk({ you: 2 }, { free_text: false, spectators: false }), { talk: true, type: false });
    assert.deepEqual(mayTalk({ you: null }, { free_text: true, spectators: false }), { talk: false, type: false });
    assert.deepEqual(mayTalk({ you: null }, { free_text: true, spectators: true }), { talk: true, type: true });
  });
});

describe("the log", () => {
  it("adds a line once and keeps the last ones", () => {
    const one = addLine([], line(1, "a", "Ann", "salut"));
    assert.equal(addLine(one, line(1, "a", "Ann", "salut")), one);
    const many = [2, 3, 4].reduce((lines, id) => addLine(lines, line(id, "a", "Ann", `m${id}`), 3), one);
    assert.deepEqual(
      many.map((l) => l.id),
      [2, 3, 4],
    );
  });

  it("writes a line's time on the reader's clock", () => {
    assert.equal(clock("2026-11-28T13:05:00+00:00", "fr", "UTC"), "13:05");
    assert.equal(clock("2026-11-28T13:05:00+00:00", "en", "Europe/Paris"), "14:05");
    assert.equal(clock("not a time"), "");
  });

  it("leaves out the muted speakers and marks the reader's own lines", () => {
    const lines = [line(1, "a", "Ann", "salut"), line(2, "b", "Bob", "<b>yo</b>", { quick: "thanks" })];
    const rows = logRows(lines, new Set(["a"]), { me: "b", timeZone: "UTC" });
    assert.deepEqual(rows, [
      { id: 2, time: "13:05", name: "Bob", text: "<b>yo</b>", who: "b", quick: true, mine: true },
    ]);
    assert.equal(logRows(lines, new Set()).length, 2);
  });
});

describe("the mute list", () => {
  it("is kept per table, toggled, and read back", () => {
    const storage = memoryStorage();
    let muted = readMuted(storage, "ABC");
    assert.equal(muted.size, 0);
    muted = toggleMuted(storage, "ABC", muted, "a");
    assert.deepEqual([...readMuted(storage, "ABC")], ["a"]);
    assert.equal(readMuted(storage, "XYZ").size, 0); // another table's list is its own
    muted = toggleMuted(storage, "ABC", muted, "a");
    assert.deepEqual([...readMuted(storage, "ABC")], []);
    assert.equal(muteKey("ABC"), "atout.mute.ABC");
  });

  it("reads an unreadable entry as an empty list", () => {
    assert.equal(readMuted(memoryStorage({ "atout.mute.T": "{oops" }), "T").size, 0);
    assert.deepEqual([...readMuted(memoryStorage({ "atout.mute.T": '["a", 3]' }), "T")], ["a"]);
  });

  it("names the muted speakers by the last name the log gives them", () => {
    const lines = [line(1, "a", "Ann", "x"), line(2, "a", "Anne", "y")];
    assert.deepEqual(mutedSpeakers(lines, new Set(["a", "z"])), [
      { who: "a", name: "Anne" },
      { who: "z", name: "?" },
    ]);
  });
});
