// The event types the service sends, game by game, and a sentence for each event.

import { listed } from "./words.js";

/** Each game's event types (a view's ``game_type``): the names its stream's messages carry. */
export const GAME_EVENTS = {
  cassino: [
    "GameCreated", "ShuffleCommitted", "ClientSeedSet", "HandDealt", "InitialPairsTaken", "RoundDealt",
    "CardTrailed", "CardsCaptured", "BundleStolen", "BuildMade", "CardDrawn", "CardPlucked", "PointsScored", "HandEnded",
    "SeedRevealed", "CountedOut", "GameFinished", "UndoRequested", "UndoAnswered", "PlayUndone", "HandVoided",
    "ClockSet", "SeatJoined", "SeatLeft", "SeatResigned", "GameAborted", "TimedOut",
  ],
  "mass-cool-casino": [
    "TableOpened", "ShufflePromised", "MoneyDealt", "HandsDrawn", "BetPlaced", "StopCalled", "PotWon", "PotTied",
    "DeckReshuffled", "ShuffleRevealed", "MoneyCounted", "BetUndoAsked", "BetUndoAnswered", "BetTakenBack",
    "TimerSet", "PlayerSeated", "PlayerUnseated", "PlayerResigned", "TableAborted", "TurnTimedOut",
  ],
};

/**
 * The event types to listen for in a game of ``gameType``: its own, and
 * (for a game this page does not know) every type it knows of.
 */
export function eventTypes(gameType) {
  return GAME_EVENTS[gameType] || [...new Set(Object.values(GAME_EVENTS).flat())];
}

/** "Ann's", and "Your" for a seat named You (the lobby's name for the person playing alone). */
export function owns(name) {
  return name === "You" ? "Your" : `${name}'s`;
}

function short(hex) {
  return hex ? `${hex.slice(0, 12)}…` : "hidden";
}

/** One line about ``event``; ``name(seat)`` names a seat. */
export function describe(event, name) {
  const d = event.data || {};
  switch (event.type) {
    case "GameCreated": return `The game of ${d.variant} is created.`;
    case "ShuffleCommitted": return `Hand ${d.hand_number}'s shuffle is committed: ${short(d.commitment)}`;
    case "ClientSeedSet": return `${name(d.seat)} adds a seed to the shuffle.`;
    case "HandDealt": return `Hand ${d.hand_number} is dealt.`;
    case "RoundDealt": return `Round ${d.round} is dealt${d.last ? " (the last)" : ""}.`;
    case "InitialPairsTaken": return `${name(d.seat)} takes the pairs dealt to the table.`;
    case "CardTrailed": return `${name(d.seat)} trails ${d.card}.`;
    case "CardsCaptured": return `${name(d.seat)} takes ${d.targets.join(" ")} with ${d.card}${d.sweep ? ": a sweep" : ""}.`;
    case "BundleStolen": return `${name(d.seat)} steals ${name(d.victim)}'s bundle with ${d.card}.`;
    case "BuildMade": return `${name(d.seat)} builds ${d.build.value} with ${d.card}.`;
    case "CardDrawn": return `${name(d.seat)} draws a card.`;
    case "CardPlucked": return `${name(d.seat)} plucks ${d.card}.`;
    case "PointsScored": return `Points scored; totals ${d.scores.join(" – ")}.`;
    case "HandEnded": return `Hand ${d.hand_number} ends; totals ${d.scores.join(" – ")}.`;
    case "SeedRevealed": return `Hand ${d.hand_number}'s seed is revealed: ${short(d.seed)}`;
    case "CountedOut": return `${name(d.seat)} counts out with ${d.total}: ${d.success ? "made it" : "fell short"}.`;
    case "GameFinished": return `The game is over (${String(d.reason).replace(/_/g, " ")}).`;
    case "UndoRequested": return `${name(d.seat)} asks to take the last play back.`;
    case "UndoAnswered": return `${name(d.seat)} ${d.accepted ? "agrees" : "refuses"}.`;
    case "PlayUndone": return `${name(d.seat)}'s play is taken back${d.forced ? " by the operator" : ""}.`;
    case "HandVoided": return `Hand ${d.hand_number} is voided: ${d.reason}`;
    // Seats, resigning and clocks: every game has them, under its own names
    case "ClockSet": case "TimerSet": return "The game has a clock.";
    case "SeatJoined": case "PlayerSeated": return `${d.name} takes seat ${d.seat}.`;
    case "SeatLeft": case "PlayerUnseated": return `Seat ${d.seat} is open again.`;
    case "SeatResigned": case "PlayerResigned": return `${name(d.seat)} resigns.`;
    case "GameAborted": case "TableAborted": return `${name(d.seat)} calls the game off.`;
    case "TimedOut": case "TurnTimedOut": return `${owns(name(d.seat))} time has run out${d.computer ? ": the computer moves for them" : ""}.`;
    // Mass Cool Casino
    case "TableOpened": return `The game of Mass Cool Casino is created for ${listed(d.names.map((n) => n ?? "an open seat"))}.`;
    case "ShufflePromised": return `Shuffle ${d.shuffle} is committed: ${short(d.commitment)}`;
    case "MoneyDealt": return `${name(d.dealer)} deals ${d.money[0].length} cards of money to each player${d.fixed ? " (a deck fixed by the operator)" : ""}.`;
    case "HandsDrawn": return `Round ${d.round}: everyone still in draws a hand; ${name(d.leader)} bets first.`;
    case "BetPlaced": return `${name(d.seat)} bets ${d.cards.join(" ")}.`;
    case "StopCalled": return `${name(d.seat)} calls stop.`;
    case "PotWon": return `Round ${d.round}: ${owns(name(d.winner))} ${d.hands[d.winner]} takes the pot of ${d.pot.length} cards${d.knocked_out.length ? `; ${listed(d.knocked_out.map(name))} ${d.knocked_out.length === 1 ? "is" : "are"} out` : ""}.`;
    case "PotTied": return `Round ${d.round}: ${listed(d.tied.map((s) => `${owns(name(s))} ${d.hands[s]}`))} tie; the pot and the hands go back into the deck.`;
    case "DeckReshuffled": return `Shuffle ${d.shuffle}: the deck is reshuffled${d.fixed ? " (fixed by the operator)" : ""}.`;
    case "ShuffleRevealed": return `Shuffle ${d.shuffle}'s seed is revealed: ${short(d.seed)}`;
    case "MoneyCounted": return `The money is counted (${String(d.reason).replace(/_/g, " ")}): ${d.totals.map((t, s) => `${name(s)} ${t}`).join(", ")}; ${d.winners.length ? `${listed(d.winners.map(name))} ${d.winners.length === 1 ? "wins" : "share the win"}` : "nobody wins"}.`;
    case "BetUndoAsked": return `${name(d.seat)} asks to take their last move back.`;
    case "BetUndoAnswered": return `${name(d.seat)} ${d.accepted ? "agrees" : "refuses"}.`;
    case "BetTakenBack": return `${name(d.seat)}'s move is taken back${d.forced ? " by the operator" : ""}.`;
    default: return event.type;
  }
}
