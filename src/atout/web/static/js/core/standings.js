// The projector's standings, pure (no DOM): the rows to draw from the server's standings JSON, the round's
// line, and whether something changed since the last drawing.
import { signed } from "./format.js";

/** How often the projector asks for the standings (milliseconds). */
export const REFRESH_MS = 5000;

/** Each row's cells, in the table's order: rank, name, wins, points, difference. */
export function standingsRows(data, lang = "fr") {
  return (data?.standings ?? []).map((row) => [
    String(row.rank),
    row.name,
    formatWins(row.wins, lang),
    String(row.points),
    signed(row.difference),
  ]);
}

/** Wins as a score sheet writes them: a draw counts a half (« 2,5 » in French, "2.5" in English). */
export function formatWins(wins, lang = "fr") {
  const text = Number.isInteger(wins) ? String(wins) : wins.toFixed(1);
  return lang === "fr" ? text.replace(".", ",") : text;
}

/** The line under the title: the round and its confirmed tables, or the concours over. */
export function roundLine(data, t) {
  if (data.finished) return t("web.concours.finished");
  return t("web.concours.round_progress", {
    round: data.round,
    rounds: data.rounds,
    confirmed: data.confirmed,
    tables: data.tables,
  });
}

/** The podium: the first three places (every entrant ranked 3 or better), or none before the end. */
export function podium(data) {
  if (!data.finished) return [];
  return (data.standings ?? [])
    .filter((row) => row.rank <= 3)
    .map((row) => ({ rank: row.rank, name: row.name, points: row.points }));
}

/** A fingerprint of what the projector shows: redraw only when it changes. */
export function fingerprint(data) {
  return JSON.stringify([data.round, data.confirmed, data.finished, data.standings]);
}
