// The lobby's panels for a player: who this browser plays as (registered
// once, then kept in localStorage: api.js), the player's games (whose turn
// it is, and its deadline), kept up to date by the player's live stream,
// and the open games, which the player joins. A game's invitation link
// (``/play/?join=<id>``) shows that game among them, listed or not.

import { Api, el, idempotencyKey, keepPlayer, savedPlayer, showError, tableLink } from "./api.js";
import { clockRule, countdown } from "./clock.js";
import { PlayerEvents } from "./stream.js";

const STATUS_WORDS = {
  waiting: "not dealt yet", in_progress: "being played", hand_over: "between hands",
  betting: "betting", reshuffle: "between rounds", finished: "over",
};
// How a finished game ended, in words after "You won" or "You lost" (others: the result's own words).
const RESULT_WORDS = { resigned: "by resignation", timed_out: "on time", aborted: "called off", count_out: "by count out" };
const SHOWN = 50; // games a list shows: the newest

let player = savedPlayer();
let mine = new Set(); // the ids of the player's games, as last read
let onRegistered = () => {};
let reading = null;

/** The player this browser plays as, or null. */
export function currentPlayer() {
  return player;
}

/** Take an open seat of game ``id`` as this browser's player (``seat``: which; the lowest open one when undefined). */
export function takeSeat(id, seat) {
  return new Api(player.token).post(`/v1/games/${encodeURIComponent(id)}/join`, seat === undefined ? {} : { seat },
    idempotencyKey());
}

/** The link that invites a player to game ``id``: the lobby, showing that game to join. */
export function invitationLink(id) {
  return `${location.origin}/play/?join=${encodeURIComponent(id)}`;
}

/**
 * Draw the player's panels and follow the player's games live;
 * ``registered()`` is called once a player registers here.
 */
export function startPlayers(registered) {
  onRegistered = registered;
  showPlayer();
  if (player) followPlayer();
  else showOpenGames().catch(showError);
}

function showPlayer() {
  const area = document.getElementById("player-area");
  if (player) {
    area.replaceChildren(el("p", { id: "you" }, "You play as ", el("strong", {}, player.name),
      ". This browser keeps who you are: your games are here whenever you come back."));
    return;
  }
  area.replaceChildren(
    el("h2", {}, "Play with others"),
    el("p", { class: "note" }, "Choose a name once; this browser keeps it, and with it your games. Then join an open"
      + " game below, or create one with open seats."),
    el("form", { id: "register", onsubmit: register },
      el("label", { for: "player-name" }, "Your name"),
      el("input", { id: "player-name", maxlength: 40, required: true, autocomplete: "nickname" }),
      el("button", { type: "submit", class: "primary" }, "Play as this name")));
}

async function register(event) {
  event.preventDefault();
  try {
    const name = document.getElementById("player-name").value;
    keepPlayer(await new Api().post("/v1/players", { name }, idempotencyKey()));
    player = savedPlayer();
    showError(null);
  } catch (error) {
    showError(error);
    return;
  }
  showPlayer();
  followPlayer();
  onRegistered(player);
}

/** The player's games now, then as the player's stream tells of each turn, start and end. */
function followPlayer() {
  readSoon();
  new PlayerEvents(new Api(player.token), () => readSoon()).open();
}

/** Read the player's games and the open games again, once for a burst of notices. */
export function readSoon() {
  clearTimeout(reading);
  reading = setTimeout(() => showMyGames().then(showOpenGames).catch(showError), 50);
}

async function showMyGames() {
  const page = await new Api(player.token).get(`/v1/players/me/games?limit=${SHOWN}`);
  mine = new Set(page.games.map((game) => game.id));
  document.getElementById("my-games-area").replaceChildren(
    el("h2", {}, "Your games"),
    page.games.length
      ? el("ul", { class: "game-list", id: "my-games" }, page.games.map(myGame))
      : el("p", { class: "note", id: "no-games" }, "None yet: join an open game, or create one."));
}

function myGame(game) {
  const waiting = game.your_turn ? "Your turn" : game.status === "finished" ? null : "Not your turn";
  return el("li", { class: `game${game.your_turn ? " your-turn" : ""}`, "data-game": game.id,
    "data-your-turn": String(game.your_turn) },
  el("a", { href: tableLink(game.id, null), class: "game-link" }, `${game.variant}, seat ${game.seat}`),
  el("span", { class: "note" }, ` ${STATUS_WORDS[game.status] || game.status}`),
  waiting ? el("span", { class: "turn" }, waiting) : null,
  game.deadline ? el("span", { class: "deadline" }, "time left: ", countdown(game.deadline)) : null,
  game.outcome ? el("span", { class: "outcome" }, outcomeWords(game.outcome, game.seat)) : null);
}

/** A finished game's outcome for the player's seat: the same fields in every game type. */
function outcomeWords(outcome, seat) {
  const how = RESULT_WORDS[outcome.result] || outcome.result.replace(/_/g, " ");
  if (outcome.result === "aborted") return "Called off";
  if (outcome.winners.includes(seat)) return `You won (${how})`;
  return outcome.winners.length ? `You lost (${how})` : `Nobody won (${how})`;
}

async function showOpenGames() {
  const page = await new Api().get(`/v1/lobby?limit=${SHOWN}`);
  const games = page.games;
  const invited = new URLSearchParams(location.search).get("join");
  if (invited && !games.some((game) => game.id === invited)) {
    const view = await new Api().get(`/v1/games/${encodeURIComponent(invited)}`).catch(() => null);
    if (view && view.seats.some((s) => s.open)) games.unshift(lobbyItem(invited, view));
  }
  document.getElementById("open-games-area").replaceChildren(
    el("h2", {}, "Open games"),
    games.length
      ? el("ul", { class: "game-list", id: "open-games" }, games.map(openGame))
      : el("p", { class: "note", id: "no-open-games" }, "No game waits for players now."),
    el("button", { type: "button", id: "look-again", onclick: () => showOpenGames().catch(showError) }, "Look again"));
}

/** Game ``id``'s view as the lobby lists a game. */
function lobbyItem(id, view) {
  return { id, variant: view.variant, clock: view.clock, seats: view.seats };
}

function openGame(game) {
  const seats = game.seats.map((s) => (s.open ? "an open seat" : s.name)).join(", ");
  const sitting = mine.has(game.id);
  return el("li", { class: "game", "data-game": game.id },
    el("span", {}, `${game.variant}: ${seats}.`),
    game.clock ? el("span", { class: "note" }, ` Clock: ${clockRule(game.clock)}.`) : null,
    sitting ? el("a", { href: tableLink(game.id, null), class: "button" }, "Your seat")
      : el("button", { type: "button", class: "primary", "data-key": `join-${game.id}`, disabled: !player,
        title: player ? null : "Choose your name first", onclick: () => join(game.id) }, "Join"));
}

async function join(id) {
  try {
    await takeSeat(id);
  } catch (error) {
    showError(error);
    showOpenGames().catch(showError);
    return;
  }
  location.assign(tableLink(id, null));
}
