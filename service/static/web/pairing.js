// "Play now": a registered player asks the service to seat them with others
// who ask for the same variant, seat count, clock and rating (POST
// /v1/pairing), waits, with a way to stop, and is taken to the table as soon
// as the pairing has its game (GET /v1/pairing/{id}, read each second).

import { Api, el, idempotencyKey, showError, tableLink } from "./api.js";
import { variantName } from "./words.js";

const LOOK_MS = 1000;
let looking = null;

/** A clock preset's value (``per_move:N``, ``bank:N:M``, or empty) as the API takes it; null for none. */
export function clockOf(value) {
  const [kind, first, second] = value.split(":");
  if (kind === "per_move") return { per_move_seconds: Number(first) };
  if (kind === "bank") return { initial_seconds: Number(first), increment_seconds: Number(second) };
  return null;
}

/** Draw the "Play now" form for ``player`` (null: none yet), its variants and clocks those of the lobby's form. */
export function showPlayNow(player, variantSelect, clockSelect) {
  const area = document.getElementById("play-now-area");
  if (!player) {
    area.replaceChildren();
    return;
  }
  const variants = variantSelect.cloneNode(true);
  variants.id = "pair-variant";
  variants.value = variantSelect.value;
  const clocks = clockSelect.cloneNode(true);
  clocks.id = "pair-clock";
  area.replaceChildren(el("form", { id: "play-now", onsubmit: (event) => ask(event, player) },
    el("h2", {}, "Play now"),
    el("p", { class: "note" }, "Be seated with players who ask for the same game, nearest your rating first."),
    el("label", { for: "pair-variant" }, "Variant"), variants,
    el("label", { for: "pair-seats" }, "Seats"),
    el("input", { id: "pair-seats", type: "number", min: 2, max: 8, value: 2, inputmode: "numeric" }),
    el("label", { for: "pair-clock" }, "Clock"), clocks,
    el("label", { class: "check" }, el("input", { id: "pair-rated", type: "checkbox", checked: true }),
      " Rated: the result moves your rating"),
    el("button", { type: "submit", class: "primary", id: "pair" }, "Play now"),
    el("div", { id: "pairing", "aria-live": "polite" })));
}

async function ask(event, player) {
  event.preventDefault();
  const api = new Api(player.token);
  const asked = { variant: document.getElementById("pair-variant").value,
    seats: Number(document.getElementById("pair-seats").value),
    clock: clockOf(document.getElementById("pair-clock").value), rated: document.getElementById("pair-rated").checked };
  try {
    follow(api, await api.post("/v1/pairing", asked, idempotencyKey()));
    showError(null);
  } catch (error) {
    showError(error);
  }
}

/** Show how ``pairing`` stands, and open its game once it has one. */
function follow(api, pairing) {
  clearTimeout(looking);
  const waiting = pairing.status === "waiting";
  document.getElementById("pair").disabled = waiting;
  if (pairing.game_id) {
    location.assign(tableLink(pairing.game_id, null));
    return;
  }
  document.getElementById("pairing").replaceChildren(...(waiting ? [
    el("p", { id: "pairing-status" }, `Waiting for players for ${variantName(pairing.variant)}…`),
    el("button", { type: "button", id: "stop-pairing", onclick: () => stop(api, pairing.id) }, "Stop waiting")]
    : [el("p", { id: "pairing-status" }, "You stopped waiting.")]));
  if (waiting) {
    looking = setTimeout(() => api.get(`/v1/pairing/${pairing.id}`).then((now) => follow(api, now)).catch(showError), LOOK_MS);
  }
}

async function stop(api, id) {
  clearTimeout(looking);
  try {
    follow(api, await api.request("DELETE", `/v1/pairing/${id}`));
  } catch (error) {
    // Paired meanwhile: the game is the player's.
    if (error.problem && error.problem.game_id) location.assign(tableLink(error.problem.game_id, null));
    else showError(error);
  }
}
