// What every game's table does the same way, whatever the game: it holds
// the caller's view and legal moves, reads them again after each event and
// each command (an older answer never replaces a newer one), sends commands
// with an Idempotency-Key, keeps the event log from the live stream, and
// offers what every game has: the undo (asking, answering), resigning and
// calling the game off, the clock, and after the game its ratings and a
// rematch (offered, accepted, then opened). The game's own
// table (cassinotable.js, mcctable.js) draws the page and makes its moves.

import { Api, el, idempotencyKey, keepingFocus, showError, tableLink } from "./api.js";
import { clockPanel } from "./clock.js";
import { withFaces } from "./cards.js";
import { describe } from "./events.js";
import { ratingChanges } from "./ratings.js";
import { LiveEvents } from "./stream.js";
import { listed, readerWords, seatName } from "./words.js";

const REMATCH_LOOK_MS = 2000; // how often a seat's finished game is read again, its stream over, for a rematch

export class Seat {
  /**
   * The caller's seat at game ``id`` (or a spectator's place). ``hooks``:
   * ``hasMoves(view)``, whether the caller may have moves now (then
   * ``/moves`` is read); ``render()``, draw the page from ``view``,
   * ``moves`` and ``truncated``; ``sent()``, forget whatever was chosen,
   * once a command has been sent. ``watching``: why the page has no seat
   * ("no-token", "refused"), or null. ``types``: the event types to listen
   * for, and ``moveTypes``: the game's moves in its log (or null), which
   * the page that opens the table reads from games.js (``eventTypes``,
   * ``movesOf``) by the game's type.
   */
  constructor(api, id, hooks, { watching = null, types, moveTypes } = {}) {
    this.api = api;
    this.watching = watching; // why a page without a seat shows the spectators' view (see watchingNote)
    this.base = `/v1/games/${id}`;
    this.id = id;
    this.types = types;
    this.moveTypes = moveTypes;
    this.hooks = hooks;
    this.view = null;
    this.moves = [];
    this.truncated = false;
    this.events = [];
    this.pending = null;
    this.confirming = null; // "resign" or "abort" while the seat is asked to confirm it
    this.rematchAwaited = false; // whether this page saw the rematch offered before it was made
  }

  async refresh() {
    const fresh = await this.api.get(this.base);
    const list = this.hooks.hasMoves(fresh) ? await this.api.get(`${this.base}/moves`) : null;
    if (this.view && fresh.version < this.view.version) return; // an older answer overtaken by a newer one
    this.view = fresh;
    const current = list !== null && list.version === fresh.version;
    this.moves = current ? list.moves : [];
    this.truncated = current ? list.truncated : false;
    if (list && !current) this.refreshSoon(); // the game moved on between the two answers
    this.hooks.render();
    this.followRematch();
  }

  /**
   * A finished game's stream has ended: a player's seat (a rematch is
   * players') reads the view again now and then, until its rematch is made,
   * and then opens the new game's table.
   */
  followRematch() {
    const view = this.view;
    const players = Boolean(this.api.token) && this.api.token.startsWith("player.");
    if (view.status !== "finished" || view.you === undefined || !players) return;
    const made = view.rematch && view.rematch.game_id;
    if (made && this.rematchAwaited) {
      this.rematchAwaited = false;
      openWhenThere(made);
    } else if (!made) {
      this.rematchAwaited = this.rematchAwaited || Boolean(view.rematch);
      clearTimeout(this.pending);
      this.pending = setTimeout(() => this.refresh().catch(showError), REMATCH_LOOK_MS);
    }
  }

  /**
   * The caller's moves narrowed by ``query`` (``card``, ``action``,
   * ``target``: a list), the page after ``cursor`` when given; null when
   * the game has moved on from the view shown.
   */
  async narrowedMoves(query, cursor = null) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) for (const one of [].concat(value)) params.append(name, one);
    if (cursor) params.set("cursor", cursor);
    const list = await this.api.get(`${this.base}/moves?${params}`);
    return this.view && list.version === this.view.version ? list : null;
  }

  refreshSoon() {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.refresh().catch(showError), 40);
  }

  /** Send a command; the service's sentence shows if it is refused. */
  async command(path, body = {}) {
    this.confirming = null;
    try {
      await this.api.post(`${this.base}/${path}`, body, idempotencyKey());
      showError(null);
      this.hooks.sent();
    } catch (error) {
      showError(error);
    }
    await this.refresh().catch(showError);
  }

  /** Show the game now and follow it live. */
  start() {
    this.refresh().catch(showError);
    const over = () => this.view !== null && this.view.status === "finished";
    new LiveEvents(this.api, this.id, (event) => this.onEvent(event), over, this.types).open();
  }

  /**
   * Draw the page from ``view``, the same frame for every game: the role
   * line, the game's areas from ``areas(you)`` (``status``, ``seats``,
   * ``table``, ``hand``: an element each; ``actions()``, asked only of a
   * seat, and ``results``: lists), and the version the page shows.
   */
  paint(areas) {
    const view = this.view;
    if (!view) return;
    keepingFocus(() => {
      const you = view.you;
      const drawn = areas(you);
      document.getElementById("role").textContent = you === undefined ? "Watching" : `Seat ${you}: ${view.seats[you].name}`;
      document.getElementById("status-area").replaceChildren(...waitingForPlayers(view, this.id), drawn.status);
      document.getElementById("clock-area").replaceChildren(...clockPanel(view));
      document.getElementById("seats-area").replaceChildren(drawn.seats);
      document.getElementById("table-area").replaceChildren(drawn.table);
      document.getElementById("recent").replaceChildren(...justPlayedArea(this));
      document.getElementById("hand-area").replaceChildren(drawn.hand);
      document.getElementById("actions").replaceChildren(...(you === undefined ? [] : [...drawn.actions(), ...endControls(this)]));
      document.getElementById("results").replaceChildren(...drawn.results.filter(Boolean), ratingChanges(view) ?? "");
      document.body.dataset.version = String(view.version);
    });
  }

  onEvent(event) {
    this.events.push(event);
    const who = readerWords(this.view, this.view ? this.view.you : undefined, { isolate: true });
    document.getElementById("log").append(
      el("li", { "data-version": event.version }, withFaces(`${event.version}. ${describe(event, who)}`)));
    this.refreshSoon();
  }

  /** Whether this seat may ask to take back its latest move now (see latestMoveIsMine). */
  mayTakeBack() {
    const moves = this.moveTypes;
    return Boolean(moves) && latestMoveIsMine(this.events, this.view.you, moves);
  }

  /**
   * Whether this seat may call the game off now: before the first play, as
   * the whole log shows it (so only once the page has the log up to the view).
   */
  mayAbort() {
    const moves = this.moveTypes;
    const last = this.events.at(-1);
    return Boolean(moves) && Boolean(last) && last.version >= this.view.version && !playStands(this.events, moves);
  }

  /** Ask the seat to confirm ``what`` ("resign", "abort"), or (null) no longer. */
  confirm(what) {
    this.confirming = what;
    this.hooks.render();
  }

  /** Whether the game awaits ``command`` from this seat now (the view's ``awaiting``). */
  awaits(command) {
    const awaiting = this.view.awaiting;
    return Boolean(awaiting) && awaiting.command === command && awaiting.seats.includes(this.view.you);
  }
}

/**
 * What a page without a seat says in place of the hand: that it shows what
 * a spectator sees, why (``why``: the tab has no seat's token, or the one
 * it had was refused), and how a player takes their seat again.
 */
/**
 * While a seat is open, what the table waits for, said first: a player to
 * join, by the game's invitation link or from the lobby's open games.
 */
function waitingForPlayers(view, id) {
  const open = view.seats.filter((s) => s.open).map((s) => s.seat);
  if (!open.length || view.status !== "waiting") return [];
  const link = `${location.origin}/play/?join=${encodeURIComponent(id)}`;
  const seats = open.length > 1 ? `seats ${open.join(", ")} are open` : `seat ${open[0]} is open`;
  return [el("div", { id: "waiting", class: "waiting" },
    el("h2", {}, open.length > 1 ? "Waiting for players to join" : "Waiting for a player to join"),
    el("p", {}, `Nobody can deal yet: ${seats}. Send this invitation link to whoever you want to play with,`
      + " or wait for someone to join from the lobby's open games (if you listed the game there)."),
    el("label", { for: "invitation" }, "Invitation link"),
    el("input", { id: "invitation", readonly: true, value: link, class: "link-text" }),
    el("p", {}, el("a", { href: "/play/" }, "The lobby's open games")))];
}

export function watchingNote(why) {
  const reason = why === "refused"
    ? "The seat's token this tab had is not one of this game's, so it shows what a spectator sees: no hand."
    : "This tab holds no seat's token, so it shows what a spectator sees: no hand.";
  return el("div", { class: "note watching", id: "watching" },
    el("p", {}, reason),
    el("p", {}, "A seat's token stays in the tab that opened the seat's link. To play from here, open your"
      + " seat's own link again: the one the lobby gave, ending in #token=…. The tab that has your seat"
      + " shows that link under “This seat's link”. A seat you joined as a player opens from “Your games”"
      + " in the lobby, in this browser."));
}

/**
 * What the table shows as just played: the latest move of each other seat
 * since the reader's own latest move (for a spectator, of every seat),
 * since the last fresh deal, less moves taken back; oldest first.
 */
export function justPlayed(events, you, moves) {
  const latest = new Map();
  for (const event of events) {
    const { type, data } = event;
    if (moves.fresh.includes(type)) latest.clear();
    else if (moves.undone.includes(type)) latest.delete(data.seat);
    else if (moves.plays.includes(type)) {
      if (data.seat === you) latest.clear();
      else latest.set(data.seat, event);
    }
  }
  return [...latest.values()];
}

/**
 * Whether the game's latest move is the reader's own and nothing has
 * happened since but asking and answering about taking it back: the only
 * move a seat may ask to take back (docs/rules.md, "Undoing a play"). A
 * deal, a new round, a card drawn or another seat's move come in between
 * otherwise, and the service would refuse.
 */
export function latestMoveIsMine(events, you, moves) {
  for (let i = events.length - 1; i >= 0; i--) {
    const { type, data } = events[i];
    if (moves.asking.includes(type)) continue;
    return moves.plays.includes(type) && data.seat === you;
  }
  return false;
}

function justPlayedArea(seat) {
  const moves = seat.moveTypes;
  const shown = moves ? justPlayed(seat.events, seat.view.you, moves) : [];
  if (!shown.length) return [];
  const who = readerWords(seat.view, seat.view.you, { isolate: true });
  return [el("h2", {}, seat.view.you === undefined ? "Just played" : "Since your last move"),
    el("ul", { class: "just-played", id: "just-played" },
      shown.map((event) => el("li", { "data-seat": event.data.seat, "data-version": event.version }, withFaces(describe(event, who)))))];
}

/**
 * Whether a play stands in the log ``events`` (from its start): each
 * take-back removes the latest play, so a game whose every play was taken
 * back may still be called off (docs/rules.md, "Aborting").
 */
export function playStands(events, moves) {
  let standing = 0;
  for (const { type } of events) {
    if (moves.plays.includes(type)) standing += 1;
    else if (moves.undone.includes(type)) standing -= 1;
  }
  return standing > 0;
}

/**
 * Resigning (while every seat is held, and for a seat still in the game)
 * and calling the game off (before the first play), each asked twice: once
 * to offer it, once to confirm it.
 */
function endControls(seat) {
  const view = seat.view;
  if (view.status === "finished") return rematchControls(seat);
  const mayResign = view.seats.every((s) => !s.open) && !view.seats[view.you].out;
  const mayAbort = seat.mayAbort();
  const notYet = (key) => button("Not yet", key, () => seat.confirm(null));
  if (seat.confirming === "resign" && mayResign) {
    return [el("p", { class: "note" }, "Resigning ends the game now, and your side loses it."),
      button("Resign now", "resign-sure", () => seat.command("resign"), { class: "danger" }), notYet("resign-no")];
  }
  if (seat.confirming === "abort" && mayAbort) {
    return [el("p", { class: "note" }, "Calling the game off ends it now, with no winner."),
      button("Call it off now", "abort-sure", () => seat.command("abort"), { class: "danger" }), notYet("abort-no")];
  }
  return [mayAbort ? button("Call the game off…", "abort", () => seat.confirm("abort")) : null,
    mayResign ? button("Resign…", "resign", () => seat.confirm("resign")) : null].filter(Boolean);
}

/** After the game: offer a rematch, or accept the one offered; then the way to the new game. */
function rematchControls(seat) {
  const { rematch, you } = seat.view;
  if (rematch && rematch.game_id) {
    return [el("a", { href: tableLink(rematch.game_id, null), class: "button primary", id: "rematch-link" }, "Open the rematch")];
  }
  const offer = () => seat.command("rematch");
  if (!rematch) return [button("Offer a rematch", "rematch", offer)];
  if (rematch.accepted.includes(you)) {
    const by = rematch.offered_by === you ? "You offered" : "You accepted";
    return [el("p", { class: "note", id: "rematch-note" }, `${by} a rematch; waiting for the others to accept.`)];
  }
  const who = listed(rematch.accepted.map((s) => seatName(seat.view, s)));
  return [el("p", { class: "note", id: "rematch-note" }, `${who} would play again.`),
    button("Accept the rematch", "rematch-accept", offer, { class: "primary" })];
}

/** Open game ``id``'s table once the service shows it (it is created just after the answer that names it). */
function openWhenThere(id, tries = 20) {
  new Api().get(`/v1/games/${encodeURIComponent(id)}`)
    .then(() => location.assign(tableLink(id, null)))
    .catch((error) => (error.status === 404 && tries > 1 ? setTimeout(() => openWhenThere(id, tries - 1), 250) : showError(error)));
}

export function button(label, key, onclick, extra = {}) {
  return el("button", { type: "button", "data-key": key, onclick, ...extra }, label);
}

/**
 * Asking to take back one's last ``word`` ("play", "move"), offered only
 * while that is the game's latest move, and answering another's asking,
 * offered while the game awaits this seat's answer.
 */
export function undoControls(seat, word) {
  const view = seat.view;
  const you = view.you;
  const asked = view.undo_request;
  const send = (path, body) => () => seat.command(path, body);
  if (!asked) {
    if (!seat.mayTakeBack()) return [];
    const label = view.options.undo === "free" ? `Take back my last ${word}` : `Ask to take back my last ${word}`;
    return [button(label, "undo", send("undo"))];
  }
  if (asked.seat === you) return [el("p", { class: "note" }, `You asked to take your ${word} back; the others are answering.`)];
  if (!seat.awaits("answer_undo")) return [el("p", { class: "note" }, "You agreed to the take-back.")];
  return [
    el("p", { class: "note" }, `${seatName(view, asked.seat)} asks to take their last ${word} back.`),
    button("Agree", "undo-yes", send("undo/answer", { accept: true })),
    button("Refuse", "undo-no", send("undo/answer", { accept: false })),
  ];
}
