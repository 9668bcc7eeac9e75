// Mass Cool Casino's table (table.js opens it for a view whose game_type
// is "mass-cool-casino"): a seat's or a spectator's, kept current from the
// live stream. A seat bets by choosing cards of its money, and only what
// /moves lists can be sent: the stop when it is listed, and a bet of the
// chosen cards when /moves lists it. The list is cut when a seat has many
// money cards (``truncated``): then any money card may be chosen, and the
// bets holding the chosen cards are asked of /moves narrowed to them, so a
// bet past the first page is offered as soon as its cards are chosen.

import { el } from "./api.js";
import { cardFace, withFaces } from "./cards.js";
import { finalCount, mccHeader, mccSeats, mccTable, showdownResult } from "./mccview.js";
import { Seat, button, undoControls, watchingNote } from "./seat.js";
import { listed, seatName } from "./words.js";

let seat = null; // the caller's place at the table (seat.js): its view, moves and events
let chosen = new Set(); // the money cards chosen for a bet
let narrow = null; // {key, moves}: the bets /moves lists holding the chosen cards
let asking = 0; // the latest narrowing asked for (older answers are dropped)

/** Forget chosen cards the money no longer holds, and the choice when no bet can be made. */
function keepChoice() {
  const view = seat.view;
  const money = view.you !== undefined ? view.seats[view.you].money : [];
  chosen = new Set([...chosen].filter((c) => money.includes(c)));
  if (!bets().length) chosen = new Set();
}

function bets() {
  return seat.moves.filter((m) => m.action === "bet");
}

function canStop() {
  return seat.moves.some((m) => m.action === "stop");
}

/** The bet sizes the listed moves hold, smallest first. */
function sizes() {
  return [...new Set(bets().map((m) => m.cards.length))].sort((a, b) => a - b);
}

function chosenKey() {
  return JSON.stringify([seat.view.version, [...chosen].sort()]);
}

/** The bets holding the chosen cards, once /moves has listed them; null before. */
function holding() {
  return narrow && narrow.key === chosenKey() ? narrow.moves : null;
}

/** Ask /moves for the bets holding the chosen cards (the first page of them: the smallest first). */
async function narrowChoice() {
  const mine = ++asking;
  if (!chosen.size || !seat.truncated) { narrow = null; return; }
  const key = chosenKey();
  const [card, ...targets] = [...chosen];
  const list = await seat.narrowedMoves({ action: "bet", card, target: targets });
  if (mine !== asking || list === null) return;
  narrow = { key, moves: list.moves };
  render();
}

function exactly(m) {
  return m.action === "bet" && m.cards.length === chosen.size && m.cards.every((c) => chosen.has(c));
}

/** Whether the chosen cards make a bet the page may send: one /moves lists, on its first page or narrowed to them. */
function makeable() {
  if (!chosen.size) return false;
  return bets().some(exactly) || (holding() || []).some(exactly);
}

/** The chosen cards in the order the money lies. */
function chosenCards() {
  const money = seat.view.seats[seat.view.you].money;
  return money.filter((c) => chosen.has(c));
}

function sizeWords(list) {
  if (!list.length) return "";
  const runs = list.length > 1 && list.at(-1) - list[0] === list.length - 1;
  const text = runs ? `${list[0]} to ${list.at(-1)}` : listed(list.map(String));
  return `${text} card${list.length === 1 && list[0] === 1 ? "" : "s"}`;
}

function toggle(code) {
  if (chosen.has(code)) chosen.delete(code);
  else chosen.add(code);
  render();
  narrowChoice().catch(() => {});
}

/** The caller's own corner: the hand, and the money as cards to choose for a bet. */
function ownArea() {
  const view = seat.view;
  if (view.you === undefined) return watchingNote(seat.watching);
  const me = view.seats[view.you];
  const most = seat.truncated ? me.money.length : bets().length ? Math.max(...sizes()) : 0;
  const full = chosen.size >= most;
  return el("div", { class: "hand mcc-own", id: "hand" },
    el("div", { class: "own-hand" },
      el("h2", {}, "Your hand"),
      view.hand ? el("div", { class: "hand-cards", id: "own-hand" }, cardFace(view.hand))
        : el("p", { class: "note" }, me.out ? "You are out of the game." : "No hand now.")),
    el("div", { class: "own-money" },
      el("h2", {}, `Your money: ${me.money.length} card${me.money.length === 1 ? "" : "s"}, worth ${me.money_value}`),
      el("div", { class: "hand-cards", id: "my-money" }, me.money.map((code) => {
        const enabled = bets().length > 0 && (chosen.has(code) || !full);
        const face = cardFace(code, { onclick: () => toggle(code), pressed: chosen.has(code), disabled: !enabled });
        face.dataset.key = `money-${code}`;
        return face;
      }))));
}

function betChoices() {
  const view = seat.view;
  const out = [];
  const you = view.you;
  const list = sizes();
  if (list.length) {
    const cut = seat.truncated ? " That is where the list of your bets stops: choose more cards and the page asks for the bets that hold them." : "";
    const owed = view.stopped_by !== null;
    out.push(el("p", { class: "note", id: "bet-sizes" }, owed
      ? `${seatName(view, view.stopped_by)} called stop: bet ${sizeWords(list)} to even out.${cut}`
      : `Choose ${sizeWords(list)} of your money to bet.${cut}`));
  }
  if (chosen.size) {
    const cards = chosenCards();
    if (makeable()) {
      out.push(button(withFaces(`Bet ${cards.join(" ")}`), "bet", () => seat.command("play", { action: "bet", cards }), { class: "primary" }));
    } else if (seat.truncated && holding() === null) {
      out.push(el("p", { class: "note" }, `You chose ${cards.join(" ")}: finding the bets that hold them…`));
    } else if (seat.truncated && holding().length) {
      out.push(el("p", { class: "note" }, `You chose ${cards.join(" ")}: not a bet on its own; choose more cards.`));
    } else {
      out.push(el("p", { class: "note" }, `You chose ${cards.join(" ")}: that is not a bet you can make now.`));
    }
    out.push(button("Clear the choice", "clear", () => { chosen = new Set(); render(); }));
  }
  if (canStop()) out.push(button("Stop", "stop", () => seat.command("play", { action: "stop" }), { class: chosen.size ? null : "primary" }));
  return view.turn === you ? out : [];
}

/** Taking a bet back, while the betting is on and the game allows it; a seat out of the game has none. */
function takeBacks() {
  const view = seat.view;
  return view.options.undo !== "off" && !view.seats[view.you].out ? undoControls(seat, "move") : [];
}

/** Where the game waits, in words: for whom, and for what. */
function waitingNote() {
  const view = seat.view;
  const you = view.you;
  const me = you === undefined ? null : view.seats[you];
  switch (view.status) {
    case "waiting":
      return seat.awaits("deal") ? null : `Waiting for ${seatName(view, view.dealer)} to deal.`;
    case "reshuffle":
      return view.commitment === null
        ? "A tie: the bets and the hands go back into the deck. Waiting for the operator to reshuffle it."
        : "A tie: the bets and the hands go back into the deck, which is being reshuffled.";
    case "betting":
      if (me && me.out) return `You are out of the game. ${seatName(view, view.turn)} is to bet.`;
      if (view.turn === you) {
        if (view.stopped_by !== null) return "Your turn: even out your bet.";
        return canStop() ? "Your turn: bet, or call stop." : "Your turn: bet (you may call stop once you have bet this round).";
      }
      if (me && !me.money.length) return `You have no money left: you are skipped until the showdown. ${seatName(view, view.turn)} is to bet.`;
      return `Waiting for ${seatName(view, view.turn)} to bet.`;
    default:
      return null;
  }
}

function actions() {
  const view = seat.view;
  const you = view.you;
  const out = [];
  if (seat.awaits("deal")) out.push(button("Deal", "deal", () => seat.command("deal"), { class: "primary" }));
  const note = waitingNote();
  if (note) out.push(el("p", { class: `note${view.status === "betting" && view.turn === you ? " turn-note" : ""}` }, note));
  if (view.status === "betting") out.push(...betChoices(), ...takeBacks());
  return out;
}

function results() {
  const showdown = seat.events.filter((e) => e.type === "PotWon" || e.type === "PotTied").at(-1);
  return [finalCount(seat.view, seat.events, seat.view.you), showdownResult(seat.view, showdown, seat.view.you)];
}

function render() {
  seat.paint((you) => {
    const view = seat.view;
    return {
      status: mccHeader(view),
      seats: mccSeats(view, { you, hand: view.hand || null, ownMoney: false }),
      table: mccTable(view),
      hand: ownArea(),
      actions,
      results: results(),
    };
  });
}

/** Open the table of game ``id`` for ``caller`` (an Api); ``context`` as for Seat. */
export function start(caller, id, context) {
  seat = new Seat(caller, id, {
    hasMoves: (view) => view.you !== undefined && view.status === "betting",
    render: () => {
      keepChoice();
      render();
      if (chosen.size && holding() === null) narrowChoice().catch(() => {});
    },
    sent: () => { chosen = new Set(); narrow = null; },
  }, context);
  seat.start();
}
