// The table page: a thin client. It renders the view the server sends (its own hand, what is public)
// and sends actions; the server alone decides what is legal and says why when it refuses.
import {
  RED, SYMBOLS, button, callEl, callLabel, cardBack, cardEl, cardName, el, lang, loadMessages, randomId, scoreSheet,
  seatName, signed, suitText, t, toast, tokenKey,
} from "./common.js";

const code = document.body.dataset.code;
const HOLD_MS = 1400; // a completed trick stays this long before it is gathered
const QUICK_BIDS = 5; // bid values offered as buttons; the others are in a list
const COMPASS = { N: 0, E: 1, S: 2, W: 3 };
const PLACES = ["top", "right", "bottom", "left"];

const state = {
  view: null,
  epoch: null,
  version: null,
  socket: null,
  retry: 0,
  replaced: false,
  hold: null, // the completed trick being shown: {cards: [{seat, card}], winner, points}
  holdTimer: null,
  showLast: false, // the last trick, shown until the next tap, key or card
  sheet: false, // the match's score sheet, shown on demand
  pending: new Map(), // action id -> message, resent after a reconnection until acknowledged
  beloteFor: null, // a card waiting for the belote question
  bidValue: null,
};

const root = document.getElementById("table");
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
  render();
}

function receive(message) {
  switch (message.type) {
    case "snapshot":
      state.hold = null;
      setView(message);
      break;
    case "resume":
      for (const update of message.updates) for (const event of update.events) announce(event, false);
      setView(message);
      break;
    case "update":
      for (const event of message.events) announce(event, true);
      setView(message);
      break;
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

function setView(message) {
  state.epoch = message.epoch;
  state.version = message.version;
  root.dataset.version = message.version;
  state.view = message.view;
  render();
}

/** What an event changes beyond the view: a completed trick is held on the table for a moment. */
function announce(event, live) {
  if (event.kind === "trick" && live) {
    const n = state.view ? state.view.seats.length : 4;
    state.hold = {
      cards: event.cards.map((card, i) => ({ seat: (event.leader + i) % n, card })),
      winner: event.winner,
      points: event.points,
    };
    clearTimeout(state.holdTimer);
    state.holdTimer = setTimeout(() => {
      state.hold = null;
      render();
    }, HOLD_MS);
  } else if (event.kind === "play") {
    state.showLast = false; // a card is played: the table shows the trick in progress again
    if (state.hold && state.view && state.view.deal && state.view.deal.trick.length) state.hold = null;
  } else if (event.kind === "deal_start") {
    state.hold = null;
    state.showLast = false;
  }
}

// --------------------------------------------------------------------- layout
function me() {
  return state.view ? state.view.you : null;
}

function place(seatNumber) {
  const view = state.view;
  const letter = view.seats[seatNumber].letter;
  const mine = me() === null ? "S" : view.seats[me()].letter;
  const turn = COMPASS[mine] - 2;
  return PLACES[(COMPASS[letter] - turn + 4) % 4];
}

function sideOf(seatNumber) {
  return state.view.rules.players === 4 ? seatNumber % 2 : seatNumber;
}

function sideName(side) {
  if (state.view.rules.players === 4) return t(`common.side.${side === 0 ? "NS" : "EW"}`);
  return playerName(side);
}

/** A human by his name; a bot or an open seat by the seat's name (Ouest, Nord...). */
function playerName(seat) {
  const s = state.view.seats[seat];
  return s.kind === "human" ? s.name : seatName(s.letter);
}

// While a finger or a button is down on the table, drawing it anew waits: the release must land on the
// card or button that was pressed, or the browser would drop the click.
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

function render() {
  if (!state.view) return;
  press.redraw = press.down;
  if (press.down) return;
  root.replaceChildren(statusBar(), felt());
  if (state.sheet && state.view.match) root.append(scoreSheetOverlay());
  root.classList.toggle("busy", state.pending.size > 0); // an action is on its way: nothing to press
  document.title = `${t("web.table.title")} ${document.body.dataset.pretty} · atout`;
}

// ----------------------------------------------------------------- status bar
function statusBar() {
  const view = state.view;
  const bar = el("div", "status");
  const deal = view.deal;
  if (view.match) {
    const scores = el("span", "score");
    view.match.sides.forEach((side, i) => {
      if (i) scores.append(" · ");
      scores.append(`${side.name} `, el("b", "", String(view.match.scores[String(side.side)])));
    });
    const goal = view.match.target ? t("web.table.target", { target: view.match.target }) : "";
    if (goal) scores.append(` / ${goal}`);
    bar.append(scores);
  }
  if (deal) {
    bar.append(el("span", "", t("web.table.deal_no", { n: deal.number, dealer: seatName(view.seats[deal.dealer].letter) })));
    if (deal.contract) {
      bar.append(el("span", "", t("web.table.contract", {
        contract: deal.contract.label, taker: playerName(deal.contract.taker),
      })));
    }
  }
  if (deal && deal.announcement_winner !== null && deal.phase !== "auction") {
    bar.append(el("span", "", t("web.table.announcements_to", { side: sideName(deal.announcement_winner) })));
  }
  bar.append(el("span", "spacer"));
  if (deal && deal.last_trick && deal.phase === "play") {
    const last = button(t("web.table.last_trick"), toggleLastTrick, "last-trick-button");
    last.setAttribute("aria-pressed", String(state.showLast));
    last.title = t("web.table.last_trick_key");
    bar.append(last);
  }
  if (view.match && view.match.history.length) {
    const sheet = button(t("web.sheet.button"), () => { state.sheet = true; render(); }, "sheet-button");
    sheet.title = t("web.sheet.key");
    bar.append(sheet);
  }
  if (me() !== null && view.status !== "finished") {
    bar.append(button(t("web.table.leave"), () => {
      if (confirm(t("web.table.leave_confirm"))) send({ type: "leave" });
    }));
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
  const box = el("div", `seat ${place(seat.seat)}`);
  const deal = view.deal;
  if (deal && deal.turn === seat.seat) box.classList.add("turn");
  const name = el("div", "name", playerName(seat.seat));
  if (seat.seat === me()) name.textContent = t("web.table.you_named", { name: playerName(seat.seat) });
  box.append(name);
  const tags = [];
  if (seat.kind === "bot") tags.push(t("web.table.bot_name", { level: t(`web.level.${seat.name}`) }));
  if (seat.kind === "open") tags.push(t("web.table.open_seat"));
  if (deal && deal.dealer === seat.seat) tags.push(t("web.table.dealer"));
  const tag = el("div", "tag", tags.join(" · "));
  if (view.rules.players === 4) tag.append(el("span", "side", `${tags.length ? " · " : ""}${sideName(sideOf(seat.seat))}`));
  box.append(tag);
  if (seat.kind === "human" && !seat.connected) {
    box.append(el("div", "tag away", seat.replaced ? t("web.table.replaced") : t("web.table.away")));
  }
  if (deal && deal.phase !== "done" && seat.seat !== me()) {
    const backs = el("div", "backs");
    for (let i = 0; i < deal.counts[seat.seat]; i++) backs.append(cardBack());
    backs.setAttribute("aria-label", t("web.table.cards_left", { n: deal.counts[seat.seat] }));
    // On a phone the backs give way to their number.
    box.append(backs, el("div", "count", t("web.table.cards_left", { n: deal.counts[seat.seat] })));
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
    const last = calls[calls.length - 1].action;
    const bubble = el("div", "bubble");
    bubble.append(callEl(last));
    return bubble;
  }
  const trickCards = (state.hold ? state.hold.cards : deal.trick).map((c) => c.card);
  const belote = deal.belote.filter((b) => b.seat === seat && trickCards.includes(b.card));
  if (belote.length) return el("div", "bubble", t(`web.table.${belote[belote.length - 1].word}`));
  const heard = deal.heard[String(seat)];
  if (heard && deal.tricks === 0 && deal.phase === "play") {
    return el("div", "bubble", heard.map((h) => (h.points === null ? h.label : `${h.label} (${h.points})`)).join(", "));
  }
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
    const caption = t("web.table.last_trick_caption", { name: playerName(last.winner), points: last.points });
    const trick = trickEl(last.cards, last.winner, caption);
    trick.classList.add("last");
    return trick;
  }
  if (state.hold) {
    const caption = t("web.table.trick_won", { name: playerName(state.hold.winner), points: state.hold.points });
    return trickEl(state.hold.cards, state.hold.winner, caption);
  }
  if (deal.phase === "done") return resultBox(view.match.finished);
  if (deal.phase === "auction") return auctionBox();
  if (deal.turn === me() && deal.declare.length) return declareBox();
  const trick = trickEl(deal.trick, null, "");
  if (deal.turn !== null && deal.turn !== me() && !deal.trick.length) {
    trick.append(el("div", "trick-caption", t("web.table.to_lead", { name: playerName(deal.turn) })));
  }
  return trick;
}

function trickEl(cards, winner, caption) {
  const box = el("div", "trick");
  box.setAttribute("aria-label", t("web.table.trick"));
  for (const { seat, card } of cards) {
    const node = cardEl(card);
    node.classList.add(`pos-${place(seat)}`);
    if (seat === winner) node.classList.add("winner");
    box.append(node);
  }
  if (winner !== null) box.classList.add("done");
  if (caption) box.append(el("div", "trick-caption", caption));
  return box;
}

function auctionBox() {
  const view = state.view;
  const deal = view.deal;
  const box = el("div", "box bidding");
  if (deal.retourne) {
    const row = el("div", "row");
    row.append(el("span", "", t("web.table.retourne")), cardEl(deal.retourne, "small"));
    box.append(row);
  }
  if (deal.turn === me()) {
    box.append(el("h2", "", t("web.table.your_call")));
    box.append(deal.retourne ? takeButtons(deal.legal) : bidButtons(deal.legal));
  } else if (deal.turn !== null) {
    box.append(el("h2", "", t("web.table.thinking", { name: playerName(deal.turn) })));
  }
  box.append(callHistory(deal.calls));
  return box;
}

function takeButtons(legal) {
  const row = el("div", "actions");
  for (const notation of legal) {
    row.append(button(callLabel(notation), () => act(notation), notation === "P" ? "" : "primary"));
  }
  return row;
}

function bidButtons(legal) {
  const wrap = el("div");
  const bids = legal.map((n) => /^(\d*)(capot)?(SA|TA|S|H|D|C)$/.exec(n)).filter(Boolean);
  const values = [...new Set(bids.map((b) => (b[2] ? `${b[1]}capot` : b[1])))];
  if (values.length) {
    if (!values.includes(state.bidValue)) state.bidValue = values[0];
    const valueLabel = (v) => (v.endsWith("capot") ? `${v.replace("capot", "")} ${t("web.call.capot")}`.trim() : v);
    const chips = el("div", "actions");
    chips.setAttribute("role", "radiogroup");
    chips.setAttribute("aria-label", t("web.table.bid_value"));
    // The five lowest values and capot as buttons; every other value (up to what a side can score) in a list.
    const quick = values.filter((v, i) => i < QUICK_BIDS || v.endsWith("capot"));
    for (const value of quick) {
      const chip = button(valueLabel(value), () => { state.bidValue = value; render(); });
      chip.setAttribute("role", "radio");
      chip.setAttribute("aria-checked", String(value === state.bidValue));
      if (value === state.bidValue) chip.classList.add("primary");
      chips.append(chip);
    }
    const rest = values.filter((v) => !quick.includes(v));
    if (rest.length) {
      const select = el("select", "more-bids");
      select.setAttribute("aria-label", t("web.table.more_bids"));
      select.append(new Option(t("web.table.more_bids"), ""));
      for (const value of rest) select.append(new Option(valueLabel(value), value, false, value === state.bidValue));
      select.addEventListener("change", () => { if (select.value) { state.bidValue = select.value; render(); } });
      if (rest.includes(state.bidValue)) select.classList.add("chosen");
      chips.append(select);
    }
    wrap.append(chips);
    const strains = el("div", "actions");
    for (const b of bids) {
      const value = b[2] ? `${b[1]}capot` : b[1];
      if (value !== state.bidValue) continue;
      const symbol = SYMBOLS[b[3]] ?? t(`common.strain.${b[3]}`);
      const choice = button(symbol, () => act(b[0]));
      choice.classList.add(RED.has(b[3]) ? "suit-red" : "suit-black");
      choice.setAttribute("aria-label", `${callLabel(b[0])}`);
      choice.style.fontSize = "1.3rem";
      strains.append(choice);
    }
    wrap.append(strains);
  }
  const others = el("div", "actions");
  for (const notation of legal.filter((n) => ["P", "X", "XX"].includes(n))) {
    others.append(button(callLabel(notation), () => act(notation), notation === "P" ? "" : "double"));
  }
  wrap.append(others);
  return wrap;
}

function callHistory(calls) {
  const list = el("div", "calls");
  for (const call of calls) {
    const line = el("span", "", t("web.table.call_line", { name: playerName(call.seat), call: "" }));
    line.append(callEl(call.action));
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
  const card = state.beloteFor;
  const deal = state.view.deal;
  const again = deal.belote.some((b) => b.seat === me() && b.card[1] === card[1]);
  const box = el("div", "box belote");
  box.append(el("h2", "", t("web.table.belote_question", { card: cardName(card) })));
  const row = el("div", "actions");
  const say = button(t(again ? "web.table.rebelote" : "web.table.belote"), () => {
    state.beloteFor = null;
    act(`${card}!`);
  }, "primary");
  const quiet = button(t("web.table.say_nothing"), () => {
    state.beloteFor = null;
    act(card);
  });
  row.append(say, quiet);
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
    const winner = view.match.winner;
    box.append(el("h2", "", winner === null ? t("web.table.match_over") : t("common.you_win", { name: sideName(winner) })));
  }
  if (!result || result.passed_out) {
    box.append(el("p", "", t("web.table.passed_out")));
  } else {
    const outcome = t(`web.outcome.${result.outcome}`);
    box.append(suitText(`${deal.contract.label} · ${playerName(deal.contract.taker)} · ${outcome}`, matchOver ? "p" : "h2", "outcome"));
  }
  const totals = el("p", "totals", `${t("web.table.totals")} ${view.match.sides.map((s) => `${s.name} ${view.match.scores[String(s.side)]}`).join(" · ")}`);
  box.append(totals);
  // What to do next comes first: on a phone the details below may need scrolling.
  const row = el("div", "actions");
  if (matchOver) {
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
    row.append(el("span", "hint", t("web.table.waiting_for", { names: view.waiting.map(playerName).join(", ") })));
  }
  box.append(row);
  if (result && !result.passed_out) {
    // When the marks are not simply what each side made (a fall, a coinche, a litige), what each made first.
    if (result.outcome !== "made" || deal.contract.level) box.append(madeTable(result));
    box.append(scoreSheet(result.lines, view.match.sides, result.marks));
    if (result.held) box.append(el("p", "hint", t("web.table.held", { points: result.held })));
    box.append(handsMini(result.hands));
  }
  return box;
}

/** What each side made in the deal (the rules core's facts), before the marks are worked out. */
function madeTable(result) {
  const sides = state.view.match.sides;
  const lines = [];
  for (const [key, label] of [["card_points", "web.table.card_points"], ["belote", "web.table.belote_points"], ["announcements", "web.table.announcement_points"]]) {
    for (const s of sides) lines.push({ side: s.side, label: t(label), points: result[key][String(s.side)] ?? 0 });
  }
  const shown = lines.filter((l) => lines.some((o) => o.label === l.label && o.points));
  const table = scoreSheet(shown, sides, result.totals, t("web.table.made"), t("web.table.made_total"), String);
  table.classList.add("made");
  return table;
}

function handsMini(hands) {
  const grid = el("div", "hands-mini");
  grid.setAttribute("aria-label", t("web.table.hands_dealt"));
  for (const [seat, cards] of Object.entries(hands)) {
    grid.append(el("span", "who", playerName(Number(seat))));
    const row = el("div", "cards");
    for (const card of cards) row.append(cardEl(card, "mini"));
    grid.append(row);
  }
  return grid;
}

/** The match so far, deal by deal: who dealt, the contract, how it went, the marks and the running score. */
function scoreSheetOverlay() {
  const match = state.view.match;
  const overlay = el("div", "overlay");
  overlay.addEventListener("click", (e) => { if (e.target === overlay) closeSheet(); });
  const box = el("div", "box sheet-box");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("web.sheet.title"));
  box.append(el("h2", "", t("web.sheet.title")));
  const table = el("table", "score-table match-sheet");
  const head = el("tr");
  head.append(el("th", "num", "#"), el("th", "", t("web.sheet.contract")));
  for (const s of match.sides) head.append(el("th", "num", s.name));
  table.append(head);
  match.history.forEach((entry, i) => {
    const row = el("tr");
    const what = entry.contract
      ? `${entry.contract} · ${playerName(entry.taker)} · ${t(`web.outcome.${entry.outcome}`)}`
      : t("web.outcome.passed");
    const cell = el("td");
    cell.append(suitText(what));
    row.append(el("td", "num", String(i + 1)), cell);
    for (const s of match.sides) {
      const cell = el("td", "num");
      cell.append(el("b", "", String(entry.totals[String(s.side)])), el("small", "", ` (${signed(entry.marks[String(s.side)])})`));
      row.append(cell);
    }
    table.append(row);
  });
  box.append(table);
  const goal = match.target ? t("web.table.target", { target: match.target }) : "";
  if (goal) box.append(el("p", "hint", t("web.sheet.goal", { goal })));
  const close = button(t("web.sheet.close"), closeSheet, "primary");
  box.append(close);
  setTimeout(() => close.focus(), 0);
  overlay.append(box);
  return overlay;
}

function closeSheet() {
  state.sheet = false;
  render();
}

function toggleLastTrick() {
  state.showLast = !state.showLast;
  render();
}

// ------------------------------------------------------------------------ lobby
function lobbyBox() {
  const view = state.view;
  const box = el("div", "box wide");
  box.append(el("h2", "", t("web.lobby.title")));
  const share = el("div", "share");
  share.append(el("span", "", t("web.lobby.code")), el("code", "", document.body.dataset.pretty));
  share.append(button(t("web.lobby.copy_link"), async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      toast(t("web.lobby.copied"));
    } catch {
      toast(location.href);
    }
  }));
  box.append(share);
  const seats = el("div", "lobby-seats");
  for (const seat of view.seats) {
    const row = el("div", "seat-row");
    const who = seat.kind === "human" ? seat.name : t("web.table.open_seat");
    row.append(el("span", "", `${seatName(seat.letter)} — ${who}${seat.seat === me() ? ` (${t("web.table.you")})` : ""}`));
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
  const mySeat = state.view.seats[me()];
  const label = seatEl(mySeat);
  label.classList.remove("bottom");
  area.append(label);
  if (!deal.hand.length) return area;
  const myTurn = deal.turn === me() && deal.phase === "play" && !deal.declare.length;
  const hand = el("div", `hand${myTurn ? " my-turn" : ""}`);
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", t("web.table.your_hand"));
  const playable = new Set(deal.legal.map((a) => a.replace("!", "")));
  deal.hand.forEach((card, i) => {
    const node = cardEl(card);
    node.tabIndex = 0;
    if (playable.has(card)) node.classList.add("playable");
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
  const deal = state.view.deal;
  if (deal.phase !== "play" || deal.turn !== me()) {
    toast(t("web.refusal.turn"));
    return;
  }
  if (deal.legal.includes(`${card}!`)) {
    state.beloteFor = card;
    render();
    return;
  }
  act(card); // an unplayable card too: the server says which rule forbids it
}

document.addEventListener("keydown", (e) => {
  if (!state.view || !state.view.deal || e.target.tagName === "INPUT") return;
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
    render();
  } else if (e.key === "Escape" && state.beloteFor) {
    state.beloteFor = null;
    render();
  }
});

// A tap anywhere but on the button that shows it puts the last trick away.
document.addEventListener("click", (e) => {
  if (state.showLast && !e.target.closest(".last-trick-button")) toggleLastTrick();
}, true);

function showReplaced() {
  const overlay = el("div", "overlay");
  const box = el("div", "box");
  box.append(el("h2", "", t("web.table.replaced_title")), el("p", "", t("web.table.replaced_text")));
  box.append(button(t("web.table.take_back"), () => {
    overlay.remove();
    state.replaced = false;
    connect();
  }, "primary"));
  overlay.append(box);
  document.body.append(overlay);
}

await loadMessages();
if (sessionStorage.getItem(`atout.autostart.${code}`)) {
  sessionStorage.removeItem(`atout.autostart.${code}`);
  state.autostart = true;
}
connect();
if (state.autostart) {
  const start = () => (state.view ? send({ type: "start" }) : setTimeout(start, 100));
  start();
}
