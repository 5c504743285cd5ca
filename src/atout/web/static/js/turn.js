// "Your turn", drawn: the tab's title and icon on the player's turn, a short tone (Web Audio, made at run time;
// on by default, muted from the alerts' menu and remembered), a notification when the tab is hidden (only once
// the player has asked for them from that menu: the browser's permission is asked then, never on page load),
// and the countdown at an absent player's seat before a bot plays for him. The pure part is core/turn.js.
import {
  alerts,
  clockOf,
  countdown,
  favicon,
  NOTIFY_KEY,
  pageTitle,
  readChoice,
  SOUND_KEY,
  TONE,
  writeChoice,
  yourTurn,
} from "./core/turn.js";
import { button, checkbox, el, toast } from "./dom.js";
import { t } from "./i18n.js";

const TICK_MS = 250;
const notifications = "Notification" in window;

/**
 * The table's "your turn". `view()` is the table's view. The page calls `receive(message)` with each message of
 * the server (the clock comes with those that build the view) and `draw(root)` after each drawing of the table,
 * once its title is set.
 */
export function createTurn({ code, view }) {
  const turn = {
    mine: false, // the view asked something of the player when the table was last drawn
    live: false, // the last view came as it happened (an update, a resume), not with a page just opened
    clock: null, // {seat, until}: when a bot plays for the absent player to play (performance.now() time)
    sound: readChoice(localStorage, SOUND_KEY, true),
    notify: readChoice(localStorage, NOTIFY_KEY, false),
    open: false,
  };
  let root = null;
  let menu = null;
  let ticker = null;
  let audio = null;
  let shown = null; // the notification on screen

  // Browsers let a page play sound only after a gesture on it: the first press or key starts the audio.
  const unlock = () => {
    if (!turn.sound) return;
    try {
      audio ??= new AudioContext();
      if (audio.state === "suspended") audio.resume();
    } catch {
      audio = null; // no Web Audio: the turn is silent
    }
  };
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, true);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) shown?.close(); // the player is back on the table: the notification has done its work
  });

  function receive(message) {
    if (!["snapshot", "resume", "update"].includes(message.type)) return;
    turn.clock = clockOf(message, performance.now());
    turn.live = message.type !== "snapshot";
  }

  /** After the table is drawn anew: the title and icon, the alerts when the turn begins, the countdown. */
  function draw(table) {
    root = table;
    const current = view();
    const mine = yourTurn(current);
    document.title = pageTitle(document.title, mine, t);
    const icon = document.querySelector("link[rel=icon]");
    if (icon && icon.getAttribute("href") !== favicon(mine)) icon.setAttribute("href", favicon(mine));
    const permission = notifications ? Notification.permission : "denied";
    const { sound, notify: notice, live } = turn;
    const now = alerts({ was: turn.mine, mine, live, sound, notify: notice, permission, hidden: document.hidden });
    turn.mine = mine;
    if (now.sound) ring();
    if (now.notify) notify();
    if (!mine) shown?.close();
    table.querySelector(".status")?.append(toggleButton());
    tick();
    clearInterval(ticker);
    ticker = turn.clock ? setInterval(tick, TICK_MS) : null;
  }

  /** The countdown at the absent player's seat, drawn anew (its text only) as the seconds pass. */
  function tick() {
    if (!root) return;
    const shownNow = countdown(turn.clock, performance.now(), t);
    let node = root.querySelector(".turn-clock");
    if (!shownNow) {
      node?.remove();
      if (turn.clock && performance.now() >= turn.clock.until) {
        turn.clock = null; // run out: the server's next message says a bot plays for him
        clearInterval(ticker);
      }
      return;
    }
    const seat = root.querySelector(`[data-seat="${shownNow.seat}"]`);
    if (!seat) return;
    if (!node || node.parentElement !== seat) {
      node?.remove();
      node = el("div", "turn-clock");
      node.setAttribute("role", "timer");
      node.append(el("span", "long"), el("span", "short")); // a phone's narrow seat shows the seconds only
      seat.append(node);
    }
    node.classList.toggle("urgent", shownNow.urgent);
    if (node.title !== shownNow.text) {
      node.title = shownNow.text;
      node.setAttribute("aria-label", shownNow.text);
      node.querySelector(".long").textContent = shownNow.text;
      node.querySelector(".short").textContent = shownNow.short;
    }
  }

  function ring() {
    chime(TONE);
  }

  /**
   * Notes (or bursts of noise: `noise`, filtered around `hertz`) made at run time, `delay` seconds from now:
   * the turn's tone, and motion.js's sounds. Silent when the sound is off or before any gesture on the page.
   */
  function chime(notes, delay = 0) {
    if (!turn.sound || audio?.state !== "running") return; // before any gesture on the page, the browser forbids it
    const start = audio.currentTime + 0.02 + delay;
    for (const note of notes) {
      const source = note.noise ? noise(note.length) : audio.createOscillator();
      const gain = audio.createGain();
      let head = gain;
      if (note.noise) {
        const filter = audio.createBiquadFilter();
        filter.type = "bandpass";
        filter.frequency.value = note.hertz;
        filter.Q.value = 1.2;
        filter.connect(gain);
        head = filter;
      } else {
        source.type = note.wave ?? "sine";
        source.frequency.value = note.hertz;
      }
      const from = start + note.at;
      gain.gain.setValueAtTime(0.0001, from);
      gain.gain.exponentialRampToValueAtTime(note.gain ?? 0.18, from + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, from + note.length);
      source.connect(head);
      gain.connect(audio.destination);
      source.start(from);
      source.stop(from + note.length + 0.02);
    }
  }

  /** A buffer of white noise `seconds` long, played once. */
  function noise(seconds) {
    const length = Math.ceil(audio.sampleRate * (seconds + 0.02));
    const buffer = audio.createBuffer(1, length, audio.sampleRate);
    const samples = buffer.getChannelData(0);
    for (let i = 0; i < length; i++) samples[i] = Math.random() * 2 - 1;
    const source = audio.createBufferSource();
    source.buffer = buffer;
    return source;
  }

  function notify() {
    try {
      shown?.close();
      shown = new Notification(t("web.turn.title"), {
        body: t("web.turn.notify_body", { table: document.body.dataset.pretty }),
        tag: `atout-${code}`,
      });
      shown.addEventListener("click", () => {
        window.focus();
        shown?.close();
      });
    } catch {
      shown = null; // some browsers show notifications from a service worker only
    }
  }

  // ------------------------------------------------------------ the alerts' menu
  function toggleButton() {
    // A bell drawn by the style sheet (no emoji font needed); struck through when the turn is silent.
    const node = button("", () => setOpen(!turn.open), `turn-toggle${turn.sound ? "" : " muted"}`);
    node.title = t("web.turn.alerts");
    node.setAttribute("aria-label", t("web.turn.alerts"));
    node.setAttribute("aria-expanded", String(turn.open));
    node.setAttribute("aria-controls", "turn-menu");
    return node;
  }

  function setOpen(open) {
    turn.open = open;
    if (!menu) menu = buildMenu();
    refresh();
    if (open) {
      const toggle = root?.querySelector(".turn-toggle");
      const below = toggle ? toggle.getBoundingClientRect().bottom : 0;
      menu.node.style.top = `${Math.round(below + 6)}px`;
      menu.sound.focus({ preventScroll: true });
    } else {
      root?.querySelector(".turn-toggle")?.focus({ preventScroll: true });
    }
  }

  function buildMenu() {
    const node = el("div", "turn-menu");
    node.id = "turn-menu";
    node.setAttribute("role", "group");
    node.setAttribute("aria-label", t("web.turn.alerts"));
    node.addEventListener("keydown", (e) => {
      e.stopPropagation(); // the table's keys are not the menu's
      if (e.key === "Escape") setOpen(false);
    });
    const sound = checkbox(t("web.sound.toggle"), (on) => {
      turn.sound = on;
      writeChoice(localStorage, SOUND_KEY, on);
      if (on) {
        unlock();
        setTimeout(ring, 50); // what it sounds like
      }
      refresh();
    });
    const notice = checkbox(t("web.turn.notify"), (on) => setNotify(on));
    const note = el("p", "hint");
    const close = button("×", () => setOpen(false), "turn-close");
    close.setAttribute("aria-label", t("web.turn.close"));
    node.append(close, sound.label, notice.label, note);
    node.hidden = true;
    document.body.append(node);
    document.addEventListener("pointerdown", (e) => {
      if (turn.open && !node.contains(e.target) && !e.target.closest?.(".turn-toggle")) setOpen(false);
    });
    // Escape closes it wherever the focus is (the table may have moved it into a box that just opened).
    document.addEventListener("keydown", (e) => {
      if (turn.open && e.key === "Escape" && !node.contains(e.target)) {
        turn.open = false;
        refresh();
      }
    });
    return { node, sound: sound.box, notice: notice.box, note };
  }

  /** Notifications on: the browser's permission is asked now, at the player's request, if it was not given. */
  async function setNotify(on) {
    let allowed = on;
    if (on && Notification.permission !== "granted") {
      allowed = (await Notification.requestPermission()) === "granted";
      if (!allowed) toast(t("web.turn.notify_denied"));
    }
    turn.notify = allowed;
    writeChoice(localStorage, NOTIFY_KEY, allowed);
    refresh();
  }

  function refresh() {
    if (!menu) return;
    menu.node.hidden = !turn.open;
    menu.sound.checked = turn.sound;
    menu.notice.disabled = !notifications;
    menu.notice.checked = notifications && turn.notify && Notification.permission === "granted";
    menu.note.textContent = notifications ? "" : t("web.turn.notify_unsupported");
    menu.note.hidden = !menu.note.textContent;
    const toggle = root?.querySelector(".turn-toggle");
    if (toggle) toggle.replaceWith(toggleButton());
  }

  /** The sounds beyond the turn's tone (motion.js): whether the sound is on, and `chime(notes, delay)`. */
  const sound = { on: () => turn.sound, chime };

  return { receive, draw, sound };
}
