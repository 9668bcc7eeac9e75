// A sentence for each event the service sends, of every game type (games.js
// and kernel.js list them), and who ended a game before its rules did.

import { ENDINGS } from "./kernel.js";
import { capital, listed } from "./words.js";

/**
 * Who ended a finished game before its rules did, and how, in words for
 * ``who`` (words.js, ``readerWords``): "Bob resigned", "your time ran out",
 * "Ann called the game off"; null for a game that ended by its rules (or
 * whose ending event ``events`` does not hold).
 */
export function earlyEnding(view, events, who) {
  const type = ENDINGS[view.result];
  const ending = type ? events.filter((e) => e.type === type).at(-1) : undefined;
  if (!ending) return null;
  const { seat } = ending.data;
  switch (view.result) {
    case "resigned": return who.subject(seat, "resigned", "resigned");
    case "timed_out": return `${capital(who.whose(seat))} time ran out`;
    default: return who.subject(seat, "called", "called") + " the game off";
  }
}

function short(hex) {
  return hex ? `${hex.slice(0, 12)}…` : "hidden";
}

/**
 * One line about ``event``, written to whoever reads the page: ``who`` (see
 * words.js, ``readerWords``) names a seat, and calls the reader's own seat "you".
 */
export function describe(event, who) {
  const d = event.data || {};
  const { name, person, subject, whose } = who;
  switch (event.type) {
    case "GameCreated": return `The game of ${d.variant} is created.`;
    case "ShuffleCommitted": return `Hand ${d.hand_number}'s shuffle is committed: ${short(d.commitment)}`;
    case "ClientSeedSet": return `${subject(d.seat, "adds", "add")} a seed to the shuffle.`;
    case "HandDealt": return `Hand ${d.hand_number} is dealt.`;
    case "RoundDealt": return `Round ${d.round} is dealt${d.last ? " (the last)" : ""}.`;
    case "InitialPairsTaken": return `${subject(d.seat, "takes", "take")} the pairs dealt to the table.`;
    case "CardTrailed": return `${subject(d.seat, "trails", "trail")} ${d.card}.`;
    case "CardsCaptured": return `${subject(d.seat, "takes", "take")} ${d.targets.join(" ")} with ${d.card}${d.sweep ? ": a sweep" : ""}.`;
    case "BundleStolen": return `${subject(d.seat, "steals", "steal")} ${whose(d.victim)} bundle with ${d.card}.`;
    case "BuildMade": return `${subject(d.seat, "builds", "build")} ${d.build.value} with ${d.card}.`;
    case "CardDrawn": return `${subject(d.seat, "draws", "draw")} a card.`;
    case "CardPlucked": return `${subject(d.seat, "plucks", "pluck")} ${d.card}.`;
    case "PointsScored": return `Points scored; totals ${d.scores.join(" – ")}.`;
    case "HandEnded": return `Hand ${d.hand_number} ends; totals ${d.scores.join(" – ")}.`;
    case "SeedRevealed": return `Hand ${d.hand_number}'s seed is revealed: ${short(d.seed)}`;
    case "CountedOut": return `${subject(d.seat, "counts", "count")} out: the claim counts ${d.total}, ${d.success ? "enough" : "short of the target"}.`;
    case "GameFinished": return `The game is over (${String(d.reason).replace(/_/g, " ")}).`;
    case "HandVoided": return `Hand ${d.hand_number} is voided: ${d.reason}`;
    // The kernel's events: every game has them, under these names
    case "UndoRequested": return `${subject(d.seat, "asks", "ask")} to take their last move back.`;
    case "UndoAnswered": return `${subject(d.seat, d.accepted ? "agrees" : "refuses", d.accepted ? "agree" : "refuse")}.`;
    case "PlayUndone": return `${capital(whose(d.seat))} move is taken back${d.forced ? " by the operator" : ""}.`;
    case "ClockSet": return "The game has a clock.";
    case "SeatJoined": return `${person(d.name)} takes seat ${d.seat}.`;
    case "SeatLeft": return `Seat ${d.seat} is open again.`;
    case "SeatResigned": return `${subject(d.seat, "resigns", "resign")}.`;
    case "GameAborted": return `${subject(d.seat, "calls", "call")} the game off.`;
    case "RatedSet": return "The game is rated.";
    case "RatingsChanged": return `Ratings: ${d.changes.map((c) => `${name(c.seat)} ${Math.round(c.before[0])} → ${Math.round(c.after[0])}`).join(", ")}.`;
    case "RematchAnswered": return `${capital(name(d.seat))} answers the rematch${d.game_id ? ": every seat has, and the new game is made" : ""}.`;
    case "TimedOut": return `${capital(whose(d.seat))} time has run out${d.computer ? ": the computer moves for them" : ""}.`;
    // Mass Cool Casino
    case "TableOpened": return `The game of Mass Cool Casino is created for ${listed(d.names.map((n) => (n === null ? "an open seat" : person(n))))}.`;
    case "ShufflePromised": return `Shuffle ${d.shuffle} is committed: ${short(d.commitment)}`;
    case "MoneyDealt": return `${subject(d.dealer, "deals", "deal")} ${d.money[0].length} cards of money to each player${d.fixed ? " (a deck fixed by the operator)" : ""}.`;
    case "HandsDrawn": return `Round ${d.round}: everyone still in draws a hand; ${name(d.leader)} ${d.leader === who.you ? "bet" : "bets"} first.`;
    case "BetPlaced": return `${subject(d.seat, "bets", "bet")} ${d.cards.join(" ")}.`;
    case "StopCalled": return `${subject(d.seat, "calls", "call")} stop.`;
    case "PotWon": return `Round ${d.round}: ${whose(d.winner)} ${d.hands[d.winner]} takes the pot of ${d.pot.length} cards${d.knocked_out.length ? `; ${listed(d.knocked_out.map(name))} ${d.knocked_out.length === 1 && d.knocked_out[0] !== who.you ? "is" : "are"} out` : ""}.`;
    case "PotTied": return `Round ${d.round}: ${listed(d.tied.map((s) => `${whose(s)} ${d.hands[s]}`))} tie; the pot and the hands go back into the deck.`;
    case "DeckReshuffled": return `Shuffle ${d.shuffle}: the deck is reshuffled${d.fixed ? " (fixed by the operator)" : ""}.`;
    case "ShuffleRevealed": return `Shuffle ${d.shuffle}'s seed is revealed: ${short(d.seed)}`;
    case "MoneyCounted": return `The money is counted (${String(d.reason).replace(/_/g, " ")}): ${d.totals.map((t, s) => `${name(s)} ${t}`).join(", ")}; ${d.winners.length ? `${listed(d.winners.map(name))} ${d.winners.length === 1 && d.winners[0] !== who.you ? "wins" : d.winners.length === 1 ? "win" : "share the win"}` : "nobody wins"}.`;
    default: return event.type;
  }
}
