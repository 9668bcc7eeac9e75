// Cassino's table (table.js opens it for a game of the Cassino family): a
// seat's (with the seat's token) or a spectator's (without), the game as
// the service shows this caller, kept current from the live stream.
// Moves are only ever chosen among those /moves lists, and are sent as it
// lists them. A move is made of pieces (its card, its cards, its targets:
// hand and table cards, builds, seats' piles as ``seat:N``): the player
// chooses pieces, only those that some listed move still holds can be
// chosen, and the moves made of exactly the chosen pieces are offered.

import { el, keepingFocus, showError } from "./api.js";
import { cardFace } from "./cards.js";
import { describe, eventTypes } from "./events.js";
import { LiveEvents } from "./stream.js";
import { gameResult, handScore, header, pileSeat, seatName, seatsPanel, tableArea } from "./tableview.js";

let gameId = null;
let api = null;
let base = null;

let view = null;
let moves = [];
const events = [];
let chosen = new Set(); // the pieces chosen
let confirmCountOut = false;
let pending = null;

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
  if (!chosen.size) return new Set(moves.flatMap(leadsOf));
  return new Set([...chosen, ...moves.filter(holdsChosen).flatMap(piecesOf)]);
}

/** The moves to offer: those made of exactly the chosen pieces, and those made of none. */
function fitting() {
  return moves.filter((m) => {
    const pieces = piecesOf(m);
    return !pieces.length || (pieces.length === chosen.size && holdsChosen(m));
  });
}

function pileName(seat) {
  return `${seatName(view, seat)}'s pile`;
}

function pieceName(piece) {
  const seat = pileSeat(piece);
  return seat === null ? piece : pileName(seat);
}

function listed(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * What a move's targets name: the table's cards and builds, then each
 * seat's pile, which a build may name once for every card it takes from
 * the pile's top (African).
 */
function targetWords(move) {
  const targets = move.targets || [];
  const piles = new Map();
  for (const seat of targets.map(pileSeat).filter((s) => s !== null)) piles.set(seat, (piles.get(seat) || 0) + 1);
  const loose = targets.filter((t) => pileSeat(t) === null);
  return [
    ...(loose.length ? [loose.join(" ")] : []),
    ...[...piles].map(([seat, n]) => (n === 1 ? `the top card of ${pileName(seat)}` : `the top ${n} cards of ${pileName(seat)}`)),
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
    case "steal": return `Steal ${listed((m.targets || []).map((t) => `${seatName(view, pileSeat(t))}'s bundle`))} with ${m.card}`;
    case "build": return `Build ${m.value} with ${m.card}${things ? ` on ${things}` : ""}${groups}`;
    default: {
      // Any other game's moves, in words from their own fields.
      const verb = `${m.action.charAt(0).toUpperCase()}${m.action.slice(1)}`;
      const cards = [m.card, ...(m.cards || [])].filter((c) => typeof c === "string");
      return `${verb}${cards.length ? ` ${cards.join(" ")}` : ""}${things ? ` on ${things}` : ""}`;
    }
  }
}

async function refresh() {
  const fresh = await api.get(base);
  // A seat may have moves off its turn too (a pluck just after its play).
  const seated = fresh.you !== undefined && fresh.status === "in_progress";
  const list = seated ? await api.get(`${base}/moves`) : null;
  if (view && fresh.version < view.version) return; // an older answer overtaken by a newer one
  view = fresh;
  moves = list && list.version === fresh.version ? list.moves : [];
  if (list && list.version !== fresh.version) refreshSoon(); // the game moved on between the two answers
  if (chosen.size && !moves.some(holdsChosen)) clearChoice();
  render();
}

function refreshSoon() {
  clearTimeout(pending);
  pending = setTimeout(() => refresh().catch(showError), 40);
}

function clearChoice() {
  chosen = new Set();
}

async function command(path, body = {}) {
  confirmCountOut = false;
  try {
    const key = crypto.randomUUID ? { "Idempotency-Key": crypto.randomUUID() } : {};
    await api.post(`${base}/${path}`, body, key);
    showError(null);
    clearChoice();
  } catch (error) {
    showError(error);
  }
  await refresh().catch(showError);
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
  return new Set([...choosable(), ...moves.flatMap(leadsOf)]);
}

function button(label, key, onclick, extra = {}) {
  return el("button", { type: "button", "data-key": key, onclick, ...extra }, label);
}

function handArea(enabled) {
  if (view.hand === undefined) return el("p", { class: "note" }, "You are watching: no hand is shown.");
  return el("div", { class: "hand", id: "hand" },
    el("h2", {}, "Your hand"),
    el("div", { class: "hand-cards" }, view.hand.map((code) => {
      const face = cardFace(code, { onclick: () => choose(code), pressed: chosen.has(code), disabled: !enabled.has(code) });
      face.dataset.key = `hand-${code}`;
      return face;
    })));
}

function playChoices() {
  if (!moves.length) return [];
  const offered = fitting();
  const out = offered.map((m, i) => button(moveLabel(m), `move-${i}-${moveLabel(m)}`, () => command("play", m), { class: "primary" }));
  if (!chosen.size) return out;
  const more = moves.some((m) => holdsChosen(m) && piecesOf(m).length > chosen.size);
  return [
    el("p", { class: "note" }, offered.length ? "Choose the move:" : "Choose the rest of the move: what to take, build on or steal."),
    ...out,
    more && offered.length ? el("p", { class: "note" }, "Or choose more for another move.") : null,
    button("Clear the choice", "clear", () => { clearChoice(); render(); }),
  ].filter(Boolean);
}

function undoControls() {
  const you = view.you;
  const asked = view.undo_request;
  if (view.status !== "in_progress" || view.options.undo === "off") return [];
  if (!asked) {
    const label = view.options.undo === "free" ? "Take back my last play" : "Ask to take back my last play";
    return [button(label, "undo", () => command("undo"))];
  }
  if (asked.seat === you) return [el("p", { class: "note" }, "You asked to take your play back; the others are answering.")];
  if (asked.accepted.includes(you)) return [el("p", { class: "note" }, "You agreed to the take-back.")];
  return [
    el("p", { class: "note" }, `${seatName(view, asked.seat)} asks to take their last play back.`),
    button("Agree", "undo-yes", () => command("undo/answer", { accept: true })),
    button("Refuse", "undo-no", () => command("undo/answer", { accept: false })),
  ];
}

function countOutControls() {
  if (view.status !== "in_progress" || !view.options.count_out) return [];
  if (!confirmCountOut) return [button("Count out…", "count-out", () => { confirmCountOut = true; render(); })];
  return [
    el("p", { class: "note" }, "Counting out ends the game: if your side has not reached the target, it loses."),
    button("Count out now", "count-out-sure", () => command("count-out"), { class: "danger" }),
    button("Not yet", "count-out-no", () => { confirmCountOut = false; render(); }),
  ];
}

function actions() {
  const you = view.you;
  const out = [];
  const dealing = view.status === "waiting" || view.status === "hand_over";
  if (dealing && view.next_dealer === you) out.push(button("Deal", "deal", () => command("deal"), { class: "primary" }));
  else if (dealing) out.push(el("p", { class: "note" }, `Waiting for ${seatName(view, view.next_dealer)} to deal.`));
  if (view.status === "in_progress") {
    const hand = view.hand || [];
    const fromTable = moves.flatMap(leadsOf).some((c) => !hand.includes(c));
    const where = fromTable ? (view.turn === you ? "from your hand or the table" : "on the table") : "from your hand";
    let note;
    if (chosen.size) note = `You chose ${listed([...chosen].map(pieceName))}.`;
    else if (view.turn === you) note = `Your turn: choose a card ${where}.`;
    else note = `Waiting for ${seatName(view, view.turn)} to play${moves.length ? `; until then you may still choose a card ${where}` : ""}.`;
    out.push(el("p", { class: `note${view.turn === you || chosen.size ? " turn-note" : ""}` }, note));
  }
  out.push(...playChoices(), ...undoControls(), ...countOutControls());
  return out;
}

function results() {
  const ended = events.filter((e) => e.type === "HandEnded").at(-1);
  const finished = events.find((e) => e.type === "GameFinished");
  return [finished ? gameResult(view, finished) : null, ended ? handScore(view, ended) : null];
}

function render() {
  if (!view) return;
  keepingFocus(() => {
    const you = view.you;
    document.getElementById("role").textContent = you === undefined ? "Watching" : `Seat ${you}: ${view.seats[you].name}`;
    document.getElementById("status-area").replaceChildren(header(view));
    const enabled = clickable();
    const choice = { enabled, chosen, choose: you === undefined ? null : choose };
    document.getElementById("seats-area").replaceChildren(seatsPanel(view, { you, piles: choice }));
    document.getElementById("table-area").replaceChildren(tableArea(view, choice));
    document.getElementById("hand-area").replaceChildren(handArea(enabled));
    document.getElementById("actions").replaceChildren(...(you === undefined ? [] : actions()));
    document.getElementById("results").replaceChildren(...results().filter(Boolean));
    document.body.dataset.version = String(view.version);
  });
}

function onEvent(event) {
  events.push(event);
  const name = (seat) => (view ? seatName(view, seat) : `seat ${seat}`);
  document.getElementById("log").append(el("li", { "data-version": event.version }, `${event.version}. ${describe(event, name)}`));
  refreshSoon();
}

/** Open the table of game ``id`` for ``caller`` (an Api). */
export function start(caller, id) {
  api = caller;
  gameId = id;
  base = `/v1/games/${gameId}`;
  refresh().catch(showError);
  new LiveEvents(api, gameId, onEvent, () => view !== null && view.status === "finished", eventTypes("cassino")).open();
}
