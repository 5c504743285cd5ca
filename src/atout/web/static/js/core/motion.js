// Movement and sound, pure (no DOM): from the events of an update, what moves on the table and what sounds,
// in order. A card travels from the hand (the player's own) or from its player's seat to the trick; a trick won
// goes to its winner's seat once the table stops showing it; a call, announcements, belote appear at the
// speaker's seat. Sounds: a card played, a trick won, a deal's end, a coinche (the turn's tone is core/turn.js's).
// Nothing moves when the player prefers reduced motion, nothing sounds when the sound is off, and neither for
// what happened while the page was away (a snapshot, a resume) or hidden.

/** How long a card travels to the trick, a trick to its winner, a word takes to appear (milliseconds). */
export const TRAVEL_MS = 240;
export const GATHER_MS = 280;
export const SAY_MS = 180;

/** Seconds between two sounds of one update (a card, then the trick it completes, then the deal's end). */
export const SOUND_STEP = 0.16;

/**
 * The sounds, made at run time by the Web Audio API (no sound file): notes (`hertz`, `at` and `length` in
 * seconds, `wave`, `gain`) or a short burst of noise filtered around `hertz` (`noise`).
 */
export const SOUNDS = {
  card: [{ noise: true, hertz: 2600, at: 0, length: 0.06, gain: 0.35 }],
  trick: [
    { noise: true, hertz: 1100, at: 0, length: 0.11, gain: 0.35 },
    { wave: "triangle", hertz: 392, at: 0.02, length: 0.12, gain: 0.08 },
  ],
  deal: [
    { wave: "sine", hertz: 523.25, at: 0, length: 0.14, gain: 0.14 },
    { wave: "sine", hertz: 659.25, at: 0.11, length: 0.14, gain: 0.14 },
    { wave: "sine", hertz: 783.99, at: 0.22, length: 0.3, gain: 0.14 },
  ],
  coinche: [
    { wave: "square", hertz: 233.08, at: 0, length: 0.08, gain: 0.06 },
    { wave: "square", hertz: 233.08, at: 0.12, length: 0.12, gain: 0.06 },
  ],
};

/** The calls that sound as a coinche (the server says what each call is). */
export const COINCHES = new Set(["coinche", "surcoinche"]);

/**
 * What moves, in the events' order: `{kind: "play", seat, card, from}` (a card's code, from the viewer's
 * "hand" or his "seat"), `{kind: "gather", winner, cards}` (a trick, once the table stops showing it),
 * `{kind: "say", seat}` (a word at a seat), `{kind: "deal"}` (a new deal: what was pending is dropped).
 */
export function movements(events, you) {
  const moves = [];
  const say = (seat) => {
    if (!moves.some((move) => move.kind === "say" && move.seat === seat)) moves.push({ kind: "say", seat });
  };
  for (const event of events) {
    switch (event.kind) {
      case "play":
        moves.push({
          kind: "play",
          seat: event.seat,
          card: event.card.code,
          from: event.seat === you ? "hand" : "seat",
        });
        if (event.word) say(event.seat);
        break;
      case "trick":
        moves.push({ kind: "gather", winner: event.winner, cards: event.cards.map((c) => c.card.code) });
        break;
      case "call":
      case "declare":
        say(event.seat);
        break;
      case "shown":
        for (const seat of Object.keys(event.shown)) say(Number(seat));
        break;
      case "deal_start":
        moves.push({ kind: "deal" });
        break;
    }
  }
  return moves;
}

/** What sounds, in the events' order: `{name, at}` (a key of SOUNDS, seconds from now). */
export function sounds(events) {
  const names = [];
  for (const event of events) {
    if (event.kind === "play") names.push("card");
    else if (event.kind === "trick") names.push("trick");
    else if (event.kind === "deal_end") names.push("deal");
    else if (event.kind === "call" && COINCHES.has(event.call)) names.push("coinche");
  }
  return names.map((name, i) => ({ name, at: Math.round(i * SOUND_STEP * 1000) / 1000 }));
}

/**
 * The movements and sounds of a message's events. `live`: they happen now (an update, not a snapshot or a
 * resume); `reduced`: the player prefers reduced motion; `muted`: the sound is off; `hidden`: the tab is.
 */
export function plan(events, { live = true, reduced = false, muted = false, hidden = false, you = null } = {}) {
  const now = live && !hidden;
  return {
    moves: now && !reduced ? movements(events, you) : [],
    sounds: now && !muted ? sounds(events) : [],
  };
}

/**
 * The FLIP of an element drawn at `last` that was at `first` (two rectangles: left, top, width, height): the
 * translation and scale that put it back where it was, from which it moves to its place.
 */
export function flip(first, last) {
  const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
  const [fx, fy] = centre(first);
  const [lx, ly] = centre(last);
  const scale = last.width > 0 ? Math.min(1.5, Math.max(0.3, first.width / last.width)) : 1;
  return { x: Math.round(fx - lx), y: Math.round(fy - ly), scale: Math.round(scale * 100) / 100 };
}
