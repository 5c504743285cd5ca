// Movement and sound, drawn: the cards travel to the trick and the trick to its winner, the calls and
// announcements appear at their seats, and the table's events sound (through turn.js's audio and its sound
// toggle). Purely visual: the table is drawn as it always is, then its new elements are animated from where
// they were (FLIP, with the Web Animations API), and a trick gathered flies off as copies above the page that
// nothing can press. Short (under 300 ms), never waited for, and nothing at all when the player prefers
// reduced motion. What moves and sounds is decided by core/motion.js.
import { flip, GATHER_MS, plan, SAY_MS, SOUNDS, TRAVEL_MS } from "./core/motion.js";

const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)");

/**
 * The table's movement and sound. `view()` is the table's view, `sound` turn.js's ({on(), chime(notes, delay)}).
 * The page calls `receive(message)` with each message of the server, and around each drawing of the table
 * `const before = measure(root)` then `animate(root, before)`.
 */
export function createMotion({ view, sound }) {
  let moves = []; // waiting for the table to be drawn: cards played, words said
  let gather = null; // the last trick won, until the table stops showing it: {winner, cards, seen}
  let runs = 0; // movements started (the table's data-moves, for the tests)

  function receive(message) {
    if (message.type === "snapshot" || message.type === "resume") {
      moves = [];
      gather = null;
      return;
    }
    if (message.type !== "update") return;
    const reduced = Boolean(reducedMotion?.matches);
    const you = view()?.you ?? null;
    const next = plan(message.events, { reduced, muted: !sound.on(), hidden: document.hidden, you });
    for (const { name, at } of next.sounds) sound.chime(SOUNDS[name], at);
    for (const move of next.moves) {
      if (move.kind === "deal") {
        moves = [];
        gather = null;
      } else if (move.kind === "gather") gather = { ...move, seen: null };
      else moves.push(move);
    }
    if (reduced) gather = null;
  }

  /** Before the table is drawn anew: where what is about to move is now. */
  function measure(root) {
    if (!moves.length && !gather) return null;
    const origins = new Map();
    for (const move of moves) {
      if (move.kind !== "play") continue;
      const card =
        move.from === "hand" ? root.querySelector(`.hand .card[data-card="${CSS.escape(move.card)}"]`) : null;
      const seat = root.querySelector(`[data-seat="${move.seat}"]`);
      const from = [card, seat?.querySelector(".backs .card:last-child"), seat].find((node) => node && visible(node));
      if (from) origins.set(move, from.getBoundingClientRect());
    }
    if (gather) {
      const shown = [...root.querySelectorAll(".trick.done:not(.last) .card")].filter((node) =>
        gather.cards.includes(node.dataset.card),
      );
      if (shown.length) gather.seen = shown.map((node) => ({ node, rect: node.getBoundingClientRect() }));
    }
    return origins;
  }

  /** After the table is drawn anew: its new elements move from where they were. */
  function animate(root, origins) {
    if (!origins) return;
    for (const move of moves) {
      if (move.kind === "play") {
        const node = root.querySelector(`.trick:not(.last) .card[data-card="${CSS.escape(move.card)}"]`);
        const first = origins.get(move);
        if (node && first) {
          const { x, y, scale } = flip(first, node.getBoundingClientRect());
          run(
            root,
            node,
            [
              { translate: `${x}px ${y}px`, scale: String(scale) },
              { translate: "0 0", scale: "1" },
            ],
            {
              duration: TRAVEL_MS,
              easing: "cubic-bezier(.2, .7, .3, 1)",
            },
          );
        }
      } else if (move.kind === "say") {
        const bubble = root.querySelector(`[data-seat="${move.seat}"] > .bubble`);
        if (bubble) {
          run(
            root,
            bubble,
            [
              { scale: "0.5" }, // a pop, never faded: its text keeps its contrast at every moment
              { scale: "1" },
            ],
            {
              duration: SAY_MS,
              easing: "ease-out",
            },
          );
        }
      }
    }
    moves = [];
    if (gather?.seen) {
      const still = [...root.querySelectorAll(".trick .card")].some((node) => gather.cards.includes(node.dataset.card));
      if (!still) {
        const seat = root.querySelector(`[data-seat="${gather.winner}"]`);
        if (seat) fly(root, gather.seen, seat.getBoundingClientRect());
        gather = null;
      }
    }
  }

  /** The cards of a trick, as copies above the page, fly to the winner's seat and fade. */
  function fly(root, cards, target) {
    let layer = document.querySelector(".motion-layer");
    if (!layer) {
      layer = document.createElement("div");
      layer.className = "motion-layer";
      layer.setAttribute("aria-hidden", "true");
      document.body.append(layer);
    }
    for (const { node, rect } of cards) {
      const ghost = node.cloneNode(true);
      ghost.className = `${node.className} motion-ghost`;
      for (const attribute of ["data-card", "role", "aria-label", "tabindex"]) ghost.removeAttribute(attribute);
      Object.assign(ghost.style, {
        left: `${rect.left}px`,
        top: `${rect.top}px`,
        width: `${rect.width}px`,
        height: `${rect.height}px`,
      });
      layer.append(ghost);
      const { x, y } = flip(target, rect);
      const animation = run(
        root,
        ghost,
        [
          { translate: "0 0", scale: "1", opacity: 1 },
          { translate: `${x}px ${y}px`, scale: "0.35", opacity: 0 },
        ],
        { duration: GATHER_MS, easing: "ease-in", fill: "forwards" },
      );
      const done = () => ghost.remove();
      if (animation) animation.finished.then(done, done);
      else done();
    }
  }

  function run(root, node, keyframes, options) {
    if (reducedMotion?.matches || typeof node.animate !== "function") return null; // the player's wish, read now
    runs += 1;
    root.dataset.moves = String(runs);
    const animation = node.animate(keyframes, options);
    animation.id = "motion";
    return animation;
  }

  return { receive, measure, animate };
}

function visible(node) {
  const rect = node.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}
