// A seat's table (with the seat's token) or a spectator's (without): the
// game as the service shows this caller, kept current from the live stream.
// Moves are only ever chosen among those /moves lists.

import { Api, el, gameIdFromPage, keepingFocus, seatToken, showError } from "./api.js";
import { cardFace } from "./cards.js";
import { describe } from "./events.js";
import { LiveEvents } from "./stream.js";
import { gameResult, handScore, header, seatName, seatsPanel, tableArea } from "./tableview.js";

const gameId = gameIdFromPage();
const api = new Api(seatToken(gameId));
const base = `/v1/games/${gameId}`;

let view = null;
let moves = [];
const events = [];
let card = null; // the hand card chosen
let targets = new Set(); // the table items chosen
let confirmCountOut = false;
let pending = null;

function targetsOf(move) {
  return move.targets || []; // a trail has none
}

function sameSet(list, set) {
  return list.length === set.size && list.every((t) => set.has(t));
}

function moveLabel(m) {
  if (m.action === "trail") return `Trail ${m.card}`;
  if (m.action === "capture") return `Take ${targetsOf(m).join(" ")} with ${m.card}`;
  return `Build ${m.value} with ${m.card} on ${targetsOf(m).join(" ")}`;
}

async function refresh() {
  const fresh = await api.get(base);
  const mine = fresh.you !== undefined && fresh.status === "in_progress" && fresh.turn === fresh.you;
  const listed = mine ? (await api.get(`${base}/moves`)).moves : [];
  if (view && fresh.version < view.version) return; // an older answer overtaken by a newer one
  view = fresh;
  moves = listed;
  if (card && !(view.hand || []).includes(card)) clearChoice();
  render();
}

function refreshSoon() {
  clearTimeout(pending);
  pending = setTimeout(() => refresh().catch(showError), 40);
}

function clearChoice() {
  card = null;
  targets = new Set();
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

function chooseCard(code) {
  targets = new Set();
  card = card === code ? null : code;
  render();
}

function chooseTarget(id) {
  if (targets.has(id)) targets.delete(id);
  else targets.add(id);
  render();
}

function button(label, key, onclick, extra = {}) {
  return el("button", { type: "button", "data-key": key, onclick, ...extra }, label);
}

function handArea() {
  if (view.hand === undefined) return el("p", { class: "note" }, "You are watching: no hand is shown.");
  const playable = new Set(moves.map((m) => m.card));
  return el("div", { class: "hand", id: "hand" },
    el("h2", {}, "Your hand"),
    el("div", { class: "hand-cards" }, view.hand.map((code) => {
      const face = cardFace(code, { onclick: () => chooseCard(code), pressed: card === code, disabled: !playable.has(code) });
      face.dataset.key = `hand-${code}`;
      return face;
    })));
}

function playChoices() {
  if (!card) return [];
  const fitting = moves.filter((m) => m.card === card && sameSet(targetsOf(m), targets));
  return [
    el("p", { class: "note" }, fitting.length ? "Choose the move:" : "Choose the table items to take or build on."),
    ...fitting.map((m, i) => button(moveLabel(m), `move-${i}-${moveLabel(m)}`, () => command("play", m), { class: "primary" })),
    button("Clear the choice", "clear", () => { clearChoice(); render(); }),
  ];
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
    if (view.turn === you) out.push(el("p", { class: "note turn-note" }, card ? `You chose ${card}.` : "Your turn: choose a card from your hand."));
    else out.push(el("p", { class: "note" }, `Waiting for ${seatName(view, view.turn)} to play.`));
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
    document.getElementById("seats-area").replaceChildren(seatsPanel(view, { you }));
    const enabled = new Set(moves.filter((m) => m.card === card).flatMap(targetsOf));
    document.getElementById("table-area").replaceChildren(
      tableArea(view, { enabled, chosen: targets, choose: you === undefined ? null : chooseTarget }));
    for (const node of document.querySelectorAll("#table-area [data-card], #table-area [data-build]")) {
      if (node.tagName === "BUTTON") node.dataset.key = `table-${node.dataset.card || node.dataset.build}`;
    }
    document.getElementById("hand-area").replaceChildren(handArea());
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

if (!gameId) {
  showError(new Error("This link names no game."));
} else {
  refresh().catch(showError);
  new LiveEvents(api, gameId, onEvent, () => view !== null && view.status === "finished").open();
}
