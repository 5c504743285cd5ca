// Movement and sound: what moves and what sounds, in order, from an update's events.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  COINCHES,
  flip,
  GATHER_MS,
  movements,
  plan,
  SAY_MS,
  SOUNDS,
  sounds,
  TRAVEL_MS,
} from "../../src/atout/web/static/js/core/motion.js";

const card = (code) => ({ code, rank: code[0], suit: "♥", red: true, name: code });
const play = (seat, code, word = null) => ({ kind: "play", seat, card: card(code), word, said: word });
const trick = (winner, codes) => ({
  kind: "trick",
  number: 1,
  leader: 0,
  winner,
  points: 20,
  dix_de_der: 0,
  cards: codes.map((code, seat) => ({ seat, card: card(code) })),
});
const CALLS = { P: "pass", X: "coinche", XX: "surcoinche" };
const call = (seat, action) => ({ kind: "call", seat, action, label: action, call: CALLS[action] ?? "bid" });

describe("movements", () => {
  it("sends the viewer's card from his hand and the others' from their seats", () => {
    assert.deepEqual(movements([play(0, "JH"), play(1, "9H")], 0), [
      { kind: "play", seat: 0, card: "JH", from: "hand" },
      { kind: "play", seat: 1, card: "9H", from: "seat" },
    ]);
  });

  it("sends every card from its seat to a spectator", () => {
    assert.equal(movements([play(0, "JH")], null)[0].from, "seat");
  });

  it("gathers a trick won to its winner, after its last card", () => {
    const moves = movements([play(3, "AH"), trick(2, ["JH", "9H", "TH", "AH"])], 0);
    assert.deepEqual(
      moves.map((move) => move.kind),
      ["play", "gather"],
    );
    assert.deepEqual(moves[1], { kind: "gather", winner: 2, cards: ["JH", "9H", "TH", "AH"] });
  });

  it("shows a call, announcements, belote and the announcements shown at the speaker's seat, once", () => {
    const events = [
      call(1, "80H"),
      { kind: "declare", seat: 2, announcements: [{ label: "Tierce", points: 20, cards: [] }] },
      play(3, "KH", "belote"),
      { kind: "shown", winner: 0, points: { 0: 20 }, shown: { 2: [], 0: [] } },
      call(1, "P"),
    ];
    assert.deepEqual(
      movements(events, 0).filter((move) => move.kind === "say"),
      [1, 2, 3, 0].map((seat) => ({ kind: "say", seat })),
    );
  });

  it("says when a new deal starts (what was pending is dropped) and ignores what does not move", () => {
    const events = [{ kind: "deal_end" }, { kind: "deal_start", number: 2, dealer: 1 }, { kind: "waiting" }];
    assert.deepEqual(movements(events, 0), [{ kind: "deal" }]);
  });
});

describe("sounds", () => {
  it("sounds a card, the trick it completes and the deal's end, in order and spaced", () => {
    const events = [play(3, "AH"), trick(2, ["JH", "9H", "TH", "AH"]), { kind: "deal_end" }];
    const heard = sounds(events);
    assert.deepEqual(
      heard.map((sound) => sound.name),
      ["card", "trick", "deal"],
    );
    assert.equal(heard[0].at, 0);
    assert.ok(heard[1].at > heard[0].at && heard[2].at > heard[1].at);
  });

  it("sounds a coinche and a surcoinche, not a bid nor a pass", () => {
    const events = [call(0, "80H"), call(1, "X"), call(2, "P"), call(3, "XX")];
    assert.deepEqual(
      sounds(events).map((sound) => sound.name),
      ["coinche", "coinche"],
    );
    assert.ok(COINCHES.has("coinche") && COINCHES.has("surcoinche") && !COINCHES.has("pass"));
  });

  it("has notes for every sound it names, made at run time (no file)", () => {
    for (const name of ["card", "trick", "deal", "coinche"]) {
      assert.ok(SOUNDS[name].length > 0);
      for (const note of SOUNDS[name]) assert.ok(note.hertz > 0 && note.length > 0 && note.at >= 0);
    }
  });
});

describe("plan", () => {
  const events = [call(1, "X"), play(0, "JH"), trick(0, ["JH", "9H", "TH", "AH"])];

  it("moves and sounds what happens now", () => {
    const next = plan(events, { you: 0 });
    assert.equal(next.moves.length, 3);
    assert.deepEqual(
      next.sounds.map((sound) => sound.name),
      ["coinche", "card", "trick"],
    );
  });

  it("moves nothing when the player prefers reduced motion, and still sounds", () => {
    const next = plan(events, { you: 0, reduced: true });
    assert.deepEqual(next.moves, []);
    assert.equal(next.sounds.length, 3);
  });

  it("sounds nothing when the sound is off, and still moves", () => {
    const next = plan(events, { you: 0, muted: true });
    assert.deepEqual(next.sounds, []);
    assert.equal(next.moves.length, 3);
  });

  it("neither moves nor sounds what was missed, nor in a hidden tab", () => {
    assert.deepEqual(plan(events, { live: false }), { moves: [], sounds: [] });
    assert.deepEqual(plan(events, { hidden: true }), { moves: [], sounds: [] });
  });

  it("keeps every movement short", () => {
    for (const ms of [TRAVEL_MS, GATHER_MS, SAY_MS]) assert.ok(ms > 0 && ms <= 300);
  });
});

describe("flip", () => {
  it("puts an element back where it was, centre to centre, and at its size", () => {
    const hand = { left: 100, top: 600, width: 70, height: 100 };
    const trick = { left: 600, top: 300, width: 70, height: 100 };
    assert.deepEqual(flip(hand, trick), { x: -500, y: 300, scale: 1 });
  });

  it("grows a card from a seat's small backs, within bounds", () => {
    const backs = { left: 0, top: 0, width: 35, height: 38 };
    const trick = { left: 0, top: 0, width: 70, height: 100 };
    assert.equal(flip(backs, trick).scale, 0.5);
    assert.equal(flip({ ...backs, width: 1 }, trick).scale, 0.3);
    assert.equal(flip(backs, { ...trick, width: 0 }).scale, 1);
  });
});
