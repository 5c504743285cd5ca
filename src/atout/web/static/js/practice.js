// Practice tables, drawn: on the player's turn a « Conseil » button (and the key ?) asks the server for the club
// bot's choice and its reason, shown above the hand with the card marked; after each deal, the end-of-deal panel
// lists what each of his cards cost double dummy (sent by the server when its analysis is ready).
import { button, cardEl, el } from "./dom.js";
import { t } from "./i18n.js";

/** Events that leave the position as it was: a hint asked before them still holds. */
const KEEPS = new Set(["seat", "waiting", "saved"]);

/**
 * The table's practice aids. `send(message)` sends on the table's socket; `view()` is the table's view. The page
 * calls `receive(message)` with each message of the server (true: a message of its own, nothing else to do) and
 * `draw(root)` after each drawing of the table.
 */
export function createPractice({ send, view }) {
  const practice = { on: false, asked: false, hint: null, costs: null };
  let root = null;

  function seated() {
    const v = view();
    return Boolean(v && v.you !== null && v.you !== undefined);
  }

  function myTurn() {
    const v = view();
    const deal = v?.deal;
    return Boolean(practice.on && seated() && deal && deal.phase !== "done" && deal.turn === v.you);
  }

  function receive(message) {
    switch (message.type) {
      case "snapshot":
      case "resume":
        practice.on = Boolean(message.practice);
        practice.hint = null;
        practice.asked = false;
        return false;
      case "update":
        if (message.events.some((event) => !KEEPS.has(event.kind))) {
          practice.hint = null; // the position has changed: the hint was for the one before
          practice.asked = false;
        }
        return false;
      case "hint":
        practice.hint = message;
        practice.asked = false;
        redraw();
        return true;
      case "costs":
        practice.costs = message;
        redraw();
        return true;
      case "error":
        practice.asked = false;
        return false;
      default:
        return false;
    }
  }

  function ask() {
    if (!myTurn() || practice.asked || practice.hint) return;
    practice.asked = true;
    send({ type: "hint" });
    redraw();
  }

  function draw(node) {
    root = node;
    redraw();
  }

  function redraw() {
    if (!root || !view()) return;
    for (const old of root.querySelectorAll(".practice-button, .practice-hint, .practice-costs")) old.remove();
    for (const old of root.querySelectorAll(".hinted")) old.classList.remove("hinted");
    if (!practice.on || !seated()) return;
    if (myTurn()) {
      const asking = button("", ask, "practice-button");
      asking.append(el("span", "long", t("web.practice.hint")), el("span", "short", "?"));
      asking.title = t("web.practice.hint_title");
      asking.setAttribute("aria-label", t("web.practice.hint"));
      asking.setAttribute("aria-keyshortcuts", "?");
      asking.disabled = practice.asked || Boolean(practice.hint);
      root.querySelector(".status .spacer")?.after(asking);
      if (practice.hint || practice.asked) root.querySelector(".felt")?.append(hintBox());
      if (practice.hint?.card)
        root.querySelector(`.hand [data-card="${practice.hint.card.code}"]`)?.classList.add("hinted");
    }
    const deal = view().deal;
    const panel = root.querySelector(".box.result");
    if (deal && deal.phase === "done" && panel && deal.contract) panel.append(costsBox(deal.number - 1));
  }

  function hintBox() {
    const box = el("div", "practice-hint");
    box.setAttribute("role", "status");
    if (!practice.hint) {
      box.append(el("p", "hint", t("web.practice.hint_wait")));
      return box;
    }
    box.append(el("b", "", t("web.practice.hint_says", { label: practice.hint.label })));
    box.append(el("p", "", practice.hint.text));
    return box;
  }

  function costsBox(deal) {
    const box = el("section", "practice-costs");
    box.append(el("h3", "", t("web.practice.costs_title")));
    const costs = practice.costs;
    if (!costs || costs.deal !== deal) {
      box.append(el("p", "hint", t("web.practice.costs_wait")));
      return box;
    }
    if (!costs.done) {
      box.append(el("p", "hint", t("web.practice.costs_none")));
      return box;
    }
    const list = el("ol", "");
    for (const item of costs.cards) {
      const row = el("li", item.cost ? "cost" : "best");
      const words = item.cost
        ? `${t("web.practice.costs_points", { cost: item.cost })} · ${t("web.practice.costs_better", {
            cards: item.best.map((card) => `${card.rank}${card.suit}`).join(" "),
          })}`
        : t("web.practice.costs_best");
      row.append(cardEl(item.card, "mini"), el("span", "words", words));
      list.append(row);
    }
    box.append(list, el("p", "hint", t("web.practice.costs_note")));
    return box;
  }

  document.addEventListener("keydown", (e) => {
    if (e.key !== "?" || e.ctrlKey || e.metaKey || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
    if (myTurn()) {
      e.preventDefault();
      ask();
    }
  });

  return { receive, draw, ask };
}
