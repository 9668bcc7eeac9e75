// The event types the service sends, and a sentence for each event.

export const EVENT_TYPES = [
  "GameCreated", "ShuffleCommitted", "ClientSeedSet", "HandDealt", "InitialPairsTaken", "RoundDealt",
  "CardTrailed", "CardsCaptured", "BundleStolen", "BuildMade", "CardDrawn", "CardPlucked", "PointsScored", "HandEnded",
  "SeedRevealed", "CountedOut", "GameFinished", "UndoRequested", "UndoAnswered", "PlayUndone", "HandVoided",
];

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
    default: return event.type;
  }
}
