// "Your turn", pure (no DOM): whether the view asks something of the player, the tab's title and icon then,
// whether to ring and notify, and the countdown at an absent player's seat from the seconds the server sent.

/** The countdown shows in the last this many seconds before a bot plays for an absent player. */
export const COUNTDOWN_FROM = 30;
/** Under this many seconds the countdown is drawn as urgent. */
export const URGENT_FROM = 10;
/** The tone of the player's turn: two short notes rising (hertz, start and length in seconds). */
export const TONE = [
  { hertz: 660, at: 0, length: 0.11 },
  { hertz: 880, at: 0.12, length: 0.16 },
];
/** Where the player's choices are kept in his browser: the sound ("0": off; on by default) and notifications. */
export const SOUND_KEY = "atout.turn.sound";
export const NOTIFY_KEY = "atout.turn.notify";

/** Whether the view asks something of its reader now: a call, a card, announcements to declare. */
export function yourTurn(view) {
  const deal = view?.deal;
  if (!deal || view.you === null || view.you === undefined || view.status !== "playing") return false;
  if (deal.phase === "done" || deal.turn !== view.you) return false;
  return Boolean(deal.bidding || deal.plays?.length || deal.declare?.length);
}

/** The tab's title: the table's own, « À vous ! » first on the player's turn. */
export function pageTitle(base, mine, t) {
  return mine ? `${t("web.turn.title")} · ${base}` : base;
}

// The icons: a red heart on a card; on the player's turn, a gold disc in its corner. Both are drawn here
// (base.html carries the first as it is: a test checks that they are the same).
const CARD = "<rect x='4' y='1.5' width='24' height='29' rx='4' fill='%23fff' stroke='%231b4d32' stroke-width='2'/>";
const HEART =
  "<path d='M16 25C9 19.5 7 16.5 7 13a4.5 4.5 0 0 1 9-1.5 4.5 4.5 0 0 1 9 1.5c0 3.5-2 6.5-9 12z' fill='%23c62828'/>";
const BADGE = "<circle cx='24.5' cy='7.5' r='6.5' fill='%23f2b600' stroke='%231b4d32' stroke-width='1.5'/>";
const svg = (body) =>
  `data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E${body}%3C/svg%3E`;
const url = (parts) => svg(parts.join("").replaceAll("<", "%3C").replaceAll(">", "%3E"));

/** The tab's icons, as data URLs. */
export const FAVICONS = { normal: url([CARD, HEART]), turn: url([CARD, HEART, BADGE]) };

/** The tab's icon on the player's turn or not. */
export function favicon(mine) {
  return mine ? FAVICONS.turn : FAVICONS.normal;
}

/**
 * What the page does as the view changes from `was` to `mine` (whether each asks something of the player):
 * ring and notify only when his turn begins, as it happens (`live`: not a page just opened or resumed), the
 * sound if it is on, a notification only where he allowed them, the browser granted it and the tab is hidden.
 */
export function alerts({ was, mine, live, sound, notify, permission, hidden }) {
  const begins = Boolean(mine && !was && live);
  return { sound: begins && sound, notify: begins && notify && permission === "granted" && hidden };
}

/** The clock a message brings, from its receipt (`now`, in milliseconds): {seat, until}; null without one. */
export function clockOf(message, now) {
  const clock = message.clock;
  if (!clock || !(clock.seconds > 0)) return null;
  return { seat: clock.seat, until: now + clock.seconds * 1000 };
}

/**
 * The countdown to draw at a seat at `now` (milliseconds, the clock of `clockOf`): {seat, seconds, text, short
 * (a phone's narrow seat), urgent}; null when no clock runs, it has run out, or more than COUNTDOWN_FROM seconds are left.
 */
export function countdown(clock, now, t) {
  if (!clock) return null;
  const seconds = Math.ceil((clock.until - now) / 1000);
  if (seconds <= 0 || seconds > COUNTDOWN_FROM) return null;
  const text = t("web.turn.countdown", { seconds });
  return {
    seat: clock.seat,
    seconds,
    text,
    short: t("web.turn.countdown_short", { seconds }),
    urgent: seconds <= URGENT_FROM,
  };
}

/** A choice kept in the browser: on unless set to "0" (`fallback` true), or on only if set to "1". */
export function readChoice(storage, key, fallback) {
  const value = storage.getItem(key);
  return value === null ? fallback : value === "1";
}

export function writeChoice(storage, key, on) {
  storage.setItem(key, on ? "1" : "0");
}
