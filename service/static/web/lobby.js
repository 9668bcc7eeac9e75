// The lobby: pick a variant, the seats and options, create the game, and
// hand out one link per seat (the token rides in the link's fragment).

import { Api, el, replayLink, showError, tableLink } from "./api.js";

const api = new Api();
const form = document.getElementById("new-game");
const seatList = document.getElementById("seat-list");
let variants = [];
const GAME_NAMES = { cassino: "Cassino and its family", "mass-cool-casino": "Mass Cool Casino" };

function variant() {
  return variants.find((v) => v.name === form.variant.value);
}

function seatRow(name, computer = false) {
  const n = seatList.children.length;
  return el("li", { class: "seat-row" },
    el("label", { for: `seat-${n}` }, `Seat ${n}`),
    el("input", { id: `seat-${n}`, class: "seat-name-input", value: name, maxlength: 40, required: true }),
    el("label", { class: "check" },
      el("input", { type: "checkbox", class: "seat-computer", checked: computer }), "computer"));
}

function setSeats(rows) {
  seatList.replaceChildren();
  for (const [name, computer] of rows) seatList.append(seatRow(name, computer));
  seatsChanged();
}

function seatsChanged() {
  const counts = variant() ? variant().players : [2];
  const n = seatList.children.length;
  document.getElementById("add-seat").disabled = !counts.some((c) => c > n);
  document.getElementById("remove-seat").disabled = !counts.some((c) => c < n);
  const dealer = form.first_dealer;
  const was = dealer.value;
  dealer.replaceChildren(el("option", { value: "" }, "Drawn at random"),
    ...[...Array(n).keys()].map((i) => el("option", { value: i }, `Seat ${i}`)));
  if (was !== "" && Number(was) < n) dealer.value = was;
}

/** Whether the variant's game has a target score (Cassino's family has; Mass Cool Casino has not). */
function hasTarget(v) {
  return Boolean(v) && "target" in v.options;
}

function variantChanged() {
  const v = variant();
  document.getElementById("variant-about").textContent = v ? `${v.description} Seats: ${v.players.join(", ")}.` : "";
  document.getElementById("target-field").hidden = !hasTarget(v);
  form.target.value = hasTarget(v) && v.options.target !== null ? v.options.target : "";
  const counts = v ? v.players : [2];
  const n = seatList.children.length;
  if (!counts.includes(n)) {
    const want = counts[0];
    const rows = [...seatList.children].slice(0, want).map(rowValue);
    while (rows.length < want) rows.push([`Player ${rows.length + 1}`, false]);
    setSeats(rows);
  } else seatsChanged();
}

function rowValue(row) {
  return [row.querySelector(".seat-name-input").value, row.querySelector(".seat-computer").checked];
}

function request() {
  let options;
  try {
    options = JSON.parse(form.options.value || "{}");
  } catch (error) {
    throw new Error("The other options are not valid JSON.");
  }
  if (hasTarget(variant())) options.target = form.target.value === "" ? null : Number(form.target.value);
  const seats = [...seatList.children].map(rowValue).map(([name, computer]) => (computer ? { name, computer } : { name }));
  const dealer = form.first_dealer.value;
  return { variant: form.variant.value, seats, options, first_dealer: dealer === "" ? null : Number(dealer) };
}

function linkRow(label, href, note) {
  return el("li", {},
    el("span", { class: "link-label" }, label),
    href ? el("a", { href, class: "seat-link" }, href.includes("#token=") ? "Open this seat's table" : "Open") : null,
    href ? el("input", { readonly: true, value: href, "aria-label": `Link for ${label}`, class: "link-text" }) : null,
    note ? el("span", { class: "note" }, note) : null);
}

function showLinks(created) {
  document.getElementById("links").replaceChildren(
    el("h2", {}, "The game is ready"),
    el("p", { class: "note" }, "Give each player their own link: it holds their seat's secret token, and is shown only now."),
    el("ul", { class: "links", id: "seat-links" },
      created.seats.map((s) => linkRow(`${s.name} (seat ${s.seat})`, s.token ? tableLink(created.id, s.token) : null,
        s.token ? null : "played by the computer")),
      linkRow("Spectators", tableLink(created.id, null)),
      linkRow("Replay (once the game is over)", replayLink(created.id))));
}

/** Create the game the form describes; the answer (null when refused, the service's sentence then shown). */
async function create() {
  try {
    const created = await api.post("/v1/games", request());
    showError(null);
    return created;
  } catch (error) {
    showError(error);
    return null;
  }
}

async function start() {
  variants = (await api.get("/v1/variants")).variants;
  // One group of variants for each game, in the order the service lists them.
  const games = [...new Set(variants.map((v) => v.game_type || "cassino"))];
  form.variant.replaceChildren(...games.map((game) => el("optgroup", { label: GAME_NAMES[game] || game },
    variants.filter((v) => (v.game_type || "cassino") === game).map((v) => el("option", { value: v.name }, v.name)))));
  form.variant.value = variants.some((v) => v.name === "cassino") ? "cassino" : variants[0].name;
  setSeats([["Player 1", false], ["Player 2", false]]);
  variantChanged();
}

form.variant.addEventListener("change", variantChanged);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const created = await create();
  if (created) showLinks(created);
});
document.getElementById("add-seat").addEventListener("click", () => {
  seatList.append(seatRow(`Player ${seatList.children.length + 1}`));
  seatsChanged();
});
document.getElementById("remove-seat").addEventListener("click", () => {
  seatList.lastElementChild.remove();
  seatsChanged();
});
// Alone against the computer: the first seat keeps the name given it, the
// others are the computer's, and the person goes straight to their table.
document.getElementById("alone").addEventListener("click", async () => {
  const others = seatList.children.length - 1;
  const [name] = rowValue(seatList.firstElementChild);
  setSeats([[name, false], ...Array.from({ length: others }, (_, i) => [others > 1 ? `Computer ${i + 1}` : "Computer", true])]);
  const created = await create();
  if (created) location.assign(tableLink(created.id, created.seats[0].token));
});
start().catch(showError);
