// The lobby: pick a variant, the seats and options, create the game, and
// hand out one link per seat (the token rides in the link's fragment). A
// seat may be left open, for a player to join from the lobby (or by the
// game's invitation link, for a game not listed there), or taken by this
// browser's player (players.js), whose games are then listed here.

import { Api, el, replayLink, showError, tableLink } from "./api.js";
import { GAME_TYPES, gameTypeOf } from "./games.js";
import { clockOf, showPlayNow } from "./pairing.js";
import { currentPlayer, invitationLink, readSoon, startPlayers } from "./players.js";
import { variantName } from "./words.js";

const api = new Api();
const form = document.getElementById("new-game");
const seatList = document.getElementById("seat-list");
let variants = [];

function variant() {
  return variants.find((v) => v.name === form.variant.value);
}

/** Who may sit in a seat: a person given its link, the computer, a player who joins, or this browser's player. */
function seatKinds() {
  const player = currentPlayer();
  return [["person", "a person, by a link"], ["computer", "the computer"], ["open", "open: a player joins"],
    ...(player ? [["me", `me (${player.name})`]] : [])];
}

function kindOptions(kind) {
  return seatKinds().map(([value, words]) => el("option", { value, selected: value === kind }, words));
}

/** Whether a seat of ``kind`` takes no name here: an open one, or this browser's player's (sitting under the player's name). */
function createdOpen(kind) {
  return kind === "open" || kind === "me";
}

function seatRow(name, kind = "person") {
  const n = seatList.children.length;
  const select = el("select", { class: "seat-kind", id: `seat-kind-${n}`, "aria-label": `Who sits in seat ${n}` },
    kindOptions(kind));
  const input = el("input", { id: `seat-${n}`, class: "seat-name-input", value: name, maxlength: 40, required: true,
    disabled: createdOpen(kind) });
  select.addEventListener("change", () => {
    input.disabled = createdOpen(select.value);
    seatsChanged();
  });
  return el("li", { class: "seat-row" }, el("label", { for: `seat-${n}` }, `Seat ${n}`), input, select);
}

function setSeats(rows) {
  seatList.replaceChildren();
  for (const [name, kind] of rows) seatList.append(seatRow(name, kind));
  seatsChanged();
}

function seatsChanged() {
  const counts = variant() ? variant().players : [2];
  const n = seatList.children.length;
  document.getElementById("listed-field").hidden = ![...seatList.children].some((row) => createdOpen(rowValue(row)[1]));
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
    while (rows.length < want) rows.push([`Player ${rows.length + 1}`, "person"]);
    setSeats(rows);
  } else seatsChanged();
}

function rowValue(row) {
  return [row.querySelector(".seat-name-input").value, row.querySelector(".seat-kind").value];
}

function request() {
  let options;
  try {
    options = JSON.parse(form.options.value || "{}");
  } catch (error) {
    throw new Error("The other options are not valid JSON.");
  }
  if (hasTarget(variant())) options.target = form.target.value === "" ? null : Number(form.target.value);
  const kinds = [...seatList.children].map(rowValue);
  if (kinds.filter(([, kind]) => kind === "me").length > 1) throw new Error("A player holds one seat of a game: choose “me” for one seat only.");
  const seats = kinds.map(([name, kind]) => (kind === "me" ? { me: true } : kind === "open" ? { open: true }
    : kind === "computer" ? { name, computer: true } : { name }));
  const dealer = form.first_dealer.value;
  const made = { variant: form.variant.value, seats, options, first_dealer: dealer === "" ? null : Number(dealer) };
  const clock = clockOf(form.clock.value);
  if (clock) made.clock = clock;
  if (seats.some((seat) => seat.open)) made.listed = form.listed.checked;
  return made;
}

/** Say what the service refused, next to the buttons that sent it (null: nothing to say). */
function formError(error) {
  const box = document.getElementById("form-error");
  box.textContent = error ? error.message : "";
  box.hidden = !error;
}

/** The seat this browser's player sits in at the game the form creates, or -1. */
function mySeat() {
  return [...seatList.children].findIndex((row) => row.querySelector(".seat-kind").value === "me");
}

function linkRow(label, href, note) {
  return el("li", {},
    el("span", { class: "link-label" }, label),
    href ? el("a", { href, class: "seat-link" }, href.includes("#token=") ? "Open this seat's table" : "Open") : null,
    href ? el("input", { readonly: true, value: href, "aria-label": `Link for ${label}`, class: "link-text" }) : null,
    note ? el("span", { class: "note" }, note) : null);
}

/** What a seat's row says beside its link: who plays it, when it has no link of its own. */
function seatNote(seat, mine, listed) {
  if (seat.seat === mine) return "yours: it is among your games";
  if (seat.token) return null;
  if (seat.name === null) return listed ? "open: a player joins it from the lobby" : "open: a player joins it by the invitation link";
  return "played by the computer";
}

function showLinks(created, mine, listed) {
  const open = created.seats.some((s) => s.name === null && s.seat !== mine);
  document.getElementById("links").replaceChildren(
    el("h2", {}, "The game is ready"),
    el("p", { class: "note" }, "Give each player their own link: it holds their seat's secret token, and is shown only now."),
    el("ul", { class: "links", id: "seat-links" },
      created.seats.map((s) => linkRow(`${s.name ?? (s.seat === mine ? currentPlayer().name : "Open")} (seat ${s.seat})`,
        s.token ? tableLink(created.id, s.token) : s.seat === mine ? tableLink(created.id, null) : null,
        seatNote(s, mine, listed))),
      open ? linkRow("Invitation to the open seats", invitationLink(created.id)) : null,
      linkRow("Spectators", tableLink(created.id, null)),
      linkRow("Replay (once the game is over)", replayLink(created.id))));
}

/**
 * Create the game the form describes, this browser's player sitting in a
 * seat "me" from the start (the creation sends the player's token); the
 * answer (null when refused, the service's sentence then shown by the buttons).
 */
async function create() {
  try {
    const made = request();
    const player = currentPlayer();
    const creator = made.seats.some((seat) => seat.me) ? new Api(player.token) : api;
    const created = await creator.post("/v1/games", made);
    formError(null);
    return created;
  } catch (error) {
    formError(error);
    return null;
  }
}

async function start() {
  variants = (await api.get("/v1/variants")).variants;
  // One group of variants for each game, in the order the service lists them.
  const games = [...new Set(variants.map(gameTypeOf))];
  form.variant.replaceChildren(...games.map((game) => el("optgroup", { label: (GAME_TYPES[game] || {}).name || game },
    variants.filter((v) => gameTypeOf(v) === game).map((v) => el("option", { value: v.name },
      variantName(v.name))))));
  form.variant.value = variants.some((v) => v.name === "cassino") ? "cassino" : variants[0].name;
  // A player who has chosen a name sits down in seat 0, and waits for someone to take seat 1.
  setSeats(currentPlayer() ? [[currentPlayer().name, "me"], ["Player 2", "open"]]
    : [["Player 1", "person"], ["Player 2", "person"]]);
  variantChanged();
  showPlayNow(currentPlayer(), form.variant, form.clock);
}

form.variant.addEventListener("change", variantChanged);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const mine = mySeat();
  const created = await create();
  if (!created) return;
  if (mine >= 0 && !created.seats.some((seat) => seat.token)) {
    // No seat link to hand out: the creator goes to the table, which says whom it waits for and shows the invitation.
    location.assign(tableLink(created.id, null));
    return;
  }
  if (mine >= 0) readSoon();
  showLinks(created, mine, form.listed.checked);
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
  setSeats([[name, "person"], ...Array.from({ length: others }, (_, i) => [others > 1 ? `Computer ${i + 1}` : "Computer", "computer"])]);
  const created = await create();
  if (created) location.assign(tableLink(created.id, created.seats[0].token));
});
startPlayers((player) => {
  // Once registered, the player may take a seat of the games made here, and ask to play now.
  seatList.querySelectorAll(".seat-kind").forEach((select) => select.replaceChildren(...kindOptions(select.value)));
  showPlayNow(player, form.variant, form.clock);
});
start().catch(showError);
