// Tiles drawn by the project itself: inline SVG, no images, no fonts required for suits.
// A physical tile is an int 0..135 (kind = id >> 2), as in the engine; null is a hidden tile.

import { el } from "./dom.js";

export const kindOf = (id) => id >> 2;
// a tile is red only when the rules (the server's rule facts, a table's `red`) say so
const NO_RED = new Set();

const SUIT = "mpsz";
const MAN_NUM = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOR_GLYPH = ["東", "南", "西", "北", "", "發", "中"];
const HONOR_INDEX = ["E", "S", "W", "N", "P", "F", "C"];

/** "5m", "0p" (red), "1z" ... the mpsz name of a physical tile. */
export function tileName(id, red = NO_RED) {
  const k = kindOf(id);
  const n = red.has(id) ? 0 : (k % 9) + 1;
  return k < 27 ? `${n}${SUIT[Math.floor(k / 9)]}` : `${k - 26}z`;
}

/** Short corner index: 1m..9m, 1p.., E S W N P F C. */
export function kindIndex(k) {
  return k < 27 ? `${(k % 9) + 1}${SUIT[Math.floor(k / 9)]}` : HONOR_INDEX[k - 27];
}

/** Sort key: kind first, red five before the plain fives of its kind. */
export function sortHand(ids, red = NO_RED) {
  return [...ids].sort((a, b) => kindOf(a) - kindOf(b) || (red.has(b) - red.has(a)) || a - b);
}

const BLUE = "#1b4f9c", GREEN = "#137a3a", RED = "#c8231d", BLACK = "#1b1b1b";

function circle(x, y, r, c) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${c}" stroke-width="${r / 3.2}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r / 2.6}" fill="${c}"/>`;
}

const PIN_LAYOUT = {
  2: [[30, 22, "g"], [30, 58, "b"]],
  3: [[15, 16, "b"], [30, 40, "r"], [45, 64, "g"]],
  4: [[18, 22, "b"], [42, 22, "g"], [18, 58, "g"], [42, 58, "b"]],
  5: [[16, 18, "b"], [44, 18, "g"], [30, 40, "r"], [16, 62, "g"], [44, 62, "b"]],
  6: [[18, 15, "g"], [42, 15, "g"], [18, 43, "r"], [42, 43, "r"], [18, 65, "r"], [42, 65, "r"]],
  7: [[13, 11, "g"], [30, 19, "g"], [47, 27, "g"], [18, 46, "r"], [42, 46, "r"], [18, 67, "r"], [42, 67, "r"]],
  8: [18, 42].flatMap((x) => [12, 31, 50, 69].map((y) => [x, y, "b"])),
  9: [14, 40, 66].flatMap((y, row) => [13, 30, 47].map((x) => [x, y, row === 1 ? "r" : row ? "g" : "b"])),
};
const PIN_R = { 2: 14, 3: 10, 4: 11, 5: 10, 6: 9, 7: 8, 8: 8.5, 9: 8 };
const COLOR = { b: BLUE, g: GREEN, r: RED };

function pin(n, red) {
  if (n === 1) {
    return circle(30, 40, 22, BLUE) + `<circle cx="30" cy="40" r="13" fill="none" stroke="${red ? RED : RED}" stroke-width="3"/>` +
      circle(30, 40, 5, red ? RED : GREEN);
  }
  return PIN_LAYOUT[n].map(([x, y, c]) => circle(x, y, PIN_R[n], red ? RED : COLOR[c])).join("");
}

function stick(x, y, c, rot = 0) {
  const t = rot ? ` transform="rotate(${rot} ${x} ${y})"` : "";
  return `<g${t}><rect x="${x - 3.5}" y="${y - 11}" width="7" height="22" rx="3" fill="${c}"/>` +
    `<rect x="${x - 4.5}" y="${y - 1.2}" width="9" height="2.4" rx="1" fill="${c}" opacity=".75"/>` +
    `<line x1="${x}" y1="${y - 8}" x2="${x}" y2="${y + 8}" stroke="#fff" stroke-width="1.2" opacity=".6"/></g>`;
}

const SOU_LAYOUT = {
  2: [[30, 24, "g"], [30, 56, "g"]],
  3: [[30, 24, "g"], [19, 56, "g"], [41, 56, "g"]],
  4: [[19, 24, "g"], [41, 24, "g"], [19, 56, "g"], [41, 56, "g"]],
  5: [[15, 24, "g"], [45, 24, "g"], [30, 40, "r"], [15, 56, "g"], [45, 56, "g"]],
  6: [[15, 24, "g"], [30, 24, "g"], [45, 24, "g"], [15, 56, "g"], [30, 56, "g"], [45, 56, "g"]],
  7: [[30, 14, "r"], [15, 40, "g"], [30, 40, "g"], [45, 40, "g"], [15, 66, "g"], [30, 66, "g"], [45, 66, "g"]],
  9: [14, 40, 66].flatMap((y) => [15, 30, 45].map((x, col) => [x, y, col === 1 ? "r" : "g"])),
};

function sou(n, red) {
  if (n === 1) {
    // a small bird: body, wing, tail feathers, eye
    const c = red ? RED : GREEN;
    return `<path d="M18 50 Q14 30 30 22 Q44 18 44 30 Q44 44 30 50 Z" fill="${c}"/>` +
      `<path d="M30 50 L22 68 M30 50 L30 70 M30 50 L38 68" stroke="${RED}" stroke-width="3" stroke-linecap="round"/>` +
      `<path d="M44 26 L52 24 L45 31 Z" fill="#d19a1a"/><circle cx="38" cy="27" r="2.2" fill="#fff"/>` +
      `<path d="M24 36 Q30 30 38 38" stroke="#fff" stroke-width="2" fill="none"/>`;
  }
  if (n === 8) {
    const c = red ? RED : GREEN;
    return [[12, 24, 20], [24, 24, -20], [36, 24, 20], [48, 24, -20], [12, 56, -20], [24, 56, 20], [36, 56, -20], [48, 56, 20]]
      .map(([x, y, r]) => stick(x, y, c, r)).join("");
  }
  return SOU_LAYOUT[n].map(([x, y, c]) => stick(x, y, red ? RED : COLOR[c])).join("");
}

const CJK = "'Riichi Tile Glyphs','Noto Serif CJK JP','Noto Sans CJK JP','Hiragino Mincho ProN','Yu Mincho','MS Mincho',serif";

function text(x, y, size, c, s, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${c}" font-family="${CJK}" font-weight="${weight}" text-anchor="middle">${s}</text>`;
}

function man(n, red) {
  return text(30, 36, 30, red ? RED : BLACK, MAN_NUM[n - 1]) + text(30, 72, 30, RED, "萬");
}

function honor(h) {
  if (h === 4) return `<rect x="12" y="14" width="36" height="52" rx="3" fill="none" stroke="${BLUE}" stroke-width="3"/>`;
  if (h === 6) {
    // chun drawn as strokes so it never depends on a font
    return `<g stroke="${RED}" stroke-width="6" fill="none" stroke-linecap="square"><rect x="13" y="24" width="34" height="24"/><line x1="30" y1="10" x2="30" y2="72"/></g>`;
  }
  return text(30, 54, 42, h === 5 ? GREEN : BLACK, HONOR_GLYPH[h]);
}

const cache = new Map();

/** The SVG face of a tile (kind 0..33), red or not. */
export function faceSvg(k, red = false) {
  const key = k * 2 + (red ? 1 : 0);
  if (!cache.has(key)) {
    const n = (k % 9) + 1;
    const body = k < 9 ? man(n, red) : k < 18 ? pin(n, red) : k < 27 ? sou(n, red) : honor(k - 27);
    const idx = `<text x="4" y="10" font-size="9" fill="#777" font-family="sans-serif">${kindIndex(k)}</text>`;
    cache.set(key, `<svg viewBox="0 0 60 80" aria-hidden="true">${body}${idx}</svg>`);
  }
  return cache.get(key);
}

/** A tile element. opts: {red, back, turned, cls, title} */
export function tileEl(id, opts = {}) {
  const e = el("span", "tile");
  if (id === null || id === undefined || id < 0 || opts.back) {
    e.classList.add("back");
  } else {
    const red = (opts.red || NO_RED).has(id);
    e.innerHTML = faceSvg(kindOf(id), red);
    e.dataset.tile = String(id);
    e.dataset.name = tileName(id, opts.red || NO_RED);
    if (red) e.classList.add("aka");
  }
  if (opts.turned) e.classList.add("turned");
  if (opts.cls) e.classList.add(...opts.cls.split(/\s+/).filter(Boolean));
  if (opts.title) e.title = opts.title;
  return e;
}
