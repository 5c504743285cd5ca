// "Your turn": the view's question, the tab's title and icon, the alerts, the countdown at an absent seat.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import {
  alerts,
  COUNTDOWN_FROM,
  clockOf,
  countdown,
  FAVICONS,
  favicon,
  pageTitle,
  readChoice,
  writeChoice,
  yourTurn,
} from "../../src/atout/web/static/js/core/turn.js";

const t = (key, values = {}) =>
  ({
    "web.turn.title": "À vous !",
    "web.turn.countdown": `Un robot joue dans ${values.seconds} s`,
    "web.turn.countdown_short": `${values.seconds} s`,
  })[key] ?? key;

const deal = (fields) => ({ phase: "play", turn: 0, bidding: null, plays: [], declare: [], ...fields });
const view = (fields, you = 0) => ({ status: "playing", you, deal: deal(fields) });

describe("yourTurn", () => {
  it("holds when the view asks for a call, a card or announcements", () => {
    assert.equal(yourTurn(view({ phase: "auction", bidding: { values: [], calls: [] } })), true);
    assert.equal(yourTurn(view({ plays: [{ card: "JH", action: "JH" }] })), true);
    assert.equal(yourTurn(view({ declare: [{ label: "Tierce", action: "T" }] })), true);
  });

  it("does not on another seat's turn, with nothing to choose, at a deal's end, or for a spectator", () => {
    assert.equal(yourTurn(view({ turn: 1, plays: [{ card: "JH" }] })), false);
    assert.equal(yourTurn(view({})), false);
    assert.equal(yourTurn(view({ phase: "done", plays: [{ card: "JH" }] })), false);
    assert.equal(yourTurn(view({ plays: [{ card: "JH" }] }, null)), false);
    assert.equal(yourTurn({ status: "lobby", you: 0, deal: null }), false);
    assert.equal(yourTurn(null), false);
  });
});

describe("the tab", () => {
  it("says « À vous ! » first on the player's turn, and the table's title otherwise", () => {
    assert.equal(pageTitle("Table ABCD · atout", true, t), "À vous ! · Table ABCD · atout");
    assert.equal(pageTitle("Table ABCD · atout", false, t), "Table ABCD · atout");
  });

  it("has two icons, SVG data URLs, the normal one the same as the pages' own", () => {
    assert.equal(favicon(false), FAVICONS.normal);
    assert.equal(favicon(true), FAVICONS.turn);
    assert.notEqual(FAVICONS.normal, FAVICONS.turn);
    for (const icon of Object.values(FAVICONS)) {
      assert.match(icon, /^data:image\/svg\+xml,%3Csvg /);
      assert.doesNotMatch(icon, /[<>#"]/); // every character a URL must escape is escaped
    }
    const base = readFileSync(new URL("../../src/atout/web/templates/base.html", import.meta.url), "utf8");
    assert.ok(base.includes(`<link rel="icon" href="${FAVICONS.normal}">`));
  });
});

describe("alerts", () => {
  const quiet = { was: false, mine: true, live: true, sound: true, notify: true, permission: "granted" };

  it("ring when the turn begins, as it happens, with the sound on", () => {
    assert.equal(alerts({ ...quiet, hidden: false }).sound, true);
    assert.equal(alerts({ ...quiet, sound: false, hidden: false }).sound, false);
    assert.equal(alerts({ ...quiet, was: true, hidden: false }).sound, false); // still his turn: once is enough
    assert.equal(alerts({ ...quiet, live: false, hidden: false }).sound, false); // a page opened on his turn
    assert.equal(alerts({ ...quiet, mine: false, hidden: false }).sound, false);
  });

  it("notify only a hidden tab, where the player asked for it and the browser granted it", () => {
    assert.equal(alerts({ ...quiet, hidden: true }).notify, true);
    assert.equal(alerts({ ...quiet, hidden: false }).notify, false);
    assert.equal(alerts({ ...quiet, hidden: true, notify: false }).notify, false);
    assert.equal(alerts({ ...quiet, hidden: true, permission: "default" }).notify, false);
    assert.equal(alerts({ ...quiet, hidden: true, permission: "denied" }).notify, false);
    assert.equal(alerts({ ...quiet, hidden: true, was: true }).notify, false);
  });
});

describe("the countdown", () => {
  it("counts from the message's receipt, not from any clock of the server's", () => {
    assert.deepEqual(clockOf({ type: "update", clock: { seat: 2, seconds: 12.5 } }, 1000), { seat: 2, until: 13500 });
    assert.equal(clockOf({ type: "update" }, 1000), null);
    assert.equal(clockOf({ type: "update", clock: { seat: 2, seconds: 0 } }, 1000), null);
  });

  it("shows in the last seconds only, rounded up, urgent at the end, and goes at zero", () => {
    const clock = clockOf({ clock: { seat: 3, seconds: 45 } }, 0);
    assert.equal(countdown(clock, 0, t), null); // 45 s left: not yet
    assert.equal(countdown(clock, (45 - COUNTDOWN_FROM - 0.5) * 1000, t), null);
    assert.deepEqual(countdown(clock, (45 - COUNTDOWN_FROM) * 1000, t), {
      seat: 3,
      seconds: 30,
      text: "Un robot joue dans 30 s",
      short: "30 s",
      urgent: false,
    });
    assert.equal(countdown(clock, 35_200, t).seconds, 10);
    assert.equal(countdown(clock, 35_200, t).urgent, true);
    assert.equal(countdown(clock, 44_999, t).seconds, 1);
    assert.equal(countdown(clock, 45_000, t), null);
    assert.equal(countdown(null, 0, t), null);
  });

  it("shows the whole wait when the timeout is short", () => {
    const clock = clockOf({ clock: { seat: 1, seconds: 20 } }, 0);
    assert.equal(countdown(clock, 0, t).seconds, 20);
  });
});

describe("the player's choices", () => {
  const storage = () => {
    const kept = new Map();
    return { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => kept.set(key, value) };
  };

  it("keep the sound on and notifications off until he changes them", () => {
    const kept = storage();
    assert.equal(readChoice(kept, "atout.turn.sound", true), true);
    assert.equal(readChoice(kept, "atout.turn.notify", false), false);
    writeChoice(kept, "atout.turn.sound", false);
    writeChoice(kept, "atout.turn.notify", true);
    assert.equal(readChoice(kept, "atout.turn.sound", true), false);
    assert.equal(readChoice(kept, "atout.turn.notify", false), true);
  });
});
