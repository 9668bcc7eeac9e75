// The service's time, as the pages estimate it from the Date header of its
// answers. A clock's deadline is the service's time; the browser's own clock
// may be off by any amount, so a countdown computed from Date.now() alone
// would be off by as much.
//
// An answer dated D (whole seconds) was made while the service's clock read
// between D and D + 1 s, and at some moment between the request's sending
// and the answer's arrival by the browser's clock: so the service's clock
// is ahead of the browser's by more than D - arrival and less than
// D + 1 s - sending. Each answer narrows that interval; the estimate is its
// middle. Should the browser's clock jump (the intervals no longer meet),
// the estimate starts again from the latest answer.

let low = null;
let high = null;

/** Learn from one answer: its ``Date`` header, and when it was sent and arrived (Date.now()). */
export function observeAnswer(date, sentAt, arrivedAt) {
  const dated = date ? Date.parse(date) : NaN;
  if (Number.isNaN(dated)) return;
  const least = dated - arrivedAt;
  const most = dated + 1000 - sentAt;
  if (low === null || least > high || most < low) {
    low = least;
    high = most;
  } else {
    low = Math.max(low, least);
    high = Math.min(high, most);
  }
}

/** How far the service's clock is ahead of the browser's, in milliseconds (0 before any answer). */
export function serviceOffset() {
  return low === null ? 0 : (low + high) / 2;
}

/** The service's time now (milliseconds since the epoch), as far as the answers tell. */
export function serviceNow() {
  return Date.now() + serviceOffset();
}
