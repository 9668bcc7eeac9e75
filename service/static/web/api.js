// The public API, as the pages use it: fetch with the caller's token, and
// problem+json answers turned into errors that carry the service's sentence.
// Every answer's Date tells the pages the service's time (servertime.js).

import { observeAnswer } from "./servertime.js";

export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && problem.detail) || `The service answered ${status}.`);
    this.status = status;
    this.problem = problem;
  }
}

export class Api {
  constructor(token = null) {
    this.token = token;
  }

  async request(method, path, body, extra = {}) {
    const headers = { Accept: "application/json", ...extra };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const init = { method, headers, cache: "no-store" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const sentAt = Date.now();
    const response = await fetch(path, init);
    observeAnswer(response.headers.get("Date"), sentAt, Date.now());
    const text = await response.text();
    const data = text ? JSON.parse(text) : null;
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  get(path) {
    return this.request("GET", path);
  }

  post(path, body = {}, headers = {}) {
    return this.request("POST", path, body, headers);
  }

  /** Every event of a game's log that this caller may see. */
  async allEvents(gameId) {
    const out = [];
    let after = 0;
    while (after !== null) {
      const page = await this.get(`/v1/games/${gameId}/events?after=${after}&limit=500`);
      out.push(...page.events);
      after = page.next;
    }
    return out;
  }
}

const OPERATOR_KEY = "casino.operator";

/** The game named in the page's query (?game=...). */
export function gameIdFromPage() {
  return new URLSearchParams(location.search).get("game");
}

/**
 * The token for this game: taken from the link's fragment (#token=...) and
 * kept in this tab's sessionStorage under the game's id, or found there
 * from before. The fragment is then dropped from the address bar, so that
 * it is not shown, bookmarked or copied along with the page's address.
 */
export function seatToken(gameId) {
  const key = `casino.token.${gameId}`;
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get("token");
  if (given) {
    sessionStorage.setItem(key, given);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(key);
}

/** Drop this tab's token for the game (one the service refused). */
export function forgetSeatToken(gameId) {
  sessionStorage.removeItem(`casino.token.${gameId}`);
}

const PLAYER_KEY = "casino.player";

/**
 * The player this browser plays as (``{id, name, token}``, as registered),
 * or null. Kept in localStorage, so every tab of this browser has it and it
 * outlasts closing them all; it is sent only in the Authorization header.
 */
export function savedPlayer() {
  try {
    const player = JSON.parse(localStorage.getItem(PLAYER_KEY));
    return player && typeof player.token === "string" ? player : null;
  } catch (error) {
    return null; // not a player this page kept
  }
}

/** Keep ``player`` as this browser's (or, null, forget it). */
export function keepPlayer(player) {
  if (player) localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: player.id, name: player.name, token: player.token }));
  else localStorage.removeItem(PLAYER_KEY);
}

/** A fresh Idempotency-Key, so that a retried command or registration is done once. */
export function idempotencyKey() {
  return crypto.randomUUID ? { "Idempotency-Key": crypto.randomUUID() } : {};
}

export function operatorToken() {
  return sessionStorage.getItem(OPERATOR_KEY);
}

export function setOperatorToken(token) {
  if (token) sessionStorage.setItem(OPERATOR_KEY, token);
  else sessionStorage.removeItem(OPERATOR_KEY);
}

export function tableLink(gameId, token) {
  const base = `${location.origin}/play/table.html?game=${encodeURIComponent(gameId)}`;
  return token ? `${base}#token=${encodeURIComponent(token)}` : base;
}

export function replayLink(gameId) {
  return `${location.origin}/play/replay.html?game=${encodeURIComponent(gameId)}`;
}

/** document.createElement with attributes and children, for short DOM code. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Show an error's sentence in the page's alert area (or clear it). */
export function showError(error) {
  const box = document.getElementById("error");
  if (!box) return;
  box.textContent = error ? error.message : "";
  box.hidden = !error;
}

/**
 * Rebuild part of the page and give the focus back to the control that had
 * it (found again by its data-key), so that keyboard users keep their place.
 */
export function keepingFocus(rebuild) {
  const key = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  rebuild();
  if (!key) return;
  const again = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again && !again.disabled) again.focus();
}
