// Score sheets on a phone, pure (no DOM): when to reload a sheet changed elsewhere, and the list of the sheets
// this browser keeps (games at home, for a visitor without an account).

/** How often a phone asks whether its sheet changed (milliseconds). */
export const POLL_MS = 4000;
/** Where the browser keeps its sheets: a JSON list of `{token, names}`, the latest first. */
export const KEPT_KEY = "atout.sheets";
/** The most sheets the browser lists. */
export const KEPT_MAX = 30;

/** Reload when the server's version differs from the page's, unless the player is typing an entry. */
export function shouldReload(shown, current, typing) {
  return Boolean(current) && current !== shown && !typing;
}

/** The kept sheets read back; anything malformed reads as none (a corrupt entry never breaks the page). */
export function keptSheets(text) {
  try {
    const list = JSON.parse(text ?? "[]");
    if (!Array.isArray(list)) return [];
    return list.filter((s) => typeof s?.token === "string" && typeof s?.names === "string").slice(0, KEPT_MAX);
  } catch {
    return [];
  }
}

/** The list with `token` first (added, or moved up with its names updated). */
export function keep(list, token, names) {
  return [{ token, names }, ...list.filter((s) => s.token !== token)].slice(0, KEPT_MAX);
}
