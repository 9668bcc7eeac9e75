// Cassino's table (table.js opens it for a game of the Cassino family): a
// seat's (with the seat's token) or a spectator's (without), the game as
// the service shows this caller, kept current from the live stream.
// Moves are only ever chosen among those /moves lists, and are sent as it
// lists them. A move is made of pieces (its card, its cards, its targets:
// hand and table cards, builds, seats' piles as ``seat:N``): the player
// chooses pieces, only those that some listed move still holds can be
// chosen, and the moves made of exactly the chosen pieces are offered.
// Once a card is chosen the choice is made among that card's own moves,
// /moves narrowed to the card and the table pieces chosen with it, so a
// crowded table whose first page is cut never leaves a choice without its
// moves: when even a narrowed list is cut the page says so, any table piece
// may be chosen to narrow it further, and "Show more moves" reads its next page.

import { el } from "./api.js";
import { cardFace, withFaces } from "./cards.js";
import { Seat, button, undoControls, watchingNote } from "./seat.js";
import { gameResult, handScore, header, pileSeat, seatsPanel, tableArea } from "./tableview.js";
import { isolated, listed, seatName } from "./words.js";

let seat = null; // the caller's place at the table (seat.js): its view, moves and events
let chosen = new Set(); // the pieces chosen
let narrow = null; // {key, moves, truncated, next}: /moves narrowed to the chosen pieces
let asking = 0; // the latest narrowing asked for (older answers are dropped)
let missed = null; // a piece just chosen that no move holds with the others, to say so

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

/** What the choice is narrowed to: its first piece as the card, the others as targets. */
function chosenKey() {
  const [card, ...targets] = [...chosen];
  return JSON.stringify([seat.view.version, card, [...targets].sort()]);
}

/** The moves the choice is made among: the chosen pieces' narrowed list once it has come, else the first page. */
function pool() {
  return chosen.size && narrow && narrow.key === chosenKey() ? narrow.moves : seat.moves;
}

/** The cards a move may start with: those of the listed moves, and every card of the hand while the list is cut. */
function leads() {
  const first = seat.moves.flatMap(leadsOf);
  const hand = seat.truncated && seat.view.turn === seat.view.you ? seat.view.hand || [] : [];
  return new Set([...first, ...hand]);
}

/** The table's items (cards and builds) by the names moves give them. */
function tableItems() {
  return (seat.view.table || []).map((item) => (item.kind === "build" ? item.id : item.card));
}

/** The pieces that may be chosen now (or unchosen): with a cut narrowed list, any table item as well. */
function choosable() {
  if (!chosen.size) return leads();
  const cut = narrow && narrow.key === chosenKey() && narrow.truncated ? tableItems() : [];
  return new Set([...chosen, ...pool().filter(holdsChosen).flatMap(piecesOf), ...cut]);
}

/**
 * Ask for the moves of the chosen pieces. A piece chosen last that no move
 * holds with the others (possible only from a cut list) is let go again,
 * and the page says so.
 */
async function narrowChoice() {
  const mine = ++asking;
  if (!chosen.size) { narrow = null; render(); return; }
  const key = chosenKey();
  const [card, ...targets] = [...chosen];
  const list = await seat.narrowedMoves({ card, target: targets });
  if (mine !== asking || list === null) return;
  if (!list.moves.length && chosen.size > 1) {
    missed = targets.at(-1);
    chosen.delete(missed);
    narrowChoice().catch(() => {});
    return;
  }
  narrow = { key, moves: list.moves, truncated: list.truncated, next: list.next };
  render();
}

/** The next page of the narrowed list, added to it. */
async function showMore() {
  const key = narrow.key;
  const [card, ...targets] = [...chosen];
  const list = await seat.narrowedMoves({ card, target: targets }, narrow.next);
  if (list === null || !narrow || narrow.key !== key) return;
  narrow = { key, moves: [...narrow.moves, ...list.moves], truncated: list.truncated, next: list.next };
  render();
}

/** The moves to offer: those made of exactly the chosen pieces, and those made of none. */
function fitting() {
  return pool().filter((m) => {
    const pieces = piecesOf(m);
    return !pieces.length || (pieces.length === chosen.size && holdsChosen(m));
  });
}

/** A seat's capture pile, "Bob's pile", its name as ``person`` gives it (words.js: plain, or ``isolated``). */
function pileName(owner, person = String) {
  return `${person(seatName(seat.view, owner))}'s pile`;
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
function targetWords(move, person) {
  const targets = move.targets || [];
  const piles = new Map();
  for (const owner of targets.map(pileSeat).filter((s) => s !== null)) piles.set(owner, (piles.get(owner) || 0) + 1);
  const loose = targets.filter((t) => pileSeat(t) === null);
  return [
    ...(loose.length ? [loose.join(" ")] : []),
    ...[...piles].map(([owner, n]) => (n === 1 ? `the top card of ${pileName(owner, person)}` : `the top ${n} cards of ${pileName(owner, person)}`)),
  ];
}

/** A move's button, in words, each player's name as ``person`` gives it (as for ``pileName``). */
function moveLabel(m, person = String) {
  const things = listed(targetWords(m, person));
  const as = m.value !== undefined && m.value !== null ? ` as ${m.value}` : "";
  const groups = m.groups ? ` in groups ${m.groups.map((g) => `(${g.join(" ")})`).join(" ")}` : "";
  switch (m.action) {
    case "trail": return `Trail ${m.card}`;
    case "pluck": return `Pluck ${m.card}`;
    case "capture": return `Take ${things} with ${m.card}${as}`;
    case "steal": return `Steal ${listed((m.targets || []).map((t) => `${person(seatName(seat.view, pileSeat(t)))}'s bundle`))} with ${m.card}`;
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
  missed = null;
  if (chosen.has(piece)) chosen = [...chosen][0] === piece ? new Set() : new Set([...chosen].filter((p) => p !== piece));
  else if (choosable().has(piece)) chosen.add(piece);
  else chosen = new Set([piece]);
  render();
  narrowChoice().catch(() => {});
}

/** The pieces shown as enabled buttons: those that may be chosen, and those a move starts with. */
function clickable() {
  return new Set([...choosable(), ...leads()]);
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
  if (!seat.moves.length && !chosen.size) return [];
  const offered = fitting();
  const out = offered.map((m, i) => button(withFaces(moveLabel(m, isolated)), `move-${i}-${moveLabel(m)}`, () => seat.command("play", m), { class: "primary" }));
  if (!chosen.size) {
    const cut = seat.truncated && seat.view.turn === seat.view.you
      ? el("p", { class: "note", id: "moves-cut" }, "You have more moves than are listed here: choose a card of your hand to see all of its moves.")
      : null;
    return [cut, ...out].filter(Boolean);
  }
  const current = narrow && narrow.key === chosenKey() ? narrow : null;
  const waiting = current === null;
  const [card] = [...chosen];
  const more = pool().some((m) => holdsChosen(m) && piecesOf(m).length > chosen.size) || Boolean(current && current.truncated);
  let note;
  if (waiting) note = "Finding the moves of your choice…";
  else if (!current.moves.length) note = `${pieceName(card)} has no move now: choose another card.`;
  else if (offered.length) note = "Choose the move:";
  else note = "Choose the rest of the move: what to take, build on or steal.";
  return [
    missed ? el("p", { class: "note", id: "missed" }, `No move of yours holds ${pieceName(missed)} with what you chose.`) : null,
    el("p", { class: "note" }, note),
    ...out,
    more && offered.length ? el("p", { class: "note" }, "Or choose more for another move.") : null,
    current && current.truncated ? el("p", { class: "note", id: "narrow-cut" },
      `These are the first ${current.moves.length} moves of what you chose; more remain. Choose cards on the table to narrow them down, or show more.`) : null,
    current && current.truncated ? button("Show more moves", "show-more", () => showMore().catch(() => {})) : null,
    button("Clear the choice", "clear", () => { chosen = new Set(); missed = null; narrow = null; render(); }),
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
  seat = new Seat(caller, id, {
    // A seat may have moves off its turn too (a pluck just after its play).
    hasMoves: (view) => view.you !== undefined && view.status === "in_progress",
    render: () => {
      if (chosen.size && !leads().has([...chosen][0])) chosen = new Set();
      render();
      if (chosen.size && (!narrow || narrow.key !== chosenKey())) narrowChoice().catch(() => {});
    },
    sent: () => {
      chosen = new Set();
      narrow = null;
      missed = null;
    },
  }, context);
  seat.start();
}
