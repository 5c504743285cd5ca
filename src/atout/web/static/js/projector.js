// The projector's page: asks the server for the standings every few seconds and redraws them when they change.
import { fingerprint, podium, REFRESH_MS, roundLine, standingsRows } from "./core/standings.js";
import { lang, loadMessages, t } from "./i18n.js";

const code = document.body.dataset.code;
const rows = document.getElementById("standings-rows");
const line = document.getElementById("projector-round");
const places = document.getElementById("podium");
const updated = document.getElementById("projector-updated");
let shown = "";

function cell(tag, text, numeric) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (numeric) element.className = "num";
  return element;
}

function draw(data) {
  const print = fingerprint(data);
  if (print === shown) return;
  shown = print;
  rows.replaceChildren(
    ...standingsRows(data, lang).map((cells) => {
      const tr = document.createElement("tr");
      tr.append(...cells.map((text, i) => cell("td", text, i >= 2)));
      return tr;
    }),
  );
  line.textContent = roundLine(data, t);
  const top = podium(data);
  places.hidden = top.length === 0;
  places.replaceChildren(
    ...top.map((p) => {
      const li = document.createElement("li");
      li.className = `place${p.rank}`;
      li.append(cell("b", p.name), cell("span", String(p.points)));
      return li;
    }),
  );
}

async function refresh() {
  try {
    const response = await fetch(`/c/${code}/standings.json`, { cache: "no-store" });
    if (response.ok) {
      draw(await response.json());
      updated.textContent = t("web.concours.updated", { time: new Date().toLocaleTimeString(lang) });
    }
  } catch {
    // The hall's network dropped: the next attempt tries again.
  }
}

await loadMessages();
await refresh();
setInterval(refresh, REFRESH_MS);
