// Cassino's table (table.js opens it for a game of the Cassino family): a
// seat's (with the seat's token) or a spectator's (without), the game as
// the service shows this caller, kept current from the live stream.
// Moves are only ever chosen among those /moves lists, and are sent as it
// lists them. A move is made of pieces (its card, its cards, its targets:
// hand and table cards, builds, seats' piles as ``seat:N``): the player
// chooses pieces, only those that some listed move still holds can be
// chosen, and the moves made of exactly the chosen pieces are offered.

import { el } from "./api.js";
import { cardFace, withFaces } from "./cards.js";
import { Seat, button, undoControls, watchingNote } from "./seat.js";
import { gameResult, handScore, header, pileSeat, seatsPanel, tableArea } from "./tableview.js";
import { listed, seatName } from "./words.js";

let seat = null; // the caller's place at the table (seat.js): its view, moves and events
let chosen = new Set(); // the pieces chosen

/** The distinct pieces of a move: its card, its cards and its targets (a target may repeat: see moveLabel). */
function piecesOf(move) {
  return [...new Set([move.card, ...(move.cards || []), ...(move.targets || [])].filter((p) => typeof p === "string"))];
}

/** The pieces a move is chosen by first: its card, else any of its cards. */
function leadsOf(move) {
  return typeof move.card === "string" ? [move.card] : move.cards || [];
}

function holdsChosen(move) {
  const pieces = piecesOf(move);
  return [...chosen].every((p) => pieces.includes(p));
}

/** The pieces that may be chosen now (or unchosen). */
function choosable() {
  if (!chosen.size) return new Set(seat.moves.flatMap(leadsOf));
  return new Set([...chosen, ...seat.moves.filter(holdsChosen).flatMap(piecesOf)]);
}

/** The moves to offer: those made of exactly the chosen pieces, and those made of none. */
function fitting() {
  return seat.moves.filter((m) => {
    const pieces = piecesOf(m);
    return !pieces.length || (pieces.length === chosen.size && holdsChosen(m));
  });
}

function pileName(owner) {
  return `${seatName(seat.view, owner)}'s pile`;
}

function pieceName(piece) {
  const owner = pileSeat(piece);
  return owner === null ? piece : pileName(owner);
}

/**
 * What a move's targets name: the table's cards and builds, then each
 * seat's pile, which a build may name once for every card it takes from
 * the pile's top (African).
 */
function targetWords(move) {
  const targets = move.targets || [];
  const piles = new Map();
  for (const owner of targets.map(pileSeat).filter((s) => s !== null)) piles.set(owner, (piles.get(owner) || 0) + 1);
  const loose = targets.filter((t) => pileSeat(t) === null);
  return [
    ...(loose.length ? [loose.join(" ")] : []),
    ...[...piles].map(([owner, n]) => (n === 1 ? `the top card of ${pileName(owner)}` : `the top ${n} cards of ${pileName(owner)}`)),
  ];
}

/** A move's button, in words. */
function moveLabel(m) {
  const things = listed(targetWords(m));
  const as = m.value !== undefined && m.value !== null ? ` as ${m.value}` : "";
  const groups = m.groups ? ` in groups ${m.groups.map((g) => `(${g.join(" ")})`).join(" ")}` : "";
  switch (m.action) {
    case "trail": return `Trail ${m.card}`;
    case "pluck": return `Pluck ${m.card}`;
    case "capture": return `Take ${things} with ${m.card}${as}`;
    case "steal": return `Steal ${listed((m.targets || []).map((t) => `${seatName(seat.view, pileSeat(t))}'s bundle`))} with ${m.card}`;
    case "build": return `Build ${m.value} with ${m.card}${things ? ` on ${things}` : ""}${groups}`;
    default: {
      // Any other game's moves, in words from their own fields.
      const verb = `${m.action.charAt(0).toUpperCase()}${m.action.slice(1)}`;
      const cards = [m.card, ...(m.cards || [])].filter((c) => typeof c === "string");
      return `${verb}${cards.length ? ` ${cards.join(" ")}` : ""}${things ? ` on ${things}` : ""}`;
    }
  }
}

/**
 * Choose a piece, or unchoose it. A piece that no move holds together with
 * those chosen, but that a move starts with (another card of the hand),
 * starts the choice again from it.
 */
function choose(piece) {
  if (chosen.has(piece)) chosen.delete(piece);
  else if (choosable().has(piece)) chosen.add(piece);
  else chosen = new Set([piece]);
  render();
}

/** The pieces shown as enabled buttons: those that may be chosen, and those a move starts with. */
function clickable() {
  return new Set([...choosable(), ...seat.moves.flatMap(leadsOf)]);
}

function handArea(enabled) {
  if (seat.view.hand === undefined) return watchingNote(seat.watching);
  return el("div", { class: "hand", id: "hand" },
    el("h2", {}, "Your hand"),
    el("div", { class: "hand-cards" }, seat.view.hand.map((code) => {
      const face = cardFace(code, { onclick: () => choose(code), pressed: chosen.has(code), disabled: !enabled.has(code) });
      face.dataset.key = `hand-${code}`;
      return face;
    })));
}

function playChoices() {
  if (!seat.moves.length) return [];
  const offered = fitting();
  const out = offered.map((m, i) => button(withFaces(moveLabel(m)), `move-${i}-${moveLabel(m)}`, () => seat.command("play", m), { class: "primary" }));
  if (!chosen.size) return out;
  const more = seat.moves.some((m) => holdsChosen(m) && piecesOf(m).length > chosen.size);
  return [
    el("p", { class: "note" }, offered.length ? "Choose the move:" : "Choose the rest of the move: what to take, build on or steal."),
    ...out,
    more && offered.length ? el("p", { class: "note" }, "Or choose more for another move.") : null,
    button("Clear the choice", "clear", () => { chosen = new Set(); render(); }),
  ].filter(Boolean);
}

/** Taking a play back, while a hand is played and the game allows it. */
function takeBacks() {
  return seat.view.status === "in_progress" && seat.view.options.undo !== "off" ? undoControls(seat, "play") : [];
}

/**
 * Counting out. The service takes every claim, and a claim short of the
 * target loses the game, so it is offered only while the seat's view says
 * its side's claim would win (``count_out``: what the side's captures make
 * sure of, which a player may count at the table); the note says what the
 * claim would count either way.
 */
function countOutControls() {
  const claim = seat.view.count_out;
  if (!claim) return [];
  const counted = `Your side has ${claim.total} of the ${seat.view.options.target} points to win, ` +
    `counting the ${claim.secured} made sure of in this hand`;
  if (!claim.succeeds) {
    return [el("p", { class: "note", "data-key": "count-out-note" }, `${counted}: too few to count out.`)];
  }
  return [
    el("p", { class: "note turn-note", "data-key": "count-out-note" }, `${counted}: counting out now wins the game.`),
    button("Count out and win", "count-out", () => seat.command("count-out"), { class: "primary" }),
  ];
}

function actions() {
  const view = seat.view;
  const you = view.you;
  const out = [];
  if (seat.awaits("deal")) out.push(button("Deal", "deal", () => seat.command("deal"), { class: "primary" }));
  else if (view.awaiting && view.awaiting.command === "deal") out.push(el("p", { class: "note" }, waitingForDeal(view)));
  if (view.status === "in_progress") {
    const hand = view.hand || [];
    const fromTable = seat.moves.flatMap(leadsOf).some((c) => !hand.includes(c));
    const where = fromTable ? (view.turn === you ? "from your hand or the table" : "on the table") : "from your hand";
    let note;
    if (chosen.size) note = `You chose ${listed([...chosen].map(pieceName))}.`;
    else if (view.turn === you) note = `Your turn: choose a card ${where}.`;
    else note = `Waiting for ${seatName(view, view.turn)} to play${seat.moves.length ? `; until then you may still choose a card ${where}` : ""}.`;
    out.push(el("p", { class: `note${view.turn === you || chosen.size ? " turn-note" : ""}` }, note));
  }
  out.push(...playChoices(), ...takeBacks(), ...countOutControls());
  return out;
}

/** Who the next deal waits for: a seat, or the operator (who gives the deck when no shuffle is committed). */
function waitingForDeal(view) {
  const seats = view.awaiting.seats;
  return seats.length ? `Waiting for ${listed(seats.map((s) => seatName(view, s)))} to deal.` : "Waiting for the operator to deal.";
}

function results() {
  const ended = seat.events.filter((e) => e.type === "HandEnded").at(-1);
  return [gameResult(seat.view, seat.events, seat.view.you), ended ? handScore(seat.view, ended) : null];
}

function render() {
  seat.paint((you) => {
    const view = seat.view;
    const enabled = clickable();
    const choice = { enabled, chosen, choose: you === undefined ? null : choose };
    return {
      status: header(view),
      seats: seatsPanel(view, { you, piles: choice }),
      table: tableArea(view, choice),
      hand: handArea(enabled),
      actions,
      results: results(),
    };
  });
}

/** Open the table of game ``id`` for ``caller`` (an Api); ``context`` as for Seat. */
export function start(caller, id, context) {
  seat = new Seat(caller, id, "cassino", {
    // A seat may have moves off its turn too (a pluck just after its play).
    hasMoves: (view) => view.you !== undefined && view.status === "in_progress",
    render: () => {
      if (chosen.size && !seat.moves.some(holdsChosen)) chosen = new Set();
      render();
    },
    sent: () => {
      chosen = new Set();
    },
  }, context);
  seat.start();
}
