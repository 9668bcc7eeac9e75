// The table page: a seat's (with the seat's token in the link) or a
// spectator's (without). It asks the game for its type (the view's
// ``game_type``) and opens that game's table: Cassino's (cassinotable.js)
// or Mass Cool Casino's (mcctable.js). A link that names no game, or a
// game that is not there, gets a page that says so; a tab without the
// seat's token (a seat's link opened again without its fragment, in a new
// tab), and whose browser's player holds no seat there, says why it shows
// the spectators' view and how to get the seat back.

import { Api, el, forgetSeatToken, gameIdFromPage, savedPlayer, seatToken, showError, tableLink } from "./api.js";
import { eventTypes, gameType, gameTypeOf, movesOf } from "./games.js";
import { variantName } from "./words.js";

/**
 * The caller and the game's view: with this tab's seat token; else with
 * the player token this browser keeps, if its player holds a seat here;
 * else without one, ``watching`` then saying why
 * ("no-token", or "refused" for a seat token the service does not take for
 * this game, which is forgotten).
 */
async function firstLook(gameId) {
  const path = `/v1/games/${encodeURIComponent(gameId)}`;
  const token = seatToken(gameId);
  if (token) {
    const seen = await lookWith(token, path);
    if (seen) return { ...seen, token };
    forgetSeatToken(gameId);
  }
  const player = savedPlayer();
  if (player) {
    const seen = await lookWith(player.token, path);
    if (seen && seen.view.you !== undefined) return { ...seen, token: null };
  }
  const api = new Api(null);
  return { api, token: null, view: await api.get(path), watching: token ? "refused" : "no-token" };
}

/** The view with ``token``, or null when the service does not take the token. */
async function lookWith(token, path) {
  const api = new Api(token);
  try {
    return { api, view: await api.get(path), watching: null };
  } catch (error) {
    if (error.status !== 401 && error.status !== 403) throw error;
    return null;
  }
}

function showMissing(gameId) {
  document.getElementById("role").textContent = "No such game";
  document.title = "casino · no such game";
  const what = gameId
    ? `No game has the id “${gameId}”. Check that the whole link was copied: a game's id is 36 letters, digits and hyphens.`
    : "This link names no game: a table's link ends in ?game= and the game's id.";
  document.querySelector("main").replaceChildren(el("section", { class: "missing", id: "missing", role: "alert" },
    el("h1", {}, "There is no game at this link"),
    el("p", {}, what),
    el("p", {}, el("a", { href: "/play/", class: "button primary" }, "Start a new game"), " ",
      el("a", { href: "/", class: "button" }, "The front page"))));
}

/** The seat's own link, to open the seat in another tab or on another device. */
function showSeatLink(gameId, token) {
  const box = document.getElementById("seat-link-box");
  document.getElementById("seat-link").value = tableLink(gameId, token);
  box.hidden = false;
}

async function open() {
  const gameId = gameIdFromPage();
  if (!gameId) return showMissing(null);
  let seen;
  try {
    seen = await firstLook(gameId);
  } catch (error) {
    if (error.status === 404) return showMissing(gameId);
    throw error;
  }
  const { api, token, view, watching } = seen;
  const type = gameTypeOf(view);
  const game = gameType(type); // the registry's, or an error: this page cannot show it
  document.body.dataset.game = type;
  document.getElementById("table-title").textContent = `A table of ${variantName(view.variant || type)}`;
  const rules = document.getElementById("rules-link");
  rules.href = view.variant ? `/rules/${type}/${encodeURIComponent(view.variant)}/play` : `/rules/${type}/play`;
  rules.hidden = false;
  // A seat held by this browser's player needs no link of its own: it opens from the lobby's "Your games".
  if (token && view.you !== undefined) showSeatLink(gameId, token);
  // The seat listens for the game's event types and reads its moves in the log by the registry's names.
  (await game.table()).start(api, gameId, { watching, types: eventTypes(type), moveTypes: movesOf(type) });
}

// A seat's link pasted into a tab already showing its game changes only the
// fragment, which loads nothing: take the token and open the table again.
window.addEventListener("hashchange", () => {
  if (new URLSearchParams(location.hash.slice(1)).has("token")) {
    seatToken(gameIdFromPage());
    location.reload();
  }
});

open().catch(showError);
