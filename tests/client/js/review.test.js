// The review panel's placing of decisions (static/js/review.js): a decision that comes after
// `event_index` of the replay's events is shown at the last step whose events end there.

import { test } from "node:test";
import assert from "node:assert/strict";
import { locate, placeEntries } from "../../../static/js/review.js";

// two hands: the first's deal ends after event 10, then steps end at 11, 12, 14; the second
// hand's deal after 20, one step after 21
const HANDS = [{ upto: [10, 11, 12, 14] }, { upto: [20, 21] }];

test("a decision stands at the step its events end on", () => {
  assert.deepEqual(locate(HANDS, 11), { round: 0, step: 2 });
  assert.deepEqual(locate(HANDS, 13), { round: 0, step: 3 }); // an event without a step of its own
  assert.deepEqual(locate(HANDS, 14), { round: 0, step: 4 });
  assert.deepEqual(locate(HANDS, 20), { round: 1, step: 1 });
  assert.deepEqual(locate(HANDS, 99), { round: 1, step: 2 });
  assert.deepEqual(locate(HANDS, 3), { round: 0, step: 1 });
});

test("every entry of every hand is placed, in game order, with where it is in the report", () => {
  const review = { kyokus: [{ entries: [{ event_index: 11 }, { event_index: 14 }] }, { entries: [{ event_index: 21 }] }] };
  const marks = placeEntries(HANDS, review).map(({ round, step, kyoku, index }) => [round, step, kyoku, index]);
  assert.deepEqual(marks, [[0, 2, 0, 0], [0, 4, 0, 1], [1, 2, 1, 0]]);
});
