// The game types the web client knows: one registry, which every page reads
// (the table, the replay, the lobby, the event log's words), keyed by a
// view's ``game_type``. A game type the service serves and this registry
// does not name is a page that cannot show it (tests/web/test_static.py
// holds the registry to the service's game types).
//
// Events are named as the log shows them: by their public names, one name
// in every game for what every game shares (the kernel's events, kernel.js).
//
// The pages read it (table.js, replay.js, lobby.js); the modules it loads
// (each game's table and view, and what they share: seat.js, events.js)
// never import it back, so the client's modules import one way only.

import { KERNEL_EVENTS, UNDO } from "./kernel.js";

/**
 * Each game type: ``name`` (the lobby's heading for its variants), its own
 * ``events`` (beside the kernel's), the events a seat's move appends
 * (``plays``) and the one that deals fresh cards and so starts over what the
 * table shows as just played (``fresh``), the events that commit a shuffle's
 * seed and reveal it (``shuffles``, with the field that numbers the shuffle
 * and the replay's heading for it), its ``table`` page module, and its
 * ``view`` module, whose ``REPLAY`` draws it in the replay.
 */
export const GAME_TYPES = {
  cassino: {
    name: "Cassino and its family",
    events: [
      "GameCreated", "ShuffleCommitted", "ClientSeedSet", "HandDealt", "InitialPairsTaken", "RoundDealt", "CardTrailed",
      "CardsCaptured", "BundleStolen", "BuildMade", "CardDrawn", "CardPlucked", "PointsScored", "HandEnded",
      "SeedRevealed", "CountedOut", "GameFinished", "HandVoided",
    ],
    plays: ["CardTrailed", "CardsCaptured", "BuildMade", "BundleStolen", "CardPlucked"],
    fresh: ["HandDealt"],
    shuffles: { committed: "ShuffleCommitted", revealed: "SeedRevealed", number: "hand_number", heading: "Hand" },
    table: () => import("./cassinotable.js"),
    view: () => import("./tableview.js"),
  },
  "mass-cool-casino": {
    name: "Mass Cool Casino",
    events: [
      "TableOpened", "ShufflePromised", "MoneyDealt", "HandsDrawn", "BetPlaced", "StopCalled", "PotWon", "PotTied",
      "DeckReshuffled", "ShuffleRevealed", "MoneyCounted",
    ],
    plays: ["BetPlaced", "StopCalled"],
    fresh: ["HandsDrawn"],
    shuffles: { committed: "ShufflePromised", revealed: "ShuffleRevealed", number: "shuffle", heading: "Shuffle" },
    table: () => import("./mcctable.js"),
    view: () => import("./mccview.js"),
  },
};

/** The game type of a view (a view without ``game_type`` is Cassino's, as the first release's were). */
export function gameTypeOf(view) {
  return view.game_type || "cassino";
}

/** The registry's entry for ``gameType``, or an error a page shows: it cannot show a game it does not know. */
export function gameType(gameType) {
  const known = GAME_TYPES[gameType];
  if (!known) throw new Error(`This page cannot show a game of ${gameType}.`);
  return known;
}

/** A game type's moves in its log (``plays``, ``fresh``, and the kernel's ``undone`` and ``asking``). */
export function movesOf(gameType) {
  const known = GAME_TYPES[gameType];
  return known ? { plays: known.plays, fresh: known.fresh, ...UNDO } : null;
}

/**
 * The event types to listen for in a game of ``gameType``: its own and the
 * kernel's, and (for a game this page does not know) every type it knows of.
 */
export function eventTypes(gameType) {
  const known = GAME_TYPES[gameType];
  const own = known ? known.events : Object.values(GAME_TYPES).flatMap((g) => g.events);
  return [...new Set([...own, ...KERNEL_EVENTS])];
}
