// Words every page uses the same way.

/** "a", "a and b", "a, b and c". */
export function listed(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** A seat's name in a view; "nobody" for no seat. */
export function seatName(view, seat) {
  return seat === null || seat === undefined ? "nobody" : view.seats[seat].name;
}
