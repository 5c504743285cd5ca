// The bidding box's choices: the values the server offers (the five lowest and the capots as buttons, the
// others in a list), the strains of the chosen value with their bids, and the other calls. Pure (no DOM).
//
// The value chosen belongs to one turn: a new turn (another deal, or more calls since) starts again from
// the lowest value, so that a value chosen earlier is never bid by mistake. A strain's bid is read when the
// strain is pressed, at the value chosen then.

/** Values offered as buttons; the others are in a list. */
export const QUICK_VALUES = 5;

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
 * What the box shows: the values as buttons (`quick`) and in a list (`more`), each marked if chosen; the
 * strains that may be bid at the chosen value, with their bids (`strains`); the other calls.
 */
export function choices(box, chosen) {
  const all = box.values.map((v) => ({ label: v.label, capot: v.capot, chosen: v.label === chosen }));
  const quick = all.filter((v, i) => i < QUICK_VALUES || v.capot);
  const value = box.values.find((v) => v.label === chosen);
  const strains = value
    ? box.strains.map((strain, i) => ({ ...strain, index: i, action: value.bids[i] })).filter((s) => s.action)
    : [];
  return { quick, more: all.filter((v) => !quick.includes(v)), strains, calls: box.calls };
}

/** The bid of the box's strain `index` at the value chosen, or null where that strain may not be bid. */
export function bidFor(box, chosen, index) {
  return box.values.find((v) => v.label === chosen)?.bids[index] ?? null;
}
