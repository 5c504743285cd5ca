// The bidding box's choices: the values the server offers (the five lowest and the lowest capot as buttons,
// the next few in a list, every other value in that list on demand), the strains of the chosen value with
// their bids, and the other calls. Pure (no DOM).
//
// The value chosen belongs to one turn: a new turn (another deal, or more calls since) starts again from
// the lowest value, so that a value chosen earlier is never bid by mistake. A strain's bid is read when the
// strain is pressed, at the value chosen then.

/** Values offered as buttons (and the lowest capot); the others are in a list. */
export const QUICK_VALUES = 5;
/** Values in the list before « Other values… » (after the buttons: 130 to 160 from 80). */
export const LIKELY_VALUES = 4;

/** The turn a bidding box belongs to: the deal and the calls made before it. */
export function turnOf(deal) {
  return `${deal.number}:${deal.calls.length}`;
}

/** The value chosen for `turn` (a label): the one chosen at this turn if it is still offered, else the lowest. */
export function chosenValue(box, choice, turn) {
  const offered = box.values.map((v) => v.label);
  if (choice && choice.turn === turn && offered.includes(choice.value)) return choice.value;
  return offered[0] ?? null;
}

/**
 * What the box shows: the values as buttons (`quick`: the five lowest and the lowest capot), in a list
 * (`more`: the next four), and on demand (`rest`: every other value, capots included, in the list once asked
 * for with `all`, or when one of them is chosen), each marked if chosen; the strains that may be bid at the
 * chosen value, with their bids (`strains`); the other calls.
 */
export function choices(box, chosen, { all = false } = {}) {
  const values = box.values.map((v) => ({ label: v.label, capot: v.capot, chosen: v.label === chosen }));
  const plain = values.filter((v) => !v.capot);
  const capot = values.find((v) => v.capot);
  const quick = plain.slice(0, QUICK_VALUES);
  if (capot) quick.push(capot);
  const likely = plain.slice(QUICK_VALUES, QUICK_VALUES + LIKELY_VALUES);
  let rest = values.filter((v) => !quick.includes(v) && !likely.includes(v));
  let more = likely;
  if (all || rest.some((v) => v.chosen)) [more, rest] = [likely.concat(rest), []];
  const value = box.values.find((v) => v.label === chosen);
  const strains = value
    ? box.strains.map((strain, i) => ({ ...strain, index: i, action: value.bids[i] })).filter((s) => s.action)
    : [];
  return { quick, more, rest, strains, calls: box.calls };
}

/** The bid of the box's strain `index` at the value chosen, or null where that strain may not be bid. */
export function bidFor(box, chosen, index) {
  return box.values.find((v) => v.label === chosen)?.bids[index] ?? null;
}
