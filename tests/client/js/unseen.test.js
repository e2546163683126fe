// unseen.js: the copies of a wait a seat has not seen, from its own view only.

import { test } from "node:test";
import assert from "node:assert/strict";
import { newTable, apply } from "../../../static/js/model.js";
import { seenCounts, unseenOf } from "../../../static/js/unseen.js";

const RULES = { players: 4, red: [16, 52, 88], wall: 136 };

function table() {
  const tb = newTable(4, 0, RULES);
  apply(tb, { t: "round", kyoku: 0, honba: 0, kyotaku: 0, dora: [9], hands: [[0, 1, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48], null, null, null] });
  return tb;
}

test("own hand, rivers and the dora indicator count; hidden hands do not", () => {
  const tb = table();
  // kind 0 (1m): two in my hand; kind 2 (3m): one in hand (id 8) and the indicator 9
  assert.equal(unseenOf(tb, 0, 0), 2);
  assert.equal(unseenOf(tb, 0, 2), 2);
  apply(tb, { t: "draw", seat: 1, tile: null });
  apply(tb, { t: "discard", seat: 1, tile: 2 }); // a third 1m on a river
  assert.equal(unseenOf(tb, 0, 0), 1);
  // another seat's view: its own (unknown here) hand, the river and the indicator
  assert.equal(unseenOf(tb, 1, 0), 3);
  assert.equal(unseenOf(tb, 1, 2), 3);
});

test("a called discard counts once, in the meld; an added kan's fourth tile counts", () => {
  const tb = table();
  apply(tb, { t: "draw", seat: 1, tile: null });
  apply(tb, { t: "discard", seat: 1, tile: 100 }); // kind 25
  apply(tb, { t: "call", seat: 2, meld: { type: "pon", tiles: [100, 101, 102], called: 100, from: 1, added: null } });
  assert.equal(seenCounts(tb, 0)[25], 3);
  apply(tb, { t: "call", seat: 2, meld: { type: "kakan", tiles: [100, 101, 102, 103], called: 100, from: 1, added: 103 } });
  assert.equal(seenCounts(tb, 0)[25], 4);
  assert.equal(unseenOf(tb, 0, 25), 0);
});

test("a closed kan and a sanma North set aside are seen by everyone", () => {
  const tb = newTable(3, 0, { players: 3, red: [], wall: 108 });
  apply(tb, { t: "round", kyoku: 0, honba: 0, kyotaku: 0, dora: [], hands: [[], null, null] });
  apply(tb, { t: "call", seat: 1, meld: { type: "ankan", tiles: [108, 109, 110, 111], called: null, from: null, added: null } });
  apply(tb, { t: "call", seat: 2, meld: { type: "kita", tiles: [120], called: null, from: null, added: null } });
  assert.equal(unseenOf(tb, 0, 27), 0);
  assert.equal(unseenOf(tb, 0, 30), 3);
});
