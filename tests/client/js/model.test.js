// Unit tests of the client's pure modules (node's built-in runner: `node --test tests/client/js`).
// They run the same files the browser loads; nothing here touches the DOM.

import { test } from "node:test";
import assert from "node:assert/strict";
import { newTable, apply, seatWind } from "../../../static/js/model.js";
import { fromEngine } from "../../../static/js/events.js";
import { commitmentOf, verifySeed, shortHex } from "../../../static/js/fair.js";
import { BACKOFF_MS, FINAL_CLOSE, CLOSE_RESTART, parseMessage } from "../../../static/js/net.js";
import { playable, sameFace } from "../../../static/js/decide.js";

const HAND = [0, 4, 8, 36, 40, 44, 72, 76, 80, 108, 109, 124, 125];

function table(events) {
  const tb = newTable(4, 0);
  for (const ev of events) for (const e of fromEngine(ev, tb)) apply(tb, e);
  return tb;
}

const START = [
  { type: "BeginGame", players: 4, scores: [25000, 25000, 25000, 25000] },
  { type: "RoundStarted", kyoku: 1, honba: 2, kyotaku: 0, dealer: 1, scores: [25000, 25000, 25000, 25000], dora_indicator: 50 },
  { type: "Haipai", seat: 0, tiles: HAND },
];

test("a round starts with the dealer, the dora and the own hand sorted", () => {
  const tb = table(START);
  assert.equal(tb.dealer, 1);
  assert.equal(tb.honba, 2);
  assert.deepEqual(tb.dora, [50]);
  assert.deepEqual(tb.players[0].hand, HAND);
  assert.equal(seatWind(tb, 1), 0); // the dealer is East
  assert.equal(seatWind(tb, 0), 3);
});

test("a pon takes the two own tiles and marks the giver's river tile called", () => {
  const tb = table([...START,
    { type: "Draw", seat: 1, tile: null, remaining: 69 },
    { type: "Discard", seat: 1, tile: 126, tsumogiri: true, riichi: false },
    { type: "Call", seat: 0, meld: [1, [124, 125, 126], 126, 1, -1] }]);
  const me = tb.players[0];
  assert.equal(me.hand.length, 11);
  assert.ok(!me.hand.includes(124) && !me.hand.includes(125));
  assert.deepEqual(me.melds.map((m) => [m.type, m.called, m.from]), [["pon", 126, 1]]);
  assert.equal(tb.players[1].river[0].called, true);
  assert.equal(me.open, true);
  assert.equal(tb.turn, 0);
});

test("an accepted riichi puts the stick on the table with the server's scores", () => {
  const tb = table([...START,
    { type: "Draw", seat: 1, tile: null, remaining: 69 },
    { type: "Discard", seat: 1, tile: 3, tsumogiri: true, riichi: true },
    { type: "RiichiAccepted", seat: 1, scores: [25000, 24000, 25000, 25000], kyotaku: 1 }]);
  assert.equal(tb.players[1].riichi, true);
  assert.equal(tb.players[1].river[0].riichi, true);
  assert.equal(tb.kyotaku, 1);
  assert.equal(tb.scores[1], 24000);
});

test("a win carries the winner's melds, and the game's end its points", () => {
  const tb = table(START);
  const [r] = fromEngine({ type: "Agari", winners: [0], from_seat: 0, tile: 110, ura_indicators: [], deltas: [6000, -2000, -2000, -2000],
    scores: [31000, 23000, 23000, 23000], wins: [{ seat: 0, from_seat: 0, tile: 110, hand: HAND, pao_seat: -1,
      melds: [[1, [124, 125, 126], 126, 1, -1]], result: { han: 1, fu: 30, limit: null, yakuman: 0, ron: 0, tsumo_other: 2000,
        tsumo_dealer: 2000, dora: 0, aka: 0, ura: 0, kita: 0, yaku: [{ name: "yakuhai_chun", han: 1 }] } }] }, tb);
  assert.equal(r.kind, "win");
  assert.equal(r.wins[0].tsumo, true);
  assert.deepEqual(r.wins[0].melds[0].tiles, [124, 125, 126]);
  apply(tb, r);
  assert.deepEqual(tb.scores, [31000, 23000, 23000, 23000]);
  const [end] = fromEngine({ type: "GameEnded", scores: [31000, 23000, 23000, 23000], ranks: [1, 2, 3, 4], points: [51, -7, -17, -27] }, tb);
  assert.deepEqual(end, { t: "end", scores: [31000, 23000, 23000, 23000], ranks: [1, 2, 3, 4], results: [51, -7, -17, -27] });
});

test("the shuffle commitment is sha256 of 'riichi-seed-v1:' and the seed", async () => {
  const good = "bdbe96f41bf000cf3e91a360f3602e3a4a3604507762b2740c50c164a0977095";
  assert.equal(await commitmentOf(42), good);
  assert.equal(await verifySeed(42, good), "verified");
  assert.equal(await verifySeed(42, good.toUpperCase()), "verified");
  assert.equal(await verifySeed(43, good), "mismatch");
  assert.equal(shortHex(good), "bdbe96f41bf0");
});

test("a 128-bit seed opens its salted v2 commitment, and only with its salt", async () => {
  // sha256("riichi-seed-v2:<salt>:<seed>") as the server commits to it
  const salt = "00112233445566778899aabbccddeeff", seed = "220446049250313080847263336181640625001";
  const good = "95206144f9aab87acb8c371499a0736d1ae8466e9cc07cf1b7a425e43e595cb0";
  const msg = parseMessage(`{"type": "end", "game": "g", "seed": ${seed}, "seed_text": "${seed}", "salt": "${salt}"}`);
  assert.equal(msg.seed, seed);
  assert.equal(await verifySeed(msg.seed_text, good, msg.salt), "verified");
  assert.equal(await verifySeed(msg.seed_text, good), "mismatch");
});

test("reconnects back off 0.5 to 10 s; kicked and the like stop; 1012 is a restart", () => {
  assert.deepEqual(BACKOFF_MS, [500, 1000, 2000, 4000, 8000, 10000]);
  assert.equal(FINAL_CLOSE[4006], "kicked");
  assert.equal(FINAL_CLOSE[4001], "badtoken");
  assert.equal(FINAL_CLOSE[1012], undefined);
  assert.equal(CLOSE_RESTART, 1012);
});

test("riichi mode offers only the riichi discards, matched by face", () => {
  const inq = { actions: [
    { type: "discard", options: [{ tiles: [0], tenpai: [] }, { tiles: [16], tenpai: [] }] },
    { type: "riichi", options: [{ tiles: [17], tenpai: [{ kind: 4, han: 1, fu: 40, yakuman: 0, points: 1300 }] }] }] };
  const all = playable(inq, false), riichi = playable(inq, true);
  assert.equal(all.size, 2);
  assert.deepEqual([...riichi.keys()], [17]);
  assert.equal(riichi.get(17).tenpai[0].points, 1300); // the value the protocol gives, shown as is
  // a plain 5m (17) and the red 5m (16) look different: sameFace keeps them apart
  const faces = sameFace(all, [16, 18], new Set([16]));
  assert.ok(faces.has(16) && !faces.has(18));
});

test("a 63-bit seed survives the wire and opens its commitment", async () => {
  // sha256("riichi-seed-v1:9007199254740993"): 2**53 + 1, which a JS number cannot hold
  const good = "fbda1bd5151e042d5fcd0687046cccba92123bc21c5aab1012aaff2ea49be8b2";
  const msg = parseMessage('{"type": "end", "game": "g", "seed": 9007199254740993}');
  assert.equal(msg.seed, "9007199254740993");
  assert.equal(await commitmentOf(msg.seed), good);
  assert.equal(parseMessage('{"type": "end", "seed": null}').seed, null);
  assert.equal(parseMessage('{"type": "event", "seq": 1}').seq, 1);
});

test("sanma: a Kita event sets the North aside as a kita meld, and the hand keeps closed", () => {
  const north = 120; // kind 30 (North), copy 0
  const hand = [0, 4, 8, 36, 40, 44, 72, 76, 80, 108, 109, 124, north];
  const tb = newTable(3, 0);
  const events = [
    { type: "BeginGame", players: 3, scores: [35000, 35000, 35000] },
    { type: "RoundStarted", kyoku: 0, honba: 0, kyotaku: 0, dealer: 0, scores: [35000, 35000, 35000], dora_indicator: 50 },
    { type: "Haipai", seat: 0, tiles: hand },
    { type: "Draw", seat: 0, tile: 12, remaining: 54 },
    { type: "Kita", seat: 0, meld: [5, [north], -1, -1, -1] },
    { type: "Draw", seat: 0, tile: 16, remaining: 53, rinshan: true },
  ];
  for (const ev of events) for (const e of fromEngine(ev, tb)) apply(tb, e);
  const p = tb.players[0];
  assert.equal(tb.n, 3);
  assert.deepEqual(p.melds.map((m) => [m.type, m.tiles]), [["kita", [north]]]);
  assert.ok(!p.hand.includes(north) && p.drawn === 16);
  assert.equal(p.hand.length, 13); // 12 left of the deal, and the first draw
  assert.equal(p.open, false); // a kita does not open the hand
});
