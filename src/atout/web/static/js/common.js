// Shared by every page: the message catalogue, cards, seats, small DOM helpers.
// Player names and every other text from the network go into the page as text, never as HTML.

export const lang = document.documentElement.lang === "en" ? "en" : "fr";
let messages = {};

export async function loadMessages() {
  const response = await fetch(`/i18n/${lang}.json`);
  messages = await response.json();
}

/** The catalogue's message `key` with `{name}` placeholders filled in. */
export function t(key, values = {}) {
  const text = messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

/** An element with a class and text content (never HTML). */
export function el(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== "") node.textContent = text;
  return node;
}

export function button(label, onClick, className = "") {
  const node = el("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

export const SUITS = "SHDC";
export const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set(["H", "D"]);

export function strainSymbol(letter) {
  return SYMBOLS[letter] ?? t(`common.strain.${letter}`);
}

/** A card drawn with its rank and suit (`JH`: jack of hearts), red or black. */
export function cardEl(code, size = "") {
  const rank = code[0];
  const suit = code[1];
  const node = el("div", `card ${RED.has(suit) ? "red" : "black"} ${size}`.trim());
  node.dataset.card = code;
  const corner = el("span", "corner");
  corner.append(el("b", "", t(`common.rank.${rank}`)), el("i", "", SYMBOLS[suit]));
  node.append(corner, el("span", "pip", SYMBOLS[suit]));
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardName(code));
  return node;
}

export function cardBack(size = "") {
  return el("div", `card back ${size}`.trim());
}

export function cardName(code) {
  return t("common.card_name", { rank: t(`common.rank_name.${code[0]}`), suit: t(`common.suit_name.${code[1]}`) });
}

/** A call's notation as players read it: `90H` → `90 ♥`, `X` → coinche, `takeH` → prend à cœur. */
export function callLabel(notation) {
  if (notation === "P") return t("web.call.pass");
  if (notation === "X") return t("web.call.coinche");
  if (notation === "XX") return t("web.call.surcoinche");
  const take = /^take(S|H|D|C)$/.exec(notation);
  if (take) return t("web.call.take", { suit: t(`common.suit_name.${take[1]}`) });
  const bid = /^(\d*)(capot)?(SA|TA|S|H|D|C)$/.exec(notation);
  if (!bid) return notation;
  const parts = [];
  if (bid[1]) parts.push(bid[1]);
  if (bid[2]) parts.push(t("web.call.capot"));
  parts.push(strainSymbol(bid[3]));
  return parts.join(" ");
}

/** Text from the server (a contract's label, say) as an element, its suit symbols in their colours. */
export function suitText(text, tag = "span", className = "") {
  const node = el(tag, className);
  for (const part of text.split(/([♠♥♦♣])/)) {
    if (!part) continue;
    const suit = Object.keys(SYMBOLS).find((k) => SYMBOLS[k] === part);
    node.append(suit ? el("span", RED.has(suit) ? "suit-red" : "suit-black", part) : part);
  }
  return node;
}

/** A call as an element: its words, with a suit's symbol in the suit's colour. */
export function callEl(notation) {
  return suitText(callLabel(notation));
}

/** A card as text (`V♥`), its suit in its colour: for tables where drawn cards would not fit. */
export function cardText(code) {
  const node = el("span", `card-text ${RED.has(code[1]) ? "suit-red" : "suit-black"}`, `${t(`common.rank.${code[0]}`)}${SYMBOLS[code[1]]}`);
  node.setAttribute("aria-label", cardName(code));
  return node;
}

/** Signed points as a score sheet writes them: +90, −3. */
export function signed(points) {
  return points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "0";
}

/**
 * A deal's score as a sheet: one column per side, one row per term (the rules core's terms and the
 * rounding, a term's detail under its name), then the marks. `lines`: [{side, label, points, detail}];
 * `sides`: [{side, name}]; `marks`: {side: n};
 * `corner` heads the terms' column, `total` names the last row and `sign` writes the points.
 */
export function scoreSheet(lines, sides, marks, corner = "", total = t("web.table.marks"), sign = signed) {
  const table = el("table", "score-table sheet");
  const head = el("tr");
  head.append(el("th", "", corner));
  for (const s of sides) head.append(el("th", "num", s.name));
  table.append(head);
  const labels = [...new Set(lines.map((line) => line.label))];
  for (const label of labels) {
    const row = el("tr");
    const cell = el("td", "", label.charAt(0).toUpperCase() + label.slice(1));
    const details = lines.filter((l) => l.label === label && l.detail).map((l) => l.detail);
    for (const detail of new Set(details)) cell.append(el("small", "detail", detail));
    row.append(cell);
    for (const s of sides) {
      const points = lines.filter((l) => l.label === label && l.side === s.side).reduce((a, l) => a + l.points, 0);
      row.append(el("td", "num", points ? sign(points) : ""));
    }
    table.append(row);
  }
  const last = el("tr", "marks");
  last.append(el("th", "", total));
  for (const s of sides) last.append(el("th", "num", String(marks[String(s.side)] ?? 0)));
  table.append(last);
  return table;
}

export function seatName(letter) {
  return t(`common.seat.${letter}`);
}

/** A short message at the top of the screen (it never covers the hand). */
export function toast(text, ms = 3500) {
  const node = el("div", "toast", text.charAt(0).toUpperCase() + text.slice(1));
  node.setAttribute("role", "status");
  document.body.append(node);
  setTimeout(() => node.remove(), ms);
}

export function randomId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function tokenKey(code) {
  return `atout.token.${code}`;
}
