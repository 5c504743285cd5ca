// The view state: what the page knows of its table, from the server's messages alone. Pure (no DOM).
//
// A snapshot or a resume gives the whole view; an update gives its events and what changed: each field it
// names replaces the old one, the deal's field by field (a new deal names them all).

/** The state before the first message. */
export function initialState() {
  return { epoch: null, version: null, view: null };
}

/** `view` with `changes` made. */
export function applyChanges(view, changes) {
  const next = { ...view, ...changes };
  if (changes.deal && view.deal) next.deal = { ...view.deal, ...changes.deal };
  return next;
}

/**
 * The state after `message`, and the events it brings (`live`: as they happen, or missed while away).
 * Messages without a view (ack, error, pong...) leave the state as it is.
 */
export function receive(state, message) {
  switch (message.type) {
    case "snapshot":
      return { state: at(message, message.view), events: [], live: false };
    case "resume":
      return {
        state: at(message, message.view),
        events: message.updates.flatMap((update) => update.events),
        live: false,
      };
    case "update":
      return { state: at(message, applyChanges(state.view, message.changes)), events: message.events, live: true };
    default:
      return { state, events: [], live: false };
  }
}

function at(message, view) {
  return { epoch: message.epoch, version: message.version, view: { ...view, version: message.version } };
}

/** The trick an event completes, to show for a moment: its cards with their seats, its winner and points. */
export function completedTrick(event) {
  return event.kind === "trick" ? { cards: event.cards, winner: event.winner, points: event.points } : null;
}

/** Whether an event starts something new on the table (a card, a deal), which puts the last trick away. */
export function movesOn(event) {
  return event.kind === "play" || event.kind === "deal_start";
}

/** The seat at a place of the screen. */
export function seatAt(view, place) {
  return view.seats.find((seat) => seat.place === place) ?? null;
}

/** A seat's player as the table names him. */
export function playerName(view, seat) {
  return view.seats[seat].name;
}

/** A side's name (North–South, or a player's seat with two or three players). */
export function sideName(view, side) {
  return view.sides.find((s) => s.side === side)?.name ?? "";
}

/** What the viewer may do with a card of his hand now: play it (and say belote with it), or nothing. */
export function playOf(deal, code) {
  return deal.plays.find((play) => play.card === code) ?? null;
}

/** Whether the viewer is to play a card now (not to bid, nor to declare first). */
export function toPlay(view) {
  const deal = view.deal;
  return Boolean(deal && deal.phase === "play" && deal.turn === view.you && deal.plays.length && !deal.declare.length);
}

/** The match's end as the viewer hears it: a player whether he won, a spectator which side did. */
export function matchTitle(view, t) {
  const winner = view.match?.winner ?? null;
  if (winner === null) return t("web.table.match_over");
  if (view.you !== null && view.you !== undefined) {
    return t(view.seats[view.you].side === winner ? "web.table.you_won" : "web.table.you_lost");
  }
  return t("common.you_win", { name: sideName(view, winner) });
}

/** Who the table waits for (the viewer named « vous »), in a sentence. */
export function waitingText(view, t) {
  const names = view.waiting.map((seat) => (seat === view.you ? t("web.table.you") : playerName(view, seat)));
  return t("web.table.waiting_for", { names: names.join(", ") });
}
