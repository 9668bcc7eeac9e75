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

/**
 * ``name`` set apart from the words around it by Unicode's isolates
 * (U+2068 ... U+2069, which a name cannot hold): a line drawn by cards.js'
 * ``withFaces`` shows it as a name, in a ``<bdi>``, and never reads a card
 * code in it, so a player called "KS" is not drawn as the king of spades.
 */
export function isolated(name) {
  return `\u2068${name}\u2069`;
}

/** An isolated name, its name captured (for ``String.split``). */
export const ISOLATED = /\u2068([^\u2069]*)\u2069/;

/** ``text`` with its first letter a capital (the first of an isolated name: see ``isolated``). */
export function capital(text) {
  const at = text.startsWith("\u2068") ? 1 : 0;
  return text.slice(0, at) + text.charAt(at).toUpperCase() + text.slice(at + 1);
}

/**
 * How a page names seats (``view`` null: as "seat N", before the page has the view) in the sentences it writes to its reader, whose
 * own seat is ``you`` (undefined for a spectator or the operator): the
 * reader's seat is "you" ("You trail 6H", "your 7H"), any other by its name.
 * ``subject(seat, third, second)`` starts a sentence with the seat and the
 * verb in the person it needs; ``name`` and ``whose`` go inside one, and
 * ``person`` gives any other player's name. With ``isolate``, for a line
 * drawn by ``withFaces``, each name is ``isolated``.
 */
export function readerWords(view, you, { isolate = false } = {}) {
  const mine = (seat) => you !== undefined && you !== null && seat === you;
  const person = isolate ? isolated : (name) => name;
  const named = (seat) => person(view ? seatName(view, seat) : `seat ${seat}`);
  return {
    you,
    person,
    name: (seat) => (mine(seat) ? "you" : named(seat)),
    whose: (seat) => (mine(seat) ? "your" : `${named(seat)}'s`),
    subject: (seat, third, second) => (mine(seat) ? `You ${second}` : `${named(seat)} ${third}`),
  };
}

/** A variant as players call it: "mass-cool-casino" is "Mass Cool Casino", "cassino" "Cassino". */
export function variantName(variant) {
  return variant.split("-").map(capital).join(" ");
}
