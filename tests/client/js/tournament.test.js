// tournament_chart.js: the totals by round the tournament page draws, summed in tenths as the
// server's standings are, penalties from their round, and the sign the standings print.

import { test } from "node:test";
import assert from "node:assert/strict";
import { totalsByRound, signedPoints } from "../../../static/js/tournament_chart.js";

const table = (round, seats, points, status = "finished") => ({ round, seats, points, status });

test("each player's total after each round, from the finished tables only", () => {
  const tables = [
    table(1, ["a", "b", "c", "d"], [45.0, 5.0, -15.0, -35.0]),
    table(2, ["d", "c", "b", "a"], [30.1, 10.2, -10.0, -30.3]),
    table(3, ["a", "b", "c", "d"], null, "playing"),
  ];
  const got = totalsByRound(tables, [], 3);
  assert.deepEqual(got.a, [0, 45, 14.7, 14.7]);
  assert.deepEqual(got.d, [0, -35, -4.9, -4.9]);
});

test("tenths sum exactly: a thousand rounds of 0.1 make 100", () => {
  const tables = Array.from({ length: 1000 }, (_, r) => table(r + 1, ["a", "b", "c"], [0.1, 0.2, -0.3]));
  const got = totalsByRound(tables, [], 1000);
  assert.equal(got.a[1000], 100);
  assert.equal(got.c[1000], -300);
});

test("a penalty counts from its round, or at the last point without one", () => {
  const tables = [table(1, ["a", "b", "c", "d"], [10, 0, 0, -10]), table(2, ["a", "b", "c", "d"], [10, 0, 0, -10])];
  assert.deepEqual(totalsByRound(tables, [{ name: "a", points: 5, round: 1 }], 2).a, [0, 5, 15]);
  assert.deepEqual(totalsByRound(tables, [{ name: "a", points: 5 }], 2).a, [0, 10, 15]);
  assert.deepEqual(totalsByRound(tables, [{ name: "e", points: 2.5 }], 2).e, [0, 0, -2.5]);
});

test("totals print with one decimal and a sign on gains", () => {
  assert.equal(signedPoints(12.34), "+12.3");
  assert.equal(signedPoints(-4), "-4.0");
  assert.equal(signedPoints(0), "0.0");
  assert.equal(signedPoints(-0.01), "0.0");
});
