// decide.js: the calls the player's toggles leave out are passed by the page (never a ron),
// and their buttons are not drawn when the offer holds something else too.

import { test } from "node:test";
import assert from "node:assert/strict";
import { autoAnswer, leftOut } from "../../../static/js/decide.js";
import { newTable } from "../../../static/js/model.js";

const opt = (...tiles) => ({ tiles, tenpai: [] });
const offer = (...types) => ({ id: 1, actions: types.map((type) => ({ type, options: [opt(1, 2)] })) });
const tb = newTable(4, 0, { players: 4, red: [], wall: 136 });
const auto = (inq, opts) => autoAnswer(inq, opts, tb, 0, null);

test("no chii passes a chii offer, not a pon", () => {
  assert.deepEqual(auto(offer("skip", "chii"), { noChii: true }), [0, 0]);
  assert.equal(auto(offer("skip", "chii", "pon"), { noChii: true }), null);
  assert.equal(auto(offer("skip", "chii"), {}), null);
});

test("skip kans passes an open kan offer alone, and leaves out every kind of kan", () => {
  assert.deepEqual(auto(offer("skip", "daiminkan"), { noKan: true }), [0, 0]);
  assert.equal(auto(offer("skip", "pon", "daiminkan"), { noKan: true }), null);
  assert.deepEqual([...leftOut({ noKan: true })].sort(), ["ankan", "daiminkan", "kakan"]);
  assert.deepEqual([...leftOut({ noChii: true, noKan: true })].sort(), ["ankan", "chii", "daiminkan", "kakan"]);
});

test("a ron is never passed by a toggle", () => {
  assert.equal(auto(offer("skip", "ron", "chii"), { noChii: true, noCalls: true }), null);
  assert.deepEqual(auto(offer("skip", "pon", "chii"), { noChii: true, noCalls: true }), [0, 0]);
});

test("leaving answers as the time-out would: pass, or discard the drawn tile", async () => {
  const { defaultAnswer } = await import("../../../static/js/decide.js");
  assert.deepEqual(defaultAnswer(offer("skip", "ron")), [0, 0]);
  const turn = { id: 2, actions: [{ type: "tsumo", options: [opt()] }, { type: "discard", options: [opt(4), opt(8), opt(77)] }] };
  assert.deepEqual(defaultAnswer(turn), [1, 2]);
  assert.deepEqual(defaultAnswer({ id: 3, actions: [{ type: "next_round", options: [opt()] }] }), [0, 0]);
  assert.equal(defaultAnswer(null), null);
});
