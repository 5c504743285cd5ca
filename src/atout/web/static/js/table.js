// The table page: a thin client. It draws the view the server sends (its own hand, what is public, every
// word in the player's language, the seat of each card) and sends the actions the view offers; the server
// alone decides what is legal and says why when it refuses. The view state and the bidding box's choices
// are the pure core's (core/view.js, core/bidding.js).
import { bidFor, choices, chosenValue, turnOf } from "./core/bidding.js";
import { heardText, signed } from "./core/format.js";
import {
  completedTrick,
  initialState,
  matchTitle,
  movesOn,
  playerName,
  playOf,
  receive as receiveMessage,
  sideName,
  toPlay,
  waitingText,
} from "./core/view.js";
import { button, cardBack, cardEl, el, randomId, resultSheets, suitText, toast, tokenKey } from "./dom.js";
import { lang, loadMessages, t } from "./i18n.js";
import { createMotion } from "./motion.js";
import { createPractice } from "./practice.js";
import { createTalk } from "./talk.js";
import { createTurn } from "./turn.js";

const code = document.body.dataset.code;
const HOLD_MS = 1400; // a completed trick stays this long before it is gathered
const ALL_VALUES = "*"; // the bidding list's option that lists every value

const state = {
  ...initialState(),
  socket: null,
  retry: 0,
  replaced: false,
  hold: null, // the completed trick being shown: {cards: [{seat, card}], winner, points}
  holdTimer: null,
  showLast: false, // the last trick, shown until the next tap, key or card
  sheet: false, // the match's score sheet, shown on demand
  pending: new Map(), // action id -> message, resent after a reconnection until acknowledged
  beloteFor: null, // a card of the hand waiting for the belote question: its play choice
  bid: null, // the bid value chosen at this turn: {turn, value}
  allValues: null, // the turn at which every value was asked for in the bidding box's list
  focusedTurn: null, // the last turn whose bidding box took the focus
};

const root = document.getElementById("table");
const talk = createTalk({ code, send, view: () => state.view }); // talk at the table: talk.js
const yourTurn = createTurn({ code, view: () => state.view }); // the tab, a tone, a notification, the clock: turn.js
const motion = createMotion({ view: () => state.view, sound: yourTurn.sound }); // cards moving, sounds: motion.js
const practice = createPractice({ send, view: () => state.view }); // hints, each card's cost: practice.js
// An account's seat (a competition's table): the server gives its token with the page.
if (document.body.dataset.token) localStorage.setItem(tokenKey(code), document.body.dataset.token);
const token = () => localStorage.getItem(tokenKey(code));

// ------------------------------------------------------------------ connection
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${code}`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    state.retry = 0;
    document.getElementById("offline").hidden = true;
    socket.send(JSON.stringify({ type: "hello", token: token(), epoch: state.epoch, version: state.version, lang }));
    for (const message of state.pending.values()) socket.send(JSON.stringify(message));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (state.replaced) return;
    document.getElementById("offline").hidden = false;
    const delay = Math.min(10000, 500 * 2 ** state.retry++);
    setTimeout(connect, delay);
  });
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

function act(action) {
  if (state.pending.size) return; // one action at a time: the table waits for the server's answer
  const message = { type: "act", action, id: randomId() };
  state.pending.set(message.id, message);
  send(message);
  render({ now: true });
}

function receive(message) {
  if (talk.receive(message)) return;
  if (practice.receive(message)) return;
  yourTurn.receive(message);
  motion.receive(message);
  switch (message.type) {
    case "snapshot":
    case "resume":
    case "update": {
      const { state: next, events, live } = receiveMessage(state, message);
      if (message.type === "snapshot") state.hold = null;
      Object.assign(state, next);
      for (const event of events) announce(event, live);
      root.dataset.version = state.version;
      render();
      break;
    }
    case "ack":
      state.pending.delete(message.id);
      render();
      break;
    case "error":
      if (message.id) state.pending.delete(message.id);
      toast(message.message);
      render();
      break;
    case "replaced":
      state.replaced = true;
      showReplaced();
      break;
  }
}

/** What an event changes beyond the view: a completed trick is held on the table for a moment. */
function announce(event, live) {
  const trick = live ? completedTrick(event) : null;
  if (live && event.kind === "passed_out") toast(t("web.table.passed_out")); // dealt again at once
  if (trick) {
    state.hold = trick;
    clearTimeout(state.holdTimer);
    state.holdTimer = setTimeout(() => {
      state.hold = null;
      render();
    }, HOLD_MS);
  } else if (movesOn(event)) {
    state.showLast = false; // a card is played: the table shows the trick in progress again
    if (event.kind === "deal_start" || state.view.deal?.trick.length) state.hold = null;
  }
}

// --------------------------------------------------------------------- layout
function me() {
  return state.view ? state.view.you : null;
}

const name = (seat) => playerName(state.view, seat);

// While a finger or a button is down on the table, drawing it anew for the server's news waits: the release
// must land on the card or button that was pressed, or the browser would drop the click. The player's own
// choices (a bid's value, a question) are drawn at once.
const press = { down: false, redraw: false, timer: null };
const PRESS_MS = 2000; // a press held longer than this no longer holds the table

function releasePress() {
  if (!press.down) return;
  press.down = false;
  clearTimeout(press.timer);
  if (press.redraw) setTimeout(() => press.redraw && render()); // after the click the release makes
}

root.addEventListener("pointerdown", () => {
  press.down = true;
  clearTimeout(press.timer);
  press.timer = setTimeout(releasePress, PRESS_MS);
});
for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, releasePress);

function render({ now = false } = {}) {
  if (!state.view) return;
  press.redraw = press.down && !now;
  if (press.redraw) return;
  // The element with the focus is drawn anew: its successor (same data-focus) takes it back.
  const focused = document.activeElement?.dataset?.focus;
  const moving = motion.measure(root); // where what moves was, to move it from there once drawn
  root.replaceChildren(statusBar(), felt());
  motion.animate(root, moving);
  if (focused) root.querySelector(`[data-focus="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  if (state.sheet && state.view.match) root.append(scoreSheetOverlay());
  root.classList.toggle("busy", state.pending.size > 0); // an action is on its way: nothing to press
  talk.draw(root);
  practice.draw(root);
  document.title = `${t("web.table.title")} ${document.body.dataset.pretty} · atout`;
  yourTurn.draw(root);
  drawVariant(state.view.rules.variant);
}

/** The variant the table plays, in the site's header: its name, a link to its rules, with what differs from it
 * (the host's options, the target, the bots' level); the header's « Règles » leads to that variant's section. */
function drawVariant(variant) {
  const header = document.querySelector(".topbar");
  let node = header.querySelector(".variant");
  if (!node) {
    node = el("a", "variant");
    node.append(el("span", "name"), el("span", "details"));
    header.querySelector("nav").after(node);
  }
  node.href = variant.link;
  node.title = `${variant.name} · ${variant.details}`;
  node.querySelector(".name").textContent = variant.name;
  node.querySelector(".details").textContent = variant.details;
  header.querySelector("nav a[href^='/rules']").href = variant.link;
}

// ----------------------------------------------------------------- status bar
function statusBar() {
  const view = state.view;
  const bar = el("div", "status");
  const deal = view.deal;
  if (view.match) {
    const scores = el("span", "score");
    view.sides.forEach((side, i) => {
      if (i) scores.append(" · ");
      scores.append(`${side.name} `, el("b", "", String(view.match.scores[String(side.side)])));
    });
    if (view.match.target) scores.append(` / ${t("web.table.target", { target: view.match.target })}`);
    bar.append(scores);
  }
  if (deal) {
    // On one row: the dealer is named on his seat (and in the title); the buttons' short words name them in full.
    const number = el("span", "", t("web.table.deal_short", { n: deal.number }));
    number.title = t("web.table.deal_no", { n: deal.number, dealer: view.seats[deal.dealer].seat_name });
    bar.append(number);
    if (deal.contract) {
      bar.append(
        el("span", "", t("web.table.contract", { contract: deal.contract.label, taker: name(deal.contract.taker) })),
      );
    }
  }
  if (deal && deal.announcement_winner !== null && deal.phase !== "auction") {
    bar.append(el("span", "", t("web.table.announcements_to", { side: sideName(view, deal.announcement_winner) })));
  }
  bar.append(el("span", "spacer"));
  if (deal?.last_trick && deal.phase === "play") {
    const last = button(t("web.table.last_trick"), toggleLastTrick, "last-trick-button");
    last.setAttribute("aria-pressed", String(state.showLast));
    last.title = t("web.table.last_trick_key");
    bar.append(last);
  }
  if (view.match?.history.length) {
    const sheet = button(
      t("web.sheet.button_short"),
      () => {
        state.sheet = true;
        render({ now: true });
      },
      "sheet-button",
    );
    sheet.title = `${t("web.sheet.button")} · ${t("web.sheet.key")}`;
    sheet.setAttribute("aria-label", t("web.sheet.button"));
    bar.append(sheet);
  }
  if (me() !== null && view.status !== "finished") {
    const leave = button(t("web.table.leave_short"), () => {
      if (confirm(t("web.table.leave_confirm"))) send({ type: "leave" });
    });
    leave.title = t("web.table.leave");
    leave.setAttribute("aria-label", t("web.table.leave"));
    bar.append(leave);
  }
  return bar;
}

// ------------------------------------------------------------------------ felt
function felt() {
  const view = state.view;
  const area = el("div", "felt");
  for (const seat of view.seats) {
    if (me() !== null && seat.seat === me() && view.deal) continue; // my hand is drawn below
    area.append(seatEl(seat));
  }
  const center = el("div", "center");
  center.append(centerContent());
  area.append(center);
  if (me() !== null && view.deal) area.append(handArea());
  else if (me() !== null) area.append(seatEl(view.seats[me()]));
  return area;
}

function seatEl(seat) {
  const view = state.view;
  const deal = view.deal;
  const box = el("div", `seat ${seat.place}`);
  box.dataset.seat = seat.seat; // where talk.js puts what the seat says
  if (deal && deal.turn === seat.seat) box.classList.add("turn");
  const label = el("div", "name", seat.name);
  if (seat.seat === me()) label.textContent = t("web.table.you_named", { name: seat.name });
  box.append(label);
  const tags = seat.tag ? [seat.tag] : [];
  if (deal && deal.dealer === seat.seat) tags.push(t("web.table.dealer"));
  const tag = el("div", "tag", tags.join(" · "));
  if (view.rules.players === 4) {
    tag.append(el("span", "side", `${tags.length ? " · " : ""}${sideName(view, seat.side)}`));
  }
  box.append(tag);
  if (seat.kind === "human" && !seat.connected) {
    box.append(el("div", "tag away", seat.replaced ? t("web.table.replaced") : t("web.table.away")));
  }
  if (deal && deal.phase !== "done" && seat.seat !== me()) {
    const left = deal.counts[seat.seat];
    const backs = el("div", "backs");
    for (let i = 0; i < left; i++) backs.append(cardBack());
    backs.setAttribute("role", "img");
    backs.setAttribute("aria-label", t("web.table.cards_left", { n: left }));
    // On a phone the backs give way to their number.
    box.append(backs, el("div", "count", t("web.table.cards_left", { n: left })));
  }
  const said = bubbleFor(seat.seat);
  if (said) box.append(said);
  if (me() === null && seat.kind !== "human" && view.status === "playing") {
    box.append(button(t("web.table.take_seat"), () => sitDown(seat.seat)));
  }
  return box;
}

/** What a seat just said: its last call in the auction, its announcements in trick 1, belote. */
function bubbleFor(seat) {
  const deal = state.view.deal;
  if (!deal) return null;
  if (deal.phase === "auction") {
    const calls = deal.calls.filter((c) => c.seat === seat);
    if (!calls.length) return null;
    return suitText(calls[calls.length - 1].label, "div", "bubble");
  }
  const trickCards = (state.hold ? state.hold.cards : deal.trick).map((c) => c.card.code);
  const belote = deal.belote.filter((b) => b.seat === seat && trickCards.includes(b.card));
  if (belote.length) return el("div", "bubble", belote[belote.length - 1].label);
  const heard = deal.heard[String(seat)];
  if (heard && deal.tricks === 0 && deal.phase === "play") return el("div", "bubble", heard.map(heardText).join(", "));
  const shown = deal.shown[String(seat)];
  if (shown && deal.tricks === 1 && deal.phase === "play") {
    // The announcements that count are shown at the first card of trick 2 (FFB §8.3).
    const bubble = el("div", "bubble shown");
    for (const announcement of shown) {
      const row = el("div", "cards");
      for (const card of announcement.cards) row.append(cardEl(card, "mini"));
      bubble.append(el("div", "", announcement.label), row);
    }
    return bubble;
  }
  return null;
}

// ---------------------------------------------------------------------- center
function centerContent() {
  const view = state.view;
  if (view.status === "lobby") return lobbyBox();
  const deal = view.deal;
  if (!deal) return el("div");
  if (state.beloteFor) return beloteBox(); // the player's own question first, even over a trick being shown
  // The last trick, asked for, shows only while cards are being played: it can never hide the end of a deal.
  if (state.showLast && deal.last_trick && deal.phase === "play") {
    const last = deal.last_trick;
    const caption = t("web.table.last_trick_caption", { name: name(last.winner), points: last.points });
    const trick = trickEl(last.cards, last.winner, caption);
    trick.classList.add("last");
    return trick;
  }
  if (state.hold) {
    const caption = t("web.table.trick_won", { name: name(state.hold.winner), points: state.hold.points });
    return trickEl(state.hold.cards, state.hold.winner, caption);
  }
  if (deal.phase === "done") return resultBox(view.match.finished);
  if (deal.phase === "auction") return auctionBox();
  if (deal.turn === me() && deal.declare.length) return declareBox();
  const trick = trickEl(deal.trick, null, "");
  if (deal.turn !== null && deal.turn !== me() && !deal.trick.length) {
    trick.append(el("div", "trick-caption", t("web.table.to_lead", { name: name(deal.turn) })));
  }
  return trick;
}

function trickEl(cards, winner, caption) {
  const box = el("div", "trick");
  box.setAttribute("aria-label", t("web.table.trick"));
  for (const { seat, card } of cards) {
    const node = cardEl(card);
    node.classList.add(`pos-${state.view.seats[seat].place}`);
    if (seat === winner) node.classList.add("winner");
    box.append(node);
  }
  if (winner !== null) box.classList.add("done");
  if (caption) box.append(el("div", "trick-caption", caption));
  return box;
}

function auctionBox() {
  const deal = state.view.deal;
  const box = el("div", "box bidding");
  if (deal.retourne) {
    const row = el("div", "row");
    row.append(el("span", "", t("web.table.retourne")), cardEl(deal.retourne, "small"));
    box.append(row);
  }
  if (deal.bidding) {
    box.append(el("h2", "", t("web.table.your_call")));
    box.append(biddingBox(deal.bidding));
  } else if (deal.turn !== null) {
    const away = state.view.seats[deal.turn]?.kind === "human" && !state.view.seats[deal.turn].connected;
    box.append(el("h2", "", t(away ? "web.table.awaited" : "web.table.thinking", { name: name(deal.turn) })));
  }
  box.append(callHistory(deal.calls));
  return box;
}

/**
 * The bidding box: a value (the lowest five and the lowest capot as buttons, the next four in a list, every
 * other value in the list on demand), then a strain; the other calls (Passe on the key P). The focus moves
 * into the box when it opens, on the value chosen.
 */
function biddingBox(box) {
  const turn = turnOf(state.view.deal);
  const chosen = chosenValue(box, state.bid, turn);
  const choose = (value) => {
    state.bid = { turn, value };
    render({ now: true }); // the player's own choice shows at once, even while a press holds the table
  };
  const shown = choices(box, chosen, { all: state.allValues === turn });
  const wrap = el("div");
  if (box.values.length) {
    const chips = el("div", "actions");
    chips.setAttribute("role", "radiogroup");
    chips.setAttribute("aria-label", t("web.table.bid_value"));
    for (const value of shown.quick) {
      const chip = button(value.label, () => choose(value.label), value.chosen ? "primary" : "");
      chip.setAttribute("role", "radio");
      chip.setAttribute("aria-checked", String(value.chosen));
      chip.dataset.focus = `value:${value.label}`;
      chips.append(chip);
      if (value.chosen && state.focusedTurn !== turn) setTimeout(() => focusBox(turn), 0);
    }
    if (shown.more.length) {
      const select = el("select", "more-bids");
      select.setAttribute("aria-label", t("web.table.more_bids"));
      select.dataset.focus = "more-bids";
      select.append(new Option(t("web.table.more_bids"), ""));
      for (const value of shown.more) select.append(new Option(value.label, value.label, false, value.chosen));
      // The other values, on demand: choosing this option fills the list with them and opens nothing else.
      if (shown.rest.length) select.append(new Option(t("web.table.more_values"), ALL_VALUES));
      select.addEventListener("change", () => {
        if (select.value === ALL_VALUES) {
          state.allValues = turn;
          render({ now: true });
        } else if (select.value) choose(select.value);
      });
      if (shown.more.some((value) => value.chosen)) select.classList.add("chosen");
      chips.append(select);
    }
    wrap.append(chips);
    const strains = el("div", "actions");
    for (const strain of shown.strains) {
      // The bid is read when the strain is pressed: at the value chosen then, never one drawn earlier.
      const press = () => {
        const bid = bidFor(box, chosenValue(box, state.bid, turn), strain.index);
        if (bid) act(bid);
      };
      const choice = button(strain.label, press, `strain ${strain.red ? "suit-red" : "suit-black"}`);
      choice.setAttribute("aria-label", `${chosen} ${strain.label}`);
      choice.dataset.focus = `strain:${strain.index}`;
      strains.append(choice);
    }
    wrap.append(strains);
  }
  const others = el("div", "actions");
  for (const call of shown.calls) {
    const style = { pass: "", take: "primary", coinche: "double", surcoinche: "double" }[call.kind];
    const choice = button(call.label, () => act(call.action), style);
    choice.dataset.focus = `call:${call.action}`;
    if (call.kind === "pass") {
      choice.append(" ", el("kbd", "key-hint", t("web.table.pass_key")));
      choice.setAttribute("aria-keyshortcuts", t("web.table.pass_key"));
    }
    others.append(choice);
  }
  wrap.append(others);
  return wrap;
}

/** The bidding box has just opened: the keyboard starts in it, on the value chosen (once a turn, on the box
 * drawn last: the table may have been drawn anew since). */
function focusBox(turn) {
  const chosen = root.querySelector(".bidding [role=radio][aria-checked=true]");
  if (!chosen || state.focusedTurn === turn || !state.view?.deal || turnOf(state.view.deal) !== turn) return;
  state.focusedTurn = turn;
  chosen.focus({ preventScroll: true });
}

function callHistory(calls) {
  const list = el("div", "calls");
  for (const call of calls) {
    const line = el("span", "", t("web.table.call_line", { name: name(call.seat), call: "" }));
    line.append(suitText(call.label));
    list.append(line);
  }
  return list;
}

function declareBox() {
  const deal = state.view.deal;
  const box = el("div", "box");
  box.append(el("h2", "", t("web.table.declare")));
  const row = el("div", "actions");
  deal.declare.forEach((option, i) => {
    row.append(button(option.label, () => act(option.action), i === 0 ? "primary" : ""));
  });
  box.append(row);
  return box;
}

function beloteBox() {
  const play = state.beloteFor;
  const card = state.view.deal.hand.find((c) => c.code === play.card);
  const box = el("div", "box belote");
  box.append(el("h2", "", t("web.table.belote_question", { card: card.name })));
  const row = el("div", "actions");
  const answer = (action) => () => {
    state.beloteFor = null;
    act(action);
  };
  const say = button(play.belote.label, answer(play.belote.action), "primary");
  row.append(say, button(t("web.table.say_nothing"), answer(play.action)));
  box.append(row);
  setTimeout(() => say.focus(), 0);
  return box;
}

function resultBox(matchOver) {
  const view = state.view;
  const deal = view.deal;
  const result = deal.result;
  const box = el("div", "box result wide");
  if (matchOver) {
    box.append(el("h2", "", matchTitle(view, t))); // a player hears whether he won; a spectator, which side did
  }
  if (!result || result.passed_out) {
    box.append(el("p", "", t("web.table.passed_out")));
  } else {
    const what = `${deal.contract.label} · ${name(deal.contract.taker)} · ${result.outcome}`;
    box.append(suitText(what, matchOver ? "p" : "h2", "outcome"));
  }
  const scores = view.sides.map((s) => `${s.name} ${view.match.scores[String(s.side)]}`).join(" · ");
  box.append(el("p", "totals", `${t("web.table.totals")} ${scores}`));
  // What to do next comes first: on a phone the details below may need scrolling.
  const row = el("div", "actions");
  const back = document.body.dataset.back; // a competition's table: its game is played once
  if (matchOver && back) {
    const link = el("a", "button primary", document.body.dataset.backLabel);
    link.href = back;
    row.append(link);
  } else if (matchOver) {
    if (me() !== null) row.append(button(t("web.table.rematch"), () => send({ type: "rematch" }), "primary"));
    const link = el("a", "", t("web.table.history"));
    link.href = "/games";
    row.append(link);
  } else if (me() !== null && view.waiting.includes(me())) {
    const next = button(t("web.table.continue"), () => send({ type: "continue" }), "primary");
    row.append(next);
    setTimeout(() => next.focus(), 0);
  }
  if (!matchOver && view.waiting.length) {
    row.append(el("span", "hint", waitingText(view, t)));
  }
  box.append(row);
  if (result && !result.passed_out) {
    box.append(...resultSheets(result, view.sides), handsMini(result.hands));
  }
  return box;
}

function handsMini(hands) {
  const grid = el("div", "hands-mini");
  grid.setAttribute("aria-label", t("web.table.hands_dealt"));
  for (const [seat, cards] of Object.entries(hands)) {
    grid.append(el("span", "who", name(Number(seat))));
    const row = el("div", "cards");
    for (const card of cards) row.append(cardEl(card, "mini"));
    grid.append(row);
  }
  return grid;
}

/** The match so far, deal by deal: the contract, how it went, the marks and the running score. */
function scoreSheetOverlay() {
  const match = state.view.match;
  const overlay = el("div", "overlay");
  overlay.addEventListener("click", (e) => {
    if (e.target === overlay) closeSheet();
  });
  const box = el("div", "box sheet-box");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("web.sheet.title"));
  box.append(el("h2", "", t("web.sheet.title")));
  const table = el("table", "score-table match-sheet");
  const head = el("tr");
  head.append(el("th", "num", "#"), el("th", "", t("web.sheet.contract")));
  for (const s of state.view.sides) head.append(el("th", "num", s.name));
  table.append(head);
  for (const entry of match.history) {
    const row = el("tr");
    const what = entry.contract ? `${entry.contract} · ${name(entry.taker)} · ${entry.outcome}` : entry.outcome;
    const cell = el("td");
    cell.append(suitText(what));
    row.append(el("td", "num", String(entry.number)), cell);
    for (const s of state.view.sides) {
      const points = el("td", "num");
      const side = String(s.side);
      points.append(el("b", "", String(entry.totals[side])), el("small", "", ` (${signed(entry.marks[side])})`));
      row.append(points);
    }
    table.append(row);
  }
  box.append(table);
  if (match.target) {
    box.append(el("p", "hint", t("web.sheet.goal", { goal: t("web.table.target", { target: match.target }) })));
  }
  const close = button(t("web.sheet.close"), closeSheet, "primary");
  box.append(close);
  setTimeout(() => close.focus(), 0);
  overlay.append(box);
  return overlay;
}

function closeSheet() {
  state.sheet = false;
  render({ now: true });
}

function toggleLastTrick() {
  state.showLast = !state.showLast;
  render({ now: true });
}

// ------------------------------------------------------------------------ lobby
function lobbyBox() {
  const view = state.view;
  const box = el("div", "box wide");
  box.append(el("h2", "", t("web.lobby.title")));
  const share = el("div", "share");
  share.append(el("span", "", t("web.lobby.code")), el("code", "", document.body.dataset.pretty));
  share.append(
    button(t("web.lobby.copy_link"), async () => {
      try {
        await navigator.clipboard.writeText(location.href);
        toast(t("web.lobby.copied"));
      } catch {
        toast(location.href);
      }
    }),
  );
  box.append(share);
  const seats = el("div", "lobby-seats");
  for (const seat of view.seats) {
    const row = el("div", "seat-row");
    const who = seat.kind === "human" ? seat.name : seat.tag;
    const you = seat.seat === me() ? ` (${t("web.table.you")})` : "";
    row.append(el("span", "", `${seat.seat_name} — ${who}${you}`));
    if (seat.kind !== "human") row.append(button(t("web.lobby.sit_here"), () => sitDown(seat.seat)));
    seats.append(row);
  }
  box.append(seats);
  const actions = el("div", "actions");
  if (view.may_start) {
    actions.append(button(t("web.lobby.start"), () => send({ type: "start" }), "primary"));
    actions.append(el("span", "hint", t("web.lobby.bots_fill")));
  } else {
    actions.append(el("span", "hint", t("web.lobby.waiting_host")));
  }
  box.append(actions);
  return box;
}

async function sitDown(seat) {
  let name = localStorage.getItem("atout.name") || "";
  name = (prompt(t("web.lobby.your_name"), name) || "").trim();
  if (!name) return;
  localStorage.setItem("atout.name", name);
  const response = await fetch(`/api/tables/${code}/seats?lang=${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seat, name, token: token() }),
  });
  const data = await response.json();
  if (!response.ok) {
    toast(data.detail || t("web.error.unavailable"));
    return;
  }
  localStorage.setItem(tokenKey(code), data.token);
  state.socket.close(); // reconnect as the seated player
}

// ------------------------------------------------------------------------- hand
function handArea() {
  const deal = state.view.deal;
  const area = el("div", "hand-area");
  const label = seatEl(state.view.seats[me()]);
  label.classList.remove("bottom");
  area.append(label);
  if (!deal.hand.length) return area;
  const hand = el("div", `hand${toPlay(state.view) ? " my-turn" : ""}`);
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", t("web.table.your_hand"));
  deal.hand.forEach((card, i) => {
    const node = cardEl(card);
    node.tabIndex = 0;
    if (playOf(deal, card.code)) node.classList.add("playable");
    node.append(el("span", "key", String(i + 1)));
    node.addEventListener("click", () => playCard(card));
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        playCard(card);
      }
    });
    hand.append(node);
  });
  area.append(hand);
  return area;
}

function playCard(card) {
  if (!toPlay(state.view)) {
    toast(t("web.refusal.turn"));
    return;
  }
  const play = playOf(state.view.deal, card.code);
  if (play?.belote) {
    state.beloteFor = play;
    render({ now: true });
    return;
  }
  act(play ? play.action : card.code); // an unplayable card too: the server says which rule forbids it
}

document.addEventListener("keydown", (e) => {
  if (!state.view?.deal || e.target.tagName === "INPUT") return;
  const deal = state.view.deal;
  if (state.sheet) {
    if (e.key === "Escape" || e.key === "f") closeSheet();
    return;
  }
  if (e.key === "l" || e.key === "d") {
    if (deal.last_trick && deal.phase === "play") toggleLastTrick();
    return;
  }
  if (state.showLast) toggleLastTrick(); // any other key puts the table back first
  if (/^[1-9]$/.test(e.key) && deal.hand.length >= Number(e.key) && deal.phase === "play") {
    playCard(deal.hand[Number(e.key) - 1]);
  } else if (e.key === "f" && state.view.match && state.view.match.history.length) {
    state.sheet = true;
    render({ now: true });
  } else if (e.key.toUpperCase() === t("web.table.pass_key") && deal.bidding && !e.ctrlKey && !e.metaKey) {
    const pass = deal.bidding.calls.find((call) => call.kind === "pass");
    if (pass) act(pass.action);
  } else if (e.key === "Escape" && state.beloteFor) {
    state.beloteFor = null;
    render({ now: true });
  }
});

// A tap anywhere but on the button that shows it puts the last trick away.
document.addEventListener(
  "click",
  (e) => {
    if (state.showLast && !e.target.closest(".last-trick-button")) toggleLastTrick();
  },
  true,
);

function showReplaced() {
  const overlay = el("div", "overlay");
  const box = el("div", "box");
  box.append(el("h2", "", t("web.table.replaced_title")), el("p", "", t("web.table.replaced_text")));
  box.append(
    button(
      t("web.table.take_back"),
      () => {
        overlay.remove();
        state.replaced = false;
        connect();
      },
      "primary",
    ),
  );
  overlay.append(box);
  document.body.append(overlay);
}

await loadMessages();
const autostart = sessionStorage.getItem(`atout.autostart.${code}`);
sessionStorage.removeItem(`atout.autostart.${code}`);
connect();
if (autostart) {
  const start = () => (state.view ? send({ type: "start" }) : setTimeout(start, 100));
  start();
}
