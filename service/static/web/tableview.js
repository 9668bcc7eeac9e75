// The table as a view shows it: the header line, the seats, the loose
// cards and builds, and (for a replay) every hand face up. Shared by the
// play, watch and replay pages.

import { el } from "./api.js";
import { seatRating } from "./ratings.js";
import { earlyEnding } from "./events.js";
import { cardBacks, cardFace, cardName } from "./cards.js";
import { capital, listed, readerWords, seatName } from "./words.js";

/** A game's statuses, in the order a game goes through them, with what the pages call them. */
export const STATUS = {
  waiting: "Waiting for the first deal",
  in_progress: "Hand in play",
  hand_over: "Hand over",
  finished: "Game over",
};

export function itemId(item) {
  return item.kind === "card" ? item.card : item.id;
}

/** The seat whose capture pile a move's target names (``seat:N``), or null for a card or a build. */
export function pileSeat(target) {
  const found = /^seat:(\d+)$/.exec(target);
  return found ? Number(found[1]) : null;
}

/**
 * A seat's capture pile where piles lie face up: its top card, for everyone
 * to see. With ``choose``, a pile that ``enabled`` holds (as ``seat:N``, the
 * way moves name it) is a button that toggles its choice.
 */
function pile(s, { enabled = null, chosen = new Set(), choose = null } = {}) {
  const id = `seat:${s.seat}`;
  const active = Boolean(choose && enabled && enabled.has(id));
  if (!s.pile_top && !active) return null;
  const label = s.pile_top ? `${s.name}'s pile, ${cardName(s.pile_top)} on top` : `${s.name}'s pile`;
  const face = s.pile_top ? cardFace(s.pile_top) : cardBacks(s.captured_count, "cards captured");
  const body = [el("span", { class: "pile-label" }, "Pile"), face];
  return active
    ? el("button", { type: "button", class: "pile", "data-pile": id, "data-key": `pile-${id}`, "aria-label": label,
      "aria-pressed": String(chosen.has(id)), onclick: () => choose(id) }, body)
    : el("span", { class: "pile", "data-pile": id, role: "group", "aria-label": label }, body);
}

/** The line that says where the game stands (before the first deal, no hand, turn or stock yet). */
export function header(view) {
  const dealt = view.status !== "waiting";
  const facts = [
    ["Variant", view.variant],
    ["Status", view.seats.some((s) => s.open) ? "Waiting for a player to join" : STATUS[view.status] || view.status],
    dealt && ["Hand", view.hand_number],
    ["Dealer", seatName(view, view.dealer)],
    dealt && ["Turn", view.status === "in_progress" ? seatName(view, view.turn) : "—"],
    dealt && ["Stock", view.deck_count],
    ["Version", view.version],
  ].filter(Boolean);
  return el("dl", { class: "facts", id: "facts" },
    facts.map(([name, value]) => el("div", {}, el("dt", {}, name), el("dd", { "data-fact": name.toLowerCase() }, String(value)))));
}

/**
 * The seats: name, cards in hand (face down unless ``hands`` gives them),
 * the top of the capture pile where it lies face up (``piles`` as for
 * ``pile``), captured count, sweeps and score. ``you`` is marked.
 */
export function seatsPanel(view, { you = null, hands = null, piles = {} } = {}) {
  return el("ol", { class: "seats", id: "seats" }, view.seats.map((s) => {
    const marks = [];
    if (s.seat === you) marks.push("you");
    if (view.status === "in_progress" && view.turn === s.seat) marks.push("to play");
    if (view.dealer === s.seat) marks.push("dealer");
    const shown = hands ? hands[s.seat] : null;
    return el("li", {
      class: `seat${view.status === "in_progress" && view.turn === s.seat ? " turn" : ""}`,
      "data-seat": s.seat,
    },
    el("div", { class: "seat-name" }, s.name, seatRating(s), marks.length ? el("span", { class: "marks" }, ` (${marks.join(", ")})`) : null),
    el("div", { class: "seat-cards" },
      el("div", { class: "seat-hand" },
        shown ? el("span", { class: "hand-cards" }, shown.map((c) => cardFace(c)))
          : s.hand_count ? cardBacks(s.hand_count, "cards in hand") : null),
      pile(s, piles)),
    el("dl", { class: "seat-stats" },
      el("div", {}, el("dt", {}, "In hand"), el("dd", { "data-stat": "hand" }, String(s.hand_count))),
      el("div", {}, el("dt", {}, "Captured"), el("dd", { "data-stat": "captured" }, String(s.captured_count))),
      el("div", {}, el("dt", {}, "Sweeps"), el("dd", { "data-stat": "sweeps" }, String(s.sweeps))),
      el("div", {}, el("dt", {}, "Score"), el("dd", { "data-stat": "score" }, String(s.score)))));
  }));
}

/**
 * The loose cards and builds. With ``choose``, the items in ``enabled``
 * are buttons that toggle their choice, and those in ``chosen`` are pressed.
 */
export function tableArea(view, { enabled = null, chosen = new Set(), choose = null } = {}) {
  const area = el("div", { class: "table-items", id: "table-items", "aria-label": "The table" });
  if (!view.table.length) area.append(el("p", { class: "empty" }, "The table is empty."));
  for (const item of view.table) {
    const id = itemId(item);
    const active = choose && enabled && enabled.has(id);
    const onclick = active ? () => choose(id) : null;
    if (item.kind === "card") {
      const face = cardFace(item.card, { onclick, pressed: active ? chosen.has(id) : null });
      if (active) face.dataset.key = `table-${id}`;
      area.append(face);
      continue;
    }
    const label = `Build ${item.id}: ${item.value}, ${seatName(view, item.owner)}'s`;
    const body = [
      el("span", { class: "build-label" }, `${item.multiple ? "Multiple build" : "Build"} of ${item.value}`,
        el("small", {}, ` · ${seatName(view, item.owner)}'s`)),
      el("span", { class: "build-groups" }, item.groups.map((g) => el("span", { class: "group" }, g.map((c) => cardFace(c))))),
    ];
    area.append(onclick
      ? el("button", { type: "button", class: "build", "data-build": id, "data-key": `table-${id}`, "aria-label": label,
        "aria-pressed": String(chosen.has(id)), onclick }, body)
      : el("div", { class: "build", "data-build": id, role: "group", "aria-label": label }, body));
  }
  return area;
}

// Every scoring category of every Cassino points table (domain/cassino/scoring.py).
const CATEGORY = {
  most_cards: "Most cards", most_spades: "Most spades", big_casino: "Big casino",
  little_casino: "Little casino", ace_S: "Ace of spades", ace_C: "Ace of clubs",
  ace_H: "Ace of hearts", ace_D: "Ace of diamonds", spades: "Spades", sweeps: "Sweeps",
  all_eleven: "All eleven", cards: "Cards taken", spy_two: "Two of spades", big_ten: "Ten of spades",
  most_diamonds: "Most diamonds", seven_of_diamonds: "Seven of diamonds", four_sevens: "All four sevens",
  four_sixes: "All four sixes", four_aces: "All four aces", point_cards: "Point cards",
  ten_of_diamonds: "Ten of diamonds", two_of_clubs: "Two of clubs", default: "Build duty not kept",
};

function sides(view) {
  const names = [];
  for (const s of view.seats) (names[s.team] ||= []).push(s.name);
  return names.map((n) => n.join(" & "));
}

/** A hand's score, category by category and side by side, from its HandEnded event. */
export function handScore(view, ended) {
  const teams = sides(view);
  const rows = new Map();
  for (const award of ended.data.points) {
    const row = rows.get(award.category) || teams.map(() => 0);
    row[award.team] += award.points;
    rows.set(award.category, row);
  }
  return el("section", { class: "score", "aria-label": `Score of hand ${ended.data.hand_number}` },
    el("h3", {}, `Hand ${ended.data.hand_number}: the count`),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "Points"), teams.map((t) => el("th", {}, t)))),
      el("tbody", {}, [...rows].map(([category, row]) =>
        el("tr", {}, el("th", {}, CATEGORY[category] || category), row.map((p) => el("td", {}, String(p)))))),
      el("tfoot", {}, el("tr", {}, el("th", {}, "Running total"), ended.data.scores.map((p) => el("td", {}, String(p)))))));
}

/**
 * Who won and how (the view's ``winners`` and ``result``, as every game
 * type says them), in words for ``you``; after a count-out, the claim as
 * its CountedOut event counted it: the side's score before the hand and
 * the points it had made sure of in it, against the target.
 */
export function gameResult(view, events, you) {
  if (view.status !== "finished") return null;
  const who = readerWords(view, you);
  const winners = view.winners || [];
  const won = winners.length ? `${listed(winners.map(who.name))} won` : null;
  const claim = events.find((e) => e.type === "CountedOut");
  const early = earlyEnding(view, events, who);
  let said = `${won ? capital(won) : "A draw"} (${String(view.result).replace(/_/g, " ")}).`;
  let scores = "Scores";
  if (early) said = `${capital(early)}: ${won || "nobody won"}.`;
  else if (claim) {
    const { seat, team, total, success } = claim.data;
    const before = view.scores[team];
    said = `${won ? capital(won) : "A draw"}: ${who.subject(seat, "counted", "counted")} out with ${total}, ${before}`
      + ` before this hand and ${total - before} made sure of in it, ${success ? "reaching" : "short of"} the`
      + ` target of ${view.options.target}.`;
    scores = "Scores before this hand";
  }
  const teams = sides(view);
  return el("p", { class: "result", id: "result", role: "status" }, `${said} `,
    el("span", { class: "scores" }, `${scores}: ${view.scores.map((p, t) => `${teams[t]} ${p}`).join(", ")}.`));
}

/** Cassino's table as the replay draws it (games.js names this module its view). */
export const REPLAY = { header, seats: seatsPanel, table: tableArea, result: gameResult };
