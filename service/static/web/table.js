// The table page: a seat's (with the seat's token in the link) or a
// spectator's (without). It asks the game for its type (the view's
// ``game_type``) and opens that game's table: Cassino's (cassinotable.js)
// or Mass Cool Casino's (mcctable.js).

import { Api, gameIdFromPage, seatToken, showError } from "./api.js";

const TABLES = {
  cassino: () => import("./cassinotable.js"),
  "mass-cool-casino": () => import("./mcctable.js"),
};

async function open() {
  const gameId = gameIdFromPage();
  if (!gameId) throw new Error("This link names no game.");
  const api = new Api(seatToken(gameId));
  const view = await api.get(`/v1/games/${gameId}`);
  const type = view.game_type || "cassino"; // a view without the field is Cassino's
  if (!TABLES[type]) throw new Error(`This page cannot show a game of ${type}.`);
  document.body.dataset.game = type;
  (await TABLES[type]()).start(api, gameId);
}

open().catch(showError);
