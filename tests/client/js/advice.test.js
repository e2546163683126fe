// advice.js: the server's ranking read as marks (best first), which decisions are worth
// asking about (as the review counts them), and the bot's figures written short.

import { test } from "node:test";
import assert from "node:assert/strict";
import { adviceMap, worthAdvice, formatValue } from "../../../static/js/advice.js";

const opt = (...tiles) => ({ tiles, tenpai: [] });

test("the ranking keeps the server's order: rank 0 is the best", () => {
  const map = adviceMap([
    { action: 1, option: 0, value: 1e7 },
    { action: 0, option: 3, value: 100040 },
    { action: 0, option: 1, value: 100040 },
  ]);
  assert.deepEqual([...map.keys()], ["1:0", "0:3", "0:1"]);
  assert.equal(map.get("1:0").rank, 0);
  assert.equal(map.get("0:1").rank, 2);
  assert.equal(map.get("0:3").value, 100040);
});

test("only a decision with more than one thing to do is worth advice", () => {
  assert.equal(worthAdvice(null), false);
  assert.equal(worthAdvice({ actions: [{ type: "discard", options: [opt(5)] }] }), false);
  assert.equal(worthAdvice({ actions: [{ type: "next_round", options: [opt()] }] }), false);
  assert.equal(worthAdvice({ actions: [{ type: "discard", options: [opt(5), opt(9)] }] }), true);
  assert.equal(worthAdvice({ actions: [{ type: "skip", options: [opt()] }, { type: "pon", options: [opt(1, 2)] }] }), true);
});

test("values are shown short", () => {
  assert.equal(formatValue(1e7), "1.0e7");
  assert.equal(formatValue(100040.4), "100040");
  assert.equal(formatValue(35.46), "35.5");
  assert.equal(formatValue(-1200.2), "-1200");
});
