// A player's page (player.html?id=: the player's ratings and finished games,
// GET /v1/players/{id}) and a variant's leaderboard (leaderboard.html?variant=,
// GET /v1/leaderboard), each a page at a time.

import { Api, el, replayLink, showError } from "./api.js";
import { leaderboardLink, playerLink, ratingText } from "./ratings.js";
import { variantName } from "./words.js";

const api = new Api();
const query = new URLSearchParams(location.search);
const area = document.getElementById("ratings-area");

function ratingCells(r) {
  return [el("td", {}, ratingText(r)), el("td", {}, String(r.deviation)), el("td", {}, String(r.games))];
}

function table(caption, heads, rows) {
  return el("table", { class: "ratings-table" }, el("caption", {}, caption),
    el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows));
}

function more(next, show) {
  return next ? el("button", { type: "button", id: "more", onclick: () => show(next).catch(showError) }, "Next page") : null;
}

const RATING_HEADS = ["Rating", "Deviation", "Rated games"];

async function showPlayer(id, cursor = null) {
  const page = await api.get(`/v1/players/${encodeURIComponent(id)}?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
  document.getElementById("page-title").textContent = page.name;
  document.title = `casino · ${page.name}`;
  area.replaceChildren(
    page.ratings.length
      ? table("Ratings (a “?” marks one still provisional)", ["Variant", ...RATING_HEADS], page.ratings.map((r) =>
        el("tr", { "data-variant": r.variant }, el("th", { scope: "row" }, leaderboardLink(r.variant, variantName(r.variant))),
          ratingCells(r))))
      : el("p", { class: "note", id: "no-ratings" }, "No rating yet: ratings come from rated games."),
    el("h2", {}, "Finished games"),
    page.games.length ? el("ul", { id: "finished-games", class: "game-list" }, page.games.map((g) =>
      el("li", { "data-game": g.id }, el("a", { href: replayLink(g.id) }, `${variantName(g.variant)}, seat ${g.seat}`),
        ` · ${ended(g)}`)))
      : el("p", { class: "note" }, "None yet."),
    more(page.next, (next) => showPlayer(id, next)));
}

/** How a finished game ended for the seat the player held. */
function ended(game) {
  if (!game.outcome || game.outcome.result === "aborted") return "called off";
  const won = game.outcome.winners.includes(game.seat);
  return `${won ? "won" : "lost"} (${game.outcome.result.replace(/_/g, " ")})`;
}

async function showLeaderboard(variant, cursor = null) {
  const variants = (await api.get("/v1/variants")).variants;
  const page = await api.get(`/v1/leaderboard?variant=${encodeURIComponent(variant)}&limit=50`
    + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""));
  const choose = el("select", { id: "leaderboard-variant", onchange: (event) => location.assign(`?variant=${event.target.value}`) },
    variants.map((v) => el("option", { value: v.name, selected: v.name === variant }, variantName(v.name))));
  document.getElementById("page-title").textContent = `The leaderboard of ${variantName(variant)}`;
  area.replaceChildren(el("p", {}, el("label", { for: "leaderboard-variant" }, "Variant "), choose),
    page.players.length
      ? table("Players by rating (those with 5 rated games or more)", ["Place", "Player", ...RATING_HEADS], page.players.map((p) =>
        el("tr", { "data-player": p.id }, el("td", {}, String(p.place)), el("th", { scope: "row" }, playerLink(p.id, p.name)),
          ratingCells(p))))
      : el("p", { class: "note", id: "no-leaders" }, "Nobody has played 5 rated games of it yet."),
    more(page.next, (next) => showLeaderboard(variant, next)));
}

const shown = document.getElementById("player-page") ? showPlayer(query.get("id")) : showLeaderboard(query.get("variant") || "cassino");
shown.catch(showError);
