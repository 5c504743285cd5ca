// Talk at the table, drawn: a bubble at the speaker's seat for a few seconds, and a small panel (the log, the
// quick messages, a line of free text, the host's settings) that opens from the status bar. Every word said
// goes into the page as text (textContent), never as HTML. The pure part is core/talk.js.
import {
  addLine,
  BUBBLE_MS,
  checkText,
  logRows,
  mayTalk,
  mutedSpeakers,
  QUICK_KEYS,
  readMuted,
  sayMessage,
  TALK_LENGTH,
  toggleMuted,
} from "./core/talk.js";
import { button, checkbox, el, toast } from "./dom.js";
import { lang, t } from "./i18n.js";

const OPEN_KEY = "atout.talk.open";
const NARROW = "(max-width: 640px)"; // a phone held upright: the panel is a sheet over the hand

/**
 * The table's talk. `send(message)` sends on the table's socket; `view()` is the table's view. The page calls
 * `receive(message)` with each message of the server (true: a message of the talk's own, nothing else to do)
 * and `draw(root)` after each drawing of the table.
 */
export function createTalk({ code, send, view }) {
  const talk = {
    lines: [],
    rules: { free_text: true, spectators: false },
    me: null,
    muted: readMuted(localStorage, code),
    open: localStorage.getItem(OPEN_KEY) === "1",
    unread: 0,
    bubbles: new Map(), // seat -> {text, timer}
    rights: null, // the reader's seat and host flag the panel was drawn for
    asked: false, // the table asked something of the player when it was last drawn
  };
  let root = null;
  let panel = null; // built on first use, once the page has its messages

  function receive(message) {
    if ((message.type === "snapshot" || message.type === "resume") && message.talk) {
      talk.lines = message.talk.lines;
      talk.rules = { free_text: message.talk.free_text, spectators: message.talk.spectators };
      talk.me = message.talk.who;
      refresh();
      return false;
    }
    if (message.type === "talk") {
      const line = message.line;
      talk.lines = addLine(talk.lines, line);
      if (!talk.muted.has(line.who)) {
        if (line.seat !== null) bubble(line.seat, line.text);
        if (!talk.open && line.who !== talk.me) talk.unread += 1;
      }
      refresh();
      redrawBubbles();
      return true;
    }
    if (message.type === "talk_rules") {
      talk.rules = { free_text: message.free_text, spectators: message.spectators };
      refresh();
      return true;
    }
    return false;
  }

  function bubble(seat, text) {
    const old = talk.bubbles.get(seat);
    if (old) clearTimeout(old.timer);
    const timer = setTimeout(() => {
      talk.bubbles.delete(seat);
      redrawBubbles();
    }, BUBBLE_MS);
    talk.bubbles.set(seat, { text, timer });
  }

  function redrawBubbles() {
    if (!root) return;
    for (const node of root.querySelectorAll(".talk-bubble")) node.remove();
    for (const [seat, said] of talk.bubbles) {
      const box = root.querySelector(`[data-seat="${seat}"]`);
      if (!box) continue;
      const node = el("div", "talk-bubble", said.text); // as text, never HTML
      node.setAttribute("role", "status");
      box.append(node);
    }
  }

  /** After the table is drawn anew: its toggle in the status bar, the bubbles at their seats. */
  function draw(table) {
    root = table;
    const bar = table.querySelector(".status");
    if (bar) bar.append(toggleButton());
    redrawBubbles();
    const current = view();
    // On a phone the panel covers the hand: it closes when the table asks something of the player.
    const asked = current?.you != null && current?.deal?.turn === current.you;
    if (asked && !talk.asked && talk.open && matchMedia(NARROW).matches) setOpen(false);
    talk.asked = asked;
    const rights = `${current?.host}:${current?.you}`;
    if (rights !== talk.rights) {
      talk.rights = rights; // who the reader is changed (seated, host): what the panel offers too
      refresh();
    }
  }

  function toggleButton() {
    // A speech balloon drawn by the style sheet (no emoji font needed), and the lines unread.
    const node = button(talk.unread ? String(talk.unread) : "", () => setOpen(!talk.open), "talk-toggle");
    node.title = t("web.talk.title");
    node.setAttribute("aria-label", talk.unread ? `${t("web.talk.title")} (${talk.unread})` : t("web.talk.title"));
    node.setAttribute("aria-expanded", String(talk.open));
    node.setAttribute("aria-controls", "talk-panel");
    return node;
  }

  function setOpen(open) {
    talk.open = open;
    if (open) talk.unread = 0;
    localStorage.setItem(OPEN_KEY, open ? "1" : "0");
    const toggle = root?.querySelector(".talk-toggle");
    if (toggle) toggle.replaceWith(toggleButton());
    refresh();
    if (open) {
      panel.log.scrollTop = panel.log.scrollHeight;
      (panel.input.disabled ? panel.close : panel.input).focus({ preventScroll: true });
    }
  }

  function buildPanel() {
    const node = el("aside", "talk-panel");
    node.id = "talk-panel";
    node.setAttribute("aria-label", t("web.talk.title"));
    node.addEventListener("keydown", (e) => e.stopPropagation()); // the table's keys are not the panel's
    const head = el("div", "talk-head");
    const close = button("×", () => setOpen(false), "talk-close");
    close.setAttribute("aria-label", t("web.talk.close"));
    head.append(el("h2", "", t("web.talk.title")), close);
    const settings = el("div", "talk-settings");
    const freeText = checkbox(t("web.talk.free_text"), (on) => setRules({ free_text: on }));
    const spectators = checkbox(t("web.talk.spectators"), (on) => setRules({ spectators: on }));
    settings.append(freeText.label, spectators.label);
    const log = el("ol", "talk-log");
    log.setAttribute("aria-live", "polite");
    const mutedList = el("div", "talk-muted");
    const note = el("p", "hint talk-note");
    const quick = el("div", "talk-quick");
    quick.setAttribute("role", "group");
    quick.setAttribute("aria-label", t("web.talk.quick_label"));
    for (const key of QUICK_KEYS) {
      quick.append(button(t(`web.talk.quick.${key}`), () => send(sayMessage({ quick: key }))));
    }
    const form = el("form", "talk-form");
    const input = el("input");
    input.type = "text";
    input.maxLength = TALK_LENGTH * 2; // characters, checked once stripped (an emoji counts one)
    input.placeholder = t("web.talk.placeholder");
    input.setAttribute("aria-label", t("web.talk.placeholder"));
    input.autocomplete = "off";
    const submit = el("button", "primary", t("web.talk.send"));
    submit.type = "submit";
    form.append(input, submit);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const checked = checkText(input.value);
      if (checked.error) {
        toast(t(`web.talk.error.${checked.error}`, { limit: TALK_LENGTH }));
        return;
      }
      send(sayMessage({ text: checked.text }));
      input.value = "";
    });
    node.append(head, settings, log, mutedList, note, quick, form);
    return { node, close, settings, freeText, spectators, log, mutedList, note, quick, form, input, submit };
  }

  function setRules(change) {
    send({ type: "talk_rules", ...talk.rules, ...change });
  }

  /** The panel drawn anew from the talk's state (the line being typed stays as it is). */
  function refresh() {
    if (!panel) {
      panel = buildPanel();
      document.body.append(panel.node);
    }
    panel.node.hidden = !talk.open;
    document.body.classList.toggle("talk-open", talk.open); // a wide screen makes room for the panel
    const current = view();
    const host = Boolean(current?.host);
    panel.settings.hidden = !host;
    panel.freeText.box.checked = talk.rules.free_text;
    panel.spectators.box.checked = talk.rules.spectators;
    const rights = mayTalk(current, talk.rules);
    panel.quick.hidden = !rights.talk;
    panel.form.hidden = !rights.type;
    panel.input.disabled = !rights.type;
    panel.submit.disabled = !rights.type;
    // The host turned free text off himself: his own switch says so, the note is for the others.
    const off = rights.type || host ? "" : t("web.talk.free_text_off");
    panel.note.textContent = rights.talk ? off : t("web.talk.read_only");
    panel.note.hidden = !panel.note.textContent;
    const stuck = panel.log.scrollHeight - panel.log.scrollTop - panel.log.clientHeight < 24;
    const rows = logRows(talk.lines, talk.muted, { me: talk.me, lang });
    const items = rows.map((row) => {
      const item = el("li", row.quick ? "quick" : "");
      item.append(el("time", "", row.time), " ", el("b", "", row.name), " ", el("span", "said", row.text));
      if (!row.mine) {
        const mute = button(t("web.talk.mute_short"), () => toggle(row.who), "talk-mute");
        mute.setAttribute("aria-label", t("web.talk.mute", { name: row.name }));
        mute.title = t("web.talk.mute", { name: row.name });
        item.append(mute);
      }
      return item;
    });
    if (!items.length) items.push(el("li", "hint", t("web.talk.empty")));
    panel.log.replaceChildren(...items);
    if (stuck) panel.log.scrollTop = panel.log.scrollHeight; // follow the log unless the reader scrolled up
    panel.mutedList.replaceChildren(
      ...mutedSpeakers(talk.lines, talk.muted).map((speaker) =>
        button(t("web.talk.unmute", { name: speaker.name }), () => toggle(speaker.who), "talk-unmute"),
      ),
    );
  }

  function toggle(who) {
    talk.muted = toggleMuted(localStorage, code, talk.muted, who);
    if (talk.muted.has(who)) {
      for (const [seat, said] of talk.bubbles) {
        const line = talk.lines.findLast((l) => l.seat === seat);
        if (line?.who === who) {
          clearTimeout(said.timer);
          talk.bubbles.delete(seat);
        }
      }
      redrawBubbles();
    }
    refresh();
  }

  return { receive, draw };
}
