// Drawing: elements, cards, text with coloured suits, score sheets, short messages.
// Player names and every other text from the network go into the page as text, never as HTML.
import { capitalized, sheetRows, signed, suitParts } from "./core/format.js";
import { t } from "./i18n.js";

/** An element with a class and text content (never HTML). */
export function el(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== "") node.textContent = text;
  return node;
}

/** A labelled checkbox calling `onChange(checked)`: `{label, box}` (the label holds the box and the text). */
export function checkbox(text, onChange) {
  const label = el("label", "check");
  const box = el("input");
  box.type = "checkbox";
  box.addEventListener("change", () => onChange(box.checked));
  label.append(box, text);
  return { label, box };
}

export function button(label, onClick, className = "") {
  const node = el("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

/** A card as the server describes it (`{code, rank, suit, red, name}`), drawn, red or black. */
export function cardEl(card, size = "") {
  const node = el("div", `card ${card.red ? "red" : "black"} ${size}`.trim());
  node.dataset.card = card.code;
  const corner = el("span", "corner");
  corner.append(el("b", "", card.rank), el("i", "", card.suit));
  node.append(corner, el("span", "pip", card.suit));
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", card.name);
  return node;
}

export function cardBack(size = "") {
  return el("div", `card back ${size}`.trim());
}

/** A card as text (`V♥`), its suit in its colour: for tables where drawn cards would not fit. */
export function cardText(card) {
  const node = el("span", `card-text ${card.red ? "suit-red" : "suit-black"}`, `${card.rank}${card.suit}`);
  node.setAttribute("aria-label", card.name);
  return node;
}

/** Text from the server (a contract's label, say) as an element, its suit symbols in their colours. */
export function suitText(text, tag = "span", className = "") {
  const node = el(tag, className);
  for (const part of suitParts(text))
    node.append(part.colour ? el("span", `suit-${part.colour}`, part.text) : part.text);
  return node;
}

/**
 * A deal's score as a sheet: one column per side, one row per term (a term's detail under its name), then
 * the totals. `lines`: [{side, label, points, detail}]; `sides`: [{side, name}]; `totals`: {side: n};
 * `corner` heads the terms' column, `total` names the last row and `sign` writes the points.
 */
export function scoreSheet(lines, sides, totals, { corner = "", total = t("web.table.marks"), sign = signed } = {}) {
  const table = el("table", "score-table sheet");
  const head = el("tr");
  head.append(el("th", "", corner));
  for (const s of sides) head.append(el("th", "num", s.name));
  table.append(head);
  for (const row of sheetRows(lines, sides)) {
    const tr = el("tr");
    const cell = el("td", "", row.label);
    for (const detail of row.details) cell.append(el("small", "detail", detail));
    tr.append(cell);
    for (const points of row.points) tr.append(el("td", "num", points ? sign(points) : ""));
    table.append(tr);
  }
  const last = el("tr", "marks");
  last.append(el("th", "", total));
  for (const s of sides) last.append(el("th", "num", String(totals[String(s.side)] ?? 0)));
  table.append(last);
  return table;
}

/** A short message at the top of the screen (it never covers the hand). */
/**
 * A deal's end as sheets, for the live table and the replay alike: when the marks are not simply what each side
 * made (a fall, a coinche, a litige), what each made first (card points, belote, announcements); then the marks
 * term by term; and the points held for the next deal, if any.
 */
export function resultSheets(result, sides) {
  const nodes = [];
  if (result.made.length) {
    const made = scoreSheet(result.made, sides, result.made_totals, {
      corner: t("web.table.made"),
      total: t("web.table.made_total"),
      sign: String,
    });
    made.classList.add("made");
    nodes.push(made);
  }
  nodes.push(scoreSheet(result.lines, sides, result.marks));
  if (result.held) nodes.push(el("p", "hint", t("web.table.held", { points: result.held })));
  return nodes;
}

export function toast(text, ms = 3500) {
  const node = el("div", "toast", capitalized(text));
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
