// Replay and audit: the game at any version with every hand face up, its
// events beside it, the shuffle commitments and their reveals, the verify
// report and the transcript. For the operator (token in the fragment, or
// given on the operator's page), or for anyone once the game is over.

import { Api, el, gameIdFromPage, operatorToken, seatToken, showError } from "./api.js";
import { cardFace, withFaces } from "./cards.js";
import { describe } from "./events.js";
import { gameType, gameTypeOf } from "./games.js";
import { readerWords } from "./words.js";

const gameId = gameIdFromPage();
const api = new Api(seatToken(gameId) || operatorToken());
const base = `/v1/games/${gameId}`;
const slider = document.getElementById("version");

let latest = null;
let events = [];
let game = null; // the registry's entry for the view's game type (games.js)
// The game's table as the replay draws it (its view module's REPLAY): its
// header, its seats, its middle, and its outcome once over (from the view
// and the events up to it), in the table's words.
let parts = null;
let asked = 0; // the newest version asked for: older answers are dropped


async function go(version) {
  const v = Math.max(1, Math.min(latest.version, version));
  asked = v;
  slider.value = String(v);
  document.getElementById("version-out").textContent = `${v} of ${latest.version}`;
  const then = await api.get(`${base}/replay?version=${v}`);
  if (asked !== v) return;
  // Every hand and the stock, where the replay shows them to this caller.
  // The outcome in the same words as the table's, once the game is over at this version.
  const result = parts.result(then, events.filter((e) => e.version <= v));
  document.getElementById("status-area").replaceChildren(parts.header(then), ...(result ? [result] : []));
  document.getElementById("seats-area").replaceChildren(parts.seats(then, { hands: then.hands || null }));
  document.getElementById("table-area").replaceChildren(parts.table(then));
  document.getElementById("stock-area").replaceChildren(
    el("h2", {}, `Stock (${then.deck_count})${then.stock ? ", top first" : ""}`),
    then.stock ? el("div", { class: "stock-cards" }, then.stock.map((c) => cardFace(c))) : null);
  for (const item of document.querySelectorAll("#events li")) {
    const here = Number(item.dataset.version) === v;
    item.classList.toggle("current", here);
    if (here) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  const mark = document.querySelector("#events li.current");
  if (mark) mark.scrollIntoView({ block: "nearest" });
  document.body.dataset.version = String(v);
  history.replaceState(null, "", `${location.pathname}?game=${encodeURIComponent(gameId)}&version=${v}`);
}

function eventList() {
  document.getElementById("events").replaceChildren(...events.map((e) => el("li", { "data-version": e.version },
    el("button", { type: "button", class: "link", onclick: () => go(e.version).catch(showError) },
      withFaces(`${e.version}. ${describe(e, readerWords(latest, undefined, { isolate: true }))}`)),
    e.metadata ? el("small", { class: "actor" }, ` ${e.metadata.actor}`) : null)));
}

async function sha256Hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function shuffles() {
  const kind = game.shuffles; // the events that commit a shuffle's seed and reveal it
  document.getElementById("shuffle-number").textContent = kind.heading;
  const revealed = new Map(events.filter((e) => e.type === kind.revealed).map((e) => [e.data[kind.number], e.data.seed]));
  const rows = [];
  for (const e of events.filter((x) => x.type === kind.committed)) {
    const { [kind.number]: hand, commitment } = e.data;
    const seed = revealed.get(hand);
    let check = "not revealed yet";
    if (seed) check = (await sha256Hex(seed)) === commitment ? "the seed matches" : "the seed does NOT match";
    rows.push(el("tr", { "data-hand": hand }, el("td", {}, String(hand)), el("td", { class: "hex" }, commitment),
      el("td", { class: "hex" }, seed || "—"), el("td", {}, check)));
  }
  document.querySelector("#shuffles tbody").replaceChildren(...rows);
}

async function verify(operator) {
  const box = document.getElementById("verify");
  if (!operator) {
    box.replaceChildren(el("p", { class: "note" }, "Only the operator can verify a game."));
    return;
  }
  const report = await api.get(`${base}/verify`);
  const failed = report.checks.filter((c) => !c.ok);
  box.replaceChildren(
    el("p", { id: "verify-result", class: report.ok ? "ok" : "bad", "data-ok": String(report.ok) },
      report.ok ? `Sound: every check passed, up to version ${report.version}.`
        : `Not sound: ${failed.length} check${failed.length === 1 ? "" : "s"} failed.`),
    el("ul", { class: "checks" }, report.checks.map((c) => el("li", { class: c.ok ? "ok" : "bad" },
      `${c.name}: ${c.ok ? "passed" : "FAILED"}`,
      c.ok ? null : ` — ${c.detail}${c.first_bad_version ? ` (first at version ${c.first_bad_version})` : ""}`))));
}

/** The game as ``casino export`` writes it, for the operator; else the log as this caller sees it. */
function transcript(operator) {
  const last = events.at(-1);
  const document_ = operator ? {
    format: "casino-transcript",
    format_version: 1,
    game_id: gameId,
    variant: latest.variant || gameTypeOf(latest), // Mass Cool Casino's one variant is named after the game
    options: latest.options,
    seats: latest.seats.map((s) => ({ seat: s.seat, name: s.name, team: s.team })),
    version: last.version,
    head: last.hash,
    events: events.map((e) => ({ version: e.version, type: e.type, schema_version: e.schema_version, data: e.data,
      metadata: e.metadata, recorded_at: e.recorded_at, hash: e.hash, chain: e.chain })),
  } : { game_id: gameId, events };
  const blob = new Blob([JSON.stringify(document_, null, 1)], { type: "application/json" });
  const name = `${operator ? "transcript" : "events"}-${gameId}.json`;
  document.getElementById("transcript").replaceChildren(
    el("a", { href: URL.createObjectURL(blob), download: name, id: "transcript-link" },
      operator ? "Download the transcript" : "Download the event log"),
    el("span", { class: "note" }, operator ? " (casino replay FILE checks it)" : " (the operator's transcript also holds the hashes)"));
}

async function start() {
  latest = await api.get(base);
  game = gameType(gameTypeOf(latest));
  parts = (await game.view()).REPLAY;
  const operator = "hands" in latest;
  if (!operator && latest.status !== "finished") {
    throw new Error("The replay opens once the game is over, or with the operator's token.");
  }
  events = await api.allEvents(gameId);
  slider.max = String(latest.version);
  eventList();
  // The audit first: a game whose events were tampered with may not replay.
  await verify(operator).catch(showError);
  transcript(operator);
  await shuffles();
  const wanted = Number(new URLSearchParams(location.search).get("version")) || latest.version;
  await go(wanted);
}

slider.addEventListener("input", () => go(Number(slider.value)).catch(showError));
const step = (id, to) => document.getElementById(id).addEventListener("click", () => go(to()).catch(showError));
step("first", () => 1);
step("prev", () => Number(slider.value) - 1);
step("next", () => Number(slider.value) + 1);
step("last", () => latest.version);
if (!gameId) showError(new Error("This link names no game."));
else start().catch(showError);
