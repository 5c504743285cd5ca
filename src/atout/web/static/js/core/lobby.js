// The lobby's list: the tables its socket sends (`lobby`, then `lobby_change`), and each one put into words.
// Pure (no DOM): the home page draws what these return. A row comes in no language: `t` words it.

/** The list after a message of the lobby's socket: the whole list, or the tables changed and gone applied to it
 * (a changed table keeps its place, a new one comes last). */
export function applyLobby(tables, message) {
  if (message.type === "lobby") return message.tables;
  if (message.type !== "lobby_change") return tables;
  const changed = new Map(message.tables.map((table) => [table.code, table]));
  const gone = new Set(message.gone);
  const known = new Set(tables.map((table) => table.code));
  const kept = tables.filter((table) => !gone.has(table.code)).map((table) => changed.get(table.code) ?? table);
  return [...kept, ...message.tables.filter((table) => !known.has(table.code))];
}

/** The tables in the order the page lists them: those waiting for players first, then those in play. */
export function listed(tables) {
  return [...tables.filter((table) => table.status !== "playing"), ...tables.filter((t) => t.status === "playing")];
}

/** A number of points with its digits grouped as `lang` writes them (« 1 000 », "1,000"). */
export function points(n, lang) {
  return n.toLocaleString(lang === "en" ? "en-GB" : "fr-FR");
}

/**
 * A table as the list shows it: its variant, a line of what differs from it (the host's options, the target,
 * the bots' level), its status, each seat with who holds it, the seats one may take (an open one, or a bot's
 * during the game) and whether one may watch (a game in play).
 */
export function lobbyRow(table, t, lang) {
  const seatName = (seat) => t(`common.seat.${seat.letter}`);
  const options = table.options.map((key) => [key, t(`web.lobby.option.${key}`)]);
  const details = [
    ...options.filter(([key, word]) => word !== `web.lobby.option.${key}`).map(([, word]) => word),
    t("web.lobby.list.target", { points: points(table.target, lang) }),
    t("web.lobby.list.bots", { level: t(`web.level.${table.bots}`) }),
    ...(table.practice ? [t("web.practice.badge")] : []),
    ...(table.rated ? [t("web.ratings.badge")] : []),
  ];
  const playing = table.status === "playing";
  return {
    code: table.code,
    href: `/t/${table.code}`,
    title: t(`web.preset.${table.preset}`),
    status: t(playing ? "web.lobby.list.playing" : "web.lobby.list.waiting"),
    playing,
    details: details.join(" · "),
    seats: table.seats.map((seat) => ({
      seat: seat.seat,
      kind: seat.kind,
      text: t("web.lobby.list.seat", { seat: seatName(seat), who: who(seat, t) }),
    })),
    free: table.seats
      .filter((seat) => seat.kind !== "human")
      .map((seat) => ({
        seat: seat.seat,
        name: seatName(seat),
        label: t("web.lobby.list.sit_at", { seat: seatName(seat) }),
      })),
    watch: playing,
  };
}

function who(seat, t) {
  if (seat.kind === "human") return ratedName(seat, t);
  return t(seat.kind === "bot" ? "web.lobby.list.bot" : "web.lobby.list.free");
}

/** A seated person's name, with his rating in the table's variant beside it when he has one (an account's),
 * marked when it is provisional: « Alice (1612) », « Bob (1500, provisoire) ». */
export function ratedName(seat, t) {
  if (seat.rating === undefined || seat.rating === null) return seat.name;
  const key = seat.provisional ? "web.ratings.seat_provisional" : "web.ratings.seat_rating";
  return t(key, { name: seat.name, rating: String(seat.rating) });
}
