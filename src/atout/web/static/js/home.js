// The home page: play now against bots, the tables open to join or watch (live), create a table for friends,
// join one by its code.
import { applyLobby, listed, lobbyRow, points } from "./core/lobby.js";
import { button, el, tokenKey } from "./dom.js";
import { lang, loadMessages, t } from "./i18n.js";

// The forms answer from the first moment: the messages are only needed to say what went wrong, and a
// name typed before they arrive is kept (the one remembered fills an empty field only).
const messages = loadMessages();
const error = document.getElementById("home-error");
const saved = localStorage.getItem("atout.name") || "";
for (const input of document.querySelectorAll('input[name="name"]')) input.value ||= saved;

async function create(body, autostart) {
  error.textContent = "";
  localStorage.setItem("atout.name", body.name);
  const csrf = document.querySelector('meta[name="csrf"]')?.content || "";
  const response = await fetch(`/api/tables?lang=${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    await messages;
    error.textContent = typeof data.detail === "string" ? data.detail : t("web.error.bad_request");
    return;
  }
  localStorage.setItem(tokenKey(data.code), data.token);
  if (autostart) sessionStorage.setItem(`atout.autostart.${data.code}`, "1");
  location.href = data.url;
}

document.getElementById("quick-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = new FormData(e.target).get("name").trim();
  create({ preset: "coinche", options: {}, bots: "club", name, private: true }, true); // a game of one's own
});

document.getElementById("create-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  const options = {};
  const target = form.get("target");
  if (target) options.target = Number(target);
  if (form.get("sa_ta")) Object.assign(options, { sans_atout: true, tout_atout: true });
  if (form.get("no_announcements")) options.announcements = false;
  if (form.get("belote_prenable")) options.belote_imprenable = false;
  const body = { preset: form.get("preset"), options, bots: form.get("bots"), name: form.get("name").trim() };
  const practice = { pace: form.get("pace") || "normal", practice: Boolean(form.get("practice")) };
  const rated = Boolean(form.get("rated")); // the server seats a signed-in creator under his account's name
  create({ ...body, private: Boolean(form.get("private")), ...practice, rated }, false);
});

// The target's range, said in the catalogue's words (the server refuses what is out of it in the same words).
const target = document.querySelector('#create-form input[name="target"]');
target.addEventListener("input", () => target.setCustomValidity(""));
target.addEventListener("invalid", () => {
  const range = { low: points(Number(target.min), lang), high: points(Number(target.max), lang) };
  const text = t("web.lobby.form.target_range", range);
  if (text !== "web.lobby.form.target_range") target.setCustomValidity(text);
});

document.getElementById("join-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = new FormData(e.target)
    .get("code")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");
  if (code) location.href = `/t/${code}`;
});

// ------------------------------------------------------------------------ the lobby
// The tables open to join or in play, as the lobby's socket sends them: the whole list, then what changes.
const lobbyList = document.getElementById("lobby-list");
const lobbyEmpty = document.getElementById("lobby-empty");
const lobbyError = document.getElementById("lobby-error");
let tables = [];
/** Each table drawn, with the row it was drawn from: a table that did not change keeps its element (and focus). */
const drawn = new Map();

function drawLobby() {
  const items = listed(tables).map((table) => {
    const known = drawn.get(table.code);
    if (known?.table === table) return known.item;
    known?.item.remove();
    const item = tableItem(table);
    drawn.set(table.code, { table, item });
    return item;
  });
  const kept = new Set(items);
  for (const [code, { item }] of drawn) {
    if (kept.has(item)) continue;
    item.remove();
    drawn.delete(code);
  }
  items.forEach((item, i) => {
    if (lobbyList.children[i] !== item) lobbyList.insertBefore(item, lobbyList.children[i] ?? null);
  });
  lobbyEmpty.hidden = tables.length > 0;
}

function tableItem(table) {
  const row = lobbyRow(table, t, lang);
  const item = el("li", `lobby-table${row.playing ? " playing" : ""}`);
  item.dataset.code = row.code;
  const head = el("div", "lobby-head");
  head.append(el("strong", "lobby-variant", row.title), el("span", "lobby-status", row.status));
  const seats = el("ul", "lobby-who");
  for (const seat of row.seats) seats.append(el("li", `kind-${seat.kind}`, seat.text));
  const actions = el("div", "lobby-actions");
  if (row.free.length) actions.append(el("span", "hint", t("web.lobby.list.sit")));
  for (const seat of row.free) {
    const sit = button(seat.name, () => join(row.code, seat.seat));
    sit.setAttribute("aria-label", seat.label);
    sit.dataset.seat = String(seat.seat);
    actions.append(sit);
  }
  if (row.watch) {
    const watch = el("a", "watch", t("web.lobby.list.watch"));
    watch.href = row.href;
    actions.append(watch);
  }
  item.append(head, el("div", "lobby-details hint", row.details), seats, actions);
  return item;
}

/** Take a seat (as the table page's seat buttons do: the seat's API, the token kept), then go to the table. */
async function join(code, seat) {
  lobbyError.textContent = "";
  const typed = [...document.querySelectorAll('input[name="name"]')].map((input) => input.value.trim());
  let name = typed.find((value) => value) || localStorage.getItem("atout.name") || "";
  if (!name) name = (prompt(t("web.lobby.your_name")) || "").trim();
  if (!name) return;
  localStorage.setItem("atout.name", name);
  const response = await fetch(`/api/tables/${code}/seats?lang=${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seat, name, token: localStorage.getItem(tokenKey(code)) }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    lobbyError.textContent = typeof data.detail === "string" ? data.detail : t("web.error.unavailable");
    return;
  }
  localStorage.setItem(tokenKey(code), data.token);
  location.href = `/t/${code}`;
}

/** Follow the lobby's socket; when it closes, say so and connect again (sooner if it had worked). */
function follow(delay = 1000) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  let heard = false;
  const ping = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('{"type":"ping"}'), 50_000);
  socket.addEventListener("message", async (event) => {
    const message = JSON.parse(event.data);
    await messages; // in order: every message waits for the same words
    if (!heard && lobbyError.dataset.offline) {
      lobbyError.textContent = "";
      delete lobbyError.dataset.offline;
    }
    heard = true;
    tables = applyLobby(tables, message);
    drawLobby();
  });
  socket.addEventListener("close", async () => {
    clearInterval(ping);
    await messages;
    lobbyError.textContent = t("web.lobby.list.offline");
    lobbyError.dataset.offline = "1";
    setTimeout(() => follow(heard ? 1000 : Math.min(delay * 2, 15_000)), heard ? 1000 : delay);
  });
}

follow();
