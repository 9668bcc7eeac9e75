// A game of Mass Cool Casino as a view shows it: the facts line, the seats
// (money face up, a hand face down unless it is the caller's or the replay
// shows every hand), the pot on the table with the last showdown, and the
// result. Shared by the table and the replay (docs/rules.md, "Mass Cool Casino").

import { el } from "./api.js";
import { cardFace } from "./cards.js";
import { earlyEnding } from "./events.js";
import { seatRating } from "./ratings.js";
import { capital, listed, readerWords, seatName } from "./words.js";

/** This game's statuses, in the order a game goes through them, with what the pages call them. */
export const MCC_STATUS = {
  waiting: "Waiting for the deal",
  betting: "Betting",
  reshuffle: "A tie: the deck is reshuffled",
  finished: "Game over",
};

const REASONS = {
  deck_out: "the stock cannot give everyone a hand",
  last_player: "one player is left",
};

function cards(codes, label, extra = {}) {
  return el("span", { class: "mcc-cards", "aria-label": label, ...extra }, codes.map((c) => cardFace(c)));
}

/** One card lying face down (a hand not shown to this caller). */
function faceDown(label) {
  return el("span", { class: "card back single", role: "img", "aria-label": label });
}

/** The line that says where the game stands (before the deal, no round, turn or pot yet). */
export function mccHeader(view) {
  const betting = view.status === "betting";
  const dealt = view.status !== "waiting";
  const facts = [
    ["game", "Game", "Mass Cool Casino"],
    ["status", "Status", view.seats.some((s) => s.open) ? "Waiting for a player to join"
      : MCC_STATUS[view.status] || view.status],
    dealt && ["round", "Round", view.round],
    ["dealer", "Dealer", seatName(view, view.dealer)],
    dealt && ["leader", "Bets first", view.round ? seatName(view, view.leader) : "—"],
    dealt && ["turn", "Turn", betting ? seatName(view, view.turn) : "—"],
    dealt && ["stopped", "Stop called by", betting && view.stopped_by !== null ? seatName(view, view.stopped_by) : "—"],
    ["stock", "Stock", view.deck_count],
    dealt && ["pot", "Pot", view.pot_count],
    ["version", "Version", view.version],
  ].filter(Boolean);
  return el("dl", { class: "facts", id: "facts" },
    facts.map(([key, name, value]) => el("div", {}, el("dt", {}, name), el("dd", { "data-fact": key }, String(value)))));
}

/**
 * The seats: name and marks, the hand (face down, or face up where
 * ``hands`` gives it or the seat is ``you`` with ``hand``), the money face
 * up (``you``'s is left to the page when ``ownMoney`` is false) and the
 * counts. A seat knocked out says so.
 */
export function mccSeats(view, { you = null, hand = null, hands = null, ownMoney = true } = {}) {
  return el("ol", { class: "seats mcc-seats", id: "seats" }, view.seats.map((s) => {
    const marks = [];
    const toBet = view.status === "betting" && view.turn === s.seat;
    if (s.seat === you) marks.push("you");
    if (toBet) marks.push("to bet");
    if (view.dealer === s.seat) marks.push("dealer");
    if (view.status === "betting" && view.stopped_by === s.seat) marks.push("called stop");
    if (s.out) marks.push("out of the game");
    const shown = hands ? hands[s.seat] : s.seat === you ? hand : null;
    let handNode = null;
    if (shown) handNode = el("div", { class: "mcc-hand", "data-hand": shown }, el("span", { class: "pile-label" }, "Hand"), cardFace(shown));
    else if (s.has_hand) handNode = el("div", { class: "mcc-hand", "data-hand": "hidden" }, el("span", { class: "pile-label" }, "Hand"), faceDown(`${s.name}'s hand, face down`));
    const money = s.seat === you && !ownMoney
      ? el("p", { class: "note" }, "Your money is below.")
      : s.money.length ? el("div", { class: "mcc-money" }, el("span", { class: "pile-label" }, "Money"),
        cards(s.money, `${s.name}'s money`, { class: "mcc-cards money" }))
        : el("p", { class: "note" }, "No money left.");
    return el("li", { class: `seat${toBet ? " turn" : ""}${s.out ? " out" : ""}`, "data-seat": s.seat, "data-out": String(s.out) },
      el("div", { class: "seat-name" }, s.name, seatRating(s), marks.length ? el("span", { class: "marks" }, ` (${marks.join(", ")})`) : null),
      handNode,
      money,
      el("dl", { class: "seat-stats" },
        el("div", {}, el("dt", {}, "Money"), el("dd", { "data-stat": "money" }, String(s.money.length))),
        el("div", {}, el("dt", {}, "Worth"), el("dd", { "data-stat": "worth" }, String(s.money_value))),
        el("div", {}, el("dt", {}, "Bet"), el("dd", { "data-stat": "bet" }, String(s.bet.length)))));
  }));
}

/** The table: each seat's bet in the pot, and the hands of the last showdown. */
export function mccTable(view) {
  const area = el("div", { class: "table-items mcc-table", id: "table-items", "aria-label": "The table" });
  const betting = view.seats.filter((s) => s.bet.length);
  const pot = el("div", { class: "pot", id: "pot" },
    el("h3", {}, view.pot_count ? `The pot: ${view.pot_count} card${view.pot_count === 1 ? "" : "s"}` : "The pot is empty."),
    betting.map((s) => el("div", { class: "bet", "data-bet": s.seat },
      el("span", { class: "bet-label" }, `${s.name} bets ${s.bet.length}`), cards(s.bet, `${s.name}'s bet`))));
  area.append(pot);
  const last = view.last_showdown;
  if (last) {
    const tied = last.winner === null;
    area.append(el("div", { class: "showdown", id: "showdown" },
      el("h3", {}, tied ? "Last showdown: a tie" : `Last showdown: ${seatName(view, last.winner)} won`),
      el("div", { class: "shown-hands" }, last.hands.map((code, seat) => (code === null ? null
        : el("span", { class: `shown${seat === last.winner ? " winner" : ""}`, "data-shown": seat },
          el("span", { class: "bet-label" }, seatName(view, seat)), cardFace(code)))))));
  }
  return area;
}

/** The last showdown in words (from its PotWon or PotTied event) for ``you``, or null. */
export function showdownResult(view, event, you) {
  if (!event) return null;
  const d = event.data;
  const { name, whose } = readerWords(view, you);
  const out = d.knocked_out || [];
  const one = out.length === 1 && out[0] !== you;
  const text = event.type === "PotWon"
    ? `Round ${d.round}: ${whose(d.winner)} ${d.hands[d.winner]} is the highest card and takes the pot of ${d.pot.length} cards.`
      + (out.length ? ` ${capital(listed(out.map(name)))} ${one ? "has" : "have"} no money left and ${one ? "is" : "are"} out of the game.` : "")
    : `Round ${d.round}: ${listed(d.tied.map((s) => `${whose(s)} ${d.hands[s]}`))} tie for the highest card; `
      + "the bets and the hands go back into the deck, which is reshuffled, and the round is played again.";
  return el("p", { class: "showdown-result", id: "showdown-result", role: "status" }, text);
}

/** The end: each seat's money counted, and who won (the view's ``winners``), in words for ``you``. */
export function finalCount(view, events, you) {
  if (view.status !== "finished" || !view.totals) return null;
  const winners = view.winners || [];
  const words = readerWords(view, you);
  const won = winners.length ? `${listed(winners.map(words.name))} ${winners.length === 1 ? "won" : "share the win"}`
    : "nobody won";
  const early = earlyEnding(view, events, words);
  return el("section", { class: "score", "aria-label": "The count" },
    el("p", { class: "result", id: "result", role: "status" }, early ? `${capital(early)}: ${won}.`
      : `${capital(won)} (${REASONS[view.result] || String(view.result).replace(/_/g, " ")}).`),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Money counted"), el("th", {}, "Outcome"))),
      el("tbody", {}, view.seats.map((s) => el("tr", { "data-total": s.seat },
        el("th", {}, s.name), el("td", {}, String(view.totals[s.seat])),
        el("td", {}, winners.includes(s.seat) ? "winner" : s.out ? "out of the game" : "lost"))))),
    el("p", { class: "note" }, "An ace counts 1, 2 to 10 their pips, a jack 11, a queen 12, a king 16."));
}

/** Mass Cool Casino's table as the replay draws it (games.js names this module its view). */
export const REPLAY = { header: mccHeader, seats: mccSeats, table: mccTable, result: finalCount };
