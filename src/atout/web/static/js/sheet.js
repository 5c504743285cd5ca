// A score sheet on a phone: reload when another phone changed it (unless this one is typing), and remember
// the sheets of games at home in this browser (the home page lists them for a visitor without an account).
import { KEPT_KEY, keep, keptSheets, POLL_MS, shouldReload } from "./core/sheets.js";

const token = document.body.dataset.token;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

if (token) {
  const store = storage();
  if (store && document.body.dataset.home === "1") {
    const names = document.body.dataset.names;
    store.setItem(KEPT_KEY, JSON.stringify(keep(keptSheets(store.getItem(KEPT_KEY)), token, names)));
  }
  let typing = false;
  document.addEventListener("input", () => {
    typing = true;
  });
  setInterval(async () => {
    try {
      const response = await fetch(`/s/${token}/version`, { cache: "no-store" });
      if (!response.ok) return;
      const { version } = await response.json();
      if (shouldReload(document.body.dataset.version, version, typing)) window.location.reload();
    } catch {
      // The hall's network dropped: the next attempt tries again.
    }
  }, POLL_MS);
} else {
  const list = document.getElementById("sheet-list");
  const store = storage();
  if (list && store && list.children.length === 0) {
    for (const sheet of keptSheets(store.getItem(KEPT_KEY))) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/s/${sheet.token}`;
      a.textContent = sheet.names;
      li.append(a);
      list.append(li);
    }
  }
}
