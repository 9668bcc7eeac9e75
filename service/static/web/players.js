// The lobby's panels for a player: who this browser plays as (registered
// once, then kept in localStorage: api.js), the player's games (whose turn
// it is, and its deadline), kept up to date by the player's live stream,
// and the open games, which the player joins. A game's invitation link
// (``/play/?join=<id>``) shows that game among them, listed or not.

import { Api, el, idempotencyKey, keepPlayer, replayLink, savedPlayer, showError, tableLink } from "./api.js";
import { clockRule, countdown } from "./clock.js";
import { playerLink, ratedName, ratingText } from "./ratings.js";
import { PlayerEvents } from "./stream.js";
import { listed, variantName } from "./words.js";

const STATUS_WORDS = {
  waiting: "not dealt yet", in_progress: "being played", hand_over: "between hands",
  betting: "betting", reshuffle: "between rounds", finished: "over",
};
// How a finished game ended, in words after "You won" or "You lost" (others: the result's own words).
const RESULT_WORDS = { resigned: "by resignation", timed_out: "on time", aborted: "called off", count_out: "by count out" };
const SHOWN = 50; // open games the lobby shows: the newest
const PAGE = 20; // the player's games a page of "Your games" shows
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

let player = savedPlayer();
let mine = new Set(); // the ids of the player's games, as last read
let onRegistered = () => {};
let reading = null;
let pages = [null]; // the cursors of the pages of "Your games" seen, the one shown last

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
      ". This browser keeps who you are: your games are here whenever you come back."),
    el("p", { id: "my-ratings" }),
    el("details", { id: "devices" }, el("summary", {}, "Play on another device, or forget me here"),
      el("p", { class: "note" }, "A code moves who you are, with your games, to another device: enter it there"
        + " within ten minutes. This browser then no longer plays as you."),
      el("button", { type: "button", id: "transfer", onclick: transfer }, "Give me a code for another device"),
      el("p", { id: "transfer-code", "aria-live": "polite" }),
      el("button", { type: "button", id: "forget", onclick: forget }, "Forget me on this browser")));
    showMyRatings().catch(showError);
    return;
  }
  area.replaceChildren(
    el("h2", {}, "Play with others"),
    el("p", { class: "note" }, "Choose a name once; this browser keeps it, and with it your games. Then join an open"
      + " game below, or create one with open seats."),
    el("form", { id: "register", onsubmit: register },
      el("label", { for: "player-name" }, "Your name"),
      el("input", { id: "player-name", maxlength: 40, required: true, autocomplete: "nickname" }),
      el("button", { type: "submit", class: "primary" }, "Play as this name")),
    el("form", { id: "claim", onsubmit: claim },
      el("label", { for: "claim-code" }, "Or, with a code from your other device"),
      el("input", { id: "claim-code", maxlength: 40, required: true, autocomplete: "off", spellcheck: "false" }),
      el("button", { type: "submit" }, "Play as me here")));
}

/** The player's ratings (one per variant played rated), and the way to the player's own page. */
async function showMyRatings() {
  const me = await new Api(player.token).get("/v1/players/me");
  document.getElementById("my-ratings").replaceChildren(me.ratings.length
    ? `Your ratings: ${me.ratings.map((r) => `${variantName(r.variant)} ${ratingText(r)}`).join(", ")}. `
    : "No rating yet: play a rated game. ", playerLink(player.id, "Your page"));
}

/** A one-time code that moves this browser's player to another device. */
async function transfer() {
  try {
    const given = await new Api(player.token).post("/v1/players/me/transfer", {});
    const until = new Date(given.expires_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    document.getElementById("transfer-code").replaceChildren("Your code: ", el("strong", { id: "code" }, given.code),
      ` (good once, until ${until})`);
  } catch (error) {
    showError(error);
  }
}

/** This browser no longer plays as the player (who stays, with their games, wherever else they play). */
function forget() {
  keepPlayer(null);
  location.reload();
}

/** Play here as the player whose other device gave the code. */
async function claim(event) {
  event.preventDefault();
  try {
    keepPlayer(await new Api().post("/v1/players/claim", { code: document.getElementById("claim-code").value }));
  } catch (error) {
    showError(error);
    return;
  }
  location.reload();
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

/** One page of the player's games (the one at ``pages.at(-1)``), with links to the pages before and after. */
async function showMyGames() {
  const cursor = pages.at(-1);
  const page = await new Api(player.token).get(`/v1/players/me/games?limit=${PAGE}`
    + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""));
  page.games.forEach((game) => mine.add(game.id));
  const turn = (step) => () => {
    pages = step > 0 ? [...pages, page.next] : pages.slice(0, -1);
    showMyGames().catch(showError);
  };
  document.getElementById("my-games-area").replaceChildren(
    el("h2", {}, "Your games"),
    page.games.length
      ? el("ul", { class: "game-list", id: "my-games", "data-page": String(pages.length) }, page.games.map(myGame))
      : el("p", { class: "note", id: "no-games" }, "None yet: join an open game, or create one."),
    el("p", { class: "pager" },
      pages.length > 1 ? el("button", { type: "button", id: "newer-games", onclick: turn(-1) }, "Newer games") : null,
      page.next ? el("button", { type: "button", id: "older-games", onclick: turn(1) }, "Older games") : null));
}

/** A game of the player's: its variant, whom against, when, where it stands; a finished one opens its replay. */
function myGame(game) {
  const others = game.players.map((name, seat) => [name, game.ratings[seat]]).filter((_, seat) => seat !== game.seat);
  const against = others.every(([name]) => name === null) ? "waiting for players"
    : `against ${listed(others.map(([name, rating]) => (name === null ? "an open seat" : ratedName(name, rating))))}`;
  const waiting = game.your_turn ? "Your turn" : game.status === "finished" ? null
    : game.players.includes(null) ? "Waiting for a player to join" : "Their turn";
  const finished = game.status === "finished";
  return el("li", { class: `game${game.your_turn ? " your-turn" : ""}`, "data-game": game.id,
    "data-your-turn": String(game.your_turn) },
  el("a", { href: finished ? replayLink(game.id) : tableLink(game.id, null), class: "game-link" },
    `${variantName(game.variant)} ${against}`),
  el("span", { class: "note" }, ` ${DAY.format(new Date(game.created_at))} · ${STATUS_WORDS[game.status] || game.status}`),
  waiting ? el("span", { class: "turn" }, waiting) : null,
  game.deadline ? el("span", { class: "deadline" }, game.your_turn ? "your time: " : "their time: ",
    countdown(game.deadline)) : null,
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
  const seats = game.seats.map((s) => (s.open ? "an open seat" : ratedName(s.name, s.rating))).join(", ");
  const sitting = mine.has(game.id);
  return el("li", { class: "game", "data-game": game.id },
    el("span", {}, `${variantName(game.variant)}: ${seats}.`),
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
