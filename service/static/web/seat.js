// What every game's table does the same way, whatever the game: it holds
// the caller's view and legal moves, reads them again after each event and
// each command (an older answer never replaces a newer one), sends commands
// with an Idempotency-Key, keeps the event log from the live stream, and
// offers the undo (asking, answering) that every game has. The game's own
// table (cassinotable.js, mcctable.js) draws the page and makes its moves.

import { el, keepingFocus, showError } from "./api.js";
import { describe, eventTypes } from "./events.js";
import { LiveEvents } from "./stream.js";
import { seatName } from "./words.js";

export class Seat {
  /**
   * The caller's seat at game ``id`` (or a spectator's place). ``hooks``:
   * ``hasMoves(view)``, whether the caller may have moves now (then
   * ``/moves`` is read); ``render()``, draw the page from ``view``,
   * ``moves`` and ``truncated``; ``sent()``, forget whatever was chosen,
   * once a command has been sent. ``watching``: why the page has no seat
   * ("no-token", "refused"), or null.
   */
  constructor(api, id, gameType, hooks, { watching = null } = {}) {
    this.api = api;
    this.watching = watching; // why a page without a seat shows the spectators' view (see watchingNote)
    this.base = `/v1/games/${id}`;
    this.id = id;
    this.gameType = gameType;
    this.hooks = hooks;
    this.view = null;
    this.moves = [];
    this.truncated = false;
    this.events = [];
    this.pending = null;
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
  }

  refreshSoon() {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.refresh().catch(showError), 40);
  }

  /** Send a command; the service's sentence shows if it is refused. */
  async command(path, body = {}) {
    try {
      const key = crypto.randomUUID ? { "Idempotency-Key": crypto.randomUUID() } : {};
      await this.api.post(`${this.base}/${path}`, body, key);
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
    new LiveEvents(this.api, this.id, (event) => this.onEvent(event), over, eventTypes(this.gameType)).open();
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
      document.getElementById("status-area").replaceChildren(drawn.status);
      document.getElementById("seats-area").replaceChildren(drawn.seats);
      document.getElementById("table-area").replaceChildren(drawn.table);
      document.getElementById("hand-area").replaceChildren(drawn.hand);
      document.getElementById("actions").replaceChildren(...(you === undefined ? [] : drawn.actions()));
      document.getElementById("results").replaceChildren(...drawn.results.filter(Boolean));
      document.body.dataset.version = String(view.version);
    });
  }

  onEvent(event) {
    this.events.push(event);
    const name = (seat) => (this.view ? seatName(this.view, seat) : `seat ${seat}`);
    document.getElementById("log").append(
      el("li", { "data-version": event.version }, `${event.version}. ${describe(event, name)}`));
    this.refreshSoon();
  }
}

/**
 * What a page without a seat says in place of the hand: that it shows what
 * a spectator sees, why (``why``: the tab has no seat's token, or the one
 * it had was refused), and how a player takes their seat again.
 */
export function watchingNote(why) {
  const reason = why === "refused"
    ? "The seat's token this tab had is not one of this game's, so it shows what a spectator sees: no hand."
    : "This tab holds no seat's token, so it shows what a spectator sees: no hand.";
  return el("div", { class: "note watching", id: "watching" },
    el("p", {}, reason),
    el("p", {}, "A seat's token stays in the tab that opened the seat's link. To play from here, open your"
      + " seat's own link again: the one the lobby gave, ending in #token=…. The tab that has your seat"
      + " shows that link under “This seat's link”."));
}

export function button(label, key, onclick, extra = {}) {
  return el("button", { type: "button", "data-key": key, onclick, ...extra }, label);
}

/** Asking to take back one's last ``word`` ("play", "move"), and answering another's asking. */
export function undoControls(seat, word) {
  const view = seat.view;
  const you = view.you;
  const asked = view.undo_request;
  const send = (path, body) => () => seat.command(path, body);
  if (!asked) {
    const label = view.options.undo === "free" ? `Take back my last ${word}` : `Ask to take back my last ${word}`;
    return [button(label, "undo", send("undo"))];
  }
  if (asked.seat === you) return [el("p", { class: "note" }, `You asked to take your ${word} back; the others are answering.`)];
  if (asked.accepted.includes(you)) return [el("p", { class: "note" }, "You agreed to the take-back.")];
  return [
    el("p", { class: "note" }, `${seatName(view, asked.seat)} asks to take their last ${word} back.`),
    button("Agree", "undo-yes", send("undo/answer", { accept: true })),
    button("Refuse", "undo-no", send("undo/answer", { accept: false })),
  ];
}
