// graph.js: the scores over a match from its events, and why it ended.

import { test } from "node:test";
import assert from "node:assert/strict";
import { scoreHistory, endReason } from "../../../static/js/graph.js";

const round = (kyoku, honba = 0) => ({ type: "RoundStarted", kyoku, honba, kyotaku: 0 });
const events = (endKyoku, final) => [
  { type: "BeginGame", players: 4, scores: [25000, 25000, 25000, 25000] },
  round(0), { type: "Agari", scores: [33000, 17000, 25000, 25000] },
  round(1), { type: "Ryuukyoku", scores: [34500, 15500, 26500, 23500] },
  round(endKyoku, 1), { type: "Agari", scores: final },
  { type: "GameEnded", scores: final },
];

test("a point per hand after the start, labelled by round, hand and honba", () => {
  const h = scoreHistory(events(3, [34500, 15500, 35500, 14500]));
  assert.deepEqual(h.points.map((p) => p.label), ["", "E1-0", "E2-0", "E4-1"]);
  assert.deepEqual(h.points[2].scores, [34500, 15500, 26500, 23500]);
  assert.equal(h.kyoku, 3);
});

test("the end is its own point when the leftover sticks changed a score", () => {
  const ev = events(3, [34500, 15500, 35500, 14500]);
  ev[ev.length - 1] = { type: "GameEnded", scores: [34500, 15500, 36500, 14500] };
  const h = scoreHistory(ev);
  assert.equal(h.points.length, 5);
  assert.deepEqual(h.points[4].scores, [34500, 15500, 36500, 14500]);
});

test("bust before the last hand, the last hand played, the extra round", () => {
  assert.equal(endReason(scoreHistory(events(2, [60000, -500, 25000, 15500])), 1), "reason_bust");
  assert.equal(endReason(scoreHistory(events(3, [34500, 15500, 35500, 14500])), 1), "reason_last");
  assert.equal(endReason(scoreHistory(events(4, [34500, 15500, 35500, 14500])), 1), "reason_extra");
  // a negative score at the last hand with no bust rule known is still that hand's end
  assert.equal(endReason(scoreHistory(events(7, [60000, -500, 25000, 15500])), 2), "reason_last");
  assert.equal(endReason(scoreHistory(events(7, [60000, -500, 25000, 15500])), null), "reason_bust");
});

test("a game of ours says why itself: a bust on the last hand is a bust", () => {
  const ev = events(3, [60000, -500, 25000, 15500]);
  ev[ev.length - 1] = { ...ev[ev.length - 1], reason: "bust" };
  assert.equal(endReason(scoreHistory(ev), 1), "reason_bust");
  ev[ev.length - 1] = { ...ev[ev.length - 1], reason: "extension" };
  assert.equal(endReason(scoreHistory(ev), 1), "reason_extra");
});
