// Formatting: the catalogue's words with their values, signed points, score sheets, text with suit symbols.
// Pure (no DOM): the page draws what these return.

/** A translator over a catalogue (`{key: text}`): `t(key, {name: value})` fills `{name}` placeholders. */
export function translator(messages) {
  return (key, values = {}) => {
    const text = messages[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
  };
}

/** A text's first letter in capitals. */
export function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Signed points as a score sheet writes them: +90, −3, 0. */
export function signed(points) {
  if (points > 0) return `+${points}`;
  if (points < 0) return `−${-points}`;
  return "0";
}

const SUITS = { "♠": "black", "♥": "red", "♦": "red", "♣": "black" };

/** A text cut around its suit symbols, each with its colour: [{text, colour}] (colour null for words). */
export function suitParts(text) {
  return text
    .split(/([♠♥♦♣])/)
    .filter((part) => part)
    .map((part) => ({ text: part, colour: SUITS[part] ?? null }));
}

/**
 * A score sheet's rows: one per label of `lines` (in their order), the points of each side summed, the
 * details said under the label. `lines`: [{side, label, points, detail}]; `sides`: [{side, name}].
 */
export function sheetRows(lines, sides) {
  const labels = [...new Set(lines.map((line) => line.label))];
  return labels.map((label) => {
    const mine = lines.filter((line) => line.label === label);
    return {
      label: capitalized(label),
      details: [...new Set(mine.filter((line) => line.detail).map((line) => line.detail))],
      points: sides.map((s) => mine.filter((line) => line.side === s.side).reduce((sum, line) => sum + line.points, 0)),
    };
  });
}

/** An announcement as heard: its words, and its points where they are known (« Tierce (20) »). */
export function heardText(announcement) {
  return announcement.points === null ? announcement.label : `${announcement.label} (${announcement.points})`;
}
