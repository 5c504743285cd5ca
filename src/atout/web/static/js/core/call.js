// The call to a player's table in an online concours, pure (no DOM): what his page says from the server's
// JSON (/c/CODE/play.json), when a call is new, and the tab's title while his table waits for him.

/** How often the player's page asks for his call (milliseconds): as often as the projector. */
export const CALL_REFRESH_MS = 5000;

/** The call's identity: its round and table, while that table plays; "" when nothing calls the player. */
export function callKey(data) {
  const table = data?.table;
  if (table?.status !== "playing") return "";
  return `${data.round}:${table.code}`;
}

/**
 * What the page shows: {lines (paragraphs' texts), link (the table's address, or null), linkText}. From the
 * server's call: not registered, his table (playing or finished), a bye, the concours over, or the draw to come.
 */
export function callLines(data, t) {
  const table = data?.table;
  if (!data?.registered) return { lines: [t("web.online.not_registered")], link: null, linkText: "" };
  const paused = data.paused ? [t("web.online.paused_call")] : [];
  if (table) {
    const lines = [t("web.online.your_table", { number: table.number }), table.names.join(" – ")];
    if (table.status !== "playing") lines.push(t("web.online.table_finished"));
    return { lines: [...lines, ...paused], link: `/t/${table.code}`, linkText: t("web.online.go_table") };
  }
  if (data.bye) return { lines: [t("web.online.your_bye")], link: null, linkText: "" };
  if (data.finished) return { lines: [t("web.concours.finished")], link: null, linkText: "" };
  return { lines: [t("web.online.wait_draw")], link: null, linkText: "" };
}

/** The tab's title: the page's own, « À votre table ! » first while his table calls him. */
export function callTitle(base, called, t) {
  return called ? `${t("web.online.call_title")} · ${base}` : base;
}

/** Whether a message's call differs from the one drawn (`shown`, its key): the page then draws it anew. */
export function changed(shown, data) {
  return JSON.stringify(data) !== shown;
}
