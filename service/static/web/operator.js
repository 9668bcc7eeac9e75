// The operator's list of games, with the filters of GET /v1/games; each
// game opens in the replay page, which uses the same token.

import { Api, el, operatorToken, replayLink, setOperatorToken, showError } from "./api.js";
import { MCC_STATUS } from "./mccview.js";
import { STATUS } from "./tableview.js";

/** Every game's statuses, in the order the API's GameStatus lists them. */
const STATUSES = ["waiting", "in_progress", "hand_over", "betting", "reshuffle", "finished"];
const GAMES_OF = (status) => [status in STATUS ? "Cassino" : null, status in MCC_STATUS ? "Mass Cool Casino" : null]
  .filter(Boolean).join(" and ");

const filters = document.getElementById("filters");
// One box per status, from the lists the tables keep (tableview.js, mccview.js).
document.getElementById("status-filter").append(...STATUSES.map((status) =>
  el("label", { class: "check", title: `${STATUS[status] || MCC_STATUS[status]} (${GAMES_OF(status)})` },
    el("input", { type: "checkbox", name: "status", value: status }), status.replace(/_/g, " "))));
const rows = document.querySelector("#games tbody");
const more = document.getElementById("more");
let next = null;

function query() {
  const params = new URLSearchParams();
  for (const box of filters.querySelectorAll("input[name=status]:checked")) params.append("status", box.value);
  for (const name of ["variant", "player"]) {
    const value = filters.elements[name].value.trim();
    if (value) params.append(name, value);
  }
  for (const name of ["created_since", "created_before", "finished_since", "finished_before"]) {
    const value = filters.elements[name].value;
    if (value) params.append(name, new Date(value).toISOString());
  }
  return params;
}

function row(game) {
  const when = (t) => (t ? new Date(t).toLocaleString() : "—");
  return el("tr", { "data-game": game.id },
    el("td", {}, el("a", { href: replayLink(game.id) }, game.id.slice(0, 8))),
    el("td", {}, game.variant), el("td", {}, game.status.replace(/_/g, " ")),
    el("td", {}, game.players.join(", ")), el("td", {}, when(game.created_at)), el("td", {}, when(game.finished_at)));
}

async function list(params, append) {
  const api = new Api(operatorToken());
  try {
    const page = await api.get(`/v1/games?${params}`);
    if (!append) rows.replaceChildren();
    rows.append(...page.games.map(row));
    if (!page.games.length && !append) rows.append(el("tr", {}, el("td", { colspan: 6 }, "No game matches.")));
    next = page.next ? new URLSearchParams([...[...params].filter(([k]) => k !== "cursor"), ["cursor", page.next]]) : null;
    more.hidden = !next;
    showError(null);
  } catch (error) {
    showError(error);
  }
}

document.getElementById("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setOperatorToken(document.getElementById("token").value.trim());
  document.getElementById("token").value = "";
  list(query(), false);
});
document.getElementById("forget").addEventListener("click", () => {
  setOperatorToken(null);
  rows.replaceChildren();
});
filters.addEventListener("submit", (event) => {
  event.preventDefault();
  list(query(), false);
});
more.addEventListener("click", () => next && list(next, true));
if (operatorToken()) list(query(), false);
