// Live streams over Server-Sent Events, opened with a ticket: a game's
// events (LiveEvents), and what a player is told across their games
// (PlayerEvents). The service ends a stream now and then; a game's, once
// the game is over, answers 204, which closes it.
//
// Why a fresh ticket on every reconnection, and for a game's stream
// ``?after=N`` rather than the ``Last-Event-ID`` header: EventSource cannot
// send an Authorization header, so a stream is opened with a ticket in its
// URL (never the token itself), and a ticket opens one stream only.
// EventSource's own retry resends that same URL (with Last-Event-ID), so its
// ticket is already spent and the retry is refused. So on any error or end
// the page closes the source itself, asks for a new ticket and opens a new
// EventSource; a new one cannot set headers at all, Last-Event-ID included,
// so the last version seen goes in ``after``, which the service reads the
// same way.

// A message's name is its type, and EventSource hands a named message only
// to a listener for that name: so the page listens for every type it is
// told of (for a game, ``types`` from games.js by the view's ``game_type``).

class TicketedStream {
  /**
   * ``ticketPath``: where a ticket is asked for (with the caller's token);
   * ``onMessage(type, data)`` for each message of ``types``; ``query()``,
   * what to add to the ticket's URL on each opening; ``isOver()`` says when
   * to stop reconnecting.
   */
  constructor(api, ticketPath, types, onMessage, { query = () => "", isOver = () => false } = {}) {
    this.api = api;
    this.ticketPath = ticketPath;
    this.types = types;
    this.onMessage = onMessage;
    this.query = query;
    this.isOver = isOver;
    this.source = null;
    this.stopped = false;
    this.failures = 0; // connections in a row that did not open: each waits longer
  }

  async open() {
    if (this.stopped) return;
    let ticket;
    try {
      ticket = await this.api.post(this.ticketPath);
    } catch (error) {
      this.retry();
      return;
    }
    const source = new EventSource(`${ticket.stream}${this.query()}`);
    this.source = source;
    source.onopen = () => {
      this.failures = 0;
    };
    for (const type of this.types) source.addEventListener(type, (message) => this.onMessage(type, JSON.parse(message.data)));
    source.onerror = () => {
      // Reconnect ourselves, with a new ticket: the one in this URL is spent.
      source.close();
      if (this.source === source) this.retry();
    };
  }

  /** A stream that ended as streams do is reopened at once; one that failed, after a pause. */
  retry() {
    if (this.stopped || this.isOver()) return;
    const pause = Math.min(250 * this.failures, 5000);
    this.failures += 1;
    setTimeout(() => this.open(), pause);
  }

  stop() {
    this.stopped = true;
    if (this.source) this.source.close();
  }
}

/** A game's events, each once and in order, from the version after the last one had. */
export class LiveEvents extends TicketedStream {
  /**
   * ``onEvent(event)`` for each event in order; ``isOver()`` says when to
   * stop reconnecting; ``types``, the names of the game's events.
   */
  constructor(api, gameId, onEvent, isOver, types) {
    super(api, `/v1/games/${gameId}/stream-tickets`, types, (type, event) => {
      if (event.version <= this.last) return;
      this.last = event.version;
      onEvent(event);
    }, { query: () => `&after=${this.last}`, isOver });
    this.last = 0;
  }
}

/** What the service tells a player of their games: each notice's type and data (see openapi.yaml). */
export const PLAYER_NOTICES = ["your_turn", "game_started", "game_over"];

/**
 * A player's stream (with the player's token in ``api``): ``onNotice(type,
 * data)`` for each notice. On every (re)connection the service tells
 * ``your_turn`` again for each game waiting for the player; what else
 * changed meanwhile the page reads from the player's games.
 */
export class PlayerEvents extends TicketedStream {
  constructor(api, onNotice) {
    super(api, "/v1/players/me/stream-tickets", PLAYER_NOTICES, onNotice);
  }
}
