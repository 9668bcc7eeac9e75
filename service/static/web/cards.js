// Cards drawn by the page: a face is HTML with the suit as an inline SVG
// shape, so nothing (image or font) is loaded for it.

import { el } from "./api.js";
import { ISOLATED } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const SUITS = {
  S: { name: "spades", red: false },
  H: { name: "hearts", red: true },
  D: { name: "diamonds", red: true },
  C: { name: "clubs", red: false },
};
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };
const SHAPES = {
  S: [["path", "M50 4C78 30 95 44 95 62c0 14-11 23-23 23-9 0-16-5-19-11 1 10 5 18 13 21H34c8-3 12-11 13-21-3 6-10 11-19 11C16 85 5 76 5 62 5 44 22 30 50 4z"]],
  H: [["path", "M50 92C20 66 5 51 5 31 5 16 17 6 30 6c10 0 17 7 20 15 3-8 10-15 20-15 13 0 25 10 25 25 0 20-15 35-45 61z"]],
  D: [["path", "M50 4 88 50 50 96 12 50z"]],
  C: [["circle", 50, 27, 20], ["circle", 27, 58, 20], ["circle", 73, 58, 20],
      ["path", "M45 50h10c1 20 6 36 14 45H31c8-9 13-25 14-45z"]],
};

export function parseCard(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

export function cardName(code) {
  const { rank, suit } = parseCard(code);
  return `${RANK_NAMES[rank] || rank} of ${SUITS[suit].name}`;
}

export function suitIcon(suit) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("suit");
  for (const [kind, ...args] of SHAPES[suit]) {
    const shape = document.createElementNS(SVG, kind);
    if (kind === "path") shape.setAttribute("d", args[0]);
    else ["cx", "cy", "r"].forEach((name, i) => shape.setAttribute(name, args[i]));
    svg.append(shape);
  }
  return svg;
}

/** A face-up card; a button when ``onclick`` is given. */
export function cardFace(code, { onclick = null, pressed = null, disabled = false } = {}) {
  const { rank, suit } = parseCard(code);
  const tag = onclick ? "button" : "span";
  const node = el(tag, {
    class: `card ${SUITS[suit].red ? "red" : "black"}`,
    "data-card": code,
    "aria-label": cardName(code),
    role: onclick ? null : "img",
    type: onclick ? "button" : null,
    "aria-pressed": pressed === null ? null : String(pressed),
    disabled: onclick ? disabled : null,
    onclick,
  }, el("span", { class: "rank" }, rank), suitIcon(suit));
  return node;
}

const CODE = /\b(?:10|[2-9AJQK])[SHDC]\b/g;

/**
 * Words that name cards by their codes ("Take 6S 2H with 8S"), each card
 * drawn as its face, small, as the table draws it: a reader sees the faces
 * and a screen reader says the cards' names ("six of spades"). A name set
 * apart in the words (words.js, ``isolated``) stays a name, in a ``<bdi>``.
 */
export function withFaces(text) {
  const parts = [];
  text.split(ISOLATED).forEach((piece, i) => {
    if (i % 2) parts.push(el("bdi", {}, piece)); // split's odd pieces are the names its pattern captured
    else parts.push(...facesIn(piece));
  });
  return el("span", { class: "in-words" }, parts);
}

function facesIn(text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(CODE)) {
    parts.push(text.slice(last, match.index), cardFace(match[0]));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

/** ``count`` cards lying face down, drawn as a small fan with the number. */
export function cardBacks(count, label) {
  const fan = el("span", { class: "backs", role: "img", "aria-label": `${count} ${label}` });
  for (let i = 0; i < Math.min(count, 6); i++) fan.append(el("span", { class: "card back" }));
  fan.append(el("span", { class: "count" }, String(count)));
  return fan;
}
