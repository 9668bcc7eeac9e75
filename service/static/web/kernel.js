// The kernel's events: every game records them under these names beside
// its own (domain/kernel_events.py, by their public names). games.js adds
// them to each game's, events.js tells a game's early ending by them. It
// imports nothing, so any module may import it.

/** The kernel's events, which every game records under these names. */
export const KERNEL_EVENTS = [
  "SeatJoined", "SeatLeft", "SeatResigned", "GameAborted", "ClockSet", "TimedOut", "RatedSet", "RatingsChanged",
  "RematchAnswered", "UndoRequested", "UndoAnswered", "PlayUndone",
];

/** The kernel's events that take a move back (``undone``) and ask and answer about it (``asking``). */
export const UNDO = { undone: ["PlayUndone"], asking: ["UndoRequested", "UndoAnswered"] };

/**
 * The kernel's events that end a game before its rules do, by the view's
 * ``result`` they lead to: each names the seat that resigned, ran out of
 * time or called the game off.
 */
export const ENDINGS = { resigned: "SeatResigned", timed_out: "TimedOut", aborted: "GameAborted" };
