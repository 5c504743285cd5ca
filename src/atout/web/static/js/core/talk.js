// Talk at the table, without the DOM: a message checked before it is sent (the server checks the same), the
// log as the panel shows it, and the speakers a player has muted (kept per table in the browser's storage).

/** The quick messages, by their keys in the catalogue (`web.talk.quick.KEY`). */
export const QUICK_KEYS = ["well_played", "thanks", "sorry", "hurry", "bravo_partner"];
/** Longest free text, in characters (once stripped). */
export const TALK_LENGTH = 200;
/** Lines the log keeps (the server sends the last 100). */
export const LOG_KEPT = 100;
/** Seconds a bubble stays at the speaker's seat. */
export const BUBBLE_MS = 4000;

// Control characters (C0, DEL, C1) and the bidirectional overrides and isolates, refused as the server does.
const CONTROL = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/**
 * Free text as it will be said: `{text}` stripped, or `{error}`, the key of the catalogue's refusal
 * (`web.talk.error.KEY`: `empty`, `control`, `too_long`). Length counts characters, not UTF-16 units.
 */
export function checkText(raw) {
  const text = String(raw ?? "")
    .normalize("NFC")
    .trim();
  if (!text) return { error: "empty" };
  if (CONTROL.test(text) || text.isWellFormed?.() === false) return { error: "control" };
  if ([...text].length > TALK_LENGTH) return { error: "too_long" };
  return { text };
}

/** The `say` message for a quick message's key or for free text already checked. */
export function sayMessage({ quick = null, text = null }) {
  return quick ? { type: "say", quick } : { type: "say", text };
}

/** Whether the reader may talk (seated, or a spectator where the host allows) and type free text. */
export function mayTalk(view, rules) {
  const seated = view?.you !== null && view?.you !== undefined;
  const talk = seated || Boolean(rules?.spectators);
  return { talk, type: talk && Boolean(rules?.free_text) };
}

/** The log with a new line at its end (a line it holds already is not added twice), at most `kept` lines. */
export function addLine(lines, line, kept = LOG_KEPT) {
  if (lines.some((l) => l.id === line.id)) return lines;
  return [...lines, line].slice(-kept);
}

/** A line's time as the reader's clock writes it (`14:05`); `timeZone` for tests, the browser's by default. */
export function clock(iso, lang = "fr", timeZone = undefined) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(lang === "en" ? "en-GB" : "fr-FR", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
  }).format(date);
}

/**
 * The log as the panel shows it: each line not muted with its time, speaker and words, and whether the
 * reader said it himself (`mine`: a line whose speaker he cannot mute).
 */
export function logRows(lines, muted, { me = null, lang = "fr", timeZone = undefined } = {}) {
  return lines
    .filter((line) => !muted.has(line.who))
    .map((line) => ({
      id: line.id,
      time: clock(line.at, lang, timeZone),
      name: line.name,
      text: line.text,
      who: line.who,
      quick: Boolean(line.quick),
      mine: me !== null && line.who === me,
    }));
}

/** The speakers muted, each with the last name the log gives him: [{who, name}]. */
export function mutedSpeakers(lines, muted) {
  const names = new Map(lines.map((line) => [line.who, line.name]));
  return [...muted].map((who) => ({ who, name: names.get(who) ?? "?" }));
}

/** Where a table's mute list is kept in the browser's storage. */
export function muteKey(code) {
  return `atout.mute.${code}`;
}

/** A table's mute list from storage (`getItem`), a Set of speakers' handles; an unreadable entry is empty. */
export function readMuted(storage, code) {
  try {
    const kept = JSON.parse(storage.getItem(muteKey(code)) ?? "[]");
    return new Set(Array.isArray(kept) ? kept.filter((who) => typeof who === "string") : []);
  } catch {
    return new Set();
  }
}

/** The mute list with `who` muted, or shown again if he was; kept in storage (`setItem`). */
export function toggleMuted(storage, code, muted, who) {
  const next = new Set(muted);
  if (next.has(who)) next.delete(who);
  else next.add(who);
  storage.setItem(muteKey(code), JSON.stringify([...next]));
  return next;
}
