// A player's page of an online concours: asks the server for his call every few seconds, draws his table's
// link, and when a new round's table calls him, alerts him as the table's turn does (core/turn.js): the tab's
// title and icon, a short tone (once he has pressed or typed something on the page, as browsers require) and a
// notification when the tab is hidden, if he turned them on. The pure part is core/call.js.
import { CALL_REFRESH_MS, callKey, callLines, callTitle, changed } from "./core/call.js";
import { alerts, favicon, NOTIFY_KEY, readChoice, SOUND_KEY, TONE, writeChoice } from "./core/turn.js";
import { loadMessages, t } from "./i18n.js";

const code = document.body.dataset.code;
const box = document.getElementById("call");
const soundBox = document.getElementById("call-sound");
const notifyBox = document.getElementById("call-notify");
const notifications = "Notification" in window;
const base = document.title;
const state = { key: null, shown: "", sound: readChoice(localStorage, SOUND_KEY, true) };
state.notify = notifications && readChoice(localStorage, NOTIFY_KEY, false) && Notification.permission === "granted";
let audio = null;

// Browsers let a page play sound only after a gesture on it: the first press or key starts the audio.
const unlock = () => {
  if (!state.sound) return;
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") audio.resume();
  } catch {
    audio = null; // no Web Audio: the call is silent
  }
};
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, true);

function ring() {
  if (!state.sound || audio?.state !== "running") return;
  const start = audio.currentTime + 0.02;
  for (const note of TONE) {
    const source = audio.createOscillator();
    const gain = audio.createGain();
    source.frequency.value = note.hertz;
    const from = start + note.at;
    gain.gain.setValueAtTime(0.0001, from);
    gain.gain.exponentialRampToValueAtTime(0.18, from + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, from + note.length);
    source.connect(gain);
    gain.connect(audio.destination);
    source.start(from);
    source.stop(from + note.length + 0.02);
  }
}

function notify(data) {
  try {
    const shown = new Notification(t("web.online.call_title"), {
      body: t("web.online.call_notify_body", { number: data.table.number }),
      tag: `atout-call-${code}`,
    });
    shown.addEventListener("click", () => window.focus());
  } catch {
    // Some browsers show notifications from a service worker only.
  }
}

function draw(data) {
  const { lines, link, linkText } = callLines(data, t);
  const nodes = lines.map((text, i) => {
    const p = document.createElement("p");
    if (i === 0 && data.table) p.className = "call-table";
    p.textContent = text;
    return p;
  });
  if (link) {
    // A form's button, so that it looks like the page's main action; it opens the table.
    const form = document.createElement("form");
    form.method = "get";
    form.action = link;
    const go = document.createElement("button");
    go.className = "primary big go-table";
    go.textContent = linkText;
    form.append(go);
    nodes.push(form);
  }
  box.replaceChildren(...nodes);
  document.getElementById("call-round").textContent = t("web.concours.round_of", {
    round: data.round,
    rounds: data.rounds,
  });
}

function alert(data) {
  const key = callKey(data);
  const called = key !== "";
  const permission = notifications ? Notification.permission : "denied";
  const live = state.key !== null; // the page's first look says nothing: he opened it himself
  const now = alerts({
    was: key === state.key,
    mine: called,
    live,
    sound: state.sound,
    notify: state.notify,
    permission,
    hidden: document.hidden,
  });
  state.key = key;
  document.title = callTitle(base, called, t);
  const icon = document.querySelector("link[rel=icon]");
  if (icon && icon.getAttribute("href") !== favicon(called)) icon.setAttribute("href", favicon(called));
  if (now.sound) ring();
  if (now.notify) notify(data);
}

async function refresh() {
  try {
    const response = await fetch(`/c/${code}/play.json`, { cache: "no-store" });
    if (!response.ok) return;
    const data = await response.json();
    if (changed(state.shown, data)) {
      state.shown = JSON.stringify(data);
      draw(data);
    }
    alert(data);
  } catch {
    // The network dropped: the next attempt tries again.
  }
}

soundBox.checked = state.sound;
notifyBox.checked = state.notify;
notifyBox.disabled = !notifications;
soundBox.addEventListener("change", () => {
  state.sound = soundBox.checked;
  writeChoice(localStorage, SOUND_KEY, state.sound);
  if (state.sound) {
    unlock();
    setTimeout(ring, 50); // what it sounds like
  }
});
notifyBox.addEventListener("change", async () => {
  let allowed = notifyBox.checked;
  if (allowed && Notification.permission !== "granted") {
    allowed = (await Notification.requestPermission()) === "granted"; // asked at his request, never on load
  }
  state.notify = allowed;
  notifyBox.checked = allowed;
  writeChoice(localStorage, NOTIFY_KEY, allowed);
});

await loadMessages();
await refresh();
setInterval(refresh, CALL_REFRESH_MS);
