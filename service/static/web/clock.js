// A game's clock as the pages show it (the view's ``clock``): each seat's
// time as it stood at the game's last event, and the running seat's time
// counting down to the view's ``deadline``. The countdown is computed from
// the deadline and the service's time (servertime.js) at every tick, never
// by counting ticks, and every new view brings its own deadline; so it
// cannot drift, and a page that slept shows the right time on waking.

import { el } from "./api.js";
import { serviceNow } from "./servertime.js";
import { seatName } from "./words.js";

/** At or under this many milliseconds, a running time is shown as running low. */
const LOW_MS = 10_000;
const TICK_MS = 250;
let ticking = null;

/** ``ms`` as a clock shows it: "0:07", "4:05", "1:02:03", "2 d 03:04:05"; whole seconds, rounded up. */
export function duration(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n) => String(n).padStart(2, "0");
  const [days, hours, minutes, seconds] = [Math.floor(total / 86400), Math.floor((total % 86400) / 3600),
    Math.floor((total % 3600) / 60), total % 60];
  if (days) return `${days} d ${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  if (hours) return `${hours}:${pad(minutes)}:${pad(seconds)}`;
  return `${minutes}:${pad(seconds)}`;
}

/** A short span in words, for the clock's rule: "30 seconds", "5 minutes", "2 days". */
function span(seconds) {
  const units = [[86400, "day"], [3600, "hour"], [60, "minute"]];
  const [size, unit] = units.find(([s]) => seconds >= s && seconds % s === 0) || [1, "second"];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/** The clock's rule in words (a view's ``clock``, or the lobby's, which has the rule alone). */
export function clockRule(clock) {
  const time = clock.per_move_seconds
    ? `${span(clock.per_move_seconds)} a move`
    : `${span(clock.initial_seconds)} each${clock.increment_seconds ? `, plus ${span(clock.increment_seconds)} a move` : ""}`;
  const then = clock.on_timeout === "computer" ? "the computer moves for a seat whose time runs out"
    : "a seat whose time runs out loses the game for its side";
  return `${time}; ${then}`;
}

/**
 * A time that counts down to ``deadline`` (RFC 3339) for as long as it is
 * on the page: a ``role=timer`` element that the page's one ticker updates.
 */
export function countdown(deadline) {
  startTicking();
  const node = el("span", { class: "countdown", role: "timer", "data-deadline": deadline });
  show(node);
  return node;
}

function show(node) {
  const left = Date.parse(node.dataset.deadline) - serviceNow();
  const up = left <= 0;
  node.textContent = up ? "time is up" : duration(left);
  node.classList.toggle("low", !up && left <= LOW_MS);
  node.classList.toggle("up", up);
}

function startTicking() {
  if (ticking === null) ticking = setInterval(() => document.querySelectorAll("[data-deadline]").forEach(show), TICK_MS);
}

/**
 * The table's clocks: the rule, and each seat's time; the running seat's
 * counts down. Nothing for a game without a clock.
 */
export function clockPanel(view) {
  const clock = view.clock;
  if (!clock) return [];
  return [
    el("p", { class: "note", id: "clock-rule" }, `Clock: ${clockRule(clock)}.`),
    el("ol", { class: "clocks", id: "clocks" }, clock.seats.map(({ seat, remaining_ms: ms }) => {
      const running = clock.seat === seat && clock.deadline !== null;
      return el("li", { class: `clock${running ? " running" : ""}`, "data-seat": seat },
        el("span", { class: "clock-name" }, seatName(view, seat), seat === view.you ? " (you)" : ""),
        running ? countdown(clock.deadline) : el("span", { class: "clock-time" }, duration(ms)));
    })),
  ];
}
