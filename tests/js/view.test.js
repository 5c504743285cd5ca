// The view state: what the page keeps of its table, from the server's messages alone.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  applyChanges,
  completedTrick,
  initialState,
  matchTitle,
  movesOn,
  playOf,
  receive,
  sideName,
  toPlay,
  waitingText,
} from "../../src/atout/web/static/js/core/view.js";

const card = (code) => ({ code, rank: code[0], suit: "♥", red: true, name: code });
const deal = (fields = {}) => ({
  number: 1,
  phase: "play",
  turn: 2,
  trick: [],
  hand: [card("JH"), card("QH")],
  plays: [{ card: "QH", action: "QH", belote: { action: "QH!", label: "Belote !" } }],
  declare: [],
  calls: [],
  ...fields,
});
const view = (fields = {}) => ({
  version: 3,
  you: 2,
  waiting: [],
  sides: [
    { side: 0, name: "Nord–Sud" },
    { side: 1, name: "Est–Ouest" },
  ],
  deal: deal(),
  ...fields,
});

describe("receive", () => {
  it("takes a snapshot's view whole, with its epoch and version", () => {
    const { state, events, live } = receive(initialState(), { type: "snapshot", epoch: "e", version: 3, view: view() });
    assert.deepEqual([state.epoch, state.version, state.view.deal.turn, events, live], ["e", 3, 2, [], false]);
  });

  it("applies an update's changes and gives its events as they happen", () => {
    const before = receive(initialState(), { type: "snapshot", epoch: "e", version: 3, view: view() }).state;
    const events = [{ kind: "play", seat: 2, card: card("QH"), word: null, said: null }];
    const changes = { deal: { turn: 3, trick: [{ seat: 2, card: card("QH") }] } };
    const { state, live } = receive(before, { type: "update", epoch: "e", version: 4, events, changes });
    assert.equal(live, true);
    assert.equal(state.version, 4);
    assert.equal(state.view.version, 4);
    assert.equal(state.view.deal.turn, 3);
    assert.deepEqual(state.view.deal.hand, before.view.deal.hand); // what the update does not name stays
    assert.equal(before.view.deal.turn, 2); // the state before is left as it was
  });

  it("gives a resume's missed events, not as they happen", () => {
    const updates = [
      { version: 4, events: [{ kind: "seat", seat: 1 }] },
      { version: 5, events: [{ kind: "waiting" }] },
    ];
    const { state, events, live } = receive(initialState(), {
      type: "resume",
      epoch: "e",
      version: 5,
      updates,
      view: view(),
    });
    assert.deepEqual(
      events.map((e) => e.kind),
      ["seat", "waiting"],
    );
    assert.equal(live, false);
    assert.equal(state.view.version, 5);
  });

  it("leaves the state as it is for a message without a view", () => {
    const before = receive(initialState(), { type: "snapshot", epoch: "e", version: 3, view: view() }).state;
    assert.equal(receive(before, { type: "ack", id: "a1" }).state, before);
  });
});

describe("applyChanges", () => {
  it("replaces each field named, the deal's field by field", () => {
    const next = applyChanges(view(), { waiting: [2], deal: { phase: "done" } });
    assert.deepEqual(next.waiting, [2]);
    assert.equal(next.deal.phase, "done");
    assert.equal(next.deal.turn, 2);
  });

  it("takes a deal whole where there was none (the game starts)", () => {
    const next = applyChanges(view({ deal: null }), { deal: deal({ number: 1 }) });
    assert.equal(next.deal.number, 1);
  });

  it("says a deal is gone (a new game's lobby) when the changes say so", () => {
    assert.equal(applyChanges(view(), { deal: null }).deal, null);
  });
});

describe("events", () => {
  it("hold a completed trick with the seat of each card, as the server gives them", () => {
    const cards = [{ seat: 3, card: card("JH") }];
    assert.deepEqual(completedTrick({ kind: "trick", cards, winner: 3, points: 22 }), { cards, winner: 3, points: 22 });
    assert.equal(completedTrick({ kind: "play" }), null);
  });

  it("move the table on at a card or a new deal", () => {
    assert.deepEqual(
      ["play", "deal_start", "seat", "trick"].map((kind) => movesOn({ kind })),
      [true, true, false, false],
    );
  });
});

describe("the viewer's own", () => {
  it("finds what a card of his hand may do", () => {
    assert.equal(playOf(deal(), "QH").belote.action, "QH!");
    assert.equal(playOf(deal(), "JH"), null);
  });

  it("is to play only at his turn of the play, once his announcements are declared", () => {
    assert.equal(toPlay(view()), true);
    assert.equal(toPlay(view({ you: 1 })), false);
    assert.equal(toPlay(view({ deal: deal({ declare: [{ action: "ann:-", label: "—" }] }) })), false);
    assert.equal(toPlay(view({ deal: deal({ phase: "auction" }) })), false);
    assert.equal(toPlay(view({ deal: null })), false);
  });

  it("names a side as the server does", () => {
    assert.equal(sideName(view(), 1), "Est–Ouest");
  });
});

describe("what the table says to its viewer (issue 35)", () => {
  const t = (key, values = {}) => `${key}${Object.keys(values).length ? JSON.stringify(values) : ""}`;
  const seats = [0, 1, 2, 3].map((seat) => ({ seat, side: seat % 2, name: ["Nadia", "Eric", "Claire", "Omar"][seat] }));

  it("tells a player waited for that it is him", () => {
    const shown = waitingText(view({ seats, waiting: [2, 3] }), t);
    assert.equal(shown, 'web.table.waiting_for{"names":"web.table.you, Omar"}');
  });

  it("tells a player whether he won, a spectator which side did", () => {
    const match = { winner: 1 };
    assert.equal(matchTitle(view({ seats, match, you: 2 }), t), "web.table.you_lost");
    assert.equal(matchTitle(view({ seats, match, you: 3 }), t), "web.table.you_won");
    assert.equal(matchTitle(view({ seats, match, you: null }), t), 'common.you_win{"name":"Est–Ouest"}');
    assert.equal(matchTitle(view({ seats, match: { winner: null }, you: 2 }), t), "web.table.match_over");
  });
});
