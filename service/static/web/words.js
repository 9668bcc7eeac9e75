// Words every page uses the same way.

/** "a", "a and b", "a, b and c". */
export function listed(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** A seat's name in a view; "nobody" for no seat, and "seat N (open)" for a seat nobody holds yet. */
export function seatName(view, seat) {
  if (seat === null || seat === undefined) return "nobody";
  return view.seats[seat].name ?? `seat ${seat} (open)`;
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * How a page names seats (``view`` null: as "seat N", before the page has the view) in the sentences it writes to its reader, whose
 * own seat is ``you`` (undefined for a spectator or the operator): the
 * reader's seat is "you" ("You trail 6H", "your 7H"), any other by its name.
 * ``subject(seat, third, second)`` starts a sentence with the seat and the
 * verb in the person it needs; ``name`` and ``whose`` go inside one.
 */
export function readerWords(view, you) {
  const mine = (seat) => you !== undefined && you !== null && seat === you;
  const named = (seat) => (view ? seatName(view, seat) : `seat ${seat}`);
  return {
    you,
    name: (seat) => (mine(seat) ? "you" : named(seat)),
    whose: (seat) => (mine(seat) ? "your" : `${named(seat)}'s`),
    subject: (seat, third, second) => (mine(seat) ? `You ${second}` : `${named(seat)} ${third}`),
  };
}

/** A variant as players call it: "mass-cool-casino" is "Mass Cool Casino", "cassino" "Cassino". */
export function variantName(variant) {
  return variant.split("-").map(capital).join(" ");
}
