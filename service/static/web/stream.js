// A game's live events over Server-Sent Events. The service ends a stream
// now and then, and once the game is over answers 204, which closes it.
//
// Why a fresh ticket and ``?after=N`` on every reconnection, not the
// ``Last-Event-ID`` header: EventSource cannot send an Authorization header,
// so a stream is opened with a ticket in its URL, and a ticket opens one
// stream only. EventSource's own retry resends that same URL (with
// Last-Event-ID), so its ticket is already spent and the retry is refused.
// So on any error or end the page closes the source itself, asks for a new
// ticket and opens a new EventSource; a new one cannot set headers at all,
// Last-Event-ID included, so the last version seen goes in ``after``, which
// the service reads the same way.

// A message's name is its event's type, and EventSource hands a named
// message only to a listener for that name: so the page listens for every
// type of its game (``types``, from events.js by the view's ``game_type``).

export class LiveEvents {
  /**
   * ``onEvent(event)`` for each event in order; ``isOver()`` says when to
   * stop reconnecting; ``types``, the names of the game's events.
   */
  constructor(api, gameId, onEvent, isOver, types) {
    this.api = api;
    this.gameId = gameId;
    this.onEvent = onEvent;
    this.isOver = isOver;
    this.types = types;
    this.last = 0;
    this.source = null;
    this.stopped = false;
    this.failures = 0; // connections in a row that did not open: each waits longer

  }

  async open() {
    if (this.stopped) return;
    let ticket;
    try {
      ticket = await this.api.post(`/v1/games/${this.gameId}/stream-tickets`);
    } catch (error) {
      this.retry();
      return;
    }
    const source = new EventSource(`${ticket.stream}&after=${this.last}`);
    this.source = source;
    source.onopen = () => {
      this.failures = 0;
    };
    const receive = (message) => {
      const event = JSON.parse(message.data);
      if (event.version <= this.last) return;
      this.last = event.version;
      this.onEvent(event);
    };
    for (const type of this.types) source.addEventListener(type, receive);
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
