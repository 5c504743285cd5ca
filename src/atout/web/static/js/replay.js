// A finished game, deal by deal: the hands as dealt, the auction, each trick in turn, the score, and on
// demand the double-dummy analysis of every card (what each one cost against perfect play). The server
// sends every word in the visitor's language and the seat of each card.
import { clock } from "./core/talk.js";
import { button, cardEl, cardText, el, resultSheets, suitText, toast } from "./dom.js";
import { lang, loadMessages, t } from "./i18n.js";

const gameId = document.body.dataset.game;
const root = document.getElementById("replay");
const state = { game: null, deal: 0, trick: 0, analysis: {} };

/** A player as lists name him: a person by name, a bot by its seat and level (« Ouest · robot club »). */
function title(seat) {
  return state.game.seats[seat]?.title ?? "?";
}

/** A player by his name, a bot by its seat alone (Ouest), for tables where every row names a player. */
function shortName(seat) {
  return state.game.seats[seat]?.name ?? "?";
}

function render() {
  const game = state.game;
  const deal = game.deals[state.deal];
  root.replaceChildren();
  const picker = el("div", "panel row");
  picker.append(el("span", "", t("web.replay.deal")));
  game.deals.forEach((_, i) => {
    const b = button(String(i + 1), () => {
      state.deal = i;
      state.trick = 0;
      render();
    });
    if (i === state.deal) b.classList.add("primary");
    b.setAttribute("aria-pressed", String(i === state.deal));
    picker.append(b);
  });
  root.append(picker);

  const head = el("div", "panel");
  const contract = deal.contract ? `${deal.contract.label} · ${title(deal.contract.taker)}` : t("web.table.passed_out");
  head.append(suitText(contract, "h2"));
  head.append(el("p", "", t("web.replay.dealer", { name: title(deal.dealer) })));
  const calls = el("div", "calls");
  for (const call of deal.calls) {
    const line = el("span", "", t("web.table.call_line", { name: shortName(call.seat), call: "" }));
    line.append(suitText(call.label));
    calls.append(line);
  }
  head.append(calls);
  root.append(head);

  const played = new Set();
  for (const trick of deal.tricks.slice(0, state.trick)) for (const c of trick.cards) played.add(c.card.code);
  const hands = el("div", "replay-grid");
  deal.hands.forEach((cards, seat) => {
    const box = el("div", "panel replay-hand");
    box.append(el("strong", "", title(seat)));
    const row = el("div", "cards");
    for (const card of cards) {
      const node = cardEl(card, "small");
      if (played.has(card.code)) node.classList.add("gone");
      row.append(node);
    }
    box.append(row);
    hands.append(box);
  });
  root.append(hands);

  if (deal.tricks.length) {
    const nav = el("div", "panel row");
    const where = t("web.replay.trick", { n: state.trick, total: deal.tricks.length });
    nav.append(
      button("◀", () => step(-1)),
      el("span", "", where),
      button("▶", () => step(1)),
    );
    const shown = deal.tricks[state.trick - 1];
    if (shown) {
      const row = el("div", "row");
      for (const c of shown.cards) {
        const cell = el("div");
        cell.append(cardEl(c.card, "small"), el("div", "hint", shortName(c.seat)));
        row.append(cell);
      }
      nav.append(row, el("span", "", t("web.table.trick_won", { name: title(shown.winner), points: shown.points })));
    }
    root.append(nav);
  }

  const score = el("div", "panel");
  score.append(el("h2", "", deal.result.outcome));
  if (!deal.result.passed_out) score.append(...resultSheets(deal.result, game.sides));
  if (deal.contract) score.append(button(t("web.replay.analyse"), analyse, "primary"));
  const analysis = state.analysis[state.deal];
  if (analysis) score.append(analysisTable(analysis));
  root.append(score);
  if (game.talk.length) root.append(talkPanel(game.talk));
}

/** What was said at the table during the game, as text. */
function talkPanel(lines) {
  const panel = el("div", "panel");
  panel.append(el("h2", "", t("web.talk.game")));
  const log = el("ol", "talk-log");
  for (const line of lines) {
    const item = el("li", line.quick ? "quick" : "");
    item.append(el("time", "", clock(line.at, lang)), " ", el("b", "", line.name), " ", el("span", "said", line.text));
    log.append(item);
  }
  panel.append(log);
  return panel;
}

function analysisTable(rows) {
  const table = el("table", "score-table analysis");
  const head = el("tr");
  for (const key of ["trick", "player", "card", "value", "best", "cost", "best_cards"]) {
    head.append(el("th", ["trick", "value", "best", "cost"].includes(key) ? "num" : "", t(`web.replay.col_${key}`)));
  }
  table.append(head);
  for (const a of rows) {
    const tr = el("tr");
    const cost = el("td", a.cost ? "num cost" : "num", String(a.cost));
    tr.append(el("td", "num", String(a.trick)), el("td", "who", shortName(a.seat)));
    const card = el("td");
    card.append(cardText(a.card));
    tr.append(card, el("td", "num", String(a.value)), el("td", "num", String(a.best)), cost);
    const best = el("td", "best");
    a.best_cards.forEach((c, i) => {
      if (i) best.append(" ");
      best.append(cardText(c));
    });
    tr.append(best);
    table.append(tr);
  }
  const wrap = el("div");
  const scroll = el("div", "table-scroll");
  scroll.append(table);
  wrap.append(el("p", "hint", t("web.replay.analysis_help")), scroll);
  return wrap;
}

async function analyse() {
  const deal = state.deal;
  root.setAttribute("aria-busy", "true");
  const response = await fetch(`/api/games/${gameId}/deals/${deal}/analysis?lang=${lang}`);
  root.removeAttribute("aria-busy");
  if (response.ok) {
    state.analysis[deal] = await response.json();
    render();
  } else {
    const refusal = await response.json().catch(() => ({}));
    toast(typeof refusal.detail === "string" ? refusal.detail : t("web.error.unavailable"));
  }
}

function step(delta) {
  const total = state.game.deals[state.deal].tricks.length;
  state.trick = Math.max(0, Math.min(total, state.trick + delta));
  render();
}

document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") step(1);
  if (e.key === "ArrowLeft") step(-1);
});

await loadMessages();
const response = await fetch(`/api/games/${gameId}?lang=${lang}`);
state.game = await response.json();
// A link to one deal (a challenge's page links each deal's analysis): #deal-3 opens the third.
const asked = /^#deal-(\d+)$/.exec(location.hash);
if (asked) state.deal = Math.min(Math.max(Number(asked[1]) - 1, 0), state.game.deals.length - 1);
render();
