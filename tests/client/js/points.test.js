// points.js: the help panel's point table against well-known values.

import { test } from "node:test";
import assert from "node:assert/strict";
import { payments, basicPoints } from "../../../static/js/points.js";

test("non-dealer hands", () => {
  assert.deepEqual(payments(1, 30, false), { ron: 1000, tsumo: [300, 500] });
  assert.deepEqual(payments(2, 20, false), { ron: null, tsumo: [400, 700] });
  assert.deepEqual(payments(2, 25, false), { ron: 1600, tsumo: null });
  assert.deepEqual(payments(3, 40, false), { ron: 5200, tsumo: [1300, 2600] });
  assert.deepEqual(payments(4, 30, false), { ron: 7700, tsumo: [2000, 3900] }); // no kiriage
  assert.deepEqual(payments(3, 70, false), { ron: 8000, tsumo: [2000, 4000] }); // mangan
  assert.equal(payments(1, 20, false).tsumo, null);
});

test("dealer hands and the limits", () => {
  assert.deepEqual(payments(1, 30, true), { ron: 1500, tsumo: [500] });
  assert.deepEqual(payments(4, 30, true), { ron: 11600, tsumo: [3900] });
  assert.deepEqual(payments(2, 40, true), { ron: 3900, tsumo: [1300] });
  assert.deepEqual([5, 6, 8, 11, 13].map((h) => payments(h, 30, false).ron), [8000, 12000, 16000, 24000, 32000]);
  assert.deepEqual([5, 6, 8, 11, 13].map((h) => payments(h, 30, true).ron), [12000, 18000, 24000, 36000, 48000]);
  assert.equal(basicPoints(7, 30), 3000);
});
