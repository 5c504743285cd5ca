// The home page: play now against bots, create a table for friends, join one by its code.
import { tokenKey } from "./dom.js";
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
  const response = await fetch(`/api/tables?lang=${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
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
  create({ preset: "coinche", options: {}, bots: "club", name }, true);
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
  create({ preset: form.get("preset"), options, bots: form.get("bots"), name: form.get("name").trim() }, false);
});

document.getElementById("join-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = new FormData(e.target)
    .get("code")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");
  if (code) location.href = `/t/${code}`;
});
