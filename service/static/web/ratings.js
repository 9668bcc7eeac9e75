// Ratings as every page says them: a rating in words, links to a player's
// page and a variant's leaderboard, and what a finished rated game did to
// each seat's rating (the view's ``rating_changes``).

import { el } from "./api.js";
import { seatName } from "./words.js";

/** "1512", or "1500?" while the rating is provisional (fewer than 5 rated games). */
export function ratingText(rating) {
  return `${rating.rating}${rating.provisional ? "?" : ""}`;
}

/** "Ann (1512)", a name with its holder's rating beside it; the name alone for a seat without one (a guest's, a computer's). */
export function ratedName(name, rating) {
  return rating ? `${name} (${ratingText(rating)})` : name;
}

/** A seat's rating beside its name at the table (the view's ``seats[].rating``), or null for a seat without one. */
export function seatRating(seat) {
  if (!seat.rating) return null;
  return el("span", { class: "seat-rating", title: seat.rating.provisional ? "Rating (provisional)" : "Rating" },
    ` ${ratingText(seat.rating)}`);
}

export function playerLink(id, name) {
  return el("a", { href: `/play/player.html?id=${encodeURIComponent(id)}`, class: "player-link" }, name);
}

export function leaderboardLink(variant, words) {
  return el("a", { href: `/play/leaderboard.html?variant=${encodeURIComponent(variant)}` }, words);
}

/** "+12", "-7", "±0". */
function signed(change) {
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0";
}

/** Each seat's rating before and after the finished rated game, or null (unrated, or not rated yet). */
export function ratingChanges(view) {
  if (!view.rating_changes) return null;
  return el("section", { id: "rating-changes", "aria-label": "Ratings" },
    el("h2", {}, "Ratings"),
    el("ul", {}, view.rating_changes.map((c) => el("li", { "data-seat": c.seat },
      playerLink(c.player, seatName(view, c.seat)),
      `: ${ratingText(c.before)} → `, el("span", { class: "rating" }, ratingText(c.after)),
      ` (${signed(c.change)})`))));
}
