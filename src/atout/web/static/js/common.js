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

export function seatName(letter) {
  return t(`common.seat.${letter}`);
}

export function toast(text, ms = 3500) {
  const node = el("div", "toast", text);
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
