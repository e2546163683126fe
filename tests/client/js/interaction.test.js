// The inquiry/acknowledge protocol as interaction.js states it: what opens an inquiry, what
// answering, a newer inquiry, the server's word, a round result, a reconnect's snapshot and the
// match's end do to the seat's interaction state. Pure data in, pure data out: no DOM, no clock.

import { test } from "node:test";
import assert from "node:assert/strict";
import { initial, reduce, asking, nextRound, timeLeft } from "../../../static/js/interaction.js";

const WAITS = [{ kind: 3, han: 1, fu: 30, points: 1000 }];
const opt = (...tiles) => ({ tiles, tenpai: [] });
const turn = (id) => ({ id, base_ms: 5000, bank_ms: 20000,
  actions: [{ type: "discard", options: [opt(40), { tiles: [77], tenpai: WAITS }] }, { type: "riichi", options: [opt(77)] }] });
const pon = (id) => ({ id, base_ms: 5000, bank_ms: 18000,
  actions: [{ type: "skip", options: [opt()] }, { type: "pon", options: [opt(4, 5), opt(4, 6)] }] });
const next = (id) => ({ id, base_ms: 30000, bank_ms: 0, actions: [{ type: "next_round", options: [opt()] }] });
const RESULT = { t: "result", kind: "draw", deltas: [0, 0, 0, 0] };
const ROUND = { t: "round", kyoku: 1, honba: 0, kyotaku: 0 };

const run = (actions, s = initial()) => actions.reduce(reduce, s);
const ask = (inq, now = 0) => ({ type: "inquiry", inq, now });

test("an inquiry opens with its clock, and its bank becomes the seat's", () => {
  const s = run([ask(turn(1), 1000)]);
  assert.equal(s.inq.id, 1);
  assert.equal(s.bank, 20000);
  assert.equal(s.out, null);
  assert.equal(asking(s).id, 1);
  assert.deepEqual(timeLeft(s, 1000), { base: 5000, bank: 20000 });
  assert.deepEqual(timeLeft(s, 8000), { base: 0, bank: 18000 }); // the base ran out, then 2 s of bank
  assert.deepEqual(timeLeft(s, 99000), { base: 0, bank: 0 });
});

test("answering sends the inquiry's id once, closes it and keeps the discard's waits", () => {
  const s = run([ask(turn(7)), { type: "select", tile: 77 }, { type: "answer", action: 0, option: 1 }]);
  assert.deepEqual(s.out, { type: "answer", inquiry: 7, action: 0, option: 1 });
  assert.equal(s.inq, null);
  assert.equal(s.selected, null);
  assert.deepEqual(s.waits, WAITS);
  const later = reduce(s, { type: "answer", action: 0, option: 0 });
  assert.equal(later.out, null, "a closed inquiry is not answered twice");
  assert.equal(reduce(later, { type: "clock", bank: 17000 }).bank, 17000);
});

test("a newer inquiry replaces the open one and leaves riichi mode and the choice behind", () => {
  const s = run([ask(turn(1)), { type: "riichi", on: true }, ask(pon(2))]);
  assert.equal(s.inq.id, 2);
  assert.equal(s.riichi, false);
  assert.equal(s.bank, 18000);
  const chosen = run([{ type: "choose", index: 1 }, { type: "answer", action: 1, option: 1 }], s);
  assert.deepEqual(chosen.out, { type: "answer", inquiry: 2, action: 1, option: 1 });
  assert.equal(chosen.choosing, null);
});

test("the server's answered closes only its own inquiry; a stale id changes nothing", () => {
  const s = run([ask(turn(3)), ask(turn(4))]);
  assert.equal(reduce(s, { type: "answered", inquiry: 3 }), s);
  assert.equal(reduce(s, { type: "answered", inquiry: 4 }).inq, null);
});

test("the next event settles a decision, but not the next_round acknowledgement", () => {
  const s = run([ask(pon(5)), { type: "choose", index: 1 }, { type: "event", events: [{ t: "draw", seat: 2 }], seat: 0 }]);
  assert.equal(s.inq, null);
  assert.equal(s.choosing, null);
  assert.equal(s.out, null, "settled by the server: nothing to send");
  const waiting = run([ask(next(6)), { type: "event", events: [], seat: 0 }]);
  assert.equal(waiting.inq.id, 6);
  assert.equal(asking(waiting), null, "the hand offers nothing: the result's button answers it");
  assert.equal(nextRound(waiting), 0);
});

test("escape leaves riichi mode or a tile choice first, then skips", () => {
  const s = run([ask(pon(2)), { type: "choose", index: 1 }, { type: "escape" }]);
  assert.equal(s.choosing, null);
  assert.equal(s.inq.id, 2);
  assert.deepEqual(reduce(s, { type: "escape" }).out, { type: "answer", inquiry: 2, action: 0, option: 0 });
  const turnOnly = run([ask(turn(3))]);
  assert.equal(reduce(turnOnly, { type: "escape" }), turnOnly, "no skip on one's own turn");
});

test("a round result waits for its acknowledgement: the button answers next_round", () => {
  const s = run([{ type: "event", events: [RESULT], seat: 0 }, ask(next(9))]);
  assert.deepEqual(s.overlay, { result: RESULT });
  const acked = reduce(s, { type: "ack" });
  assert.deepEqual(acked.out, { type: "answer", inquiry: 9, action: 0, option: 0 });
  assert.equal(acked.answeredNext, true);
  assert.deepEqual(acked.overlay, { result: RESULT }, "the result stays up until the next round");
  assert.equal(reduce(acked, { type: "ack" }).out, null, "acknowledged once");
  const round = reduce(acked, { type: "event", events: [ROUND], seat: 0 });
  assert.equal(round.overlay, null);
  assert.equal(round.answeredNext, false);
});

test("a result closed before the server asks answers its next_round inquiry on arrival", () => {
  const s = run([{ type: "event", events: [RESULT], seat: 0 }, { type: "ack" }]);
  assert.equal(s.overlay, null);
  assert.equal(s.ackPending, true);
  assert.equal(s.out, null, "no inquiry yet: nothing to answer");
  const asked = reduce(s, ask(next(10)));
  assert.deepEqual(asked.out, { type: "answer", inquiry: 10, action: 0, option: 0 });
  assert.equal(asked.inq, null);
  assert.equal(asked.ackPending, false);
  // a new round forgets an acknowledgement the server never asked for
  assert.equal(run([{ type: "event", events: [RESULT], seat: 0 }, { type: "ack" }, { type: "event", events: [ROUND], seat: 0 }]).ackPending, false);
});

test("an own call clears the waits preview; another seat's does not", () => {
  const s = run([ask(turn(1)), { type: "answer", action: 0, option: 1 }]);
  const call = (seat) => ({ type: "event", events: [{ t: "call", seat, meld: { type: "pon" } }], seat: 0 });
  assert.deepEqual(reduce(s, call(2)).waits, WAITS);
  assert.deepEqual(reduce(s, call(0)).waits, []);
});

test("a snapshot after a reconnect restores the result and reopens the pending inquiry", () => {
  const before = run([ask(turn(1), 0), { type: "riichi", on: true }]);
  const snap = { type: "snapshot", events: [ROUND, { t: "draw", seat: 0 }], inquiry: turn(1), now: 5000, seat: 0 };
  const s = reduce(before, snap);
  assert.equal(s.inq.id, 1);
  assert.equal(s.riichi, false);
  assert.equal(s.overlay, null);
  assert.deepEqual(timeLeft(s, 5000), { base: 5000, bank: 20000 }, "a fresh base time from the snapshot on");
  const atResult = reduce(initial(), { type: "snapshot", events: [ROUND, RESULT], inquiry: next(4), now: 0, seat: 0 });
  assert.deepEqual(atResult.overlay, { result: RESULT });
  assert.deepEqual(reduce(atResult, { type: "ack" }).out, { type: "answer", inquiry: 4, action: 0, option: 0 });
  const nothing = reduce(initial(), { type: "snapshot", events: [ROUND], inquiry: null, now: 0, seat: 0 });
  assert.equal(nothing.inq, null);
});

test("the match's end closes the inquiry; the last result comes before the standings", () => {
  const END = { t: "end", scores: [30000, 25000, 25000, 20000] };
  const s = run([ask(next(20)), { type: "event", events: [RESULT, END], seat: 0 }, { type: "end", final: END }]);
  assert.equal(s.ended, true);
  assert.equal(s.inq, null);
  assert.deepEqual(s.overlay, { result: RESULT, final: END });
  assert.deepEqual(reduce(s, { type: "showFinal" }).overlay, { final: END });
  const bare = reduce(run([ask(turn(2))]), { type: "end", final: {} });
  assert.deepEqual(bare.overlay, { final: {} });
  assert.equal(bare.inq, null);
});
